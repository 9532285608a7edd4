"""The fast sampled forecast on the compact model, against the procedure path: a fight of two against
three (the three a group whose morale wavers, and without morale) and one of two against a lone
robber chief who may flee when wounded, seeded; every side's chance, every figure's
chance to fall and its expected resources agree within the two paths' 95 % intervals together."""

from __future__ import annotations

import math

import pytest

from rpgkernel import Campaign
from rpgkernel.forecast.value import Z95

RITTER = {"vig": 14, "cla": 12, "spi": 13, "gd": 5, "ruestung": 2, "spielfigur": True,
          "waffen": ["Streitkolben (W8, wuchtig)", "Schild (W4)"]}
KNAPPE = {"vig": 10, "cla": 9, "spi": 11, "gd": 3, "ruestung": 1, "waffen": ["Dolch (W6)", "Dolch (W6)"]}
RÄUBER = {"vig": 8, "cla": 10, "spi": 9, "gd": 2, "ruestung": 1, "waffen": ["Speer (W8)"]}


@pytest.fixture
def bande(tmp_path):
    c = Campaign.open(tmp_path / "k.sqlite")
    c.set_ruleset("bastionland")
    enc = c.new_encounter("Hohlweg")
    enc.add("Ritter", side="Spieler", sheet=RITTER)
    enc.add("Knappe", side="Spieler", sheet=KNAPPE)
    for i in (1, 2, 3):
        enc.add(f"Räuber {i}", side="Räuber", sheet=RÄUBER)
    return enc


def agree(a, b):
    """Two estimates of a chance whose 95 % intervals overlap."""
    return abs(a.p - b.p) <= a.margin + b.margin


def close(played, fast, n_played, n_fast):
    """Two means of a resource within four standard errors of their difference (a comparison holds
    some twenty of them at once, each beyond three by chance once in 370), both taken with the fast
    path's spread (a rare value may never turn up in the fewer fights through the procedures, whose
    spread would then be 0)."""
    sd = fast.margin * math.sqrt(n_fast) / Z95
    return abs(played.value - fast.value) <= 4 * sd * math.sqrt(1 / n_played + 1 / n_fast) + 1e-12


def assert_agree(played, fast):
    assert (played.weg, fast.weg) == ("prozeduren", "kompakt")
    for side in played.win:
        assert agree(played.win[side], fast.win[side]), side
    for name, fig in played.figures.items():
        assert agree(fig.falls, fast.figures[name].falls), name
        for key, mean in fig.resources.items():
            assert close(mean, fast.figures[name].resources[key], played.fights, fast.fights), (name, key)
    margin = 1.96 * (played.rounds.sd / math.sqrt(played.fights) + fast.rounds.sd / math.sqrt(fast.fights))
    assert abs(played.rounds.mean - fast.rounds.mean) <= margin


def assert_within(exact, played, keys=()):
    """An exact forecast within the procedure path's 95 % intervals: every side's chance and every
    figure's chance to fall, and the means of the resources ``keys`` within their margins."""
    for side in exact.win:
        assert played.win[side].low <= exact.win[side].p <= played.win[side].high, side
    for name, fig in exact.figures.items():
        assert played.figures[name].falls.low <= fig.falls.p <= played.figures[name].falls.high, name
        for key in keys:
            got = played.figures[name].resources[key]
            assert abs(got.value - fig.resources[key].value) <= got.margin, (name, key)


@pytest.mark.slow
@pytest.mark.parametrize("moral", [True, False], ids=["moral", "ohne_moral"])
def test_two_against_three_as_the_procedures_play_it(bande, moral):
    played = bande.forecast(n=400, seed=21, weg="prozeduren", moral=moral)
    fast = bande.forecast(n=20_000, seed=21, moral=moral)
    assert_agree(played, fast)
    assert 0.3 < fast.figures["Knappe"].falls.p < 0.99   # the fight is no foregone conclusion for everyone
    assert fast.figures["Knappe"].falls.margin < 0.01 < played.figures["Knappe"].falls.margin


@pytest.mark.slow
def test_morale_of_a_lone_foe_as_the_procedures_play_it(tmp_path):
    """The chief is an individual: wounded, he saves with SPI 9 or flees, on both paths alike."""
    c = Campaign.open(tmp_path / "k.sqlite")
    c.set_ruleset("bastionland")
    enc = c.new_encounter("Hohlweg")
    enc.add("Ritter", side="Spieler", sheet={**RITTER, "vig": 8})
    enc.add("Knappe", side="Spieler", sheet=KNAPPE)
    enc.add("Hauptmann", side="Räuber", sheet={**RÄUBER, "vig": 18, "gd": 7, "ruestung": 3,
                                                "waffen": ["Zweihänder (W12)", "Dolch (W6)"]})
    played = enc.forecast(n=300, seed=8, weg="prozeduren")
    fast = enc.forecast(n=20_000, seed=8, weg="kompakt")
    assert_agree(played, fast)
    assert fast.win["Räuber"].high < 0.5 < enc.forecast(moral=False).win["Räuber"].p   # he may flee


@pytest.mark.slow
@pytest.mark.parametrize("zielwahl", ["schwächste", "verteilen", "gefährlichste"])
def test_every_target_picking_as_the_procedures_play_it(bande, zielwahl):
    """As many fights through the procedures as the two against three above (400; 1,500 took 90 s CPU
    each): the same comparison of intervals, for each way to pick a target."""
    assert_agree(bande.forecast(n=400, seed=5, weg="prozeduren", zielwahl=zielwahl, moral=False),
                 bande.forecast(n=20_000, seed=5, zielwahl=zielwahl, moral=False))


def test_until_precise_in_batches(bande):
    seen = []
    f = bande.forecast(seed=4, precision=0.005, progress=lambda done, planned: seen.append((done, planned)),
                       moral=False)
    assert f.weg == "kompakt" and f.precision <= 0.005 and f.fights == seen[-1][0]
    assert [d for d, _ in seen] == list(range(1000, f.fights + 1, 1000)) and seen[-1][1] == f.fights
    assert "Kämpfe auf dem kompakten Modell" in f.notes[0] and f"{f.fights:,}".replace(",", ".") in f.notes[0]
