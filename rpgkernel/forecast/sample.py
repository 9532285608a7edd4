"""The fast sampled forecast: many fights at once on the compact model, in numpy.

Every combatant's states (``Board.reach``) get a number of their own among all the fight's states, and
what the fight asks of them becomes a flat table once: standing or not, the rank as a target, the
resources, what a new round makes of each, the morale of the groups, and for each attacker and
target the chances of their next states (by the pair of states where a turn changes the attacker
too), summed up row after row. A fight is a row of state numbers; the fights of a batch move in
step, turn by turn, with a few numpy calls a turn whatever their number: each draws its turn order
from the opening's chances (again at every round where initiative is rolled each round); in each fight
the actor, if standing, picks the standing foe of the lowest rank (the first of equals), or one at
random where the seed says so, and the next states are drawn from the table with one uniform number
(where the turn hits others too, ``board.Board.area``, theirs after, each with one of its own); a
group that came to lose half then tests its morale. Those who act at the same time
(``board.Board.block``) act if they stood when the first of them began, and a fight is looked at only
after the last of them. A fight ends as on the procedure path (``board.Board.winner``, a draw after
``MAX_ROUNDS``); the fights that ended leave the arrays now and then.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

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
        self.board = b = board
        self.reach = board.reach()
        sizes = [len(r) for r in self.reach]
        #: where each combatant's states begin among all states (a state's number: offset + index)
        self.offset = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int64)
        self.index = [{s: int(self.offset[i]) + k for k, s in enumerate(r)} for i, r in enumerate(self.reach)]
        every = [(i, s) for i, r in enumerate(self.reach) for s in r]
        self.standing = np.array([b.standing(i, s) for i, s in every])
        self.keys = [list(b.resources(i, r[0])) for i, r in enumerate(self.reach)]
        self.resources = [np.array([[b.resources(i, s)[k] for k in self.keys[i]] for s in r], dtype=float)
                          for i, r in enumerate(self.reach)]
        self.ranks = np.array([[b.rank(i, s, 0)] for i, s in every])
        self.rounds = np.array([self.index[i][b.new_round(i, s)] for i, s in every])
        self.orders = np.array(b.opening.orders)
        turns = range(self.orders.shape[1])
        #: per order and place: whether a block of those acting at once begins there, ends there
        self.begins = np.array([[b.block(o, k)[0] == k for k in turns] for o in range(len(self.orders))])
        self.ends = np.array([[b.block(o, k)[-1] == k for k in turns] for o in range(len(self.orders))])
        self.foe = np.array([[j in b.foes[i] for j in range(b.size)] for i in range(b.size)])
        self.sides = np.array([[b.side[i] == s for s in range(len(b.side_names))] for i in range(b.size)])
        self._morale(every)
        self._tables()

    def _morale(self, every: list) -> None:
        """Each combatant's group (-1: none), the groups' members and their places in the group, and
        by state number the chance its group holds when it leads and the state it flees to."""
        b = self.board
        self.group = np.full(b.size, -1)
        self.members = np.zeros((len(b.groups), b.size), dtype=bool)
        self.place = np.full((len(b.groups), b.size), b.size)
        for k, g in enumerate(b.groups):
            for p, i in enumerate(g):
                self.group[i], self.members[k, i], self.place[k, i] = k, True, p
        self.holds = np.ones(len(every))
        self.flees = np.arange(len(every))
        for n, (i, s) in enumerate(every):
            if self.group[i] >= 0 and b.standing(i, s):
                self.holds[n] = b.model.holds(i, s)
                self.flees[n] = self.index[i][b.model.flees(i, s)]

    def _tables(self) -> None:
        """Every turn's next states, one row per state of the target (per pair of states where the
        attacker changes too) of each attacker and foe, as alias tables (``_alias``): ``base + actor's
        * step + target's`` state number finds a row, ``start`` and ``width`` its places, ``target`` and
        ``actor`` the next state numbers at each place."""
        b = self.board
        rows: list[tuple[int, int, list[tuple[float, object, object]]]] = []
        self.base = np.zeros((b.size, b.size), dtype=np.int64)
        self.step = np.zeros((b.size, b.size), dtype=np.int64)
        for a in range(b.size):
            mine = self.reach[a] if b.pair else self.reach[a][:1]
            for t in b.foes[a]:
                theirs = self.reach[t]
                self.step[a, t] = len(theirs) if b.pair else 0
                self.base[a, t] = len(rows) - self.offset[t] - (self.offset[a] * len(theirs) if b.pair else 0)
                rows += [(a, t, b.turn(a, t, sa, st) if b.standing(a, sa) and b.standing(t, st) else [(1.0, sa, st)])
                         for sa in mine for st in theirs]
        start: list[int] = []
        width: list[int] = []
        keep: list[float] = []
        alias: list[int] = []
        target: list[int] = []
        actor: list[int] = []
        for a, t, turn in rows:
            turn = [x for x in turn if x[0] > 0] or turn[:1]
            start.append(len(target))
            width.append(len(turn))
            shares, others = _alias([p for p, _, _ in turn])
            keep += shares
            alias += [len(target) + k for k in others]
            target += [self.index[t][s] for _, _, s in turn]
            actor += [self.index[a][s] for _, s, _ in turn]
        self.start, self.width = np.array(start, dtype=np.int64), np.array(width, dtype=np.int64)
        self.keep, self.alias = np.array(keep), np.array(alias, dtype=np.int64)
        self.target, self.actor = np.array(target, dtype=np.int64), np.array(actor, dtype=np.int64)

    def _rank(self, states: np.ndarray, drawn: np.ndarray) -> np.ndarray:
        """The ranks of the combatants in ``states`` having drawn ``drawn`` attacks (a table widened as
        the counts grow, where the target picking reads them)."""
        if not self.board.counts:
            return self.ranks[states, 0]
        top = int(drawn.max()) if drawn.size else 0
        if top >= self.ranks.shape[1]:
            more = range(self.ranks.shape[1], max(top + 1, 2 * self.ranks.shape[1]))
            every = [(i, s) for i, r in enumerate(self.reach) for s in r]
            self.ranks = np.hstack([self.ranks, [[self.board.rank(i, s, d) for d in more] for i, s in every]])
        return self.ranks[states, drawn]

    def _decided(self, states: np.ndarray) -> np.ndarray:
        """Each fight's winning side, ``DRAW`` where no side stands, ``OPEN`` while two still fight."""
        up = self.standing[states] @ self.sides
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

    def _targets(self, actors: np.ndarray, states: np.ndarray, drawn: np.ndarray, rng: np.random.Generator
                 ) -> tuple[np.ndarray, np.ndarray]:
        """Each fight's target (a combatant) of its actor, and whether it has one (a standing foe); the
        target picking passes over the foes it cannot hurt while another stands (``hurts``)."""
        up = self.standing[states] & self.foe[actors]
        if self.board.model.random_target:
            pick = (rng.random(len(actors)) * up.sum(1)).astype(np.int64)
            found = np.minimum((np.cumsum(up, 1) <= pick[:, None]).sum(1), self.board.size - 1)
        else:
            can = up & self.hurts[actors]
            found = np.where(np.where(can.any(1)[:, None], can, up), self._rank(states, drawn), np.inf).argmin(1)
        return found, up[np.arange(len(actors)), found]

    def _turn(self, k: np.ndarray, actors: np.ndarray, targets: np.ndarray, states: np.ndarray,
              rng: np.random.Generator) -> None:
        """The turns of ``actors`` on ``targets`` in fights ``k``: their next states drawn."""
        now = states[k]
        ks = np.arange(len(k))
        mine, theirs = now[ks, actors], now[ks, targets]
        row = self.base[actors, targets] + mine * self.step[actors, targets] + theirs
        width = self.width[row]
        x = rng.random(len(k)) * width
        place = np.minimum(x.astype(np.int64), width - 1)
        at = self.start[row] + place
        found = np.where(x - place < self.keep[at], at, self.alias[at])
        states[k, targets] = self.target[found]
        if self.board.pair:
            states[k, actors] = self.actor[found]

    @cached_property
    def hurts(self) -> np.ndarray:
        """By attacker and combatant: whether its turn can hurt it (``board.Board.hurts``)."""
        return np.array(self.board.hurts, dtype=bool)

    @cached_property
    def others(self) -> np.ndarray:
        """By attacker, target and combatant: whether the turn hits that combatant too where it stands
        (``board.Board.spread``)."""
        b = self.board
        found = np.zeros((b.size, b.size, b.size), dtype=bool)
        for (a, t), others in b.spread.items():
            found[a, t, list(others)] = True
        return found

    def _blast(self, k: np.ndarray, actors: np.ndarray, targets: np.ndarray, states: np.ndarray,
               rng: np.random.Generator) -> list[tuple[np.ndarray, np.ndarray]]:
        """After the turns of ``actors`` on ``targets`` in fights ``k``: the turns on the others they
        hit (``others``) who stand, each drawn on its own; per combatant hit, the fights and who."""
        hit = []
        for j in range(self.board.size):
            mine = self.others[actors, targets, j] & self.standing[states[k, j]]
            if mine.any():
                kj = k[mine]
                self._turn(kj, actors[mine], np.full(kj.size, j), states, rng)
                hit.append((kj, np.full(kj.size, j)))
        return hit

    def _rout(self, k: np.ndarray, who: np.ndarray, states: np.ndarray, rolled: np.ndarray,
              rng: np.random.Generator) -> None:
        """After turns in fights ``k`` that changed ``who``: each group of them not yet tested with at
        least half of it out saves once, its first standing member leading; on a failure its standing
        members flee."""
        group = self.group[who]
        mine = group >= 0
        k, group = k[mine], group[mine]
        mine = ~rolled[k, group]
        k, group = k[mine], group[mine]
        if not k.size:
            return
        members = self.members[group]
        up = self.standing[states[k]] & members
        mine = 2 * (members.sum(1) - up.sum(1)) >= members.sum(1)
        k, group, members, up = k[mine], group[mine], members[mine], up[mine]
        rolled[k, group] = True
        lead = np.where(up, self.place[group], self.board.size).argmin(1)
        holds = np.where(up.any(1), self.holds[states[k, lead]], 1.0)
        fled = rng.random(k.size) >= holds
        k, members = k[fled], members[fled]
        states[k] = np.where(members, self.flees[states[k]], states[k])

    def play(self, n: int, rng: np.random.Generator) -> Batch:
        b = self.board
        opening = b.opening
        turns = self.orders.shape[1]
        blocks = not self.begins.all()
        winner = np.full(n, OPEN)
        rounds = np.zeros(n, dtype=np.int64)
        final = np.zeros((n, b.size), dtype=np.int64)
        # the fights still played (rows), their numbers among the n, and what each carries along
        fights = np.arange(n)
        states = np.tile(self.offset, (n, 1))   # every start is its reach's first state
        drawn = np.zeros((n, b.size), dtype=np.int64)
        rolled = np.tile(np.array(b.rolled(b.start()), dtype=bool), (n, 1))
        order = self._draw(opening.starts, n, rng)
        stood = self.standing[states]   # at a block's start
        looked = np.ones(n, dtype=bool)   # whether a fight is to be looked at when its block ends
        live = np.ones(n, dtype=bool)
        turn, round_ = opening.turn, opening.round

        def end(check: np.ndarray) -> None:
            """The fights ``check`` (rows) that one side or none is left in end here."""
            ended = self._decided(states[check])
            done = check[ended != OPEN]
            winner[fights[done]] = ended[ended != OPEN]
            rounds[fights[done]] = rounds_played(opening.first, round_)
            final[fights[done]] = states[done]
            live[done] = False

        end(fights)
        while live.any():
            if 4 * live.sum() < 3 * len(live):   # the ended fights leave the arrays
                fights, states, drawn, rolled, order, stood, looked = (
                    x[live] for x in (fights, states, drawn, rolled, order, stood, looked))
                live = live[live]
            rows = np.arange(len(fights))
            if blocks:
                begin = self.begins[order, turn]
                stood[begin] = self.standing[states[begin]]
            actors = self.orders[order, turn]
            targets, found = self._targets(actors, states, drawn, rng)
            up = stood[rows, actors] if blocks else self.standing[states[rows, actors]]
            k = np.flatnonzero(live & found & up)
            if k.size:
                actors, targets = actors[k], targets[k]
                self._turn(k, actors, targets, states, rng)
                others = self._blast(k, actors, targets, states, rng) if b.spread else []
                if b.counts:
                    drawn[k, targets] += 1
                if b.groups:
                    self._rout(k, targets, states, rolled, rng)
                    for kj, j in others:
                        self._rout(kj, j, states, rolled, rng)
                    if b.pair:
                        self._rout(k, actors, states, rolled, rng)
                looked[k] = True
            check = np.flatnonzero(looked & self.ends[order, turn])
            looked[check] = False
            end(check[live[check]])
            turn = (turn + 1) % turns
            if turn == 0:
                round_ += 1
                if round_ > MAX_ROUNDS:
                    left = fights[live]
                    winner[left] = DRAW
                    rounds[left] = rounds_played(opening.first, round_)
                    final[left] = states[live]
                    break
                states = self.rounds[states]
                looked[:] = True
                if opening.each_round is not None:
                    order = self._draw(opening.each_round, len(order), rng)
        return Batch(winner, rounds, final - self.offset)

    def counts(self, batch: Batch) -> dict:
        """A batch as ``Tally.add_counts`` takes it."""
        b = self.board
        names = b.opening.names
        sides, wins = np.unique(batch.winner[batch.winner >= 0], return_counts=True)
        rounds, often = np.unique(batch.rounds, return_counts=True)
        standing = self.standing[batch.states + self.offset]
        sums = {}
        for i in range(b.size):
            values = self.resources[i][batch.states[:, i]]
            sums[names[i]] = {k: (float(values[:, c].sum()), float((values[:, c] ** 2).sum()))
                              for c, k in enumerate(self.keys[i])}
        return {"n": len(batch.winner), "wins": {b.side_names[s]: int(k) for s, k in zip(sides, wins)},
                "draws": int((batch.winner == DRAW).sum()), "rounds": {int(r): int(k) for r, k in zip(rounds, often)},
                "falls": {names[i]: int((~standing[:, i]).sum()) for i in range(b.size)},
                "sums": sums}


def _alias(chances: list[float]) -> tuple[list[float], list[int]]:
    """Vose's alias table of ``chances`` (adding up to 1): place ``k`` is drawn with ``1 / len``, then
    kept with chance ``shares[k]``, else it gives ``others[k]``; one uniform number draws both."""
    n = len(chances)
    scaled = [p * n for p in chances]
    shares, others = [1.0] * n, list(range(n))
    small = [k for k, x in enumerate(scaled) if x < 1.0]
    large = [k for k, x in enumerate(scaled) if x >= 1.0]
    while small and large:
        less, more = small.pop(), large.pop()
        shares[less], others[less] = scaled[less], more
        scaled[more] -= 1.0 - scaled[less]
        (small if scaled[more] < 1.0 else large).append(more)
    return shares, others
