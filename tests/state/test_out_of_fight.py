"""Out of the fight in an encounter: the turns of combatants who can no longer act are skipped (a setting
of the encounter, on by default), read from the state as it stands, so healing and undo bring them back;
play without a ruleset goes by the hit points (HP, else LP)."""

import pytest

from rpgkernel.rules.kit import Initiative, Ruleset, Status
from rpgkernel.rules.figure import view
from rpgkernel.rules.sheet import Field, Sheet
from rpgkernel.state import Campaign, CampaignError


class ZaehInitiative(Initiative):
    def expression(self, combatant):
        return "W6"


class ZaehBogen(Sheet):
    def resources(self, sheet, data):
        return {"LP": {"value": sheet["lp"], "max": sheet["lp"]}}


class ZaehStatus(Status):
    def out_of_fight(self, figure, data=None):
        figure = view(figure)
        if figure.current("LP", 1) <= 0:
            return "kampfunfähig"
        return next((c for c in ("bewusstlos", "liegt") if figure.has(c)), None)


class Zaeh(Ruleset):
    """A ruleset for tests: out of the fight at 0 LP or below, while "bewusstlos", and while "liegt"
    (which a knock-down gives until the end of the figure's own next turn); W6 initiative."""

    key = "zaeh"
    sheet = ZaehBogen({"lp": Field("int", "LP", 1, 99, required=True)})
    initiative = ZaehInitiative()
    status = ZaehStatus()


@pytest.fixture(autouse=True)
def zaeh_ruleset(add_ruleset):
    add_ruleset(Zaeh)


@pytest.fixture
def camp(tmp_path):
    with Campaign.open(tmp_path / "k.sqlite") as c:
        c.set_ruleset("zaeh")
        yield c


def fight(camp, order=("Ritter", "Ork 1", "Ork 2", "Knappe")):
    camp.add_character("Ritter", {"lp": 8})
    enc = camp.new_encounter("Furt")
    enc.add("Ritter", side="Spieler", character="Ritter")
    enc.add("Knappe", side="Spieler", sheet={"lp": 5})
    enc.add("Ork", side="Feinde", sheet={"lp": 6}, count=2)
    enc.start(order=list(order))
    return enc


def test_the_fallen_are_skipped_and_come_back_when_healed_or_undone(camp):
    enc = fight(camp)
    camp.change("Ork 1", "LP", -7)
    assert enc.out_of_fight() == {"Ork 1": "kampfunfähig"}
    assert [enc.next_turn() for _ in range(4)] == ["Ork 2", "Knappe", "Ritter", "Ork 2"]
    assert enc.order == ["Ritter", "Ork 1", "Ork 2", "Knappe"]   # nothing removed from the order
    assert camp.journal(kind="zug")[-1].data["text"] == "Runde 2: Ork 2 ist am Zug"
    camp.change("Ork 1", "LP", 3)                                 # healed: in the fight again
    assert enc.out_of_fight() == {}
    assert [enc.next_turn() for _ in range(2)] == ["Knappe", "Ritter"]
    assert enc.next_turn() == "Ork 1"
    for _ in range(4):                                            # back to before the turns and the healing
        camp.undo()
    assert enc.current == "Ork 2" and enc.out_of_fight() == {"Ork 1": "kampfunfähig"}
    assert [camp.undo() for _ in range(4)] == [["Runde 2: Ork 2 ist am Zug"], ["Runde 2: Ritter ist am Zug"],
                                               ["Runde 1: Knappe ist am Zug"], ["Runde 1: Ork 2 ist am Zug"]]
    camp.undo()                                                   # the blow itself
    assert enc.out_of_fight() == {} and enc.current == "Ritter" and enc.next_turn() == "Ork 1"


def test_a_skipped_turn_still_counts_its_moments(camp):
    """Knocked down until the end of its next turn: that turn is passed (the condition ends at its end),
    the one after it is taken; a condition of the round counts down as before."""
    enc = fight(camp)
    camp.add_condition("Ork 1", "liegt", rounds=1, ends="zugende")
    camp.add_condition("Ork 2", "verflucht", rounds=1, ends="zugbeginn")
    assert enc.out_of_fight() == {"Ork 1": "liegt"}
    assert enc.next_turn() == "Ork 2"
    assert "liegt" not in camp.figure("Ork 1").conditions and "verflucht" not in camp.figure("Ork 2").conditions
    assert [enc.next_turn() for _ in range(3)] == ["Knappe", "Ritter", "Ork 1"]


