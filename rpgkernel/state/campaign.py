"""``Campaign``: the GM binder's memory, folded from an append-only journal.

Every change goes through a ``Transaction``: it computes reversible changes
against a working copy of the state and is appended to the store as one
atomic write; the campaign then folds it in. Reading first catches up with
events other notebooks have written to the same store.
"""

from __future__ import annotations

import copy
import functools
import os
import random
import time
from contextlib import contextmanager
from typing import Any, Iterable, Iterator, Mapping

from .. import rules
from ..errors import RpgError, StoreConflict
from ..messages import t
from . import changes as ch
from . import model
from .events import Event, new_tx
from .journal import Journal
from .store import Store, open_store

SNAPSHOT_EVERY = 1000   # events between snapshots
MAX_NAME = 100          # characters in a figure or encounter name
MAX_ROUNDS = 10_000     # rounds a condition may last
MAX_COUNT = 200         # numbered individuals one Encounter.add creates
TICKS = {"rundenbeginn": "round_start", "rundenende": "round_end",
         "zugbeginn": "turn_start", "zugende": "turn_end"}


RETRY_SECONDS = 10.0   # how long an API call keeps trying when other writers get there first


def _retrying(method: Any) -> Any:
    """Run a write again on fresh state when another writer got there first.

    Inside an outer transaction the outer caller decides (a conflict then
    aborts the whole transaction, and nothing is written).
    """
    @functools.wraps(method)
    def write(self: Any, *args: Any, **kwargs: Any) -> Any:
        campaign = self if isinstance(self, Campaign) else self.campaign
        deadline = time.monotonic() + RETRY_SECONDS
        attempt = 0
        while True:
            try:
                return method(self, *args, **kwargs)
            except StoreConflict:
                attempt += 1
                if campaign._tx is not None or time.monotonic() > deadline:
                    raise
                time.sleep(random.uniform(0, min(0.05, 0.002 * attempt)))  # let the other writer finish
    return write


class CampaignError(RpgError, ValueError):
    """A request the campaign cannot carry out (unknown figure, nothing to undo, …)."""


def check_name(name: object, what: str) -> str:
    """A figure or encounter name: non-empty text without control characters."""
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME \
            or any(ord(c) < 32 or c == "\x7f" for c in name):
        raise CampaignError(t("campaign.bad_name", what=t(f"campaign.{what}"), max=MAX_NAME,
                              name=repr(name)[:60]))
    return name.strip()


class Transaction:
    """Changes and events collected for one atomic append.

    ``state`` is the working state: the state it started from with the
    changes so far, built by copying only what the changes touch.
    """

    def __init__(self, state: dict[str, Any]) -> None:
        self.state = state
        self.tx = new_tx()
        self.events: list[Event] = []
        self._pending: list[ch.Change] = []

    def set(self, path: list[str], value: Any) -> None:
        self._do(ch.set_(path, value, self.state))

    def delete(self, path: list[str]) -> None:
        self._do(ch.delete(path, self.state))

    def add(self, path: list[str], by: int) -> None:
        self._do(ch.add(path, by))

    def _do(self, change: ch.Change) -> None:
        self.state = ch.applied(self.state, change)
        self._pending.append(change)

    def extend(self, changes: list[ch.Change]) -> None:
        for change in changes:
            self._do(change)

    def event(self, kind: str, text: str, figures: list[str] = (), encounter: str | None = None,
              **data: Any) -> None:
        """Close the changes made since the last event into an event of ``kind``."""
        payload = {"text": text, "figures": list(figures), "encounter": encounter, **data}
        if self._pending:
            payload["changes"] = self._pending
        self.events.append(Event(kind, payload, self.tx))
        self._pending = []


