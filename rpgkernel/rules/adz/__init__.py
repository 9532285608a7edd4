"""AdZ – Aera der Zauberey (seed 004_be03011f904181a5.txt): the ruleset's class and its surface.

The surface (``__all__``): ``AdZ``; the GM's data: ``einrichten``, ``EINSTELLUNGEN``, ``DATA`` (the
shipped files), ``AdzError``; called from Python: ``probe``, ``zaubern``. Everything else is
imported from its module (``from rpgkernel.rules.adz.<module> import …``; docs/mitwirken.md lists them).
"""

from __future__ import annotations

from . import texts  # noqa: F401 - registers the catalogue before the modules below use it

from typing import Any, Mapping

from ...dice import Roller
from ...messages import Text, Texts
from rpgkernel.rules.kit import Figure, Initiative, Ruleset, Status, view
from .combat import initiativebasis, reihenfolge, reihenfolge_chancen, umstellung_verweigert
from .core import probe
from .damage import out_of_fight, player_state
from .magic import zaubern
from .settings import DATA, EINSTELLUNGEN, AdzError, Daten, einrichten
from .sheet import build
from .tactics import AdzTactics
from .verbs import VERBS

__all__ = ["AdZ", "AdzError", "DATA", "EINSTELLUNGEN", "einrichten", "probe", "zaubern"]


class AdzInitiative(Initiative):
    """Initiativebasiswert + 2W6, descending, ties rolled off with W6 (Initiative)."""

    def rolls(self, combatants: Mapping[str, Figure], roller: Roller,
              data: Mapping[str, Any] | None = None) -> tuple[dict[str, int], dict[str, Any]]:
        """Each combatant's ``expression``, its base as the GM's data in ``data`` has it."""
        daten = EINSTELLUNGEN.of(data or {})
        rolled = {name: roller.roll(self.expression(c, daten)) for name, c in combatants.items()}
        return {n: r.total for n, r in rolled.items()}, {n: r.to_dict() for n, r in rolled.items()}

    def expression(self, combatant: Figure, daten: Daten | None = None) -> str:
        """Initiativebasiswert + 2W6 (Initiative); situational modifiers the GM adds to the entered value."""
        base = initiativebasis(combatant, daten)
        return f"2W6+{base}" if base else "2W6"

    def order(self, combatants: Mapping[str, Figure], rolls: Mapping[str, int],
              roller: Roller | None = None) -> list[str]:
        """Descending initiative; ties rolled off with W6 through ``roller`` (default: the session's
        dice) (Initiative)."""
        return reihenfolge({n: rolls[n] for n in combatants}, roller or Roller())

    def chances(self, combatants: Mapping[str, Figure],
                rolls: Mapping[str, int]) -> list[tuple[float, list[str]]]:
        """Every order of a tied group alike: the roll-off is repeated while tied (Initiative)."""
        return reihenfolge_chancen({n: rolls[n] for n in combatants})

    #: the seed's rule of what may change in the order, as it stands
    refusal = staticmethod(umstellung_verweigert)


class AdzStatus(Status):
    """The conditions of the damage tracks and of reactions; who is out of the fight and what players
    are told (``damage``)."""

    conditions = Texts({
        "bewusstlos": Text("adz.cond_unconscious"),
        "dem Tod nahe": Text("adz.cond_near_death"),
        "jenseits der letzten Stufe": Text("adz.cond_beyond"),
        **{f"Reaktionen: {n}": Text("adz.cond_reactions", n=n, left=f"1/{2 ** n}") for n in range(1, 6)},
    })

    def out_of_fight(self, figure: Figure | Mapping[str, Any], data: Mapping[str, Any] | None = None) -> str | None:
        """Unconscious at the last step of either track, near death at the last physical one, beyond it
        (``damage.out_of_fight``)."""
        return out_of_fight(view(figure))

    def player_state(self, figure: Figure | Mapping[str, Any], data: Mapping[str, Any] | None = None) -> str | None:
        """The states of the damage tracks' steps (``damage.player_state``)."""
        return player_state(view(figure))


class AdZ(Ruleset):
    key = "adz"
    title = Text("adz.title")
    sheet = build(EINSTELLUNGEN.defaults())     # a campaign's follows its GM data (Sheet.for_data)
    status = AdzStatus()
    settings = EINSTELLUNGEN
    verbs = VERBS
    tactics = AdzTactics()
    initiative = AdzInitiative()
