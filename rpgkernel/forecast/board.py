"""A fight on a ruleset's compact model (``rules.compact``): what the exact and the fast path share.

The opening's combatants and turn orders, the model's turns (worked out once per pair of the parts
they read), the tactics' target picking, the ends of a fight, the morale of groups; everything asked
is cached. The rules of play: docs/mitwirken.md, "Das Brett"."""

from __future__ import annotations

import copy
from dataclasses import replace
from functools import cached_property
from typing import Sequence

from ..rules.compact import Compact, State
from ..rules.tactics import Tactics, reads_targeted
from .fight import Opening

States = tuple[State, ...]


class Board:
    def __init__(self, opening: Opening, model: Compact, tactics: Tactics,
                 starts: Sequence[tuple[float, States]] | None = None) -> None:
        self.opening, self.model, self.tactics = opening, model, tactics
        self.size = len(opening.names)
        #: the states the fight begins in, each with its chance (default: the model's start, certain)
        self.starts = list(starts or [(1.0, tuple(model.start(i) for i in range(self.size)))])
        self.side_names = list(dict.fromkeys(opening.sides))   # in the order their first combatant joined
        self.side = [self.side_names.index(s) for s in opening.sides]
        self.foes = [[j for j in range(self.size) if self.side[j] != self.side[i]] for i in range(self.size)]
        self.counts = reads_targeted(opening.fight.zielwahl) and not model.random_target
        #: whether a turn can change its actor too (``Compact.turn`` filled)
        self.pair = type(model).turn is not Compact.turn
        self._standing: dict[tuple[int, State], bool] = {}
        self._turns: dict[tuple[int, int, State, State], list[tuple[float, State, State]]] = {}
        self._parts: dict[tuple[int, State], tuple] = {}
        self._moves: dict[tuple, list[tuple[float, object, object]]] = {}
        self._changes: dict[tuple, tuple[tuple, tuple]] = {}
        self._moved: dict[tuple[int, State, object], State] = {}
        self._ranks: dict[tuple[int, State, int], float] = {}
        self._rounds: dict[tuple[int, State], State] = {}
        self._resources: dict[tuple[int, State], dict[str, int]] = {}
        self._reach: list[list[State]] | None = None
        self._known: list[tuple[dict, dict]] = []
        self.groups = [tuple(g) for g in model.groups()]

    @staticmethod
    def plays(tactics: Tactics, model: Compact) -> bool:
        """Whether the board plays ``tactics``' target picking: by ``rank``, or the seed's own random
        one where the model has it (another ruleset's own ``target`` is played on the procedure path)."""
        return model.random_target or type(tactics).target is Tactics.target

    def block(self, o: int, turn: int) -> tuple[int, ...]:
        """The places of order ``o`` that act at the same time as place ``turn`` (itself alone, mostly)."""
        at_once = self.opening.together[o]
        first = turn
        while at_once[first]:
            first -= 1
        last = turn
        while last + 1 < len(at_once) and at_once[last + 1]:
            last += 1
        return tuple(range(first, last + 1))

    def start(self) -> States:
        """The states the fight begins in, where it begins in one (``at`` splits a board of several)."""
        assert len(self.starts) == 1
        return self.starts[0][1]

    def at(self, start: States) -> Board:
        """The fight from ``start`` (one of ``starts``) alone, sharing all this board has worked out (its
        reach covers every start)."""
        self.reach()
        found = copy.copy(self)
        found.starts = [(1.0, start)]
        return found

    def standing(self, i: int, state: State) -> bool:
        key = (i, state)
        if key not in self._standing:
            self._standing[key] = self.model.standing(i, state)
        return self._standing[key]

    def parts(self, i: int, state: State) -> tuple:
        """What a turn reads of combatant ``i`` in ``state`` as the actor (None where turns leave the
        actor as it is: nothing) and as the target (``Compact.reads``)."""
        key = (i, state)
        if key not in self._parts:
            mine, theirs = self.model.reads(i, state)
            self._parts[key] = (mine if self.pair else None, theirs)
        return self._parts[key]

    def moves(self, actor: int, target: int, mine: State, theirs: State) -> list[tuple[float, object, object]]:
        """The actor's turn on the target as changes (``Compact.moves``), once per pair of parts."""
        key = (actor, target, self.parts(actor, mine)[0], self.parts(target, theirs)[1])
        if key not in self._moves:
            self._moves[key] = self.model.moves(actor, target, mine, theirs)
        return self._moves[key]

    def changes(self, actor: int, target: int, mine: State, theirs: State) -> tuple[tuple, tuple]:
        """The distinct changes of the actor's turn (``moves``) to the actor and to the target."""
        key = (actor, target, self.parts(actor, mine)[0], self.parts(target, theirs)[1])
        if key not in self._changes:
            found = self.moves(actor, target, mine, theirs)
            self._changes[key] = (tuple(dict.fromkeys(c for _, c, _ in found)),
                                  tuple(dict.fromkeys(h for _, _, h in found)))
        return self._changes[key]

    def moved(self, i: int, state: State, change: object) -> State:
        key = (i, state, change)
        if key not in self._moved:
            self._moved[key] = self.model.moved(i, state, change)
        return self._moved[key]

    def turn(self, actor: int, target: int, mine: State, theirs: State) -> list[tuple[float, State, State]]:
        """The chances of the states actor and target are left in (the actor as it is where turns leave
        it so), alike ones merged."""
        key = (actor, target, mine, theirs)
        if key not in self._turns:
            out: dict[tuple[State, State], float] = {}
            for p, change, hit in self.moves(actor, target, mine, theirs):
                after = (self.moved(actor, mine, change) if self.pair else mine, self.moved(target, theirs, hit))
                out[after] = out.get(after, 0.0) + p
            self._turns[key] = [(p, a, v) for (a, v), p in out.items()]
        return self._turns[key]

    def resources(self, i: int, state: State) -> dict[str, int]:
        key = (i, state)
        if key not in self._resources:
            self._resources[key] = self.model.resources(i, state)
        return self._resources[key]

    def new_round(self, i: int, state: State) -> State:
        key = (i, state)
        if key not in self._rounds:
            self._rounds[key] = self.model.new_round(i, state)
        return self._rounds[key]

    def rank(self, i: int, state: State, drawn: int = 0) -> float:
        """Combatant ``i``'s rank as a target in ``state`` when it has drawn ``drawn`` attacks."""
        key = (i, state, drawn)
        if key not in self._ranks:
            fight = replace(self.opening.fight, targeted={self.opening.names[i]: drawn})
            self._ranks[key] = self.tactics.rank(self.model.view(i, state), fight)
        return self._ranks[key]

    def targets(self, actor: int, states: States, drawn: Sequence[int]) -> list[tuple[float, int]]:
        """Whom ``actor`` attacks, with the chances: every standing foe alike where the seed picks at
        random, else the standing foe of the lowest rank among those it can hurt (``hurts``; among all
        where it can hurt none), the first of equals; none where none stands."""
        up = [j for j in self.foes[actor] if self.standing(j, states[j])]
        if self.model.random_target:
            return [(1 / len(up), j) for j in up]
        if not up:
            return []
        up = [j for j in up if self.hurts[actor][j]] or up
        return [(1.0, min(up, key=lambda j: self.rank(j, states[j], drawn[j] if self.counts else 0)))]

    @cached_property
    def hurts(self) -> list[list[bool]]:
        """By attacker and combatant: whether the attacker's turn can hurt it (``Tactics.hurts`` on their
        views at the start: what their sheets say, as on the procedure path)."""
        views = [self.model.view(i, self.model.start(i)) for i in range(self.size)]
        return [[self.tactics.hurts(a, j) for j in views] for a in views]

    @cached_property
    def spread(self) -> dict[tuple[int, int], tuple[int, ...]]:
        """For each attacker and target whose turn hits others too (``Compact.area``), those others;
        empty where every turn hits its target alone."""
        found = {}
        for a in range(self.size):
            for t in self.foes[a]:
                others = tuple(j for j in self.model.area(a, t, self.foes[a]) if j != t)
                if others:
                    found[(a, t)] = others
        return found

    def area(self, actor: int, target: int, states: States) -> list[int]:
        """Whom ``actor``'s turn on ``target`` hits in ``states``: the target, then the others of its
        area (``spread``) who stand."""
        return [target, *(j for j in self.spread.get((actor, target), ()) if self.standing(j, states[j]))]

    def rolled(self, states: States) -> tuple[bool, ...]:
        """For each group, whether its morale was tested already: where at least half of it is out
        (before the forecast, that happened at the table)."""
        return tuple(2 * sum(not self.standing(i, states[i]) for i in g) >= len(g) for g in self.groups)

    def rout(self, states: States, rolled: tuple[bool, ...]) -> list[tuple[float, States, tuple[bool, ...]]]:
        """After a turn: each group not yet tested with at least half of it out saves once, its first
        standing member leading; on a failure everyone of it still standing flees (``Compact.groups``)."""
        found = [(1.0, states, rolled)]
        for k, g in enumerate(self.groups):
            if rolled[k] or 2 * sum(not self.standing(i, states[i]) for i in g) < len(g):
                continue
            after = []
            for p, now, done in found:
                done = done[:k] + (True,) + done[k + 1:]
                left = [i for i in g if self.standing(i, now[i])]
                holds = self.model.holds(left[0], now[left[0]]) if left else 1.0
                fled = tuple(self.model.flees(i, s) if i in left else s for i, s in enumerate(now))
                after += [(p * q, x, done) for q, x in ((holds, now), (1 - holds, fled)) if q]
            found = after
        return found

    def winner(self, states: States) -> int | None:
        """The side left alone (its index), -1 where none is left, None while two still fight."""
        left = {self.side[i] for i in range(self.size) if self.standing(i, states[i])}
        if len(left) > 1:
            return None
        return left.pop() if left else -1

    def reach(self) -> list[list[State]]:
        """Every state each combatant can come to in this fight, its first start first: closed under new
        rounds, flight and the turns of every pair of foes, over the parts of their states
        (``_Closure``): each change a turn can make to a part is made to every state with that part."""
        if self._reach is None:
            closure = _Closure(self)
            self._reach, self._known = closure.found, closure.known()
        return self._reach

    def known(self, i: int, role: int) -> dict:
        """The parts combatant ``i``'s standing states reached have as the actor (``role`` 0) or the
        target (1), each with the first state found with it."""
        self.reach()
        return self._known[i][role]


