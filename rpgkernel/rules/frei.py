"""Play without a ruleset (``rules.get(None)``): an open sheet, and one resource the GM names; a
figure is out of the fight while that resource stands at 0 or below.

The GM names the resource with ``einrichten(ressource="LP", kampagne=...)`` (campaign data
``frei``; the default is ``HP``); a figure's sheet field of that name in lower case gives it, full
(``hp: 12``: HP 12 of 12), as ``ressourcen`` give any other. Like every resource it stays between
its lower bound (0, or the GM's, ``limits.einrichten``) and its maximum: damage and healing through
``Campaign.change`` and the panel are kept within them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping

from ..messages import t
from ..state.transaction import check_name
from .base import Ruleset
from .figure import Figure, view
from .errors import RulesError
from .settings import Settings
from .sheet import MAX_NUMBER, Field, Sheet

DATEN = "frei"        # the free mode's settings among the campaign's data
VORGABE = "HP"        # the resource when the GM names none
UNGENANNT = (VORGABE, "LP")   # what counts for out of the fight when the GM named none, the first a figure has


@dataclass(frozen=True)
class Einstellungen:
    """The free mode's settings: the name of the resource a sheet gives."""

    ressource: str = VORGABE

    @property
    def feld(self) -> str:
        """The sheet field that gives the resource: its name in lower case (``hp``)."""
        return self.ressource.lower()


def _bauen(kept: Any) -> Einstellungen:
    if not isinstance(kept, dict) or set(kept) - {"ressource"}:
        raise RulesError(t("frei.bad_kept", name=DATEN))
    return Einstellungen(check_name(kept.get("ressource", VORGABE), "resource"))


EINSTELLUNGEN = Settings(DATEN, _bauen)


@lru_cache(maxsize=16)
def bogen(ressource: str) -> Sheet:
    """The open sheet, with the field that gives ``ressource`` checked as a whole number."""
    return Sheet({ressource.lower(): Field("int", ressource, 0, MAX_NUMBER)}, open=True)


class Frei(Ruleset):
    """The free mode: no procedures, no verbs; a sheet of any fields and the GM's resource."""

    sheet = bogen(VORGABE)
    settings = EINSTELLUNGEN

    def sheet_for(self, data: Mapping[str, Any]) -> Sheet:
        return bogen(EINSTELLUNGEN.of(data).ressource)

    def resources_for(self, sheet: Mapping[str, Any], data: Mapping[str, Any]) -> dict[str, dict[str, int]]:
        cfg = EINSTELLUNGEN.of(data)
        value = sheet.get(cfg.feld)
        return {} if value is None else {cfg.ressource: {"value": value, "max": value}}

    def out_of_fight(self, figure: Figure | Mapping[str, Any], data: Mapping[str, Any] | None = None) -> str | None:
        """``kampfunfähig`` at 0 or below of the GM's resource; where the GM named none, of ``HP`` or,
        for a figure without HP, ``LP``. A figure with none of them never leaves the fight by itself."""
        named = (data or {}).get(DATEN)
        for name in (EINSTELLUNGEN.of(data or {}).ressource,) if named else UNGENANNT:
            found = view(figure).resource(name)
            if found is not None:
                return t("rules.free_out", resource=name, value=found.value) if found.value <= 0 else None
        return None


def einrichten(ressource: str = VORGABE, *, kampagne: Any = None, begegnung: str | None = None) -> Einstellungen:
    """Name the resource a sheet gives without a ruleset and keep it in ``kampagne`` (for
    ``begegnung`` only, if given); checked first. Without ``kampagne`` only checked and returned."""
    return EINSTELLUNGEN.keep({"ressource": ressource}, kampagne, begegnung)
