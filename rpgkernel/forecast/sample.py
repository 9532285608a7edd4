"""The fast sampled forecast: many fights at once on the compact model, in numpy.

Every state gets a number and what a fight asks becomes flat tables once (the turns as alias tables
per pair of parts); the fights of a batch move turn by turn with a few numpy calls. How:
docs/mitwirken.md, "Die Stichprobe"."""

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
        self.board = board
        self.reach = board.reach()
        self._numbers()
        self._orders()
        self._morale()
        self._parts()
        self._tables()

    def _numbers(self) -> None:
        """Every state's number, and by number: standing or not, the rank as a target, the state a new
        round makes of it; each combatant's resources by its own states."""
        b = self.board
        sizes = [len(r) for r in self.reach]
        #: where each combatant's states begin among all states (a state's number: offset + index)
        self.offset = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int64)
        self.index = [{s: int(self.offset[i]) + k for k, s in enumerate(r)} for i, r in enumerate(self.reach)]
        self.every = every = [(i, s) for i, r in enumerate(self.reach) for s in r]
        self.standing = np.array([b.standing(i, s) for i, s in every])
        self.keys = [list(b.resources(i, r[0])) for i, r in enumerate(self.reach)]
        self.resources = [np.array([[b.resources(i, s)[k] for k in self.keys[i]] for s in r], dtype=float)
                          for i, r in enumerate(self.reach)]
        self.ranks = np.array([[b.rank(i, s, 0)] for i, s in every])
        self.rounds = np.array([self.index[i][b.new_round(i, s)] for i, s in every])
        #: each start's states by number, whether each of its groups was tested, and its chance
        self.begin = np.array([[self.index[i][s] for i, s in enumerate(start)] for _, start in b.starts])
        self.tested = np.array([b.rolled(start) for _, start in b.starts], dtype=bool)
        self.chances = np.array([p for p, _ in b.starts])

    def _orders(self) -> None:
        """The turn orders, per order and place whether a block of those acting at once begins or ends
        there, who is whose foe, and each one's side."""
        b = self.board
        self.orders = np.array(b.opening.orders)
        turns = range(self.orders.shape[1])
        self.begins = np.array([[b.block(o, k)[0] == k for k in turns] for o in range(len(self.orders))])
        self.ends = np.array([[b.block(o, k)[-1] == k for k in turns] for o in range(len(self.orders))])
        self.foe = np.array([[j in b.foes[i] for j in range(b.size)] for i in range(b.size)])
        self.sides = np.array([[b.side[i] == s for s in range(len(b.side_names))] for i in range(b.size)])

    def _morale(self) -> None:
        """Each combatant's group (-1: none), the groups' members and their places in the group, and
        by state number the chance its group holds when it leads and the state it flees to."""
        b = self.board
        self.group = np.full(b.size, -1)
        self.members = np.zeros((len(b.groups), b.size), dtype=bool)
        self.place = np.full((len(b.groups), b.size), b.size)
        for k, g in enumerate(b.groups):
            for p, i in enumerate(g):
                self.group[i], self.members[k, i], self.place[k, i] = k, True, p
        self.holds = np.ones(len(self.every))
        self.flees = np.arange(len(self.every))
        for n, (i, s) in enumerate(self.every):
            if self.group[i] >= 0 and b.standing(i, s):
                self.holds[n] = b.model.holds(i, s)
                self.flees[n] = self.index[i][b.model.flees(i, s)]

    def _parts(self) -> None:
        """The parts of each combatant's standing states as the actor and the target (``Board.known``;
        where turns leave the actor as it is, its start alone), numbered per combatant; by state number
        the number of its parts (0 where it does not stand: it never takes a turn then)."""
        b = self.board
        self.known = [[list(b.known(i, 0).items()) if b.pair else [(None, self.reach[i][0])] for i in range(b.size)],
                      [list(b.known(i, 1).items()) for i in range(b.size)]]
        self.part = np.zeros((2, len(self.every)), dtype=np.int64)
        numbers = [[{part: k for k, (part, _) in enumerate(self.known[role][i])} for i in range(b.size)]
                   for role in (0, 1)]
        for n, (i, s) in enumerate(self.every):
            if b.standing(i, s):
                for role, part in enumerate(b.parts(i, s)):
                    self.part[role, n] = numbers[role][i].get(part, 0)
        #: whether an actor acts where turns leave it as it is (it stood at the start)
        self.acts = np.array([b.standing(a, self.reach[a][0]) for a in range(b.size)])

    def _tables(self) -> None:
        """Every turn's changes, one row per pair of the attacker's and the target's parts of each
        attacker and foe, as alias tables (``_alias``): ``base + actor's part * step + target's part``
        finds a row, ``start`` and ``width`` its places; ``changes`` the actor's and the target's change
        at each place, which ``_moves`` makes the next state."""
        b = self.board
        self.base = np.zeros((b.size, b.size), dtype=np.int64)
        self.step = np.zeros((b.size, b.size), dtype=np.int64)
        #: per role and combatant: part -> change -> its number among the part's changes (from 1)
        numbers: list[list[dict]] = [[{} for _ in range(b.size)] for _ in (0, 1)]
        keep: list[float] = []
        alias: list[int] = []
        changes: list[tuple[int, int]] = []
        start: list[int] = []
        for a in range(b.size):
            for t in b.foes[a]:
                self.step[a, t] = len(self.known[1][t]) if b.pair else 0
                self.base[a, t] = len(start)
                for mine, x in self.known[0][a]:
                    for theirs, y in self.known[1][t]:
                        turn = [m for m in b.moves(a, t, x, y) if m[0] > 0] or b.moves(a, t, x, y)[:1]
                        start.append(len(keep))
                        shares, others = _alias([p for p, _, _ in turn])
                        keep += shares
                        alias += [start[-1] + k for k in others]
                        ours, theirs_ = numbers[0][a].setdefault(mine, {}), numbers[1][t].setdefault(theirs, {})
                        changes += [(ours.setdefault(c, len(ours) + 1), theirs_.setdefault(h, len(theirs_) + 1))
                                    for _, c, h in turn]
        self.start = np.array(start, dtype=np.int64)
        self.width = np.diff(np.array(start + [len(keep)], dtype=np.int64))
        self.keep, self.alias = np.array(keep), np.array(alias, dtype=np.int64)
        found = np.array(changes, dtype=np.int64).reshape(-1, 2)
        self.changes = (found[:, 0].copy(), found[:, 1].copy())
        self._moves(numbers)

    def _moves(self, numbers: list[list[dict]]) -> None:
        """Per role (0: actor, 1: target) the next state's number of each state and change of its parts:
        ``at[role][state] + change`` in ``to[role]``; change 0 leaves the state as it is."""
        b = self.board
        self.at = np.zeros((2, len(self.every)), dtype=np.int64)
        self.to: list[np.ndarray] = []
        for role in (0, 1):
            to: list[int] = []
            for n, (i, s) in enumerate(self.every):
                self.at[role, n] = len(to)
                to.append(n)
                if role == 0 and not b.pair or not b.standing(i, s):
                    continue
                part = self.known[role][i][self.part[role, n]][0]
                to += [self.index[i][b.moved(i, s, c)] for c in numbers[role][i].get(part, {})]
            self.to.append(np.array(to, dtype=np.int64))

    def _rank(self, states: np.ndarray, drawn: np.ndarray) -> np.ndarray:
        """The ranks of the combatants in ``states`` having drawn ``drawn`` attacks (a table widened as
        the counts grow, where the target picking reads them)."""
        if not self.board.counts:
            return self.ranks[states, 0]
        top = int(drawn.max()) if drawn.size else 0
        if top >= self.ranks.shape[1]:
            more = range(self.ranks.shape[1], max(top + 1, 2 * self.ranks.shape[1]))
            self.ranks = np.hstack([self.ranks, [[self.board.rank(i, s, d) for d in more] for i, s in self.every]])
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
        """The turns of ``actors`` on ``targets`` in fights ``k``: their next states drawn (an actor
        felled before its turn, in a block acting at once, changes nobody where its turns change it)."""
        now = states[k]
        ks = np.arange(len(k))
        mine, theirs = now[ks, actors], now[ks, targets]
        row = self.base[actors, targets] + self.part[0, mine] * self.step[actors, targets] + self.part[1, theirs]
        width = self.width[row]
        x = rng.random(len(k)) * width
        place = np.minimum(x.astype(np.int64), width - 1)
        at = self.start[row] + place
        found = np.where(x - place < self.keep[at], at, self.alias[at])
        acts = self.standing[mine] if self.board.pair else self.acts[actors]
        hit = self.changes[1][found]
        if not acts.all():
            hit = np.where(acts, hit, 0)
        states[k, targets] = self.to[1][self.at[1, theirs] + hit]
        if self.board.pair:
            states[k, actors] = self.to[0][self.at[0, mine] + np.where(acts, self.changes[0][found], 0)]

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

    def play(self, n: int, rng: np.random.Generator, begun: np.ndarray | None = None) -> Batch:
        """``n`` fights, each from a start of the board drawn by its chance, or from the one ``begun`` names
        (its place among ``Board.starts``)."""
        b = self.board
        opening = b.opening
        turns = self.orders.shape[1]
        blocks = not self.begins.all()
        winner = np.full(n, OPEN)
        rounds = np.zeros(n, dtype=np.int64)
        final = np.zeros((n, b.size), dtype=np.int64)
        # the fights still played (rows), their numbers among the n, and what each carries along
        fights = np.arange(n)
        if begun is None:   # the start of each fight, drawn where there are several
            begun = rng.choice(len(self.chances), n, p=self.chances / self.chances.sum()) if len(self.chances) > 1 \
                else np.zeros(n, dtype=np.int64)
        states = self.begin[begun]
        drawn = np.zeros((n, b.size), dtype=np.int64)
        rolled = self.tested[begun]
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
