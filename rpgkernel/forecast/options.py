"""What an option of an open choice means for the whole fight: the chance of winning after taking it.

The option's choice lines are carried out on a copy of the campaign's state once for every way the
dice still to roll can fall (each with its chance: the saves and rolls that follow the decision);
the turn then passes, as the GM would pass it. From every state this leads to the fight is forecast
exactly, and the option's chance of winning is their sum weighted by those chances. Only where the
forecast is exact (a small fight on its ruleset's compact model) and the dice after the decision
are few: elsewhere there is no such number, and None says so.
"""

from __future__ import annotations

import copy
import json
from typing import Any, Mapping, Sequence

from .. import rules
from ..dice.roll import Roller
from ..errors import RpgError
from ..resolve.run import carry_out
from ..state.transaction import Transaction
from ..state.views import Encounter
from .fight import ForecastError

#: the most ways the dice after a decision may fall before the chance of winning is not worth it
MAX_WAYS = 4096


class _Branch(BaseException):
    """A die beyond the faces chosen so far: the enumeration splits here (not an error)."""

    def __init__(self, sides: int) -> None:
        self.sides = sides


class _Faces:
    """The dice of one way to roll: the faces chosen so far, then a split."""

    given = False
    thrown = ()   # no real dice

    def __init__(self, faces: Sequence[int]) -> None:
        self.faces_chosen, self.at = list(faces), 0

    def face(self, sides: int) -> int:
        if self.at >= len(self.faces_chosen):
            raise _Branch(sides)
        self.at += 1
        return self.faces_chosen[self.at - 1]

    def faces(self, sides: int, n: int) -> list[int]:
        return [self.face(sides) for _ in range(n)]

    def fate(self) -> int:
        return self.face(3) - 2

    def finish(self) -> None:
        pass


def ways(state: dict[str, Any], encounter: str, ruleset: str | None, source: str) -> list[tuple[float, dict]] | None:
    """Every state ``source`` (choice lines on an open resolution of ``state``) leads to once the turn
    has passed, with its chance; None where the dice would split into more than ``MAX_WAYS`` ways."""
    engine = rules.get(ruleset or None)
    found: dict[str, tuple[float, dict]] = {}
    todo: list[tuple[tuple[int, ...], float]] = [((), 1.0)]
    while todo:
        faces, p = todo.pop()
        tx = Transaction(state)
        try:
            carry_out(tx, engine, source, Roller.over(_Faces(faces)))
        except _Branch as split:
            if len(todo) + len(found) + split.sides > MAX_WAYS:
                return None
            todo += [((*faces, f), p / split.sides) for f in range(1, split.sides + 1)]
            continue
        Encounter(None, encounter)._advance(tx, False, None, 0, None)  # type: ignore[arg-type]
        key = json.dumps(tx.state["encounters"][encounter], sort_keys=True, default=str) + json.dumps(
            tx.state["characters"], sort_keys=True, default=str)
        before = found.get(key)
        found[key] = ((before[0] if before else 0.0) + p, tx.state)
    return list(found.values())


def option_wins(state: Mapping[str, Any], encounter: str, options: Mapping[str, str],
                zielwahl: str = "schwächste") -> dict[str, dict[str, float] | None]:
    """For each option (label -> its choice lines), each side's exact chance of winning the fight after
    it, or None where that is not to be had cheaply (see the module)."""
    from . import forecast_state
    base = copy.deepcopy(dict(state))
    ruleset = base["encounters"][encounter]["ruleset"]
    out: dict[str, dict[str, float] | None] = {}
    for label, source in options.items():
        try:
            leaves = ways(base, encounter, ruleset, source)
            if leaves is None:
                out[label] = None
                continue
            wins: dict[str, float] = {}
            for p, after in leaves:
                f = forecast_state(copy.deepcopy(after), encounter, zielwahl=zielwahl, weg="exakt")
                for side, c in f.win.items():
                    wins[side] = wins.get(side, 0.0) + p * c.p
            out[label] = wins
        except (ForecastError, RpgError):
            out[label] = None
    return out
