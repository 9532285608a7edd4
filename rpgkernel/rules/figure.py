"""A figure as a ruleset reads it: a read-only view of its campaign record.

Procedures get figures as views (``Request.actors``, ``targets``, ``figures``);
what a sheet holds, what a resource stands at and which conditions apply is
asked through one set of accessors, never by indexing the record's layout.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any


@dataclass(frozen=True)
class Resource:
    """A resource's standing: ``value`` of ``max`` (GD 3/6, LP 12/15)."""

    value: int
    max: int


class Figure:
    """The read-only view of one figure's record (a character, or a combatant of an encounter)."""

    __slots__ = ("_record",)

    def __init__(self, record: Mapping[str, Any]) -> None:
        self._record = record

    # -- the record's parts -------------------------------------------------------
    @property
    def name(self) -> str:
        name: str = self._record["name"]
        return name

    @property
    def ruleset(self) -> str | None:
        return self._record.get("ruleset")

    @property
    def side(self) -> str:
        """The side in the active encounter ("" for none)."""
        return self._record.get("side") or ""

    @property
    def group(self) -> str | None:
        """The group it belongs to in the active encounter (``Encounter.add(..., group=True)``), or None."""
        return self._record.get("group")

    @property
    def sheet(self) -> Mapping[str, Any]:
        return MappingProxyType(self._record.get("sheet") or {})

    @property
    def conditions(self) -> Mapping[str, Mapping[str, Any]]:
        """Condition name -> its record (rounds left, when it ends)."""
        return MappingProxyType(self._record.get("conditions") or {})

    @property
    def resources(self) -> Mapping[str, Resource]:
        return MappingProxyType({k: Resource(v["value"], v["max"])
                                 for k, v in (self._record.get("resources") or {}).items()})

    # -- the accessors every ruleset uses -----------------------------------------
    def value(self, key: str, default: Any = 0) -> Any:
        """The sheet value ``key``; ``default`` where the sheet has none (or None)."""
        found = (self._record.get("sheet") or {}).get(key)
        return default if found is None else found

    def has(self, condition: str) -> bool:
        return condition in (self._record.get("conditions") or {})

    def resource(self, key: str) -> Resource | None:
        found = (self._record.get("resources") or {}).get(key)   # the one entry, not the whole mapping
        return None if found is None else Resource(found["value"], found["max"])

    def current(self, key: str, default: int = 0) -> int:
        """The value a resource stands at; ``default`` for a figure without it."""
        found = self.resource(key)
        return default if found is None else found.value

    def with_condition(self, condition: str) -> Figure:
        """The figure as it stands with ``condition`` besides its own (a view of a changed copy)."""
        return Figure({**self._record, "conditions": {**self.conditions, condition: {}}})

    def changed(self, values: Mapping[str, int], conditions: Iterable[str] = (),
                without: Iterable[str] = ()) -> Figure:
        """The figure with its resources at ``values``, ``conditions`` besides its own and those
        ``without`` gone (a view of a changed copy)."""
        own = self._record.get("resources") or {}
        gone = set(without)
        kept = {c: r for c, r in self.conditions.items() if c not in gone}
        return Figure({**self._record, "resources": {**own, **{k: {**own[k], "value": v} for k, v in values.items()}},
                       "conditions": {**kept, **{c: {} for c in conditions}}})

    def __repr__(self) -> str:
        return f"Figure({self.name!r})"


def view(record: Mapping[str, Any] | Figure) -> Figure:
    """``record`` as a view (a view stays itself)."""
    return record if isinstance(record, Figure) else Figure(record)
