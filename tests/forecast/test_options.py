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


def duel(path, opened=None):
    """The Ritter's players have acted; the Söldner's attack stands open with its Deny (its card in
    ``opened``, a list, where given)."""
    c = Campaign.open(path)
    c.set_ruleset("bastionland")
    enc = c.new_encounter("Furt")
    enc.add("Ritter", side="Spieler", sheet=RITTER)
    enc.add("Söldner", side="Söldner", sheet=SÖLDNER)
    enc.start()
    enc.next_turn()
    res = rpgkernel.resolve(ATTACK, campaign=c, dice=FACES)
    if opened is not None:
        opened.append(repr(res))
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
    found, runs = ways(c.state, "Furt", "bastionland", "deny Ritter")
    assert runs == 1 + 20   # the Deny's line, then once for every face of the SPI save's W20
    assert sum(p for p, _ in found.values()) == pytest.approx(1) and len(found) == 2
    assert sorted(round(p, 12) for p, _ in found.values()) == [0.5, 0.5]
    assert all(s["encounters"]["Furt"]["turn"] == 0 and not s.get("pending") for _, s in found.values())
    assert c.state.get("pending")   # the campaign itself is untouched
    # the ways are counted to the last: as many runs as they take, and one fewer is too few
    assert ways(c.state, "Furt", "bastionland", "deny Ritter", most=21) is not None
    assert ways(c.state, "Furt", "bastionland", "deny Ritter", most=20) is None


def test_too_many_ways_are_given_up_before_they_are_all_tried(tmp_path, monkeypatch):
    """Each way still to try takes a run at least: once those outnumber what is left of ``most``, the
    enumeration stops (the W20 save's twenty faces against a limit of 10: after the Deny's line alone)."""
    import rpgkernel.forecast.options as options
    c = duel(tmp_path / "k.sqlite")
    calls = []
    real = options.carry_out
    monkeypatch.setattr(options, "carry_out", lambda *a: calls.append(1) or real(*a))
    assert ways(c.state, "Furt", "bastionland", "deny Ritter", most=10) is None
    assert len(calls) == 1


def test_no_number_where_the_forecast_is_not_exact(tmp_path):
    c = duel(tmp_path / "k.sqlite")
    c.add_condition("Ritter", "beeinträchtigt", rounds=2)   # a condition that runs out: no compact model
    assert option_wins(c.state, "Furt", {"deny": "deny Ritter"}) == {"deny": None}
