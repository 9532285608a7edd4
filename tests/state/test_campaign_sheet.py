"""Editing a figure's sheet: validation, derived resources, combatants, undo, the journal, other writers."""

import pytest

from rpgkernel.rules.base import Ruleset
from rpgkernel.rules.sheet import Field, Sheet, SheetError
from rpgkernel.state import Campaign, CampaignError

#: called once from inside the next transaction that derives resources (another writer gets there first)
INTERLUDE = []


class ProbeBogen(Sheet):
    def resources(self, sheet, data):
        while INTERLUDE:
            INTERLUDE.pop()()
        res = {"LP": {"value": sheet["stärke"] * 2, "max": sheet["stärke"] * 2}}
        if "geist" in sheet:
            res["MP"] = {"value": sheet["geist"], "max": sheet["geist"]}
        return res


class Probe(Ruleset):
    """A test ruleset: LP = 2 × Stärke, MP = Geist (only with Geist)."""

    key = "probe"
    title = "Probe"
    sheet = ProbeBogen({"stärke": Field("int", "Stärke", 1, 20, required=True),
                        "geist": Field("int", "Geist", 0, 10),
                        "klasse": Field("text", "Klasse", choices=("Krieger", "Magier")),
                        "held": Field("bool", "Held"),
                        "talente": Field("list", "Talente"),
                        "notiz": Field("text", "Notiz")})


@pytest.fixture(autouse=True)
def probe_ruleset(add_ruleset):
    add_ruleset(Probe)
    yield
    INTERLUDE.clear()


@pytest.fixture
def camp(tmp_path):
    with Campaign.open(tmp_path / "k.sqlite") as c:
        c.set_ruleset("probe")
        c.add_character("Ritter", {"stärke": 7, "klasse": "Krieger"})
        yield c


def lp(camp, who="Ritter"):
    res = camp.figure(who).resources["LP"]
    return res["value"], res["max"]


def test_a_sheet_is_validated_and_nothing_is_written_when_refused(camp):
    seq, sheet = camp.state["seq"], camp.characters["Ritter"].sheet
    refused = [({"stärke": 21}, "Feld 'stärke' \\(Stärke\\): erlaubt ist eine ganze Zahl von 1 bis 20, nicht 21"),
               ({"klasse": "Krieger"}, "Das Feld 'stärke' \\(Stärke\\) fehlt"),
               ({"stärke": 5, "klasse": "Dieb"}, "einer der Werte Krieger, Magier"),
               ({"stärke": 5, "stärkee": 3}, "Meinten Sie 'stärke'"),
               ({"stärke": "5"}, "nicht '5'"),
               (["stärke"], "Ein Bogen muss aus Feldern mit Werten bestehen")]
    for bad, message in refused:
        with pytest.raises(SheetError, match=message):
            camp.set_sheet("Ritter", bad)
    with pytest.raises(CampaignError, match="Unbekannte Figur 'Ritterr'. Meinten Sie 'Ritter'"):
        camp.set_sheet("Ritterr", {"stärke": 5})
    with pytest.raises(CampaignError, match="Ungültiger Name"):
        camp.set_sheet("", {"stärke": 5})
    assert camp.state["seq"] == seq and camp.characters["Ritter"].sheet == sheet


def test_the_whole_sheet_is_replaced_and_the_journal_lists_the_changes(camp):
    cut = "x" * 39 + "…"   # long values are shortened to 40 characters
    fig = camp.set_sheet("Ritter", {"stärke": 9, "held": True, "talente": ["Reiten", "Fechten"], "notiz": "x" * 60})
    assert fig.sheet == {"stärke": 9, "held": True, "talente": ["Reiten", "Fechten"], "notiz": "x" * 60}
    (entry,) = camp.journal(kind="bogen")
    assert entry.data["text"] == ("Bogen von Ritter geändert: Stärke 7 → 9; Klasse Krieger → –; "
                                  "Held – → ja; Talente – → Reiten, Fechten; Notiz – → " + cut)
    assert entry.data["figures"] == ["Ritter"] and entry.data["encounter"] is None
    camp.set_sheet("Ritter", {"stärke": 9, "held": False, "talente": []})
    assert camp.journal(kind="bogen")[-1].data["text"] == (
        "Bogen von Ritter geändert: Held ja → nein; Talente Reiten, Fechten → –; Notiz " + cut + " → –")


def test_an_unchanged_sheet_writes_nothing(camp):
    seq = camp.state["seq"]
    assert camp.set_sheet("Ritter", {"klasse": "Krieger", "stärke": 7}).sheet == {"stärke": 7, "klasse": "Krieger"}
    assert camp.state["seq"] == seq


def test_derived_maximum_moves_the_value_by_the_same_difference(camp):
    camp.change("Ritter", "LP", -4)
    assert lp(camp) == (10, 14)
    camp.set_sheet("Ritter", {"stärke": 9})           # max +4: still 4 below
    assert lp(camp) == (14, 18)
    camp.set_sheet("Ritter", {"stärke": 2})           # max -14: 0, not below
    assert lp(camp) == (0, 4)
    camp.set_sheet("Ritter", {"stärke": 3})
    assert lp(camp) == (2, 6)
    camp.change("Ritter", "LP", 10)                    # healed: to the maximum, not above it
    camp.set_sheet("Ritter", {"stärke": 4})           # 6 + 2: the new maximum
    assert lp(camp) == (8, 8)


