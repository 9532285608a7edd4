"""The exact forecast of a small fight: an absorbing Markov chain over the compact states.

A node is the turn orders the round can still take (told place by place), whose turn it is and every
combatant's state; the chance is carried turn by turn as numpy sums, and what is open after
``MAX_ROUNDS`` is the draw. The nodes and why a large chain is refused: docs/mitwirken.md, "Die exakte
Kette"."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..dice import Dist
from ..messages import Text, t
from ..rules.compact import State
from .board import Board, States
from .fight import MAX_ROUNDS, rounds_played
from .value import Chance, FigureForecast, Forecast, Mean

#: the most nodes (turns and states) the bound of an exact forecast's chain may give (about a second
#: at most on a small machine); a larger fight is sampled
MAX_STATES = 100_000

#: the least chance of a number of rounds the forecast's distribution keeps (a ``Dist`` is exact to it):
#: a fight that could go on to ``MAX_ROUNDS`` almost never lasts that long
LEAST = 1e-12

#: the orders the round can still take (a class, ``_Chain.members``), the states (each combatant's by its
#: number, ``_Chain.found``), the attacks drawn, the groups tested, who of those acting at the same time stood when their turns began (None: to be read
#: at this turn, the first of them)
Node = tuple[int, tuple[int, ...], tuple[int, ...], tuple[bool, ...], frozenset[int] | None]
Numbers = tuple[int, ...]   # each combatant's state by its number


@dataclass
class Solution:
    """The exact result: each side's chance (by index), the draw's, the rounds' chances, each
    combatant's chance to be out of the fight at the end and its expected resources then, the nodes."""

    win: list[float]
    draw: float
    rounds: dict[int, float]
    falls: list[float]
    resources: list[dict[str, float]]
    nodes: int


def bound(board: Board, reach: list[list]) -> int:
    """An upper bound of the chain's nodes: orders times turns times the product of each combatant's
    states (and of its relative count of attacks drawn, 0 or 1, where they are read and it has a side
    mate), times whether each group's morale was tested."""
    per = [len(r) * (2 if board.counts and board.side.count(board.side[i]) > 1 else 1) for i, r in enumerate(reach)]
    at_once = max(sum(t) for t in board.opening.together)    # who of a block stood at its start
    return len(board.opening.orders) * len(board.opening.orders[0]) * 2 ** (len(board.groups) + at_once + (
        at_once > 0)) * math.prod(per)


def solve(board: Board, max_states: int = MAX_STATES) -> Solution | None:
    """The exact forecast, or None where the chain passes ``max_states`` nodes (or the attacks drawn
    are read in a fight of more than two sides, which no bounded chain holds). The bound refuses a
    large chain before it is explored (the states each combatant can reach are found cheaply, over
    the parts of the states a turn reads: ``Board.reach``)."""
    if board.counts and len(board.side_names) > 2:
        return None
    if bound(board, board.reach()) > max_states:
        return None
    try:
        return _Chain(board, max_states).run()
    except _TooLarge:
        return None


class _TooLarge(Exception):
    """The chain passed its most nodes while it was explored."""


