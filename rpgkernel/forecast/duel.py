"""The exact forecast of a duel, without the joint chain's nodes of every order and place.

Where a turn changes its target alone, one vector per combatant; where it changes its actor too, the
pairs of states they reach, each turn once per pair (or per pair of parts, ``_Split``). How:
docs/mitwirken.md, "Das Duell"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from ..rules.compact import Compact, State
from .board import Board
from .chain import MAX_STATES, Solution
from .fight import MAX_ROUNDS, Opening, rounds_played


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


#: the pairs from which on a duel's pairs are found by parts where the model names them (``_Pairs.split``),
#: the pairs found so far going on: in fewer, the batches' numpy calls cost more than the turns they share
#: (an AdZ duel, some 35 outcomes a turn, is a quarter faster split from here than from 400 pairs on;
#: Kampfwerte's and Midgard's with grace, 329 pairs, take as long either way)
SPLIT_FROM = 50


class _TooLarge(Exception):
    """The duel passed its most pairs while they were found."""


def _follows(o: Opening) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """For each actor: who can act next in the same round after its turn, and who first in the next
    round where its turn can end one."""
    within: list[set[int]] = [set(), set()]
    after: list[set[int]] = [set(), set()]
    for order in o.orders:
        for place, actor in enumerate(order[:-1]):
            within[actor].add(order[place + 1])
        after[order[-1]] |= {o.orders[r][0] for r in o.each_round} if o.each_round is not None else {order[0]}
    return [(tuple(within[a]), tuple(after[a])) for a in (0, 1)]


class _Found(NamedTuple):
    """The pairs a duel reaches: the start pair, each combatant's states and each pair's number of its
    state in them, the pair a new round makes of each, and each actor's moves (from pair, to pair,
    chance)."""

    start: int
    states: list[list]
    at: list[np.ndarray]
    fresh: np.ndarray
    moves: list[tuple[np.ndarray, np.ndarray, np.ndarray]]


class _Onward:
    """One actor's moves (from pair, to pair, chance) as the carrying uses them: those to a pair where
    both stand, and what ends, as each pair's chance to end at the actor's turn there; the chances the
    turns started from are summed, so what ends is spread over its pairs once, at the end."""

    def __init__(self, moves: tuple[np.ndarray, np.ndarray, np.ndarray], live: np.ndarray) -> None:
        src, dst, p = moves
        on = live[dst]
        self.src, self.dst, self.p = src[on], dst[on], p[on]
        self.end = (src[~on], dst[~on], p[~on])
        self.ends = np.bincount(self.end[0], weights=self.end[2], minlength=len(live))
        self.started = np.zeros(len(live))

    def turn(self, chance: np.ndarray, k: int) -> float:
        """Move order ``k``'s chances on by a turn, in place; the mass that ends."""
        w = chance[k]
        stopped = float((w * self.ends).sum())   # not ``@``: a BLAS thread per product costs more here
        if stopped:
            self.started += w
        chance[k] = np.bincount(self.dst, weights=w[self.src] * self.p, minlength=len(w))
        return stopped

    def ended(self) -> np.ndarray:
        """Each pair's chance to be where the duel ended at this actor's turn."""
        src, dst, p = self.end
        return np.bincount(dst, weights=self.started[src] * p, minlength=len(self.started))