def test_resources_not_derived_or_not_changing_stay_as_they_are(camp):
    camp.add_character("Magier", {"stärke": 5}, resources={"LP": 30, "Glück": 3})
    camp.change("Magier", "Glück", -1)
    camp.set_sheet("Magier", {"stärke": 5, "klasse": "Magier"})   # LP's derived maximum stays 10
    assert camp.figure("Magier").resources == {"LP": {"value": 30, "max": 30}, "Glück": {"value": 2, "max": 3}}
    camp.set_sheet("Magier", {"stärke": 6, "klasse": "Magier"})   # derived 10 -> 12: the new maximum
    assert camp.figure("Magier").resources["LP"] == {"value": 12, "max": 12}
    camp.set_sheet("Magier", {"stärke": 6, "geist": 4})           # a newly derived resource, as the ruleset gives it
    assert camp.figure("Magier").resources["MP"] == {"value": 4, "max": 4}


def test_bastionland_virtues_follow_the_sheet(tmp_path):
    with Campaign.open(tmp_path / "k.sqlite") as camp:
        camp.set_ruleset("bastionland")
        camp.add_character("Ritter", {"vig": 10, "cla": 12, "spi": 8, "gd": 4})
        camp.change("Ritter", "VIG", -3)
        camp.change("Ritter", "GD", -4)
        sheet = {**camp.characters["Ritter"].sheet, "vig": 12, "gd": 5, "waffen": ["Streitkolben (W8, wuchtig)"]}
        res = camp.set_sheet("Ritter", sheet).resources
        assert res["VIG"] == {"value": 9, "max": 12} and res["GD"] == {"value": 1, "max": 5}
        assert res["CLA"] == {"value": 12, "max": 12}
        assert camp.journal(last=1)[0].data["text"] == \
            "Bogen von Ritter geändert: Vigour 10 → 12; Guard 4 → 5; Waffen und Schild – → Streitkolben (W8, wuchtig)"
        with pytest.raises(SheetError, match="Feld 'vig' \\(Vigour\\): erlaubt ist eine ganze Zahl von 0 bis 19"):
            camp.set_sheet("Ritter", {**sheet, "vig": 20})


def test_a_combatant_copy_edits_the_character_and_an_own_record_itself(camp):
    enc = camp.new_encounter("Hinterhalt")
    enc.add("Sir R", character="Ritter")
    enc.add("Goblin", sheet={"stärke": 3}, count=2)
    camp.set_sheet("Sir R", {"stärke": 8})
    assert camp.characters["Ritter"].sheet == {"stärke": 8} and lp(camp, "Sir R") == (16, 16)
    entry = camp.journal(last=1)[0]
    assert entry.data["text"] == "Bogen von Ritter geändert: Stärke 7 → 8; Klasse Krieger → –"
    assert entry.data["figures"] == ["Sir R", "Ritter"] and entry.data["encounter"] == "Hinterhalt"
    camp.set_sheet("Goblin 1", {"stärke": 4})
    assert camp.figure("Goblin 1").sheet == {"stärke": 4} and lp(camp, "Goblin 1") == (8, 8)
    assert camp.figure("Goblin 2").sheet == {"stärke": 3}
    # a combatant of an encounter that is no longer active, named with its encounter
    camp.new_encounter("Danach")
    with pytest.raises(CampaignError, match="Unbekannte Figur 'Goblin 2'"):
        camp.set_sheet("Goblin 2", {"stärke": 5})
    camp.set_sheet("Goblin 2", {"stärke": 5}, encounter="Hinterhalt")
    assert camp.figure("Goblin 2", "Hinterhalt").resources["LP"] == {"value": 10, "max": 10}


def test_undo_and_redo_of_a_sheet_edit(camp):
    camp.change("Ritter", "LP", -4)
    before = camp.characters["Ritter"]
    old_sheet, old_res = before.sheet, before.resources
    camp.set_sheet("Ritter", {"stärke": 2, "geist": 3})
    new_sheet, new_res = camp.characters["Ritter"].sheet, camp.characters["Ritter"].resources
    assert new_res == {"LP": {"value": 0, "max": 4}, "MP": {"value": 3, "max": 3}}
    assert camp.undo() == ["Bogen von Ritter geändert: Stärke 7 → 2; Klasse Krieger → –; Geist – → 3"]
    assert (camp.characters["Ritter"].sheet, camp.characters["Ritter"].resources) == (old_sheet, old_res)
    assert camp.journal(last=1)[0].data["text"] == ("rückgängig: Bogen von Ritter geändert: Stärke 7 → 2; "
                                                    "Klasse Krieger → –; Geist – → 3")
    camp.redo()
    assert (camp.characters["Ritter"].sheet, camp.characters["Ritter"].resources) == (new_sheet, new_res)


def test_a_second_campaign_object_sees_the_edit_and_a_racing_writer_counts(target):
    with Campaign.open(target) as a, Campaign.open(target) as b:
        a.set_ruleset("probe")
        a.add_character("Ritter", {"stärke": 7})
        a.set_sheet("Ritter", {"stärke": 8})
        assert b.characters["Ritter"].sheet == {"stärke": 8} and lp(b) == (16, 16)
        # b takes 5 LP while a's edit is under way: a's append is refused and run again on fresh state
        INTERLUDE.append(lambda: b.change("Ritter", "LP", -5))
        a.set_sheet("Ritter", {"stärke": 10})
        assert not INTERLUDE
        assert lp(a) == lp(b) == (15, 20)
        assert [e.data["text"] for e in b.journal()][-2:] == ["Ritter: LP 16 → 11",
                                                              "Bogen von Ritter geändert: Stärke 8 → 10"]
        b.undo()   # b undoes the newest step, a's edit
        assert a.characters["Ritter"].sheet == {"stärke": 8} and lp(a) == (11, 16)
