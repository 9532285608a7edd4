"""Keeping the highest or lowest dice of a pool (``dice.keep``) against icepool as the oracle."""

import icepool
import pytest

import rpgkernel
from rpgkernel.dice import Estimate, clear_caches, preview
from rpgkernel.dice.keep import kept
from rpgkernel.dice.dist import Dist

TOL = 1e-12


def assert_matches(ours: Dist, theirs: icepool.Die) -> None:
    total = theirs.denominator()
    expected = {int(o): q / total for o, q in theirs.items() if q}
    got = ours.pmf()
    assert set(got) == set(expected)  # no outcome icepool calls impossible, none missing
    assert max(abs(got[x] - expected[x]) for x in expected) <= TOL


@pytest.mark.parametrize("n, sides, k", [(4, 6, 3), (2, 20, 1), (5, 6, 4), (12, 8, 5), (20, 20, 10), (40, 6, 20),
                                         (80, 6, 40), (7, 10, 2), (30, 4, 29)])
def test_the_highest_and_lowest_of_one_kind(n, sides, k):
    assert_matches(rpgkernel.dist(f"{n}W{sides}kh{k}"), icepool.d(sides).highest(n, k))
    assert_matches(rpgkernel.dist(f"{n}W{sides}kl{k}"), icepool.d(sides).lowest(n, k))


def test_dropping_is_keeping_the_rest():
    assert_matches(rpgkernel.dist("9W10dl3"), icepool.d10.highest(9, 6))
    assert_matches(rpgkernel.dist("9W10dh3"), icepool.d10.lowest(9, 6))


@pytest.mark.parametrize("expr, dice, k, highest", [
    ("{W8,W4,W6,W6}kh2", (8, 4, 6, 6), 2, True),
    ("{W12,W10,W10,W8,W8,W8,W6,W6,W4,W4}kh4", (12, 10, 10, 8, 8, 8, 6, 6, 4, 4), 4, True),
    ("{W12,W10,W10,W8,W8,W8,W6,W6,W4,W4}kl3", (12, 10, 10, 8, 8, 8, 6, 6, 4, 4), 3, False),
    ("{3W6,2W10,W20}kh3", (6, 6, 6, 10, 10, 20), 3, True),
    ("{4W4,4W12}kl5", (4, 4, 4, 4, 12, 12, 12, 12), 5, False),
])
def test_mixed_pools(expr, dice, k, highest):
    pool = icepool.Pool([icepool.d(s) for s in dice])
    assert_matches(rpgkernel.dist(expr), (pool.highest(k) if highest else pool.lowest(k)).sum())


def test_dice_that_reroll_or_explode():
    assert_matches(rpgkernel.dist("5W6!2kh2"), icepool.d6.explode(depth=2).highest(5, 2))
    assert_matches(rpgkernel.dist("30W6!2kl12"), icepool.d6.explode(depth=2).lowest(30, 12))
    rerolled = icepool.d6.reroll([1], depth=1)
    assert_matches(rpgkernel.dist("6W6r1kh3"), rerolled.highest(6, 3))


def test_counting_successes_among_the_kept_dice():
    assert_matches(rpgkernel.dist("6W10kh3>=7"),
                   icepool.d10.pool(6).highest(3).keep_outcomes(lambda o: o >= 7).size())
    assert_matches(rpgkernel.dist("25W10kl12>=7"),
                   icepool.d10.pool(25).lowest(12).keep_outcomes(lambda o: o >= 7).size())


def test_the_numpy_programme_and_the_exact_counts_agree():
    """One kind of fair dice is counted in integers; split into two kinds, the same pool runs on numpy."""
    for n, sides, k, highest in [(4, 6, 3, True), (9, 8, 4, False), (15, 12, 7, True)]:
        die = Dist.die(sides)
        counted = kept([(die, n)], k, highest, None)
        floats = kept([(die, 2), (die, n - 2)], k, highest, None)
        assert floats.isclose(counted, TOL)
        assert_matches(counted, (icepool.d(sides).highest if highest else icepool.d(sides).lowest)(n, k))


@pytest.mark.parametrize("expr", ["80W6kh40", "100W10kh50", "60W20kl30", "200W6kh100"])
def test_large_keeps_that_icepool_answers_are_exact(expr):
    """The work estimate knows the programme's cost: what icepool answers in well under a second is
    never refused (80W6kh40 was)."""
    clear_caches()
    shown = preview(expr)
    assert not isinstance(shown, Estimate)
    assert abs(sum(shown.pmf().values()) - 1.0) <= TOL
