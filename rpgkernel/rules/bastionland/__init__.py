"""Mythic Bastionland (seed 003_4352dfa8b10f7007.txt): the ruleset's class and its surface.

The surface (``__all__``): ``Bastionland``; the GM's tables: ``einrichten``, ``EINSTELLUNGEN``,
``scar_table``, ``load_gambits``, ``BastionlandError``; what has no verb yet: ``duel``,
``thrown_from_saddle``, ``virtue_gain``, ``formation``, ``warband_templates``. Everything else is
imported from its module (docs/mitwirken.md lists them).
"""

from __future__ import annotations

from . import texts  # noqa: F401 - registers the catalogue before the modules below use it

from typing import Any, Mapping, Sequence

from ...messages import Text, Texts
from ...dice import Roller
from rpgkernel.rules.kit import Figure, Initiative, Ruleset, Status, view
from .attack import duel
from .core import reihenfolge, umstellung_verweigert, virtue_gain
from .damage import out_of_fight, player_state, thrown_from_saddle
from .settings import EINSTELLUNGEN, BastionlandError, einrichten, load_gambits, scar_table
from .sheet import SHEET, warband_templates
from .tactics import BastionlandTactics
from .verbs import VERBS
from .warfare import formation

__all__ = ["Bastionland", "BastionlandError", "EINSTELLUNGEN", "duel", "einrichten", "formation", "load_gambits",
           "scar_table", "thrown_from_saddle", "virtue_gain", "warband_templates"]


class BastionlandInitiative(Initiative):
    """No initiative roll: the players' side acts first (Überraschung)."""

    rolled = False

    def expression(self, combatant: Figure) -> str | None:
        return None

    def order(self, combatants: Mapping[str, Figure], rolls: Mapping[str, int],
              roller: Roller | None = None) -> list[str]:
        """The players' side ("Spieler") first, then the others in the order they joined (Überraschung)."""
        return reihenfolge(combatants)

    def refusal(self, change: str, figure: Figure, overtaken: Sequence[Figure],
                rolls: Mapping[str, int]) -> str | None:
        """No initiative to roll anew or for a group; nobody moves before the players (Überraschung)."""
        return umstellung_verweigert(change, figure, list(overtaken))


class BastionlandStatus(Status):
    """The seed's conditions; who is out of the fight and what players are told (``damage``)."""

    conditions = Texts({
        "Fatigued": Text("bastionland.cond_fatigued"),
        "schutzlos": Text("bastionland.cond_schutzlos"),
        "verwundet": Text("bastionland.cond_verwundet"),
        "Todeswunde": Text("bastionland.cond_todeswunde"),
        "tot": Text("bastionland.cond_tot"),
        "Narbe": Text("bastionland.cond_narbe"),
        "entkräftet": Text("bastionland.cond_entkraeftet"),
        "setzt aus": Text("bastionland.cond_setzt_aus"),
        "flieht oder ergibt sich": Text("bastionland.cond_flieht_oder_ergibt_sich"),
        "vertrieben": Text("bastionland.cond_vertrieben"),
        "vernichtet": Text("bastionland.cond_vernichtet"),
        "gebrochen": Text("bastionland.cond_gebrochen"),
        "führt von vorn": Text("bastionland.cond_fuehrt_von_vorn"),
        "zerstört": Text("bastionland.cond_zerstoert"),
        "abgeworfen": Text("bastionland.cond_abgeworfen"),
        "beeinträchtigt": Text("bastionland.cond_beeintraechtigt"),
    })

    def out_of_fight(self, figure: Figure | Mapping[str, Any], data: Mapping[str, Any] | None = None) -> str | None:
        """Dead, dying, a warband routed, destroyed or broken, fled or surrendered, a ship or
        structure destroyed, the first turn lost (``damage.out_of_fight``)."""
        return out_of_fight(view(figure))

    def player_state(self, figure: Figure | Mapping[str, Any], data: Mapping[str, Any] | None = None) -> str | None:
        """unversehrt, GD verloren, verwundet, Todeswunde, tot (``damage.player_state``)."""
        return player_state(view(figure))


class Bastionland(Ruleset):
    key = "bastionland"
    title = Text("bastionland.title")
    sheet = SHEET
    status = BastionlandStatus()
    settings = EINSTELLUNGEN
    verbs = VERBS
    tactics = BastionlandTactics()
    initiative = BastionlandInitiative()
