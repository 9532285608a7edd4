"""The chi-square test of a die against a fair one: its p-value (the regularized upper incomplete gamma
function, standard library only) against scipy as an independent oracle, and against closed forms."""

import math

import numpy as np
import pytest
from scipy import special, stats

from rpgkernel.dice.chisquare import chi2_sf, fair_die, gammaincc

DFS = [*range(1, 31), 35, 49, 99, 199, 499, 999, 1999, 9999]   # a W2 to a W10000
QUANTILES = [1e-300, 1e-200, 1e-100, 1e-50, 1e-20, 1e-10, 1e-6, 1e-3, 0.01, 0.05, 0.2, 0.5, 0.8, 0.95, 0.99,
             0.999999, 1 - 1e-12]


def _pairs():
    """(statistic, df): where the p-value is each of QUANTILES, just beside it, and at random."""
    rng = np.random.default_rng(20)
    for df in DFS:
        for q in QUANTILES:
            x = float(stats.chi2.isf(q, df))
            yield from ((x, df), (x * (1 + 1e-6), df))
        yield from ((float(x), df) for x in rng.uniform(0, 4 * df + 60, 40))
        yield from ((df + d, df) for d in (-1.5, -1, -0.5, 0.5, 1, 1.5, 2, 3))   # where the method changes


PAIRS = list(_pairs())


def test_the_pairs_cover_every_region():
    assert len(PAIRS) > 2000
    p = [stats.chi2.sf(x, df) for x, df in PAIRS]
    assert min(p) < 1e-250 and max(p) > 1 - 1e-9 and sum(1e-3 < v < 0.999 for v in p) > 1000


@pytest.mark.slow
def test_the_p_value_agrees_with_scipy_to_1e_10():
    worst = max((abs(chi2_sf(x, df) - stats.chi2.sf(x, df)) / stats.chi2.sf(x, df), x, df)
                for x, df in PAIRS if stats.chi2.sf(x, df) > 0)
    assert worst[0] < 1e-10, worst


def test_the_incomplete_gamma_function_agrees_with_scipy_beyond_half_integers():
    rng = np.random.default_rng(21)
    for a in [*rng.uniform(0.05, 30, 200), *rng.uniform(30, 6000, 100)]:
        for x in (a * rng.uniform(0.01, 3), a + rng.uniform(-1, 2), rng.uniform(0, 5)):
            want = special.gammaincc(a, x)
            if want > 1e-300:
                assert gammaincc(a, x) == pytest.approx(want, rel=1e-10, abs=0), (a, x)


@pytest.mark.parametrize("x", [0.0, 1e-9, 0.3, 1.0, 2.0, 7.5, 40.0, 300.0, 1400.0])
def test_closed_forms_of_one_and_two_degrees_of_freedom(x):
    """Two degrees of freedom: exp(-x/2); one: erfc(sqrt(x/2))."""
    assert chi2_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-12, abs=0)
    if x < 1400:   # erfc underflows there
        assert chi2_sf(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-10, abs=0)


def test_a_die_by_hand():
    """A loaded W6, 120 throws: expected 20 each; χ² = (144 + 81 + 49 + 49 + 100 + 2025) / 20."""
    counts = [8, 11, 13, 13, 10, 65]
    test = fair_die(counts)
    assert test.statistic == pytest.approx(2448 / 20, rel=1e-15) and test.df == 5
    want = stats.chisquare(counts)
    assert (test.statistic, test.p) == (pytest.approx(want.statistic, rel=1e-14), pytest.approx(want.pvalue, rel=1e-10))
    fair = fair_die([9, 11, 10, 12, 8, 10])   # (1 + 1 + 0 + 4 + 4 + 0) / 10
    assert fair.statistic == pytest.approx(1.0) and fair.p == pytest.approx(stats.chi2.sf(1.0, 5), rel=1e-12)
    assert fair_die([5, 5, 5, 5]).statistic == 0 and fair_die([5, 5, 5, 5]).p == 1.0


@pytest.mark.parametrize("call", [lambda: fair_die([3]), lambda: fair_die([0, 0, 0]), lambda: chi2_sf(1.0, 0),
                                  lambda: gammaincc(0, 1.0), lambda: gammaincc(1.0, -1)])
def test_what_has_no_test_is_refused(call):
    with pytest.raises(ValueError):
        call()
