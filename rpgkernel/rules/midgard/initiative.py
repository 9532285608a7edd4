"""Individual initiative every round (seed 000, "Neue Initiativeregelung für Kämpfe").

Initiative = floor(Reaktionswert / 10) (after the armour's change) +
Kampftaktik + W6, between 2 and 20; optionally the weapon's attack-rank
modifier, unmodified. A leader named in advance with Kampftaktik +1 or more
rolls once: his W6 + Kampftaktik goes onto the base of every follower (named,
or his side in the encounter) who did not opt out before the roll; the others roll for themselves,
without the leader's bonus. Anyone may act later in the order, or not at all.
Ties are ordered by name. Given dice: in the order of the figures named,
one W6 per leader or independent figure (followers do not roll).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...dice import Dist, Roller
from ...dice.dist import convolve
from ...messages import t
from ..resolution import Resolution
from .core import MidgardError, feld, name

RULE = "Neue Initiativeregelung für Kämpfe"


def grundwert(figure: Mapping[str, Any], angriffsrang: bool = False) -> int:
    """floor((Reaktionswert + armour's change) / 10), plus the attack-rank modifier if played."""
    rw = feld(figure, "rw", 0) + feld(figure, "rw_ruestung", 0)
    return rw // 10 + (feld(figure, "angriffsrang", 0) if angriffsrang else 0)


def eigener_bonus(figure: Mapping[str, Any], angriffsrang: bool = False) -> int:
    """What a figure adds to its own W6: Grundwert + Kampftaktik."""
    return grundwert(figure, angriffsrang) + feld(figure, "kampftaktik", 0)


def gruppen(figures: Sequence[Mapping[str, Any]], anfuehrer: Sequence[str] = (), eigene: Sequence[str] = (),
            folgen: Sequence[str] = ()) -> list[tuple[str, list[str]]]:
    """Who rolls: (roller, [the figures whose initiative that roll sets]) in the order named.

    A leader's followers are those named in ``folgen`` or, without it, the
    figures of his side (an encounter's ``side``) except those in ``eigene``.
    """
    by_name = {name(f): f for f in figures}
    for who in (*anfuehrer, *eigene, *folgen):
        if who not in by_name:
            raise MidgardError(t("midgard.leader_not_here", figure=who))
    for lead in anfuehrer:
        if feld(by_name[lead], "kampftaktik", 0) < 1:
            raise MidgardError(t("midgard.leader_tactics", figure=lead))
    led: dict[str, str] = {}
    for lead in anfuehrer:
        side = by_name[lead].get("side") or None
        for f in figures:
            n = name(f)
            wants = n in folgen if folgen else side is not None and f.get("side") == side
            if wants and n not in anfuehrer and n not in eigene and n not in led:
                led[n] = lead
    out = []
    for f in figures:
        n = name(f)
        if n not in led:
            out.append((n, [n] + [m for m, lead in led.items() if lead == n]))
    return out


def initiative(figures: Sequence[Mapping[str, Any]], roller: Roller | None, *, anfuehrer: Sequence[str] = (),
               eigene: Sequence[str] = (), folgen: Sequence[str] = (), angriffsrang: bool = False) -> Resolution:
    """Every figure's initiative for this round and the order (see the module docstring and ``gruppen``)."""
    by_name = {name(f): f for f in figures}
    groups = gruppen(figures, anfuehrer, eigene, folgen)
    res = Resolution("midgard", "initiative", tuple(by_name))
    bonus = {n: grundwert(f, angriffsrang) for n, f in by_name.items()}
    sources = [[(m, bonus[m] + feld(by_name[lead], "kampftaktik", 0)) for m in members]
               for lead, members in groups]
    res.preview = reihenfolge_vorschau(sources)
    if roller is None:
        return res
    values = {}
    for (lead, members), source in zip(groups, sources):
        roll = roller.roll("W6")
        tactics = feld(by_name[lead], "kampftaktik", 0)
        for member, offset in source:
            values[member] = offset + roll.total
        if len(members) > 1:
            res.step(t("midgard.leader_roll", figure=lead, roll=roll.total, tactics=tactics,
                       passed=roll.total + tactics, followers=", ".join(members[1:])), RULE, roll, value=roll.total)
            for member in members:
                res.step(t("midgard.initiative_led", figure=member, base=bonus[member], passed=roll.total + tactics,
                           total=values[member]), RULE, value=values[member])
        else:
            res.step(t("midgard.initiative_own", figure=lead, base=bonus[lead], tactics=tactics, roll=roll.total,
                       total=values[lead]), RULE, roll, value=values[lead])
    order = sorted(values, key=lambda n: (-values[n], n))
    res.step(t("midgard.initiative_order", order=", ".join(f"{n} {values[n]}" for n in order)), RULE)
    res.outcome = {"initiative": values, "reihenfolge": order}
    return res


def _beats(a: tuple[int, str], b: tuple[int, str]) -> bool:
    """Whether (value, name) ``a`` acts before ``b``: the higher value, on a tie the name first."""
    return a[0] > b[0] or (a[0] == b[0] and a[1] < b[1])


def reihenfolge_vorschau(sources: Sequence[Sequence[tuple[str, int]]]) -> dict[str, Any]:
    """Exact, before the roll: each figure's place in the order (1 = first) and P(acts first).

    ``sources``: one per W6 rolled, the figures it sets with their offsets
    (value = offset + W6); ties go by name.
    """
    out: dict[str, Any] = {}
    for s, source in enumerate(sources):
        for me, off in source:
            ranks = [0.0] * (sum(len(x) for x in sources))
            for f in range(1, 7):
                mine = (off + f, me)
                counts = [1.0]
                for s2, other in enumerate(sources):
                    if s2 == s:
                        continue
                    pmf = [0.0] * (len(other) + 1)
                    for g in range(1, 7):
                        pmf[sum(_beats((o + g, n), mine) for n, o in other)] += 1 / 6
                    counts = convolve(counts, pmf)
                own = sum(_beats((o + f, n), mine) for n, o in source if n != me)
                for c, p in enumerate(counts):
                    ranks[own + c] += p / 6
            place = Dist(1, ranks).labelled(t("midgard.place", figure=me))
            out[t("midgard.p_first", figure=me)] = place.p_exactly(1)
            out[f"platz:{me}"] = place
    return out
