"""The free mode's GM setting: the name of the resource a sheet gives (campaign data ``frei``; English
key ``resource``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...messages import t
from rpgkernel.rules.kit import RulesError, Settings, check_name

DATEN = "frei"        # the free mode's settings among the campaign's data
VORGABE = "HP"        # the resource when the GM names none
ENGLISH = {"resource": "ressource"}   # the English key, read as an alias


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


EINSTELLUNGEN = Settings(DATEN, _bauen, aliases=ENGLISH)


def einrichten(ressource: str = VORGABE, *, kampagne: Any = None, begegnung: str | None = None) -> Einstellungen:
    """Name the resource a sheet gives without a ruleset and keep it in ``kampagne`` (for
    ``begegnung`` only, if given); checked first. Without ``kampagne`` only checked and returned."""
    return EINSTELLUNGEN.keep({"ressource": ressource}, kampagne, begegnung)
