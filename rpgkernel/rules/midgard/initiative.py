"""Individual initiative every round (seed 000, "Neue Initiativeregelung für Kämpfe").

Initiative = floor(Reaktionswert / 10) + Kampftaktik + W6, between 2 and 20; a leader
(``anfuehrer``) rolls once for his followers (``folgt LEADER``) unless they opt out (``eigene``).
The encounter rolls it at every round's start (``Midgard.initiative_rolls``). Given dice: in the
order of the figures, one W6 per leader or independent figure.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...dice import Dist, Roll, Roller
from ...errors import DiceLimitError
from ...messages import t
from rpgkernel.rules.kit import Effect, Figure, Resolution, clauses, convolve, higher_initiative, listing, sentence
from .core import MidgardError
from .sheet import feld

RULE = "Neue Initiativeregelung für Kämpfe"
PREVIEW_FIGURES = 30   # figures the exact order preview may take (its work grows with their cube)
FOLGT = "folgt "                    # + the leader's name
EIGENE = "eigene Initiative"        # opted out before the leader's next roll
WARTET = "wartet ab"                # acts later this round, or not at all


def grundwert(figure: Figure, angriffsrang: bool = False) -> int:
    """floor((Reaktionswert + armour's change) / 10), plus the attack-rank modifier if played."""
    rw = feld(figure, "rw", 0) + feld(figure, "rw_ruestung", 0)
    return rw // 10 + (feld(figure, "angriffsrang", 0) if angriffsrang else 0)


def eigener_bonus(figure: Figure, angriffsrang: bool = False) -> int:
    """What a figure adds to its own W6: Grundwert + Kampftaktik."""
    return grundwert(figure, angriffsrang) + feld(figure, "kampftaktik", 0)


def kann_anfuehren(figure: Figure) -> bool:
    return feld(figure, "kampftaktik", 0) >= 1


def folgt(figure: Figure) -> str | None:
    """The leader the figure follows (its condition ``folgt LEADER``), or None."""
    return next((c[len(FOLGT):] for c in figure.conditions if c.startswith(FOLGT)), None)


def gruppen(figures: Sequence[Figure]) -> tuple[list[tuple[str, list[str]]], dict[str, str]]:
    """Who rolls: (roller, [the figures whose initiative that roll sets]) in the figures' order, and
    for each follower who rolls himself why ("eigene": opted out; "fehlt": no leader to follow)."""
    by_name = {f.name: f for f in figures}
    leaders = {lead for f in figures if (lead := folgt(f)) in by_name and folgt(by_name[lead]) is None
               and kann_anfuehren(by_name[lead])}
    led: dict[str, str] = {}
    alone: dict[str, str] = {}
    for f in figures:
        lead = folgt(f)
        if lead is None or f.name in leaders:
            continue
        if f.has(EIGENE):
            alone[f.name] = "eigene"
        elif lead in leaders:
            led[f.name] = lead
        else:
            alone[f.name] = "fehlt"
    groups = [(n, [n] + [m for m, lead in led.items() if lead == n]) for n in by_name if n not in led]
    return groups, alone


def wuerfe(figures: Sequence[Figure], roller: Roller, angriffsrang: bool = False
           ) -> tuple[dict[str, int], dict[str, Roll], list[tuple[str, list[str]]]]:
    """Every figure's initiative, the W6 of each roller, and the groups (see ``gruppen``)."""
    by_name = {f.name: f for f in figures}
    groups, _ = gruppen(figures)
    values: dict[str, int] = {}
    rolls: dict[str, Roll] = {}
    for lead, members in groups:
        roll = rolls[lead] = roller.roll("W6")
        passed = roll.total + feld(by_name[lead], "kampftaktik", 0)
        for member in members:
            values[member] = grundwert(by_name[member], angriffsrang) + passed
    return values, rolls, groups


def _quellen(figures: Sequence[Figure], groups: Sequence[tuple[str, list[str]]],
             angriffsrang: bool) -> list[list[tuple[str, int]]]:
    """The W6 rolled (one per group) with the figures each sets and their offsets
    (``reihenfolge_vorschau``): Grundwert + the roller's Kampftaktik."""
    by_name = {f.name: f for f in figures}
    return [[(m, grundwert(by_name[m], angriffsrang) + feld(by_name[lead], "kampftaktik", 0)) for m in members]
            for lead, members in groups]


def initiative_vorschau(figures: Sequence[Figure], *, angriffsrang: bool = False) -> dict[str, Any]:
    """The preview of ``initiative``, exact: each figure's place in the order and P(acts first)."""
    groups, _ = gruppen(figures)
    return reihenfolge_vorschau(_quellen(figures, groups, angriffsrang))


def initiative(figures: Sequence[Figure], roller: Roller | None, *,
               angriffsrang: bool = False) -> Resolution:
    """Every figure's initiative for this round and the order, with the leaders named in advance
    (see the module docstring); without a roller only the exact order preview (``initiative_vorschau``)."""
    by_name = {f.name: f for f in figures}
    groups, alone = gruppen(figures)
    res = Resolution("midgard", "initiative", tuple(by_name))
    bonus = {n: grundwert(f, angriffsrang) for n, f in by_name.items()}
    try:
        res.preview = reihenfolge_vorschau(_quellen(figures, groups, angriffsrang))
    except DiceLimitError as err:
        if roller is None:  # the preview alone: refused with its reason
            raise
        res.step(t("midgard.no_preview", reason=err.message), RULE)
    if roller is None:
        return res
    for who, why in alone.items():
        res.step(t(f"midgard.follower_{why}", figure=who, leader=folgt(by_name[who])), RULE)
    values, rolls, _ = wuerfe(figures, roller, angriffsrang)
    for lead, members in groups:
        roll, tactics = rolls[lead], feld(by_name[lead], "kampftaktik", 0)
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
    if len(order) == 1:
        res.summary = clauses([t("midgard.satz.initiative_einzeln", figure=order[0], wert=values[order[0]])])
    else:
        res.summary = clauses([t("midgard.satz.initiative", order=", ".join(
            t("midgard.satz.initiative_eintrag", figure=n, wert=values[n]) for n in order))])
    return res


def anfuehrer(leader: Figure, followers: Sequence[Figure]) -> Resolution:
    """Name ``leader`` in advance for ``followers``: they follow him from the next initiative roll on."""
    who = leader.name
    if not kann_anfuehren(leader):
        raise MidgardError(t("midgard.leader_tactics", figure=who))
    names = [f.name for f in followers]
    if who in names:
        raise MidgardError(t("midgard.leader_follows_himself", figure=who))
    res = Resolution("midgard", "anführer", (who,), tuple(names))
    res.effects += [Effect(who, condition=c, on=False) for c in leader.conditions if c.startswith(FOLGT)]
    for f in followers:
        res.effects += [Effect(f.name, condition=c, on=False) for c in f.conditions
                        if (c.startswith(FOLGT) and c != FOLGT + who) or c == EIGENE]
        if not f.has(FOLGT + who):
            res.effects.append(Effect(f.name, condition=FOLGT + who))
    res.step(t("midgard.leader_named", figure=who, tactics=feld(leader, "kampftaktik", 0), followers=", ".join(names)),
             RULE)
    res.summary = clauses([t("midgard.satz.anfuehrer", figure=who, gefolge=listing(names))])
    return res


def eigene(figures: Sequence[Figure], dauerhaft: bool = False) -> Resolution:
    """Followers who do not follow at the leader's next roll (before it: they roll themselves);
    ``dauerhaft``: they leave the group."""
    res = Resolution("midgard", "eigene", tuple(f.name for f in figures))
    for f in figures:
        lead = folgt(f)
        if lead is None:
            raise MidgardError(t("midgard.follows_nobody", figure=f.name))
        if dauerhaft:
            res.effects.append(Effect(f.name, condition=FOLGT + lead, on=False))
            res.step(t("midgard.follower_leaves", figure=f.name, leader=lead), RULE)
        else:
            res.effects.append(Effect(f.name, condition=EIGENE, rounds=1, ends="rundenbeginn"))
            res.step(t("midgard.follower_opts_out", figure=f.name, leader=lead), RULE)
    res.summary = clauses([sentence("midgard.satz.verlaesst" if dauerhaft else "midgard.satz.eigene", res.actors)])
    return res


def abwarten(figures: Sequence[Figure]) -> Resolution:
    """The figures act later in this round's order, or not at all (``wartet ab`` until the round ends)."""
    res = Resolution("midgard", "abwarten", tuple(f.name for f in figures))
    for f in figures:
        res.effects.append(Effect(f.name, condition=WARTET, rounds=1, ends="rundenende"))
        res.step(t("midgard.holds", figure=f.name), RULE)
    res.summary = clauses([sentence("midgard.satz.abwarten", res.actors)])
    return res


def nachzuegler(figure: Figure, figures: Sequence[Figure], werte: Mapping[str, int], roller: Roller
                ) -> tuple[int, dict[str, Any], str | None]:
    """The initiative of a figure that joins a running round or rolls anew alone: a follower of a leader
    who rolled this round takes his W6 + Kampftaktik on its Grundwert (unless it opted out, ``eigene``);
    anyone else rolls W6 + Grundwert + Kampftaktik for itself."""
    by_name = {f.name: f for f in figures}
    leader = by_name.get(folgt(figure) or "")
    if (leader is not None and leader.name in werte and folgt(leader) is None and kann_anfuehren(leader)
            and not figure.has(EIGENE)):
        passed = werte[leader.name] - grundwert(leader)
        return grundwert(figure) + passed, {}, t("midgard.join_follower", leader=leader.name, passed=passed)
    roll = roller.roll("W6")
    return eigener_bonus(figure) + roll.total, {figure.name: roll.to_dict()}, None


def umstellung_verweigert(change: str, figure: Figure, overtaken: Sequence[Figure],
                          werte: Mapping[str, int]) -> str | None:
    """Why the order may not change so, or None: anyone may act "erst später in dieser Reihenfolge oder
    gar nicht", never before a higher initiative; a group rolls only through a leader."""
    if change == "gruppe":
        return t("midgard.no_group")
    higher, _ = higher_initiative(figure, overtaken, werte)
    if change in ("vor", "jetzt") and higher:
        return t("midgard.order_later_only", figure=figure.name, others=listing(higher))
    return None


def _beats(a: tuple[int, str], b: tuple[int, str]) -> bool:
    """Whether (value, name) ``a`` acts before ``b``: the higher value, on a tie the name first."""
    return a[0] > b[0] or (a[0] == b[0] and a[1] < b[1])


def reihenfolge_vorschau(sources: Sequence[Sequence[tuple[str, int]]]) -> dict[str, Any]:
    """Exact, before the roll: each figure's place in the order (1 = first) and P(acts first).

    ``sources``: one per W6 rolled, the figures it sets with their offsets
    (value = offset + W6); ties go by name.
    """
    figures = sum(len(x) for x in sources)
    if figures > PREVIEW_FIGURES:
        raise DiceLimitError(t("midgard.order_too_costly", n=figures, max=PREVIEW_FIGURES))
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
