"""Surprise and side initiative (seed 001, "Kampf"; "Fernkampf-Angriffe").

Surprise: 1W6 per side, surprised on 1 to ``ueberrascht_bis`` (default 2).
Initiative: 1W6 per side every round; the higher side acts first, each side
in the segment shown by the other side's die (with more than two sides: the
highest of the others'). Ties: both sides act at the same time (default) or,
configured, the tied sides roll again. A figure holding a missile weapon
adds its missile bonus to its side's die and may act before its side.
Given dice: one W6 per side in the order the sides first appear.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...dice import Dist, Roller
from ...messages import t
from ..resolution import Effect, Resolution
from .core import Einstellungen, in_der_hand, name, wert

RULE = "Kampf"
MAX_NEU = 50   # rerolls of a tie before it counts as simultaneous after all


def seiten(figures: Sequence[Mapping[str, Any]]) -> dict[str, list[Mapping[str, Any]]]:
    """The figures by side, in the order the sides first appear (no side: a side of its own)."""
    out: dict[str, list[Mapping[str, Any]]] = {}
    for f in figures:
        out.setdefault(f.get("side") or name(f), []).append(f)
    return out


def fernkampfbonus(figure: Mapping[str, Any]) -> int:
    """The missile bonus a figure adds to initiative: only with a missile weapon in hand."""
    w = in_der_hand(figure)
    return int(wert(figure, "fernkampfbonus", 0)) if w is not None and w.fernkampf else 0


def ueberraschung(figures: Sequence[Mapping[str, Any]], roller: Roller | None, settings: Einstellungen,
                  bis: int | None = None) -> Resolution:
    """Surprise: 1W6 per side, surprised on 1 to ``bis`` (Kampf: "Überraschung bestimmen (1W6)")."""
    bis = settings.ueberrascht_bis if bis is None else bis
    groups = seiten(figures)
    res = Resolution("osr", "überraschung", tuple(name(f) for f in figures))
    res.preview = {t("osr.p_surprised", side=side): max(0, min(bis, 6)) / 6 for side in groups}
    if roller is None:
        return res
    surprised = []
    for side, members in groups.items():
        roll = roller.roll("W6")
        hit = roll.total <= bis
        res.step(t("osr.surprise_roll", side=side, roll=roll.total, bis=bis,
                   result=t("osr.surprised" if hit else "osr.not_surprised")), RULE, roll, value=roll.total)
        if hit:
            surprised.append(side)
            res.effects += [Effect(name(f), condition="überrascht", rounds=1) for f in members]
    res.outcome = {"überrascht": surprised}
    return res


def seiteninitiative(figures: Sequence[Mapping[str, Any]], roller: Roller | None,
                     settings: Einstellungen) -> Resolution:
    """Side initiative for one round (Kampf; the missile bonus: Fernkampf-Angriffe)."""
    return wuerfeln(figures, roller, settings)[0]


def wuerfeln(figures: Sequence[Mapping[str, Any]], roller: Roller | None,
             settings: Einstellungen) -> tuple[Resolution, dict[str, Any]]:
    """``seiteninitiative`` and each side's final roll (side -> ``Roll``) for the journal."""
    groups = seiten(figures)
    res = Resolution("osr", "initiative", tuple(name(f) for f in figures))
    res.preview = initiative_vorschau(groups, settings)
    if roller is None:
        return res, {}
    rolls = {side: roller.roll("W6") for side in groups}
    for side, roll in rolls.items():
        res.step(t("osr.initiative_roll", side=side, roll=roll.total), RULE, roll, value=roll.total)
    for _ in range(MAX_NEU):
        top = max(r.total for r in rolls.values())
        tied = [s for s, r in rolls.items() if r.total == top]
        if settings.gleichstand != "neu" or len(tied) < 2:
            break
        for side in tied:
            rolls[side] = roller.roll("W6")
            res.step(t("osr.initiative_reroll", side=side, roll=rolls[side].total), RULE, rolls[side],
                     value=rolls[side].total)
    die = {side: r.total for side, r in rolls.items()}
    segment = {side: max((d for s, d in die.items() if s != side), default=d) for side, d in die.items()}
    werte: dict[str, int] = {}
    for side, members in groups.items():
        res.step(t("osr.initiative_segment", side=side, segment=segment[side]), RULE, value=segment[side])
        for f in members:
            bonus = fernkampfbonus(f)
            werte[name(f)] = die[side] + bonus
            if bonus:
                res.step(t("osr.initiative_missile", figure=name(f), bonus=bonus, value=werte[name(f)]),
                         "Fernkampf-Angriffe", value=werte[name(f)])
    order = reihenfolge(groups, werte)
    top = max(die.values())
    simultaneous = [s for s, d in die.items() if d == top]
    res.step(t("osr.initiative_tie" if len(simultaneous) > 1 else "osr.initiative_first",
               sides=", ".join(simultaneous), order=", ".join(order)), RULE)
    res.outcome = {"würfe": die, "segmente": segment, "initiative": werte, "reihenfolge": order,
                   "gleichzeitig": simultaneous if len(simultaneous) > 1 else []}
    return res, rolls


def reihenfolge(groups: Mapping[str, Sequence[Mapping[str, Any]]], werte: Mapping[str, int]) -> list[str]:
    """Highest value first; a tie keeps the sides' order, then the names."""
    index = {name(f): i for i, members in enumerate(groups.values()) for f in members}
    return sorted(werte, key=lambda n: (-werte[n], index[n], n))


def initiative_vorschau(groups: Mapping[str, Sequence[Mapping[str, Any]]],
                        settings: Einstellungen) -> dict[str, Any]:
    """Exact before the roll: P(a side wins the initiative outright), P(tie), and for a figure
    with a missile bonus P(it acts before every other side)."""
    w6 = Dist.die(6)
    out: dict[str, Any] = {}
    sides = list(groups)
    if len(sides) < 2:
        return out
    others = _maximum([w6] * (len(sides) - 1))
    p_alone = sum(w6.p_exactly(v) * others.p_less(v) for v in range(1, 7))
    for s in sides:
        # rerolling the tied sides is symmetric: then each side wins with 1/n
        out[t("osr.p_initiative", side=s)] = 1 / len(sides) if settings.gleichstand == "neu" else p_alone
        for f in groups[s]:
            bonus = fernkampfbonus(f)
            if bonus:
                mine = w6 + bonus
                out[t("osr.p_missile_first", figure=name(f))] = sum(
                    mine.p_exactly(v) * others.p_less(v) for v in mine.support)
    if settings.gleichstand != "neu":
        out[t("osr.p_initiative_tie")] = 1 - len(sides) * p_alone
    return out


def _maximum(ds: Sequence[Dist]) -> Dist:
    out = ds[0]
    for d in ds[1:]:
        out = out.maximum(d)
    return out

