"""``Dist``: an exact, immutable probability distribution over integers.

Stored densely as an offset and a tuple of float probabilities, accurate to
within 1e-12. Operations between ``Dist``s treat them as independent.
Small distributions (what dice usually give) are combined in plain Python,
which avoids numpy's per-call overhead; large convolutions and products go
through numpy.
"""

from __future__ import annotations

import math
from itertools import accumulate
from typing import Callable, Iterable, Mapping, Sequence

import numpy as np

from ..errors import DiceLimitError
from ..messages import t
from . import limits

_NUMPY_FROM = 256  # cells of a convolution or product from which numpy is faster


def _check_size(size: int) -> None:
    if size > limits.MAX_STATES:
        raise DiceLimitError(t("limit.exact", size=size, max=limits.MAX_STATES))


def convolve(a: Sequence[float], b: Sequence[float]) -> list[float]:
    """The probabilities of X + Y for independent X, Y (both starting at 0)."""
    if len(a) * len(b) >= _NUMPY_FROM:
        return np.convolve(np.asarray(a), np.asarray(b)).tolist()
    if len(a) < len(b):
        a, b = b, a
    out = [0.0] * (len(a) + len(b) - 1)
    for j, q in enumerate(b):
        for i, p in enumerate(a, j):
            out[i] += p * q
    return out


class Dist:
    """A finite distribution over integers.

    Build one with ``rpgkernel.dist("3W6")``, ``Dist.die(6)``, ``Dist.const(2)``
    or ``Dist.from_pmf({1: 0.5, 2: 0.5})``; combine with ``+ - *`` (with ints
    and other ``Dist``s), ``maximum``, ``minimum``, ``clip`` and ``map``.
    """

    __slots__ = ("_offset", "_p", "label")

    def __init__(self, offset: int, probs: Iterable[float], label: str | None = None) -> None:
        """From the probabilities of ``offset, offset+1, …``."""
        values = probs.tolist() if isinstance(probs, np.ndarray) else [float(p) for p in probs]
        d = Dist._owned(int(offset), values)
        self._offset, self._p, self.label = d._offset, d._p, label

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
        d._offset, d._p, d.label = offset, tuple(probs), None
        return d

    @classmethod
    def _shared(cls, offset: int, probs: tuple[float, ...], label: str | None) -> Dist:
        """A Dist on ``probs``, which must be trimmed already."""
        d = cls.__new__(cls)
        d._offset, d._p, d.label = offset, probs, label
        return d

    # -- construction --------------------------------------------------
    @classmethod
    def die(cls, sides: int) -> Dist:
        """A fair die with faces 1..sides."""
        _check_size(sides)
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
        _check_size(hi - lo + 1)
        p = [0.0] * (hi - lo + 1)
        for k, v in pmf.items():
            if v > 0:
                p[int(k) - lo] += float(v)
        total = math.fsum(p)
        return cls._owned(lo, [x / total for x in p])

    def labelled(self, label: str) -> Dist:
        """The same distribution under another name (for display)."""
        d = Dist.__new__(Dist)  # as _shared does, inlined (hot path)
        d._offset, d._p, d.label = self._offset, self._p, label
        return d

    # -- queries -------------------------------------------------------
    @property
    def offset(self) -> int:
        """The smallest outcome."""
        return self._offset

    @property
    def probabilities(self) -> np.ndarray:
        """Read-only array of the probabilities of ``offset, offset+1, …, max``."""
        p = np.array(self._p)
        p.flags.writeable = False
        return p

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
        return math.fsum(i * p for i, p in enumerate(self._p, self._offset))

    @property
    def var(self) -> float:
        m = self.mean
        return math.fsum((i - m) ** 2 * p for i, p in enumerate(self._p, self._offset))

    @property
    def sd(self) -> float:
        return math.sqrt(self.var)

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
        return [min(c, 1.0) for c in accumulate(self._p)]

    def sf(self) -> list[float]:
        """P(X >= offset + i) for each index i."""
        return [min(c, 1.0) for c in accumulate(self._p[::-1])][::-1]

    # -- arithmetic ----------------------------------------------------
    def __add__(self, other: Dist | int) -> Dist:
        if isinstance(other, (int, np.integer)):  # a shift
            d = Dist.__new__(Dist)  # as _shared does, inlined (hot path)
            d._offset, d._p, d.label = self._offset + int(other), self._p, None
            return d
        if not isinstance(other, Dist):
            return NotImplemented
        if len(other._p) == 1:
            return Dist._shared(self._offset + other._offset, self._p, None)
        if len(self._p) == 1:
            return Dist._shared(self._offset + other._offset, other._p, None)
        _check_size(len(self._p) * len(other._p))
        return Dist._owned(self._offset + other._offset, convolve(self._p, other._p))

    __radd__ = __add__

    def __neg__(self) -> Dist:
        return Dist._shared(-self.max, self._p[::-1], None)

    def __sub__(self, other: Dist | int) -> Dist:
        if isinstance(other, (int, np.integer)):  # a shift
            d = Dist.__new__(Dist)  # as _shared does, inlined (hot path)
            d._offset, d._p, d.label = self._offset - int(other), self._p, None
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
        _check_size(cells)
        if cells < _NUMPY_FROM:
            out: dict[int, float] = {}
            for i, p in enumerate(self._p, self._offset):
                for j, q in enumerate(other._p, other._offset):
                    out[i * j] = out.get(i * j, 0.0) + p * q
            lo, hi = min(out), max(out)
            probs = [0.0] * (hi - lo + 1)
            for v, p in out.items():
                probs[v - lo] = p
            return Dist._owned(lo, probs)
        a = np.arange(self._offset, self.max + 1)
        b = np.arange(other._offset, other.max + 1)
        prod = np.multiply.outer(a, b).ravel()
        lo = int(prod.min())
        _check_size(int(prod.max()) - lo + 1)
        weights = np.multiply.outer(np.asarray(self._p), np.asarray(other._p)).ravel()
        return Dist._owned(lo, np.bincount(prod - lo, weights=weights).tolist())

    __rmul__ = __mul__

    def scale(self, c: int) -> Dist:
        """The distribution of c·X."""
        if c == 0:
            return Dist.const(0)
        if c < 0:
            return (-self).scale(-c)
        _check_size((len(self._p) - 1) * c + 1)
        p = [0.0] * ((len(self._p) - 1) * c + 1)
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

    def _aligned(self, other: Dist) -> tuple[int, list[float], list[float]]:
        lo, hi = min(self.min, other.min), max(self.max, other.max)
        _check_size(hi - lo + 1)
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
            return Dist.const(lower if lower is not None and lower > last else upper)
        if lo == first and hi == last:
            return self
        i, j = lo - first, hi - first
        p = list(self._p[i:j + 1])
        if i:
            p[0] += math.fsum(self._p[:i])
        if hi < last:
            p[-1] += math.fsum(self._p[j + 1:])
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
        _, a, b = self._aligned(other)
        return all(abs(x - y) <= tol for x, y in zip(a, b))

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
