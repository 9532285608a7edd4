"""Estimated distributions: seeded Monte-Carlo rolls, for showing odds where the exact ones are beyond the budget.

``preview`` gives what a card shows: the exact ``Dist`` when it fits the budget
(``limits.MAX_WORK``), else an ``Estimate``, seeded from the expression's canonical notation
(the same in every run). At most ``SAMPLES`` samples within ``limits.MAX_DRAWS`` rolls; an
expression that would leave fewer than ``MIN_SAMPLES`` is refused.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Mapping

import numpy as np

from ..display import Shown
from ..errors import DiceLimitError
from ..messages import t
from . import limits
from .dialects import hints
from .dist import Dist
from .exact import exact_cached
from .nodes import (ARITHMETIC, COMPARISONS, Call, Chain, Compare, Const, Die, Fate, Label, Neg, Node, Paren, Pool, Set,
                    children, notation)
from .parser import parse

SAMPLES = 20_000       # samples of an estimate at most
MIN_SAMPLES = 1_000    # fewer would not say enough: refused
DENSE = 200_000        # widest range of sampled values an estimate keeps as a Dist of frequencies
_CHUNK = 1 << 20       # dice values simulated at once
_Z95 = 1.959964        # the normal quantile of a two-sided 95 % interval


class Estimate(Shown):
    """A distribution estimated from ``samples`` seeded rolls; never exact, and every rendering says so.

    ``p_at_least(x)`` is the share of rolls with x or more and ``margin(p)``
    the half-width of its 95 % confidence interval; ``dist`` holds the
    sampled frequencies as a ``Dist`` for charts (None when the values
    spread over more than ``DENSE`` integers); ``hints`` are shown below
    the summary (``hinted``).
    """

    __slots__ = ("_below", "_counts", "_values", "dist", "hints", "label", "samples")

    def __init__(self, values: np.ndarray, counts: np.ndarray, label: str) -> None:
        self._values, self._counts = values, counts  # sorted distinct sampled values, how often each came
        self._below = np.concatenate(([0], np.cumsum(counts)))  # samples below each value (and all)
        self.samples = int(self._below[-1])
        self.label = label
        self.hints: tuple[str, ...] = ()
        self.dist: Dist | None = None
        lo, hi = int(values[0]), int(values[-1])
        if hi - lo < DENSE:
            freq = np.zeros(hi - lo + 1)
            freq[values - lo] = counts / self.samples
            self.dist = Dist._owned(lo, freq.tolist())
            self.dist.label = label

    def labelled(self, label: str) -> Estimate:
        """The same estimate under another name."""
        e = Estimate.__new__(Estimate)
        e._values, e._counts, e._below, e.samples, e.label = self._values, self._counts, self._below, self.samples, label
        e.dist = None if self.dist is None else self.dist.labelled(label)
        e.hints = ()
        return e

    def hinted(self, hints: tuple[str, ...]) -> Estimate:
        """A copy showing ``hints`` (those of the expression typed for it, ``dialects.hints``)."""
        e = self.labelled(self.label)
        e.hints = hints
        return e

    @property
    def min(self) -> int:
        return int(self._values[0])

    @property
    def max(self) -> int:
        return int(self._values[-1])

    @property
    def mean(self) -> float:
        return float(np.dot(self._values, self._counts)) / self.samples

    @property
    def sd(self) -> float:
        d = self._values - self.mean
        return math.sqrt(float(np.dot(d * d, self._counts)) / self.samples)

    def p_at_least(self, x: int) -> float:
        """The share of the samples that are ``x`` or more."""
        return (self.samples - int(self._below[np.searchsorted(self._values, x)])) / self.samples

    def margin(self, p: float) -> float:
        """The half-width of the 95 % confidence interval of an estimated share ``p`` (Agresti-Coull)."""
        n = self.samples + _Z95 ** 2
        q = (p * self.samples + _Z95 ** 2 / 2) / n
        return _Z95 * math.sqrt(q * (1.0 - q) / n)

    def histogram(self, bins: int) -> tuple[list[int], list[float]]:
        """At most ``bins`` equal ranges of integers: their first values (and one past the last) and shares."""
        lo, hi = self.min, self.max
        step = -(-(hi - lo + 1) // bins)
        edges = list(range(lo, hi + 1, step)) + [hi + 1]
        idx = np.searchsorted(np.asarray(edges[1:]), self._values, side="right")
        shares = np.bincount(idx, weights=self._counts, minlength=len(edges) - 1) / self.samples
        return edges, shares.tolist()



def preview(expr: str, variables: Mapping[str, object] | None = None) -> Dist | Estimate:
    """The distribution of ``expr``: exact within the budget, else estimated (``DiceLimitError`` if neither).

    It shows the hints of the expression as typed (``dialects.hints``), as a roll's card does.
    """
    node = parse(expr, variables)
    label = expr.strip()
    found, said = shown(node, label), hints(label, node)
    return found.hinted(said) if said else found


def shown(node: Node, label: str) -> Dist | Estimate:
    """The exact distribution of ``node`` if it fits the budget, else its estimate; labelled ``label``."""
    try:
        return exact_cached(node).labelled(label)
    except DiceLimitError:
        return estimate(node).labelled(label)


@lru_cache(maxsize=64)
def estimate(node: Node) -> Estimate:
    """The estimate of ``node``, always the same for the same tree."""
    work = draws(node)
    n = min(SAMPLES, limits.MAX_DRAWS // work)
    if n < MIN_SAMPLES:
        raise DiceLimitError(t("limit.estimate", draws=work, max=limits.MAX_DRAWS // MIN_SAMPLES))
    text = notation(node)
    seed = int.from_bytes(text.encode(), "little")  # the notation itself: numpy's seeding mixes any integer
    values, counts = np.unique(sample(node, np.random.default_rng(seed), n), return_counts=True)
    return Estimate(values, counts, text)


# -- the cost of one sample ------------------------------------------------------

def _rolls(die: Die) -> float:
    """The expected faces one die draws: its rerolls, and the explosions its top face brings."""
    from .parser import _explode_chance
    sel = die.reroll
    p_top = _explode_chance(die) if die.explode else 0.0
    per_roll = 2.0 if sel is not None and die.reroll_once else 1.0
    return per_roll * sum(p_top ** i for i in range((die.explode or 0) + 1))


def draws(node: Node) -> int:
    """The work of one sample (one roll) of ``node``: die faces drawn, plus a step per die kept or counted
    and per node."""
    total = 0.0
    stack = [node]
    while stack:
        node = stack.pop()
        total += 1
        if type(node) is Pool:
            total += sum(g.count * _rolls(g.die) for g in node.groups)
            if node.keep is not None or node.count is not None:
                total += node.size
        elif type(node) is Fate:
            total += node.count
        else:
            stack.extend(children(node))
    return math.ceil(total)


# -- sampling --------------------------------------------------------------------

def sample(node: Node, rng: np.random.Generator, n: int) -> np.ndarray:
    """``n`` independent values of ``node`` (int64)."""
    if type(node) is Pool:
        return _pool(node, rng, n)
    if type(node) is Const:
        return np.full(n, node[0], dtype=np.int64)
    if type(node) is Paren or type(node) is Label:
        return sample(node[0], rng, n)
    if type(node) is Neg:
        return -sample(node[0], rng, n)
    if type(node) is Chain:
        return _chain(node, rng, n)
    if type(node) is Compare:
        held: np.ndarray = COMPARISONS[node.op](sample(node.left, rng, n), sample(node.right, rng, n))
        held = held.astype(np.int64)
        return held
    if type(node) is Fate:
        fate: np.ndarray = rng.integers(-1, 2, size=(n, node.count)).sum(axis=1)
        return fate
    if type(node) is Set:
        return _set(node, rng, n)
    assert type(node) is Call   # the last kind of node
    return _call(node, rng, n)


def _chain(node: Chain, rng: np.random.Generator, n: int) -> np.ndarray:
    """Terms sampled in order and joined left to right, each division rounded as its operator says."""
    ops, terms = node
    acc = sample(terms[0], rng, n)
    for op, term in zip(ops, terms[1:]):
        right = sample(term, rng, n)
        if op in ARITHMETIC:
            acc = ARITHMETIC[op](acc, right)
        elif op == "%" or op == "/":
            acc = acc % right if op == "%" else acc // right
        elif op == "/^":
            acc = -(-acc // right)
        else:  # to the nearest, halves away from zero
            q = (2 * np.abs(acc) + np.abs(right)) // (2 * np.abs(right))
            acc = np.where((acc < 0) == (right < 0), q, -q)
    return acc


def _set(node: Set, rng: np.random.Generator, n: int) -> np.ndarray:
    """The sum of a set's kept items: the highest/lowest few, those ``where`` selects, or all."""
    values = np.stack([sample(i, rng, n) for i in node.items], axis=1)
    if node.keep is not None and node.keep[1] < values.shape[1]:
        k, size = node.keep[1], values.shape[1]
        values = np.sort(values, axis=1)[:, size - k:] if node.keep[0] == "h" else np.sort(values, axis=1)[:, :k]
    elif node.where is not None:
        values = np.where(node.where(values), values, 0)
    total: np.ndarray = values.sum(axis=1)
    return total