class Campaign:
    """Characters, encounters, settings and the journal of one campaign.

    Open one with ``Campaign.open("kampagne.sqlite")`` (or a
    ``postgresql://`` URL). All state is derived from the journal.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self._state = model.initial()
        snap = store.latest_snapshot()
        if snap is not None and snap[1].get("format") == model.FORMAT:
            self._state = snap[1]
        self._since_snapshot = 0
        self._tx: Transaction | None = None
        self.refresh()

    @classmethod
    def open(cls, path_or_url: str | os.PathLike[str], campaign: str | None = None) -> Campaign:
        """Open or create the campaign stored at ``path_or_url``."""
        return cls(open_store(path_or_url, campaign))

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Campaign:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading -------------------------------------------------------
    def refresh(self) -> None:
        """Fold in whatever has been appended since (also by other notebooks)."""
        new = list(self.store.events(after=self._state["seq"]))
        if new:
            model.fold(self._state, new)
            self._since_snapshot += len(new)
            if self._since_snapshot >= SNAPSHOT_EVERY:
                self.store.save_snapshot(self._state["seq"], self._state)
                self._since_snapshot = 0

    @property
    def state(self) -> dict[str, Any]:
        """A copy of the current state document."""
        self.refresh()
        return copy.deepcopy(self._state)

    @property
    def ruleset(self) -> str | None:
        self.refresh()
        return self._state["settings"]["ruleset"]

    @property
    def characters(self) -> dict[str, Figure]:
        self.refresh()
        return {name: Figure(self, ["characters", name]) for name in self._state["characters"]}

    @property
    def encounters(self) -> dict[str, Encounter]:
        self.refresh()
        return {name: Encounter(self, name) for name in self._state["encounters"]}

    @property
    def encounter(self) -> Encounter | None:
        """The active encounter."""
        self.refresh()
        name = self._state["active_encounter"]
        return None if name is None else Encounter(self, name)

    def figure(self, name: str, encounter: str | None = None) -> Figure:
        """A character, or a combatant of the (active) encounter, by name."""
        self.refresh()
        path = model.figure_path(self._state, name, encounter)
        if path is None:
            raise CampaignError(self._unknown(name, encounter))
        return Figure(self, path)

    def _unknown(self, name: str, encounter: str | None, state: dict[str, Any] | None = None) -> str:
        import difflib
        state = self._state if state is None else state
        enc = state["encounters"].get(encounter or state["active_encounter"] or "")
        known = list(state["characters"]) + (list(enc["combatants"]) if enc else [])
        close = difflib.get_close_matches(name, known, n=1)
        hint = " " + t("suggest.die", suggestion=close[0]) if close else ""
        return t("campaign.unknown_figure", name=name) + hint

    def journal(self, kind: str | None = None, figure: str | None = None,
                encounter: str | None = None, last: int | None = None) -> Journal:
        """Journal entries, optionally of one kind, figure or encounter; the ``last`` n."""
        return Journal.read(self.store, kind=kind, figure=figure, encounter=encounter, last=last)

    # -- writing -------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator[Transaction]:
        """Collect changes; on success they are appended atomically and folded in.

        Nested use joins the outer transaction: everything lands in one
        append (and one undo step), or nothing does.
        """
        if self._tx is not None:
            yield self._tx
            return
        self.refresh()
        seen = self._state["seq"]
        tx = self._tx = Transaction(self._state)
        try:
            yield tx
        finally:
            self._tx = None
        if tx._pending:
            raise RuntimeError("changes without an event")
        if tx.events:
            try:
                self.store.append(tx.events, after=seen)
            finally:
                self.refresh()

    @_retrying
    def set_ruleset(self, key: str | None) -> None:
        rules.get(key)
        with self.transaction() as tx:
            tx.set(["settings", "ruleset"], key)
            tx.event("einstellung", t("journal.ruleset", key=key or "–"))

    def log_roll(self, roll: Any, figure: str | None = None) -> None:
        """Write a roll into the journal (it changes nothing, so there is nothing to undo)."""
        self.log_rolls([roll], figure)

    @_retrying
    def log_rolls(self, rolls: Iterable[Any], figure: str | None = None) -> None:
        """Write several rolls in one transaction."""
        with self.transaction() as tx:
            for roll in rolls:
                tx.event("wurf", str(roll), [figure] if figure else [],
                         tx.state["active_encounter"], roll=roll.to_dict())

    @_retrying
    def add_character(self, name: str, sheet: Mapping[str, Any] | None = None,
                      ruleset: str | None = None, resources: Mapping[str, int] | None = None,
                      conditions: Mapping[str, Any] | None = None) -> Figure:
        """Create a character; the sheet is validated by the ruleset."""
        name = check_name(name, "figure")
        with self.transaction() as tx:
            if name in tx.state["characters"]:
                raise CampaignError(t("campaign.duplicate", name=name))
            record = self._new_figure(name, sheet, ruleset or tx.state["settings"]["ruleset"],
                                      resources, conditions)
            tx.set(["characters", name], record)
            tx.event("figur", t("journal.character", name=name), [name])
        return Figure(self, ["characters", name])

    def _new_figure(self, name: str, sheet: Mapping[str, Any] | None, ruleset: str | None,
                    resources: Mapping[str, int] | None,
                    conditions: Mapping[str, Any] | None) -> dict[str, Any]:
        engine = rules.get(ruleset)
        checked = engine.sheet.validate(sheet or {})
        res = engine.resources(checked)
        for key, value in (resources or {}).items():
            key = check_name(key, "resource")
            if isinstance(value, bool) or not isinstance(value, int) or abs(value) > 10**9:
                raise CampaignError(t("campaign.bad_resource", name=key, value=repr(value)[:40]))
            res[key] = {"value": value, "max": max(value, res.get(key, {}).get("max", value))}
        record = {"name": name, "ruleset": ruleset, "sheet": checked, "resources": res, "conditions": {}}
        for cname, spec in (conditions or {}).items():
            record["conditions"][check_name(cname, "condition")] = _condition(spec or {}, name)
        return record

    @_retrying
    def new_encounter(self, name: str, activate: bool = True) -> Encounter:
        name = check_name(name, "encounter")
        with self.transaction() as tx:
            if name in tx.state["encounters"]:
                raise CampaignError(t("campaign.duplicate", name=name))
            tx.set(["encounters", name], {"name": name, "ruleset": tx.state["settings"]["ruleset"],
                                          "round": 0, "turn": 0, "segment": None, "order": [],
                                          "combatants": {}})
            if activate:
                tx.set(["active_encounter"], name)
            tx.event("begegnung", t("journal.encounter", name=name), encounter=name)
        return Encounter(self, name)

    def _figure_in(self, state: dict[str, Any], who: str) -> tuple[list[str], dict[str, Any]]:
        """Where ``who`` lives in ``state`` (a transaction's working state) and its record."""
        path = model.figure_path(state, who)
        if path is None:
            raise CampaignError(self._unknown(who, None, state))
        return path, model.figure(state, path)

    @_retrying
    def change(self, who: str, resource: str, by: int, reason: str | None = None) -> Figure:
        """Change a resource of a figure by ``by`` (negative: damage, loss)."""
        if isinstance(by, bool) or not isinstance(by, int) or abs(by) > 10**9:
            raise CampaignError(t("campaign.bad_resource", name=resource, value=repr(by)[:40]))
        with self.transaction() as tx:
            path, fig = self._figure_in(tx.state, who)
            if resource not in fig.get("resources", {}):
                raise CampaignError(t("campaign.unknown_resource", name=resource, figure=who,
                                      known=", ".join(fig.get("resources", {})) or "–"))
            old = fig["resources"][resource]["value"]
            tx.add(path + ["resources", resource, "value"], by)
            tx.event("ressource", t("journal.resource", figure=who, resource=resource, old=old,
                                    new=old + by) + (f" ({reason})" if reason else ""),
                     [who], tx.state["active_encounter"])
        return Figure(self, path)

    @_retrying
    def add_condition(self, who: str, condition: str, rounds: int | None = None,
                      ends: str = "rundenende", of: str | None = None) -> Figure:
        """Give a figure a condition; with ``rounds`` it ends after that many ``ends`` moments.

        ``ends`` is one of rundenbeginn, rundenende, zugbeginn, zugende; for the
        turn moments, ``of`` names whose turn counts (default: the figure's own).
        """
        condition = check_name(condition, "condition")
        spec = _condition({"runden": rounds, "endet": ends, "von": of}, who)
        with self.transaction() as tx:
            path, _ = self._figure_in(tx.state, who)
            tx.set(path + ["conditions", condition], spec)
            tx.event("zustand", t("journal.condition_on", figure=who, condition=condition),
                     [who], tx.state["active_encounter"])
        return Figure(self, path)

    @_retrying
    def remove_condition(self, who: str, condition: str) -> Figure:
        with self.transaction() as tx:
            path, fig = self._figure_in(tx.state, who)
            if condition not in fig.get("conditions", {}):
                raise CampaignError(t("campaign.unknown_condition", name=condition, figure=who))
            tx.delete(path + ["conditions", condition])
            tx.event("zustand", t("journal.condition_off", figure=who, condition=condition),
                     [who], tx.state["active_encounter"])
        return Figure(self, path)

    # -- undo and redo ---------------------------------------------------
    def undo(self) -> list[str]:
        """Undo the last change (a resolution, a turn, …) by appending its inverse.

        Returns the journal texts of what was undone.
        """
        return self._replay("done", model.UNDO, ch.invert)

    def redo(self) -> list[str]:
        """Redo the last undone change by appending it again; returns its journal texts."""
        return self._replay("undone", model.REDO, list)

    @_retrying
    def _replay(self, stack: str, kind: str, transform: Any) -> list[str]:
        self.refresh()
        entries = self._state["history"][stack]
        if not entries:
            raise CampaignError(t("campaign.nothing_to_undo" if kind == model.UNDO
                                  else "campaign.nothing_to_redo"))
        entry = entries[-1]
        first, last = entry["first"], entry["last"]
        events = [e for e in self.store.events(after=first - 1, limit=last - first + 1) if e.tx == entry["tx"]]
        with self.transaction() as tx:
            tx.extend(transform([c for e in events for c in e.data.get("changes", ())]))
            tx.event(kind, t("journal.undo" if kind == model.UNDO else "journal.redo", what=entry["kind"]),
                     of=entry["tx"])
        return [str(e.data.get("text", "")) for e in events]

    def __repr__(self) -> str:
        self.refresh()
        return t("campaign.repr", where=self.store.where, characters=len(self._state["characters"]),
                 encounters=len(self._state["encounters"]), events=self._state["seq"])


def _condition(spec: Mapping[str, Any], bearer: str) -> dict[str, Any]:
    """A condition record from user input (German keys: runden, endet, von)."""
    unknown = set(spec) - {"runden", "endet", "von"}
    if unknown:
        raise CampaignError(t("campaign.bad_condition_key", key=sorted(unknown)[0]))
    rounds, ends, of = spec.get("runden"), spec.get("endet", "rundenende"), spec.get("von")
    if rounds is not None and (isinstance(rounds, bool) or not isinstance(rounds, int)
                               or not 1 <= rounds <= 10_000):
        raise CampaignError(t("campaign.bad_rounds", value=repr(rounds)[:40]))
    if ends not in TICKS:
        raise CampaignError(t("campaign.bad_ends", value=repr(ends)[:40], known=", ".join(TICKS)))
    return {"remaining": rounds, "tick": TICKS[ends] if rounds else None,
            "of": check_name(of, "figure") if of else bearer}


class Figure:
    """A read-only view of a character or combatant."""

    def __init__(self, campaign: Campaign, path: list[str]) -> None:
        self.campaign = campaign
        self.path = path

    @property
    def _data(self) -> dict[str, Any]:
        self.campaign.refresh()
        return copy.deepcopy(model.figure(self.campaign._state, self.path))

    @property
    def name(self) -> str:
        return self._data["name"]

    @property
    def sheet(self) -> dict[str, Any]:
        return self._data.get("sheet", {})

    @property
    def resources(self) -> dict[str, dict[str, int]]:
        return self._data.get("resources", {})

    @property
    def conditions(self) -> dict[str, dict[str, Any]]:
        return self._data.get("conditions", {})

    def __repr__(self) -> str:
        from ..render import figure_text
        return figure_text(self._data)

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, str]:
        from ..render import figure_html, figure_text
        data = self._data
        return {"text/plain": figure_text(data), "text/html": figure_html(data)}


