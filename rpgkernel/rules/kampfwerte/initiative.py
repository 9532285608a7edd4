"""Initiative (seed: Initiative): the value with a Mantel-Parade's raise, the tie rules, and the
exact chance to act before a given opponent."""

from __future__ import annotations

from typing import Any, Mapping

from ...dice import Dist
from .sheet import initiativewert, spielercharakter

#: the condition that records a raised initiative (Mantel-Parade: "Erhöht die Initiative um [Stufe]")
INI_BONUS = "Initiative +"


def ini_bonus(record: Mapping[str, Any]) -> int:
    """The raise a figure's Mantel-Parades recorded (condition ``Initiative +N``), 0 if none."""
    for c in record.get("conditions", {}):
        if c.startswith(INI_BONUS) and c[len(INI_BONUS):].isdigit():
            return int(c[len(INI_BONUS):])
    return 0


def ini(record: Mapping[str, Any]) -> int:
    """The initiative value before the 1W10: the sheet's value plus a recorded raise."""
    return initiativewert(record.get("sheet", {})) + ini_bonus(record)


def gleichstand(name: str, record: Mapping[str, Any]) -> tuple:
    """Sort key among equal totals: the player character first, then the higher AUFMERKSAMKEIT,
    GEWANDTHEIT, INSTINKT, then the name."""
    s = record.get("sheet", {})
    return (not spielercharakter(record), -s.get("AUFMERKSAMKEIT", 0), -s.get("GEWANDTHEIT", 0),
            -s.get("INSTINKT", 0), name)


def p_vor(figur: Mapping[str, Any], gegner: Mapping[str, Any]) -> float:
    """P(``figur`` acts before ``gegner``) when both roll INI + 1W10, ties by ``gleichstand``, exactly."""
    diff = (Dist.die(10) + ini(figur)) - (Dist.die(10) + ini(gegner))
    gewinnt = gleichstand(figur["name"], figur) < gleichstand(gegner["name"], gegner)
    return diff.p_greater(0) + (diff.p_exactly(0) if gewinnt else 0.0)
