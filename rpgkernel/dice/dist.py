"""``Dist``: an exact, immutable probability distribution over integers.

Stored densely as an offset and a float64 array of probabilities, accurate
to within 1e-12. Operations between ``Dist``s treat them as independent.
"""

from __future__ import annotations

import math
from typing import Callable, Iterable, Mapping

import numpy as np

from ..errors import DiceLimitError
from ..messages import t
from . import limits


_CERTAIN = np.ones(1)
_CERTAIN.flags.writeable = False


def _check_size(size: int) -> None:
    if size > limits.MAX_STATES:
        raise DiceLimitError(t("limit.exact", size=size, max=limits.MAX_STATES))


class Dist:
    """A finite distribution over integers.

    Build one with ``rpgkernel.dist("3W6")``, ``Dist.die(6)``, ``Dist.const(2)``
    or ``Dist.from_pmf({1: 0.5, 2: 0.5})``; combine with ``+ - *`` (with ints
    and other ``Dist``s), ``maximum``, ``minimum``, ``clip`` and ``map``.
    """

    __slots__ = ("_offset", "_p", "label")

    def __init__(self, offset: int, probs: np.ndarray, label: str | None = None) -> None:
        """From the probabilities of ``offset, offset+1, …``; the array is copied."""
        d = Dist._owned(offset, np.array(probs, dtype=np.float64))
        self._offset, self._p, self.label = d._offset, d._p, label

    @classmethod
    def _owned(cls, offset: int, probs: np.ndarray) -> Dist:
        """A Dist taking over ``probs`` (a fresh 1-d float64 array nobody else holds)."""
        if probs.ndim != 1 or not len(probs) or not probs[0] or not probs[-1]:
            nz = np.flatnonzero(probs)
            if len(nz) == 0:
                raise ValueError("empty distribution")
            offset += int(nz[0])
            probs = probs[nz[0]:nz[-1] + 1]
        probs.flags.writeable = False
        return cls._shared(int(offset), probs, None)

    # -- construction --------------------------------------------------
    @classmethod
    def die(cls, sides: int) -> Dist:
        """A fair die with faces 1..sides."""
        _check_size(sides)
        return cls(1, np.full(sides, 1.0 / sides), f"W{sides}")

    @classmethod
    def const(cls, value: int) -> Dist:
        """The certain outcome ``value``."""
        return cls._shared(int(value), _CERTAIN, str(value))

    @classmethod
    def from_pmf(cls, pmf: Mapping[int, float]) -> Dist:
        """From a mapping outcome -> probability (normalised)."""
        keys = [int(k) for k, v in pmf.items() if v > 0]
        if not keys:
            raise ValueError("empty distribution")
        lo, hi = min(keys), max(keys)
        _check_size(hi - lo + 1)
        p = np.zeros(hi - lo + 1)
        for k, v in pmf.items():
            p[int(k) - lo] += float(v)
        return cls(lo, p / p.sum())

    @classmethod
    def _shared(cls, offset: int, probs: np.ndarray, label: str | None) -> Dist:
        """A Dist sharing ``probs``, which must be read-only and trimmed already."""
        d = cls.__new__(cls)
        d._offset, d._p, d.label = offset, probs, label
        return d

    def labelled(self, label: str) -> Dist:
        """The same distribution under another name (for display)."""
        return Dist._shared(self._offset, self._p, label)

    # -- queries -------------------------------------------------------
    @property
    def offset(self) -> int:
        """The smallest outcome."""
        return self._offset

    @property
    def probabilities(self) -> np.ndarray:
        """Read-only probabilities of ``offset, offset+1, …, max``."""
        return self._p

    @property
    def min(self) -> int:
        return self._offset

    @property
    def max(self) -> int:
        return self._offset + len(self._p) - 1

    @property
    def support(self) -> tuple[int, ...]:
        """The outcomes with non-zero probability, ascending."""
        return tuple(int(i) + self._offset for i in np.flatnonzero(self._p))

    def pmf(self) -> dict[int, float]:
        """Outcome -> probability, for every outcome in the support."""
        return {int(i) + self._offset: float(self._p[i]) for i in np.flatnonzero(self._p)}

    @property
    def mean(self) -> float:
        return float(np.dot(self._values(), self._p))

    @property
    def var(self) -> float:
        d = self._values() - self.mean
        return float(np.dot(d * d, self._p))

    @property
    def sd(self) -> float:
        return math.sqrt(self.var)

    def p_exactly(self, x: int) -> float:
        i = x - self._offset
        return float(self._p[i]) if 0 <= i < len(self._p) else 0.0

    def p_at_least(self, x: int) -> float:
        i = max(0, math.ceil(x) - self._offset)
        return float(min(1.0, self._p[i:].sum())) if i < len(self._p) else 0.0

    def p_at_most(self, x: int) -> float:
        i = math.floor(x) - self._offset
        return float(min(1.0, self._p[:i + 1].sum())) if i >= 0 else 0.0

    def p_greater(self, x: int) -> float:
        return self.p_at_least(math.floor(x) + 1)

    def p_less(self, x: int) -> float:
        return self.p_at_most(math.ceil(x) - 1)

    def cdf(self) -> np.ndarray:
        """P(X <= offset + i) for each index i."""
        return np.minimum(np.cumsum(self._p), 1.0)

    def _values(self) -> np.ndarray:
        return np.arange(self._offset, self._offset + len(self._p), dtype=np.float64)

    # -- arithmetic ----------------------------------------------------
    def __add__(self, other: Dist | int) -> Dist:
        if isinstance(other, Dist):
            if len(other._p) == 1:
                return Dist._shared(self._offset + other._offset, self._p, None)
            if len(self._p) == 1:
                return Dist._shared(self._offset + other._offset, other._p, None)
            _check_size(len(self._p) * len(other._p))
            return Dist._owned(self._offset + other._offset, np.convolve(self._p, other._p))
        if isinstance(other, (int, np.integer)):
            return Dist._shared(self._offset + int(other), self._p, None)
        return NotImplemented

    __radd__ = __add__

    def __neg__(self) -> Dist:
        if len(self._p) == 1:
            return Dist._shared(-self._offset, self._p, None)
        flipped = self._p[::-1].copy()
        flipped.flags.writeable = False
        return Dist._shared(-self.max, flipped, None)

    def __sub__(self, other: Dist | int) -> Dist:
        if isinstance(other, (int, np.integer)):
            return self + (-int(other))
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
        _check_size(len(self._p) * len(other._p))
        prod = np.multiply.outer(self._values(), other._values()).ravel().astype(np.int64)
        lo = int(prod.min())
        _check_size(int(prod.max()) - lo + 1)
        weights = np.multiply.outer(self._p, other._p).ravel()
        return Dist._owned(lo, np.bincount(prod - lo, weights=weights))

    __rmul__ = __mul__

    def scale(self, c: int) -> Dist:
        """The distribution of c·X."""
        if c == 0:
            return Dist.const(0)
        if c < 0:
            return (-self).scale(-c)
        _check_size((len(self._p) - 1) * c + 1)
        p = np.zeros((len(self._p) - 1) * c + 1)
        p[::c] = self._p
        return Dist._owned(self._offset * c, p)

    def repeat_sum(self, n: int) -> Dist:
        """The sum of n independent copies (convolution power by squaring)."""
        if n < 1:
            raise ValueError("n must be positive")
        _check_size(n * (len(self._p) - 1) + 1)
        result: Dist | None = None
        base: Dist = self
        while n:
            if n & 1:
                result = base if result is None else result + base
            n >>= 1
            if n:
                base = base + base
        assert result is not None
        return result

    def _aligned(self, other: Dist) -> tuple[int, np.ndarray, np.ndarray]:
        lo, hi = min(self.min, other.min), max(self.max, other.max)
        _check_size(hi - lo + 1)
        a = np.zeros(hi - lo + 1)
        b = np.zeros(hi - lo + 1)
        a[self.min - lo:self.max - lo + 1] = self._p
        b[other.min - lo:other.max - lo + 1] = other._p
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
        if highest:
            cdf = np.minimum(np.cumsum(a), 1.0) * np.minimum(np.cumsum(b), 1.0)
            return Dist._owned(lo, np.diff(cdf, prepend=0.0))
        sf = np.minimum(np.cumsum(a[::-1]), 1.0) * np.minimum(np.cumsum(b[::-1]), 1.0)
        return Dist._owned(lo, np.diff(sf, prepend=0.0)[::-1].copy())

    def clip(self, lower: int | None = None, upper: int | None = None) -> Dist:
        """Outcomes below ``lower`` become ``lower``, above ``upper`` become ``upper``."""
        lo = self.min if lower is None else max(lower, self.min)
        hi = self.max if upper is None else min(upper, self.max)
        if lo > hi:  # the bounds cross outside the support: everything lands on one bound
            return Dist.const(lower if lower is not None and lower > self.max else upper)
        if lo == self.min and hi == self.max:
            return self
        p = self._p[lo - self._offset:hi - self._offset + 1].copy()
        p[0] += self._p[:lo - self._offset].sum()
        p[-1] += self._p[hi - self._offset + 1:].sum()
        return Dist._owned(lo, p)

    def map(self, f: Callable[[int], int]) -> Dist:
        """The distribution of f(X)."""
        out: dict[int, float] = {}
        for v, p in self.pmf().items():
            w = int(f(v))
            out[w] = out.get(w, 0.0) + p
        return Dist.from_pmf(out)

    def isclose(self, other: Dist, tol: float = 1e-12) -> bool:
        """Whether both give every outcome the same probability within ``tol``."""
        lo, a, b = self._aligned(other)
        return bool(np.all(np.abs(a - b) <= tol))

    # -- display -------------------------------------------------------
    def __repr__(self) -> str:
        from ..render import dist_text
        return dist_text(self)

    def _repr_mimebundle_(self, include: Iterable[str] | None = None,
                          exclude: Iterable[str] | None = None) -> dict[str, str]:
        from ..render import dist_html, dist_text
        return {"text/plain": dist_text(self), "text/html": dist_html(self)}

    def _repr_html_(self) -> str:
        from ..render import dist_html
        return dist_html(self)
