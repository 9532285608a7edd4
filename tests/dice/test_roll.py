import ast
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import rpgkernel
from rpgkernel import GivenDiceError, Session
from rpgkernel.dice import roll_many


def test_given_dice_replace_random_ones():
    r = rpgkernel.roll("3W6", dice=[6, 2, 5])
    assert r.total == 13
    assert [d.value for d in r.dice] == [6, 2, 5]
    assert r.given and r.successes is None


def test_keep_highest_marks_dropped_dice():
    r = rpgkernel.roll("4W6kh3", dice=[6, 5, 2, 4])
    assert r.total == 15
    assert [d.kept for d in r.dice] == [True, True, False, True]
    # ties: the first of equal dice is kept
    r = rpgkernel.roll("3W6kl1", dice=[2, 2, 5])
    assert [d.kept for d in r.dice] == [True, False, False]


def test_mixed_pool_and_drop():
    r = rpgkernel.roll("{W8,W4,2W6}kh1", dice=[7, 3, 1, 5])
    assert r.total == 7 and [d.sides for d in r.dice] == [8, 4, 6, 6]
    assert rpgkernel.roll("4W6dl1", dice=[1, 6, 6, 6]).total == 18


def test_success_counting():
    r = rpgkernel.roll("7W6>=5", dice=[6, 2, 5, 1, 3, 5, 4])
    assert r.total == r.successes == 3
    assert [d.success for d in r.dice] == [True, False, True, False, False, True, False]
    # only kept dice count
    assert rpgkernel.roll("3W6kl2>=5", dice=[6, 5, 1]).successes == 1


def test_rerolls():
    once = rpgkernel.roll("W6r1", dice=[1, 1])
    assert once.total == 1 and once.dice[0].faces == (1, 1) and once.dice[0].rerolled == (True, False)
    assert rpgkernel.roll("W6rr1", dice=[1, 1, 4]).total == 4
    assert rpgkernel.roll("W6r<3", dice=[2, 6]).total == 6
    assert rpgkernel.roll("W6r1", dice=[3]).total == 3


def test_exploding_dice_stop_at_the_cap():
    assert rpgkernel.roll("W6!2", dice=[6, 6, 6]).total == 18
    assert rpgkernel.roll("W6!2", dice=[6, 3]).total == 9
    r = rpgkernel.roll("2W6!1", dice=[6, 4, 2])
    assert [d.value for d in r.dice] == [10, 2]
    # every roll of the chain obeys the reroll rule
    assert rpgkernel.roll("W6r1!1", dice=[6, 1, 5]).total == 11


def test_floor_at_zero_and_arithmetic():
    assert rpgkernel.roll("max(0, W4-3)", dice=[1]).total == 0
    assert rpgkernel.roll("max(0, W4-3)", dice=[4]).total == 1
    assert rpgkernel.roll("(W6+1)*2-W4", dice=[3, 2]).total == 6
    assert rpgkernel.roll("-W4", dice=[3]).total == -3
    assert rpgkernel.roll("W%", dice=[100]).total == 100


@pytest.mark.parametrize("expr, dice, fragment", [
    ("3W6", [6, 2], "Zu wenige"),
    ("3W6", [6, 2, 5, 1], "Zu viele"),
    ("3W6", [6, 7, 1], "W6 kann keine 7"),
    ("3W6", [6, 0, 1], "W6 kann keine 0"),
    ("W6", ["5"], "ganze Zahlen"),
    ("W6", [5.0], "ganze Zahlen"),
    ("W6!3", [6, 6], "Zu wenige"),
])
def test_given_dice_that_do_not_fit(expr, dice, fragment):
    with pytest.raises(GivenDiceError, match=fragment):
        rpgkernel.roll(expr, dice=dice)


