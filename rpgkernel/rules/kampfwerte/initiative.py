"""Initiative (seed: Initiative): the value with a Mantel-Parade's raise, the tie rules, the exact
chance to act before a given opponent (``p_vor``, the verb's ``vor``), and what the encounter's order
may not change (``umstellung_verweigert``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...dice import Dist
from ...messages import t
from ...numerals import percent
from rpgkernel.rules.kit import Figure, Resolution, higher_initiative, listing
from .sheet import initiativewert, spielercharakter

#: the condition that records a raised initiative (Mantel-Parade: "Erhöht die Initiative um [Stufe]")
INI_BONUS = "Initiative +"


def ini_bonus(figure: Figure) -> int:
    """The raise a figure's Mantel-Parades recorded (condition ``Initiative +N``), 0 if none."""
    for c in figure.conditions:
        if c.startswith(INI_BONUS) and c[len(INI_BONUS):].isdigit():
            return int(c[len(INI_BONUS):])
    return 0


def ini(figure: Figure) -> int:
    """The initiative value before the 1W10: the sheet's value plus a recorded raise."""
    return initiativewert(figure.sheet) + ini_bonus(figure)


def gleichstand(figure: Figure) -> tuple:
    """Sort key among equal totals: the player character first, then the higher AUFMERKSAMKEIT,
    GEWANDTHEIT, INSTINKT, then the name."""
    return (not spielercharakter(figure), -figure.value("AUFMERKSAMKEIT"), -figure.value("GEWANDTHEIT"),
            -figure.value("INSTINKT"), figure.name)


def umstellung_verweigert(change: str, figure: Figure, overtaken: Sequence[Figure],
                          werte: Mapping[str, int]) -> str | None:
    """Why the order may not change so, or None: the highest value acts first, then the next; a tie
    goes by the tie rules (``gleichstand``; only where they leave it to the names, by hand)."""
    if change not in ("vor", "jetzt"):
        return None
    higher, tied = higher_initiative(figure, overtaken, werte)
    if higher:
        return t("kampfwerte.order_descending", figure=figure.name, others=listing(higher))
    ahead = [o.name for o in overtaken if o.name in tied and gleichstand(o)[:-1] < gleichstand(figure)[:-1]]
    if ahead:
        return t("kampfwerte.order_tie", figure=figure.name, others=listing(ahead))
    return None


def p_vor(figur: Figure, gegner: Figure) -> float:
    """P(``figur`` acts before ``gegner``) when both roll INI + 1W10, ties by ``gleichstand``, exactly."""
    diff = (Dist.die(10) + ini(figur)) - (Dist.die(10) + ini(gegner))
    gewinnt = gleichstand(figur) < gleichstand(gegner)
    return diff.p_greater(0) + (diff.p_exactly(0) if gewinnt else 0.0)


def vor(figur: Figure, gegner: Figure) -> Resolution:
    """The exact chance to act before ``gegner`` with INI + 1W10 and the tie rules (Initiative); nothing rolled."""
    p = p_vor(figur, gegner)
    res = Resolution("kampfwerte", "vor", (figur.name,), (gegner.name,), preview=p)
    res.step(t("kampfwerte.step_before", figure=figur.name, ini=ini(figur), target=gegner.name,
               ini_target=ini(gegner), p=percent(p)), "Initiative")
    res.outcome = {"p_vor": p}
    res.summary = t("kampfwerte.satz.vor", wer=figur.name, ziel=gegner.name, p=percent(p))
    return res
