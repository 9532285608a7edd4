"""Surprise and side initiative (seed 001, "Kampf"; "Fernkampf-Angriffe").

Surprise: 1W6 per side, surprised on 1 to ``ueberrascht_bis``. Initiative: 1W6 per side every
round, the missile bonus of a figure holding a missile weapon added (``rang`` compares).
Given dice: one W6 per side in the order the sides first appear.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from functools import cache
from itertools import product
from typing import Any

from ...dice import Dist, Roll, Roller
from ...messages import t
from rpgkernel.rules.kit import Effect, Figure, Resolution, clauses, higher_initiative, listing, sentence
from .settings import Einstellungen, OsrError
from .sheet import in_der_hand

RULE = "Kampf"
MAX_NEU = 50   # rerolls of a tie before it counts as simultaneous after all


def seiten(figures: Sequence[Figure]) -> dict[str, list[Figure]]:
    """The figures by side, in the order the sides first appear (no side: a side of its own)."""
    out: dict[str, list[Figure]] = {}
    for f in figures:
        out.setdefault(f.side or f.name, []).append(f)
    return out


def fernkampfbonus(figure: Figure) -> int:
    """The missile bonus a figure adds to initiative: only with a missile weapon in hand."""
    w = in_der_hand(figure)
    return int(figure.value("fernkampfbonus", 0)) if w is not None and w.fernkampf else 0


def ueberraschung_vorschau(figures: Sequence[Figure], settings: Einstellungen,
                           bis: int | None = None) -> dict[str, float]:
    """P(each side is surprised), exact before the roll."""
    bis = settings.ueberrascht_bis if bis is None else bis
    return {t("osr.p_surprised", side=side): max(0, min(bis, 6)) / 6 for side in seiten(figures)}


def ueberraschung(figures: Sequence[Figure], roller: Roller | None, settings: Einstellungen,
                  bis: int | None = None) -> Resolution:
    """Surprise: 1W6 per side, surprised on 1 to ``bis`` (Kampf: "Überraschung bestimmen (1W6)");
    without ``roller`` only the preview (``ueberraschung_vorschau``)."""
    bis = settings.ueberrascht_bis if bis is None else bis
    groups = seiten(figures)
    res = Resolution("osr", "überraschung", tuple(f.name for f in figures))
    res.preview = ueberraschung_vorschau(figures, settings, bis)
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
            res.effects += [Effect(f.name, condition="überrascht", rounds=1) for f in members]
    res.outcome = {"überrascht": surprised}
    hit = [f.name for side in surprised for f in groups[side]]
    rest = [n for n in res.actors if n not in hit]
    res.summary = clauses([sentence("osr.satz.überrascht", hit) if hit else "",
                           sentence("osr.satz.nicht_überrascht", rest) if rest else ""])
    return res


def seiteninitiative(figures: Sequence[Figure], roller: Roller | None,
                     settings: Einstellungen) -> Resolution:
    """Side initiative for one round (Kampf; the missile bonus: Fernkampf-Angriffe); without ``roller``
    only the preview (``initiative_vorschau``)."""
    return wuerfeln(figures, roller, settings)[0]


def wuerfeln(figures: Sequence[Figure], roller: Roller | None,
             settings: Einstellungen) -> tuple[Resolution, dict[str, Any]]:
    """``seiteninitiative`` and each side's final roll (side -> ``Roll``) for the journal."""
    groups = seiten(figures)
    res = Resolution("osr", "initiative", tuple(f.name for f in figures))
    res.preview = initiative_vorschau(groups, settings)
    if roller is None:
        return res, {}
    rolls = seitenwuerfe(res, groups, roller, settings)
    die = {side: r.total for side, r in rolls.items()}
    segment, werte = segmente(res, groups, die)
    order = reihenfolge(groups, werte)
    top = max(die.values())
    simultaneous = [s for s, d in die.items() if d == top]
    res.step(t("osr.initiative_tie" if len(simultaneous) > 1 else "osr.initiative_first",
               sides=", ".join(simultaneous), order=", ".join(order)), RULE)
    res.outcome = {"würfe": die, "segmente": segment, "initiative": werte, "reihenfolge": order,
                   "gleichzeitig": simultaneous if len(simultaneous) > 1 else []}
    res.summary = t("osr.satz.initiative_gleich" if len(simultaneous) > 1 else "osr.satz.initiative",
                    wer=listing(simultaneous), reihenfolge=", ".join(order))
    return res, rolls


