"""OSR combat (seed 001_d04b9d9955bffb89.txt): the ruleset's class and its surface.

The surface (``__all__``): ``Osr``; the GM's settings: ``einrichten``, ``EINSTELLUNGEN``,
``OsrError``; called from Python: ``rang``, ``stufe_aus_tw``, ``zauberstufe``. Everything else is
imported from its module (``from rpgkernel.rules.osr.<module> import …``; docs/mitwirken.md lists them).
"""

from __future__ import annotations

from . import texts  # noqa: F401 - registers the catalogue before the modules below use it

from collections.abc import Mapping
from typing import Any

from ...messages import Text, Texts
from ...dice import Roller
from rpgkernel.rules.kit import Figure, Initiative, Ruleset, Status, view
from .ausser_gefecht import out_of_fight, player_state
from .core import SEGMENTE, stufe_aus_tw, zauberstufe
from .initiative import (gleichzeitig, nachzuegler, rang, reihenfolge, seiten, umstellung_verweigert, wartet_auf,
                         werte_chancen, wuerfeln)
from .settings import EINSTELLUNGEN, OsrError, einrichten
from .sheet import SHEET
from .tactics import OsrTactics
from .verbs import VERBS

__all__ = ["EINSTELLUNGEN", "Osr", "OsrError", "einrichten", "rang", "stufe_aus_tw", "zauberstufe"]


class OsrInitiative(Initiative):
    """1W6 per side every round (Kampf), ten segments a round; ties by the GM's settings."""

    each_round = True
    segments = SEGMENTE

    def rolls(self, combatants: Mapping[str, Figure], roller: Roller,
              data: Mapping[str, Any] | None = None) -> tuple[dict[str, int], dict[str, Any]]:
        """1W6 per side (Kampf); each figure's value is its side's die (+ missile bonus); ties by
        the GM's settings in ``data``."""
        res, rolls = wuerfeln(list(combatants.values()), roller, EINSTELLUNGEN.of(data or {}))
        return res.outcome["initiative"], {side: r.to_dict() for side, r in rolls.items()}

    def alone(self, combatants: Mapping[str, Figure]) -> bool:
        """Never: a side rolls one die for all its members (Kampf)."""
        return False

    def value_chances(self, combatants: Mapping[str, Figure],
                      data: Mapping[str, Any] | None = None) -> list[tuple[float, dict[str, int]]]:
        """Each side's final die, tied sides rolling again where the GM's settings say so (``werte_chancen``)."""
        return werte_chancen(list(combatants.values()), EINSTELLUNGEN.of(data or {}))

    def order(self, combatants: Mapping[str, Figure], rolls: Mapping[str, int],
              roller: Roller | None = None) -> list[str]:
        """The higher value first; a tie keeps the sides together (no roll-off: simultaneous)."""
        return reihenfolge(seiten(list(combatants.values())), rolls)

    def together(self, combatants: Mapping[str, Figure], rolls: Mapping[str, int]) -> list[frozenset[str]]:
        """Tied sides act at the same time (Kampf): the figures of equal ``rang`` where they are of more
        than one side (``gleichzeitig``)."""
        return gleichzeitig(list(combatants.values()), rolls)

    def join(self, name: str, combatants: Mapping[str, Figure], rolls: Mapping[str, int], roller: Roller,
             data: Mapping[str, Any] | None = None) -> tuple[int, dict[str, Any], str | None]:
        """Its side's die of this round (a side that comes in rolls 1W6), plus its missile bonus (Kampf)."""
        return nachzuegler(combatants[name], list(combatants.values()), rolls, roller)

    #: the seed's rule of what may change in the order, as it stands
    refusal = staticmethod(umstellung_verweigert)

    #: it waits until the other side has acted (Initiative verzögern)
    delay_after = staticmethod(wartet_auf)


class OsrStatus(Status):
    """The seed's conditions; who is out of the fight and what players are told (``ausser_gefecht``)."""

    conditions = Texts({
        "überrascht": Text("osr.cond_ueberrascht"),
        "liegend": Text("osr.cond_liegend"),
        "betäubt": Text("osr.cond_betaeubt"),
        "unsichtbar": Text("osr.cond_unsichtbar"),
        "schläft": Text("osr.cond_schlaeft"),
        "festgehalten": Text("osr.cond_festgehalten"),
        "zaubert": Text("osr.cond_zaubert"),
        "stürmt": Text("osr.cond_stuermt"),
        "hat gestürmt": Text("osr.cond_hat_gestuermt"),
        "gegen Sturm gestemmt": Text("osr.cond_gegen_sturm_gestemmt"),
        "rückt vor": Text("osr.cond_rueckt_vor"),
        "kein Angriff": Text("osr.cond_kein_angriff"),
        "zieht sich zurück": Text("osr.cond_zieht_sich_zurueck"),
        "pariert": Text("osr.cond_pariert"),
        "flieht": Text("osr.cond_flieht"),
        "verhandelt": Text("osr.cond_verhandelt"),
        "hat gehandelt": Text("osr.cond_hat_gehandelt"),
        "wartet ab": Text("osr.cond_wartet_ab"),
        "tot": Text("osr.cond_tot"),
    })

    def out_of_fight(self, figure: Figure | Mapping[str, Any], data: Mapping[str, Any] | None = None) -> str | None:
        """Killed, asleep, fleeing, or at the TP the GM's settings in ``data`` name (``ausser_gefecht``)."""
        return out_of_fight(view(figure), EINSTELLUNGEN.of(data or {}))

    def player_state(self, figure: Figure | Mapping[str, Any], data: Mapping[str, Any] | None = None) -> str | None:
        """tot, bewusstlos, schläft, flieht, verletzt, unversehrt (``ausser_gefecht.player_state``)."""
        return player_state(view(figure), EINSTELLUNGEN.of(data or {}))


class Osr(Ruleset):
    key = "osr"
    title = Text("osr.title")
    sheet = SHEET
    status = OsrStatus()
    settings = EINSTELLUNGEN
    verbs = VERBS
    tactics = OsrTactics()
    initiative = OsrInitiative()
