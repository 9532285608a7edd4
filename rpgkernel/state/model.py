"""The campaign state as a JSON document, and the fold that builds it.

The state is never changed except by folding journal events: each event may
carry ``changes`` (see ``changes.py``), applied in order. The undo history
is part of the fold: every transaction that changed something is pushed on
``history.done``; an undo moves it to ``history.undone``, a redo back, and a
new change clears ``undone``.
"""

from __future__ import annotations

import copy

from typing import Any, Iterable, Mapping, cast

from ..messages import t
from . import changes as ch
from .events import Event

FORMAT = 1              # of the state document (snapshots of another format are ignored)
HISTORY_LIMIT = 1000    # undoable transactions remembered
UNDO, REDO = "rückgängig", "wiederholt"
DAMAGED, REPAIR = "beschädigt", "reparatur"   # a rescued journal's stand-in for a damaged entry; its repair


class FoldError(Exception):
    """An event that does not fold: ``seq`` and the German ``reason``.

    The state is left with the events before it and part of it applied.
    """

    def __init__(self, seq: int, reason: str) -> None:
        super().__init__(seq, reason)
        self.seq, self.reason = seq, reason


def initial() -> dict[str, Any]:
    return {"format": FORMAT, "seq": 0, "settings": {"ruleset": None, "seed": None},
            "characters": {}, "encounters": {}, "active_encounter": None,
            "history": {"done": [], "undone": []}}


def fold(state: dict[str, Any], events: Iterable[Event], copy_values: bool = False) -> dict[str, Any]:
    """Apply ``events`` (in seq order) to ``state`` in place; return it.

    The values in the events' changes become part of the state (they are not
    copied): pass events read from the store, not ones still in use (or
    ``copy_values=True``). An event that does not fold raises ``FoldError``.
    """
    for event in events:
        changes = event.data.get("changes")
        try:
            if changes:
                if type(changes) is not list:
                    raise FoldError(cast(int, event.seq), t("store.damage_changes"))
                for change in changes:
                    ch.apply(state, change, copy_values)
            _track(state["history"], event)
        except (KeyError, TypeError, AttributeError, IndexError, ValueError):
            raise FoldError(cast(int, event.seq), _unfit(changes, state)) from None
        state["seq"] = event.seq
    return state


def _unfit(changes: Any, state: dict[str, Any]) -> str:
    """Why an event's changes did not fold (German): the first that is no change record, else
    the first that does not fit the state."""
    changes = changes if type(changes) is list else []
    for i, change in enumerate(changes, 1):
        if ch.problem(change):
            return t("store.damage_change", i=i, why=t("store.damage_change_shape"))
    for i, change in enumerate(changes, 1):
        try:
            ch.apply(copy.deepcopy(state), change)
        except (KeyError, TypeError, AttributeError, IndexError, ValueError):
            return t("store.damage_change", i=i, why=t("store.damage_change_state"))
    return t("store.damage_change", i=max(len(changes), 1), why=t("store.damage_change_state"))


def _track(history: dict[str, list[Any]], event: Event) -> None:
    done, undone = history["done"], history["undone"]
    kind = event.kind
    if kind == UNDO or kind == REDO:
        of = event.data.get("of")
        if type(of) is not str:
            raise FoldError(cast(int, event.seq), t("store.damage_undo"))
        if kind == UNDO:
            _move(done, undone, of)
        else:
            _move(undone, done, of)
    elif event.data.get("changes") and kind != REPAIR:  # a rescue's repair only makes the fold match
        if done and done[-1]["tx"] == event.tx:
            done[-1]["last"] = event.seq
        else:
            done.append({"tx": event.tx, "kind": kind, "first": event.seq, "last": event.seq})
            del done[:-HISTORY_LIMIT]
            undone.clear()


