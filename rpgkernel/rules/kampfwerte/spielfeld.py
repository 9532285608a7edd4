"""The hex map as a view reads it: ``Kampfwerte.spielfeld``, reached through the ruleset registry.

A view (the hex map widget) asks the engine, never its modules: the map in the GM's data, where a
combatant stands, what it reaches, and the test a movement type needs (Bewegungskosten)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping

from rpgkernel.rules.kit import Figure
from .bewegung import art, erreichbar, position, probe_wuerfel
from .map import KARTE, Hex, HexKarte, karte_aus, karte_setzen
from .probe import p_gelingt
from .settings import EINSTELLUNGEN, Bewegungsart, Einstellungen


class Spielfeld:
    """Kampfwerte's hex map rules for a view."""

    def daten(self, data: Mapping[str, Any]) -> Einstellungen:
        """The GM's rule data ``data`` (as an encounter sees it) holds."""
        return EINSTELLUNGEN.of(data)

    def roh(self, data: Mapping[str, Any]) -> Any:
        """The map as ``data`` keeps it (None: no map), to tell whether it changed."""
        return data.get(KARTE)

    def karte(self, data: Mapping[str, Any]) -> HexKarte:
        """The fight's map in ``data``, checked; a German error when it holds none or no map."""
        return karte_aus(data)

    def setzen(self, ziel: Any, karte: HexKarte | Mapping[str, object]) -> HexKarte:
        """Keep ``karte`` as the map of ``ziel`` (an encounter or a campaign)."""
        return karte_setzen(ziel, karte)

    def position(self, figure: Figure) -> Hex | None:
        """The figure's field (None: not placed)."""
        return position(figure)

    def art(self, name: str, daten: Einstellungen) -> Bewegungsart:
        """The movement type ``name``; a German error for an unknown one."""
        return art(name, daten=daten)

    def probe(self, figure: Figure, a: Bewegungsart, daten: Einstellungen) -> tuple[int, float]:
        """The test ``a`` needs of ``figure``: its pool and the exact chance it succeeds."""
        n = probe_wuerfel(figure, a)
        return n, p_gelingt(n, daten=daten)

    def erreichbar(self, figure: Figure, karte: HexKarte, art_name: str, daten: Einstellungen) -> dict[Hex, Fraction]:
        """The fields ``figure`` reaches this round with ``art_name``, with their exact costs."""
        return erreichbar(figure, karte, art_name, daten=daten)
