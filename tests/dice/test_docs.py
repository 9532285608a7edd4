"""docs/wuerfelsprache.md: every example of the notation table rolled and its distribution computed, what the
page says of each notation checked with given dice by hand, and its examples of messages, estimates and
the Dist API run. Its one code block, the grammar, is what tests/dice_grammar.py generates expressions from
(run by tests/dice/test_fuzz.py); its limits table is checked by tests/dice/test_limits.py."""

import re

import pytest
from doc_blocks import page

import rpgkernel
from rpgkernel.dice import preview
from rpgkernel.errors import DiceLimitError, DiceSyntaxError, GivenDiceError, RpgError

PAGE = page("wuerfelsprache.md")
TEXT = " ".join(PAGE.text.split())
TABLE = PAGE.text.split("| Schreibweise | Bedeutung | Beispiel |")[1].split("\n\n")[0]
EXAMPLES = [e for row in TABLE.splitlines()[2:] for e in re.findall(r"`([^`]+)`", row.rsplit("|", 2)[1])]
VARIABLES = {"bonus": 3}


def test_the_table_has_its_examples():
    assert len(EXAMPLES) >= 15 and "W20+@bonus" in EXAMPLES


@pytest.mark.parametrize("expr", EXAMPLES)
def test_every_example_of_the_table_rolls_and_has_a_distribution(expr):
    r = rpgkernel.roll(expr, seed=7, variables=VARIABLES)
    d = preview(expr, VARIABLES)
    assert d.p_at_least(r.total) > 0 and rpgkernel.roll(expr, seed=7, variables=VARIABLES).total == r.total


def roll(expr, *dice, **kw):
    assert expr in TEXT, f"{expr!r} steht nicht in docs/wuerfelsprache.md"
    return rpgkernel.roll(expr, dice=list(dice), **kw)


@pytest.mark.parametrize("expr, dice, total", [
    ("3W6", (6, 2, 5), 13), ("2d10", (10, 1), 11), ("W20", (20,), 20), ("W%", (100,), 100),
    ("(2W6+3)*2", (1, 2), 12),                # arithmetic, brackets first
    ("4W6kh3", (1, 2, 3, 4), 9), ("2W20kl1", (5, 17), 5), ("4W6dl1", (1, 2, 3, 4), 9),
    ("{W8,W4,2W6}kh1", (7, 3, 1, 5), 7),      # a mixed pool rolled together, the highest
    ("7W6>=5", (5, 6, 1, 2, 3, 4, 5), 3),     # the number of dice with 5 or more
    ("3W6r1", (1, 4, 2, 3), 9),               # the 1 rolled once more: the 4 counts
    ("W10rr<3", (1, 2, 5), 5),                # again until a face of 3 or more
    ("W6!3", (6, 6, 2), 14),                  # the highest face brings another roll, added
    ("max(0, W8-2)", (1,), 0),
    ("2W6!1", (6, 4, 2), 12),                 # "2W6!1 mit 6,4,2 ergibt 6+4 und 2"
    ("W6r1!2", (1, 6, 1, 3), 9),              # the extra roll of an exploding die rerolls its 1 too
    ("4WF", (1, 0, -1, 1), 1),                # Fate dice entered as they lie
])
def test_each_notation_with_given_dice(expr, dice, total):
    assert roll(expr, *dice).total == total


def test_spellings_variables_and_order():
    assert rpgkernel.dist("3w6").pmf() == rpgkernel.dist("3D6").pmf() == rpgkernel.dist("3 W 6").pmf()
    assert rpgkernel.roll("2W6 − 1", dice=[3, 4]).total == 6 and rpgkernel.roll("2×W6", dice=[4]).total == 8
    assert roll("W20+@bonus", 10, variables=VARIABLES).total == 13
    with pytest.raises(DiceSyntaxError):
        rpgkernel.roll("W20+@ bonus", variables=VARIABLES)   # no space between @ and the name
    assert rpgkernel.dist("W6*W6").mean == pytest.approx(3.5 * 3.5)   # two dice, not a square (91/6)
    kept = [d.kept for d in rpgkernel.roll("2W6kh1", dice=[4, 4]).dice]
    assert kept == [True, False]   # a tie keeps the die rolled first
    assert rpgkernel.dist("W%").pmf() == {v: pytest.approx(1 / 100) for v in range(1, 101)}


