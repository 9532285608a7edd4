"""The fast sampled forecast: many fights at once on the compact model, in numpy.

Every combatant's states (``Board.reach``) are numbered, and what the fight asks of them becomes a
table once: standing or not, the rank as a target, the resources, and for each attacker and target
the chances of the target's next states, summed up. The fights of a batch then move in step, turn
by turn (their turn order is the same): in each fight the actor, if standing, picks the standing
foe of the lowest rank (the first of equals) and the target's next state is drawn from its table
with one uniform number. A fight ends as on the procedure path (``board.Board.winner``, a draw
after ``MAX_ROUNDS``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .board import Board
from .fight import MAX_ROUNDS, rounds_played

OPEN, DRAW = -2, -1   # a fight's winner while it runs, and for a draw (else the side's index)


@dataclass
class Batch:
    """Fights played at once: each one's winning side (index, or ``DRAW``), the rounds it took, and
    every combatant's state at its end (indices into ``Sampler.reach``)."""

    winner: np.ndarray
    rounds: np.ndarray
    states: np.ndarray


class Sampler:
    def __init__(self, board: Board) -> None:
        self.board = board
        self.reach = [board.reach(i) for i in range(board.size)]
        index = [{s: k for k, s in enumerate(r)} for r in self.reach]
        self.standing = [np.array([board.standing(i, s) for s in r]) for i, r in enumerate(self.reach)]
        self.keys = [list(board.model.resources(i, r[0])) for i, r in enumerate(self.reach)]
        self.resources = [np.array([[board.model.resources(i, s)[k] for k in self.keys[i]] for s in r], dtype=float)
                          for i, r in enumerate(self.reach)]
        self.ranks = [np.array([[board.rank(i, s, 0)] for s in r]) for i, r in enumerate(self.reach)]
        self.tables: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
        for a in range(board.size):
            for t in board.foes[a]:
                self.tables[a, t] = self._table(a, t, index[t])

    def _table(self, a: int, t: int, index: dict) -> tuple[np.ndarray, np.ndarray]:
        """The summed chances of ``t``'s next states after ``a``'s turn, one row per state of ``t``
        (ending in 1, padded with the last state; a state out of the fight stays)."""
        rows = [self.board.hit(a, t, s) if self.board.standing(t, s) else [(1.0, s)] for s in self.reach[t]]
        width = max(len(r) for r in rows)
        cdf = np.ones((len(rows), width))
        nxt = np.zeros((len(rows), width), dtype=np.int64)
        for k, row in enumerate(rows):
            cdf[k, :len(row) - 1] = np.cumsum([p for p, _ in row[:-1]])   # the last 1, not 1 - 1e-16
            nxt[k, :len(row)] = [index[s] for _, s in row]
            nxt[k, len(row):] = nxt[k, len(row) - 1]
        return cdf, nxt

    def _rank(self, i: int, states: np.ndarray, drawn: np.ndarray) -> np.ndarray:
        """The ranks of combatant ``i`` in ``states`` having drawn ``drawn`` attacks (a table widened
        as the counts grow, where the target picking reads them)."""
        if not self.board.counts:
            return self.ranks[i][states, 0]
        table = self.ranks[i]
        top = int(drawn.max()) if drawn.size else 0
        if top >= table.shape[1]:
            more = range(table.shape[1], max(top + 1, 2 * table.shape[1]))
            wider = np.array([[self.board.rank(i, s, d) for d in more] for s in self.reach[i]])
            table = self.ranks[i] = np.hstack([table, wider])
        return table[states, drawn]

    def _decided(self, states: np.ndarray) -> np.ndarray:
        """Each fight's winning side, ``DRAW`` where no side stands, ``OPEN`` while two still fight."""
        b = self.board
        up = np.zeros((len(states), len(b.side_names)), dtype=bool)
        for i in range(b.size):
            up[:, b.side[i]] |= self.standing[i][states[:, i]]
        left = up.sum(1)
        return np.where(left > 1, OPEN, np.where(left == 1, up.argmax(1), DRAW))

    def play(self, n: int, rng: np.random.Generator) -> Batch:
        b = self.board
        opening = b.opening
        turns = len(opening.order)
        states = np.zeros((n, b.size), dtype=np.int64)   # every start is its reach's first state
        drawn = np.zeros((n, b.size), dtype=np.int64)
        winner = self._decided(states)
        rounds = np.full(n, rounds_played(opening.first, opening.round))
        live = np.flatnonzero(winner == OPEN)
        turn, round_ = opening.turn, opening.round
        while live.size:
            actor = opening.order[turn]
            acting = live[self.standing[actor][states[live, actor]]]
            if acting.size:
                foes = b.foes[actor]
                rank = np.full((acting.size, len(foes)), np.inf)
                for j, f in enumerate(foes):
                    now = states[acting, f]
                    rank[:, j] = np.where(self.standing[f][now], self._rank(f, now, drawn[acting, f]), np.inf)
                picked = rank.argmin(1)
                for j, f in enumerate(foes):
                    hit = acting[picked == j]
                    if hit.size:
                        cdf, nxt = self.tables[actor, f]
                        now = states[hit, f]
                        drawn[hit, f] += 1
                        states[hit, f] = nxt[now, (cdf[now] < rng.random(hit.size)[:, None]).sum(1)]
                ended = self._decided(states[acting])
                done = ended != OPEN
                if done.any():
                    winner[acting[done]] = ended[done]
                    rounds[acting[done]] = rounds_played(opening.first, round_)
                    live = live[winner[live] == OPEN]
            turn = (turn + 1) % turns
            if turn == 0:
                round_ += 1
                if round_ > MAX_ROUNDS:
                    winner[live] = DRAW
                    rounds[live] = rounds_played(opening.first, round_)
                    break
        return Batch(winner, rounds, states)

    def counts(self, batch: Batch) -> dict:
        """A batch as ``Tally.add_counts`` takes it."""
        b = self.board
        names = b.opening.names
        sides, wins = np.unique(batch.winner[batch.winner >= 0], return_counts=True)
        rounds, often = np.unique(batch.rounds, return_counts=True)
        sums = {}
        for i in range(b.size):
            values = self.resources[i][batch.states[:, i]]
            sums[names[i]] = {k: (float(values[:, c].sum()), float((values[:, c] ** 2).sum()))
                              for c, k in enumerate(self.keys[i])}
        return {"n": len(batch.winner), "wins": {b.side_names[s]: int(k) for s, k in zip(sides, wins)},
                "draws": int((batch.winner == DRAW).sum()), "rounds": {int(r): int(k) for r, k in zip(rounds, often)},
                "falls": {names[i]: int((~self.standing[i][batch.states[:, i]]).sum()) for i in range(b.size)},
                "sums": sums}
