"""The chance of winning after each option of an open choice: every way the dice after the decision
fall, then the exact forecast; checked against twin campaigns that took the option with given dice."""

from __future__ import annotations

import pytest

import rpgkernel
from rpgkernel import Campaign
from rpgkernel.forecast.options import option_wins, ways

RITTER = {"vig": 6, "cla": 10, "spi": 10, "gd": 2, "ruestung": 1, "waffen": ["Schwert (W8)"], "spielfigur": True}
SÖLDNER = {"vig": 5, "cla": 8, "spi": 8, "gd": 2, "ruestung": 1, "waffen": ["Speer (W8)"]}
ATTACK, FACES = "angriff Söldner -> Ritter", [7]   # the Söldner's W8 shows 7: 6 damage after armour


def duel(path):
    """The Ritter's players have acted; the Söldner's attack stands open with its Deny."""
    c = Campaign.open(path)
    c.set_ruleset("bastionland")
    enc = c.new_encounter("Furt")
    enc.add("Ritter", side="Spieler", sheet=RITTER)
    enc.add("Söldner", side="Söldner", sheet=SÖLDNER)
    enc.start()
    enc.next_turn()
    rpgkernel.resolve(ATTACK, campaign=c, dice=FACES)
    return c


def after(path, line, dice):
    """The exact forecast of a twin campaign that took ``line`` with ``dice`` and passed the turn."""
    c = duel(path)
    rpgkernel.resolve(line, campaign=c, dice=dice)
    c.encounter.next_turn()
    return c.encounter.forecast(weg="exakt").win["Spieler"].p


def test_deny_or_not_as_twin_campaigns_take_it(tmp_path):
    c = duel(tmp_path / "k.sqlite")
    wins = option_wins(c.state, "Furt", {"deny": "deny Ritter", "kein Deny": "verzicht Ritter"})
    # without Deny the damage stands; no die follows
    assert wins["kein Deny"]["Spieler"] == pytest.approx(after(tmp_path / "a.sqlite", "verzicht Ritter", []), abs=1e-12)
    # with Deny the SPI save follows (W20 ≤ SPI 10: kept; else Fatigued): half the faces each way
    kept = after(tmp_path / "b.sqlite", "deny Ritter", [10])
    tired = after(tmp_path / "c.sqlite", "deny Ritter", [11])
    assert wins["deny"]["Spieler"] == pytest.approx(0.5 * kept + 0.5 * tired, abs=1e-12)
    assert wins["deny"]["Spieler"] > wins["kein Deny"]["Spieler"]
    assert sum(wins["deny"].values()) == pytest.approx(1, abs=1e-9)


def test_the_ways_the_dice_fall(tmp_path):
    c = duel(tmp_path / "k.sqlite")
    found = ways(c.state, "Furt", "bastionland", "deny Ritter")
    assert sum(p for p, _ in found) == pytest.approx(1) and len(found) == 2
    assert sorted(round(p, 12) for p, _ in found) == [0.5, 0.5]
    assert all(s["encounters"]["Furt"]["turn"] == 0 and not s.get("pending") for _, s in found)
    assert c.state.get("pending")   # the campaign itself is untouched


def test_no_number_where_the_forecast_is_not_exact(tmp_path):
    c = duel(tmp_path / "k.sqlite")
    c.add_condition("Ritter", "beeinträchtigt", rounds=2)   # a condition that runs out: no compact model
    assert option_wins(c.state, "Furt", {"deny": "deny Ritter"}) == {"deny": None}
