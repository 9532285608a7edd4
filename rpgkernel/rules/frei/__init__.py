"""Play without a ruleset (``rules.get(None)``): an open sheet, and one resource the GM names
(``einrichten``, default ``HP``); a figure is out of the fight while it stands at 0 or below.

The surface (``__all__``): ``Frei``; the GM's resource: ``einrichten``, ``EINSTELLUNGEN``.
Everything else is imported from its module (docs/mitwirken.md lists them).
"""

from __future__ import annotations

from typing import Any, Mapping

from rpgkernel.rules.kit import Figure, Ruleset, Status, view
from .schaden import out_of_fight, player_state
from .settings import EINSTELLUNGEN, VORGABE, einrichten
from .sheet import bogen
from .tactics import FreiTactics
from .verbs import VERBS

__all__ = ["EINSTELLUNGEN", "Frei", "einrichten"]


class FreiStatus(Status):
    """Out of the fight and what players are told by the resource that counts (``schaden``)."""

    def out_of_fight(self, figure: Figure | Mapping[str, Any], data: Mapping[str, Any] | None = None) -> str | None:
        """``kampfunfähig`` at 0 or below of the resource that counts (``schaden.out_of_fight``)."""
        return out_of_fight(view(figure), data or {})

    def player_state(self, figure: Figure | Mapping[str, Any], data: Mapping[str, Any] | None = None) -> str | None:
        """kampfunfähig, verletzt, unversehrt by the resource that counts (``schaden.player_state``)."""
        return player_state(view(figure), data or {})


class Frei(Ruleset):
    """The free mode: a sheet of any fields, the GM's resource, and damage and healing of it."""

    sheet = bogen(VORGABE)
    status = FreiStatus()
    settings = EINSTELLUNGEN
    verbs = VERBS
    #: no attack: damage and hit chance from the GM's data ``prognose``
    tactics = FreiTactics()
