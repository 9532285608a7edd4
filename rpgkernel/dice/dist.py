"""``Dist``: an exact, immutable probability distribution over integers.

Stored densely as an offset and a tuple of float probabilities, accurate to
within 1e-12. Operations between ``Dist``s treat them as independent.
Small distributions (what dice usually give) are combined in plain Python,
which avoids numpy's per-call overhead; large convolutions, products and
queries go through numpy, the largest sums through an FFT. Every operation
that can be large charges its work first (``work.charge``).
"""

from __future__ import annotations

import math
from itertools import accumulate
from typing import Any, Callable, Iterable, Mapping, Sequence, TypeVar

import numpy as np

from ..display import Shown
from ..messages import t
from ..numerals import integer, number
from .work import OUTPUT, charge

_NUMPY_FROM = 256  # cells of a convolution or product (or values of a query) from which numpy is faster
_DIRECT_CELLS = 1 << 26  # cells of a convolution up to which numpy's direct one is preferred: no FFT noise, and
#                         every outcome down to the least likely kept (an FFT cuts ends below its noise)
_DIRECT_PER_STEP = 400  # cells of numpy's direct convolution per step, while the shorter side is in the cache
_CACHED = 10_000  # probabilities of the shorter side up to which it is (beyond, a tenth of the speed)
_FFT_STEPS = 6  # steps per 100 points times log2(points) of an FFT: forward, product or power, back


def convolution_steps(m: int, n: int, gaps: bool = False) -> int:
    """The work of ``convolve`` on m and n probabilities (``gaps``: one of them has zeros inside)."""
    return _plan(m, n, gaps)[0]


def _plan(m: int, n: int, gaps: bool) -> tuple[int, bool]:
    """The work of convolving m and n probabilities, and whether by FFT (when that is cheaper,
    the convolution large, and the outcomes without gaps, where an FFT would put noise)."""
    cells = m * n
    if cells < _NUMPY_FROM:
        return cells, False
    direct = cells // (_DIRECT_PER_STEP if min(m, n) <= _CACHED else _DIRECT_PER_STEP // 10) + OUTPUT * (m + n - 1)
    if gaps or cells <= _DIRECT_CELLS:
        return direct, False
    fft = fft_steps(m + n - 1)
    return (fft, True) if fft < direct else (direct, False)


def fft_steps(size: int) -> int:
    """The work of a convolution (or a power) by FFT giving ``size`` probabilities."""
    points = _fft_length(size)
    return points * points.bit_length() * _FFT_STEPS // 100 + OUTPUT * size


def _fft_length(size: int) -> int:
    return 1 << (size - 1).bit_length()


def _gaps(p: Sequence[float]) -> bool:
    """Whether probabilities (trimmed at both ends) have a zero inside."""
    return 0.0 in p


_T = TypeVar("_T")  # a memoised value (``Dist._memoised``)
_FFT_NOISE = 1e-15  # rounding noise of an FFT's probabilities: smaller ones at the ends become 0


def _from_fft(spectrum: np.ndarray, points: int, size: int) -> list[float]:
    """The first ``size`` probabilities of an inverse FFT: the ends below its rounding noise cut to 0
    (so the outcomes stay without gaps), any noise below 0 inside set to 0."""
    p = np.fft.irfft(spectrum, points)[:size]
    above = np.flatnonzero(p > _FFT_NOISE)
    p[:above[0]] = 0.0
    p[above[-1] + 1:] = 0.0
    kept: list[float] = np.maximum(p, 0.0).tolist()
    return kept


def convolve(a: Sequence[float], b: Sequence[float]) -> list[float]:
    """The probabilities of X + Y for independent X, Y (both starting at 0); uncharged.

    Large convolutions of supports without gaps go through an FFT (exact to
    about 1e-15; a gap would get rounding noise where no outcome is).
    """
    if len(a) * len(b) >= _NUMPY_FROM:
        if _plan(len(a), len(b), _gaps(a) or _gaps(b))[1]:
            size = len(a) + len(b) - 1
            points = _fft_length(size)
            return _from_fft(np.fft.rfft(a, points) * np.fft.rfft(b, points), points, size)
        direct: list[float] = np.convolve(np.asarray(a), np.asarray(b)).tolist()
        return direct
    if len(a) < len(b):
        a, b = b, a
    out = [0.0] * (len(a) + len(b) - 1)
    for j, q in enumerate(b):
        for i, p in enumerate(a, j):
            out[i] += p * q
    return out


