"""AdZ: out of the fight at the last step of a damage track (unconscious; near death at the last physical
one; beyond it), a whole fight with given dice in which they are skipped, healing and undo bringing them back."""

import pytest

import rpgkernel
from rpgkernel import Campaign, rules, statblocks
from rpgkernel.rules.figure import view

from .test_resolve import FIGURES

ENGINE = rules.get("adz")


def figure(koerperlich=12, geistig=12, conditions=()):
    return view({"name": "X", "resources": {"körperlich": {"value": koerperlich, "max": 12},
                                            "geistig": {"value": geistig, "max": 12}},
                 "conditions": {c: {} for c in conditions}})


@pytest.mark.parametrize("fig, reason", [
    (figure(1, 1), None),
    (figure(geistig=0), "bewusstlos"),
    (figure(conditions=["bewusstlos"]), "bewusstlos"),
    (figure(0, conditions=["bewusstlos", "dem Tod nahe"]), "bewusstlos, dem Tod nahe"),
    (figure(0), "bewusstlos, dem Tod nahe"),
    (figure(0, 0), "bewusstlos, dem Tod nahe"),
    (figure(0, conditions=["bewusstlos", "jenseits der letzten Stufe"]), "bewusstlos, jenseits der letzten Stufe"),
    (view({"name": "Ohne Leisten", "resources": {}}), None),
])
def test_who_is_out_of_the_fight(fig, reason):
    assert ENGINE.status.out_of_fight(fig) == reason


@pytest.fixture
def camp(tmp_path):
    with Campaign.open(tmp_path / "adz.sqlite") as c:
        c.set_ruleset("adz")
        statblocks.load(c, FIGURES)
        enc = c.new_encounter("Lager")
        enc.add("Alrik", side="Spieler", character="Alrik")
        enc.add("Ork", side="Feinde", character="Ork")
        enc.add("Goblin", side="Feinde", count=2,
                sheet={"KK": 3, "KO": 2, "GE": 5, "FF": 3, "KL": 2, "WK": 2, "IN": 4, "CH": 1, "GL": 1})
        yield c


def test_a_whole_fight(camp):
    enc = camp.encounter
    assert enc.start(rolls={"Alrik": 14, "Ork": 11, "Goblin 1": 9, "Goblin 2": 7}) == ["Alrik", "Ork", "Goblin 1",
                                                                                       "Goblin 2"]
    # Alrik: 10 W6, 8 successes; the Ork defends with 1 of 6 W6 and resists with none of 5: 5 + 7 = 12 steps
    res = rpgkernel.resolve("angriff Alrik -> Ork entschieden", campaign=camp,
                            dice=[6] * 8 + [1] * 2 + [6] + [1] * 5 + [1] * 5)
    assert res.outcome["schaden"] == 12 and enc.out_of_fight() == {"Ork": "bewusstlos, dem Tod nahe"}
    assert enc.next_turn() == "Goblin 1"                                   # the Ork skipped
    rpgkernel.resolve("schaden \"Goblin 1\" menge=13 leiste=geistig", campaign=camp)   # 1 step on to the body
    assert enc.next_turn() == "Goblin 2"
    rpgkernel.resolve("schaden \"Goblin 2\" menge=14", campaign=camp)      # two beyond the last step
    assert enc.out_of_fight() == {"Ork": "bewusstlos, dem Tod nahe", "Goblin 1": "bewusstlos",
                                  "Goblin 2": "bewusstlos, jenseits der letzten Stufe"}
    assert [enc.next_turn() for _ in range(2)] == ["Alrik", "Alrik"] and enc.round == 3
    rpgkernel.resolve("heilung Ork stufen=2 magisch", campaign=camp)      # treated at once: saved and awake
    assert "Ork" not in enc.out_of_fight() and enc.next_turn() == "Ork"
    rpgkernel.resolve("heilung \"Goblin 1\" stufen=1 leiste=geistig", campaign=camp)
    assert "Goblin 1" not in enc.out_of_fight() and enc.next_turn() == "Goblin 1"
    camp.undo()
    camp.undo()
    assert enc.out_of_fight()["Goblin 1"] == "bewusstlos" and enc.next_turn() == "Alrik"
    for _ in range(3):                                                     # two turns, the Ork's healing
        camp.undo()
    assert enc.current == "Alrik" and enc.round == 3 and enc.out_of_fight()["Ork"] == "bewusstlos, dem Tod nahe"
    assert enc.next_turn() == "Alrik" and enc.round == 4
