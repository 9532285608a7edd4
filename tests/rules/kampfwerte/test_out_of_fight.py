"""Kampfwerte: out of the fight while knocked down (a combat round to get up) and at the LP of the GM's rule
``kampfunfaehig_lp`` (the seed names none; default 0); a whole fight with given dice in which they are skipped,
and healing, the GM's rule and undo bringing them back."""

import pytest

import rpgkernel
from rpgkernel import Campaign, rules
from rpgkernel.rules.figure import view
from rpgkernel.rules.kampfwerte import HexKarte, KampfwerteError, einrichten, karte_setzen

from .test_manoever import KAEL, ORK

ENGINE = rules.get("kampfwerte")


@pytest.mark.parametrize("lp, conditions, data, reason", [
    (1, (), {}, None),
    (0, (), {}, "kampfunfähig (LP 0 ≤ 0, Regel kampfunfaehig_lp)"),
    (-14, ("niedergeworfen",), {}, "kampfunfähig (LP -14 ≤ 0, Regel kampfunfaehig_lp)"),
    (-14, (), {"kampfwerte": {"regeln": {"kampfunfaehig_lp": -20}}}, None),
    (5, ("niedergeworfen",), {}, "niedergeworfen: steht auf"),
    (5, ("entwaffnet",), {}, None),
])
def test_who_is_out_of_the_fight(lp, conditions, data, reason):
    fig = view({"name": "X", "resources": {"LP": {"value": lp, "max": 30}, "AD": {"value": 0, "max": 10}},
                "conditions": {c: {} for c in conditions}})
    assert ENGINE.status.out_of_fight(fig, data) == reason


def test_the_rule_is_checked():
    with pytest.raises(KampfwerteError, match="kampfunfaehig_lp"):
        einrichten(regeln={"kampfunfaehig_lp": "null"})


@pytest.fixture
def camp(tmp_path):
    with Campaign.open(tmp_path / "kw.sqlite") as c:
        c.set_ruleset("kampfwerte")
        enc = c.new_encounter("Gefecht")
        karte_setzen(enc, HexKarte(10, 10))
        enc.add("Kael", sheet=KAEL, side="Spieler")
        enc.add("Ork", sheet=ORK)
        enc.add("Goblin", sheet={**ORK, "NK": 3, "LP": 8})
        rpgkernel.resolve("platziere Kael auf=(2,2)\nplatziere Ork auf=(3,2)\nplatziere Goblin auf=(2,3)", campaign=c)
        yield c


def test_a_whole_fight(camp):
    enc = camp.encounter
    assert enc.start(rolls={"Kael": 20, "Ork": 15, "Goblin": 12}) == ["Kael", "Ork", "Goblin"]
    # round 1: a Wuchtschlag 5 hits (2 successes); the Ork's parry (only a ten) fails: knocked down
    rpgkernel.resolve("manöver Kael -> Ork manöver=Wuchtschlag stufe=5", campaign=camp, dice=[8, 8, 2, 2, 2, 9, 9, 9])
    assert enc.out_of_fight() == {"Ork": "niedergeworfen: steht auf"}
    assert enc.next_turn() == "Goblin"                                     # the Ork's turn spent getting up
    assert "niedergeworfen" not in camp.figure("Ork").conditions and enc.out_of_fight() == {}
    # round 2: Schadenserhöhung 5 (+3W6): W6 + 3W6 = 24 - armour 2 against the Goblin's 8 LP: 0, its lower bound
    assert enc.next_turn() == "Kael" and enc.round == 2
    rpgkernel.resolve("manöver Kael -> Goblin manöver=Schadenserhöhung stufe=5 schaden=W6", campaign=camp,
                      dice=[8, 8, 8, 2, 2, 6, 6, 6, 6])
    assert enc.out_of_fight() == {"Goblin": "kampfunfähig (LP 0 ≤ 0, Regel kampfunfaehig_lp)"}
    assert [enc.next_turn() for _ in range(3)] == ["Ork", "Kael", "Ork"]   # the Goblin skipped
    einrichten(regeln={"kampfunfaehig_lp": -20}, kampagne=camp)           # the GM's rule: fights on to -20
    assert enc.out_of_fight() == {} and enc.next_turn() == "Goblin"
    camp.undo()
    camp.undo()
    assert "Goblin" in enc.out_of_fight() and enc.next_turn() == "Kael"
    camp.change("Goblin", "LP", 20, "Heiltrank")
    assert enc.out_of_fight() == {} and [enc.next_turn() for _ in range(2)] == ["Ork", "Goblin"]
    for _ in range(4):                                                     # the turns, the potion, the turn
        camp.undo()
    assert enc.current == "Ork" and enc.round == 3 and enc.next_turn() == "Kael"
