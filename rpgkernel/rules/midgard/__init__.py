"""Midgard house rules (seed 000_6ea9c01ff655f51f.txt, "Haus der Regeln"): the class and its surface.

The surface (``__all__``): ``Midgard``; the GM's tables: ``einrichten``, ``EINSTELLUNGEN``,
``MidgardError``; called from Python: ``pw``, ``kauf``. Everything else is imported from its module
(``from rpgkernel.rules.midgard.<module> import …``; docs/mitwirken.md lists them).
"""

from __future__ import annotations

from . import texts  # noqa: F401 - registers the catalogue before the modules below use it

from typing import Any, Mapping

from ...messages import Text, Texts
from ...dice import Roller
from rpgkernel.rules.kit import Figure, Initiative, Ruleset, Status, view
from .core import MidgardError
from .erschaffung import kauf
from .initiative import EIGENE, WARTET, eigener_bonus, gruppen, nachzuegler, umstellung_verweigert, wuerfe
from .kampf import VOLLE_ABWEHR
from .proben import pw
from .schaden import out_of_fight, player_state
from .settings import EINSTELLUNGEN, einrichten
from .sheet import SHEET
from .tactics import MidgardTactics
from .verbs import VERBS

__all__ = ["EINSTELLUNGEN", "Midgard", "MidgardError", "einrichten", "kauf", "pw"]


class MidgardInitiative(Initiative):
    """Neue Initiativeregelung: determined anew at the start of every round, a leader's one W6 for his
    followers, every other figure its own (``initiative``)."""

    each_round = True

    def expression(self, combatant: Figure) -> str | None:
        """What a figure rolls for itself: W6 + floor(RW / 10) + Kampftaktik."""
        bonus = eigener_bonus(combatant)
        return f"W6+{bonus}" if bonus else "W6"

    def rolls(self, combatants: Mapping[str, Figure], roller: Roller,
              data: Mapping[str, Any] | None = None) -> tuple[dict[str, int], dict[str, Any]]:
        """Each round: a leader's one W6 for his followers, every other figure its own (``initiative``)."""
        values, rolls, _ = wuerfe(list(combatants.values()), roller)
        return values, {n: r.to_dict() for n, r in rolls.items()}

    def alone(self, combatants: Mapping[str, Figure]) -> bool:
        """Where nobody follows a leader's roll (``gruppen``)."""
        return all(len(members) == 1 for _, members in gruppen(list(combatants.values()))[0])

    def join(self, name: str, combatants: Mapping[str, Figure], rolls: Mapping[str, int], roller: Roller,
             data: Mapping[str, Any] | None = None) -> tuple[int, dict[str, Any], str | None]:
        """A follower takes his leader's roll of this round, anyone else rolls for himself (``nachzuegler``)."""
        return nachzuegler(combatants[name], list(combatants.values()), rolls, roller)

    #: the seed's rule of what may change in the order, as it stands
    refusal = staticmethod(umstellung_verweigert)


class MidgardStatus(Status):
    """The conditions of defence, load and initiative; who is out of the fight and what players are told
    (``schaden``)."""

    conditions = Texts({
        VOLLE_ABWEHR: Text("midgard.cond_volle_abwehr"),
        "1. Abwehr": Text("midgard.cond_1_abwehr"),
        "2. Abwehr": Text("midgard.cond_2_abwehr"),
        "merklich belastet": Text("midgard.cond_merklich_belastet"),
        "schwer belastet": Text("midgard.cond_schwer_belastet"),
        "übermäßig belastet": Text("midgard.cond_uebermaessig_belastet"),
        EIGENE: Text("midgard.cond_eigene"),
        WARTET: Text("midgard.cond_wartet"),
    })

    def out_of_fight(self, figure: Figure | Mapping[str, Any], data: Mapping[str, Any] | None = None) -> str | None:
        """Kampfunfähig at the LP the GM's basic rolls in ``data`` name (``schaden.out_of_fight``)."""
        return out_of_fight(view(figure), EINSTELLUNGEN.of(data or {}).regeln)

    def player_state(self, figure: Figure | Mapping[str, Any], data: Mapping[str, Any] | None = None) -> str | None:
        """kampfunfähig, verletzt, erschöpft, unversehrt (``schaden.player_state``)."""
        return player_state(view(figure), EINSTELLUNGEN.of(data or {}).regeln)


class Midgard(Ruleset):
    key = "midgard"
    title = Text("midgard.title")
    sheet = SHEET
    status = MidgardStatus()
    settings = EINSTELLUNGEN
    verbs = VERBS
    tactics = MidgardTactics()
    initiative = MidgardInitiative()
