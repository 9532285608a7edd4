"""The forecast without a ruleset: each figure's damage and hit chance come from the GM's data ``prognose``
(docs/kampagne.md, „Ohne Regelwerk: Prognose“); the verb ``schaden`` does the rest."""

from __future__ import annotations

import json
import re

import pytest
from doc_blocks import page, run_python

from rpgkernel import Campaign, rules
from rpgkernel.dice import Roller
from rpgkernel.forecast import ForecastError
from rpgkernel.rules import frei
from rpgkernel.rules.figure import view
from rpgkernel.rules.frei.tactics import DATEN
from rpgkernel.rules.tactics import Action, Fight

from .duel import a_wins, attack, die

DATA = {"alle": {"treffer": "W20>=11"}, "seiten": {"Räuber": {"schaden": "W4+1", "treffer": 0.4}},
        "figuren": {"Alrik": {"schaden": "W6"}}}
TACTICS = rules.get(None).tactics
PAGE = page("kampagne.md")
HEADING = "## Ohne Regelwerk: Prognose"
PAGE_DATA = PAGE.block("python", after=HEADING)


def encounter(tmp_path, *figures, data=DATA):
    c = Campaign.open(tmp_path / "k.sqlite")
    enc = c.new_encounter("Hinterhalt")
    for name, side, sheet in figures:
        enc.add(name, side=side, sheet=sheet)
    c.set_data("prognose", data)
    return c, enc


def test_a_duel_as_a_markov_chain(tmp_path):
    """Alrik (12 HP) hits on a W20 of 11 or more for W6; the robber (8 HP) with 0.4 for W4+1. Initiative
    once, a W20 each; a tie goes by name (Alrik first)."""
    _, enc = encounter(tmp_path, ("Alrik", "Spieler", {"hp": 12}), ("Räuber", "Räuber", {"hp": 8}))
    f = enc.forecast(n=2000, seed=3)
    first = sum(a >= b for a in range(1, 21) for b in range(1, 21)) / 400
    alrik, raeuber = attack(0.5, die(6)), attack(0.4, die(4, 1))
    exact = first * a_wins(12, 8, lambda *_: alrik, lambda *_: raeuber, 1.0) + \
        (1 - first) * a_wins(12, 8, lambda *_: alrik, lambda *_: raeuber, 0.0)
    assert f.win["Spieler"].low <= exact <= f.win["Spieler"].high
    assert f.draw.p == 0 and f.figures["Räuber"].falls.p == f.win["Spieler"].p
    assert 0 <= f.figures["Räuber"].resources["HP"].value < 8


def test_the_gms_resource_counts(tmp_path):
    """With the GM's resource LP (``frei.einrichten``) the verb takes the damage off LP."""
    c = Campaign.open(tmp_path / "k.sqlite")
    frei.einrichten("LP", kampagne=c)
    enc = c.new_encounter("Hinterhalt")
    enc.add("Alrik", side="Spieler", sheet={"lp": 3})
    enc.add("Räuber", side="Räuber", sheet={"lp": 1})
    c.set_data("prognose", {"alle": {"schaden": 1, "treffer": 1}})
    f = enc.forecast(n=5, seed=1)
    # every attack hits for 1: the robber falls to Alrik's first, Alrik loses 1 LP where the robber acts first
    assert f.win["Spieler"].p == 1 and 2 <= f.figures["Alrik"].resources["LP"].value < 3


def test_a_hit_is_the_damage_line_a_miss_nothing(tmp_path):
    c, enc = encounter(tmp_path, ("Alrik", "Spieler", {"hp": 12}), ("Räuber", "Räuber", {"hp": 8}))
    everyone = {n: view(c.figure(n, "Hinterhalt").record) for n in enc.record["combatants"]}

    def planned(dice):
        fight = Fight(everyone, {}, 1, {"prognose": DATA}, Roller(dice=dice))
        return TACTICS.action(everyone["Alrik"], everyone["Räuber"], fight)

    assert planned([11]) == Action("schaden", ("Räuber",), (), {"menge": "W6"})
    assert planned([10]) is None
    fight = Fight(everyone, {}, 1, {"prognose": DATA}, Roller(dice=[2]))   # 0.4 is W5<=2
    assert TACTICS.action(everyone["Räuber"], everyone["Alrik"], fight) == \
        Action("schaden", ("Alrik",), (), {"menge": "W4+1"})


def test_without_the_gms_data_the_forecast_says_what_to_add(tmp_path):
    _, enc = encounter(tmp_path, ("Alrik", "Spieler", {"hp": 12}), ("Räuber", "Räuber", {"hp": 8}), data=None)
    with pytest.raises(ForecastError) as refused:
        enc.forecast(n=10, seed=1)
    said = str(refused.value)
    assert said.startswith("Ohne Regelwerk braucht die Prognose die Angriffe der Figuren: Es gibt kein Verfahren für "
                           "einen Angriff")
    example = said.partition("Etwa: ")[2]
    assert example.startswith('kampagne.set_data("prognose", {"alle": {"schaden": ')
    enc.campaign.set_data("prognose", json.loads(example.partition(", ")[2][:-1]))   # the example is data that fits
    assert enc.forecast(n=5, seed=1).fights == 5