def _move(source: list[dict[str, Any]], target: list[dict[str, Any]], tx: str) -> None:
    """Move the newest entry of transaction ``tx`` from ``source`` to ``target``."""
    for i in range(len(source) - 1, -1, -1):
        if source[i]["tx"] == tx:
            target.append(source.pop(i))
            return


def snapshot_problem(state: dict[str, Any], seq: int) -> str | None:
    """Why a snapshot of this ``FORMAT`` at ``seq`` is not a campaign state (German), or None."""
    history = state.get("history")
    usable = (type(state.get("seq")) is int and state["seq"] == seq
              and all(type(state.get(key)) is dict for key in ("settings", "characters", "encounters"))
              and (state.get("active_encounter") is None or type(state["active_encounter"]) is str)
              and type(history) is dict and type(history.get("done")) is list
              and type(history.get("undone")) is list)
    return None if usable else t("store.damage_snapshot_shape")


def data(state: Mapping[str, Any], encounter: str | None = None) -> dict[str, Any]:
    """The GM's data as ``encounter`` (default: the active one) sees it: its own over the campaign's."""
    name = encounter or state["active_encounter"]
    enc = state["encounters"].get(name) if name else None
    return {**state.get("data", {}), **(enc or {}).get("data", {})}


def figure_path(state: Mapping[str, Any], name: str, encounter: str | None = None) -> list[str] | None:
    """Where the figure ``name`` lives: a character, or a combatant of the encounter.

    A combatant that stands for a character resolves to the character, so
    resources and conditions stay with it after the encounter.
    """
    enc = state["encounters"].get(encounter or state["active_encounter"] or "")
    if enc is not None and name in enc["combatants"]:
        linked = enc["combatants"][name].get("character")
        if linked is None:
            return ["encounters", enc["name"], "combatants", name]
        return ["characters", linked]
    if name in state["characters"]:
        return ["characters", name]
    return None


def figure(state: Mapping[str, Any], path: list[str]) -> dict[str, Any]:
    found, node = ch.lookup(state, path)
    assert found, path
    return cast("dict[str, Any]", node)


def seen_by_rules(state: Mapping[str, Any], name: str, encounter: str | None = None,
                  copied: bool = True) -> dict[str, Any] | None:
    """A copy of the record a ruleset reads for ``name``, under that name: a combatant that
    stands for a character is the character's record with the combatant's ``side`` and ``group``.
    ``copied=False``: only the top level is copied (for a ruleset that only reads it, through a view)."""
    path = figure_path(state, name, encounter)
    if path is None:
        return None
    found = figure(state, path)
    record = {**(copy.deepcopy(found) if copied else found), "name": name}
    enc = state["encounters"].get(encounter or state["active_encounter"] or "")
    if path[0] == "characters" and enc is not None and name in enc["combatants"]:
        record["side"] = enc["combatants"][name].get("side", "")
        if enc["combatants"][name].get("group") is not None:
            record["group"] = enc["combatants"][name]["group"]
    return record


def tick(state: dict[str, Any], encounter: str, moment: str, whose: str | None) -> list[ch.Change]:
    """Count down the conditions of the encounter's figures at ``moment``.

    ``whose`` is the combatant whose turn starts or ends (None for round
    moments). A condition counts down when its ``tick`` is this moment and,
    for turn moments, when ``of`` names that combatant; at 0 it ends.
    """
    out: list[ch.Change] = []
    enc = state["encounters"][encounter]
    for name in enc["combatants"]:
        path = figure_path(state, name, encounter)
        assert path is not None
        for cname, cond in figure(state, path).get("conditions", {}).items():
            if cond.get("tick") != moment or cond.get("remaining") is None:
                continue
            if moment.startswith("turn") and cond.get("of", name) != whose:
                continue
            cpath = path + ["conditions", cname]
            if cond["remaining"] <= 1:
                out.append(ch.delete(cpath, state))
            else:
                out.append(ch.add(cpath + ["remaining"], -1))
    return out
