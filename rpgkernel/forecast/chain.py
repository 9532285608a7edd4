"""The exact forecast of a small fight: an absorbing Markov chain over the compact states.

A node is the turn order, whose turn in it, and every combatant's state (with the attacks each has
drawn, relative to its side's least attacked, where the target picking reads them); the nodes are
found by exploring from the opening's orders, and one turn moves the chance on each node to the next
turn's nodes or to an end (a side alone, ``board.Board.winner``), through the morale of a group that
came to lose half (``board.Board.rout``; the node keeps whether each group was tested); where several
act at the same time (``board.Board.block``) the node keeps who of them stood when their turns began,
and an end is taken after the last of them; a new round
changes the states as the model says and, where initiative is rolled each round, moves to every
order with its chance. The chances are carried turn by turn, round by round, as
numpy sums, so the rounds' distribution comes with them; what is still open after ``MAX_ROUNDS`` is
the draw, as on the procedure path. A chain that passes ``MAX_STATES`` nodes is refused: before it is
explored where a turn changes its target alone (the product of the states each combatant can reach
bounds it), while it is explored where a turn changes its actor too. A duel of the first kind is
solved without the chain (``duel``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..dice import Dist
from ..messages import t
from .board import Board, States
from .fight import MAX_ROUNDS, rounds_played
from .value import Chance, FigureForecast, Forecast, Mean

#: the most nodes (turns and states) the bound of an exact forecast's chain may give (about a second
#: at most on a small machine); a larger fight is sampled
MAX_STATES = 100_000

#: the least chance of a number of rounds the forecast's distribution keeps (a ``Dist`` is exact to it):
#: a fight that could go on to ``MAX_ROUNDS`` almost never lasts that long
LEAST = 1e-12

#: the order, the states, the attacks drawn, the groups tested, who of those acting at the same time
#: stood when their turns began (None: to be read at this turn, the first of them)
Node = tuple[int, States, tuple[int, ...], tuple[bool, ...], frozenset[int] | None]


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

    def _relative(self, states: States, drawn: list[int]) -> tuple[int, ...]:
        """The attacks drawn, relative to the least attacked standing combatant of each side (their
        order is all the target picking reads); 0 for those out of the fight."""
        if not self.board.counts:
            return ()
        b = self.board
        up = [0] * b.size
        for side in range(len(b.side_names)):
            members = [i for i in range(b.size) if b.side[i] == side and b.standing(i, states[i])]
            low = min((drawn[i] for i in members), default=0)
            for i in members:
                up[i] = drawn[i] - low
        return tuple(up)

    def _start(self, todo: list[tuple[int, Node]]) -> dict[int, float]:
        """The opening's nodes with their chances (one per turn order)."""
        b = self.board
        start = b.start()
        return {self._node(b.opening.turn, (o, start, (0,) * b.size if b.counts else (), b.rolled(start), None),
                           todo): p for o, p in b.opening.starts.items()}

    def explore(self) -> dict[int, float]:
        b = self.board
        opening = b.opening
        todo: list[tuple[int, Node]] = []
        start = self._start(todo)
        while todo:
            turn, node = todo.pop()
            o, states, drawn, rolled, owed = node
            here = self.nodes[turn][node]
            actor = opening.orders[o][turn]
            block = b.block(o, turn)
            if owed is None:   # the first of a block: who stands now acts in it
                owed = frozenset(opening.orders[o][k] for k in block
                                 if b.standing(opening.orders[o][k], states[opening.orders[o][k]]))
            after: list[tuple[float, States, list[int], tuple[bool, ...]]] = []
            if actor in owed:
                for q, target in b.targets(actor, states, drawn):
                    for p, mine, theirs in b.turn(actor, target, states[actor], states[target]):
                        nxt = list(states)
                        nxt[actor], nxt[target] = mine, theirs
                        count = list(drawn)
                        if b.counts:
                            count[target] += 1
                        after += [(q * p * r, routed, count, done) for r, routed, done in b.rout(tuple(nxt), rolled)]
            if not after:
                after = [(1.0, states, list(drawn), rolled)]
            last = turn == block[-1]
            for p, nxt_states, count, done in after:
                if last and b.winner(nxt_states) is not None:
                    stops = self.stops[turn]
                    stops[0].append(here)
                    stops[1].append(self._end(nxt_states))
                    stops[2].append(p)
                else:
                    self._next(turn, here, (o, nxt_states, self._relative(nxt_states, count), done,
                                            None if last else owed), p, todo)
        return start

    def _next(self, turn: int, here: int, node: Node, p: float, todo: list[tuple[int, Node]]) -> None:
        """Move ``p`` from node ``here`` to ``node`` at the next turn: in the same order, or after a new
        round (its states as the model starts a round) to every order it can roll."""
        b = self.board
        o, states, drawn, rolled, owed = node
        nxt = (turn + 1) % self.turns
        if nxt == 0:
            states = tuple(b.new_round(i, s) for i, s in enumerate(states))
        orders = b.opening.each_round if nxt == 0 and b.opening.each_round is not None else {o: 1.0}
        moves = self.moves[turn]
        for o2, q in orders.items():
            moves[0].append(here)
            moves[1].append(self._node(nxt, (o2, states, drawn, rolled, owed), todo))
            moves[2].append(p * q)

    def run(self) -> Solution:
        b = self.board
        opening = b.opening
        start = b.start()
        if b.winner(start) is not None:   # decided before any turn
            return self._solution({self._end(start): 1.0}, {rounds_played(opening.first, opening.round): 1.0}, {}, 0)
        begin = self.explore()
        moves = [tuple(np.asarray(x) for x in m) for m in self.moves]
        stops = [tuple(np.asarray(x) for x in m) for m in self.stops]
        ended = np.zeros(len(self.ends))
        rounds: dict[int, float] = {}
        turn, round_ = opening.turn, opening.round
        chance = np.zeros(len(self.nodes[turn]))
        for k, p in begin.items():
            chance[k] += p
        while True:
            src, dst, p = moves[turn]
            s_src, s_end, s_p = stops[turn]
            nxt = (turn + 1) % self.turns
            stopped = np.bincount(s_end, weights=chance[s_src] * s_p, minlength=len(self.ends)) if len(s_src) \
                else np.zeros(len(self.ends))
            ended += stopped
            if stopped.any():
                key = rounds_played(opening.first, round_)
                rounds[key] = rounds.get(key, 0.0) + float(stopped.sum())
            chance = np.bincount(dst, weights=chance[src] * p, minlength=len(self.nodes[nxt])) if len(src) \
                else np.zeros(len(self.nodes[nxt]))
            turn = nxt
            if turn == 0:
                round_ += 1
                if round_ > MAX_ROUNDS:
                    break
            if not chance.any():
                break
        open_ = {i: float(q) for i, q in enumerate(chance) if q} if turn == 0 and round_ > MAX_ROUNDS else {}
        if open_:
            key = rounds_played(opening.first, round_)
            rounds[key] = rounds.get(key, 0.0) + sum(open_.values())
        return self._solution({i: float(q) for i, q in enumerate(ended) if q}, rounds, open_,
                              sum(len(n) for n in self.nodes))

    def _solution(self, ended: dict[int, float], rounds: dict[int, float], open_: dict[int, float],
                  nodes: int) -> Solution:
        """Sum what each end and each node left open holds, by its chance."""
        b = self.board
        win = [0.0] * len(b.side_names)
        falls = [0.0] * b.size
        res: list[dict[str, float]] = [dict.fromkeys(b.resources(i, b.model.start(i)), 0.0)
                                       for i in range(b.size)]
        by_index = {i: s for s, i in self.ends.items()}
        nodes0 = {i: node[1] for node, i in self.nodes[0].items()}
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
                    notes=[t("forecast.weg_exakt", nodes=solution.nodes)], **kw)