class _Chain:
    def __init__(self, board: Board, most: int) -> None:
        self.board, self.most = board, most
        self.count = 0
        self.turns = len(board.opening.orders[0])
        self.nodes: list[dict[Node, int]] = [{} for _ in range(self.turns)]
        self.ends: dict[States, int] = {}
        # per turn: moves (from, to, chance) to the next turn's nodes, ends (from, end, chance)
        self.moves: list[tuple[list[int], list[int], list[float]]] = [([], [], []) for _ in range(self.turns)]
        self.stops: list[tuple[list[int], list[int], list[float]]] = [([], [], []) for _ in range(self.turns)]
        #: per class of orders: its orders (the first one's places are the class's so far) and their chances
        self.members: list[tuple[int, ...]] = []
        self.weights: list[tuple[float, ...]] = []
        self._classes: dict[tuple, int] = {}
        self._splits: dict[tuple[int, int], list[tuple[float, int, tuple[int, ...]]]] = {}
        #: the classes a new round's roll gives, with their chances (none quiet: a new round forgot it all)
        self._each: list[tuple[float, int, tuple[int, ...]]] = []
        self._quiet: dict[tuple[int, int], tuple[int, ...]] = {}
        #: each combatant's states numbered as found (a node holds their numbers), whether each stands
        self.found: list[list[State]] = [[] for _ in range(board.size)]
        self.up: list[list[bool]] = [[] for _ in range(board.size)]
        self._numbers: list[dict[State, int]] = [{} for _ in range(board.size)]
        # asked again and again of the same states: the targets, the turns, the winner, a new round's
        # states, states forgotten
        self._targets: dict[tuple, list[tuple[float, int]]] = {}
        self._turns: dict[tuple[int, int, int, int], list[tuple[float, int, int]]] = {}
        self._winners: dict[Numbers, int | None] = {}
        self._rounds: dict[Numbers, Numbers] = {}
        self._forgot: dict[tuple[tuple[int, ...], Numbers], Numbers] = {}
        # orders with places that act at the same time are never merged (a block reads the order's ties)
        self.singly = any(any(at_once) for at_once in board.opening.together)

    def _split(self, chances: dict[int, float], orders: tuple[int, ...], place: int) -> list[tuple[float, int]]:
        """``orders`` (of ``chances``) split by their places up to ``place``: each class with its chance
        among them."""
        groups: dict[tuple, list[int]] = {}
        for o in orders:
            groups.setdefault((o,) if self.singly else tuple(self.board.opening.orders[o][:place + 1]), []).append(o)
        total = sum(chances[o] for o in orders)
        found = []
        for group in groups.values():
            weights = tuple(chances[o] for o in group)
            key = tuple(group) if len(group) == 1 else tuple(zip(group, weights))
            if key not in self._classes:
                self._classes[key] = len(self.members)
                self.members.append(tuple(group))
                self.weights.append(weights)
            found.append((sum(weights) / total, self._classes[key]))
        return found

    def quiet(self, c: int, place: int) -> tuple[int, ...]:
        """The combatants no foe of whom acts at ``place`` or later in any order of class ``c``: their
        states as nothing of this round reads them (``Compact.unread``)."""
        key = (c, place)
        if key not in self._quiet:
            b = self.board
            later = {b.opening.orders[o][k] for o in self.members[c] for k in range(place, self.turns)}
            self._quiet[key] = tuple(i for i in range(b.size) if not later.intersection(b.foes[i]))
        return self._quiet[key]

    def _number(self, i: int, state: State) -> int:
        known = self._numbers[i]
        if state not in known:
            known[state] = len(self.found[i])
            self.found[i].append(state)
            self.up[i].append(self.board.standing(i, state))
        return known[state]

    def _states(self, numbers: Numbers) -> States:
        return tuple(self.found[i][k] for i, k in enumerate(numbers))

    def _picked(self, actor: int, states: Numbers, drawn: tuple[int, ...]) -> list[tuple[float, int]]:
        key = (actor, states, drawn)
        if key not in self._targets:
            self._targets[key] = self.board.targets(actor, self._states(states), drawn)
        return self._targets[key]

    def _turn(self, actor: int, target: int, mine: int, theirs: int) -> list[tuple[float, int, int]]:
        key = (actor, target, mine, theirs)
        if key not in self._turns:
            self._turns[key] = [(p, self._number(actor, a), self._number(target, t)) for p, a, t in
                                self.board.turn(actor, target, self.found[actor][mine], self.found[target][theirs])]
        return self._turns[key]

    def _outcomes(self, actor: int, target: int, states: Numbers) -> list[tuple[float, Numbers]]:
        """The chances of everyone's states after ``actor``'s turn on ``target``: the turn on each one
        its area hits (``Board.area``: a Blast), one after the other, each rolled for on its own."""
        found = [(1.0, states)]
        for j in self.board.area(actor, target, self._states(states)):
            found = [(p * q, tuple(mine if i == actor else theirs if i == j else s for i, s in enumerate(now)))
                     for p, now in found for q, mine, theirs in self._turn(actor, j, now[actor], now[j])]
        return found

    def _unread(self, quiet: tuple[int, ...], states: Numbers) -> Numbers:
        """``states`` with those of ``quiet`` as nothing of this round reads them (``Compact.unread``)."""
        key = (quiet, states)
        found = self._forgot.get(key)
        if found is None:
            model = self.board.model
            found = self._forgot[key] = tuple(self._number(i, model.unread(i, self.found[i][k])) if i in quiet
                                              else k for i, k in enumerate(states))
        return found

    def _winner(self, states: Numbers) -> int | None:
        if states not in self._winners:
            self._winners[states] = self.board.winner(self._states(states))
        return self._winners[states]

    def _onward(self, c: int, nxt: int) -> list[tuple[float, int, tuple[int, ...]]]:
        """The classes class ``c`` goes on to at place ``nxt`` of its round (not a new round's), with their
        chances and who is quiet in each (``quiet``)."""
        key = (c, nxt)
        if key not in self._splits:
            self._splits[key] = [(q, c2, self.quiet(c2, nxt)) for q, c2 in
                                 self._split(dict(zip(self.members[c], self.weights[c])), self.members[c], nxt)]
        return self._splits[key]

    def _node(self, turn: int, node: Node, todo: list[tuple[int, Node]]) -> int:
        known = self.nodes[turn]
        if node not in known:
            known[node] = len(known)
            todo.append((turn, node))
            self.count += 1
            if self.count > self.most:
                raise _TooLarge
        return known[node]

    def _end(self, states: States) -> int:
        return self.ends.setdefault(states, len(self.ends))

    def _relative(self, states: Numbers, drawn: Sequence[int]) -> tuple[int, ...]:
        """The attacks drawn, relative to the least attacked standing combatant of each side (their
        order is all the target picking reads); 0 for those out of the fight."""
        if not self.board.counts:
            return ()
        b = self.board
        up = [0] * b.size
        for side in range(len(b.side_names)):
            members = [i for i in range(b.size) if b.side[i] == side and self.up[i][states[i]]]
            low = min((drawn[i] for i in members), default=0)
            for i in members:
                up[i] = drawn[i] - low
        return tuple(up)

    def _start(self, todo: list[tuple[int, Node]]) -> dict[int, float]:
        """The opening's nodes with their chances (one per class of its turn orders)."""
        b = self.board
        start = b.start()
        numbers = tuple(self._number(i, s) for i, s in enumerate(start))
        if b.opening.each_round is not None:
            self._each = [(q, c, ()) for q, c in self._split(b.opening.each_round, tuple(b.opening.each_round), 0)]
        return {self._node(b.opening.turn, (c, numbers, (0,) * b.size if b.counts else (), b.rolled(start), None),
                           todo): p
                for p, c in self._split(b.opening.starts, tuple(b.opening.starts), b.opening.turn)}

    def explore(self) -> dict[int, float]:
        b = self.board
        opening = b.opening
        todo: list[tuple[int, Node]] = []
        start = self._start(todo)
        while todo:
            turn, node = todo.pop()
            c, states, drawn, rolled, owed = node
            here = self.nodes[turn][node]
            o = self.members[c][0]   # its places up to this turn are the class's
            actor = opening.orders[o][turn]
            block = b.block(o, turn)
            if owed is None:   # the first of a block: who stands now acts in it
                owed = frozenset(opening.orders[o][k] for k in block
                                 if self.up[opening.orders[o][k]][states[opening.orders[o][k]]])
            after: list[tuple[float, Numbers, Sequence[int], tuple[bool, ...]]] = []
            if actor in owed:
                for q, target in self._picked(actor, states, drawn):
                    for p, nxt in self._outcomes(actor, target, states):   # a Blast: on each it hits
                        count: Sequence[int] = drawn
                        if b.counts:
                            count = list(drawn)
                            count[target] += 1
                        if b.groups:
                            after += [(q * p * r, tuple(self._number(i, s) for i, s in enumerate(routed)), count, done)
                                      for r, routed, done in b.rout(self._states(nxt), rolled)]
                        else:
                            after.append((q * p, nxt, count, rolled))
            if not after:
                after = [(1.0, states, drawn, rolled)]
            last = turn == block[-1]
            for p, nxt_states, count, done in after:
                if last and self._winner(nxt_states) is not None:
                    stops = self.stops[turn]
                    stops[0].append(here)
                    stops[1].append(self._end(self._states(nxt_states)))
                    stops[2].append(p)
                else:
                    self._next(turn, here, (c, nxt_states, self._relative(nxt_states, count) if b.counts else (),
                                            done, None if last else owed), p, todo)
        return start

    def _next(self, turn: int, here: int, node: Node, p: float, todo: list[tuple[int, Node]]) -> None:
        """Move ``p`` from node ``here`` to ``node`` at the next turn: to each class of its orders by who
        acts next (the states of those no foe of whom acts again this round as nothing reads them, which
        merges nodes), or after a new round (its states as the model starts a round) to each class of
        the orders it can roll (the same order where initiative is not rolled again)."""
        c, states, drawn, rolled, owed = node
        nxt = turn + 1 if turn + 1 < self.turns else 0
        if nxt:
            onward = self._onward(c, nxt)
        else:
            if states not in self._rounds:
                b = self.board
                self._rounds[states] = tuple(self._number(i, b.new_round(i, self.found[i][k]))
                                             for i, k in enumerate(states))
            states = self._rounds[states]
            onward = self._each or [(1.0, c, ())]
        src, dst, chance = self.moves[turn]
        known = self.nodes[nxt]
        for q, c2, quiet in onward:
            after = (c2, self._unread(quiet, states) if quiet else states, drawn, rolled, owed)
            k = known.get(after)
            src.append(here)
            dst.append(self._node(nxt, after, todo) if k is None else k)
            chance.append(p * q)

    def run(self) -> Solution:
        b = self.board
        opening = b.opening
        start = b.start()
        if b.winner(start) is not None:   # decided before any turn
            return self._solution({self._end(start): 1.0}, {rounds_played(opening.first, opening.round): 1.0}, {}, 0)
        ended, rounds, open_ = self._flow(self.explore())
        return self._solution({i: float(q) for i, q in enumerate(ended) if q}, rounds, open_,
                              sum(len(n) for n in self.nodes))

    def _flow(self, begin: dict[int, float]) -> tuple[np.ndarray, dict[int, float], dict[int, float]]:
        """The chance carried turn by turn from ``begin`` until none is left or ``MAX_ROUNDS`` have passed:
        what reached each end, in which round each fight ended, and the nodes still open after the last."""
        opening = self.board.opening
        moves = [tuple(np.asarray(x) for x in m) for m in self.moves]
        stops = [tuple(np.asarray(x) for x in m) for m in self.stops]
        ended = np.zeros(len(self.ends))
        rounds: dict[int, float] = {}
        turn, round_ = opening.turn, opening.round
        chance = np.zeros(len(self.nodes[turn]))
        for k, p in begin.items():
            chance[k] += p
        while True:
            nxt = (turn + 1) % self.turns
            stopped = _carried(chance, stops[turn], len(self.ends))
            ended += stopped
            if stopped.any():
                _count(rounds, rounds_played(opening.first, round_), float(stopped.sum()))
            chance = _carried(chance, moves[turn], len(self.nodes[nxt]))
            turn = nxt
            if turn == 0:
                round_ += 1
                if round_ > MAX_ROUNDS:
                    break
            if not chance.any():
                break
        open_ = {i: float(q) for i, q in enumerate(chance) if q} if turn == 0 and round_ > MAX_ROUNDS else {}
        if open_:
            _count(rounds, rounds_played(opening.first, round_), sum(open_.values()))
        return ended, rounds, open_

    def _solution(self, ended: dict[int, float], rounds: dict[int, float], open_: dict[int, float],
                  nodes: int) -> Solution:
        """Sum what each end and each node left open holds, by its chance."""
        b = self.board
        win = [0.0] * len(b.side_names)
        falls = [0.0] * b.size
        res: list[dict[str, float]] = [dict.fromkeys(b.resources(i, b.model.start(i)), 0.0)
                                       for i in range(b.size)]
        by_index = {i: s for s, i in self.ends.items()}
        nodes0 = {i: self._states(node[1]) for node, i in self.nodes[0].items()}
        draw = 0.0
        weighted = [(by_index[i], q) for i, q in ended.items()] + [(nodes0[i], q) for i, q in open_.items()]
        for states, q in weighted:
            side = b.winner(states)
            if side is None or side < 0:
                draw += q
            else:
                win[side] += q
            for i in range(b.size):
                if not b.standing(i, states[i]):
                    falls[i] += q
                for k, v in b.resources(i, states[i]).items():
                    res[i][k] += q * v
        return Solution(win, draw, rounds, falls, res, nodes)


