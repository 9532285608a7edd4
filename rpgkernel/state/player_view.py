"""What the player of one figure may see: an allow-list, built field by field
from the state.

``view(state, figure)`` copies nothing whole: the active encounter's
visible combatants as ``SIGHTS`` allows, the player's own figure in full
(``own``) with its open choices, the turn lines of visible combatants and
the player's own suggestions. Hidden combatants, GM notes and the GM's data
appear nowhere.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from ..messages import t
from . import fighting, model, suggestions
from .events import Event
from .rulebook import rulebook
from .tracker import hidden
from .transaction import TICKS, CampaignError

SIGHTS = ("genau", "beschreibung", "nichts")
SIGHT = "player_sight"   # the encounter record's key: side -> one of SIGHTS
WORDS = "spielersicht"   # the GM's data: a word players read -> the GM's word for it
_ENDS = {tick: word for word, tick in TICKS.items()}
_UNDO, _REDO = model.UNDO, model.REDO
JOURNAL_KINDS = ("zug", _UNDO, _REDO)   # the journal's kinds the view reads (of ``events``)


def sight(enc: Mapping[str, Any], side: str, own_side: str | None) -> str:
    """How players see ``side`` in ``enc``: the GM's choice, else ``genau`` for the player's own
    side and ``beschreibung`` for the others."""
    chosen = enc.get(SIGHT, {}).get(side)
    return chosen if chosen in SIGHTS else "genau" if side and side == own_side else "beschreibung"


def view(state: Mapping[str, Any], figure: str, events: Iterable[Event] = ()) -> dict[str, Any]:
    """What the player of ``figure`` (a character or a combatant of the active encounter) may see,
    as JSON-ready data, the same for the same state; ``events``: the journal, of which the turn lines
    of visible combatants are shown."""
    if model.figure_path(state, figure) is None:
        raise CampaignError(t("campaign.unknown_figure", name=figure))
    secret = hidden(state) - {figure}
    enc = state["encounters"].get(state["active_encounter"] or "")
    shown: dict[str, Any] = {"figur": own(state, figure, secret, labels=True), "begegnung": None,
                             "wahlen": _choices(state, figure, secret), "journal": [],
                             "vorschlaege": own_suggestions(state, figure)}
    if enc is not None:
        shown["begegnung"] = _encounter(state, enc, figure, secret)
        shown["journal"] = _turn_lines(events, enc, shown["begegnung"]["teilnehmer"])
    return shown


def own(state: Mapping[str, Any], name: str, secret: set[str], labels: bool = False) -> dict[str, Any]:
    """The player's own figure ``name``: ruleset, the fields its sheet shows, resources, conditions
    and why it is out of the fight, if it is; nothing of it that names one of ``secret``. ``labels``:
    also each shown sheet field's German label as the GM's sheet shows it (``labels``: field -> label;
    the live page; a player notebook carries the sheet alone)."""
    record = model.seen_by_rules(state, name)
    assert record is not None
    data = model.data(state)
    engine = rulebook(record.get("ruleset"))
    sheet = engine.sheet.for_data(data)
    def keep(*values: Any) -> bool:
        return names_none(secret, *values)

    shown: dict[str, Any] = {
        "name": record["name"], "ruleset": record.get("ruleset"),
        "sheet": {k: v for k, v in record.get("sheet", {}).items() if (sheet.open or k in sheet.fields) and keep(k, v)},
        "resources": {k: {"value": r["value"], "max": r["max"]}
                      for k, r in record.get("resources", {}).items() if keep(k)},
        "conditions": {c: _duration(spec) for c, spec in record.get("conditions", {}).items() if keep(c)}}
    if labels:
        shown["labels"] = {k: sheet.label(k) for k in shown["sheet"]}
    out = engine.status.out_of_fight(record, data)
    if out is not None:
        shown["ausser_gefecht"] = out
    return shown


def names_none(names: set[str], *values: Any) -> bool:
    """Whether no text in ``values`` (lists and tables searched through) contains one of ``names``."""
    todo = list(values)
    while todo:
        value = todo.pop()
        if isinstance(value, str):
            if any(n in value for n in names):
                return False
        elif isinstance(value, dict):
            todo += [*value.keys(), *value.values()]
        elif isinstance(value, (list, tuple)):
            todo += list(value)
    return True


def _duration(spec: Mapping[str, Any]) -> dict[str, Any]:
    return {"runden": spec["remaining"], "endet": _ENDS[spec["tick"]]} if spec.get("remaining") else {}


def _encounter(state: Mapping[str, Any], enc: Mapping[str, Any], figure: str, secret: set[str]) -> dict[str, Any]:
    started = bool(enc["round"] and enc["order"])
    order = list(enc["order"]) if started else list(enc["combatants"])
    held = [n for n in enc.get("held", []) if n not in order]
    visible = [n for n in [*order, *held] if n in enc["combatants"] and not enc["combatants"][n].get("hidden")
               or n == figure]
    own_side = _own_side(enc, figure)
    data = model.data(state, enc["name"])
    current, round_ = (_current(enc, {n for n, c in enc["combatants"].items() if c.get("hidden")} - {figure})
                       if started else (None, enc["round"]))
    return {"name": enc["name"], "runde": round_, "segment": enc.get("segment"), "am_zug": current,
            "teilnehmer": [_combatant(state, enc, n, n in held, sight(enc, enc["combatants"][n].get("side", ""), own_side),
                                      secret, data) for n in visible]}


def _own_side(enc: Mapping[str, Any], figure: str) -> str | None:
    """The side of the player's figure in ``enc`` (None when it is not in it)."""
    return next((c.get("side", "") for n, c in enc["combatants"].items() if n == figure or c.get("character") == figure),
                None)


