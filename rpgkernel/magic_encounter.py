"""``%begegnung``: running the session's encounter with German subcommands, one per ``Encounter`` call.

The line is split into a subcommand, its names and options (``magic_args``); each subcommand calls
one method of the encounter (``state.views``, ``state.tracker``), so every change is a journalled
transaction that ``%rpg rückgängig`` takes back. No IPython here: ``magics.py`` binds ``run``.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from typing import Any

from . import magic_args as args
from . import session
from .errors import RpgError
from .messages import t
from .render import Notice
from .state import Encounter, resources
from .state.marks import marked

OPTIONS = {
    "--begegnung": "begegnung", "--encounter": "begegnung", "--seed": "seed",
    "--würfel": "würfel", "--wuerfel": "würfel", "--dice": "würfel", "--initiative": "initiative",
    "--neu": "neu", "--new": "neu", "--seite": "seite", "--side": "seite", "--wie": "wie", "--like": "wie",
    "--auflösen": "auflösen", "--aufloesen": "auflösen", "--dissolve": "auflösen",
}
FLAGS = {"neu", "auflösen"}
ROLLING = ("seed", "würfel")

#: every spelling of a subcommand -> its German name
COMMANDS = {
    "start": "start", "beginnen": "start", "begin": "start", "zug": "zug", "turn": "zug", "next": "zug",
    "runde": "runde", "round": "runde", "entfernen": "entfernen", "remove": "entfernen",
    "zurück": "zurück", "zurueck": "zurück", "restore": "zurück", "dazu": "dazu", "join": "dazu",
    "später": "später", "spaeter": "später", "delay": "später", "jetzt": "jetzt", "now": "jetzt",
    "vor": "vor", "before": "vor", "nach": "nach", "after": "nach", "neu": "neu", "reroll": "neu",
    "gruppe": "gruppe", "group": "gruppe", "verbergen": "verbergen", "hide": "verbergen",
    "zeigen": "zeigen", "reveal": "zeigen", "überspringen": "überspringen", "ueberspringen": "überspringen",
    "skip": "überspringen", "sicht": "sicht", "sight": "sicht", "wert": "wert", "value": "wert",
}
#: every spelling of ``überspringen``'s value -> the setting
SWITCH = {"an": True, "ein": True, "on": True, "aus": False, "off": False}
#: German name -> (fewest names, most names, the options it takes besides --begegnung)
SHAPES: dict[str, tuple[int, int, tuple[str, ...]]] = {
    "start": (0, 0, ROLLING), "zug": (0, 0, ROLLING), "runde": (0, 0, ("neu", *ROLLING)),
    "entfernen": (1, 1, ()), "zurück": (1, 1, ROLLING),
    "dazu": (1, 1, ("initiative", "seite", "wie", *ROLLING)), "später": (1, 1, ()), "jetzt": (1, 1, ()),
    "vor": (2, 2, ()), "nach": (2, 2, ()), "neu": (1, 1, ("initiative", *ROLLING)),
    "gruppe": (1, 10_000, ("initiative", "auflösen", *ROLLING)), "verbergen": (1, 1, ()), "zeigen": (1, 1, ()),
    "überspringen": (0, 1, ()), "sicht": (2, 2, ()), "wert": (3, 10_000, ()),
}


class Done:
    """What a subcommand wrote (its journal entries) above the encounter as it now stands."""

    def __init__(self, texts: list[str], encounter: Encounter) -> None:
        self.texts, self.encounter = texts, encounter

    def __repr__(self) -> str:
        return "\n".join([*self.texts, repr(self.encounter), order_line(self.encounter)])

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        notice = Notice("\n".join(self.texts))._repr_mimebundle_()["text/html"] if self.texts else ""
        return {"text/plain": repr(self),
                "text/html": notice + (self.encounter._repr_html_() or html.escape(repr(self.encounter)))}


def order_line(enc: Encounter) -> str:
    """``Reihenfolge: A, B (verborgen), C (außer Gefecht: tot); wartet ab: D; entfernt: E`` for the GM
    (the marks: ``state.marks``)."""
    record = enc.record
    state = enc.campaign.folded   # as of the refresh that enc.record made
    shown = marked(state, enc.name, record["order"] if record["round"] else list(record["combatants"]))
    parts = [t("begegnung.order" if record["round"] else "begegnung.joined", names=", ".join(shown) or "–")]
    if enc.held:
        parts.append(t("begegnung.held", names=", ".join(marked(state, enc.name, enc.held))))
    if enc.removed:
        parts.append(t("begegnung.removed", names=", ".join(enc.removed)))
    return "; ".join(parts)


def run(line: str) -> object:
    """Carry out one ``%begegnung`` line on the session's campaign; without a subcommand, show it."""
    words = args.split(line, quotes=True)
    opts, rest = args.options(words, OPTIONS, t("magic.usage_begegnung"), flags=FLAGS)
    s = session.current()
    camp = s.need_campaign()
    enc = _encounter(camp, opts.get("begegnung"))
    if not rest:
        if set(opts) - {"begegnung"}:
            raise RpgError(t("magic.usage", usage=t("magic.usage_begegnung")))
        return Done([], enc)
    command = COMMANDS.get(rest[0].lower())
    if command is None:
        raise RpgError(t("begegnung.unknown_command", word=rest[0], known=", ".join(SHAPES))
                       + "\n" + t("magic.usage", usage=t("magic.usage_begegnung")))
    names = rest[1:]
    fewest, most, allowed = SHAPES[command]
    if not fewest <= len(names) <= most:
        shape = command if command == "wert" else "many" if most > fewest else str(fewest)
        raise RpgError(t(f"begegnung.names_{shape}", command=command) + "\n" + t("magic.usage", usage=t("magic.usage_begegnung")))
    for key in set(opts) - {"begegnung", *allowed}:
        raise RpgError(t("begegnung.option_not_here", option=_spelled(key), command=command))
    seq = camp.store.last_seq()
    _ACTIONS[command](enc, names, opts)
    texts = [str(e.data.get("text", "")) for e in camp.store.events(after=seq)]
    return Done(texts + ([_SAYS[command](enc)] if command in _SAYS else []), enc)