@pytest.mark.parametrize("data, words", [
    ({"alle": {"schaden": "W6"}},
     "Die Daten „prognose“ nennen für Alrik (Seite Spieler) kein „treffer“: ein Würfelausdruck, der Erfolg oder "
     "Fehlschlag ergibt"),
    ({"figuren": {"Alrik": {"schaden": "W6", "treffer": 0.5}}}, "für Räuber (Seite Räuber) kein „schaden“"),
    ({**DATA, "alle": {"treffer": "2W6"}}, "passt „treffer“ unter „alle“ nicht"),
    ({**DATA, "alle": {"treffer": 1.5}}, "passt „treffer“ unter „alle“ nicht: 1.5"),
    ({**DATA, "alle": {"treffer": True}}, "passt „treffer“ unter „alle“ nicht: true"),
    ({**DATA, "seiten": {"Räuber": {"schaden": "W4+"}}}, "passt „schaden“ unter „seiten“ → „Räuber“ nicht"),
    ({**DATA, "seiten": {"Räuber": "W4"}}, "ist „seiten“ → „Räuber“ eine Tabelle der Angaben"),
    ({**DATA, "alle": {"manöver": "Finte"}},
     "steht unter „alle“ „manöver“, das die Prognose nicht kennt; bekannt sind: schaden, treffer"),
])
def test_missing_or_bad_data_is_refused_in_german(tmp_path, data, words):
    _, enc = encounter(tmp_path, ("Alrik", "Spieler", {"hp": 12}), ("Räuber", "Räuber", {"hp": 8}), data=data)
    with pytest.raises(ForecastError, match=re.escape(words)):
        enc.forecast(n=5, seed=1)


def test_a_figure_without_the_resource_that_counts_is_named(tmp_path):
    _, enc = encounter(tmp_path, ("Alrik", "Spieler", {"hp": 12}), ("Räuber", "Räuber", {"stärke": 8}))
    with pytest.raises(ForecastError, match="'Räuber' hat keine HP/LP: ohne Regelwerk ändern schaden und heilung"):
        enc.forecast(n=5, seed=1)


def test_target_picking(tmp_path):
    """The weakest has the least of the resource that counts (not of all its resources); the most dangerous
    the highest mean of its schaden times its treffer."""
    data = {"alle": {"schaden": "W6", "treffer": 0.5},
            "figuren": {"Bandit": {"schaden": "2W6-4", "treffer": "W20>=6"}}}
    c, enc = encounter(tmp_path, ("Alrik", "Spieler", {"hp": 12}), data=data)
    enc.add("Räuber", side="Räuber", sheet={"hp": 5}, resources={"Mut": 30})
    enc.add("Bandit", side="Räuber", sheet={"hp": 9})
    everyone = {n: view(c.figure(n, "Hinterhalt").record) for n in enc.record["combatants"]}
    foes = [everyone["Räuber"], everyone["Bandit"]]

    def picked(zielwahl, targeted=None):
        fight = Fight(everyone, {}, 1, {"prognose": data}, Roller(dice=[]), zielwahl, targeted or {})
        return TACTICS.target(everyone["Alrik"], foes, fight).name

    assert picked("schwächste") == "Räuber" and picked("gefährlichste") == "Bandit"
    assert picked("verteilen", {"Räuber": 1}) == "Bandit"
    fight = Fight(everyone, {}, 1, {"prognose": data}, Roller(dice=[]))
    below_zero = {s - 4: sum(1 for a in range(1, 7) for b in range(1, 7) if a + b == s) / 36 for s in range(2, 13)}
    assert TACTICS.threat(everyone["Bandit"], fight) == pytest.approx(
        sum(max(0, x) * p for x, p in below_zero.items()) * 0.75)   # below 0 counts as 0
    assert TACTICS.threat(everyone["Räuber"], fight) == pytest.approx(3.5 * 0.5)


def test_the_pages_forecast(tmp_path):
    """The page's block in the ambush without a ruleset: Alrik (12 HP, 60 % for W8+1) against two goblins
    (5 HP, 50 % for W6 each); the table names every field."""
    c, enc = encounter(tmp_path, ("Alrik", "Spieler", {"hp": 12}), data=None)
    enc.add("Goblin", side="Räuber", sheet={"hp": 5}, count=2)
    names = {"kampagne": c}
    p = run_python(PAGE_DATA.text, names)
    f = names["prognose"]
    assert p == f.win["Spieler"].p and f.fights == 500 and f.draw.p == 0
    assert c.data("prognose")["figuren"]["Alrik"] == {"schaden": "W8+1", "treffer": 0.6}
    assert 0.3 < p < 0.9 and set(f.figures) == {"Alrik", "Goblin 1", "Goblin 2"}
    table = PAGE.text.partition(HEADING)[2]
    for key in DATEN.fields:   # each field with its English alias
        english = next(alias for alias, german in DATEN.aliases.items() if german == key)
        assert f"| `{key}` (`{english}`) |" in table