class Dist(Shown):
    """A finite distribution over integers.

    Build one with ``rpgkernel.dist("3W6")``, ``Dist.die(6)``, ``Dist.const(2)``
    or ``Dist.from_pmf({1: 0.5, 2: 0.5})``; combine with ``+ - *`` (with ints
    and other ``Dist``s), ``maximum``, ``minimum``, ``clip`` and ``map``.
    """

    __slots__ = ("_offset", "_p", "label", "_memo")  # _memo: derived values (mean, …), or the Dist copied
    hints: tuple[str, ...] = ()  # shown below the summary; only the copy a preview returns has any (``hinted``)
    _offset: int
    _p: tuple[float, ...]
    label: str | None
    _memo: Dist | dict[str, Any] | None

    def __init__(self, offset: int, probs: Iterable[float], label: str | None = None) -> None:
        """From the probabilities of ``offset, offset+1, …``."""
        values = probs.tolist() if isinstance(probs, np.ndarray) else [float(p) for p in probs]
        d = Dist._owned(int(offset), values)
        self._offset, self._p, self.label, self._memo = d._offset, d._p, label, None

    @classmethod
    def _owned(cls, offset: int, probs: list[float] | tuple[float, ...]) -> Dist:
        """A Dist from a fresh list of probabilities from the int ``offset``; zero ends are cut."""
        if not probs[0] or not probs[-1]:
            nz = [i for i, p in enumerate(probs) if p]
            if not nz:
                raise ValueError("empty distribution")
            offset += nz[0]
            probs = probs[nz[0]:nz[-1] + 1]
        d = cls.__new__(cls)
        d._offset, d._p, d.label, d._memo = offset, tuple(probs), None, None
        return d

    @classmethod
    def _shared(cls, offset: int, probs: tuple[float, ...], label: str | None) -> Dist:
        """A Dist on ``probs``, which must be trimmed already."""
        d = cls.__new__(cls)
        d._offset, d._p, d.label, d._memo = offset, probs, label, None
        return d

    # -- construction --------------------------------------------------
    @classmethod
    def die(cls, sides: int) -> Dist:
        """A fair die with faces 1..sides."""
        charge(sides)
        return cls._shared(1, (1.0 / sides,) * sides, f"W{sides}")

    @classmethod
    def const(cls, value: int) -> Dist:
        """The certain outcome ``value``."""
        return cls._shared(int(value), (1.0,), str(value))

    @classmethod
    def from_pmf(cls, pmf: Mapping[int, float]) -> Dist:
        """From a mapping outcome -> probability (normalised)."""
        keys = [int(k) for k, v in pmf.items() if v > 0]
        if not keys:
            raise ValueError("empty distribution")
        lo, hi = min(keys), max(keys)
        charge(OUTPUT * (hi - lo + 1) + len(pmf))
        p = [0.0] * (hi - lo + 1)
        for k, v in pmf.items():
            if v > 0:
                p[int(k) - lo] += float(v)
        total = math.fsum(p)
        return cls._owned(lo, [x / total for x in p])

    def labelled(self, label: str) -> Dist:
        """The same distribution under another name (for display)."""
        d = Dist.__new__(Dist)  # as _shared does, inlined (hot path)
        memo = self._memo  # the derived values are the same: kept by the first of the copies
        d._offset, d._p, d.label, d._memo = self._offset, self._p, label, memo if type(memo) is Dist else self
        return d

    def hinted(self, hints: tuple[str, ...]) -> Dist:
        """A copy showing ``hints`` (those of the expression typed for it, ``dialects.hints``)."""
        d = _Hinted.__new__(_Hinted)
        memo = self._memo  # as labelled does: the derived values stay with the first of the copies
        d._offset, d._p, d.label, d._memo = self._offset, self._p, self.label, memo if type(memo) is Dist else self
        d.hints = hints
        return d

    # -- queries -------------------------------------------------------
    @property
    def offset(self) -> int:
        """The smallest outcome."""
        return self._offset

    @property
    def probabilities(self) -> np.ndarray:
        """Read-only array of the probabilities of ``offset, offset+1, …, max``."""
        return self._memoised("array", self._array)

    def _array(self) -> np.ndarray:
        p = np.array(self._p)
        p.flags.writeable = False
        return p

    @property
    def survival(self) -> np.ndarray:
        """Read-only array of P(X >= offset + i) for each index i (the running sums from the top)."""
        return self._memoised("survival", self._survival)

    def _survival(self) -> np.ndarray:
        ge: np.ndarray = np.minimum(np.cumsum(self.probabilities[::-1]), 1.0)[::-1]
        ge.flags.writeable = False
        return ge

    def _memoised(self, key: str, compute: Callable[[], _T]) -> _T:
        """``compute()``, kept for the next call (a Dist never changes; a labelled copy asks its original)."""
        memo = self._memo
        if memo is None:
            memo = self._memo = {}
        elif not isinstance(memo, dict):
            return memo._memoised(key, compute)
        if key not in memo:
            memo[key] = compute()
        found: _T = memo[key]
        return found

    @property
    def min(self) -> int:
        return self._offset

    @property
    def max(self) -> int:
        return self._offset + len(self._p) - 1

    @property
    def support(self) -> tuple[int, ...]:
        """The outcomes with non-zero probability, ascending."""
        return tuple(i for i, p in enumerate(self._p, self._offset) if p)

    def pmf(self) -> dict[int, float]:
        """Outcome -> probability, for every outcome in the support."""
        return {i: p for i, p in enumerate(self._p, self._offset) if p}

    @property
    def mean(self) -> float:
        return self._memoised("mean", self._mean)

    def _mean(self) -> float:
        if len(self._p) >= _NUMPY_FROM:  # the same products, summed exactly the same way
            return math.fsum((self._values() * self.probabilities).tolist())
        return math.fsum(i * p for i, p in enumerate(self._p, self._offset))

    @property
    def var(self) -> float:
        return self._memoised("var", self._var)

    def _var(self) -> float:
        m = self.mean
        if len(self._p) >= _NUMPY_FROM:
            return math.fsum(((self._values() - m) ** 2 * self.probabilities).tolist())
        return math.fsum((i - m) ** 2 * p for i, p in enumerate(self._p, self._offset))

    def _values(self) -> np.ndarray:
        """The outcomes ``offset, …, max`` as floats."""
        return np.arange(len(self._p), dtype=float) + float(self._offset)

    @property
    def sd(self) -> float:
        return math.sqrt(self.var)

    def summary(self) -> str:
        """One German line: the expression, its range, mean and standard deviation."""
        return t("dist.summary", expr=self.label or t("dist.unnamed"), low=integer(self.min), high=integer(self.max),
                 mean=number(self.mean), sd=number(self.sd))

    def p_exactly(self, x: int) -> float:
        i = x - self._offset
        return self._p[i] if 0 <= i < len(self._p) else 0.0

    def p_at_least(self, x: int) -> float:
        i = max(0, math.ceil(x) - self._offset)
        return min(1.0, math.fsum(self._p[i:]))

    def p_at_most(self, x: int) -> float:
        i = math.floor(x) - self._offset
        return min(1.0, math.fsum(self._p[:i + 1])) if i >= 0 else 0.0

    def p_greater(self, x: int) -> float:
        return self.p_at_least(math.floor(x) + 1)

    def p_less(self, x: int) -> float:
        return self.p_at_most(math.ceil(x) - 1)

    def cdf(self) -> list[float]:
        """P(X <= offset + i) for each index i."""
        if len(self._p) >= _NUMPY_FROM:  # a running sum in the same order, as accumulate does
            below: list[float] = np.minimum(np.cumsum(self.probabilities), 1.0).tolist()
            return below
        return [min(c, 1.0) for c in accumulate(self._p)]

    def sf(self) -> list[float]:
        """P(X >= offset + i) for each index i."""
        if len(self._p) >= _NUMPY_FROM:
            above: list[float] = self.survival.tolist()
            return above
        return [min(c, 1.0) for c in accumulate(self._p[::-1])][::-1]

    # -- arithmetic ----------------------------------------------------
    def __add__(self, other: Dist | int) -> Dist:
        if isinstance(other, (int, np.integer)):  # a shift
            d = Dist.__new__(Dist)  # as _shared does, inlined (hot path)
            d._offset, d._p, d.label, d._memo = self._offset + int(other), self._p, None, None
            return d
        if not isinstance(other, Dist):
            return NotImplemented
        if len(other._p) == 1:
            return Dist._shared(self._offset + other._offset, self._p, None)
        if len(self._p) == 1:
            return Dist._shared(self._offset + other._offset, other._p, None)
        charge(convolution_steps(len(self._p), len(other._p), _gaps(self._p) or _gaps(other._p)))
        return Dist._owned(self._offset + other._offset, convolve(self._p, other._p))

    __radd__ = __add__

    def __neg__(self) -> Dist:
        return Dist._shared(-self.max, self._p[::-1], None)

    def __sub__(self, other: Dist | int) -> Dist:
        if isinstance(other, (int, np.integer)):  # a shift
            d = Dist.__new__(Dist)  # as _shared does, inlined (hot path)
            d._offset, d._p, d.label, d._memo = self._offset - int(other), self._p, None, None
            return d
        if isinstance(other, Dist):
            return self + (-other)
        return NotImplemented

    def __rsub__(self, other: int) -> Dist:
        return (-self) + other

    def __mul__(self, other: Dist | int) -> Dist:
        if isinstance(other, (int, np.integer)):
            return self.scale(int(other))
        if not isinstance(other, Dist):
            return NotImplemented
        if len(other._p) == 1:
            return self.scale(other._offset)
        if len(self._p) == 1:
            return other.scale(self._offset)
        cells = len(self._p) * len(other._p)
        if cells < _NUMPY_FROM:
            charge(3 * cells)
            out: dict[int, float] = {}
            for i, p in enumerate(self._p, self._offset):
                for j, q in enumerate(other._p, other._offset):
                    out[i * j] = out.get(i * j, 0.0) + p * q
            lo, hi = min(out), max(out)
            probs = [0.0] * (hi - lo + 1)
            for v, p in out.items():
                probs[v - lo] = p
            return Dist._owned(lo, probs)
        corners = [x * y for x in (self.min, self.max) for y in (other.min, other.max)]
        charge(cells // 2 + OUTPUT * (max(corners) - min(corners) + 1))
        a = np.arange(self._offset, self.max + 1)
        b = np.arange(other._offset, other.max + 1)
        prod = np.multiply.outer(a, b).ravel()
        lo = int(prod.min())
        weights = np.multiply.outer(np.asarray(self._p), np.asarray(other._p)).ravel()
        return Dist._owned(lo, np.bincount(prod - lo, weights=weights).tolist())

    __rmul__ = __mul__

    def scale(self, c: int) -> Dist:
        """The distribution of c·X."""
        if c == 0:
            return Dist.const(0)
        if c < 0:
            return (-self).scale(-c)
        charge(OUTPUT * ((len(self._p) - 1) * c + 1))
        p = [0.0] * ((len(self._p) - 1) * c + 1)
        p[::c] = self._p
        return Dist._owned(self._offset * c, p)

    def repeat_sum(self, n: int) -> Dist:
        """The sum of n independent copies: a convolution power by squaring, or (when that costs
        more, and the outcomes have no gap) one FFT raised to the n-th power.

        The work of every convolution on the way is charged before the first.
        """
        if n < 1:
            raise ValueError("n must be positive")
        width, steps, left = len(self._p) - 1, 0, n
        gaps = _gaps(self._p)
        base, done = width, None  # the widths (outcomes - 1) of the square and of the result so far
        while left:
            if left & 1:
                if done is not None:
                    steps += convolution_steps(done + 1, base + 1, gaps)
                done = base if done is None else done + base
            left >>= 1
            if left:
                steps += convolution_steps(base + 1, base + 1, gaps)
                base *= 2
        size = n * width + 1
        if not gaps and size * size > _DIRECT_CELLS and fft_steps(size) < steps:
            charge(fft_steps(size))
            points = _fft_length(size)
            return Dist._owned(self._offset * n, _from_fft(np.fft.rfft(self._p, points) ** n, points, size))
        charge(steps)
        result: Dist | None = None
        square: Dist = self
        while n:
            if n & 1:
                result = square if result is None else result._plus(square)
            n >>= 1
            if n:
                square = square._plus(square)
        assert result is not None
        return result

    def _plus(self, other: Dist) -> Dist:
        """``self + other`` for two Dists whose work is charged already."""
        return Dist._owned(self._offset + other._offset, convolve(self._p, other._p))

    def _aligned(self, other: Dist) -> tuple[int, list[float], list[float]]:
        lo, hi = min(self.min, other.min), max(self.max, other.max)
        charge(8 * (hi - lo + 1))
        a = [0.0] * (self.min - lo) + list(self._p) + [0.0] * (hi - self.max)
        b = [0.0] * (other.min - lo) + list(other._p) + [0.0] * (hi - other.max)
        return lo, a, b

    def maximum(self, other: Dist | int) -> Dist:
        """The distribution of max(X, Y) for independent X, Y."""
        return self._extreme(other, highest=True)

    def minimum(self, other: Dist | int) -> Dist:
        """The distribution of min(X, Y) for independent X, Y."""
        return self._extreme(other, highest=False)

    def _extreme(self, other: Dist | int, highest: bool) -> Dist:
        if not isinstance(other, Dist):
            other = Dist.const(int(other))
        if len(self._p) == 1 < len(other._p):
            self, other = other, self
        if len(other._p) == 1:
            return self.clip(lower=other._offset) if highest else self.clip(upper=other._offset)
        lo, a, b = self._aligned(other)
        if not highest:
            a.reverse()
            b.reverse()
        joint = [min(x, 1.0) * min(y, 1.0) for x, y in zip(accumulate(a), accumulate(b))]
        pmf = [joint[0]] + [y - x for x, y in zip(joint, joint[1:])]
        if not highest:
            pmf.reverse()
        return Dist._owned(lo, pmf)

    def clip(self, lower: int | None = None, upper: int | None = None) -> Dist:
        """Outcomes below ``lower`` become ``lower``, above ``upper`` become ``upper``."""
        first, last = self._offset, self._offset + len(self._p) - 1
        lo = first if lower is None or lower < first else lower
        hi = last if upper is None or upper > last else upper
        if lo > hi:  # the bounds cross outside the support: everything lands on one bound
            bound = lower if lower is not None and lower > last else upper
            assert bound is not None   # a bound set crossed the support
            return Dist.const(bound)
        if lo == first and hi == last:
            return self
        i, j = lo - first, hi - first
        charge(len(self._p))
        p = list(self._p[i:j + 1])
        if i:
            p[0] += math.fsum(self._p[:i])
        if hi < last:
            p[-1] += math.fsum(self._p[j + 1:])
        return Dist._owned(lo, p)

    def map(self, f: Callable[[int], int]) -> Dist:
        """The distribution of f(X)."""
        charge(4 * len(self._p))
        out: dict[int, float] = {}
        for v, p in self.pmf().items():
            w = int(f(v))
            out[w] = out.get(w, 0.0) + p
        return Dist.from_pmf(out)

    def combine(self, other: Dist, f: Callable[[int, int], int]) -> Dist:
        """The distribution of f(X, Y) for independent X (this) and Y (``other``)."""
        charge(4 * len(self._p) * len(other._p))
        out: dict[int, float] = {}
        for v, p in self.pmf().items():
            for w, q in other.pmf().items():
                x = int(f(v, w))
                out[x] = out.get(x, 0.0) + p * q
        return Dist.from_pmf(out)

    def isclose(self, other: Dist, tol: float = 1e-12) -> bool:
        """Whether both give every outcome the same probability within ``tol``."""
        _, a, b = self._aligned(other)
        return all(abs(x - y) <= tol for x, y in zip(a, b))


class _Hinted(Dist):
    """A Dist with hints to show (``Dist.hinted``); every other Dist has none, at no cost to build."""

    __slots__ = ("hints",)