class _Pairs:
    """A duel whose turns change the actor too, over the pairs of states it reaches: found pair by pair
    (``_walk``), going on by the parts of the states a turn reads where the model names them
    (``_Split``); then the chances carried over them turn by turn."""

    def __init__(self, board: Board, most: int) -> None:
        self.b, self.most = board, most
        self.pairs: dict[tuple, int] = {}               # (state of 0, state of 1) -> pair
        self.of: list[tuple] = []                       # pair -> its states
        self.live: list[bool] = []                      # per pair: both standing
        self.fresh: list[int] = []                      # per pair: the pair a new round makes of it
        self.moves = [([], [], []), ([], [], [])]       # per actor: from pair, to pair, chance
        #: whether a new round can change a state (``Compact.new_round`` filled)
        self.renews = type(board.model).new_round is not Compact.new_round
        #: whether the pairs are found by the parts of the states a turn reads (``_Split``)
        self.split = type(board.model).reads is not Compact.reads

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

    def _found(self) -> _Found:
        """The pairs and moves: found pair by pair, by parts (``_Split``) from ``SPLIT_FROM`` pairs on."""
        return self._walk(SPLIT_FROM if self.split else None)

    def _walk(self, upto: int | None = None) -> _Found:
        """Every pair the duel reaches from its opening and each turn's moves from it, pair by pair; from
        ``upto`` pairs on by parts (``_Split``), from the pairs, moves and turns due found so far."""
        b, o = self.b, self.b.opening
        follows = _follows(o)
        pairs, live, fresh = self.pairs, self.live, self.fresh
        start = self._pair(b.start())
        todo = [(start, o.orders[k][o.turn]) for k in o.starts]
        due: list[set[int]] = [set(), set()]            # per actor: the pairs where its turn is worked out
        for pair, actor in todo:
            due[actor].add(pair)
        turn = b.model.turn
        while todo:
            if upto is not None and len(self.of) >= upto:
                return _Split(b, self.most).walk(self, due, todo)
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
        moves = [(np.asarray(s, dtype=np.intp), np.asarray(d, dtype=np.intp), np.asarray(p, dtype=float))
                 for s, d, p in self.moves]
        states, at = self._numbered()
        return _Found(start, states, at, np.asarray(fresh, dtype=np.intp), moves)

    def solve(self) -> Solution:
        b, o = self.b, self.b.opening
        found = self._found()
        start, self.states, self.at, fresh, moves = found
        n, turns = len(fresh), len(o.orders[0])
        up = [np.array([b.standing(i, s) for s in self.states[i]], dtype=bool)[self.at[i]] for i in (0, 1)]
        live = up[0] & up[1]
        chance = np.zeros((len(o.orders), n))
        for k, p in o.starts.items():
            chance[k, start] = p
        on = [_Onward(m, live) for m in moves]
        rounds: dict[int, float] = {}
        turn, round_ = o.turn, o.round
        begun = None   # the chances at the start of the last round, where it ended nothing
        while True:
            stopped = self._turn(chance, on, turn)
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
        ended = sum(m.ended() for m in on)
        open_ = chance.sum(0) if round_ > MAX_ROUNDS else np.zeros(n)
        if open_.any():
            key = rounds_played(o.first, round_)
            rounds[key] = rounds.get(key, 0.0) + float(open_.sum())
        return self._solution(ended, open_, rounds, up)

    def _turn(self, chance: np.ndarray, on: list[_Onward], turn: int) -> float:
        """One turn of every order: ``chance`` moved on in place; the mass that ends in it."""
        stopped = 0.0
        for k, order in enumerate(self.b.opening.orders):
            if chance[k].any():
                stopped += on[order[turn]].turn(chance, k)
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
        return Solution(win, draw, rounds, falls, res, len(mass))


#: the bits of a pair's code (or a key) that hold its second number
_LOW = 32


class _Grown:
    """A numpy array that grows by one value at a time (``view``: the values so far)."""

    def __init__(self, dtype: type) -> None:
        self.a = np.zeros(1024, dtype=dtype)
        self.n = 0

    def append(self, value: Any) -> None:
        if self.n == len(self.a):
            self.a = np.concatenate([self.a, np.zeros_like(self.a)])
        self.a[self.n] = value
        self.n += 1

    def extend(self, values: np.ndarray) -> None:
        if self.n + len(values) > len(self.a):
            self.a = np.concatenate([self.a, np.zeros(max(len(self.a), len(values)), dtype=self.a.dtype)])
        self.a[self.n:self.n + len(values)] = values
        self.n += len(values)

    @property
    def view(self) -> np.ndarray:
        return self.a[:self.n]


def _numbers(codes: np.ndarray, number: Callable[[int, int], int]) -> np.ndarray:
    """``number(high, low)`` of each code (two numbers in one), worked out once per distinct code."""
    distinct, where = np.unique(codes, return_inverse=True)
    mask = (1 << _LOW) - 1
    return np.fromiter((number(int(c) >> _LOW, int(c) & mask) for c in distinct), np.intp, len(distinct))[where]


def _distinct(pairs: np.ndarray, n: int) -> np.ndarray:
    """The distinct numbers of ``pairs`` (each below ``n``), in order: ``np.unique`` without the import of
    ``numpy.ma`` its plain form makes at its first call."""
    seen = np.zeros(n, dtype=bool)
    seen[pairs] = True
    return np.flatnonzero(seen)


def _code(high: np.ndarray, low: np.ndarray) -> np.ndarray:
    return high.astype(np.int64) << _LOW | low


