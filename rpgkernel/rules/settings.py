"""A ruleset's GM settings: defaults shipped as data beside the engine, replaced per campaign or
per encounter through the campaign journal, checked once.

The kept data is plain JSON in the campaign (``Campaign.set_data``), an encounter's covering the
campaign's, its keys read through the ruleset's ``aliases`` (English); ``build`` turns it (``{}`` for the defaults) into typed settings or raises the
ruleset's error; ``of`` caches the result per distinct data.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any, Generic, Protocol, TypeVar

from .aliases import renamed_in

T = TypeVar("T")


def as_json(value: Any) -> Any:
    """Data read from a GM's YAML file as the campaign keeps it (JSON): number keys become text."""
    if isinstance(value, dict):
        return {str(k): as_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_json(v) for v in value]
    return value


class Keeper(Protocol):
    """Where settings are kept: a campaign (``Campaign.set_data``)."""

    def data(self, name: str, encounter: str | None = None) -> Any: ...

    def set_data(self, name: str, value: Any, encounter: str | None = None) -> None: ...


class Settings(Generic[T]):
    """The GM settings of one ruleset, kept as campaign data ``name``."""

    def __init__(self, name: str, build: Callable[[Mapping[str, Any]], T], *, sort_keys: bool = True,
                 aliases: Mapping[str, str] | None = None) -> None:
        self.name = name
        self._sort_keys = sort_keys   # False where the order of the kept data means something
        table = dict(aliases or {})   # the other names of the data's keys (``rules.aliases``)
        self._built = lru_cache(maxsize=16)(lambda text: build(renamed_in(json.loads(text), table)))

    def of(self, data: Mapping[str, Any]) -> T:
        """The settings the GM's data (``Request.data``, ``Campaign.data``) holds, checked;
        the defaults for what it lacks."""
        kept = data.get(self.name)
        if not kept:
            return self._built("{}")    # the defaults: asked for by every figure of a fight (out_of_fight)
        return self._built(json.dumps(kept, sort_keys=self._sort_keys, ensure_ascii=False))

    def defaults(self) -> T:
        return self.of({})

    def kept_in(self, campaign: Keeper, encounter: str | None = None) -> T:
        """The settings that hold in ``campaign`` (in ``encounter``, default: the active one)."""
        return self.of({self.name: campaign.data(self.name, encounter)})

    def keep(self, kept: Mapping[str, Any] | None, campaign: Keeper | None = None,
             encounter: str | None = None) -> T:
        """Check ``kept`` and keep it in ``campaign`` (for ``encounter`` only, if given), replacing
        what it kept before; None: back to the defaults. Nothing is kept unless all of it fits.
        Without ``campaign`` only checked and returned (for calling procedures directly)."""
        checked = self.of({self.name: kept})
        if campaign is not None:
            campaign.set_data(self.name, dict(kept) if kept else None, encounter=encounter)
        return checked
