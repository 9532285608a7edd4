"""Kampfwerte: the sheet, INI and BP by the seed's formulas, the resources it gives (seed: Initiative,
Bewegungspunkte)."""

import pytest

from rpgkernel.rules import get
from rpgkernel.rules.kampfwerte import bewegungspunkte, initiativewert
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
    res = ENGINE.resources(s)
    assert res == {"LP": {"value": 20, "max": 20}, "AD": {"value": 12, "max": 12}, "BP": {"value": 7, "max": 7}}
    assert ENGINE.initiative_expression({"sheet": s}) == "W10+13"


def test_sheet_refuses_missing_talent_and_unknown_field():
    with pytest.raises(SheetError, match="GEWANDTHEIT"):
        ENGINE.sheet.validate({k: v for k, v in KAEL.items() if k != "GEWANDTHEIT"})
    with pytest.raises(SheetError, match="AUFMERKSAMKEIT"):
        ENGINE.sheet.validate({**KAEL, "AUFMERKSAMKEITT": 3})
