"""Every way the dice of a procedure can fall, each with its chance: a run is tried with the faces
chosen so far and split at the first die beyond them, one branch per face."""

from __future__ import annotations

from typing import Callable, Sequence, TypeVar

import numpy as np

from ..dice.roll import Roller

R = TypeVar("R")


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


class Then(_Faces):
    """The faces chosen, then real dice of ``rng``: a way not tried, rolled on."""

    def __init__(self, faces: Sequence[int], rng: np.random.Generator) -> None:
        super().__init__(faces)
        self.rng = rng

    def face(self, sides: int) -> int:
        return super().face(sides) if self.at < len(self.faces_chosen) else int(self.rng.integers(1, sides + 1))


def ways(run: Callable[[Roller], R], most: int) -> tuple[list[tuple[float, R]], int] | None:
    """``run(roller)`` for every way its dice can fall: (chance, result) of each, and the runs it took;
    None where that would take more than ``most`` runs."""
    found, left, runs = explore(run, most)
    return None if left else (found, runs)


def explore(run: Callable[[Roller], R], most: int
            ) -> tuple[list[tuple[float, R]], list[tuple[tuple[int, ...], float]], int]:
    """``run(roller)`` for the ways its dice can fall, at most ``most`` runs: (chance, result) of each
    way tried, the ways left untried (the faces chosen so far, their chance) and the runs it took."""
    found: list[tuple[float, R]] = []
    todo: list[tuple[tuple[int, ...], float]] = [((), 1.0)]
    runs = 0
    while todo:
        if runs + len(todo) > most:   # every way still to try takes a run at least
            return found, todo, runs
        chosen, p = todo.pop()
        runs += 1
        try:
            found.append((p, run(Roller.over(_Faces(chosen)))))
        except _Branch as split:
            todo += [((*chosen, f), p / split.sides) for f in range(1, split.sides + 1)]
    return found, [], runs