def test_seed_gives_the_same_rolls_in_another_process():
    exprs = ["3W6+2", "4W6kh3", "{W8,W4,2W6}kh1", "7W6>=5", "W6r1!3", "W10rr<3", "W%"]
    here = [rpgkernel.roll(e, seed=2024).to_dict() for e in exprs]
    assert here == [rpgkernel.roll(e, seed=2024).to_dict() for e in exprs]
    code = ("import json, rpgkernel; print(json.dumps([rpgkernel.roll(e, seed=2024).to_dict() "
            f"for e in {exprs!r}]))")
    there = json.loads(subprocess.check_output([sys.executable, "-c", code], text=True))
    assert there == here
    assert rpgkernel.roll("20W6", seed=1).to_dict() != rpgkernel.roll("20W6", seed=2).to_dict()


def test_session_stream_is_seedable():
    from rpgkernel import session
    s = session.current()
    s.reseed(11)
    first = [rpgkernel.roll("3W6").total for _ in range(5)]
    s.reseed(11)
    assert [rpgkernel.roll("3W6").total for _ in range(5)] == first
    a, b = Session(11), Session(11)
    assert [rpgkernel.roll("3W6", rng=a.rng).total for _ in range(5)] == [
        rpgkernel.roll("3W6", rng=b.rng).total for _ in range(5)]


def test_the_dice_know_no_session_and_the_session_sets_their_stream():
    """The dice sit at the bottom with a default stream of their own; the session above registers its
    current stream there (another session keeps its own)."""
    dice = Path(rpgkernel.__file__).parent / "dice"
    imported = {node.module for path in dice.glob("*.py") for node in ast.walk(ast.parse(path.read_text()))
                if isinstance(node, ast.ImportFrom) and node.level == 2}
    assert imported and "session" not in imported, imported
    from rpgkernel import session
    from rpgkernel.dice.roll import default_stream
    s = session.current()
    s.reseed(3)
    assert default_stream() is s.dice
    Session(4)   # not the current one: the default stays
    assert default_stream() is s.dice
    assert rpgkernel.roll("20W6").to_dict() == rpgkernel.roll("20W6", seed=3).to_dict()


def test_roll_many_shares_one_stream_and_given_dice():
    rolls = roll_many("W6", 3, dice=[1, 2, 3])
    assert [r.total for r in rolls] == [1, 2, 3]
    assert [r.total for r in roll_many("3W6", 4, seed=5)] == [
        r.total for r in roll_many("3W6", 4, rng=np.random.default_rng(5))]


def test_reroll_until_is_bounded_and_fair():
    # W100rr<100 leaves only 100; the rng path stops showing rerolls after a bound
    r = rpgkernel.roll("W100rr<100", seed=3)
    assert r.total == 100 and len(r.dice[0].faces) <= 101


def test_to_dict_is_json():
    r = rpgkernel.roll("{W8,W4}kh1+2", dice=[3, 4])
    data = json.loads(json.dumps(r.to_dict()))
    assert data["total"] == 6 and data["expression"] == "{W8,W4}kh1+2"
    assert [d["kept"] for d in data["dice"]] == [False, True]


def test_renderings():
    r = rpgkernel.roll("4W6kh3", dice=[6, 5, 2, 4])
    assert str(r).startswith("4W6kh3 = [6, 5, (2), 4] = 15  ·  P(≥ 15) = ")
    assert "~~2~~" in r._repr_markdown_()
    bundle = r._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html"}
    assert "<s>2</s>" in bundle["text/html"] and "<svg" in bundle["text/html"]
    assert "echte Würfel" in bundle["text/html"]
    assert "0x" not in bundle["text/plain"] and "0x" not in bundle["text/html"]
    s = rpgkernel.roll("7W6>=5", dice=[6, 2, 5, 1, 3, 5, 4])
    assert "= 3 Erfolge" in str(s) and "6*" in str(s)


def test_chance_of_this_result_or_better_is_exact():
    r = rpgkernel.roll("3W6", dice=[6, 6, 6])
    assert r.p_at_least() == pytest.approx(1 / 216, abs=1e-15)
    assert "P(≥ 18) = 0,46 %" in str(r)