def seitenwuerfe(res: Resolution, groups: Mapping[str, Sequence[Figure]], roller: Roller,
                 settings: Einstellungen) -> dict[str, Roll]:
    """Each side's W6; tied highest sides roll again where the GM's setting says so."""
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
    return rolls


def segmente(res: Resolution, groups: Mapping[str, Sequence[Figure]],
             die: Mapping[str, int]) -> tuple[dict[str, int], dict[str, int]]:
    """Each side acts in the segment of the other side's roll; each figure's initiative: its side's
    roll plus its missile bonus (Fernkampf-Angriffe)."""
    segment = {side: max((d for s, d in die.items() if s != side), default=d) for side, d in die.items()}
    werte: dict[str, int] = {}
    for side, members in groups.items():
        res.step(t("osr.initiative_segment", side=side, segment=segment[side]), RULE, value=segment[side])
        for f in members:
            bonus = fernkampfbonus(f)
            werte[f.name] = die[side] + bonus
            if bonus:
                res.step(t("osr.initiative_missile", figure=f.name, bonus=bonus, value=werte[f.name]),
                         "Fernkampf-Angriffe", value=werte[f.name])
    return segment, werte


def rang(wert: int, bonus: int) -> tuple[int, bool]:
    """The place a value earns in the order: higher first; at an equal value a plain side die comes
    before a value reached with a missile bonus (the bonus must beat a side to act before it)."""
    return -wert, bonus != 0


def reihenfolge(groups: Mapping[str, Sequence[Figure]], werte: Mapping[str, int]) -> list[str]:
    """By ``rang``; then the sides' order (tied sides act at the same time), then the names."""
    index = {f.name: i for i, members in enumerate(groups.values()) for f in members}
    bonus = {f.name: fernkampfbonus(f) for members in groups.values() for f in members}
    return sorted(werte, key=lambda n: (*rang(werte[n], bonus[n]), index[n], n))


def gleichzeitig(figures: Sequence[Figure], werte: Mapping[str, int]) -> list[frozenset[str]]:
    """The figures that act at the same time: those of equal ``rang`` (value, and whether a missile
    bonus made it) from more than one side, a tie of sides (Kampf; default ``gleichstand``)."""
    by_rank: dict[tuple[int, bool], list[Figure]] = defaultdict(list)
    for f in figures:
        if f.name in werte:
            by_rank[rang(werte[f.name], fernkampfbonus(f))].append(f)
    return [frozenset(f.name for f in same) for same in by_rank.values() if len({f.side or f.name for f in same}) > 1]


def seitenwuerfel(figures: Sequence[Figure], werte: Mapping[str, int]) -> dict[str, int]:
    """Each side's die this round, read back from a member's value (its die plus its missile bonus)."""
    out: dict[str, int] = {}
    for f in figures:
        if f.name in werte:
            out.setdefault(f.side or f.name, werte[f.name] - fernkampfbonus(f))
    return out


def nachzuegler(figure: Figure, figures: Sequence[Figure], werte: Mapping[str, int], roller: Roller
                ) -> tuple[int, dict[str, Any], str]:
    """The initiative of a figure that joins a running round (Kampf): its side's die of this round, or,
    for a side that comes in, a new 1W6; plus its missile bonus (Fernkampf-Angriffe). The note names
    the side, its die and the segment it acts in (the other sides' die, the highest of several)."""
    dice = seitenwuerfel([f for f in figures if f.name != figure.name], werte)
    side = figure.side or figure.name
    rolled: dict[str, Any] = {}
    if side not in dice:
        roll = roller.roll("W6")
        dice[side], rolled = roll.total, {side: roll.to_dict()}
    segment = max((d for s, d in dice.items() if s != side), default=dice[side])
    return dice[side] + fernkampfbonus(figure), rolled, t("osr.join_side", side=side, die=dice[side], segment=segment)


def umstellung_verweigert(change: str, figure: Figure, overtaken: Sequence[Figure],
                          werte: Mapping[str, int]) -> str | None:
    """Why the order may not change so (Kampf), or None: a side rolls its initiative, not one figure
    and not a group of its own; nobody moves before a higher value ("Die Partei mit der Initiative
    handelt zuerst"). Acting now is an interruption, which the seed allows (Kampf, Hinweis)."""
    if change == "neu":
        return t("osr.no_reroll")
    if change == "gruppe":
        return t("osr.no_group")
    higher, _ = higher_initiative(figure, overtaken, werte)
    if change == "vor" and higher:
        return t("osr.order_side_first", figure=figure.name, others=listing(higher))
    return None


