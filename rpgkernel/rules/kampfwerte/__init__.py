"""Kampfwerte: initiative, movement points, hexes and manoeuvres (seed 002_63ca833428beccc7.txt).

The surface (``__all__``): ``Kampfwerte``; the GM's rules: ``einrichten``, ``EINSTELLUNGEN``,
``KampfwerteError``; the map: ``HexKarte``, ``karte_setzen``, ``position``, ``erreichbar``; called
from Python: ``wuerfeln``, ``p_gelingt``. Everything else is imported from its module
(docs/mitwirken.md lists them).
"""

from __future__ import annotations

from . import texts  # noqa: F401 - registers the catalogue before the modules below use it

from typing import Any, Mapping

from ...messages import Text, Texts
from ...dice import Roller
from rpgkernel.rules.kit import Figure, Initiative, Limits, Ruleset, view
from .ausser_gefecht import out_of_fight, player_state
from .bewegung import erreichbar, position
from .initiative import gleichstand, ini, umstellung_verweigert
from .map import HexKarte, karte_setzen
from .probe import p_gelingt, wuerfeln
from .settings import EINSTELLUNGEN, KampfwerteError, einrichten
from .sheet import SHEET, bereich, ressourcen
from .spielfeld import Spielfeld
from .tactics import KampfwerteTactics
from .verbs import VERBS

__all__ = ["EINSTELLUNGEN", "HexKarte", "Kampfwerte", "KampfwerteError", "einrichten", "erreichbar", "karte_setzen",
           "p_gelingt", "position", "wuerfeln"]


class KampfwerteInitiative(Initiative):
    """Initiativewert + 1W10 at the start of the fight, highest first, the tie rules (Initiative)."""

    def expression(self, combatant: Figure) -> str | None:
        """Initiativewert (+ a Mantel-Parade's recorded raise) + 1W10, rolled once at the start of
        the fight and again only when the GM calls for a new initiative (Initiative)."""
        wert = ini(combatant)
        return f"W10{wert:+d}" if wert else "W10"

    def order(self, combatants: Mapping[str, Figure], rolls: Mapping[str, int],
              roller: Roller | None = None) -> list[str]:
        """Highest first; ties: the player character first, then AUFMERKSAMKEIT, GEWANDTHEIT,
        INSTINKT (Initiative), then the name."""
        return sorted(combatants, key=lambda name: (-rolls[name], *gleichstand(combatants[name])))

    #: the seed's rule of what may change in the order, as it stands
    refusal = staticmethod(umstellung_verweigert)


class Kampfwerte(Ruleset):
    key = "kampfwerte"
    title = Text("kampfwerte.title")
    sheet = SHEET
    settings = EINSTELLUNGEN
    verbs = VERBS
    #: every attack a manoeuvre whose damage and defence come from the GM's data ``prognose``
    tactics = KampfwerteTactics()
    initiative = KampfwerteInitiative()
    #: the hex map as a view reads it (the hex map widget, through the registry)
    spielfeld = Spielfeld()
    conditions = Texts({
        "niedergeworfen": Text("kampfwerte.cond_down"),
        "entwaffnet": Text("kampfwerte.cond_disarmed"),
        "Finte": Text("kampfwerte.cond_feint"),
        "Klingenschild": Text("kampfwerte.cond_blade_shield"),
        "Riposte": Text("kampfwerte.cond_riposte"),
        "Finte negiert": Text("kampfwerte.cond_feint_negated"),
        "Riposte-Schaden": Text("kampfwerte.cond_riposte_damage"),
        "Initiative": Text("kampfwerte.cond_ini"),
    })

    def resources(self, sheet: Mapping[str, Any]) -> dict[str, dict[str, int]]:
        """LP, AD and the BP of a round."""
        return ressourcen(sheet)

    def limits(self, figure: Figure, resource: str, data: Mapping[str, Any]) -> Limits:
        """AD and BP 0 to their maximum (``sheet.grenzen``); LP the kit's default (``sheet.bereich``)."""
        return bereich(figure, resource, data)

    def out_of_fight(self, figure: Figure | Mapping[str, Any], data: Mapping[str, Any] | None = None) -> str | None:
        """Knocked down, or at the LP the GM's rules in ``data`` name (``ausser_gefecht``)."""
        return out_of_fight(view(figure), EINSTELLUNGEN.of(data or {}))

    def player_state(self, figure: Figure | Mapping[str, Any], data: Mapping[str, Any] | None = None) -> str | None:
        """kampfunfähig, niedergeworfen, verletzt, unversehrt (``ausser_gefecht.player_state``)."""
        return player_state(view(figure), EINSTELLUNGEN.of(data or {}))