def _current(enc: Mapping[str, Any], secret: set[str]) -> tuple[str | None, int]:
    """Whose turn players see, and in which round: the current one; while a hidden one acts, the last
    visible one before it (from the round before too), or, before any visible one has acted, the first
    visible one. What players see is thus the same as in the fight without the hidden ones."""
    order, turn, round_ = enc["order"], enc["turn"], enc["round"]
    back = [(i, round_) for i in range(turn, -1, -1)]
    if round_ > 1:
        back += [(i, round_ - 1) for i in range(len(order) - 1, turn, -1)]
    else:
        back += [(i, round_) for i in range(turn + 1, len(order))]
    return next(((order[i], r) for i, r in back if order[i] not in secret), (None, round_))


def _combatant(state: Mapping[str, Any], enc: Mapping[str, Any], name: str, held: bool, seen: str,
               secret: set[str], data: Mapping[str, Any]) -> dict[str, Any]:
    shown: dict[str, Any] = {"name": name, "seite": enc["combatants"][name].get("side", "")}
    if held:
        shown["wartet"] = True
    if seen == "nichts":
        return shown
    record = model.seen_by_rules(state, name, enc["name"], copied=False)
    assert record is not None
    shown["zustaende"] = {c: _duration(spec) for c, spec in record.get("conditions", {}).items()
                          if names_none(secret, c, spec.get("of", ""))}
    if seen == "genau":
        shown["ressourcen"] = {k: {"value": r["value"], "max": r["max"]} for k, r in record.get("resources", {}).items()}
        out = fighting.reason(state, name, enc["name"], data)
        if out is not None:
            shown["ausser_gefecht"] = out
    else:
        said = rulebook(record.get("ruleset", enc["ruleset"])).status.player_state(record, data)
        if said is not None:
            words = data.get(WORDS)
            chosen = words.get(said) if isinstance(words, dict) else None
            shown["zustand"] = chosen if isinstance(chosen, str) else said
            _once(shown)
    return shown


