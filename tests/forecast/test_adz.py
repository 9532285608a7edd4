"""The forecast of an AdZ fight: the melee chain with the first melee weapon, the luck pool where an
attack did not go one's way."""

from __future__ import annotations

from math import comb

import pytest

from rpgkernel import Campaign, resolve, rules
from rpgkernel.dice import Roller
from rpgkernel.forecast import ForecastError
from rpgkernel.rules import adz
from rpgkernel.rules.figure import view
from rpgkernel.rules.tactics import Action, Fight

from .duel import a_wins

ALRIK = {"KK": 5, "KO": 4, "GE": 6, "FF": 3, "KL": 3, "WK": 4, "IN": 5, "CH": 2, "GL": 3,
         "fertigkeiten": ["Schwerter 6", "Verteidigung 5"], "waffen": ["Langschwert (Schwerter, KK, GS 5)"],
         "ausruestung": ["Kettenhemd (RS 2, WB 1, AM 1)"]}
ORK = {"KK": 6, "KO": 5, "GE": 4, "FF": 2, "KL": 2, "WK": 3, "IN": 3, "CH": 1, "GL": 1,
       "fertigkeiten": ["Äxte 5", "Verteidigung 3"], "waffen": ["Axt (Äxte, KK, GS 6, VM -1)"]}
#: the injury malus per marked step of the default damage track (docs/adz.md: 12 steps, the last "X")
MALUS = (0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 6)


def encounter(tmp_path, *figures):
    c = Campaign.open(tmp_path / "k.sqlite")
    c.set_ruleset("adz")
    enc = c.new_encounter("Hohlweg")
    for name, side, sheet in figures:
        enc.add(name, side=side, sheet=sheet)
    return c, enc


def successes(dice: int) -> dict[int, float]:
    """Erfolge: each W6 showing 5 or 6 is one, so a pool's successes are binomial with p = 1/3."""
    dice = max(0, dice)
    return {k: comb(dice, k) * (1 / 3) ** k * (2 / 3) ** (dice - k) for k in range(dice + 1)}


def chain(attack: int, defence: int, gs: int, rs: int, resistance: int) -> dict[int, float]:
    """The melee chain by the seed: defence successes cancel attack successes, one left is a hit for
    Grundschaden + the rest − RS, each resistance success takes one off."""
    out: dict[int, float] = {}
    for a, pa in successes(attack).items():
        for d, pd in successes(defence).items():
            before = max(0, gs + a - d - rs) if a - d >= 1 else 0
            for r, pr in (successes(resistance) if before else {0: 1.0}).items():
                final = max(0, before - r)
                out[final] = out.get(final, 0.0) + pa * pd * pr
    return out


def test_a_duel_as_a_markov_chain(tmp_path):
    """Alrik (attack KK 5 + Schwerter 6 − AM 1, defence GE 6 + Verteidigung 5, RS 2, resistance KO 4 +
    WB 1) against an orc with a shield (attack 6 + 5 − AM 1, defence 4 + 5 − VM 1 of the axe + VM 2,
    resistance 5); the injury malus of the marked steps comes off attack and defence. Initiative once:
    2W6 + (IN + Reflexe) × 2, ties rolled off. Without luck (both pools emptied)."""
    c, enc = encounter(tmp_path, ("Alrik", "Spieler", ALRIK),
                       ("Ork", "Feinde", {**ORK, "fertigkeiten": ["Äxte 5", "Verteidigung 5"],
                                          "ausruestung": ["Holzschild (VM 2, AM 1)"]}))
    c.change("Alrik", "Glückspool", -3)
    c.change("Ork", "Glückspool", -1)
    f = enc.forecast(n=400, seed=1)

    def malus(free: int) -> int:
        return MALUS[12 - free]

    def alrik(ka, ko):
        return chain(10 - malus(ka), 10 - malus(ko), 5, 0, 5)

    def ork(ka, ko):
        return chain(10 - malus(ko), 11 - malus(ka), 6, 2, 5)

    two = {s: sum(1 for x in range(1, 7) for y in range(1, 7) if x + y == s) / 36 for s in range(2, 13)}
    first = sum(p * q * (1 if 10 + x > 6 + y else 0.5 if 10 + x == 6 + y else 0)
                for x, p in two.items() for y, q in two.items())
    exact = first * a_wins(12, 12, alrik, ork, 1.0) + (1 - first) * a_wins(12, 12, alrik, ork, 0.0)
    assert f.win["Spieler"].low <= exact <= f.win["Spieler"].high
    assert f.draw.p == 0 and f.figures["Ork"].falls.p == f.win["Spieler"].p
    assert f.figures["Alrik"].resources["Glückspool"].value == 0