def _spelled(key: str) -> str:
    """The German spelling of an option."""
    return next(o for o, k in OPTIONS.items() if k == key)


def _encounter(camp: Any, name: object) -> Encounter:
    if name is not None:
        if str(name) not in camp.encounters:
            raise RpgError(t("campaign.unknown_encounter", name=str(name)))
        return camp.encounters[str(name)]
    enc = camp.encounter
    if enc is None:
        raise RpgError(t("begegnung.none"))
    return enc


def _rolling(opts: Mapping[str, object]) -> dict[str, Any]:
    """The ``seed=`` and ``dice=`` of a line."""
    return {"seed": args.integer(opts, "seed", "--seed"), "dice": args.given_dice(opts)}


def _initiative(opts: Mapping[str, object]) -> int | None:
    return args.integer(opts, "initiative", "--initiative")


def _join(enc: Encounter, names: list[str], opts: Mapping[str, object]) -> None:
    """A character of the campaign joins; or, ``--wie VORBILD``, a new combatant like that one."""
    name, like, side = names[0], opts.get("wie"), opts.get("seite")
    if like is None and name not in enc.campaign.characters:
        raise RpgError(t("begegnung.join_unknown", name=name))
    enc.add(name, side="" if side is None else str(side), character=None if like is not None else name,
            like=None if like is None else str(like), initiative=_initiative(opts), **_rolling(opts))


def _skip(enc: Encounter, names: list[str], opts: Mapping[str, object]) -> None:
    """``überspringen an|aus``: the encounter's ``set_skip_out``; without a value, nothing changes."""
    if names:
        if names[0].lower() not in SWITCH:
            raise RpgError(t("begegnung.bad_switch", value=names[0]))
        enc.set_skip_out(SWITCH[names[0].lower()])


def _skipping(enc: Encounter) -> str:
    """What now happens to combatants out of the fight, and who is out of it now."""
    text = t("begegnung.skipping" if enc.skip_out else "begegnung.not_skipping")
    out = enc.out_of_fight()
    if out:
        text += " " + t("begegnung.out_now", who="; ".join(f"{n} – {why}" for n, why in out.items()))
    return text


def _edit(enc: Encounter, words: list[str], opts: Mapping[str, object]) -> None:
    """``wert NAME … RESSOURCE -5|+3|=7``: the resource of each named combatant, in one step
    (``Campaign.change``)."""
    *names, resource, typed = words
    change = resources.edit(typed, resource)
    enc.campaign.change(names, resource, change.by, to=change.to, encounter=enc.name)


def _group(enc: Encounter, names: list[str], opts: Mapping[str, object]) -> None:
    if opts.get("auflösen"):
        for key in {"initiative", *ROLLING} & set(opts):
            raise RpgError(t("begegnung.option_not_here", option=_spelled(key), command="gruppe"))
        enc.ungroup(names)
    else:
        enc.group(names, _initiative(opts), **_rolling(opts))


_ACTIONS: dict[str, Callable[[Encounter, list[str], Mapping[str, object]], object]] = {
    "start": lambda e, n, o: e.start(**_rolling(o)),
    "zug": lambda e, n, o: e.next_turn(**_rolling(o)),
    "runde": lambda e, n, o: e.next_round(new_initiative=bool(o.get("neu")), **_rolling(o)),
    "entfernen": lambda e, n, o: e.remove(n[0]),
    "zurück": lambda e, n, o: e.restore(n[0], **_rolling(o)),
    "dazu": _join,
    "später": lambda e, n, o: e.delay(n[0]),
    "jetzt": lambda e, n, o: e.act_now(n[0]),
    "vor": lambda e, n, o: e.move(n[0], before=n[1]),
    "nach": lambda e, n, o: e.move(n[0], after=n[1]),
    "neu": lambda e, n, o: e.reroll(n[0], _initiative(o), **_rolling(o)),
    "gruppe": _group,
    "verbergen": lambda e, n, o: e.hide(n[0]),
    "zeigen": lambda e, n, o: e.reveal(n[0]),
    "überspringen": _skip,
    "sicht": lambda e, n, o: e.set_player_sight(n[0], n[1].lower()),
    "wert": _edit,
}
#: what a subcommand says below its journal entries
_SAYS: dict[str, Callable[[Encounter], str]] = {"überspringen": _skipping}