def test_html_escapes_the_expression():
    r = rpgkernel.roll("W20+@x", dice=[3], variables={"x": 2})
    assert "W20+@x" in r._repr_html_()
    # nothing unescaped from user text can reach the page
    assert "<script" not in rpgkernel.roll("W6", dice=[1])._repr_html_()


@pytest.mark.parametrize("sides", [2, 6, 7, 20, 100])
def test_random_faces_are_uniform(sides):
    """Chi-square goodness of fit on a seeded stream (deterministic)."""
    rolls = roll_many(f"10W{sides}", 600, seed=sides)
    counts = np.bincount([d.value for r in rolls for d in r.dice], minlength=sides + 1)[1:]
    expected = 6000 / sides
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    # 99.9 % quantile of chi-square with sides-1 degrees of freedom (Wilson-Hilferty)
    k = sides - 1
    bound = k * (1 - 2 / (9 * k) + 3.09 * (2 / (9 * k)) ** 0.5) ** 3
    assert counts.min() > 0 and chi2 < bound


def test_roller_shares_given_dice_across_expressions():
    from rpgkernel.dice import Roller
    r = Roller(dice=[7, 3, 1, 5, 12])
    attack = r.roll("{W8,W4,2W6}kh1")
    save = r.roll("W20")
    assert (attack.total, save.total) == (7, 12) and attack.given
    r.finish()
    r = Roller(dice=[2, 2])
    r.roll("W6")
    with pytest.raises(GivenDiceError, match="Zu viele"):
        r.finish()
    seeded = [Roller(seed=4).roll("3W6").total for _ in range(2)]
    assert seeded[0] == seeded[1] == rpgkernel.roll("3W6", seed=4).total


# -- what was thrown by hand (echte Würfel): the dice check reads it from the journal ----------------
def test_a_roll_lists_every_face_thrown_by_hand_with_its_die():
    r = rpgkernel.roll("4W6kh3+W8", dice=[6, 5, 2, 4, 7])
    assert r.thrown == ((6, 6), (6, 5), (6, 2), (6, 4), (8, 7))   # dropped dice were thrown too
    assert rpgkernel.roll("W6!", dice=[6, 6, 2]).thrown == ((6, 6), (6, 6), (6, 2))   # each explosion a throw
    assert rpgkernel.roll("W6rr<3", dice=[1, 2, 5]).thrown == ((6, 1), (6, 2), (6, 5))   # rerolled ones too
    assert rpgkernel.roll("2WF+W3", dice=[1, -1, 1]).thrown == ((3, 1),)   # Fate dice are no numbered dice
    assert rpgkernel.roll("3W6", seed=1).thrown == () and rpgkernel.roll("3W6").thrown == ()


def test_several_rolls_each_list_their_own_throws():
    rolls = roll_many("2W6", 3, dice=[1, 2, 3, 4, 5, 6])
    assert [r.thrown for r in rolls] == [((6, 1), (6, 2)), ((6, 3), (6, 4)), ((6, 5), (6, 6))]
    assert all(r.thrown == () for r in roll_many("2W6", 3, seed=2))


def test_a_roller_does_not_count_replayed_faces_as_thrown_again():
    from rpgkernel.dice import Roller
    r = Roller(dice=[4, 17, 3])
    first = r.roll("W6")
    r.replay([4])   # a procedure re-run: its first die is the recorded one, the rest thrown now
    again, damage = r.roll("W6"), r.roll("W20")
    r.end_replay()
    assert (first.thrown, again.thrown, damage.thrown) == (((6, 4),), (), ((20, 17),))
    assert r.roll("W4").thrown == ((4, 3),) and list(r.thrown) == [(6, 4), (20, 17), (4, 3)]
    assert Roller(seed=3).roll("W20").thrown == () and list(Roller(seed=3).thrown) == []
