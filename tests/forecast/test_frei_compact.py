"""The free mode's compact model in whole fights: a duel exactly as icepool's ``map(..., repeat='inf')``
finds it (written anew from the GM's data and the limits), within the procedure path's interval, and a
fight of two against three sampled on the model as the procedures play it."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest

from rpgkernel import Campaign
from rpgkernel.rules import limits

from .test_sampled import assert_agree, assert_within

icepool = pytest.importorskip("icepool")

DATA = {"alle": {"treffer": "W20>=11"}, "seiten": {"Räuber": {"schaden": "W4+1", "treffer": 0.4}},
        "figuren": {"Alrik": {"schaden": "W6"}}}
ALRIK, RÄUBER = 12, 8


def duel(tmp_path, low=None):
    """Alrik (12 HP) against a robber (8 HP), the encounter begun (initiative rolled once)."""
    c = Campaign.open(tmp_path / "k.sqlite")
    if low is not None:
        limits.einrichten({"HP": low}, kampagne=c)
    enc = c.new_encounter("Hinterhalt")
    enc.add("Alrik", side="Spieler", sheet={"hp": ALRIK})
    enc.add("Räuber", side="Räuber", sheet={"hp": RÄUBER})
    c.set_data("prognose", DATA)
    enc.start()
    return enc


@cache   # the tests ask for some duels more than once
def ends(low: int, alrik_first: bool):
    """The duel in icepool: a state is (Alrik's HP, the robber's HP, whose turn: 0 Alrik). Alrik hits on
    W20>=11 for W6, the robber with 2 in 5 for W4+1; the HP stop at ``low``, at 0 or below a figure falls."""
    def after(hp, x):
        return max(hp - x, min(hp, low))

    def turn(state):
        ha, hb, whose = state
        if ha <= 0 or hb <= 0:
            return state
        if whose == 0:   # miss: 1/2; each face of the W6: 1/2 * 1/6
            return icepool.Die([(ha, hb, 1)] * 6 + [(ha, after(hb, x), 1) for x in range(1, 7)])
        return icepool.Die([(ha, hb, 0)] * 12 + [(after(ha, x), hb, 0) for x in range(2, 6) for _ in range(2)])
    return icepool.map(turn, (ALRIK, RÄUBER, 0 if alrik_first else 1), repeat="inf")


def chance(die, test) -> float:
    return float(Fraction(sum(q for o, q in die.items() if test(o)), die.denominator()))


@pytest.mark.parametrize("low", [None, -3])
def test_a_duel_exactly_as_icepool_finds_it(tmp_path, low):
    enc = duel(tmp_path, low)
    f = enc.forecast()
    assert (f.method, f.weg) == ("exakt", "exakt") and "Markow-Kette" in f.notes[0]
    end = ends(0 if low is None else low, enc.record["order"][0] == "Alrik")
    won = chance(end, lambda o: o[1] <= 0)
    assert 0.5 < won < 0.99
    assert f.win["Spieler"].p == pytest.approx(won, abs=1e-12)
    assert f.win["Räuber"].p == pytest.approx(1 - won, abs=1e-12) and f.draw.p == pytest.approx(0, abs=1e-12)
    assert f.figures["Räuber"].falls.p == pytest.approx(won, abs=1e-12)
    assert f.figures["Alrik"].resources["HP"].value == pytest.approx(end.marginals[0].mean(), abs=1e-9)
    assert f.figures["Räuber"].resources["HP"].value == pytest.approx(end.marginals[1].mean(), abs=1e-9)
    if low is not None:   # the GM's lower bound holds: below 0, never below it
        assert chance(end, lambda o: o[1] < 0) > 0.1 and min(o[1] for o in end.outcomes()) == low


def test_exact_within_the_procedure_paths_interval(tmp_path):
    enc = duel(tmp_path, -3)
    exact, played = enc.forecast(), enc.forecast(n=600, seed=11, weg="prozeduren")
    assert (exact.weg, played.weg, played.fights) == ("exakt", "prozeduren", 600)
    assert_within(exact, played, ["HP"])


def test_which_path(tmp_path):
    enc = duel(tmp_path)
    assert enc.forecast().weg == "exakt" and enc.forecast(n=100, seed=1).weg == "kompakt"
    assert enc.forecast(zielwahl="gefährlichste").weg == "exakt"


@pytest.mark.slow
def test_before_the_fight_every_initiative_with_its_chance(tmp_path):
    """Before the fight begins, the initiative is still to roll (W20 each, ties by name): the exact
    forecast weighs the duel with each first actor by its chance, 210/400 for Alrik."""
    c = Campaign.open(tmp_path / "neu.sqlite")
    neu = c.new_encounter("Furt")
    neu.add("Alrik", side="Spieler", sheet={"hp": ALRIK})
    neu.add("Räuber", side="Räuber", sheet={"hp": RÄUBER})
    c.set_data("prognose", DATA)
    f = neu.forecast()
    first = Fraction(210, 400)
    won = float(first * Fraction(chance(ends(0, True), lambda o: o[1] <= 0))
                + (1 - first) * Fraction(chance(ends(0, False), lambda o: o[1] <= 0)))
    assert (f.weg, f.start_round) == ("exakt", 0)
    assert f.win["Spieler"].p == pytest.approx(won, abs=1e-12)
    assert abs(won - chance(ends(0, True), lambda o: o[1] <= 0)) > 0.01   # the order matters here
    played = neu.forecast(n=600, seed=5, weg="prozeduren")
    assert played.win["Spieler"].low <= won <= played.win["Spieler"].high
    sampled = neu.forecast(n=4000, seed=5)   # each fight draws its order on the compact path too
    assert sampled.weg == "kompakt" and sampled.win["Spieler"].low <= won <= sampled.win["Spieler"].high


@pytest.mark.slow
def test_two_against_three_as_the_procedures_play_it(tmp_path):
    c = Campaign.open(tmp_path / "k.sqlite")
    enc = c.new_encounter("Hohlweg")
    enc.add("Alrik", side="Spieler", sheet={"hp": 14})
    enc.add("Alba", side="Spieler", sheet={"hp": 9}, resources={"Mut": 3})
    for i in (1, 2, 3):
        enc.add(f"Räuber {i}", side="Räuber", sheet={"hp": 7})
    c.set_data("prognose", {**DATA, "figuren": {"Alrik": {"schaden": "W8+1"}, "Alba": {"schaden": "2W4-2"}}})
    enc.start(seed=2)   # the order of this fight, the same in every run
    played = enc.forecast(n=400, seed=21, weg="prozeduren")
    fast = enc.forecast(n=20_000, seed=21)
    assert_agree(played, fast)
    assert fast.figures["Alba"].resources["Mut"].value == 3
    assert 0.2 < fast.figures["Alba"].falls.p < 0.95
    assert fast.figures["Alba"].falls.margin < 0.01 < played.figures["Alba"].falls.margin
