"""Sums of many dice: exact (to 1e-12) by convolution, by FFT where that is cheaper, and interruptible."""

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import rpgkernel
from rpgkernel.dice import Estimate, clear_caches, preview
from rpgkernel.dice.dist import Dist

TOL = 1e-12


def direct_power(p: np.ndarray, n: int) -> np.ndarray:
    """The n-fold convolution by squaring with numpy's direct convolution (no FFT)."""
    result, square = np.array([1.0]), p
    while n:
        if n & 1:
            result = np.convolve(result, square)
        n >>= 1
        if n:
            square = np.convolve(square, square)
    return result


def assert_close(d: Dist, offset: int, expected: np.ndarray) -> None:
    got = np.zeros(len(expected))
    got[d.min - offset:d.max - offset + 1] = d.probabilities
    assert d.min >= offset and d.max <= offset + len(expected) - 1
    assert np.abs(got - expected).max() <= TOL


@pytest.mark.parametrize("n, sides", [(1000, 6), (100, 100), (150, 100), (20, 1000), (1000, 20)])
def test_large_sums_against_direct_convolution(n, sides):
    clear_caches()
    assert_close(rpgkernel.dist(f"{n}W{sides}"), n, direct_power(np.full(sides, 1.0 / sides), n))


def test_a_large_sum_against_exact_counts():
    """300W6 by FFT against its counts of outcomes, the coefficients of (x + … + x^6)^300 in integers."""
    n, sides, bits = 300, 6, 800
    packed = sum(1 << (bits * i) for i in range(sides)) ** n
    counts = [(packed >> (bits * i)) & ((1 << bits) - 1) for i in range(n * (sides - 1) + 1)]
    ours = rpgkernel.dist(f"{n}W{sides}")
    assert max(abs(ours.p_exactly(n + i) - c / sides ** n) for i, c in enumerate(counts)) <= TOL


def test_sums_of_two_large_distributions():
    a, b = rpgkernel.dist("100W100"), rpgkernel.dist("80W99")
    expected = np.convolve(a.probabilities, b.probabilities)
    assert_close(a + b, a.min + b.min, expected)


def test_a_sum_with_gaps_gets_no_rounding_noise_between_its_outcomes():
    """An FFT would put noise of about 1e-17 on the impossible sums; such a sum is convolved directly."""
    tens = Dist.from_pmf({0: 0.5, 10: 0.3, 20: 0.2}).repeat_sum(300)
    assert all(v % 10 == 0 for v in tens.support)
    assert_close(tens, 0, direct_power(np.array([0.5] + [0.0] * 9 + [0.3] + [0.0] * 9 + [0.2]), 300))


@pytest.mark.parametrize("expr", ["500W100", "200W1000", "20W10000", "500W100+500W99"])
def test_large_sums_are_exact_rather_than_refused(expr):
    """Their cost (an FFT) is what the estimate counts; the direct convolution's was refused."""
    clear_caches()
    assert not isinstance(preview(expr), Estimate)


def test_an_interrupt_during_a_large_sum_surfaces_and_leaves_the_engine_whole():
    code = textwrap.dedent("""
        import signal
        import rpgkernel
        from rpgkernel.dice import clear_caches
        signal.signal(signal.SIGALRM, lambda *_: signal.default_int_handler(signal.SIGINT, None))
        signal.setitimer(signal.ITIMER_REAL, 0.2)
        computed = 0
        try:
            while True:
                clear_caches()
                rpgkernel.dist("200W1000")
                computed += 1
        except KeyboardInterrupt:
            print("interrupted", computed)
        clear_caches()
        d = rpgkernel.dist("200W1000")
        print(round(d.mean, 6), round(sum(d.pmf().values()), 9))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    first, second = out.stdout.splitlines()
    assert first.startswith("interrupted")
    assert second == "100100.0 1.0"
