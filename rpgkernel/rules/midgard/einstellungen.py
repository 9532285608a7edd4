"""What the Midgard procedures read besides the figures: the basic rolls, the
seed's race list and the GM's tables. ``einrichten`` replaces them for the
session; every procedure also takes them as an argument."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .core import Grundregeln, grundregeln_laden
from .tabellen import Tabellen, laden, rassen


@dataclass
class Einstellungen:
    regeln: Grundregeln = field(default_factory=grundregeln_laden)
    tabellen: Tabellen = field(default_factory=Tabellen)
    rassen: dict[str, dict[str, Any]] = field(default_factory=rassen)


_AKTUELL = Einstellungen()


def aktuell() -> Einstellungen:
    """The settings the %%resolve verbs use."""
    return _AKTUELL


def einrichten(tabellen: str | Path | None = None, grundregeln: str | Path | None = None,
               rassenliste: str | Path | None = None) -> Einstellungen:
    """Use the GM's tables (and other basic rolls or race list) from now on; None keeps the default.

    Everything is read and checked first: a bad file changes nothing.
    """
    global _AKTUELL
    new = Einstellungen(grundregeln_laden(grundregeln), laden(tabellen) if tabellen else Tabellen(),
                        rassen(rassenliste))
    _AKTUELL = new
    return new
