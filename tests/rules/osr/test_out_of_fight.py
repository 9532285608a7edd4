"""OSR: out of the fight when killed, asleep or fleeing, and at the hit points the GM's settings name (the text
is silent: dead at 0 TP or fewer by default, unconscious only with a threshold set); a whole fight with given
dice in which they are skipped, and undo bringing them back."""

import pytest

import rpgkernel
from rpgkernel import Campaign, rules, statblocks
from rpgkernel.rules import limits, osr
from rpgkernel.rules.figure import view
from rpgkernel.rules.osr import OsrError

ENGINE = rules.get("osr")
AD_AND_D = {"osr": {"todesschwelle": -10, "bewusstlos_schwelle": 0}}


def figure(tp=4, conditions=()):
    return view({"name": "X", "resources": {"TP": {"value": tp, "max": 4}}, "conditions": {c: {} for c in conditions}})


@pytest.mark.parametrize("fig, data, reason", [
    (figure(1), {}, None),
    (figure(0), {}, "tot (TP 0 ≤ 0, Einstellung todesschwelle)"),
    (figure(-3), AD_AND_D, "bewusstlos (TP -3 ≤ 0, Einstellung bewusstlos_schwelle)"),
    (figure(-10), AD_AND_D, "tot (TP -10 ≤ -10, Einstellung todesschwelle)"),
    (figure(1), {"osr": {"todesschwelle": 2}}, "tot (TP 1 ≤ 2, Einstellung todesschwelle)"),
    (figure(conditions=["tot"]), {}, "tot"),
    (figure(conditions=["schläft"]), {}, "schläft"),
    (figure(conditions=["flieht"]), {}, "flieht aus dem Kampf"),
    (figure(conditions=["festgehalten"]), {}, None),          # may try to break free on its turn
    (figure(conditions=["betäubt", "liegend"]), {}, None),
])
def test_who_is_out_of_the_fight(fig, data, reason):
    assert ENGINE.status.out_of_fight(fig, data) == reason


def test_the_thresholds_are_checked_and_kept(tmp_path):
    with pytest.raises(OsrError, match="^Todesschwelle: erwartet wird eine ganze Zahl von −1.000 bis 1.000"):
        osr.einrichten(todesschwelle=1.5)
    with pytest.raises(OsrError, match="über der Todesschwelle -10 bis 1.000, nicht -10[.]$"):
        osr.einrichten(todesschwelle=-10, bewusstlos_schwelle=-10)
    with Campaign.open(tmp_path / "k.sqlite") as camp:
        cfg = osr.einrichten(todesschwelle=-10, bewusstlos_schwelle=0, kampagne=camp)
        assert (cfg.todesschwelle, cfg.bewusstlos_schwelle) == (-10, 0)
        assert osr.EINSTELLUNGEN.kept_in(camp) == cfg
    assert osr.EINSTELLUNGEN.defaults().todesschwelle == 0 and osr.EINSTELLUNGEN.defaults().bewusstlos_schwelle is None


FIGHT = """
figuren:
  - name: Hauptmann
    werte: {stufe: 3, rk: 4, tp: 20, angriffsbonus: 1, schadensbonus: 1, waffen: ["Langschwert (W8, Länge 3,5)"]}
  - name: Magier
    werte: {stufe: 1, rk: 9, tp: 4, waffen: ["Dolch (W4)"]}
begegnung:
  name: Höhle
  teilnehmer:
    - figur: Hauptmann
      seite: Gruppe
    - figur: Magier
      seite: Gruppe
    - name: Goblin
      anzahl: 2
      seite: Goblins
      werte: {tw: "1-1", rk: 6, tp: 4, waffen: ["Speer (W6, Länge 8, Sturm)"]}
    - name: Ork
      seite: Goblins
      werte: {tw: "1", rk: 6, tp: 6, waffen: ["Krummsäbel (W8)"]}
"""


def test_a_whole_fight(tmp_path):
    with Campaign.open(tmp_path / "osr.sqlite") as camp:
        camp.set_ruleset("osr")
        statblocks.load(camp, FIGHT)
        limits.einrichten({"TP": -20}, kampagne=camp)   # TP below 0, for the thresholds below it
        enc = camp.encounter
        resolve = lambda line, dice=(): rpgkernel.resolve(line, campaign=camp, dice=list(dice))  # noqa: E731
        assert enc.start(dice=[5, 2]) == ["Hauptmann", "Magier", "Goblin 1", "Goblin 2", "Ork"]
        # round 1
        resolve('angriff Hauptmann -> "Goblin 1"', [18, 6])               # 6 + 1 = 7 against 4 TP
        assert enc.out_of_fight() == {"Goblin 1": "tot (TP -3 ≤ 0, Einstellung todesschwelle)"}
        assert enc.next_turn() == "Magier"
        camp.add_condition("Goblin 2", "schläft")                         # the Magier's sleep spell
        assert enc.next_turn() == "Ork"                                   # both Goblins skipped
        resolve("fliehen Ork -> Hauptmann", [2])                          # the free attack misses
        assert enc.out_of_fight()["Ork"] == "flieht aus dem Kampf"
        # round 2: the Goblins' side first; the flight lasted the round
        assert enc.next_turn(dice=[3, 4]) == "Ork" and enc.round == 2
        osr.einrichten(todesschwelle=-10, bewusstlos_schwelle=0, kampagne=camp)
        assert enc.out_of_fight() == {"Goblin 1": "bewusstlos (TP -3 ≤ 0, Einstellung bewusstlos_schwelle)",
                                      "Goblin 2": "schläft"}
        assert enc.next_turn() == "Hauptmann"
        resolve('angriff Hauptmann -> "Goblin 2" toetung=45', [40])       # killed in its sleep
        assert enc.next_turn() == "Magier"
        # round 3
        assert enc.next_turn(dice=[6, 1]) == "Hauptmann" and enc.round == 3
        resolve('angriff Hauptmann -> "Goblin 1"', [18, 8])               # 9 more: -12
        assert enc.out_of_fight() == {"Goblin 1": "tot (TP -12 ≤ -10, Einstellung todesschwelle)", "Goblin 2": "tot"}
        assert [enc.next_turn() for _ in range(2)] == ["Magier", "Ork"]
        # undo: the two turns, the blow, the turn to round 3, the Magier's turn, the killing in its sleep
        for _ in range(6):
            camp.undo()
        assert enc.out_of_fight()["Goblin 2"] == "schläft" and enc.current == "Hauptmann"
        camp.undo()                                                       # the turn to the Hauptmann
        camp.undo()                                                       # the thresholds: back to the default
        assert enc.out_of_fight()["Goblin 1"] == "tot (TP -3 ≤ 0, Einstellung todesschwelle)"
        camp.remove_condition("Goblin 2", "schläft")                      # woken
        assert enc.next_turn() == "Hauptmann" and enc.next_turn() == "Magier"
        assert enc.next_turn(dice=[2, 5]) == "Goblin 2"
