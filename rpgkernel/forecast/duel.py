"""The exact forecast of a duel whose turns change their target alone, without the joint chain.

Where two combatants fight and a turn changes its target alone by the actor's sheet (not
``Board.pair``), each one's state moves by its foe's attacks and the new rounds alone, whatever the
other's state: while both stand, their chances are the product of one vector per combatant (one per
opening order, each starting order its own product), and the order of a round decides only which of
them falls first. The chain's nodes (orders, turns, every pair of states) are never built: each turn
moves one vector by the target's transitions (found once per state), what falls ends there with the
other's vector beside it, and the sums the ``Solution`` needs are taken from the two vectors. The
result is the chain's (``chain``), turn by turn and round by round up to ``MAX_ROUNDS``.
"""

from __future__ import annotations

import numpy as np

from .board import Board
from .chain import Solution
from .fight import MAX_ROUNDS, rounds_played


def fits(board: Board) -> bool:
    """Whether ``board`` is such a duel: two combatants of two sides, turns that change their target
    alone, no morale but that of a group of one (which only tests once its one member is out), nobody
    out before the first turn, and no tie that strikes at the same time (``Opening.together``: the
    chain plays it)."""
    return (board.size == 2 and board.side[0] != board.side[1] and not board.pair
            and all(sorted(order) == [0, 1] for order in board.opening.orders)
            and not any(any(at_once) for at_once in board.opening.together)
            and all(len(g) == 1 for g in board.groups) and board.winner(board.start()) is None)


class _Marginal:
    """One combatant's states (its reach), which of them stand, its foe's attack on each and the new
    round, as index arrays."""

    def __init__(self, board: Board, i: int) -> None:
        foe = 1 - i
        self.states = board.reach()[i]
        index = {s: k for k, s in enumerate(self.states)}
        self.n = len(self.states)
        self.up = np.array([board.standing(i, s) for s in self.states])
        src: list[int] = []
        dst: list[int] = []
        p: list[float] = []
        attacker = board.start()[foe]
        for k, s in enumerate(self.states):
            if self.up[k]:
                for q, _, after in board.turn(foe, i, attacker, s):
                    src.append(k)
                    dst.append(index[after])
                    p.append(q)
        self.src, self.dst, self.p = np.asarray(src, dtype=np.intp), np.asarray(dst, dtype=np.intp), np.asarray(p)
        self.round = np.asarray([index[board.new_round(i, s)] for s in self.states], dtype=np.intp)
        names = list(board.resources(i, self.states[0]))
        self.names = names
        self.res = np.array([[board.resources(i, s).get(k, 0) for k in names] for s in self.states], dtype=float)
        self.start = np.zeros(self.n)
        self.start[0] = 1.0   # the reach's first state is the start

    def hit(self, v: np.ndarray) -> np.ndarray:
        """The chances after the foe's attack (on the standing states; the others carry none)."""
        return np.bincount(self.dst, weights=v[self.src] * self.p, minlength=self.n)

    def new_round(self, v: np.ndarray) -> np.ndarray:
        return np.bincount(self.round, weights=v, minlength=self.n)


def solve(board: Board) -> Solution:
    """The exact result of a duel that ``fits``."""
    o = board.opening
    m = [_Marginal(board, 0), _Marginal(board, 1)]
    turns = len(o.orders[0])
    win = [0.0, 0.0]
    falls = [0.0, 0.0]
    res = [np.zeros(len(x.names)) for x in m]
    rounds: dict[int, float] = {}
    draw = 0.0
    # each component: its weight by order (None: the order is rolled each round), the two vectors
    for first, weight in o.starts.items():
        v = [m[0].start.copy(), m[1].start.copy()]
        chance = {first: weight}
        turn, round_ = o.turn, o.round
        while True:
            ended = 0.0
            for order, q in chance.items():
                # the order's turns left in this round, each actor's foe hit; what falls ends here
                w = [v[0] * 1.0, v[1] * 1.0]
                for t in range(turn, turns):
                    target = 1 - o.orders[order][t]
                    moved = m[target].hit(w[target])
                    down = np.where(m[target].up, 0.0, moved)
                    lost = float(down.sum())
                    if lost:
                        other = 1 - target
                        mass = q * lost * float(w[other].sum())
                        ended += mass
                        win[board.side[other]] += mass
                        falls[target] += mass
                        res[target] += q * float(w[other].sum()) * (down @ m[target].res)
                        res[other] += q * lost * (w[other] @ m[other].res)
                    w[target] = np.where(m[target].up, moved, 0.0)
                survivors = w
            if ended:
                key = rounds_played(o.first, round_)
                rounds[key] = rounds.get(key, 0.0) + ended
            # the survivors of every order are the same product (each vector was hit once per turn)
            total = sum(chance.values())
            v = [m[0].new_round(survivors[0]), m[1].new_round(survivors[1])]
            round_ += 1
            turn = 0
            if o.each_round is not None:
                chance = {k: p * total for k, p in o.each_round.items()}
            if round_ > MAX_ROUNDS or not (v[0].any() and v[1].any()):
                break
        left = sum(chance.values()) * float(v[0].sum()) * float(v[1].sum())
        if round_ > MAX_ROUNDS and left:
            draw += left
            key = rounds_played(o.first, round_)
            rounds[key] = rounds.get(key, 0.0) + left
            for i in (0, 1):
                res[i] += sum(chance.values()) * float(v[1 - i].sum()) * (v[i] @ m[i].res)
    nodes = len(o.orders) * turns * m[0].n * m[1].n   # the joint chain's nodes it stands for, at most
    resources = [dict(zip(m[i].names, map(float, res[i]))) for i in (0, 1)]
    return Solution(win, draw, rounds, falls, resources, nodes)
