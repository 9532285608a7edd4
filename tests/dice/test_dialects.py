"""The notations of Roll20, Foundry VTT, d20 (Avrae) and AnyDice: each read with its users' meaning, compared
with an independent model (icepool, or the other tool's documented meaning); every deliberate difference
shows a hint with the other reading's spelling; d20's own test expressions counted (tests/d20_expressions.py)."""

import html

import icepool
import pytest
from doc_blocks import page

import rpgkernel
from rpgkernel import DiceLimitError, DiceSyntaxError
from rpgkernel.dice import Estimate, parse, preview
from rpgkernel.dice.nodes import notation
from rpgkernel.render import estimate_summary
from rpgkernel.render.dice import hints_html

from d20_expressions import MEANING, READING, agrees, measure, model, reading

TOL = 1e-12
TEXT = " ".join(page("wuerfelsprache.md").text.split())


def pmf(die) -> dict[int, float]:
    total = die.denominator()
    return {int(v): q / total for v, q in die.items() if q}


def _net(v: int) -> int:
    return 1 if v >= 4 else -1 if v == 1 else 0


# (expression, dialect, icepool's model of what the dialect means)
TABLE = [
    ("4d6kh3", "Roll20, Foundry, d20", lambda: icepool.d6.pool(4).highest(3).sum()),
    ("2d20kh", "Foundry, Roll20 (kh = kh1)", lambda: icepool.d20.pool(2).highest(1).sum()),
    ("2d20kl", "Foundry, Roll20 (kl = kl1)", lambda: icepool.d20.pool(2).lowest(1).sum()),
    ("4d6k3", "Roll20, Foundry (k3 = kh3)", lambda: icepool.d6.pool(4).highest(3).sum()),
    ("4d6d1", "Roll20, Foundry (d1 = dl1)", lambda: icepool.d6.pool(4).highest(3).sum()),
    ("4d6dh", "Foundry (dh = dh1)", lambda: icepool.d6.pool(4).lowest(3).sum()),
    ("4d6pl1", "d20 (pl1 = dl1)", lambda: icepool.d6.pool(4).highest(3).sum()),
    ("10d6k>3", "d20 (keep the dice above 3)", lambda: 10 @ icepool.d6.map(lambda v: v if v > 3 else 0)),
    ("5d6p1", "d20 (drop the ones)", lambda: 5 @ icepool.d6.map(lambda v: 0 if v == 1 else v)),
    ("1d20ro1", "d20, Roll20 (reroll once)", lambda: icepool.d20.reroll([1], depth=1)),
    ("1d6rr1", "Foundry, d20 (reroll until)", lambda: icepool.Die([2, 3, 4, 5, 6])),
    ("1d6ra6", "d20 (reroll and add once)", lambda: icepool.d6.explode([6], depth=1)),
    ("W6!", "Roll20 (explode, no cap)", lambda: icepool.d6.explode(depth=15)),
    ("1d6x", "Foundry (explode, no cap)", lambda: icepool.d6.explode(depth=15)),
    ("1d6e6", "d20 (explode on 6)", lambda: icepool.d6.explode([6], depth=15)),
    ("1d10!>=9", "ours, Foundry's x>=9", lambda: icepool.d10.explode([9, 10], depth=17)),
    ("1d10x>=9", "Foundry (explode on 9 or 10)", lambda: icepool.d10.explode([9, 10], depth=17)),
    ("4d6!!", "Roll20 (compounding)", lambda: 4 @ icepool.d6.explode(depth=15)),
    ("2d6!!5", "Roll20 (compounding on 5)", lambda: 2 @ icepool.d6.explode([5], depth=15)),
    ("1d6xo", "Foundry (explode once)", lambda: icepool.d6.explode(depth=1)),
    ("3d6!3", "ours: at most 3 extra dice (Roll20 reads x3)", lambda: 3 @ icepool.d6.explode(depth=3)),
    ("3d6x3", "Roll20's 3d6!3 (explode on 3)", lambda: 3 @ icepool.d6.explode([3], depth=15)),
    ("10d6mi2", "d20 (at least 2 a die)", lambda: 10 @ icepool.d6.clip(2, None)),
    ("10d6ma5", "d20 (at most 5 a die)", lambda: 10 @ icepool.d6.clip(None, 5)),
    ("1d20min10", "Foundry (at least 10)", lambda: icepool.d20.clip(10, None)),
    ("2d20max15", "Foundry (at most 15 a die)", lambda: 2 @ icepool.d20.clip(None, 15)),
    ("10d6cs6", "Foundry (count the sixes)", lambda: 10 @ (icepool.d6 == 6)),
    ("10d6cs>=5", "Foundry (count 5 and 6)", lambda: 10 @ (icepool.d6 >= 5)),
    ("8d6>=4f1", "Roll20's 8d6>4f1 (a one takes a success away)", lambda: 8 @ icepool.d6.map(_net)),
    ("8d6cs>=4cf1", "Foundry (cf subtracts)", lambda: 8 @ icepool.d6.map(_net)),
    ("8d6>4", "ours: above 4 (Roll20 counts the 4 too)", lambda: 8 @ (icepool.d6 > 4)),
    ("1d20+5>=15", "d20, AnyDice (do I hit?)", lambda: icepool.d20 + 5 >= 15),
    ("(2d6)>7", "d20's 2d6>7 (the sum)", lambda: 2 @ icepool.d6 > 7),
    ("1d20 == 20", "d20 (==)", lambda: icepool.d20 == 20),
    ("1d20 != 1", "d20 (!=)", lambda: icepool.d20 != 1),
    ("2d6[Feuer] + 1d4[Gift]", "Roll20, Foundry, d20 (labels)", lambda: 2 @ icepool.d6 + icepool.d4),
    ("1d20+5 Angriff", "d20, Roll20 (a comment)", lambda: icepool.d20 + 5),
    ("1d20/2", "d20, AnyDice (rounded down)", lambda: icepool.d20 // 2),
    ("abrunden(1d20/2)", "Foundry's floor(1d20/2)", lambda: icepool.d20 // 2),
    ("aufrunden(1d20/2)", "Foundry's ceil(1d20/2)", lambda: (icepool.d20 + 1) // 2),
    ("runden(1d6/4)", "Foundry's round(1d6/4)", lambda: icepool.d6.map(lambda v: int(v / 4 + 0.5))),
    ("1d100 % 10", "d20 (remainder)", lambda: icepool.d100 % 10),
    ("(2d6, 1d12)kh1", "Foundry's {2d6,1d12}kh1, d20 (the larger sum)",
     lambda: icepool.Pool([2 @ icepool.d6, icepool.d12]).highest(1).sum()),
    ("(1d4, 2+2, 3d6kl1)kh1", "d20 (a set)",
     lambda: icepool.Pool([icepool.d4, icepool.Die([4]), icepool.d6.pool(3).lowest(1).sum()]).highest(1).sum()),
    ("{2d6,1d12}kh1", "ours: the highest single die (Foundry keeps the larger sum)",
     lambda: icepool.Pool([icepool.d6, icepool.d6, icepool.d12]).highest(1).sum()),
    ("4dF", "Roll20, Foundry (Fate dice)", lambda: 4 @ icepool.Die([-1, 0, 1])),
    ("4WF+2", "German (Fate dice)", lambda: 4 @ icepool.Die([-1, 0, 1]) + 2),
    ("(4dF, 2W6-7)kh1", "Fate dice in a set", lambda: icepool.Pool([4 @ icepool.Die([-1, 0, 1]), 2 @ icepool.d6 - 7])
     .highest(1).sum()),
    ("W%", "German (1-100)", lambda: icepool.d100),
    ("d%", "Roll20, Foundry, AnyDice (1-100; d20 reads a tens die)", lambda: icepool.d100),
    ("3W20", "German", lambda: 3 @ icepool.d20),
]


@pytest.mark.parametrize("expr, dialect, meaning", TABLE, ids=[row[0] for row in TABLE])
def test_each_notation_has_its_meaning(expr, dialect, meaning):
    ours = rpgkernel.dist(expr).pmf()
    assert agrees(ours, pmf(meaning()), TOL), (expr, dialect)
    r = rpgkernel.roll(expr, seed=3)
    assert r.total in ours and rpgkernel.roll(expr, dice=[f for d in r.dice for f in d.faces]).total == r.total


def test_every_notation_of_the_table_reads_back_from_its_canonical_notation():
    for expr, *_ in TABLE:
        tree = parse(expr)
        assert parse(notation(tree)) == tree, expr


# -- never a silent misreading ------------------------------------------------

@pytest.mark.parametrize("expr, fragment", [
    ("{2d6,1d12}kh1", "(2W6, W12)kh1"),   # Foundry keeps the larger sum
    ("3d6!3", "x3"),                      # Roll20 explodes on a 3
    ("8d6>4", ">=4"),                     # Roll20's > counts the 4
    ("1d10!>8", ">=8"),
    ("4d6k3", "k=3"),                     # d20 keeps the threes
    ("1d%", "(W10-1)*10"),                # d20's tens die
    ("5+1d20>=15", "(5+W20)>=15"),        # d20 compares the sum
    ("2d6>7", "(2W6)>7"),                 # a threshold no die reaches: a warning
    ("W6!", "höchstens 15 Zusatzwürfen"),  # the bound, on the card
])
def test_an_ambiguous_expression_shows_the_other_reading(expr, fragment):
    r = rpgkernel.roll(expr, seed=1)
    assert any(fragment in hint for hint in r.hints), r.hints
    assert fragment in str(r) and fragment in r._repr_markdown_()
    assert fragment in r._repr_mimebundle_()["text/html"].replace("&gt;", ">")


def test_several_rolls_and_the_widgets_show_the_hints_once_per_expression():
    from rpgkernel.widgets.tray import RollCard, roll_data
    rolls = rpgkernel.roll_many("8d6>4", 3, seed=1)
    hint = rolls[0].hints[0]
    assert str(rolls).count(hint) == 1 and rolls._repr_html_().count(html.escape(hint)) == 1
    assert str(rolls).splitlines()[1] == hint
    assert roll_data(rolls[0])["hints"] == [hint] and roll_data(rpgkernel.roll("3W6", seed=1))["hints"] == []
    assert [e["hints"] for e in RollCard(rolls).entries] == [[hint]] * 3


def test_a_threshold_no_die_can_reach_is_a_warning():
    r = rpgkernel.roll("2d6>7", seed=1)
    assert r.total == 0 and any(h.startswith("Warnung: kein Würfel") for h in r.hints)
    assert any(h.startswith("Warnung: jeder Würfel") for h in rpgkernel.roll("3W6<=6", seed=1).hints)


@pytest.mark.parametrize("expr", ["W%", "3W20", "4W6kh3", "{W8,W4}kh1", "7W6>=5", "W20+5>=15", "(2W6, W12)kh1"])
def test_german_and_unambiguous_notation_has_no_hint(expr):
    assert rpgkernel.roll(expr, seed=1).hints == ()


PREVIEWED = [
    ("{W8,W4,2W6}kh1", "(W8, W4, 2W6)kh1"),
    ("3W6!3", "x3"),
    ("8W6>4", ">=4"),
    ("2W6>7", "Warnung: kein Würfel"),
    ("1000W1000k3", "k=3"),  # beyond the budget: an estimate
]


@pytest.mark.parametrize("expr, fragment", PREVIEWED)
def test_a_preview_shows_the_hints_of_the_card_once(expr, fragment):
    d = preview(expr)
    card = rpgkernel.roll(expr, seed=1).hints
    assert d.hints == card and any(fragment in hint for hint in card)
    text, page_html = str(d), d._repr_mimebundle_()["text/html"]
    assert text.splitlines()[1:1 + len(card)] == list(card)
    assert page_html.count(hints_html(card)) == 1
    for hint in card:
        assert text.count(hint) == 1 and page_html.count(html.escape(hint)) == 1


@pytest.mark.parametrize("expr", ["3W6", "{W8,W4}kh1", "W20+5>=15", "1000W1000"])
def test_an_unambiguous_preview_shows_no_hint(expr):
    d = preview(expr)
    assert d.hints == () and "rpgk-hint" not in d._repr_mimebundle_()["text/html"]
    assert str(d).splitlines()[0] == (estimate_summary(d) if isinstance(d, Estimate) else d.summary())


def test_a_previewed_distribution_stays_the_distribution():
    plain, hinted = rpgkernel.dist("3W6!3"), preview("3W6!3")
    assert isinstance(hinted, rpgkernel.Dist) and hinted.hints and plain.hints == ()
    assert hinted.pmf() == plain.pmf() and hinted.p_at_least(10) == plain.p_at_least(10)
    assert hinted.mean == plain.mean and hinted.label == "3W6!3"
    for derived in (hinted + 1, hinted * 2, hinted.maximum(plain), hinted.labelled("x"), hinted.clip(lower=5)):
        assert derived.hints == () and "rpgk-hint" not in derived._repr_html_()
    estimated = preview("1000W1000k3")
    assert estimated.labelled("x").hints == () and estimated.p_at_least(0) == 1.0


@pytest.mark.parametrize("expr", ["1d6x6", "1d20min10", "8d6>4f1"])
def test_what_had_wrong_suggestions_now_reads(expr):
    assert rpgkernel.roll(expr, seed=2).total in rpgkernel.dist(expr).support


def test_the_check_says_erfolg_or_fehlschlag_with_its_chance():
    hit = rpgkernel.roll("1d20+5>=15", dice=[12])
    miss = rpgkernel.roll("1d20+5>=15", dice=[3])
    assert hit.check is True and miss.check is False
    assert str(hit).endswith("= Erfolg  ·  P(Erfolg) = 55,00 %") and "Fehlschlag" in str(miss)
    assert "P(Erfolg) = 55,00 %" in str(miss)


def test_labels_and_comments_stay_in_the_card_and_the_journal(tmp_path):
    r = rpgkernel.roll("2d6[Feuer] + 1d4[Gift] Angriff", dice=[3, 4, 2])
    assert r.total == 9 and r.comment == "Angriff"
    assert "[Feuer]" in str(r) and "[Gift]" in str(r) and "Angriff" in str(r)
    camp = rpgkernel.Campaign.open(tmp_path / "k.sqlite")
    camp.log_roll(r)
    entry = camp.journal()[-1]
    assert "[Feuer]" in entry.data["text"] and "Angriff" in entry.data["text"] and entry.data["roll"]["expression"] == r.expression


def test_fate_dice_on_the_card_with_given_dice_and_estimated():
    r = rpgkernel.roll("4dF+1", dice=[1, -1, 0, 1])
    assert r.total == 2 and "[+, −, 0, +] + 1 = 2" in str(r) and "[+, −, 0, +]" in r._repr_mimebundle_()["text/html"]
    assert "P(≥ 2) = 38,27 %" in str(r)
    with pytest.raises(rpgkernel.GivenDiceError, match="-1, 0 oder 1, nicht 2"):
        rpgkernel.roll("4dF", dice=[1, 2, 0, 0])
    with pytest.raises(rpgkernel.GivenDiceError, match="Fate-Würfel"):
        rpgkernel.roll("4dF", dice=[1])
    assert {rpgkernel.roll("WF", seed=s).total for s in range(40)} == {-1, 0, 1}
    est = preview("(300dF*300dF)*(200dF*200dF)")
    assert isinstance(est, Estimate) and est.min >= -(300 * 300 * 200 * 200) and abs(est.mean) < 10_000
    for bad in ("4dFkh2", "{4dF}", "0dF"):
        with pytest.raises(DiceSyntaxError):
            rpgkernel.dist(bad)


def test_divisions_round_as_they_say():
    assert [rpgkernel.roll(e).total for e in ("7/2", "aufrunden(7/2)", "runden(7/2)", "runden(7/3)", "-7/2")] == \
        [3, 4, 4, 2, -4]
    with pytest.raises(DiceSyntaxError, match="kann 0 sein"):
        rpgkernel.dist("W6/(W6-1)")


def test_explosions_without_a_cap_are_bounded_or_refused():
    d = rpgkernel.dist("1d2e2")   # half of the rolls explode: 39 extra dice leave less than 1e-12
    assert sum(d.pmf().values()) == pytest.approx(1, abs=1e-12) and d.max == 80
    with pytest.raises(DiceLimitError):
        rpgkernel.dist("W6!>=1")
    with pytest.raises(DiceLimitError):
        rpgkernel.dist("W10!>1")


# -- d20's own test expressions ---------------------------------------------------

@pytest.mark.parametrize("expr", list(MEANING))
def test_d20s_expressions_are_read_as_decided(expr):
    decided, reason = reading(expr)
    try:
        ours = rpgkernel.dist(expr).pmf()
    except DiceSyntaxError:
        assert decided == "refused", expr
        return
    assert decided != "refused", expr
    assert agrees(ours, model(expr)) == (decided == "same"), expr
    if decided == "differs":
        assert rpgkernel.roll(expr, seed=1).hints, expr


def test_the_count_of_d20s_expressions_is_the_one_the_docs_give():
    found = measure()
    assert {k: len(v) for k, v in found.items()} == {"same": 89, "differs": 5, "refused": 16}
    assert len(MEANING) == 110 and set(READING) <= set(MEANING)
    assert "liest die Sprache 89 mit d20s Bedeutung, 5 anders" in TEXT and "lehnt 16 ab" in TEXT