class Encounter:
    """A view of an encounter with the operations that run it."""

    def __init__(self, campaign: Campaign, name: str) -> None:
        self.campaign = campaign
        self.name = name

    @property
    def _data(self) -> dict[str, Any]:
        self.campaign.refresh()
        return copy.deepcopy(self.campaign._state["encounters"][self.name])

    @property
    def round(self) -> int:
        return self._data["round"]

    @property
    def order(self) -> list[str]:
        return self._data["order"]

    @property
    def current(self) -> str | None:
        data = self._data
        return data["order"][data["turn"]] if data["round"] and data["order"] else None

    @property
    def segment(self) -> int | None:
        return self._data["segment"]

    @_retrying
    def set_segment(self, segment: int | None) -> None:
        """Move to a segment of the round, for rulesets that split rounds (e.g. ten per round)."""
        parts = rules.get(self._data["ruleset"]).segments
        if parts is None:
            raise CampaignError(t("campaign.no_segments"))
        if segment is not None and (isinstance(segment, bool) or not isinstance(segment, int)
                                    or not 1 <= segment <= parts):
            raise CampaignError(t("campaign.bad_segment", value=repr(segment)[:40], max=parts))
        with self.campaign.transaction() as tx:
            tx.set(["encounters", self.name, "segment"], segment)
            tx.event("zug", t("journal.segment", segment=segment if segment is not None else "–"),
                     encounter=self.name)

    @property
    def combatants(self) -> dict[str, Figure]:
        return {name: self.campaign.figure(name, self.name) for name in self._data["combatants"]}

    @_retrying
    def add(self, name: str, side: str = "", character: str | None = None,
            sheet: Mapping[str, Any] | None = None, resources: Mapping[str, int] | None = None,
            conditions: Mapping[str, Any] | None = None, count: int = 1,
            ruleset: str | None = None) -> list[str]:
        """Add a combatant: a character (``character=``), or a monster/group from a stat block.

        ``count`` > 1 adds numbered individuals ("Goblin 1", "Goblin 2", …).
        """
        camp = self.campaign
        name = check_name(name, "figure")
        side = check_name(side, "side") if side else ""
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
            raise CampaignError(t("campaign.bad_count", value=repr(count)[:40]))
        names = [name] if count == 1 else [f"{name} {i}" for i in range(1, count + 1)]
        with camp.transaction() as tx:
            enc = tx.state["encounters"][self.name]
            for n in names:
                if n in enc["combatants"]:
                    raise CampaignError(t("campaign.duplicate", name=n))
            if character is not None and character not in tx.state["characters"]:
                raise CampaignError(camp._unknown(character, None))
            for n in names:
                if character is not None:
                    record = {"name": n, "character": character}
                else:
                    record = camp._new_figure(n, sheet, ruleset or enc["ruleset"], resources, conditions)
                    record["character"] = None
                record["side"] = side
                tx.set(["encounters", self.name, "combatants", n], record)
                if enc["round"]:
                    tx.set(["encounters", self.name, "order"], tx.state["encounters"][self.name]["order"] + [n])
            key = "journal.combatants" if len(names) > 1 else "journal.combatant"
            tx.event("kampfteilnehmer", t(key, names=", ".join(names), encounter=self.name), names, self.name)
        return names

    @_retrying
    def start(self, order: list[str] | None = None, rolls: Mapping[str, int] | None = None,
              rng: Any = None, dice: Any = None) -> list[str]:
        """Begin round 1: with a given ``order``, given initiative ``rolls``, or rolled by the ruleset."""
        from ..dice import roll as roll_dice
        camp = self.campaign
        data = self._data
        state = camp._state
        combatants = {n: model.figure(state, model.figure_path(state, n, self.name))
                      for n in data["combatants"]}
        if not combatants:
            raise CampaignError(t("campaign.empty_encounter", name=self.name))
        engine = rules.get(data["ruleset"])
        rolled: dict[str, Any] = {}
        if order is None:
            if rolls is None:
                given = iter(dice) if dice is not None else None
                values = {}
                for n, c in combatants.items():
                    expr = engine.initiative_expression(c)
                    if expr is None:
                        values[n] = 0
                        continue
                    r = roll_dice(expr, rng=rng, dice=[next(given)] if given else None)
                    values[n], rolled[n] = r.total, r.to_dict()
                rolls = values
            unknown = set(rolls) ^ set(combatants)
            if unknown:
                raise CampaignError(camp._unknown(sorted(unknown)[0], self.name))
            order = engine.initiative_order(combatants, rolls)
        if sorted(order) != sorted(combatants):
            raise CampaignError(t("campaign.bad_order", known=", ".join(combatants)))
        with camp.transaction() as tx:
            tx.set(["encounters", self.name, "order"], list(order))
            tx.set(["encounters", self.name, "round"], 1)
            tx.set(["encounters", self.name, "turn"], 0)
            tx.extend(model.tick(tx.state, self.name, "round_start", None))
            tx.extend(model.tick(tx.state, self.name, "turn_start", order[0]))
            tx.event("initiative", t("journal.initiative", order=", ".join(order)), list(order),
                     self.name, rolls=rolled or dict(rolls or {}))
        return list(order)

    @_retrying
    def next_turn(self) -> str:
        """End the current turn (and the round after the last) and start the next; conditions count down."""
        with self.campaign.transaction() as tx:
            nxt = self._advance(tx)
            rnd = tx.state["encounters"][self.name]["round"]
            tx.event("zug", t("journal.turn", round=rnd, figure=nxt), [nxt], self.name)
        return nxt

    @_retrying
    def next_round(self) -> int:
        """Pass the remaining turns of this round (their moments count) and start the next round."""
        with self.campaign.transaction() as tx:
            start = tx.state["encounters"][self.name]["round"]
            while True:
                nxt = self._advance(tx)
                rnd = tx.state["encounters"][self.name]["round"]
                if rnd != start:
                    break
            tx.event("zug", t("journal.turn", round=rnd, figure=nxt), [nxt], self.name)
        return rnd

    def _advance(self, tx: Transaction) -> str:
        data = tx.state["encounters"][self.name]
        if not data["round"]:
            raise CampaignError(t("campaign.not_started", name=self.name))
        order, turn = data["order"], data["turn"]
        tx.extend(model.tick(tx.state, self.name, "turn_end", order[turn]))
        if turn + 1 < len(order):
            tx.set(["encounters", self.name, "turn"], turn + 1)
        else:
            tx.extend(model.tick(tx.state, self.name, "round_end", None))
            tx.add(["encounters", self.name, "round"], 1)
            tx.set(["encounters", self.name, "turn"], 0)
            tx.extend(model.tick(tx.state, self.name, "round_start", None))
        nxt = order[(turn + 1) % len(order)]
        tx.extend(model.tick(tx.state, self.name, "turn_start", nxt))
        return nxt

    def __repr__(self) -> str:
        from ..render import encounter_text
        return encounter_text(self._data)

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, str]:
        from ..render import encounter_html, encounter_text
        data = self._data
        state = self.campaign._state
        return {"text/plain": encounter_text(data), "text/html": encounter_html(data, state)}
