"""The turn orders a fight can take, each with its chance: the initiative dice enumerated.

The encounter's ``Initiative`` gives the values and the orders, each with who acts at once; beyond
``MAX_WAYS`` ways there is no list (None). A fight keeps its lists by what the initiative read
(``Kept``). The steps: docs/mitwirken.md.
"""

from __future__ import annotations

import itertools
import json
import math
from typing import Any, Mapping

from ..rules.base import Ruleset
from ..rules.figure import Figure, view
from ..state import model, tracker
from . import faces

#: the most runs of the initiative procedures one list of orders may take
MAX_WAYS = 20_000

Order = tuple[str, ...]
#: for each place of an order, whether it acts at the same time as the place before
Together = tuple[bool, ...]


def together(engine: Ruleset, combatants: dict[str, Any], values: dict[str, int], order: Order) -> Together:
    """Whether each place of ``order`` acts at the same time as the one before, by the initiative
    ``values`` of the ``combatants`` (records; ``Initiative.together``)."""
    sets = engine.initiative.together({n: view(r) for n, r in combatants.items()}, values)
    return tuple(k > 0 and any(order[k - 1] in s and order[k] in s for s in sets) for k in range(len(order)))


def order_chances(state: dict[str, Any], encounter: str, engine: Ruleset, most: int = MAX_WAYS,
                  kept: Kept | None = None) -> list[tuple[float, Order, Together]] | None:
    """Every turn order the encounter's initiative can give, with its chance and who acts at once in
    it (the likeliest first), or None where its dice fall in more than ``most`` ways; taken from
    ``kept`` (the lists of the same fight worked out so far) where it holds one for this state."""
    rolling = tracker.groups(state["encounters"][encounter])
    records = {n: model.seen_by_rules(state, n, encounter, copied=False)
               for n in state["encounters"][encounter]["combatants"]}
    data = model.data(state, encounter)
    found = kept.get(rolling, records, data, most) if kept is not None else None
    if found is not None:
        return list(found[0]) if found[0] is not None else None
    read: set[str] = set()
    everyone = {n: _Reading(r, read) for n, r in records.items()}
    orders = _orders(engine, rolling, {n: everyone[n] for n in rolling}, everyone, data, most)
    if kept is not None:
        kept.put(rolling, records, data, most, read, orders)
    return list(orders) if orders is not None else None


def _orders(engine: Ruleset, rolling: dict[str, list[str]], heads: dict[str, Figure], everyone: dict[str, Figure],
            data: Any, most: int) -> list[tuple[float, Order, Together]] | None:
    """``order_chances`` worked out: the initiative's values, then the orders each gives."""
    rolls = _rolls(engine, heads, data, most)
    if rolls is None:
        return None
    left = most - len(rolls)
    found: dict[tuple[Order, Together], float] = {}
    for r, p in rolls.items():
        orders = engine.initiative.chances(heads, dict(r))
        if orders is None:
            off = faces.ways(lambda roller: tuple(engine.initiative.order(heads, dict(r), roller)), left)
            if off is None:
                return None
            orders, left = off[0], left - off[1]
        values = {m: v for n, v in r for m in rolling[n]}
        for q, order in orders:
            key = tuple(tracker.expanded(order, rolling))
            key2 = (key, together(engine, everyone, values, key))
            found[key2] = found.get(key2, 0.0) + p * q
    return sorted(((p, o, at_once) for (o, at_once), p in found.items()), key=lambda x: -x[0])


class _Reading(Figure):
    """A figure view that notes which parts of its record (``read``: sheet, conditions, ...) are asked
    for; a changed copy made of it counts as reading everything ("*")."""

    __slots__ = ("_read",)

    def __init__(self, record: Mapping[str, Any], read: set[str]) -> None:
        super().__init__(record)
        self._read = read

    def _part(self, part: str) -> Any:
        self._read.add(part)
        return getattr(Figure, part).fget(self)

    name = property(lambda self: self._part("name"))  # type: ignore[assignment]
    ruleset = property(lambda self: self._part("ruleset"))  # type: ignore[assignment]
    side = property(lambda self: self._part("side"))  # type: ignore[assignment]
    group = property(lambda self: self._part("group"))  # type: ignore[assignment]
    sheet = property(lambda self: self._part("sheet"))  # type: ignore[assignment]
    conditions = property(lambda self: self._part("conditions"))  # type: ignore[assignment]
    resources = property(lambda self: self._part("resources"))  # type: ignore[assignment]

    def with_condition(self, condition: str) -> Figure:
        self._read.add("*")
        return super().with_condition(condition)

    def changed(self, *args: Any, **kw: Any) -> Figure:
        self._read.add("*")
        return super().changed(*args, **kw)


class Kept:
    """The lists of orders of one fight worked out so far (``order_chances``), by what the initiative
    read: the parts of the records any of them read (a list read no more than they), and the records'
    values of those, the groups that roll, the GM's data and ``most``."""

    def __init__(self) -> None:
        self.parts: frozenset[str] = frozenset()
        self.lists: dict[str, list[tuple[float, Order, Together]] | None] = {}

    def _key(self, rolling: dict, records: dict, data: Any, most: int) -> str:
        shown = {n: r if "*" in self.parts else {p: r.get(p) for p in sorted(self.parts)} for n, r in records.items()}
        return json.dumps([most, rolling, shown, data], sort_keys=True, default=str)

    def get(self, rolling: dict, records: dict, data: Any, most: int
            ) -> tuple[list[tuple[float, Order, Together]] | None] | None:
        """The list kept for these, in a 1-tuple (it may be None), or None where none is kept."""
        key = self._key(rolling, records, data, most)
        return (self.lists[key],) if key in self.lists else None

    def put(self, rolling: dict, records: dict, data: Any, most: int, read: set[str],
            orders: list[tuple[float, Order, Together]] | None) -> None:
        if not read <= self.parts:   # the lists kept so far are filed by fewer parts: gone
            self.parts, self.lists = self.parts | read, {}
        self.lists[self._key(rolling, records, data, most)] = orders


def _rolls(engine: Ruleset, heads: dict[str, Any], data: Any, most: int) -> dict[tuple, float] | None:
    """Every set of initiative values (as sorted items) with its chance: as the ruleset gives them
    (``Initiative.value_chances``), else each head's dice tried apart where each rolls for
    itself alone (``Initiative.alone``), else all together."""
    given = engine.initiative.value_chances(heads, data)
    if given is not None:
        listed: dict[tuple, float] = {}
        for p, v in given:
            key = tuple(sorted(v.items()))
            listed[key] = listed.get(key, 0.0) + p
        return listed or None
    if not engine.initiative.alone(heads):
        tried = faces.ways(lambda roller: tuple(sorted(engine.initiative.rolls(heads, roller, data)[0].items())),
                           most)
        if tried is None:
            return None
        together: dict[tuple, float] = {}
        for p, r in tried[0]:
            together[r] = together.get(r, 0.0) + p
        return together
    each: list[dict[tuple[str, int], float]] = []
    for name, record in heads.items():
        tried = faces.ways(lambda roller: engine.initiative.rolls({name: record}, roller, data)[0][name], most)
        if tried is None:
            return None
        values: dict[tuple[str, int], float] = {}
        for p, v in tried[0]:
            values[name, v] = values.get((name, v), 0.0) + p
        each.append(values)
    if math.prod(len(v) for v in each) > most:
        return None
    return {tuple(sorted(k for k, _ in combo)): math.prod(p for _, p in combo)
            for combo in itertools.product(*(list(v.items()) for v in each))}
