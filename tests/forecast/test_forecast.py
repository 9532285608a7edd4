"""The forecast of a fight: the procedure path played through the ruleset's own procedures (the other
paths: test_exact.py, test_sampled.py)."""

from __future__ import annotations

import json

import pytest

from rpgkernel import Campaign
from rpgkernel.forecast import MAX_ROUNDS, ForecastError, Request, forecast

SÖLDNER = {"vig": 2, "cla": 8, "spi": 8, "gd": 0, "ruestung": 3, "waffen": ["Knüppel (W4)"]}


def duel(tmp_path, **ritter):
    """A Knight on the players' side against a mercenary: each hits only on a 4 of a W4 (armour 3),
    and a hit takes 1 VIG of 2, a mortal wound (Schaden)."""
    c = Campaign.open(tmp_path / "k.sqlite")
    c.set_ruleset("bastionland")
    enc = c.new_encounter("Furt")
    enc.add("Ritter", side="Spieler", sheet={**SÖLDNER, **ritter})
    enc.add("Söldner", side="Söldner", sheet=SÖLDNER)
    return c, enc


@pytest.mark.slow
def test_a_duel_won_by_the_first_to_hit(tmp_path):
    """The players act first (Überraschung) and each hit ends the fight: P = p / (1 - (1-p)²)."""
    _, enc = duel(tmp_path)
    f = enc.forecast(n=2000, seed=7, weg="prozeduren")
    p = 0.25
    exact = p / (1 - (1 - p) ** 2)
    assert f.method == "simuliert" and f.fights == 2000 and f.weg == "prozeduren"
    assert enc.forecast().win["Spieler"].p == pytest.approx(exact, abs=1e-12)   # the exact path
    assert f.win["Spieler"].low <= exact <= f.win["Spieler"].high
    assert f.win["Söldner"].low <= 1 - exact <= f.win["Söldner"].high
    assert f.draw.p == 0
    assert f.figures["Söldner"].falls.p == pytest.approx(f.win["Spieler"].p)
    # a whole round passes without a hit with (1-p)², so the fight lasts 1/(1-(1-p)²) rounds on average
    assert f.rounds.mean == pytest.approx(1 / (1 - (1 - p) ** 2), abs=0.1)
    assert f.figures["Ritter"].resources["VIG"].value == pytest.approx(2 - f.figures["Ritter"].falls.p, abs=1e-12)


@pytest.mark.parametrize("weg", ["prozeduren", "kompakt"])
def test_reproducible_and_nothing_written(tmp_path, weg):
    c, enc = duel(tmp_path)
    before = (len(c.journal()), json.dumps(c.state, sort_keys=True))
    # 40 fights show it: another seed gives other wins, rounds or VIG left (the procedures play few per second)
    a, b = enc.forecast(n=40, seed=3, weg=weg), forecast(c, "Furt", n=40, seed=3, weg=weg)
    assert a.to_dict() == b.to_dict() and a.weg == weg
    assert enc.forecast(n=40, seed=4, weg=weg).to_dict() != a.to_dict()
    assert enc.forecast().to_dict() == forecast(c, "Furt").to_dict()   # the exact path
    assert (len(c.journal()), json.dumps(c.state, sort_keys=True)) == before


def test_the_options_as_one_request(tmp_path):
    """A ``Request`` gives what its keywords give; keywords beside it win; an unknown option is refused."""
    c, _ = duel(tmp_path)
    asked = Request(n=100, seed=5, weg="kompakt")
    assert forecast(c, "Furt", asked).to_dict() == forecast(c, "Furt", n=100, seed=5, weg="kompakt").to_dict()
    assert forecast(c, "Furt", asked, seed=6).to_dict() == forecast(c, "Furt", n=100, seed=6, weg="kompakt").to_dict()
    assert forecast(c, "Furt", asked, seed=6).to_dict() != forecast(c, "Furt", asked).to_dict()
    with pytest.raises(ForecastError):
        forecast(c, "Furt", Request(n=0))
    with pytest.raises(TypeError):
        forecast(c, "Furt", anzahl=10)


PATHS = [{"weg": "prozeduren", "n": 20, "seed": 1}, {"weg": "kompakt", "n": 20, "seed": 1}, {"weg": "exakt"}]


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p["weg"])
def test_from_where_the_fight_stands(tmp_path, path):
    """In a running fight with the mercenary mortally wounded, the players have won already."""
    c, enc = duel(tmp_path)
    enc.start()
    c.add_condition("Söldner", "Todeswunde")
    f = enc.forecast(**path)
    assert f.weg == path["weg"] and f.win["Spieler"].p == 1 and f.figures["Söldner"].falls.p == 1
    assert tuple(f.rounds.support) == (1,) and f.start_round == 1


@pytest.mark.slow
def test_until_precise(tmp_path):
    """Without n, fights are played until every side's chance is known to the precision asked."""
    _, enc = duel(tmp_path)
    seen = []
    f = enc.forecast(seed=5, precision=0.03, weg="prozeduren", progress=lambda done, planned: seen.append(done))
    assert f.precision <= 0.03 and f.fights == seen[-1] and seen == sorted(seen)
    assert f.fights < 2000


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p["weg"])
def test_stalemate_is_a_draw(tmp_path, path):
    """Nobody can get through the other's armour: the fight ends undecided after MAX_ROUNDS."""
    _, enc = duel(tmp_path, ruestung=9)
    c = enc.campaign
    c.set_sheet("Söldner", {**SÖLDNER, "ruestung": 9}, encounter="Furt")
    f = enc.forecast(**{**path, "n": 5} if "n" in path else path)
    assert f.draw.p == 1 and not f.win["Spieler"].p and tuple(f.rounds.support) == (MAX_ROUNDS,)


@pytest.mark.parametrize("kwargs, words", [
    ({"n": 0}, "1 bis 20.000"), ({"zielwahl": "zufällig"}, "Unbekannte Zielwahl"),
    ({"precision": 2}, "Genauigkeit"),
])
def test_bad_options_in_german(tmp_path, kwargs, words):
    _, enc = duel(tmp_path)
    with pytest.raises(ForecastError, match=words):
        enc.forecast(**kwargs)


def test_needs_sides(tmp_path):
    c, enc = duel(tmp_path)
    enc.add("Wanderer", sheet=SÖLDNER)
    with pytest.raises(ForecastError, match="Wanderer"):
        enc.forecast(n=1)
    other = c.new_encounter("Allein")
    other.add("Ritter 2", side="Spieler", sheet=SÖLDNER)
    with pytest.raises(ForecastError, match="nur eine Seite"):
        other.forecast(n=1)
