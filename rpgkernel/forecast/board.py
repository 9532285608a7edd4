"""A fight on a ruleset's compact model (``rules.compact``): what the exact and the fast path share.

The opening (``fight.Table.opening``) gives the combatants and the turn order; the model gives each
combatant's state and the exact consequences of a turn; the tactics pick the target by their
``rank`` on the model's figure views, as on the procedure path (the lowest, ties to the first in the
encounter's order). A turn of a combatant out of the fight passes; the fight ends when one side (or
none) is left standing, or as a draw after ``MAX_ROUNDS``. Everything asked is cached: a fight asks
the same few questions again and again.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from ..rules.compact import Compact, State
from ..rules.tactics import Tactics, reads_targeted
from .fight import Opening

States = tuple[State, ...]


class Board:
    def __init__(self, opening: Opening, model: Compact, tactics: Tactics) -> None:
        self.opening, self.model, self.tactics = opening, model, tactics
        self.size = len(opening.names)
        self.side_names = list(dict.fromkeys(opening.sides))   # in the order their first combatant joined
        self.side = [self.side_names.index(s) for s in opening.sides]
        self.foes = [[j for j in range(self.size) if self.side[j] != self.side[i]] for i in range(self.size)]
        self.counts = reads_targeted(opening.fight.zielwahl)
        self._standing: dict[tuple[int, State], bool] = {}
        self._hits: dict[tuple[int, int, State], list[tuple[float, State]]] = {}
        self._ranks: dict[tuple[int, State, int], float] = {}

    @staticmethod
    def plays(tactics: Tactics) -> bool:
        """Whether ``tactics`` pick their targets by ``rank`` (a ruleset's own ``target``, such as a
        random one, is played on the procedure path)."""
        return type(tactics).target is Tactics.target

    def start(self) -> States:
        return tuple(self.model.start(i) for i in range(self.size))

    def standing(self, i: int, state: State) -> bool:
        key = (i, state)
        if key not in self._standing:
            self._standing[key] = self.model.standing(i, state)
        return self._standing[key]

    def hit(self, actor: int, target: int, state: State) -> list[tuple[float, State]]:
        key = (actor, target, state)
        if key not in self._hits:
            self._hits[key] = self.model.hit(actor, target, state)
        return self._hits[key]

    def rank(self, i: int, state: State, drawn: int = 0) -> float:
        """Combatant ``i``'s rank as a target in ``state`` when it has drawn ``drawn`` attacks."""
        key = (i, state, drawn)
        if key not in self._ranks:
            fight = replace(self.opening.fight, targeted={self.opening.names[i]: drawn})
            self._ranks[key] = self.tactics.rank(self.model.view(i, state), fight)
        return self._ranks[key]

    def target(self, actor: int, states: States, drawn: Sequence[int]) -> int | None:
        """Whom ``actor`` attacks: the standing foe of the lowest rank, the first of equals."""
        best, found = None, None
        for j in self.foes[actor]:
            if self.standing(j, states[j]):
                r = self.rank(j, states[j], drawn[j] if self.counts else 0)
                if best is None or r < best:
                    best, found = r, j
        return found

    def winner(self, states: States) -> int | None:
        """The side left alone (its index), -1 where none is left, None while two still fight."""
        left = {self.side[i] for i in range(self.size) if self.standing(i, states[i])}
        if len(left) > 1:
            return None
        return left.pop() if left else -1

    def reach(self, i: int) -> list[State]:
        """Every state combatant ``i`` can come to in this fight, the start first."""
        found = [self.model.start(i)]
        seen = set(found)
        for state in found:
            if not self.standing(i, state):
                continue
            for a in self.foes[i]:
                for _, nxt in self.hit(a, i, state):
                    if nxt not in seen:
                        seen.add(nxt)
                        found.append(nxt)
        return found
