"""The work budget: exact where the real cost fits, a labelled estimate where it does not, never a hang."""

import json
import subprocess
import sys
import traceback

import pytest
from hang_guard import finishes

import rpgkernel
from rpgkernel import DiceLimitError
from rpgkernel.dice import Estimate, clear_caches, limits, parse, preview, roll_many
from rpgkernel.dice.estimate import MIN_SAMPLES, SAMPLES, estimate
from rpgkernel.render import estimate_text, roll_html, roll_markdown, roll_text, rolls_html, rolls_text
from rpgkernel.render.dice import estimated_percent
from rpgkernel.widgets.tray import DiceTray, RollCard

#: expressions within every limit of the parser that hung or took many seconds before the budget
HEAVY = ["4W10000dh1", "3W10000kh2", "{W10000,W10000,W10000}kh2", "50W20!20kh25", "4W10000kh3",
         "10W1000kh5", "100W20kh99", "W1000*W1000", "1000W10000"]


@pytest.mark.parametrize("expr", HEAVY)
def test_exact_distributions_beyond_the_budget_are_refused_before_the_work(expr):
    with pytest.raises(DiceLimitError) as info:
        finishes(rpgkernel.dist, expr)
    message = info.value.message
    assert "zu aufwendig" in message and "2.000.000" in message


@pytest.mark.parametrize("expr", HEAVY)
def test_cards_beyond_the_budget_show_a_labelled_estimate(expr):
    r = finishes(rpgkernel.roll, expr, seed=7)
    text = finishes(roll_text, r)
    assert f"P(≥ {rpgkernel.render.integer(r.total)}) ≈ " in text
    assert "geschätzt aus" in text and "Würfen, ± " in text
    html = finishes(roll_html, r)
    assert "geschätzt aus" in html and "95-%-Vertrauensbereich" in html
    assert "geschätzt aus" in roll_markdown(r)
    shown = r.preview
    assert isinstance(shown, Estimate) and MIN_SAMPLES <= shown.samples <= SAMPLES


def test_the_midgard_damage_of_the_issue_rolls_with_an_estimate():
    r = finishes(rpgkernel.roll, "4W10000kh3", dice=[10000, 1, 9999, 5000])
    assert r.total == 24999
    assert "P(≥ 24.999) ≈ " in str(r) and "(geschätzt aus 20.000 Würfen, ± " in str(r)


def test_within_the_budget_everything_stays_exact():
    for expr in ("4W6kh3", "20W20kh10", "4W200kh3", "{W4,W6,W8,W10,W12,W20}kh3", "W10000!20", "100W100",
                 "1000W6>=5", "W300*W300"):
        shown = preview(expr)
        assert not isinstance(shown, Estimate), expr
        assert shown.isclose(rpgkernel.dist(expr))
        assert "geschätzt" not in str(rpgkernel.roll(expr, seed=1))


def test_the_same_expression_is_always_computed_or_always_refused():
    """The decision counts work, not time, and charges cached parts too."""
    def decision(expr):
        try:
            rpgkernel.dist(expr)
            return "exact"
        except DiceLimitError as err:
            return err.message
    exprs = ["{W10000!20,W6}kh1", "W10000!20+W10000!20", "4W250kh3", "4W300kh3", "W1000*W999", "3W10000!20kh1"]
    clear_caches()
    fresh = [decision(e) for e in exprs]
    for e in ("W10000!20", "W6", "W250", "W300"):  # the dice of the expressions, computed and cached
        rpgkernel.dist(e)
    assert [decision(e) for e in exprs] == fresh
    assert "exact" in fresh and any(d != "exact" for d in fresh)


def test_a_refusal_is_remembered():
    clear_caches()
    with pytest.raises(DiceLimitError) as first:
        rpgkernel.dist("10W1000kh5")
    with pytest.raises(DiceLimitError) as again:
        rpgkernel.dist("10W1000kh5")
    assert again.value.message == first.value.message
    for _ in range(50):
        with pytest.raises(DiceLimitError) as again:
            rpgkernel.dist("10W1000kh5")
    assert len(traceback.extract_tb(again.value.__traceback__)) < 10  # no traceback piled up by re-raising


# -- estimates -------------------------------------------------------------------

