import itertools
import math

import pytest

import rpgkernel
from rpgkernel import DiceLimitError, Dist


def brute(faces_per_die, value):
    """Exact pmf by enumerating every outcome of independent fair dice."""
    out: dict[int, float] = {}
    n = math.prod(len(f) for f in faces_per_die)
    for combo in itertools.product(*faces_per_die):
        v = value(combo)
        out[v] = out.get(v, 0.0) + 1 / n
    return out


def assert_pmf(d: Dist, expected: dict[int, float]):
    got = d.pmf()
    assert set(got) == {k for k, v in expected.items() if v > 0}
    for k, v in expected.items():
        assert got.get(k, 0.0) == pytest.approx(v, abs=1e-12), k


def test_three_d6():
    d = rpgkernel.dist("3W6")
    assert d.support == tuple(range(3, 19))
    assert d.p_exactly(18) == pytest.approx(1 / 216, abs=1e-15)
    assert d.mean == pytest.approx(10.5)
    assert d.sd == pytest.approx(math.sqrt(3 * 35 / 12))
    assert d.p_at_least(3) == pytest.approx(1.0) and d.p_at_least(19) == 0.0
    assert d.p_at_most(10) == pytest.approx(0.5) and d.p_at_most(2) == 0.0
    assert d.p_greater(17) == pytest.approx(1 / 216) and d.p_less(4) == pytest.approx(1 / 216)


@pytest.mark.parametrize("expr, dice, value", [
    ("4W6kh3", [6] * 4, lambda c: sum(sorted(c)[1:])),
    ("4W6dh1", [6] * 4, lambda c: sum(sorted(c)[:3])),
    ("{W4,W6,W8,W6}kh2", [4, 6, 8, 6], lambda c: sum(sorted(c)[-2:])),
    ("{W4,W6,2W8}kl2", [4, 6, 8, 8], lambda c: sum(sorted(c)[:2])),
    ("{W8,W4,2W6}kh1", [8, 4, 6, 6], max),
    ("3W10kl1", [10] * 3, min),
    ("7W6>=5", [6] * 7, lambda c: sum(x >= 5 for x in c)),
    ("5W6kh3>=5", [6] * 5, lambda c: sum(x >= 5 for x in sorted(c)[-3:])),
    ("4W8kl2<3", [8] * 4, lambda c: sum(x < 3 for x in sorted(c)[:2])),
    ("max(0, {W8,W4,W6,W6}kh1-2)", [8, 4, 6, 6], lambda c: max(0, max(c) - 2)),
    ("W6*W6", [6, 6], lambda c: c[0] * c[1]),
    ("W4-W6", [4, 6], lambda c: c[0] - c[1]),
    ("min(W6, W8)*2+1", [6, 8], lambda c: min(c) * 2 + 1),
])
def test_against_enumeration(expr, dice, value):
    assert_pmf(rpgkernel.dist(expr), brute([range(1, s + 1) for s in dice], value))


def test_reroll_and_explode_against_first_principles():
    # reroll once: a 1 is rolled again and the second result stands
    assert_pmf(rpgkernel.dist("W6r1"), {1: 1 / 36, **{v: 1 / 6 + 1 / 36 for v in range(2, 7)}})
    # reroll until: uniform over the faces that stay
    assert_pmf(rpgkernel.dist("W6rr<3"), {v: 1 / 4 for v in range(3, 7)})
    # explode at most twice: 6 -> 6 + W6 (!1)
    expected = {v: 1 / 4 for v in (1, 2, 3)}
    expected.update({4 + v: 1 / 16 for v in (1, 2, 3)})
    expected.update({8 + v: 1 / 64 for v in (1, 2, 3, 4)})
    assert_pmf(rpgkernel.dist("W4!2"), expected)


def test_binomial_pool_is_exact_for_large_pools():
    d = rpgkernel.dist("60W6>=5")
    for k in (0, 1, 20, 59, 60):
        assert d.p_exactly(k) == pytest.approx(math.comb(60, k) * (1 / 3) ** k * (2 / 3) ** (60 - k),
                                              rel=1e-10, abs=1e-15)
    assert d.mean == pytest.approx(20)


def test_arithmetic_between_dists_and_ints():
    w6 = Dist.die(6)
    assert (w6 + w6).isclose(rpgkernel.dist("2W6"))
    assert (w6 * 2 + 1).support == tuple(range(3, 14, 2))
    assert (3 - w6).support == (-3, -2, -1, 0, 1, 2)
    assert (-w6).mean == pytest.approx(-3.5)
    assert (w6 * w6).isclose(rpgkernel.dist("W6*W6"))
    assert w6.clip(lower=3).pmf()[3] == pytest.approx(0.5)
    assert w6.maximum(w6).isclose(rpgkernel.dist("2W6kh1"))
    assert w6.minimum(2).support == (1, 2)
    assert w6.map(lambda v: v % 2).pmf() == pytest.approx({0: 0.5, 1: 0.5})
    assert Dist.from_pmf({1: 1, 3: 3}).p_exactly(3) == pytest.approx(0.75)
    assert w6.repeat_sum(3).isclose(rpgkernel.dist("3W6"))


