"""The exact forecast of a duel, without the joint chain's nodes of every order and place.

Where a turn changes its target alone by the actor's sheet (not ``Board.pair``), each one's state
moves by its foe's attacks and the new rounds alone, whatever the other's state: while both stand,
their chances are the product of one vector per combatant (one per opening order, each starting
order its own product), and the order of a round decides only which of them falls first. The chain's
nodes (orders, turns, every pair of states) are never built: each turn moves one vector by the
target's transitions (found once per state), what falls ends there with the other's vector beside it,
and the sums the ``Solution`` needs are taken from the two vectors.

Where a turn changes its actor too (``Board.pair``: a luck pool, AD, grace spent), the two move
together: the pairs of states they reach are found from the start (``_Pairs``), each actor's turn
worked out once per pair it can act in (not once per order and place), each pair's new round once, and
the chances are carried over the pairs turn by turn, one vector per order. A round that leaves every
chance as it was and ends nothing (nobody can act any more: no AD left) repeats to ``MAX_ROUNDS``, so
it ends the carrying there. Either result is the chain's (``chain``), turn by turn and round by round
up to ``MAX_ROUNDS``; ``Solution.nodes`` counts the pairs.
"""

from __future__ import annotations

import numpy as np

from ..rules.compact import Compact
from .board import Board
from .chain import MAX_STATES, Solution
from .fight import MAX_ROUNDS, rounds_played


