"""Critical results on the GM's tables (basic rolls; seed 000, "Neue Regelung der Göttlichen Gnade").

The critical tables are GM data (section ``kritisch``, one per ``tabellen.SITUATIONEN``). Where
the GM supplies one, it is rolled as a follow-up roll open to divine grace and its row shown;
otherwise the critical is only named.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...messages import t
from .settings import Einstellungen
from .gnade import Folgen, Wurfkette

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

    def row_at(total: int) -> dict[str, Any]:
        return next(r for r in table["zeilen"] if r["von"] <= total <= r["bis"])

    ziel = t("midgard.advice.ziel_tabelle", tabelle=title)
    rows = tuple((t("midgard.advice.zeile", bereich=_bereich(r), text=r["text"]),
                  lambda total, r=r: row_at(total) is r) for r in table["zeilen"])
    roll = chain.wurf(table["wuerfel"], title, beteiligte, RULE,
                      lambda r: t("midgard.crit_row", figure=who, table=title, die=table["wuerfel"], face=r.total,
                                  text=row_at(r.total)["text"]),
                      lambda r: tabelle_satz({"tabelle": situation, "zeile": row_at(r.total)["text"]}),
                      Folgen((ziel, ziel), chancen=rows, zeilen=True))
    return {"tabelle": situation, "wurf": roll.total, "zeile": row_at(roll.total)["text"]}


def _bereich(row: Mapping[str, Any]) -> str:
    """A row's faces: "1–40", or "100" for one face."""
    return str(row["von"]) if row["von"] == row["bis"] else f"{row['von']}–{row['bis']}"


def tabelle_satz(row: Mapping[str, Any]) -> str:
    """The clause of a row taken on a GM's critical table: "Kritischer Treffer: Arm gebrochen"."""
    return t("midgard.satz.tabelle", tabelle=t(f"midgard.crit_{row['tabelle']}"), zeile=row["zeile"].removesuffix("."))