def test_dist_is_immutable():
    d = rpgkernel.dist("2W6")
    with pytest.raises(ValueError):
        d.probabilities[0] = 1.0


def test_renderings_are_stable_and_german():
    d = rpgkernel.dist("2W6")
    text = repr(d)
    assert text.splitlines()[0] == "2W6: 2 bis 12, Mittelwert 7,00, Standardabweichung 2,42"
    assert "    7   16,67 %   58,33 %   58,33 %" in text
    html = d._repr_html_()
    assert html.count("<rect") == 11 and "<title>7: P(=) 16,67 %" in html
    assert d._repr_mimebundle_()["text/html"] == html
    wide = rpgkernel.dist("100W6")
    assert wide._repr_html_().count("<rect") <= 100
    assert "Wert" not in repr(wide)  # no 500-row table in plain text


@pytest.mark.parametrize("expr", [
    "1000W10000", "W10000*W10000*W10000", "{W1000,W999,W998,W997,W996,W995,W994,W993}kh6",
    "W10000!20*W10000!20",
])
def test_too_large_state_spaces_are_refused(expr):
    with pytest.raises(DiceLimitError) as info:
        rpgkernel.dist(expr)
    assert "zu aufwendig" in info.value.message


def test_roll_without_exact_dist_still_rolls_and_shows_an_estimate():
    r = rpgkernel.roll("1000W10000", seed=1)
    assert 1000 <= r.total <= 10_000_000
    assert r.p_at_least() is None
    with pytest.raises(DiceLimitError):
        r.dist
    assert "geschätzt aus" in r._repr_html_() and "geschätzt aus" in str(r)


def test_nth_highest_against_enumeration():
    from rpgkernel.dice.exact import nth_highest
    sides = [8, 4, 6, 6]
    dice = [Dist.die(s) for s in sides]
    for n in (1, 2, 3, 4):
        expected = brute([range(1, s + 1) for s in sides], lambda c, n=n: sorted(c)[-n])
        assert_pmf(nth_highest(dice, n), expected)
    exploding = [rpgkernel.dist("W6!1"), rpgkernel.dist("W4r1")]
    assert nth_highest(exploding, 1).isclose(exploding[0].maximum(exploding[1]))
    assert nth_highest(exploding, 2).isclose(exploding[0].minimum(exploding[1]))


def test_top_two_against_enumeration():
    """The joint chances of the highest and the second highest die, for mixed pools and a lone die."""
    from rpgkernel.dice.exact import nth_highest, top_two
    for sides in ([8, 4, 6, 6], [12], [4, 4], [10, 6, 6, 20, 4]):
        n = math.prod(sides)
        expected: dict = {}
        for combo in itertools.product(*[range(1, s + 1) for s in sides]):
            key = (sorted(combo)[-1], sorted(combo)[-2] if len(combo) > 1 else None)
            expected[key] = expected.get(key, 0.0) + 1 / n
        got = top_two([Dist.die(s) for s in sides])
        assert set(got) == set(expected)
        assert all(got[k] == pytest.approx(v, abs=1e-12) for k, v in expected.items())
    tilted = [rpgkernel.dist("W6!1"), rpgkernel.dist("W4r1")]   # dice of other shapes: the marginals agree
    joint = top_two(tilted)
    for n, which in ((1, 0), (2, 1)):
        marginal: dict = {}
        for pair, p in joint.items():
            marginal[pair[which]] = marginal.get(pair[which], 0.0) + p
        assert_pmf(Dist.from_pmf(marginal), nth_highest(tilted, n).pmf())


def test_derived_values_are_kept_and_shared_by_labelled_copies():
    d = Dist(1, [1 / 300] * 300)
    copy = d.labelled("300er")
    assert copy.mean == d.mean == pytest.approx(150.5) and copy.sd == d.sd
    assert copy.survival[0] == pytest.approx(1.0) and copy.survival[-1] == pytest.approx(1 / 300)
    assert list(copy.survival) == d.sf() and copy.cdf()[-1] == pytest.approx(1.0)
    with pytest.raises(ValueError):
        copy.survival[0] = 0.5
    small = Dist.die(6)
    assert small.sf() == pytest.approx([1.0, 5 / 6, 4 / 6, 0.5, 2 / 6, 1 / 6], abs=1e-15)
    assert list(small.survival) == small.sf()  # the same running sums, whichever way
