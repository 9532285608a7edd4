"""Pearson's chi-square test of a die against a fair one, with its p-value from the standard library.

The p-value of a statistic ``x`` with ``df`` degrees of freedom is the regularized upper
incomplete gamma function ``Q(df/2, x/2)``, computed so that tiny p-values keep their relative
precision.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

_EPS = 1e-16
_TINY = 1e-300
_ITERATIONS = 100_000           # the series and the fraction converge in O(sqrt(a)) steps
_STIRLING_FROM = 20.0            # from here on the series below is exact to double precision
_STIRLING = (1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188)   # lgamma's correction: sum c_k / a**(2k-1)


class ChiSquare(NamedTuple):
    statistic: float
    df: int
    p: float


def fair_die(counts: Sequence[int]) -> ChiSquare:
    """The test of a die whose faces 1..k came up ``counts`` times against a fair one (k >= 2, some throws)."""
    k, n = len(counts), sum(counts)
    if k < 2 or n <= 0:
        raise ValueError("a test needs two faces and at least one throw")
    expected = n / k
    statistic = sum((c - expected) ** 2 for c in counts) / expected
    return ChiSquare(statistic, k - 1, chi2_sf(statistic, k - 1))


def chi2_sf(x: float, df: float) -> float:
    """P(X >= x) for X chi-square distributed with ``df`` degrees of freedom."""
    if df <= 0:
        raise ValueError("df must be positive")
    return gammaincc(df / 2, x / 2) if x > 0 else 1.0


def gammaincc(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x) = Γ(a, x) / Γ(a) (a > 0, x >= 0)."""
    if a <= 0 or x < 0:
        raise ValueError("gammaincc needs a > 0 and x >= 0")
    if x == 0:
        return 1.0
    if x < a + 1:
        return 1.0 - _lower_series(a, x)
    return _upper_fraction(a, x)


def _log_factor(a: float, x: float) -> float:
    """log(x**a e**-x / Γ(a))."""
    if a < _STIRLING_FROM:
        return a * math.log(x) - x - math.lgamma(a)
    t = (x - a) / a
    correction = sum(c / a ** (2 * k + 1) for k, c in enumerate(_STIRLING))
    return 0.5 * math.log(a / (2 * math.pi)) - correction + a * (math.log1p(t) - t)


def _lower_series(a: float, x: float) -> float:
    """P(a, x) = x**a e**-x / Γ(a) · Σ x**n / (a (a+1) … (a+n))."""
    term = total = 1 / a
    ap = a
    for _ in range(_ITERATIONS):
        ap += 1
        term *= x / ap
        total += term
        if abs(term) < abs(total) * _EPS:
            return total * math.exp(_log_factor(a, x))
    raise ArithmeticError(f"the series of P({a}, {x}) did not converge")


def _upper_fraction(a: float, x: float) -> float:
    """Q(a, x) from its continued fraction 1/(x+1-a- 1(1-a)/(x+3-a- 2(2-a)/(x+5-a- …))) (modified Lentz)."""
    b = x + 1 - a
    c = 1 / _TINY
    d = 1 / b
    h = d
    for i in range(1, _ITERATIONS):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < _EPS:
            return h * math.exp(_log_factor(a, x))
    raise ArithmeticError(f"the continued fraction of Q({a}, {x}) did not converge")
