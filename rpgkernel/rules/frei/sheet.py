"""The free mode's open sheet, the resource it gives, and which resource counts for a figure."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping

from rpgkernel.rules.kit import MAX_NUMBER, Field, Figure, Sheet
from .settings import DATEN, EINSTELLUNGEN, VORGABE

UNGENANNT = (VORGABE, "LP")   # what counts when the GM named none: the first a figure has


class FreiSheet(Sheet):
    """An open sheet ``bogen`` makes; the GM's data name the field and the resource it gives."""

    def for_data(self, data: Mapping[str, Any]) -> Sheet:
        return bogen(EINSTELLUNGEN.of(data).ressource)

    def resources(self, values: Mapping[str, Any], data: Mapping[str, Any]) -> dict[str, dict[str, int]]:
        return ressourcen(values, data)


@lru_cache(maxsize=16)
def bogen(ressource: str) -> FreiSheet:
    """The open sheet, with the field that gives ``ressource`` checked as a whole number."""
    return FreiSheet({ressource.lower(): Field("int", ressource, 0, MAX_NUMBER)}, open=True)


def ressourcen(sheet: Mapping[str, Any], data: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    """The GM's resource, full, where the sheet has its field (``hp: 12``: HP 12 of 12)."""
    cfg = EINSTELLUNGEN.of(data)
    value = sheet.get(cfg.feld)
    return {} if value is None else {cfg.ressource: {"value": value, "max": value}}


def ressource_von(figure: Figure, data: Mapping[str, Any]) -> str | None:
    """The resource that counts for ``figure`` (out of the fight at 0, damage and healing): the GM's
    where the GM named one, else ``HP`` or, for a figure without HP, ``LP``; None if it has none."""
    named = (EINSTELLUNGEN.of(data).ressource,) if data.get(DATEN) else UNGENANNT
    return next((name for name in named if figure.resource(name) is not None), None)