class _States:
    """One combatant's states as the walk finds them, numbered, with the numbers of their parts as actor
    (True) and as target (False) (``Compact.reads``), of the changes turns make (``Compact.moves``), and
    of the state each change makes of each state (``Compact.moved``)."""

    def __init__(self, board: Board, i: int) -> None:
        self.b, self.i = board, i
        self.index: dict = {}
        self.states: list = []
        self.up, self.renewed = _Grown(bool), _Grown(np.intp)
        self.part = {r: _Grown(np.intp) for r in (True, False)}     # per state: its part's number
        self.parts: dict[bool, dict] = {True: {}, False: {}}
        self.changes: dict = {}                                      # a change -> its number
        self.values: list = []                                       # by number: the changes
        self.after: dict[tuple[int, int], int] = {}                  # (state, change) -> state

    def add(self, state: State) -> int:
        """The number of ``state`` (and of the state a new round makes of it)."""
        k = self.index.get(state)
        if k is not None:
            return k
        k = len(self.states)
        self.states.append(state)
        self.up.append(self.b.standing(self.i, state))
        for role, part in zip((True, False), self.b.model.reads(self.i, state)):
            self.part[role].append(self.parts[role].setdefault(part, len(self.parts[role])))
        self.index[state] = k
        self.renewed.append(k)
        renewed = self.add(self.b.new_round(self.i, state))
        self.renewed.a[k] = renewed
        return k

    def change(self, change: Any) -> int:
        """The number of ``change``."""
        k = self.changes.get(change)
        if k is None:
            k = self.changes[change] = len(self.values)
            self.values.append(change)
        return k

    def moved(self, states: np.ndarray, changes: np.ndarray) -> np.ndarray:
        """The numbers of the states these changes make of these states."""
        return _numbers(_code(states, changes), self._moved)

    def _moved(self, state: int, change: int) -> int:
        k = self.after.get((state, change))
        if k is None:
            k = self.after[state, change] = self.add(self.b.model.moved(self.i, self.states[state], self.values[change]))
        return k