class _Closure:
    """The states of ``Board.reach``: each state found is filed under its parts (``Board.parts``); a new
    part meets every part of each foe in the other role (its turn worked out once, ``Board.moves``),
    and every change found for a part is made to every state filed under it (``Board.moved``)."""

    def __init__(self, board: Board) -> None:
        self.board = b = board
        (_, first), *others = b.starts
        self.found = [[s] for s in first]
        self.seen = [set(r) for r in self.found]
        #: per combatant and role (0: actor, 1: target): part -> its states, part -> its changes
        self.filed: list[tuple[dict, dict]] = [({}, {}) for _ in range(b.size)]
        self.changes: list[tuple[dict, dict]] = [({}, {}) for _ in range(b.size)]
        self.fleeing = {i for g in b.groups for i in g}
        self.todo = [(i, self.found[i][0]) for i in range(b.size)]
        for _, states in others:
            for i, s in enumerate(states):
                self.add(i, s)
        while self.todo:
            self._take(*self.todo.pop())

    def known(self) -> list[tuple[dict, dict]]:
        """Per combatant and role, each part filed with its first state."""
        return [tuple({part: states[0] for part, states in self.filed[i][role].items()}  # type: ignore[misc]
                      for role in (0, 1)) for i in range(self.board.size)]

    def add(self, i: int, state: State) -> None:
        if state not in self.seen[i]:
            self.seen[i].add(state)
            self.found[i].append(state)
            self.todo.append((i, state))

    def _take(self, i: int, state: State) -> None:
        b = self.board
        self.add(i, b.new_round(i, state))
        if not b.standing(i, state):
            return
        if i in self.fleeing:
            self.add(i, b.model.flees(i, state))
        for role, part in enumerate(b.parts(i, state)):
            if role == 0 and not b.pair:
                continue
            states = self.filed[i][role].setdefault(part, [])
            states.append(state)
            for change in list(self.changes[i][role].get(part, ())):
                self.add(i, b.moved(i, state, change))
            if len(states) == 1:
                self._meet(i, role, state)

    def _meet(self, i: int, role: int, state: State) -> None:
        """A new part of ``i`` in ``role``: every turn it takes part in with a part of a foe found so far
        (where turns leave the actor as it is, a foe's turn from its start)."""
        b = self.board
        for j in b.foes[i]:
            if role == 1 and not b.pair:
                self._learn(j, i, self.found[j][0], state)
            elif role == 1:
                for other in [states[0] for states in self.filed[j][0].values()]:
                    self._learn(j, i, other, state)
            else:
                for other in [states[0] for states in self.filed[j][1].values()]:
                    self._learn(i, j, state, other)

    def _learn(self, actor: int, target: int, mine: State, theirs: State) -> None:
        """The changes of the actor's turn on the target: each new one made to every state with the part."""
        b = self.board
        changes, hits = b.changes(actor, target, mine, theirs)
        if b.pair:
            self._made(actor, 0, b.parts(actor, mine)[0], changes)
        self._made(target, 1, b.parts(target, theirs)[1], hits)

    def _made(self, i: int, role: int, part: object, changes: tuple) -> None:
        known = self.changes[i][role].setdefault(part, {})
        for c in changes:
            if c not in known:
                known[c] = None
                for s in list(self.filed[i][role].get(part, ())):
                    self.add(i, self.board.moved(i, s, c))
