"""Kampfwerte: the sheet, INI and BP by the seed's formulas, the resources it gives (seed: Initiative,
Bewegungspunkte)."""

import pytest

from rpgkernel.rules import get
from rpgkernel.rules.kampfwerte.sheet import bewegungspunkte, initiativewert
from rpgkernel.rules.figure import view
from rpgkernel.rules.sheet import SheetError

KAEL = {"AUFMERKSAMKEIT": 4, "GEWANDTHEIT": 5, "INSTINKT": 3, "HEIMLICHKEIT": 4, "ini_mod": 2, "bp_mod": 1,
        "ruestungsbehinderung": 1, "AD": 12, "LP": 20, "spielercharakter": True, "mod_schleichen": 1}
ORK = {"AUFMERKSAMKEIT": 3, "GEWANDTHEIT": 3, "INSTINKT": 4, "HEIMLICHKEIT": 1, "AD": 10, "LP": 25,
       "ruestungsbehinderung": 2}
ENGINE = get("kampfwerte")


def test_ini_and_bp_follow_the_seed_formulas():
    s = ENGINE.sheet.validate(KAEL)
    assert initiativewert(s) == 4 + 5 + 3 + 2 - 1
    assert bewegungspunkte(s) == 5 + 1 - 1 + 2
    res = ENGINE.sheet.resources(s, {})
    assert res == {"LP": {"value": 20, "max": 20}, "AD": {"value": 12, "max": 12}, "BP": {"value": 7, "max": 7}}
    assert ENGINE.initiative.expression(view({"sheet": s})) == "W10+13"


def test_sheet_refuses_missing_talent_and_unknown_field():
    with pytest.raises(SheetError, match="GEWANDTHEIT"):
        ENGINE.sheet.validate({k: v for k, v in KAEL.items() if k != "GEWANDTHEIT"})
    with pytest.raises(SheetError, match="AUFMERKSAMKEIT"):
        ENGINE.sheet.validate({**KAEL, "AUFMERKSAMKEITT": 3})


def test_ad_and_bp_stop_at_0_as_their_costs_say_and_lp_at_the_default(tmp_path):
    """What a manoeuvre costs is paid from the AD left, a movement's costs "dürfen die zur Verfügung
    stehenden BP nicht überschreiten": both from 0 to their maximum; LP's lower bound the seed does
    not name (0, or the GM's)."""
    from rpgkernel import Campaign
    with Campaign.open(tmp_path / "k.sqlite") as camp:
        camp.set_ruleset("kampfwerte")
        camp.add_character("Kael", KAEL)
        for resource, by in (("AD", -20), ("BP", -9), ("BP", 4), ("LP", -25)):
            camp.change("Kael", resource, by)
        assert [e.data["text"] for e in camp.journal(kind="ressource")] == [
            "Kael: AD 12 → 0 (mindestens 0: Manöver: Kosten)", "Kael: BP 7 → 0 (mindestens 0: Bewegungskosten)",
            "Kael: BP 0 → 4", "Kael: LP 20 → 0 (mindestens 0: Vorgabe, einstellbar mit untergrenzen)"]