class _Split:
    """The pairs of a duel whose model names the parts of a state a turn reads (``Compact.reads``), found
    batch by batch: each actor's turn worked out once per pair of parts (its own and its target's) as
    changes (``Compact.moves``), and a batch's moves assembled from those with numpy (each new state once
    per state and change, each new pair once)."""

    def __init__(self, board: Board, most: int) -> None:
        self.b, self.most = board, most
        self.regs = [_States(board, i) for i in (0, 1)]
        self.index: dict[int, int] = {}                 # a pair's code -> pair
        self.x = [_Grown(np.intp), _Grown(np.intp)]     # per pair: each one's state
        self.live, self.fresh = _Grown(bool), _Grown(np.intp)
        self.due = [_Grown(bool), _Grown(bool)]         # per actor and pair: its turn worked out there
        # per actor: (its part, the target's part) -> its turns' outcomes (first, count), and those as
        # chance, the actor's change, the target's change
        self.keys: list[dict[int, int]] = [{}, {}]
        self.outcomes: list[tuple[list, ...]] = [([], [], [], [], []), ([], [], [], [], [])]
        self.arrays: list[tuple[np.ndarray, ...] | None] = [None, None]

    def _pairs(self, codes: np.ndarray) -> np.ndarray:
        """The numbers of the pairs of states of ``codes`` (distinct), the new ones (and the pairs a new
        round makes of them) numbered in turn."""
        index = self.index
        found = np.fromiter((index.get(c, -1) for c in codes.tolist()), np.intp, len(codes))
        new = found < 0
        if not new.any():
            return found
        codes = codes[new]
        n, m = len(index), len(codes)
        if n + m > self.most:
            raise _TooLarge
        found[new] = numbers = np.arange(n, n + m)
        index.update(zip(codes.tolist(), numbers.tolist()))
        x0, x1 = codes >> _LOW, codes & ((1 << _LOW) - 1)
        r0, r1 = self.regs
        self.x[0].extend(x0)
        self.x[1].extend(x1)
        self.live.extend(r0.up.view[x0] & r1.up.view[x1])
        for due in self.due:
            due.extend(np.zeros(m, dtype=bool))
        self.fresh.extend(numbers)
        renewed = _code(r0.renewed.view[x0], r1.renewed.view[x1])
        changed = renewed != codes
        if changed.any():
            distinct, where = np.unique(renewed[changed], return_inverse=True)
            self.fresh.a[numbers[changed]] = self._pairs(distinct)[where]
        return found

    def walk(self, walked: _Pairs, due: list[set[int]], todo_walked: list[tuple[int, int]]) -> _Found:
        """Go on from the pairs ``walked`` found pair by pair (numbered alike here), their moves, the pairs
        where each actor's turn is ``due`` and those where it is still to be worked out (``todo_walked``)."""
        numbers = [np.array([r.add(states[i]) for states in walked.of], dtype=np.intp) for i, r in enumerate(self.regs)]
        self._pairs(_code(*numbers))
        todo: list[list[np.ndarray]] = [[], []]
        for a in (0, 1):
            self.due[a].view[list(due[a])] = True
            left = [pair for pair, who in todo_walked if who == a]
            todo[a] = [np.array(left, dtype=np.intp)] if left else []
        moves: list[list[tuple[np.ndarray, ...]]] = [
            [(np.asarray(src, dtype=np.intp), np.asarray(dst, dtype=np.intp), np.asarray(p, dtype=float))]
            for src, dst, p in walked.moves]
        follows = _follows(self.b.opening)
        while todo[0] or todo[1]:
            for a in (0, 1):
                if not todo[a]:
                    continue
                batch = np.concatenate(todo[a])
                todo[a] = []
                src, dst, p = self._turns(a, batch)
                moves[a].append((src, dst, p))
                reached = _distinct(dst[self.live.view[dst]], self.live.n)
                within, after = follows[a]
                for who in within:
                    self._due(who, reached, todo)
                renewed = _distinct(self.fresh.view[reached], self.live.n)
                for who in after:
                    self._due(who, renewed, todo)
        return _Found(0, [r.states for r in self.regs], [x.view.copy() for x in self.x], self.fresh.view.copy(),
                      [tuple(map(np.concatenate, zip(*m))) for m in moves])

    def _due(self, who: int, pairs: np.ndarray, todo: list[list[np.ndarray]]) -> None:
        """Mark ``who``'s turn due in ``pairs`` (distinct) where it is not yet."""
        due = self.due[who].view
        new = pairs[~due[pairs]]
        if len(new):
            due[new] = True
            todo[who].append(new)

    def _turns(self, a: int, batch: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Actor ``a``'s moves from the pairs ``batch``: from pair, to pair, chance."""
        t = 1 - a
        mine, theirs = self.regs[a], self.regs[t]
        xa, xt = self.x[a].view[batch], self.x[t].view[batch]
        keys = _code(mine.part[True].view[xa], theirs.part[False].view[xt])
        distinct, first, where = np.unique(keys, return_index=True, return_inverse=True)
        known = self.keys[a]
        new = [(key, k) for key, k in zip(distinct.tolist(), first.tolist()) if key not in known]
        for key, k in new:
            self._outcomes(a, key, mine.states[xa[k]], theirs.states[xt[k]])
        if new:
            self.arrays[a] = (np.asarray(self.outcomes[a][0], dtype=np.intp), np.asarray(self.outcomes[a][1], dtype=np.intp),
                              np.asarray(self.outcomes[a][2]), *(np.asarray(x, dtype=np.intp) for x in self.outcomes[a][3:]))
        kind = np.fromiter((known[key] for key in distinct.tolist()), np.intp, len(distinct))[where]
        start, count, p, change_a, change_t = self.arrays[a]
        n = count[kind]
        which = np.repeat(np.arange(len(batch)), n)
        at = np.arange(int(n.sum())) - np.repeat(np.cumsum(n) - n, n) + np.repeat(start[kind], n)
        after_a = mine.moved(xa[which], change_a[at])
        after_t = theirs.moved(xt[which], change_t[at])
        pair = (after_a, after_t) if a == 0 else (after_t, after_a)
        distinct, where = np.unique(_code(*pair), return_inverse=True)
        return batch[which], self._pairs(distinct)[where], p[at]

    def _outcomes(self, a: int, key: int, mine: State, theirs: State) -> None:
        """Work out actor ``a``'s turn for the parts ``key`` on an actual pair ``mine``, ``theirs``."""
        t = 1 - a
        starts, counts, chances, changes_a, changes_t = self.outcomes[a]
        moves = self.b.model.moves(a, t, mine, theirs)
        self.keys[a][key] = len(starts)
        starts.append(len(chances))
        counts.append(len(moves))
        number_a, number_t = self.regs[a].change, self.regs[t].change
        chances += [p for p, _, _ in moves]
        changes_a += [number_a(one) for _, one, _ in moves]
        changes_t += [number_t(two) for _, _, two in moves]