def _once(shown: dict[str, Any]) -> None:
    """A condition the description names already (Söldner: verwundet) is said once: by the condition
    where it counts down, else by the description alone."""
    same = next((c for c in shown["zustaende"] if c.casefold() == shown["zustand"].casefold()), None)
    if same is None:
        return
    if shown["zustaende"][same]:
        del shown["zustand"]
    else:
        del shown["zustaende"][same]


def offered(choice: Mapping[str, Any], figure: str) -> str | None:
    """The label under which the open ``choice`` (a pending record's) is offered to ``figure``: its
    own for one of ``who``, ``also_label`` for one of ``also`` (an ally, "für Ritter, wenn in
    Armreichweite"); None when it is not ``figure``'s to take."""
    if figure in choice.get("who", []):
        return str(choice.get("label", ""))
    if figure in choice.get("also", []):
        return str(choice.get("also_label") or choice.get("label", ""))
    return None


def _choices(state: Mapping[str, Any], figure: str, secret: set[str]) -> list[dict[str, Any]]:
    """The open choices ``figure`` takes in the pending resolutions, each with the resolution's id
    (which the page's choice names), what it answers (``um``: "angriff: Ritter → Söldner"), every die it
    rolled (``wuerfel``: "W8: 7"; the faces only, no step that could tell a value the GM hides), key, label, options, and ``rat``: the advice on it for this
    figure (``_advice``), as its own or an ally's; none of a resolution that names a hidden combatant."""
    found = []
    for pid, record in sorted(state.get("pending", {}).items(), key=lambda kv: (kv[1].get("order", []), kv[0])):
        if not names_none(secret, record.get("actors", []), record.get("targets", [])):
            continue
        about = {"id": pid, "um": str(record.get("head") or record.get("source", "")),
                 "wuerfel": [t("page.die", sides=sides, face=face) for sides, face in record.get("dice", [])]}
        for choice in record.get("choices", []):
            label = offered(choice, figure)
            if label is not None and names_none(secret, label, choice.get("options", []), choice.get("values", {})):
                found.append({**about, "key": choice["key"], "label": label,
                              "options": list(choice.get("options", [])),
                              "values": {k: list(v) for k, v in choice.get("values", {}).items()},
                              "rat": _advice(state, record, choice["key"], figure, secret)})
    return found


def _advice(state: Mapping[str, Any], record: Mapping[str, Any], key: str, figure: str,
            secret: set[str]) -> list[dict[str, Any]]:
    """The advice (``rules.advice``) on the choice ``key`` of the pending ``record`` for ``figure`` itself:
    what it weighs (``ziel``, ``hinweis``) and each option's label, consequences (``folgen``), lines
    (``zeilen``) and, for a single line of this choice, its options to fill in (``nehmen``). Only where
    every figure its consequences rest on is the player's own or seen exactly (``sight`` ``genau``: the
    damage and chances would tell an armour, a Guard, a virtue the GM does not show); none naming a
    hidden combatant."""
    enc = state["encounters"].get(state["active_encounter"] or "")
    found = []
    for a in record.get("advice", []):
        if a.get("key") != key or a.get("who") != figure or not all(_exact(enc, n, figure) for n in a.get("reads", [])):
            continue
        options = []
        for o in a.get("options", []):
            takes = o.get("takes", [])
            single = len(takes) == 1 and takes[0].get("key") == key and takes[0].get("who") == figure
            options.append({"label": str(o.get("label", "")), "folgen": [str(x) for x in o.get("said", [])],
                            "zeilen": [str(x) for x in o.get("lines", [])],
                            "nehmen": dict(takes[0].get("options", {})) if single else None})
        shown = {"ziel": str(a.get("objective", "")), "hinweis": str(a.get("note", "")), "optionen": options}
        if names_none(secret, shown):
            found.append(shown)
    return found


