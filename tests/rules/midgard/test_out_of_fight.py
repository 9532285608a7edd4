"""Midgard: out of the fight at the LP of the GM's basic roll ``kampfunfaehig_lp`` (the house rules do not say;
default 0), a whole fight with given dice in which the fallen are skipped, and healing and undo bringing them
back."""

import pytest

import rpgkernel
from rpgkernel import Campaign, rules, statblocks
from rpgkernel.rules import midgard
from rpgkernel.rules.figure import view
from rpgkernel.rules.midgard import MidgardError

ENGINE = rules.get("midgard")


@pytest.mark.parametrize("lp, data, reason", [
    (1, {}, None),
    (0, {}, "kampfunfähig (LP 0 ≤ 0, Grundregel kampfunfaehig_lp)"),
    (-4, {}, "kampfunfähig (LP -4 ≤ 0, Grundregel kampfunfaehig_lp)"),
    (3, {"midgard": {"grundregeln": {"kampfunfaehig_lp": 3}}},
     "kampfunfähig (LP 3 ≤ 3, Grundregel kampfunfaehig_lp)"),
    (None, {}, None),                                        # a figure without LP
])
def test_who_is_out_of_the_fight(lp, data, reason):
    resources = {} if lp is None else {"LP": {"value": lp, "max": 8}, "AP": {"value": 0, "max": 12}}
    assert ENGINE.status.out_of_fight(view({"name": "X", "resources": resources}), data) == reason


def test_the_basic_roll_is_checked():
    assert midgard.core.grundregeln_laden().kampfunfaehig_lp == 0      # the shipped default, as the dataclass has it
    with pytest.raises(MidgardError, match="kampfunfaehig_lp"):
        midgard.core.grundregeln_pruefen({"kampfunfaehig_lp": "drei"}, "meine.yaml")


FIGHT = """
figuren:
  - name: Wolfgang
    werte: {rw: 62, kampftaktik: 2, abwehr: 14, rs: 3, lp: 16, ap: 30, waffen: ["Langschwert +10 (W6+2)"]}
begegnung:
  name: Gasse
  teilnehmer:
    - figur: Wolfgang
      seite: Helden
    - name: Räuber
      anzahl: 2
      seite: Schatten
      werte: {abwehr: 11, rs: 1, rw: 50, waffen: ["Knüppel +5 (W6)"], lp: 8, ap: 12}
"""


def test_a_whole_fight(tmp_path):
    (tmp_path / "streng.yaml").write_text("kampfunfaehig_lp: 3\n", encoding="utf-8")
    with Campaign.open(tmp_path / "m.sqlite") as camp:
        camp.set_ruleset("midgard")
        statblocks.load(camp, FIGHT)
        enc = camp.encounter
        resolve = lambda line, dice: rpgkernel.resolve(line, campaign=camp, dice=dice)  # noqa: E731
        # initiative every round: W6 + 6 + Kampftaktik 2 for Wolfgang, W6 + 5 for each Räuber
        assert enc.start(dice=[4, 2, 1]) == ["Wolfgang", "Räuber 1", "Räuber 2"]
        resolve('angriff Wolfgang -> "Räuber 1"', [15, 3, 6])        # 8 damage - RS 1: LP 8 -> 1
        assert enc.out_of_fight() == {}
        assert [enc.next_turn(), enc.next_turn()] == ["Räuber 1", "Räuber 2"]
        assert enc.next_turn(dice=[1, 3, 5]) == "Räuber 2" and enc.order == ["Räuber 2", "Wolfgang", "Räuber 1"]
        assert enc.next_turn() == "Wolfgang"
        resolve('angriff Wolfgang -> "Räuber 1"', [15, 3, 4])        # 6 - 1: LP 1 -> 0 (the lower bound)
        assert enc.out_of_fight() == {"Räuber 1": "kampfunfähig (LP 0 ≤ 0, Grundregel kampfunfaehig_lp)"}
        assert enc.next_turn(dice=[2, 2, 2]) == "Wolfgang" and enc.round == 3   # Räuber 1 skipped
        resolve('angriff Wolfgang -> "Räuber 2"', [15, 3, 5])        # 7 - 1: LP 8 -> 2
        assert "Räuber 2" not in enc.out_of_fight()
        midgard.einrichten(grundregeln=tmp_path / "streng.yaml", kampagne=camp)   # out at 3 LP or fewer
        assert enc.out_of_fight() == {"Räuber 1": "kampfunfähig (LP 0 ≤ 3, Grundregel kampfunfaehig_lp)",
                                      "Räuber 2": "kampfunfähig (LP 2 ≤ 3, Grundregel kampfunfaehig_lp)"}
        assert enc.next_turn(dice=[6, 1, 1]) == "Wolfgang" and enc.round == 4
        camp.change("Räuber 1", "LP", 2, "Heiltrank")                # LP 0 -> 2: still out at 3
        camp.change("Räuber 2", "LP", 5, "Heiltrank")                # LP 7: back in the fight
        assert list(enc.out_of_fight()) == ["Räuber 1"] and enc.next_turn() == "Räuber 2"
        for _ in range(3):                                           # the turn, the potions
            camp.undo()
        assert enc.next_turn(dice=[1, 1, 2]) == "Wolfgang" and enc.round == 5   # both out again
        for _ in range(3):                                           # that turn, the one before, the basic roll
            camp.undo()
        assert list(enc.out_of_fight()) == ["Räuber 1"] and enc.current == "Wolfgang" and enc.round == 3
        assert enc.next_turn() == "Räuber 2"
