"""A fight on its compact model from any moment, decisions still open or not.

The tactics take the open decisions, the dice after them fall every way (or are drawn), and the fight
goes on from each closing on the model, mixed or drawn by their chances. How: docs/mitwirken.md, "Mit
offenen Entscheidungen"."""

from __future__ import annotations

import json
import math
from typing import Any, Hashable

import numpy as np

from ..dice.roll import Roller
from . import duel, faces
from .board import Board
from .chain import Solution, solve
from .fight import Table
from .sample import Batch, Sampler
from .value import Z95, Chance, Forecast, Mean, Tally

#: the most runs of the open decisions' closing tried (each way the dice after them fall takes one)
MAX_WAYS = 64
#: fights played from each closing drawn with real dice, where the ways are too many
PER_CLOSING = 40


class NoModel(Exception):
    """A state the open decisions lead to has no compact model (found while closings are drawn)."""


def board(table: Table, rng: np.random.Generator, state: dict[str, Any] | None = None) -> Board | None:
    """The fight in ``state`` (default: the campaign's) on its ruleset's compact model, or None where
    there is none for it."""
    opening = table.opening(rng, state)
    model = table.tactics.compact(opening.figures, opening.fight.data) if opening is not None else None
    if model is None or not Board.plays(table.tactics, model):
        return None
    return Board(opening, model, table.tactics)


def closed_board(table: Table, rng: np.random.Generator) -> Board | None:
    """The fight with its open resolutions closed on its compact model (``Compact.closings``): a board
    beginning in every state they leave, by its chance; None where the model does not carry them
    (``Compact.carries``, asked first of the model as the state shows it, ``Table.compact``, before the turn
    orders are worked out)."""
    pending = table.open()
    trial = table.compact()
    if trial is None or not trial.carries(pending):
        return None
    found = board(table, rng)
    starts = found.model.closings(pending) if found is not None else None
    return Board(found.opening, found.model, found.tactics, starts) if found is not None and starts else None


def played(b: Board) -> Hashable | None:
    """What the fights on ``b`` hang on (``Compact.played`` and the opening's turn orders and place), or
    None where the model does not say: boards alike in it play the same fights."""
    found = b.model.played()
    return None if found is None else (found, _opening(b))


def kin(b: Board) -> Hashable | None:
    """What the turns on ``b`` hang on besides the starts (``Compact.kin`` and the opening; where turns
    leave the actor as it is, who stands at the start too: a sampler takes such an actor's turn from
    its own start), or None where the model does not say: boards alike in it play on one sampler."""
    found = b.model.kin()
    return None if found is None else (found, _opening(b), b.pair or [b.standing(i, s) for i, s in enumerate(b.start())])


def _opening(b: Board) -> str:
    o = b.opening
    return json.dumps([o.names, o.sides, o.orders, o.together, sorted(o.starts.items()),
                       sorted((o.each_round or {}).items()), o.turn, o.round, o.first, o.fight.zielwahl], default=str)


