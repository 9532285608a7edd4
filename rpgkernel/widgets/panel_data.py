"""The encounter panel's data: plain JSON built from the campaign state and the
ruleset interface (resources, conditions, verbs, segments), for any ruleset.

Nothing here changes the campaign; the state passed in is only read.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from ..dice import Dist
from ..forecast.weighing import Weighing, shown_dicts
from ..state.journal import kind_label
from ..rules.wording import effect_text, preview_lines
from ..rules.base import Ruleset
from ..rules.figure import view
from ..state import fighting, model, players, suggestions
from ..state.effects import Effect
from ..resolve.lines import choice_fields, option_field
from ..render.forecast import (chance_text, headline, mean_text, method_line, notes, resource_names,
                               rounds_line, win_parts)
from ..messages import t
from ..statblocks import base_name, free_names
from .chart import chart_data
from .panel_lines import suggestion_line


def rules_info(engine: Ruleset) -> dict[str, Any]:
    """The ruleset as the panel's form needs it: its action verbs (no choice verbs), conditions and
    whether it rolls an initiative."""
    verbs = [{"name": v.name, "help": v.help, "example": v.example, "actors": v.actors, "targets": v.targets,
              "options": [option_field(engine.key, v.name, k, kind) for k, kind in v.options.items()],
              "preview": v.preview is not None}
             for v in engine.verbs.values() if v.choice is None]
    return {"key": engine.key, "title": engine.title, "segments": engine.initiative.segments,
            "conditions": dict(engine.status.conditions), "verbs": verbs, "initiative": engine.initiative.rolled}


def order(enc: Mapping[str, Any]) -> list[str]:
    """The turn order; before the start, the combatants as they joined."""
    return list(enc["order"]) if enc["round"] else list(enc["combatants"])


def current(enc: Mapping[str, Any] | None) -> str | None:
    """Whose turn it is (None before the start)."""
    if not enc or not enc["round"] or not enc["order"]:
        return None
    return enc["order"][enc["turn"]]


def out_of_fight(state: Mapping[str, Any], enc: Mapping[str, Any] | None) -> dict[str, str]:
    """Each combatant out of the fight -> why (``Encounter.out_of_fight``); none without an encounter."""
    return {} if enc is None else fighting.reasons(state, enc["name"])


def header(state: Mapping[str, Any], enc: Mapping[str, Any] | None, engine: Ruleset,
           out_of: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Name, round, segment, whose turn, whether undo/redo is possible, who was removed, how many are
    out of the fight (``out_of``: ``out_of_fight``, when the caller has it), whether their turns
    are skipped, and the campaign's characters who may join."""
    history = state["history"]
    out = {"name": None, "round": 0, "segment": None, "segments": engine.initiative.segments, "current": None,
           "count": 0, "active": False, "undo": bool(history["done"]), "redo": bool(history["undone"]),
           "removed": [], "out": 0, "skip_out": True, "joinable": []}
    if enc is not None:
        out.update(name=enc["name"], round=enc["round"], segment=enc.get("segment"), current=current(enc),
                   count=len(enc["combatants"]), active=state["active_encounter"] == enc["name"],
                   removed=list(enc.get("removed", ())),
                   out=len(out_of_fight(state, enc) if out_of is None else out_of), skip_out=fighting.skips(enc),
                   joinable=[n for n in state["characters"]
                             if n not in enc["combatants"] and n not in enc.get("removed", ())])
    return out