@pytest.mark.slow
def test_luck_in_a_forecast(tmp_path):
    """The luck pools are spent (and never below 0) and win fights."""
    c, enc = encounter(tmp_path, ("Alrik", "Spieler", ALRIK), ("Ork", "Feinde", {**ORK, "GL": 6}))
    lucky = enc.forecast(n=100, seed=2)
    c.change("Ork", "Glückspool", -6)
    unlucky = enc.forecast(n=100, seed=2)
    assert lucky.win["Feinde"].p > unlucky.win["Feinde"].p + 0.1
    assert 0 < lucky.figures["Ork"].resources["Glückspool"].value < 6


def test_luck_where_an_attack_did_not_go_ones_way(tmp_path):
    """The attacker after a miss or a parry (its attack roll), the target after a hit that left damage
    (its defence roll); nobody after a hit without damage."""
    c, _ = encounter(tmp_path, ("Alrik", "Spieler", ALRIK), ("Ork", "Feinde", ORK))
    tactics = rules.get("adz").tactics

    def decided(source, dice):
        res = resolve(source, campaign=c, dice=dice)
        combatants = {n: view(c.figure(n, "Hohlweg").record) for n in ("Alrik", "Ork")}
        decision = tactics.decide(res, Fight(combatants, {}, 1, {}, Roller(dice=[])))
        resolve("verzicht Alrik", campaign=c)
        return decision

    miss, parried = [1] * 10, [6] + [1] * 9 + [6] + [1] * 5
    assert decided("angriff Alrik -> Ork verteidigt", miss) == [Action("glück", ("Alrik",), (), {"wurf": "angriff"})]
    assert decided("angriff Alrik -> Ork verteidigt", parried) == [
        Action("glück", ("Alrik",), (), {"wurf": "angriff"})]
    # one success left: 6 + 1 − RS 2 = 5, all five resisted: a hit without damage, nobody spends
    glancing = [6] + [1] * 10 + [1] * 11 + [6] * 5
    assert decided("angriff Ork -> Alrik verteidigt", glancing) == [Action("verzicht", ("Ork",))]
    # his second reaction (half of 11 dice: 6), three successes left: 6 + 3 − 2 = 7, none resisted:
    # Alrik tries his defence again
    hit = [6, 6, 6] + [1] * 8 + [1] * 6 + [1] * 5
    assert decided("angriff Ork -> Alrik verteidigt", hit) == [
        Action("glück", ("Alrik",), (), {"wurf": "verteidigung"})]


def test_the_target_always_defends(tmp_path):
    """The forecast's line says so (``verteidigt``); an open defence, such as one the campaign holds when
    the forecast begins, the target takes."""
    c, enc = encounter(tmp_path, ("Alrik", "Spieler", ALRIK), ("Ork", "Feinde", ORK))
    tactics = rules.get("adz").tactics
    asked = resolve("angriff Alrik -> Ork", campaign=c, dice=[6] + [1] * 9)
    assert enc.forecast(n=3, seed=1).fights == 3    # the open defence taken first, then the fights played
    combatants = {n: view(c.figure(n, "Hohlweg").record) for n in ("Alrik", "Ork")}
    assert tactics.decide(asked, Fight(combatants, {}, 1, {}, Roller(dice=[]))) == [Action("verteidigen", ("Ork",))]
    assert tactics.action(combatants["Alrik"], combatants["Ork"], Fight(combatants, {}, 1, {}, Roller(dice=[]))) \
        == Action("angriff", ("Alrik",), ("Ork",), {"verteidigt": True})


def figures(tmp_path):
    c, enc = encounter(tmp_path, ("Alrik", "Spieler", ALRIK), ("Ork", "Feinde", ORK),
                       ("Wolf", "Feinde", {**ORK, "fertigkeiten": ["Beißen 5"],
                                           "waffen": ["Biss (Beißen, KK, GS 8)"]}))
    c.change("Ork", "geistig", -10)      # 12 and 2 free steps: the weakest, though 14 in all
    c.change("Wolf", "körperlich", -7)   # 5 and 8 free steps, 13 in all
    c.change("Wolf", "geistig", -4)
    c.add_character("Schütze", {**ALRIK, "waffen": ["Kurzbogen (Bögen, GS 3, RK C)",
                                                    "Langschwert (Schwerter, KK, GS 5)"]})
    return {n: view(c.figure(n, "Hohlweg" if n != "Schütze" else None).record)
            for n in (*enc.record["combatants"], "Schütze")}


