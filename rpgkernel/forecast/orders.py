"""The turn orders a fight can take, each with its chance: the initiative dice enumerated.

The encounter's ``Initiative`` gives the values (``value_chances``, else its ``rolls`` tried over every
way the dice fall, ``faces``) and the orders (``chances``, else ``order`` with its roll-offs tried),
each with who acts at once (``together``). Beyond ``MAX_WAYS`` ways there is no list (None): the
forecast then plays through the procedures. The steps: docs/mitwirken.md.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

from ..rules.base import Ruleset
from ..rules.figure import view
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


def order_chances(state: dict[str, Any], encounter: str, engine: Ruleset,
                  most: int = MAX_WAYS) -> list[tuple[float, Order, Together]] | None:
    """Every turn order the encounter's initiative can give, with its chance and who acts at once in
    it (the likeliest first), or None where its dice fall in more than ``most`` ways."""
    rolling = tracker.groups(state["encounters"][encounter])
    heads = {n: view(model.seen_by_rules(state, n, encounter)) for n in rolling}
    everyone = {n: model.seen_by_rules(state, n, encounter) for n in state["encounters"][encounter]["combatants"]}
    data = model.data(state, encounter)
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
