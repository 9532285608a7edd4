"""Kampfwerte's W10 test (GM data, not in the seed): its successes checked against icepool and by hand."""

import icepool
import pytest
from hypothesis import given, settings, strategies as st

from rpgkernel.dice import Roller
from rpgkernel.rules.kampfwerte import p_gelingt, wuerfeln
from rpgkernel.rules.kampfwerte.probe import erfolge_dist


def _icepool_erfolge(n, sw):
    die = icepool.d10.map(lambda f: 2 if f == 10 else (-1 if f == 1 else int(f >= sw)))
    return (n @ die).map(lambda x: max(0, x))


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 12), st.integers(2, 10))
def test_successes_equal_icepool(n, sw):
    ours = erfolge_dist(n, sw).pmf()
    ref = _icepool_erfolge(n, sw) if n else icepool.Die([0])
    total = ref.denominator()
    for x in set(ours) | set(ref.outcomes()):
        assert ours.get(x, 0.0) == pytest.approx(ref.quantity(x) / total, abs=1e-12)


def test_test_by_hand_with_given_dice():
    # faces 10, 7, 1, 3: +2 +1 -1 +0 = 2 successes against 7
    w = wuerfeln(4, Roller(dice=[10, 7, 1, 3]))
    assert (w.erfolge, w.gelungen) == (2, True)
    w = wuerfeln(3, Roller(dice=[1, 1, 9]))
    assert (w.erfolge, w.gelungen) == (0, False)
    # P(success) of 1 die against 7: only a 0 (two successes) -> 1/10
    assert p_gelingt(1) == pytest.approx(0.1, abs=1e-12)
