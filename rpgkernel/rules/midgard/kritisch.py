"""Critical results on the GM's tables (basic rolls; seed 000, "Neue Regelung der Göttlichen Gnade").

The seed names the critical tables ("auf der kritischen Tabellen wird eine
100 gewürfelt (= Tod)") without containing them: they are GM data (section
``kritisch``), one table per situation (``tabellen.SITUATIONEN``). Where the GM supplies a table for a
critical result, it is rolled - as a follow-up roll, open to divine grace
like every other - and its row shown; otherwise the critical is only named.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...dice import Roll
from ...messages import t
from .settings import Einstellungen
from .gnade import Wurfkette

RULE = "Grundwürfe (Vorgabe)"


def tabelle_wuerfeln(chain: Wurfkette, cfg: Einstellungen, situation: str, who: str,
                     beteiligte: Sequence[str]) -> dict[str, Any] | None:
    """Roll the GM's table for ``situation`` (if there is one) through ``chain``; the row taken.

    Raises ``Offen`` (from the chain) while a grace decision on this roll is open.
    """
    table = cfg.tabellen.daten.get("kritisch", {}).get(situation)
    if table is None:
        return None
    title = t(f"midgard.crit_{situation}")

    def row(roll: Roll) -> dict[str, Any]:
        return next(r for r in table["zeilen"] if r["von"] <= roll.total <= r["bis"])

    roll = chain.wurf(table["wuerfel"], title, beteiligte, RULE,
                      lambda r: t("midgard.crit_row", figure=who, table=title, die=table["wuerfel"], face=r.total,
                                  text=row(r)["text"]),
                      lambda r: tabelle_satz({"tabelle": situation, "zeile": row(r)["text"]}))
    return {"tabelle": situation, "wurf": roll.total, "zeile": row(roll)["text"]}


def tabelle_satz(row: Mapping[str, Any]) -> str:
    """The clause of a row taken on a GM's critical table: "Kritischer Treffer: Arm gebrochen"."""
    return t("midgard.satz.tabelle", tabelle=t(f"midgard.crit_{row['tabelle']}"), zeile=row["zeile"].removesuffix("."))