def _call(node: Call, rng: np.random.Generator, n: int) -> np.ndarray:
    """``max``/``min`` of the arguments; a rounding function its one argument."""
    if len(node.args) == 1:  # a rounding function
        return sample(node.args[0], rng, n)
    pick = np.maximum if node.name == "max" else np.minimum
    acc = sample(node.args[0], rng, n)
    for arg in node.args[1:]:
        acc = pick(acc, sample(arg, rng, n))
    return acc


def _pool(pool: Pool, rng: np.random.Generator, n: int) -> np.ndarray:
    """A pool's value in ``n`` samples, simulated in chunks of at most ``_CHUNK`` dice."""
    groups, keep, count, _, fail, where = pool
    size = pool.size
    rows = max(1, _CHUNK // size)
    out = np.empty(n, dtype=np.int64)
    for start in range(0, n, rows):
        m = min(rows, n - start)
        dice = np.concatenate([_die(g.die, rng, m * g.count).reshape(m, g.count) for g in groups], axis=1)
        if keep is not None and keep[1] < size:
            k = keep[1]
            dice = np.partition(dice, size - k, axis=1)[:, size - k:] if keep[0] == "h" else \
                np.partition(dice, k - 1, axis=1)[:, :k]
        if where is not None:
            selected = where(dice)
            out[start:start + m] = (count(dice) & selected).sum(axis=1) if count is not None else \
                np.where(selected, dice, 0).sum(axis=1)
        elif count is not None:
            hits = count(dice).sum(axis=1)
            out[start:start + m] = hits - fail(dice).sum(axis=1) if fail is not None else hits
        else:
            out[start:start + m] = dice.sum(axis=1)
    return out


def _die(die: Die, rng: np.random.Generator, n: int) -> np.ndarray:
    """``n`` values of one kind of die: rerolled, then exploding on its top face."""
    values = _faces(die, rng, n)
    if die.explode:
        explodes = (lambda f: f == die.sides) if die.explode_on is None else die.explode_on
        going = np.flatnonzero(explodes(values))  # the dice whose last face explodes
        for _ in range(die.explode):
            if not going.size:
                break
            more = _faces(die, rng, going.size)
            values[going] += more
            going = going[explodes(more)]
    if die.lowest is not None or die.highest is not None:
        values = np.clip(values, die.lowest, die.highest)
    return values


def _faces(die: Die, rng: np.random.Generator, n: int) -> np.ndarray:
    """``n`` faces of one roll of ``die`` each, after its rerolls."""
    sides, sel = die.sides, die.reroll
    if sel is None:
        return rng.integers(1, sides + 1, size=n)
    if die.reroll_once:  # the second result stands
        faces = rng.integers(1, sides + 1, size=n)
        again = np.flatnonzero(sel(faces))
        faces[again] = rng.integers(1, sides + 1, size=again.size)
        return faces
    staying = np.arange(1, sides + 1)
    staying = staying[~sel(staying)]  # rerolling until another face shows: uniform over those
    drawn: np.ndarray = staying[rng.integers(0, staying.size, size=n)]
    return drawn