def test_numbers_are_typed_plainly_and_shown_the_german_way():
    assert rpgkernel.roll("W10000", dice=[10000]).total == 10000
    with pytest.raises(DiceSyntaxError):
        rpgkernel.roll("W10.000")
    with pytest.raises(DiceLimitError, match=r"10\.000"):
        rpgkernel.roll("W10001")


@pytest.mark.parametrize("expr, said, error", [
    ("W10!>1", "`W10!>1`", DiceLimitError), ("W6!>=1", "`W6!>=1`", DiceLimitError),
    ("W6!21", "höchstens 20", DiceLimitError),
    ("2W6kh3", "`2W6kh3`", DiceSyntaxError), ("W6rr<=6", "`W6rr<=6`", DiceSyntaxError)])
def test_what_is_refused_by_its_meaning(expr, said, error):
    assert said in TEXT
    with pytest.raises(error):
        rpgkernel.roll(expr)


def test_given_dice_that_do_not_fit_are_refused():
    assert rpgkernel.roll("3W6", dice=[6, 2, 5]).total == 13 and "`rpgkernel.roll(\"3W6\", dice=[6, 2, 5])`" in TEXT
    for dice in ([6, 2], [6, 2, 5, 1], [6, 2, 7]):   # too few, too many, a 7 on a W6
        with pytest.raises(GivenDiceError):
            rpgkernel.roll("3W6", dice=dice)


def test_the_magic_with_given_dice(shell):
    assert "`%roll --würfel 6,2,5 3W6`" in TEXT
    assert shell.run_line_magic("roll", "--würfel 6,2,5 3W6").total == 13


def test_the_examples_of_exact_and_estimated():
    with pytest.raises(RpgError) as info:
        rpgkernel.dist("1000W1000")
    assert f"`rpgkernel.dist(\"1000W1000\")`: „{info.value}“" in TEXT
    card = str(rpgkernel.roll("100W10000", seed=1))
    shown = card.split("  ·  ")[1]
    assert f"`%roll --seed 1 100W10000`: „{shown}“" in TEXT
    again = preview("100W10000")   # seeded by the expression: the same estimate every run
    assert again.samples == 20_000 and again.p_at_least(513_118) == preview("100W10000").p_at_least(513_118)
    assert again.margin(0.32) == pytest.approx(1.96 * (0.32 * 0.68 / 20_000) ** 0.5, rel=0.05)
    assert again.mean == pytest.approx(100 * 5000.5, rel=0.01) and again.sd > 0


def test_the_dist_api_the_page_names():
    d = rpgkernel.dist("4W6kh3")
    # by hand: 15869 / 1296 is the mean of the three highest of four W6
    assert d.mean == pytest.approx(15869 / 1296, abs=1e-12) and tuple(d.support) == tuple(range(3, 19))
    assert sum(d.pmf().values()) == pytest.approx(1, abs=1e-12) and d.sd > 0
    assert d.p_at_least(18) == pytest.approx(21 / 1296, abs=1e-12) == d.p_exactly(18)
    assert d.p_at_most(3) == pytest.approx(1 / 1296, abs=1e-12)
    two = rpgkernel.dist("W6")
    assert (two + two).mean == pytest.approx(7) and (two - 1).mean == pytest.approx(2.5)
    assert tuple((two * 2).support) == (2, 4, 6, 8, 10, 12) and two.maximum(two).p_exactly(6) == pytest.approx(11 / 36)
    assert two.minimum(two).p_exactly(1) == pytest.approx(11 / 36)
    assert (two - 3).clip(lower=0).p_exactly(0) == pytest.approx(3 / 6)
    assert two.map(lambda v: v % 2).pmf() == {0: pytest.approx(0.5), 1: pytest.approx(0.5)}
    for name in ("pmf()", "support", "mean", "sd", "p_at_least(x)", "p_at_most(x)", "p_exactly(x)", "maximum",
                 "minimum", "clip(lower=0)", "map(f)"):
        assert f"`.{name}`" in TEXT, name