def wartet_auf(figure: Figure, noch: Sequence[Figure]) -> str:
    """Initiative verzögern: "abzuwarten, bis die andere Seite gehandelt hat" — the last of this
    round's figures still to act (``noch``) that is not on its side."""
    side = figure.side or figure.name
    others = [f.name for f in noch if (f.side or f.name) != side]
    if not others:
        raise OsrError(t("osr.delay_nothing", figure=figure.name))
    return others[-1]


def initiative_vorschau(groups: Mapping[str, Sequence[Figure]],
                        settings: Einstellungen) -> dict[str, Any]:
    """Exact before the roll: P(a side wins the initiative outright), P(tie), and for a figure
    with a missile bonus P(``rang`` puts it before every other side's die)."""
    w6 = Dist.die(6)
    out: dict[str, Any] = {}
    sides = list(groups)
    if len(sides) < 2:
        return out
    others = _maximum([w6] * (len(sides) - 1))
    p_alone = sum(w6.p_exactly(v) * others.p_less(v) for v in range(1, 7))
    # a side's final die against the highest final die of the others
    paar = _neu_paar(len(sides)) if settings.gleichstand == "neu" else {
        (v, m): w6.p_exactly(v) * others.p_exactly(m) for v in w6.support for m in others.support}
    for s in sides:
        # rerolling the tied sides is symmetric: then each side wins with 1/n
        out[t("osr.p_initiative", side=s)] = 1 / len(sides) if settings.gleichstand == "neu" else p_alone
        for f in groups[s]:
            bonus = fernkampfbonus(f)
            if bonus and paar is not None:
                out[t("osr.p_missile_first", figure=f.name)] = sum(
                    p for (v, m), p in paar.items() if rang(v + bonus, bonus) < rang(m, 0))
    if settings.gleichstand != "neu":
        out[t("osr.p_initiative_tie")] = 1 - len(sides) * p_alone
    return out


NEU_SEITEN = 3   # the exact reroll preview enumerates 6**n dice; more sides: no missile preview


@cache
def _neu_paar(n: int) -> dict[tuple[int, int], float] | None:
    """With tied sides rolling again (as ``wuerfeln`` does, at most ``MAX_NEU`` times): the joint
    distribution of the first side's final die and the highest final die of the others."""
    ende = endwuerfe(n, neu=True)
    if ende is None:
        return None
    paar: dict[tuple[int, int], float] = defaultdict(float)
    for w, p in ende.items():
        paar[w[0], max(w[1:])] += p
    return paar


def endwuerfe(n: int, neu: bool) -> dict[tuple[int, ...], float] | None:
    """The chance of every final die of ``n`` sides (in order), tied sides rolling again where ``neu``
    (as ``wuerfeln`` does, at most ``MAX_NEU`` times); None for more than ``NEU_SEITEN`` sides."""
    if n > NEU_SEITEN:
        return None
    offen: dict[tuple[int, ...], float] = {w: 6.0 ** -n for w in product(range(1, 7), repeat=n)}
    if not neu:
        return offen
    ende: dict[tuple[int, ...], float] = defaultdict(float)
    for _ in range(MAX_NEU):
        if sum(offen.values()) < 1e-15:   # what is still tied can no longer show at 1e-12
            break
        weiter: dict[tuple[int, ...], float] = defaultdict(float)
        for w, p in offen.items():
            tied = [i for i, d in enumerate(w) if d == max(w)]
            if len(tied) < 2:
                ende[w] += p
                continue
            for neu_ in product(range(1, 7), repeat=len(tied)):
                x = list(w)
                for i, d in zip(tied, neu_):
                    x[i] = d
                weiter[tuple(x)] += p / 6 ** len(tied)
        offen = weiter
    for w, p in offen.items():
        ende[w] += p
    return dict(ende)


def werte_chancen(figures: Sequence[Figure], settings: Einstellungen) -> list[tuple[float, dict[str, int]]]:
    """The chance of every set of initiative values ``wuerfeln`` gives (each figure its side's final
    die plus its missile bonus), for a forecast; none for more than ``NEU_SEITEN`` sides."""
    groups = seiten(figures)
    ende = endwuerfe(len(groups), settings.gleichstand == "neu")
    if ende is None:
        return []
    return [(p, {f.name: d + fernkampfbonus(f) for d, members in zip(w, groups.values()) for f in members})
            for w, p in ende.items()]


def _maximum(ds: Sequence[Dist]) -> Dist:
    out = ds[0]
    for d in ds[1:]:
        out = out.maximum(d)
    return out
