"""Kampfwerte: initiative, movement points, movement on hexes and manoeuvres
(seed 002_63ca833428beccc7.txt).

Procedures read figures (campaign records: ``sheet``, ``resources``,
``conditions``, ``side``), roll through a ``Roller`` and return a
``Resolution``; they change nothing themselves.

Modules: ``sheet`` (sheet, INI, BP), ``data`` (GM data, ``data/``), ``probe``
(the W10 test and its exact distribution), ``map`` (hex map, Dijkstra),
``initiative`` (INI, ties, P(acting before)), ``bewegung`` (positions and moves), ``manoever`` (the manoeuvres),
``verbs`` (``%%resolve``).
"""

from __future__ import annotations

from typing import Any, Mapping

from ...messages import t
from .. import register
from ..base import Ruleset
from .bewegung import bewegen, erreichbar, platzieren, position
from .data import KampfwerteError, data, use_data
from .initiative import gleichstand, ini, p_vor
from .map import HexKarte, abstand, karte, nachbarn, use_karte
from .probe import erfolge_dist, p_gelingt, wuerfeln
from .sheet import SHEET, TALENTE, bewegungspunkte, initiativewert, spielercharakter

__all__ = ["HexKarte", "Kampfwerte", "KampfwerteError", "SHEET", "TALENTE", "abstand", "bewegen",
           "bewegungspunkte", "data", "erfolge_dist", "erreichbar", "initiativewert", "karte", "nachbarn",
           "p_gelingt", "p_vor", "platzieren", "position", "spielercharakter", "use_data", "use_karte", "wuerfeln"]


class Kampfwerte(Ruleset):
    key = "kampfwerte"
    title = "Kampfwerte (Hexfeld-Taktik)"
    sheet = SHEET
    conditions = {
        "niedergeworfen": t("kampfwerte.cond_down"),
        "entwaffnet": t("kampfwerte.cond_disarmed"),
        "Finte": t("kampfwerte.cond_feint"),
        "Klingenschild": t("kampfwerte.cond_blade_shield"),
        "Riposte": t("kampfwerte.cond_riposte"),
        "Initiative": t("kampfwerte.cond_ini"),
    }

    def resources(self, sheet: Mapping[str, Any]) -> dict[str, dict[str, int]]:
        bp = bewegungspunkte(sheet)
        return {"LP": {"value": sheet["LP"], "max": sheet["LP"]}, "AD": {"value": sheet["AD"], "max": sheet["AD"]},
                "BP": {"value": bp, "max": bp}}

    def initiative_expression(self, combatant: Mapping[str, Any]) -> str | None:
        """Initiativewert (+ a Mantel-Parade's recorded raise) + 1W10, rolled once at the start of
        the fight and again only when the GM calls for a new initiative (Initiative)."""
        wert = ini(combatant)
        return f"W10{wert:+d}" if wert else "W10"

    def initiative_order(self, combatants: Mapping[str, Mapping[str, Any]],
                         rolls: Mapping[str, int], roller: Any = None) -> list[str]:
        """Highest first; ties: the player character first, then AUFMERKSAMKEIT, GEWANDTHEIT,
        INSTINKT (Initiative), then the name."""
        return sorted(combatants, key=lambda name: (-rolls[name], *gleichstand(name, combatants[name])))


from .verbs import VERBS  # noqa: E402

Kampfwerte.verbs = VERBS
register(Kampfwerte())