def _carried(chance: np.ndarray, arrows: tuple[np.ndarray, ...], size: int) -> np.ndarray:
    """The chance of ``size`` targets after ``arrows`` (sources, targets, chances) carry ``chance`` over."""
    src, dst, p = arrows
    return np.bincount(dst, weights=chance[src] * p, minlength=size) if len(src) else np.zeros(size)


def _count(rounds: dict[int, float], key: int, p: float) -> None:
    rounds[key] = rounds.get(key, 0.0) + p


def exact_forecast(board: Board, solution: Solution, encounter: str, start_round: int, **kw: Any) -> Forecast:
    """``solution`` as a ``Forecast`` ("exakt": every interval is its point; the rounds from ``LEAST`` on)."""
    sides = board.opening.sides
    figures = {name: FigureForecast(sides[i], Chance.exact(solution.falls[i]),
                                    {k: Mean(v) for k, v in solution.resources[i].items()})
               for i, name in enumerate(board.opening.names)}
    rounds = Dist.from_pmf({r: p for r, p in solution.rounds.items() if p >= LEAST}).labelled(
        t("forecast.rounds_label"))
    return Forecast(encounter, "exakt", {s: Chance.exact(p) for s, p in zip(board.side_names, solution.win)},
                    Chance.exact(solution.draw), rounds, figures, start_round=start_round, weg="exakt",
                    noted=[Text("forecast.weg_exakt", nodes=solution.nodes)], **kw)