@pytest.mark.parametrize("expr", ["4W6kh3", "3W6", "{W8,W4,2W6}kh1", "7W6>=5", "W6r1!3", "W10rr<3+2",
                                  "max(0, 2W6-W8)", "W6*W4", "-W20", "5W10r<=2!2kh3>7"])
def test_an_estimate_agrees_with_the_exact_distribution_within_its_margin(expr):
    exact = rpgkernel.dist(expr)
    est = estimate(parse(expr))
    assert est.samples == SAMPLES
    assert exact.min <= est.min and est.max <= exact.max
    for x in range(exact.min, exact.max + 1):
        p = est.p_at_least(x)
        assert abs(p - exact.p_at_least(x)) <= 1.5 * est.margin(p) + 1e-12, (expr, x)
    assert abs(est.mean - exact.mean) <= 4 * exact.sd / SAMPLES ** 0.5 + 1e-12


def test_an_estimate_is_seeded_from_the_expression():
    clear_caches()
    a = preview("4W10000kh3")
    clear_caches()
    b = preview("4d10000KH3")  # the same expression in another spelling
    assert (a.mean, a.sd, a.p_at_least(20000)) == (b.mean, b.sd, b.p_at_least(20000))
    assert a.label == "4W10000kh3" and b.label == "4d10000KH3"
    code = ("import json; from rpgkernel.dice import preview; e = preview('4W10000kh3'); "
            "print(json.dumps([e.mean, e.sd, e.p_at_least(20000)]))")
    there = json.loads(subprocess.check_output([sys.executable, "-c", code], text=True))
    assert there == [a.mean, a.sd, a.p_at_least(20000)]
    assert preview("3W10000kh2").mean != preview("3W10000kh1").mean


def test_huge_pools_take_fewer_samples_and_say_so():
    est = preview("1000W10000")
    assert isinstance(est, Estimate) and MIN_SAMPLES <= est.samples < SAMPLES
    assert est.samples == limits.MAX_DRAWS // 1001
    assert f"geschätzt aus {rpgkernel.render.integer(est.samples)} Würfen" in estimate_text(est)
    assert 4_900_000 < est.mean < 5_100_000
    assert est.dist is None  # its values spread too widely to keep every frequency
    assert "<rect" in est._repr_mimebundle_()["text/html"]  # drawn in ranges instead


def test_an_estimate_shows_its_precision():
    assert estimated_percent(0.1302, 0.0047) == ("13 %", "0,5 %")
    assert estimated_percent(0.5, 0.0155) == ("50 %", "2 %")
    assert estimated_percent(0.12345, 0.00049) == ("12,3 %", "0,05 %")
    e = preview("3W10000kh2")
    text = estimate_text(e)
    assert text.startswith("3W10000kh2, geschätzt aus 20.000 Würfen: ") and "Mittelwert ≈ " in text


def test_preview_and_the_magic_show_an_estimate_where_the_exact_one_is_too_big():
    from rpgkernel.magics import roll_line
    shown = roll_line("--vorschau 4W10000kh3")
    assert isinstance(shown, Estimate)
    bundle = shown._repr_mimebundle_()
    assert "geschätzt aus 20.000 Würfen" in bundle["text/plain"] and "<svg" in bundle["text/html"]
    assert not isinstance(roll_line("--vorschau 4W6kh3"), Estimate)


def test_the_tray_and_the_roll_card_draw_the_estimate():
    tray = DiceTray()
    tray.expression = "3W10000kh2"
    assert "geschätzt aus 20.000 Würfen" in tray.chart["label"] and tray.chart["bars"]
    card = RollCard(roll_many("3W10000kh2", 3, seed=2))
    assert len(card.entries) == 3 and all("geschätzt" in e["chance"] for e in card.entries)
    assert card.chart["marked"] == sorted({r.total for r in card.result})


def test_when_even_an_estimate_is_too_much_the_card_says_why():
    # 1,000 dice that each reroll once and explode on almost every roll: too many faces per sample
    expr = "1000W2r1!20kh999"
    r = finishes(rpgkernel.roll, expr, seed=1)
    with pytest.raises(DiceLimitError, match="Auch eine Schätzung"):
        r.preview
    assert "keine Verteilung: Auch eine Schätzung" in roll_html(r)
    assert "P(≥" not in str(r)