def known_fight(state: Mapping[str, Any], figure: str) -> dict[str, Any] | None:
    """The campaign state as the player of ``figure`` knows the active encounter's fight, for what is
    computed from the whole fight (the chance of winning after an option): without the hidden
    combatants and the open resolutions naming them, whose turn it is as the player sees it (``_current``);
    None where the player does not see every other combatant's values exactly (no number could then
    be shown without telling them), or there is no fight."""
    enc = state["encounters"].get(state["active_encounter"] or "")
    if enc is None:
        return None
    secret = hidden(state) - {figure}
    if not all(_exact(enc, n, figure) for n in enc["combatants"] if n not in secret):
        return None
    if not secret:
        return dict(state)
    out = {**state, "encounters": {**state["encounters"], enc["name"]: _known_encounter(enc, secret)}}
    out["pending"] = {pid: r for pid, r in state.get("pending", {}).items()
                      if names_none(secret, r.get("actors", []), r.get("targets", []))}
    return out


def _known_encounter(enc: Mapping[str, Any], secret: set[str]) -> dict[str, Any]:
    """``enc`` without the ``secret`` combatants: new values where they differ, what is shared never changed."""
    mine = dict(enc)
    mine["combatants"] = {n: c for n, c in enc["combatants"].items() if n not in secret}
    for key in ("initiative", "removed"):
        if key in mine:
            mine[key] = {n: v for n, v in mine[key].items() if n not in secret}
    if "held" in mine:
        mine["held"] = [n for n in mine["held"] if n not in secret]
    mine["order"] = [n for n in enc["order"] if n not in secret]
    if enc["round"] and enc["order"]:
        current, mine["round"] = _current(enc, secret)
        mine["turn"] = mine["order"].index(current) if current in mine["order"] else 0
    return mine


def _exact(enc: Mapping[str, Any] | None, name: str, figure: str) -> bool:
    """Whether the player of ``figure`` sees ``name``'s values exactly: its own figure, or a visible
    combatant of the active encounter ``enc`` whose side it sees ``genau``."""
    if name == figure:
        return True
    combatant = (enc or {}).get("combatants", {}).get(name)
    if enc is None or combatant is None or combatant.get("hidden"):
        return False
    return sight(enc, combatant.get("side", ""), _own_side(enc, figure)) == "genau"


def _turn_lines(events: Iterable[Event], enc: Mapping[str, Any], shown: list[dict[str, Any]]) -> list[str]:
    """The journal's turn lines (``zug``) of ``enc`` naming one combatant players see, in order,
    without those undone, nor one that only hidden turns came before."""
    visible = {c["name"] for c in shown}
    lines: dict[str, list[str]] = {}
    undone: set[str] = set()
    for event in events:
        if event.kind in (_UNDO, _REDO):
            (undone.add if event.kind == _UNDO else undone.discard)(str(event.data.get("of")))
        elif event.kind == "zug" and event.data.get("encounter") == enc["name"] \
                and len(event.data.get("figures", [])) == 1 and event.data["figures"][0] in visible:
            lines.setdefault(event.tx, []).append(str(event.data.get("text", "")))
    shown_lines = [line for tx, texts in lines.items() if tx not in undone for line in texts]
    # the fight's start writes no turn line: one for the first visible combatant of round 1 only says
    # that hidden ones acted before it
    first = next((n for n in enc["order"] if n in visible), None)
    if shown_lines and first is not None and shown_lines[0] == t("journal.turn", round=1, figure=first):
        del shown_lines[0]
    return shown_lines


# -- the player's own suggestions and the GM's answers ---------------------------------------------
SUGGESTIONS_SHOWN = 20   # the player's latest suggestions the view carries
OPEN = "offen"           # the answer of a suggestion the GM has not answered yet


def own_suggestions(state: Mapping[str, Any], figure: str) -> list[dict[str, str]]:
    """The latest ``SUGGESTIONS_SHOWN`` suggestions of ``figure``'s player, oldest first: id, text and
    the GM's answer (``offen``, ``angenommen``, ``abgelehnt``); none of another figure's."""
    mine = suggestions.listing(state, figure)[-SUGGESTIONS_SHOWN:]
    return [{"id": str(s["id"]), "text": str(s["text"]), "antwort": str(s["answer"] or OPEN)} for s in mine]