class Mixture:
    """The parts of a fight from where it stands: (chance, board) of every state its open decisions lead
    to (the fight itself where none is open; one board beginning in each where the model closes them),
    or ``drawn`` where their closings are drawn one by one."""

    def __init__(self, table: Table, rng: np.random.Generator, parts: list[tuple[float, Board]] | None,
                 first: Board) -> None:
        self.table, self.rng, self.parts = table, rng, parts
        self.drawn = parts is None
        self.first = first   # a board of the fight (names, sides, the opening's round)
        self._boards: dict[str, Board | None] = {}
        self._alike: dict[Hashable, Board] = {}   # by ``played``: one board of the closings alike
        #: where drawn: (chance, state, ()) of each way tried, (chance, None, faces chosen) of each left
        self.ways: list[tuple[float, dict[str, Any] | None, tuple[int, ...]]] = []
        self._samplers: dict[int, Sampler] = {}
        self._hosts: dict[Hashable, list[Sampler]] = {}   # by ``kin``: samplers over several starts

    @classmethod
    def of(cls, table: Table, rng: np.random.Generator, most: int | None = None) -> Mixture | None:
        """The fight's parts (closings tried up to ``most`` ways, default ``MAX_WAYS``), or None where
        one has no compact model."""
        if not table.pending():
            found = board(table, rng)
            return cls(table, rng, [(1.0, found)], found) if found is not None else None
        found = closed_board(table, rng)
        if found is not None:
            return cls(table, rng, [(1.0, found)], found)
        closings, left = table.closings(MAX_WAYS if most is None else most)
        if left:   # drawn: the first closing tells whether the model covers them at all
            mixture = cls(table, rng, None, None)  # type: ignore[arg-type]
            mixture.ways = [(p, state, ()) for p, state in closings] + [(p, None, chosen) for chosen, p in left]
            try:
                mixture.first = mixture._board(mixture._closing(rng))
            except NoModel:
                return None
            return mixture
        mixture = cls(table, rng, [], None)  # type: ignore[arg-type]
        merged: dict[int, list] = {}   # closings whose boards play alike as one part
        for p, state in closings:
            try:
                found = mixture._board(state)
            except NoModel:
                return None
            merged.setdefault(id(found), [0.0, found])[0] += p
        mixture.parts = [(p, b) for p, b in merged.values()]
        mixture.first = mixture.parts[0][1]
        return mixture

    def _closing(self, rng: np.random.Generator) -> dict[str, Any]:
        """A closing drawn by its chance: a state the ways tried gave, or a way left untried rolled on
        with real dice (``faces.Then``)."""
        chances = np.array([p for p, _, _ in self.ways])
        _, state, chosen = self.ways[int(rng.choice(len(self.ways), p=chances / chances.sum()))]
        return state if state is not None else self.table.closed(Roller.over(faces.Then(chosen, rng)))

    def _board(self, state: dict[str, Any]) -> Board:
        """The board of the fight from ``state``: one for every state whose boards play alike."""
        key = self.table.key(state)
        if key not in self._boards:
            found = board(self.table, self.rng, state)
            alike = played(found) if found is not None else None
            if alike is not None and alike not in self._alike and self._alike:
                found.model.learn(next(iter(self._alike.values())).model)   # type: ignore[union-attr]
            self._boards[key] = found if alike is None else self._alike.setdefault(alike, found)
        found = self._boards[key]
        if found is None:
            raise NoModel
        return found

    @property
    def closings(self) -> int:
        """How many states the open decisions lead to (where they are not drawn)."""
        return sum(len(b.starts) for _, b in self.parts or ())

    def sampler(self, b: Board) -> Sampler:
        if id(b) not in self._samplers:
            self._samplers[id(b)] = Sampler(b)
        return self._samplers[id(b)]

    def solve(self, max_states: int) -> Solution | None:
        """The exact result mixed over the parts by their chances; None where a part has none (too many
        states) or the closings are drawn."""
        if self.parts is None:
            return None
        solutions = []
        for p, b in self.parts:
            for q, start in b.starts:
                one = b.at(start) if len(b.starts) > 1 else b
                found = duel.solve(one, max_states) if duel.fits(one) else solve(one, max_states)
                if found is None:
                    return None
                solutions.append((p * q, found))
        return mixed(solutions)

    def tally(self, sides: dict[str, str]) -> Tally:
        return Clustered(sides) if self.drawn else Tally(sides)

    def play(self, tally: Tally, k: int, rng: np.random.Generator) -> None:
        """``k`` fights more, counted in ``tally``: each from a part drawn by its chance, or (drawn
        closings) in groups of ``PER_CLOSING`` from one closing each."""
        if self.parts is None:
            assert isinstance(tally, Clustered)
            self._drawn(tally, k, rng)
            return
        often = rng.multinomial(k, [p for p, _ in self.parts]) if len(self.parts) > 1 else [k]
        for (_, b), count in zip(self.parts, often):
            if count:
                tally.add_counts(**self.sampler(b).counts(self.sampler(b).play(int(count), rng)))

    def _drawn(self, tally: Clustered, k: int, rng: np.random.Generator) -> None:
        """``k`` fights in groups of ``PER_CLOSING``, each group from a closing drawn with real dice; the
        groups of closings on boards of kin (``kin``) played at once and counted apart."""
        drawn: dict[Hashable, list[tuple[Board, int]]] = {}
        for size in [PER_CLOSING] * (k // PER_CLOSING) + ([k % PER_CLOSING] if k % PER_CLOSING else []):
            b = self._board(self._closing(rng))
            drawn.setdefault(kin(b) or id(b), []).append((b, size))
        for groups in drawn.values():
            sampler, starts = self._host([b for b, _ in groups])
            batch = sampler.play(sum(size for _, size in groups), rng,
                                 None if starts is None else np.repeat(starts, [size for _, size in groups], axis=0))
            at = 0
            for _, size in groups:
                part = slice(at, at + size)
                tally.add_group(**sampler.counts(Batch(batch.winner[part], batch.rounds[part], batch.states[part])))
                at += size

    def _host(self, boards: list[Board]) -> tuple[Sampler, np.ndarray | None]:
        """A sampler that plays from the start of each of ``boards`` (one board, or boards of kin), and the
        place of each one's start among its board's starts (None: the board's own): one whose board
        begins in them all, else one of a board beginning in each of them."""
        if all(b is boards[0] for b in boards):
            return self.sampler(boards[0]), None
        hosts = self._hosts.setdefault(kin(boards[0]), [])
        for sampler in hosts:
            starts = [s for _, s in sampler.board.starts]
            if all(b.start() in starts for b in boards):
                return sampler, np.array([starts.index(b.start()) for b in boards])
        first, starts = boards[0], list(dict.fromkeys(b.start() for b in boards))
        hosts.append(Sampler(Board(first.opening, first.model, first.tactics, [(1 / len(starts), s) for s in starts])))
        return hosts[-1], np.array([starts.index(b.start()) for b in boards])


def mixed(solutions: list[tuple[float, Solution]]) -> Solution:
    """The exact results of the parts, each weighted by its chance (the chances add up to 1)."""
    if len(solutions) == 1:
        return solutions[0][1]
    first = solutions[0][1]
    win = [sum(p * s.win[i] for p, s in solutions) for i in range(len(first.win))]
    rounds: dict[int, float] = {}
    for p, s in solutions:
        for r, q in s.rounds.items():
            rounds[r] = rounds.get(r, 0.0) + p * q
    falls = [sum(p * s.falls[i] for p, s in solutions) for i in range(len(first.falls))]
    resources = [{k: sum(p * s.resources[i].get(k, 0.0) for p, s in solutions) for k in first.resources[i]}
                 for i in range(len(first.resources))]
    return Solution(win, sum(p * s.draw for p, s in solutions), rounds, falls, resources,
                    sum(s.nodes for _, s in solutions))


class Clustered(Tally):
    """A tally of fights played in groups, each group from one closing drawn with real dice: the
    numbers are the tally's, each interval at least as wide as the spread between the groups says
    (95 %, the groups' means as independent draws)."""

    def __init__(self, sides: dict[str, str]) -> None:
        super().__init__(sides)
        self.groups: list[dict[str, float]] = []   # per group: each number's mean in it

    def add_group(self, n: int, wins: dict, draws: int, rounds: dict, falls: dict, sums: dict) -> None:
        self.add_counts(n, wins, draws, rounds, falls, sums)
        means = {f"win:{side}": wins.get(side, 0) / n for side in self.wins}
        means["draw"] = draws / n
        means |= {f"falls:{name}": falls.get(name, 0) / n for name in self.falls}
        means |= {f"res:{name}:{key}": v / n for name, values in sums.items() for key, (v, _) in values.items()}
        self.groups.append(means)

    def margin(self, key: str) -> float:
        """The half-width of the 95 % interval of the mean of ``key`` over the groups (1 with fewer than
        two groups)."""
        m = len(self.groups)
        if m < 2:
            return 1.0
        values = [g.get(key, 0.0) for g in self.groups]
        mean = sum(values) / m
        return Z95 * math.sqrt(sum((v - mean) ** 2 for v in values) / (m - 1) / m)

    def precision(self) -> float:
        return max([super().precision(), self.margin("draw")] + [self.margin(f"win:{s}") for s in self.wins])

    def forecast(self, encounter: str, start_round: int, **kw: Any) -> Forecast:
        f = super().forecast(encounter, start_round, **kw)

        def wider(c: Chance, key: str) -> Chance:
            m = self.margin(key)
            return Chance(c.p, min(c.low, max(0.0, c.p - m)), max(c.high, min(1.0, c.p + m)))

        f.win = {s: wider(c, f"win:{s}") for s, c in f.win.items()}
        f.draw = wider(f.draw, "draw")
        for name, fig in f.figures.items():
            resources = {k: Mean(m.value, max(m.margin, self.margin(f"res:{name}:{k}")))
                         for k, m in fig.resources.items()}
            f.figures[name] = type(fig)(fig.side, wider(fig.falls, f"falls:{name}"), resources)
        return f
