"""Play without a ruleset (``rules.get(None)``): an open sheet, and one resource the GM names
(``einrichten``, default ``HP``); a figure is out of the fight while it stands at 0 or below.

The surface (``__all__``): ``Frei``; the GM's resource: ``einrichten``, ``EINSTELLUNGEN``.
Everything else is imported from its module (docs/mitwirken.md lists them).
"""

from __future__ import annotations

from typing import Any, Mapping

from rpgkernel.rules.kit import Figure, Ruleset, Sheet, view
from .schaden import out_of_fight, player_state
from .settings import EINSTELLUNGEN, VORGABE, einrichten
from .sheet import bogen, ressourcen
from .tactics import FreiTactics
from .verbs import VERBS

__all__ = ["EINSTELLUNGEN", "Frei", "einrichten"]


class Frei(Ruleset):
    """The free mode: a sheet of any fields, the GM's resource, and damage and healing of it."""

    sheet = bogen(VORGABE)
    settings = EINSTELLUNGEN
    verbs = VERBS
    #: no attack: damage and hit chance from the GM's data ``prognose``
    tactics = FreiTactics()

    def sheet_for(self, data: Mapping[str, Any]) -> Sheet:
        return bogen(EINSTELLUNGEN.of(data).ressource)

    def resources_for(self, sheet: Mapping[str, Any], data: Mapping[str, Any]) -> dict[str, dict[str, int]]:
        return ressourcen(sheet, data)

    def out_of_fight(self, figure: Figure | Mapping[str, Any], data: Mapping[str, Any] | None = None) -> str | None:
        """``kampfunfähig`` at 0 or below of the resource that counts (``schaden.out_of_fight``)."""
        return out_of_fight(view(figure), data or {})

    def player_state(self, figure: Figure | Mapping[str, Any], data: Mapping[str, Any] | None = None) -> str | None:
        """kampfunfähig, verletzt, unversehrt by the resource that counts (``schaden.player_state``)."""
        return player_state(view(figure), data or {})
