"""The fast sampled forecast: many fights at once on the compact model, in numpy.

Every combatant's states (``Board.reach``) are numbered, and what the fight asks of them becomes a
table once: standing or not, the rank as a target, the resources, what a new round makes of each,
and for each attacker and target the chances of their next states (by the pair of states where a
turn changes the attacker too), summed up. The fights of a batch then move in step, turn by turn:
each draws its turn order from the opening's chances (again at every round where initiative is rolled
each round); in each fight the actor, if standing, picks the standing foe of the lowest rank (the
first of equals), or one at random where the seed says so, and the next states are drawn from the
table with one uniform number; a group that came to lose half then tests its morale. Those who act at
the same time (``board.Board.block``) act if they stood when the first of them began, and a fight is
looked at only after the last of them. A fight ends as on the procedure path (``board.Board.winner``, a
draw after ``MAX_ROUNDS``).
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


@dataclass
class _Table:
    """The summed chances of the next states after one attacker's turn against one target, a row per
    state of the target (per pair of states where the attacker changes too: attacker * targets' +
    target), ending in 1 and padded with the last; the next states as indices."""

    cdf: np.ndarray
    target: np.ndarray
    actor: np.ndarray | None


class Sampler:
    def __init__(self, board: Board) -> None:
        self.board = board
        self.reach = board.reach()
        self.index = [{s: k for k, s in enumerate(r)} for r in self.reach]
        self.standing = [np.array([board.standing(i, s) for s in r]) for i, r in enumerate(self.reach)]
        self.keys = [list(board.resources(i, r[0])) for i, r in enumerate(self.reach)]
        self.resources = [np.array([[board.resources(i, s)[k] for k in self.keys[i]] for s in r], dtype=float)
                          for i, r in enumerate(self.reach)]
        self.ranks = [np.array([[board.rank(i, s, 0)] for s in r]) for i, r in enumerate(self.reach)]
        self.rounds = [np.array([self.index[i][board.new_round(i, s)] for s in r]) for i, r in enumerate(self.reach)]
        self.orders = np.array(board.opening.orders)
        turns = range(self.orders.shape[1])
        #: per order and place: whether a block of those acting at once begins there, ends there
        self.begins = np.array([[board.block(o, k)[0] == k for k in turns] for o in range(len(self.orders))])
        self.ends = np.array([[board.block(o, k)[-1] == k for k in turns] for o in range(len(self.orders))])
        members = sorted({i for g in board.groups for i in g})
        self.holds = {i: np.array([board.model.holds(i, s) if board.standing(i, s) else 1.0 for s in self.reach[i]])
                      for i in members}
        self.flees = {i: np.array([self.index[i][board.model.flees(i, s)] if board.standing(i, s) else k
                                   for k, s in enumerate(self.reach[i])]) for i in members}
        self.tables = {(a, t): self._table(a, t) for a in range(board.size) for t in board.foes[a]}

    def _table(self, a: int, t: int) -> _Table:
        b = self.board
        mine = self.reach[a] if b.pair else self.reach[a][:1]
        rows = [b.turn(a, t, sa, st) if b.standing(a, sa) and b.standing(t, st) else [(1.0, sa, st)]
                for sa in mine for st in self.reach[t]]
        width = max(len(r) for r in rows)
        cdf = np.ones((len(rows), width))
        target = np.zeros((len(rows), width), dtype=np.int64)
        actor = np.zeros((len(rows), width), dtype=np.int64)
        for k, row in enumerate(rows):
            cdf[k, :len(row) - 1] = np.cumsum([p for p, _, _ in row[:-1]])   # the last 1, not 1 - 1e-16
            target[k, :len(row)] = [self.index[t][s] for _, _, s in row]
            actor[k, :len(row)] = [self.index[a][s] for _, s, _ in row]
            target[k, len(row):], actor[k, len(row):] = target[k, len(row) - 1], actor[k, len(row) - 1]
        return _Table(cdf, target, actor if b.pair else None)

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

    @staticmethod
    def _draw(chances: dict[int, float], n: int, rng: np.random.Generator) -> np.ndarray:
        """``n`` turn orders drawn by their chances."""
        orders = np.array(list(chances), dtype=np.int64)
        if len(orders) == 1:
            return np.full(n, orders[0])
        cdf = np.cumsum(list(chances.values()))
        return orders[np.minimum((cdf[:-1][None, :] < rng.random(n)[:, None] * cdf[-1]).sum(1), len(orders) - 1)]

    def _targets(self, actor: int, acting: np.ndarray, states: np.ndarray, drawn: np.ndarray,
                 rng: np.random.Generator) -> np.ndarray:
        """Each acting fight's target, as an index into the actor's foes."""
        foes = self.board.foes[actor]
        up = np.column_stack([self.standing[f][states[acting, f]] for f in foes])
        if self.board.model.random_target:
            pick = (rng.random(acting.size) * up.sum(1)).astype(np.int64)
            return (np.cumsum(up, 1) <= pick[:, None]).sum(1)
        rank = np.full((acting.size, len(foes)), np.inf)
        for j, f in enumerate(foes):
            now = states[acting, f]
            rank[:, j] = np.where(up[:, j], self._rank(f, now, drawn[acting, f]), np.inf)
        return rank.argmin(1)

    def _turn(self, actor: int, acting: np.ndarray, states: np.ndarray, drawn: np.ndarray,
              rng: np.random.Generator) -> None:
        picked = self._targets(actor, acting, states, drawn, rng)
        for j, f in enumerate(self.board.foes[actor]):
            hit = acting[picked == j]
            if not hit.size:
                continue
            table = self.tables[actor, f]
            row = states[hit, f] + (states[hit, actor] * len(self.reach[f]) if table.actor is not None else 0)
            col = (table.cdf[row] < rng.random(hit.size)[:, None]).sum(1)
            drawn[hit, f] += 1
            states[hit, f] = table.target[row, col]
            if table.actor is not None:
                states[hit, actor] = table.actor[row, col]

    def _rout(self, fights: np.ndarray, states: np.ndarray, rolled: np.ndarray, rng: np.random.Generator) -> None:
        """After a turn in ``fights``: each group not yet tested with at least half of it out saves
        once, its first standing member leading; on a failure its standing members flee."""
        for k, g in enumerate(self.board.groups):
            up = np.column_stack([self.standing[i][states[fights, i]] for i in g])
            now = fights[~rolled[fights, k] & (2 * (~up).sum(1) >= len(g))]
            if not now.size:
                continue
            rolled[now, k] = True
            up = up[np.isin(fights, now)]
            lead = up.argmax(1)
            holds = np.ones(now.size)
            for j, i in enumerate(g):
                mine = lead == j
                holds[mine] = self.holds[i][states[now[mine], i]]
            fled = now[rng.random(now.size) >= holds]
            for i in g:
                states[fled, i] = self.flees[i][states[fled, i]]

    def play(self, n: int, rng: np.random.Generator) -> Batch:
        b = self.board
        opening = b.opening
        turns = self.orders.shape[1]
        states = np.zeros((n, b.size), dtype=np.int64)   # every start is its reach's first state
        drawn = np.zeros((n, b.size), dtype=np.int64)
        rolled = np.tile(np.array(b.rolled(b.start()), dtype=bool), (n, 1))
        order = self._draw(opening.starts, n, rng)
        winner = self._decided(states)
        rounds = np.full(n, rounds_played(opening.first, opening.round))
        live = np.flatnonzero(winner == OPEN)
        turn, round_ = opening.turn, opening.round
        stood = np.column_stack([self.standing[i][states[:, i]] for i in range(b.size)])   # at a block's start
        while live.size:
            begin = live[self.begins[order[live], turn]]
            stood[begin] = np.column_stack([self.standing[i][states[begin, i]] for i in range(b.size)])
            actors = self.orders[order[live], turn]
            for actor in np.unique(actors):
                mine = live[actors == actor]
                acting = mine[stood[mine, actor]]
                if acting.size:
                    self._turn(int(actor), acting, states, drawn, rng)
                    if b.groups:
                        self._rout(acting, states, rolled, rng)
            ended = self._decided(states[live])
            done = (ended != OPEN) & self.ends[order[live], turn]
            if done.any():
                winner[live[done]] = ended[done]
                rounds[live[done]] = rounds_played(opening.first, round_)
                live = live[~done]
            turn = (turn + 1) % turns
            if turn == 0:
                round_ += 1
                if round_ > MAX_ROUNDS:
                    winner[live] = DRAW
                    rounds[live] = rounds_played(opening.first, round_)
                    break
                for i in range(b.size):
                    states[live, i] = self.rounds[i][states[live, i]]
                if opening.each_round is not None:
                    order[live] = self._draw(opening.each_round, live.size, rng)
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
