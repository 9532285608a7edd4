"""Mythic Bastionland: who is out of the fight (dead, dying of a mortal wound, fled or surrendered, a warband
routed, destroyed or broken, a ship destroyed, the first turn lost), a whole fight with given dice in which
they are skipped, and undo bringing them back."""

import pytest

import rpgkernel
from rpgkernel import Campaign, rules
from rpgkernel.rules.figure import view

ENGINE = rules.get("bastionland")


def figure(kind="Person", conditions=(), **values):
    base = {"GD": 3, "VIG": 10, "CLA": 10, "SPI": 10}
    resources = {k: {"value": values.get(k, v), "max": v} for k, v in base.items()}
    return view({"name": "X", "sheet": {"art": kind}, "resources": resources,
                 "conditions": {c: {} for c in conditions}})


@pytest.mark.parametrize("fig, reason", [
    (figure(conditions=["verwundet"]), None),
    (figure(VIG=0, conditions=["entkräftet"]), None),        # Virtue Loss: no attack after moving, still acting
    (figure(CLA=0), None),                                    # exposed, still acting
    (figure(conditions=["verwundet", "Todeswunde"]), "sterbend (Todeswunde)"),
    (figure(VIG=0, conditions=["verwundet", "Todeswunde", "tot"]), "tot"),
    (figure(conditions=["flieht oder ergibt sich"]), "flieht oder ergibt sich"),
    (figure(conditions=["setzt aus"]), "setzt im ersten Zug aus"),
    (figure("Kriegsschar", ["vertrieben"]), "vom Schlachtfeld vertrieben"),
    (figure("Kriegsschar", VIG=0), "vernichtet (Kriegsschar)"),
    (figure("Kriegsschar", SPI=0), "gebrochen: befolgt keine Befehle mehr"),
    (figure("Kriegsschar", ["gebrochen"]), "gebrochen: befolgt keine Befehle mehr"),
    (figure("Person", SPI=0), None),                          # impaired attacks, still acting
    (figure("Schiff", GD=0), "zerstört"),
    (figure("Bauwerk", ["zerstört"]), "zerstört"),
    (figure("Schiff", GD=1), None),
])
def test_who_is_out_of_the_fight(fig, reason):
    assert ENGINE.status.out_of_fight(fig) == reason


@pytest.fixture
def camp(tmp_path):
    with Campaign.open(tmp_path / "k.sqlite") as c:
        c.set_ruleset("bastionland")
        c.add_character("Ritter", {"vig": 13, "cla": 10, "spi": 13, "gd": 5,
                                   "waffen": ["Streitkolben (W8, wuchtig)", "Schild (W4)"]})
        enc = c.new_encounter("Furt")
        enc.add("Ritter", side="Spieler", character="Ritter")
        enc.add("Knappe", side="Spieler", sheet={"vig": 10, "cla": 10, "spi": 10, "gd": 3,
                                                 "waffen": ["Dolch (W6)", "Dolch (W6)"]})
        enc.add("Söldner", side="Feinde", sheet={"vig": 13, "cla": 10, "spi": 10, "gd": 4, "ruestung": 2,
                                                 "waffen": ["Speer (W8, wuchtig)", "Schild (W4)"]})
        enc.add("Wache", side="Feinde", sheet={"vig": 6, "cla": 10, "spi": 12, "gd": 3, "waffen": ["Keule (W6)"]})
        enc.add("Miliz", side="Feinde", sheet={"vig": 10, "cla": 10, "spi": 7, "gd": 3, "art": "Kriegsschar",
                                               "waffen": ["Rohe Stangenwaffe (W8, lang)"]})
        enc.add("Plänkler", side="Feinde", sheet={"vig": 10, "cla": 13, "spi": 10, "gd": 2, "art": "Kriegsschar",
                                                  "waffen": ["Kurzbogen (W6, lang)"]})
        yield c


def resolve(camp, line, dice=()):
    return rpgkernel.resolve(line, campaign=camp, dice=list(dice))


def test_a_whole_fight(camp):
    enc = camp.encounter
    resolve(camp, "überraschung Plänkler", [20])                         # CLA 13: loses its first turn
    assert enc.start() == ["Ritter", "Knappe", "Söldner", "Wache", "Miliz", "Plänkler"]
    # round 1
    resolve(camp, "angriff Ritter -> Söldner entschieden", [8, 4])       # 8 - A2 = 6 against GD 4: wounded
    assert enc.next_turn() == "Knappe"
    resolve(camp, "angriff Knappe -> Wache entschieden", [6, 1])         # VIG 6 -> 3: a mortal wound
    resolve(camp, "moral Söldner", [15])                                 # SPI 10: flees or surrenders
    assert enc.out_of_fight() == {"Söldner": "flieht oder ergibt sich", "Wache": "sterbend (Todeswunde)",
                                  "Plänkler": "setzt im ersten Zug aus"}
    assert enc.next_turn() == "Miliz"                                    # Söldner and Wache skipped
    assert enc.next_turn() == "Ritter" and enc.round == 2                # the Plänkler's first turn lost
    assert "Plänkler" not in enc.out_of_fight()                          # ready from round 2 on
    # round 2
    resolve(camp, "angriff Ritter -> Miliz blast entschieden", [8, 4])   # a warband's mortal wound: routed
    assert enc.next_turn() == "Knappe"
    resolve(camp, "verlust Plänkler virtue=SPI um=10")                   # SPI 0: broken
    assert enc.next_turn() == "Ritter" and enc.round == 3                # every foe skipped
    # round 3
    resolve(camp, "angriff Ritter -> Wache entschieden", [3, 1])         # VIG 3 -> 0: dead
    assert enc.out_of_fight() == {"Söldner": "flieht oder ergibt sich", "Wache": "tot",
                                  "Miliz": "vom Schlachtfeld vertrieben",
                                  "Plänkler": "gebrochen: befolgt keine Befehle mehr"}
    assert [enc.next_turn() for _ in range(3)] == ["Knappe", "Ritter", "Knappe"]
    assert enc.order == ["Ritter", "Knappe", "Söldner", "Wache", "Miliz", "Plänkler"]
    # undo: the turns, the killing blow (dying again), the turn, the Plänkler's SPI
    for _ in range(3):
        camp.undo()
    camp.undo()
    assert enc.out_of_fight()["Wache"] == "sterbend (Todeswunde)"
    camp.undo()
    camp.undo()
    assert "Plänkler" not in enc.out_of_fight() and enc.current == "Knappe" and enc.round == 2
    assert enc.next_turn() == "Plänkler"