def test_target_picking(tmp_path):
    """The weakest has the fewest free steps on either track; the most dangerous does the most damage."""
    everyone = figures(tmp_path)
    tactics = rules.get("adz").tactics
    foes = [everyone["Ork"], everyone["Wolf"]]

    def picked(zielwahl, targeted=None):
        fight = Fight(everyone, {}, 1, {}, Roller(dice=[]), zielwahl, targeted or {})
        return tactics.target(everyone["Alrik"], foes, fight).name

    assert picked("schwächste") == "Ork" and picked("gefährlichste") == "Wolf"
    assert picked("verteilen", {"Ork": 1, "Wolf": 2}) == "Ork" and picked("verteilen", {"Ork": 2}) == "Wolf"
    fight = Fight({n: f for n, f in everyone.items() if n != "Schütze"}, {}, 1, {}, Roller(dice=[]))
    mean = lambda d: sum(x * p for x, p in d.items())   # noqa: E731
    # the injury malus: the Ork's 10 marked mental steps −5, the wolf's 7 physical −3
    assert tactics.threat(everyone["Ork"], fight) == pytest.approx(mean(chain(11 - 5, 11, 6, 2, 5)))
    assert tactics.threat(everyone["Wolf"], fight) == pytest.approx(mean(chain(6 + 5 - 3, 11, 8, 2, 5)))


@pytest.mark.slow
def test_the_target_picking_in_a_forecast(tmp_path):
    """Alrik against a harmless orc with two free mental steps and a wolf with a GS 8 bite: going for the
    weakest first loses more fights than going for the most dangerous (about 0.75 against 0.95)."""
    c, enc = encounter(tmp_path, ("Alrik", "Spieler", ALRIK), ("Ork", "Feinde", ORK),
                       ("Wolf", "Feinde", {**ORK, "fertigkeiten": ["Beißen 5"],
                                           "waffen": ["Biss (Beißen, KK, GS 8)"]}))
    c.change("Ork", "geistig", -10)
    c.change("Wolf", "körperlich", -7)
    c.change("Wolf", "geistig", -4)
    weakest, dangerous = (enc.forecast(n=100, seed=3, zielwahl=z) for z in ("schwächste", "gefährlichste"))
    assert dangerous.win["Spieler"].p > weakest.win["Spieler"].p + 0.1
    assert dangerous.zielwahl == "gefährlichste"


def test_the_first_melee_weapon(tmp_path):
    """A bow listed first: the forecast fights with the sword (it knows no distances)."""
    everyone = figures(tmp_path)
    fight = Fight(everyone, {}, 1, {}, Roller(dice=[]))
    tactics = rules.get("adz").tactics
    assert tactics.action(everyone["Schütze"], everyone["Ork"], fight) == \
        Action("angriff", ("Schütze",), ("Ork",), {"waffe": "Langschwert", "verteidigt": True})
    assert tactics.action(everyone["Alrik"], everyone["Ork"], fight) == \
        Action("angriff", ("Alrik",), ("Ork",), {"verteidigt": True})


def test_without_a_melee_weapon_or_the_gms_list(tmp_path):
    """A bow alone needs a distance the forecast does not know; a weapon named from the GM's list that
    the campaign no longer holds: the forecast stops with the rules' message."""
    c, enc = encounter(tmp_path, ("Alrik", "Spieler", {**ALRIK, "waffen": ["Kurzbogen (Bögen, GS 3, RK C)"]}),
                       ("Ork", "Feinde", ORK))
    with pytest.raises(ForecastError, match="Fernkampf: Wie weit"):
        enc.forecast(n=5, seed=1)
    adz.einrichten(adz.DATA / "beispiel_ausruestung.yaml", kampagne=c)
    c.set_sheet("Alrik", {**ALRIK, "waffen": ["Langschwert"]}, encounter="Hohlweg")
    adz.einrichten(kampagne=c)
    with pytest.raises(ForecastError, match="'Langschwert' steht in keiner Waffenliste"):
        enc.forecast(n=5, seed=1)
