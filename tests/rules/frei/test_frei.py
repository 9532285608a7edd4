"""Play without a ruleset (rpgkernel.rules.frei): the GM's resource, HP by default, from the sheet, kept within 0 and its maximum."""

import pytest

from rpgkernel import Campaign, rules, statblocks
from rpgkernel.errors import RpgError
from rpgkernel.rules import frei
from rpgkernel.rules.sheet import SheetError


@pytest.fixture
def camp(tmp_path):
    with Campaign.open(tmp_path / "k.sqlite") as c:
        yield c


def test_the_resource_comes_from_the_sheet_full_hp_by_default(camp):
    statblocks.load(camp, "- name: Ork\n  werte: {hp: 12, beruf: Wächter}\n- name: Bauer\n  werte: {beruf: Bauer}")
    assert camp.figure("Ork").resources == {"HP": {"value": 12, "max": 12}}
    assert camp.figure("Bauer").resources == {}
    camp.change("Ork", "HP", -20)
    camp.change("Ork", "HP", 30)
    assert [e.data["text"] for e in camp.journal(kind="ressource")] == [
        "Ork: HP 12 → 0 (mindestens 0: Vorgabe, einstellbar mit untergrenzen)", "Ork: HP 0 → 12 (höchstens 12)"]
    with pytest.raises(SheetError, match="Feld 'hp' \\(HP\\): erlaubt ist eine ganze Zahl von 0 bis"):
        camp.add_character("Geist", {"hp": "viel"})


def test_the_gm_names_the_resource_for_the_campaign_or_an_encounter(camp):
    assert frei.einrichten("LP", kampagne=camp) == frei.settings.Einstellungen("LP")
    camp.add_character("Alrik", {"lp": 14})
    assert camp.figure("Alrik").resources == {"LP": {"value": 14, "max": 14}}
    camp.set_sheet("Alrik", {"lp": 10})                     # the maximum follows the sheet
    assert camp.figure("Alrik").resources == {"LP": {"value": 10, "max": 10}}
    enc = camp.new_encounter("Sumpf")
    frei.einrichten("Ausdauer", kampagne=camp, begegnung="Sumpf")
    enc.add("Moorleiche", sheet={"ausdauer": 6, "lp": 3})
    assert camp.figure("Moorleiche").resources == {"Ausdauer": {"value": 6, "max": 6}}
    assert frei.EINSTELLUNGEN.kept_in(camp, "Sumpf").feld == "ausdauer"
    assert camp.state["data"]["frei"] == {"ressource": "LP"}             # the campaign's own stays
    camp.undo()
    camp.undo()
    assert "Moorleiche" not in camp.encounters["Sumpf"].combatants and camp.data("frei", "Sumpf") == {"ressource": "LP"}


@pytest.mark.parametrize("bad, message", [({"ressource": ""}, "Ungültiger Name"),
                                          ({"name": "LP"}, "kennt nur ressource"), ("LP", "kennt nur ressource")])
def test_a_bad_setting_is_refused_and_nothing_is_kept(camp, bad, message):
    with pytest.raises(RpgError, match=message):
        frei.EINSTELLUNGEN.keep(bad, camp)
    assert camp.data("frei") is None and rules.get(None).settings is frei.EINSTELLUNGEN
