"""The forecast of a Midgard fight: attacks with the first weapon, divine grace on one's own failed roll."""

from __future__ import annotations

import pytest

from rpgkernel import Campaign, resolve, rules
from rpgkernel.dice import Roller
from rpgkernel.forecast import ForecastError
from rpgkernel.rules.figure import view
from rpgkernel.rules.tactics import Action, Fight

from .duel import a_wins, attack, die

WOLFGANG = {"rw": 50, "waffen": ["Langschwert +10 (W6+2)"], "abwehr": 5, "rs": 1, "lp": 8, "ap": 20}
ORK = {"rw": 40, "waffen": ["Keule +9 (W6+1)"], "abwehr": 4, "rs": 0, "lp": 9, "ap": 20}


def encounter(tmp_path, *figures):
    c = Campaign.open(tmp_path / "k.sqlite")
    c.set_ruleset("midgard")
    enc = c.new_encounter("Gasse")
    for name, side, sheet in figures:
        enc.add(name, side=side, sheet=sheet)
    return c, enc


def p_heavy(angriff: int, abwehr: int) -> float:
    """P(EW: Angriff succeeds and WW: Abwehr fails), by the documented basic rolls: W20 + value, the
    EW succeeds at 20, the WW at the attack's total (a tie defends); a natural 20 always succeeds, a 1
    always fails."""
    hits = 0
    for a in range(1, 21):
        if not (a == 20 or (a != 1 and a + angriff >= 20)):
            continue
        hits += sum(not (d == 20 or (d != 1 and d + abwehr >= a + angriff)) for d in range(1, 21))
    return hits / 400


def test_a_duel_as_a_markov_chain(tmp_path):
    """Only a heavy hit costs LP (damage − RS); initiative is W6 + RW/10 each round, a tie by name
    (Ork before Wolfgang): Wolfgang first with P(W6 + 5 > W6 + 4)."""
    _, enc = encounter(tmp_path, ("Wolfgang", "Helden", WOLFGANG), ("Ork", "Feinde", ORK))
    f = enc.forecast(n=500, seed=3)
    first = sum(a + 5 > b + 4 for a in range(1, 7) for b in range(1, 7)) / 36
    exact = a_wins(8, 9, lambda *_: attack(p_heavy(10, 4), die(6, 2)),
                   lambda *_: attack(p_heavy(9, 5), die(6)), first)   # W6+1 − RS 1
    assert f.win["Helden"].low <= exact <= f.win["Helden"].high
    assert f.draw.p == 0 and f.figures["Ork"].falls.p == f.win["Helden"].p


def test_a_missing_table_of_the_gm_is_named(tmp_path):
    """A damage bonus becomes dice from the GM's list (Ersetzen des festen Schadensbonus): without it the
    forecast stops with the attack's message, also when the tactics read it for the most dangerous."""
    _, enc = encounter(tmp_path, ("Wolfgang", "Helden", {**WOLFGANG, "schb": 2}), ("Ork", "Feinde", ORK))
    for zielwahl in ("schwächste", "gefährlichste"):
        with pytest.raises(ForecastError, match="Die Tabelle 'schadensbonus' fehlt"):
            enc.forecast(n=5, seed=1, zielwahl=zielwahl)


def test_divine_grace_on_ones_own_failed_roll(tmp_path):
    """The attacker repeats a missed EW: Angriff, the defender a WW: Abwehr that failed, once a roll."""
    c, enc = encounter(tmp_path, ("Wolfgang", "Helden", {**WOLFGANG, "gg": 2}), ("Ork", "Feinde", {**ORK, "gg": 1}))
    tactics = rules.get("midgard").tactics

    def decided(source, dice):
        res = resolve(source, campaign=c, dice=dice)
        state = c.state
        combatants = {n: view(c.figure(n, "Gasse").record) for n in state["encounters"]["Gasse"]["combatants"]}
        return tactics.decide(res, Fight(combatants, {}, 1, {}, Roller(dice=[])))

    assert decided("angriff Wolfgang -> Ork", [5]) == [Action("gnade", ("Wolfgang",))]    # 15 misses
    assert decided("gnade Wolfgang", [6]) == [Action("verzicht", ("Wolfgang",))]         # the repeat stands
    resolve("verzicht Wolfgang", campaign=c)
    assert decided("angriff Wolfgang -> Ork", [15]) == [Action("verzicht", ("Wolfgang",))]  # 25 hits: it stands
    assert decided("verzicht Wolfgang", [10]) == [Action("gnade", ("Ork",))]  # 10 + 4 < 25: a heavy hit
    assert decided("gnade Ork", [2]) == [Action("verzicht", ("Wolfgang",))]   # the repeat stands
    assert decided("verzicht Wolfgang", [3]) == [Action("verzicht", ("Wolfgang",))]      # the damage stands


def test_grace_in_a_forecast(tmp_path):
    """Points of divine grace are spent and win fights (about 0.6 without, 0.85 with ten points)."""
    _, enc = encounter(tmp_path, ("Wolfgang", "Helden", WOLFGANG), ("Ork", "Feinde", {**ORK, "lp": 12}))
    without = enc.forecast(n=80, seed=5)
    enc.campaign.set_sheet("Wolfgang", {**WOLFGANG, "gg": 10}, encounter="Gasse")
    with_grace = enc.forecast(n=80, seed=5)
    assert with_grace.win["Helden"].p > without.win["Helden"].p + 0.1
    assert 0 < with_grace.figures["Wolfgang"].resources["GG"].value < 10


def test_target_picking(tmp_path):
    """The weakest has the fewest LP (not LP + AP); the most dangerous takes the most LP on average."""
    c, enc = encounter(tmp_path, ("Wolfgang", "Helden", WOLFGANG),
                       ("Schwach", "Feinde", {**ORK, "lp": 3, "ap": 30, "waffen": ["Dolch +5 (W3)"]}),
                       ("Stark", "Feinde", {**ORK, "lp": 5, "ap": 1, "waffen": ["Zweihänder +11 (2W6+2)"]}))
    tactics = rules.get("midgard").tactics
    everyone = {n: view(c.figure(n, "Gasse").record) for n in ("Wolfgang", "Schwach", "Stark")}
    foes = [everyone["Schwach"], everyone["Stark"]]

    def picked(zielwahl, targeted=None):
        fight = Fight(everyone, {}, 1, {}, Roller(dice=[]), zielwahl, targeted or {})
        return tactics.target(everyone["Wolfgang"], foes, fight).name

    assert picked("schwächste") == "Schwach" and picked("gefährlichste") == "Stark"
    assert picked("verteilen", {"Schwach": 1}) == "Stark"
    fight = Fight(everyone, {}, 1, {}, Roller(dice=[]))
    assert tactics.threat(everyone["Stark"], fight) == pytest.approx(p_heavy(11, 5) * (7 + 2 - 1))   # 2W6+2 − RS 1
    assert tactics.threat(everyone["Schwach"], fight) == pytest.approx(p_heavy(5, 5) * (0 + 1 + 2) / 3)   # W3 − RS 1