def fits(board: Board) -> bool:
    """Whether ``board`` is a duel: two combatants of two sides, no morale but that of a group of one
    (which only tests once its one member is out), nobody out before the first turn, and no tie that
    strikes at the same time (``Opening.together``: the chain plays it)."""
    return (board.size == 2 and board.side[0] != board.side[1]
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


def solve(board: Board, max_states: int = MAX_STATES) -> Solution | None:
    """The exact result of a duel that ``fits``; None where its turns change the actor too and the
    pairs of states it reaches pass ``max_states``."""
    if board.pair:
        try:
            return _Pairs(board, max_states).solve()
        except _TooLarge:
            return None
    return _apart(board)


def _apart(board: Board) -> Solution:
    """A duel whose turns change their target alone: one vector per combatant."""
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


class _TooLarge(Exception):
    """The duel passed its most pairs while they were found."""


class _Pairs:
    """A duel whose turns change the actor too, over the pairs of states it reaches (numbered as found):
    each actor's turn worked out once for each pair it can act in (``_follows``), each pair's new
    round once."""

    def __init__(self, board: Board, most: int) -> None:
        self.b, self.most = board, most
        self.pairs: dict[tuple, int] = {}               # (state of 0, state of 1) -> pair
        self.of: list[tuple] = []                       # pair -> its states
        self.live: list[bool] = []                      # per pair: both standing
        self.fresh: list[int] = []                      # per pair: the pair a new round makes of it
        self.moves = [([], [], []), ([], [], [])]       # per actor: from pair, to pair, chance
        #: whether a new round can change a state (``Compact.new_round`` filled)
        self.renews = type(board.model).new_round is not Compact.new_round

    def _pair(self, states: tuple) -> int:
        """The number of a new pair of states (and of the pair a new round makes of it)."""
        self.pairs[states] = found = len(self.of)
        if found >= self.most:
            raise _TooLarge
        b = self.b
        self.of.append(states)
        self.live.append(b.standing(0, states[0]) and b.standing(1, states[1]))
        self.fresh.append(found)
        if self.renews:
            renewed = (b.new_round(0, states[0]), b.new_round(1, states[1]))
            if renewed != states:
                known = self.pairs.get(renewed)
                self.fresh[found] = self._pair(renewed) if known is None else known
        return found

    def _numbered(self) -> tuple[list[list], list[np.ndarray]]:
        """Each combatant's states in the pairs, and each pair's number of its state in them."""
        states, at = [], []
        for i in (0, 1):
            index: dict = {}
            at.append(np.array([index.setdefault(pair[i], len(index)) for pair in self.of], dtype=np.intp))
            states.append(list(index))
        return states, at

    def _follows(self) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
        """For each actor: who can act next in the same round after its turn, and who first in the next
        round where its turn can end one."""
        o = self.b.opening
        within: list[set[int]] = [set(), set()]
        after: list[set[int]] = [set(), set()]
        for order in o.orders:
            for place, actor in enumerate(order[:-1]):
                within[actor].add(order[place + 1])
            after[order[-1]] |= {o.orders[r][0] for r in o.each_round} if o.each_round is not None else {order[0]}
        return [(tuple(within[a]), tuple(after[a])) for a in (0, 1)]

    def _explore(self) -> int:
        """Every pair the duel reaches from its opening and each turn's moves from it; the start pair."""
        b, o = self.b, self.b.opening
        follows = self._follows()
        pairs, live, fresh = self.pairs, self.live, self.fresh
        start = self._pair(b.start())
        todo = [(start, o.orders[k][o.turn]) for k in o.starts]
        due: list[set[int]] = [set(), set()]            # per actor: the pairs where its turn is worked out
        for pair, actor in todo:
            due[actor].add(pair)
        turn = b.model.turn
        while todo:
            pair, actor = todo.pop()
            x, y = self.of[pair]
            if actor == 0:
                outcomes = turn(0, 1, x, y)
            else:
                outcomes = [(p, one, two) for p, two, one in turn(1, 0, y, x)]
            within, after = follows[actor]
            covered = set(after) <= set(within)
            src, dst, chance = self.moves[actor]
            src += [pair] * len(outcomes)
            for p, one, two in outcomes:
                nxt = pairs.get((one, two))
                if nxt is None:
                    nxt = self._pair((one, two))
                dst.append(nxt)
                chance.append(p)
                if live[nxt]:
                    for who in within:
                        if nxt not in due[who]:
                            due[who].add(nxt)
                            todo.append((nxt, who))
                    new = fresh[nxt]
                    if new == nxt and covered:   # a new round that changes nothing, its actors due already
                        continue
                    for who in after:
                        if new not in due[who]:
                            due[who].add(new)
                            todo.append((new, who))
        return start

    def solve(self) -> Solution:
        b, o = self.b, self.b.opening
        start = self._explore()
        n, turns = len(self.of), len(o.orders[0])
        moves = [tuple(np.asarray(x, dtype=float if k == 2 else np.intp) for k, x in enumerate(m)) for m in self.moves]
        self.states, self.at = self._numbered()
        up = [np.array([b.standing(i, s) for s in self.states[i]], dtype=bool)[self.at[i]] for i in (0, 1)]
        live = up[0] & up[1]
        fresh = np.asarray(self.fresh, dtype=np.intp)
        chance = np.zeros((len(o.orders), n))
        for k, p in o.starts.items():
            chance[k, start] = p
        ended = np.zeros(n)
        rounds: dict[int, float] = {}
        turn, round_ = o.turn, o.round
        begun = None   # the chances at the start of the last round, where it ended nothing
        while True:
            stopped = self._turn(chance, moves, live, turn, ended)
            if stopped:
                key = rounds_played(o.first, round_)
                rounds[key] = rounds.get(key, 0.0) + stopped
                begun = None
            turn = (turn + 1) % turns
            if turn == 0:
                round_ += 1
                chance = self._new_round(chance, fresh)
                if round_ > MAX_ROUNDS:
                    break
                if begun is not None and np.array_equal(begun, chance):
                    round_ = MAX_ROUNDS + 1   # every later round the same: open to the end
                    break
                begun = chance.copy()
            if not chance.any():
                break
        open_ = chance.sum(0) if round_ > MAX_ROUNDS else np.zeros(n)
        if open_.any():
            key = rounds_played(o.first, round_)
            rounds[key] = rounds.get(key, 0.0) + float(open_.sum())
        return self._solution(ended, open_, rounds, up)

    def _turn(self, chance: np.ndarray, moves: list[tuple[np.ndarray, ...]], live: np.ndarray, turn: int,
              ended: np.ndarray) -> float:
        """One turn of every order: ``chance`` moved on in place, what ends added to ``ended``; its mass."""
        stopped = 0.0
        for k, order in enumerate(self.b.opening.orders):
            if chance[k].any():
                src, dst, p = moves[order[turn]]
                moved = np.bincount(dst, weights=chance[k][src] * p, minlength=len(live))
                out = np.where(live, 0.0, moved)
                ended += out
                stopped += float(out.sum())
                chance[k] = np.where(live, moved, 0.0)
        return stopped

    def _new_round(self, chance: np.ndarray, fresh: np.ndarray) -> np.ndarray:
        """The chances by order after a new round: each pair's new round, then the order rolled anew
        where it is rolled each round."""
        o = self.b.opening
        for k in range(len(o.orders)):
            chance[k] = np.bincount(fresh, weights=chance[k], minlength=chance.shape[1])
        if o.each_round is None:
            return chance
        total = chance.sum(0)
        return np.array([o.each_round.get(k, 0.0) * total for k in range(len(o.orders))])

    def _solution(self, ended: np.ndarray, open_: np.ndarray, rounds: dict[int, float], up: list[np.ndarray]
                  ) -> Solution:
        """Sum what each pair ended or left open holds, by its chance: a pair with one standing is its
        side's win, one with none standing or left open a draw."""
        b = self.b
        mass = ended + open_
        alone = up[0] != up[1]
        win = [0.0] * len(b.side_names)
        for i in (0, 1):
            win[b.side[i]] += float(mass[alone & up[i]].sum())
        draw = float(mass[~alone].sum())   # none standing, or open after the last round (both standing)
        falls, res = [], []
        for i, at in enumerate(self.at):
            states = self.states[i]
            falls.append(float(mass[~up[i]].sum()))
            names = list(b.resources(i, b.model.start(i)))
            values = np.array([[b.resources(i, s).get(k, 0) for k in names] for s in states], dtype=float)
            res.append(dict(zip(names, map(float, mass @ values[at]))))
        return Solution(win, draw, rounds, falls, res, len(self.of))