def test_start_and_next_round_skip_too(camp):
    camp.add_character("Ritter", {"lp": 8})
    enc = camp.new_encounter("Furt")
    enc.add("Ritter", character="Ritter")
    enc.add("Ork", sheet={"lp": 6}, count=2, conditions={"bewusstlos": {}})
    assert enc.start(rolls={"Ritter": 1, "Ork 1": 6, "Ork 2": 5}) == ["Ork 1", "Ork 2", "Ritter"]
    assert enc.current == "Ritter" and enc.round == 1             # the order stays, the turn passes them
    assert enc.next_round() == 2 and enc.current == "Ritter"
    assert enc.next_round(new_initiative=True, dice=[2, 3, 4]) == 3 and enc.order == ["Ork 2", "Ork 1", "Ritter"]
    assert enc.current == "Ritter"
    camp.remove_condition("Ork 2", "bewusstlos")
    assert enc.next_round() == 4 and enc.current == "Ork 2"


def test_a_new_round_rolled_while_skipping_uses_the_given_dice_once(camp, monkeypatch):
    monkeypatch.setattr(Zaeh.initiative, "each_round", True)
    enc = fight(camp)
    camp.add_condition("Knappe", "bewusstlos")
    enc.next_turn(), enc.next_turn()
    assert enc.current == "Ork 2"
    # Knappe's turn is passed, the new round is rolled from the given dice: Ritter 1, Knappe 6, Orks 5 and 2
    assert enc.next_turn(dice=[1, 6, 5, 2]) == "Ork 1" and enc.round == 2
    assert enc.order == ["Knappe", "Ork 1", "Ork 2", "Ritter"]


def test_the_setting_is_kept_journalled_and_undoable(camp):
    enc = fight(camp)
    camp.change("Ork 1", "LP", -6)
    assert enc.skip_out is True and "skip_out" not in enc.record          # the default, nothing stored
    enc.set_skip_out(False)
    assert enc.skip_out is False and enc.record["skip_out"] is False
    [entry] = camp.journal(kind="einstellung")[-1:]
    assert entry.data["text"] == "Furt: Teilnehmer außer Gefecht überspringen – nein"
    assert entry.data["encounter"] == "Furt"
    assert enc.next_turn() == "Ork 1"                                     # its turn all the same
    assert enc.out_of_fight() == {"Ork 1": "kampfunfähig"}                # and still shown as out
    enc.set_skip_out(False)                                               # no change: nothing written
    assert len(camp.journal(kind="einstellung")) == 2
    camp.undo()
    camp.undo()
    assert enc.skip_out is True and "skip_out" not in enc.record and enc.next_turn() == "Ork 2"
    with pytest.raises(CampaignError, match="^Überspringen ist True \\(ja\\) oder False \\(nein\\), nicht 'ja'[.]$"):
        enc.set_skip_out("ja")


def test_when_all_are_out_it_says_so_and_changes_nothing(camp):
    enc = fight(camp)
    for name in ("Ork 1", "Ork 2"):
        camp.change(name, "LP", -6)
    camp.add_condition("Knappe", "bewusstlos")
    assert enc.next_turn() == "Ritter" and enc.round == 2
    camp.change("Ritter", "LP", -8)
    seq = camp.store.last_seq()
    for step in (enc.next_turn, enc.next_round):
        with pytest.raises(CampaignError) as info:
            step()
        assert str(info.value) == (
            "In der Begegnung 'Furt' kann niemand mehr handeln, alle Teilnehmer sind außer Gefecht: "
            "Ritter – kampfunfähig; Knappe – bewusstlos; Ork 1 – kampfunfähig; Ork 2 – kampfunfähig. "
            "Ist der Kampf vorbei? Mit %begegnung überspringen aus (in Python: set_skip_out(False)) kommen sie "
            "trotzdem an die Reihe.")
    assert camp.store.last_seq() == seq and enc.current == "Ritter"
    enc.set_skip_out(False)
    assert enc.next_turn() == "Ork 1"


def test_without_a_ruleset_the_hit_points_decide(tmp_path):
    with Campaign.open(tmp_path / "frei.sqlite") as camp:
        enc = camp.new_encounter("Keller")
        enc.add("Alrik", resources={"HP": 5})
        enc.add("Ratte", resources={"HP": 2, "LP": 9}, count=2)
        enc.add("Geist", resources={"TP": 1})                     # no HP: never out by itself
        enc.start(order=["Alrik", "Ratte 1", "Ratte 2", "Geist"])
        camp.change("Alrik", "HP", -20)                           # 5 -> 0, the lower bound
        camp.change("Ratte 1", "HP", -2)                          # the GM's resource (HP): its LP do not count
        camp.change("Ratte 2", "LP", -9)
        camp.change("Geist", "TP", -5)
        assert enc.out_of_fight() == {"Alrik": "kampfunfähig (HP 0)", "Ratte 1": "kampfunfähig (HP 0)"}
        assert [enc.next_turn() for _ in range(3)] == ["Ratte 2", "Geist", "Ratte 2"]
        for _ in range(6):                                        # the turns, then the blows down to Alrik's
            camp.undo()
        assert enc.out_of_fight() == {"Alrik": "kampfunfähig (HP 0)"} and enc.next_turn() == "Ratte 1"
