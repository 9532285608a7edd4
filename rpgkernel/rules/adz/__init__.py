"""AdZ – Aera der Zauberey (seed 004_be03011f904181a5.txt).

Procedures read figures (the campaign's records: ``sheet``, ``resources``,
``conditions``), roll through a ``Roller`` and return a ``Resolution``; they
change nothing themselves. The luck pool is a choice after the roll: while
undecided the resolution stays open and applies nothing.

Modules: ``sheet`` (the character sheet, reading a figure), ``core`` (tests,
opposed tests, luck pool, reactions), ``damage`` (damage tracks, healing),
``combat`` (initiative, the melee chain, ranged), ``magic`` (spells, drain),
``exact`` (previews), ``verbs`` (``%%resolve``), ``data`` (GM data, ``data/``).
"""

from __future__ import annotations

from . import texts  # noqa: F401 - registers the catalogue before the modules below use it

from typing import Any, Mapping

from ...dice import Roller
from ...messages import t
from .. import register
from ..base import Ruleset
from .combat import angriff, initiative, initiativebasis, kampfplan, reihenfolge
from .data import DATA, AdzError, Daten, data, load_data, use_data
from .damage import GEISTIG, KOERPERLICH, angekreuzt, heilung, schaden_nehmen, verletzungsmalus
from .core import GLUECK, Seite, auffuellen, erfolge_dist, gelingt, p_gelingt, probe, vergleich, vergleiche
from .magic import beenden, erneuern, krafteinsatz, zauberplan, zaubern
from .sheet import SHEET, Figur

__all__ = ["AdZ", "AdzError", "DATA", "Daten", "Figur", "GEISTIG", "GLUECK", "KOERPERLICH", "Seite",
           "angekreuzt", "angriff", "auffuellen", "beenden", "data", "erneuern", "erfolge_dist", "gelingt",
           "heilung", "initiative", "initiativebasis", "kampfplan", "krafteinsatz", "load_data", "p_gelingt",
           "probe", "reihenfolge", "schaden_nehmen", "use_data", "vergleich", "vergleiche", "verletzungsmalus",
           "zauberplan", "zaubern"]


class AdZ(Ruleset):
    key = "adz"
    title = t("adz.title")
    sheet = SHEET
    conditions = {
        "bewusstlos": t("adz.cond_unconscious"),
        "dem Tod nahe": t("adz.cond_near_death"),
        "jenseits der letzten Stufe": t("adz.cond_beyond"),
        **{f"Reaktionen: {n}": t("adz.cond_reactions", n=n, left=f"1/{2 ** n}") for n in range(1, 6)},
    }

    def resources(self, sheet: Mapping[str, Any]) -> dict[str, dict[str, int]]:
        steps = data().stufen
        return {KOERPERLICH: {"value": steps, "max": steps}, GEISTIG: {"value": steps, "max": steps},
                GLUECK: {"value": sheet["GL"], "max": sheet["GL"]}}

    def initiative_expression(self, combatant: Mapping[str, Any]) -> str | None:
        """Initiativebasiswert + 2W6 (Initiative); situational modifiers the GM adds to the entered value."""
        base = initiativebasis(combatant)
        return f"2W6+{base}" if base else "2W6"

    def initiative_order(self, combatants: Mapping[str, Mapping[str, Any]],
                         rolls: Mapping[str, int], roller: Any = None) -> list[str]:
        """Descending initiative; ties rolled off with W6 through ``roller`` (default: the session's
        dice) (Initiative)."""
        return reihenfolge({n: rolls[n] for n in combatants}, roller or Roller())


from .verbs import VERBS  # noqa: E402

AdZ.verbs = VERBS
register(AdZ())