def rows(state: Mapping[str, Any], enc: Mapping[str, Any] | None, engine: Ruleset,
         out_of: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """One row per combatant in turn order, then those who wait out of it: side, resources (value, max),
    conditions (remaining), and why it is out of the fight (``out_of``: ``out_of_fight``, when the
    caller has it); marked ``hidden``, ``held`` (waits) and ``group`` where they are, ``reroll`` in a
    running fight where the ruleset lets its initiative be rolled anew alone, and ``ini``: this round's
    initiative, where the ruleset rolls it."""
    if enc is None:
        return []
    out_of = out_of_fight(state, enc) if out_of is None else out_of
    held = list(enc.get("held", ())) if enc["round"] else []
    rolls = enc.get("initiative", {})
    out = []
    for name in order(enc) + held:
        fig = model.figure(state, model.figure_path(state, name, enc["name"]))
        combatant = enc["combatants"][name]
        row = {"name": name, "side": combatant.get("side", ""),
               "res": [[k, r["value"], r["max"]] for k, r in fig.get("resources", {}).items()],
               "cond": [[k, c.get("remaining")] for k, c in fig.get("conditions", {}).items()]}
        if name in out_of:
            row["out"] = out_of[name]
        rolled = engine.initiative.expression(view(fig)) is not None   # the ruleset rolls initiative for it
        if not enc["round"] and rolled:
            row["roll"] = True  # the GM may enter the roll
        elif enc["round"] and name not in held and engine.initiative.refusal("neu", view(fig), [], rolls) is None:
            row["reroll"] = True
        if rolled and name in rolls:
            row["ini"] = rolls[name]
        for key in ("hidden", "group"):
            if combatant.get(key):
                row[key] = combatant[key]
        if name in held:
            row["held"] = True
        out.append(row)
    return out


def next_name(like: str, taken: Sequence[str]) -> str:
    """A newcomer's name after ``like``: its name without a trailing number, with the next free one
    ("Söldner 3" or "Söldner" -> "Söldner 2" when that is free)."""
    base = base_name(like)
    return free_names(base, 1, [*taken, base])[0]


def pending_list(state: Mapping[str, Any], engine: Ruleset,
                 weighed: Callable[[str], Weighing | None] = lambda _pid: None) -> list[dict[str, Any]]:
    """The ruleset's open resolutions, oldest first, each choice with the verb and fields that take it
    and the advice on it (``rules.advice``: per figure who may take it, the options with their
    consequences and lines; each option's chance of winning as ``weighed(id)`` knows it now).

    The panel's decision form answers one of them (the GM picks which; the latest first), and every
    decision names its id (``auflösung=ID``).
    """
    by_choice = {v.choice: v for v in engine.verbs.values() if v.choice}
    out = []
    records = [(pid, rec) for pid, rec in state.get("pending", {}).items() if rec.get("ruleset") == engine.key]
    for pid, rec in sorted(records, key=lambda kv: (kv[1].get("order", []), kv[0])):
        items = []
        advice = shown_dicts(rec.get("advice", []), weighed(pid)) if rec.get("advice") else []
        for c in rec.get("choices", []):
            base, _, target = c["key"].partition(":")
            verb = by_choice.get(base)
            if verb is None:
                continue
            items.append({"key": c["key"], "label": c["label"], "who": list(c.get("who", ())),
                          "also": list(c.get("also", ())),
                          "values": list(c.get("options", ())), "verb": verb.name, "target": target or None,
                          "fields": choice_fields(engine.key, verb, c.get("options", ()), c.get("values")),
                          "advice": [a for a in advice if a["key"] == c["key"]]})
        out.append({"id": pid, "source": rec.get("source", ""), "head": rec.get("head") or rec.get("source", ""),
                    "actors": list(rec.get("actors", ())), "choices": items})
    return out


def preview_items(preview: Any) -> list[dict[str, Any]]:
    """A preview (a Dist, a probability, or a dict of them) as German lines, a Dist with its chart data."""
    if preview is None:
        return []
    entries = preview.items() if isinstance(preview, dict) else [(None, preview)]
    out = []
    for key, value in entries:
        for line in preview_lines(value if key is None else {key: value}):
            out.append({"text": line, "chart": chart_data(value) if isinstance(value, Dist) else None})
    return out


def card(res: Mapping[str, Any]) -> dict[str, Any]:
    """A resolution (``Resolution.to_dict()``, or its journal entry) as structured text: head, steps
    with their dice, outcome, effects, open choices."""
    return {"action": res["action"], "actors": list(res["actors"]), "targets": list(res["targets"]),
            "steps": [{"text": s["text"], "rule": s["rule"],
                       "dice": [{"sides": d["sides"], "faces": list(d["faces"]), "kept": d["kept"]}
                                for r in s["rolls"] for d in r["dice"]]} for s in res["steps"]],
            "outcome": res["summary"],
            "effects": [f"{e['figure']}: {effect_text(Effect(**e))}" for e in res["effects"]],
            "choices": [c["label"] for c in res["choices"]], "open": res["open"]}


def journal_entry(event: Any) -> dict[str, Any]:
    """A journal line of the panel; ``player``: written by a player on their page (a suggestion), as
    far as the event tells (a player's roll or choice is journalled as the GM's is)."""
    entry = {"seq": event.seq, "kind": event.kind, "label": kind_label(event.kind, event.data),
             "text": str(event.data.get("text", ""))}
    if event.kind == suggestions.KIND and "answer" not in event.data:
        entry["player"] = True
    return entry


# -- the players: live links and their suggestions ---------------------------------------------------
def players_live(state: Mapping[str, Any]) -> bool:
    """Whether a player link of the campaign is valid (a player's page may be open)."""
    return any(link["revoked"] is None and model.figure_path(state, link["figure"]) is not None  # type: ignore[arg-type]
               for link in players.listing(state))


def open_suggestions(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The players' open suggestions, oldest first: id, figure, text, when they came (ISO, UTC) and
    the lines that accept and decline each."""
    return [{"id": s["id"], "figure": s["figure"], "text": s["text"], "created": s["created"],
             "accept": suggestion_line(s["id"], True), "decline": suggestion_line(s["id"], False)}
            for s in suggestions.listing(state) if s["answer"] is None]


def forecast_data(f: Any) -> dict[str, Any]:
    """A forecast as the panel shows it (texts as the card has them, ``render.forecast``): the headline,
    the win bar's parts, the rounds' chart, each combatant's chance of falling and resources left."""
    names = resource_names(f)
    return {"head": method_line(f), "headline": headline(f), "rounds": rounds_line(f),
            "chart": chart_data(f.rounds),
            "notes": notes(f), "stopped": f.stopped,
            "win": [{"label": t("forecast.wins", side=name) if name in f.win else name, "p": c.p,
                     "text": chance_text(c), "colour": colour} for name, c, colour in win_parts(f)],
            "columns": [t("forecast.col_figure"), t("forecast.col_side"), t("forecast.col_falls"), *names],
            "figures": [{"name": name, "side": fig.side, "falls": fig.falls.p, "falls_text": chance_text(fig.falls),
                         "resources": [mean_text(fig.resources[k]) if k in fig.resources else "–" for k in names]}
                        for name, fig in f.figures.items()]}