def test_many_rolls_share_one_estimate():
    rolls = finishes(roll_many, "4W10000kh3", 200, seed=3)
    text = finishes(rolls_text, rolls)
    assert text.count("geschätzt aus 20.000 Würfen") == 200
    assert "<svg" in finishes(rolls_html, rolls)


# -- rolling: many faces at once, rerolls until, several rolls ----------------------

@pytest.mark.parametrize("sides", [1, 2, 3, 6, 7, 20, 64, 100, 1000, 9999, 10000])
def test_many_faces_at_once_are_the_faces_one_at_a_time(sides):
    import numpy as np
    from rpgkernel.dice.roll import RandomDice
    together, one_by_one = RandomDice(np.random.default_rng(sides)), RandomDice(np.random.default_rng(sides))
    for n in (3, 60, 500, 1000, 2, 999, 1):  # across the chunks the words come in
        assert together.faces(sides, n) == [one_by_one.face(sides) for _ in range(n)]
    assert together.face(sides) == one_by_one.face(sides)  # and the stream goes on alike


def test_a_rejected_word_is_drawn_again_as_one_face_at_a_time_does():
    import numpy as np
    from rpgkernel.dice.roll import RandomDice

    class Words:  # a generator whose every fifth word is 0, which a W3 must reject
        def __init__(self):
            self.bit_generator, self.n = self, 0

        def random_raw(self, size):
            out = [0 if (self.n + i) % 5 == 0 else (self.n + i) * 0x9E3779B97F4A7C15 % 2**64 for i in range(size)]
            self.n += size
            return np.array(out, dtype=np.uint64)

    together, one_by_one = RandomDice(Words()), RandomDice(Words())
    assert together.faces(3, 200) == [one_by_one.face(3) for _ in range(200)]
    assert together.face(3) == one_by_one.face(3)


def test_several_rolls_at_once_are_bounded_by_what_they_show():
    assert len(roll_many("19W6", 1000, seed=1)) == 1000  # 19 faces and the pool: 20.000 parts
    deep = "(" * limits.MAX_DEPTH + "W6" + ")" * limits.MAX_DEPTH
    for expr, n in [("20W6", 1000), ("1000W10000", 1000), ("W6!20", 1000), ("{10W6r1,W8}", 1000),
                    ("+".join(["1"] * 1000), 20), (deep, 1000)]:
        with pytest.raises(DiceLimitError, match="Zu viele Würfe auf einmal") as info:
            finishes(roll_many, expr, n, seed=1)
        assert "20.000" in info.value.message and "--vorschau" in info.value.message
    assert len(roll_many(deep, 300, seed=1)) == 300
    from rpgkernel.magics import roll_line
    with pytest.raises(DiceLimitError, match="1.000 Würfe"):
        roll_line("-n 1000 1000W10000")


def test_rerolls_until_on_a_huge_pool_are_shown_only_as_far_as_the_bound_allows():
    r = finishes(rpgkernel.roll, "1000W10000rr<10000!20", seed=1)  # only the 10.000 stands, and explodes
    assert r.total == 1000 * 21 * 10000
    faces = sum(len(d.faces) for d in r.dice)
    assert 21_000 <= faces <= 2 * 21_000
    assert all(d.faces[-1] == 10000 for d in r.dice)
    assert finishes(roll_text, r) and finishes(roll_html, r)
    # a small pool still shows up to MAX_REROLLS rerolls of a die
    assert rpgkernel.roll("W100rr<100", seed=3).dice[0].faces[-1] == 100
    from rpgkernel.dice.roll import shown_rerolls
    assert shown_rerolls(parse("W100rr<100")) == limits.MAX_REROLLS
    assert shown_rerolls(parse("1000W10000rr<10000!20")) == 1


def test_keeping_marks_the_same_dice_as_before():
    r = rpgkernel.roll("6W6kh3", dice=[4, 6, 4, 1, 6, 4])
    assert [d.kept for d in r.dice] == [True, True, False, False, True, False]  # the first of equal dice
    r = rpgkernel.roll("6W6kl2", dice=[4, 6, 4, 1, 6, 4])
    assert [d.kept for d in r.dice] == [True, False, False, True, False, False]
