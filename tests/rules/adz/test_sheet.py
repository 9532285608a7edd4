"""AdZ: the character sheet (attributes, techniques, entries, weapons, equipment) and the resources it
gives (seed 004)."""

import pytest

from rpgkernel.rules import adz
from rpgkernel.rules.adz import AdZ
from rpgkernel.rules.adz import sheet as bogen
from rpgkernel.rules.sheet import SheetError

from .test_core import BASE, figure


def test_the_sheet_has_nine_attributes_and_the_techniques():
    fields = AdZ.sheet.fields
    for a in ("KK", "KO", "GE", "FF", "KL", "WK", "IN", "CH", "GL"):
        assert fields[a].required and (fields[a].minimum, fields[a].maximum) == (1, 10)
    techniques = ["beherrschen", "erkennen", "erschaffen", "modifizieren", "verankern", "versetzen", "zerstören"]
    assert [n for n in fields if n in techniques] == techniques
    assert all(fields[n].maximum == 10 and fields[n].default == 0 for n in techniques)


@pytest.mark.parametrize("sheet, message", [
    ({"GE": 0}, "GE"),
    ({"GE": 11}, "GE"),
    ({"fertigkeiten": ["Schwerter 11"]}, "erlaubt sind 0 bis 10"),
    ({"spezialisierungen": ["Parade 6"]}, "erlaubt sind 0 bis 5"),
    ({"foki": ["Flammen 6"]}, "erlaubt sind 0 bis 5"),
    ({"magiebereiche": ["Feuer 4", "feuer 2"]}, "steht zweimal"),
    ({"fertigkeiten": ["Schwerter"]}, "kein Eintrag 'Name Wert'"),
    ({"waffen": ["Langschwert (Schwerter, GS 5)"]}, "Attribut des Schadenscodes"),
    ({"waffen": ["Bogen (Bögen, GS 3, RK Z)"]}, "unbekannte Reichweitenklasse"),
    ({"waffen": ["Langschwert"]}, "steht in keiner Waffenliste"),
    ({"ausruestung": ["Kettenhemd (RS 2, XY 1)"]}, "kennt nur RS, WB, AM und VM"),
    ({"zerstören": 11}, "zerstören"),
])
def test_bad_sheets_are_refused_in_german(sheet, message):
    with pytest.raises(SheetError, match=message):
        AdZ.sheet.validate({**BASE, **sheet})


def test_missing_attribute_is_refused():
    with pytest.raises(SheetError, match="Charisma"):
        AdZ.sheet.validate({k: v for k, v in BASE.items() if k != "CH"})


def test_resources_are_the_tracks_and_the_luck_pool():
    assert AdZ().sheet.resources(AdZ.sheet.validate(BASE), {}) == {
        "körperlich": {"value": 12, "max": 12}, "geistig": {"value": 12, "max": 12},
        "Glückspool": {"value": 3, "max": 3}}


def test_entries_weapons_and_equipment_are_read():
    f = figure(fertigkeiten=["Beidhändiger Kampf 3", "Schwerter: 6"],
               waffen=["Langschwert (Schwerter, KK, GS 5, VM -1)", "Kurzbogen (Bögen, GS 3, RK C)",
                       "Faust (Raufen, KK, GS 1, geistig)"],
               ausruestung=["Kettenhemd (RS 2, WB 1, AM 1)", "Holzschild (VM 2, AM 1)"])
    assert bogen.liste(f, "fertigkeiten") == {"Beidhändiger Kampf": 3, "Schwerter": 6}
    daten = adz.EINSTELLUNGEN.defaults()
    sword, bow, fist = bogen.waffen(f, daten)
    assert (sword.fertigkeit, sword.attribut, sword.grundschaden, sword.vm, sword.fernkampf) == \
        ("Schwerter", "KK", 5, -1, False)
    assert (bow.attribut, bow.reichweitenklasse, bow.fernkampf) == (None, "C", True)
    assert fist.geistig
    assert [bogen.summe(f, key, daten) for key in ("rs", "wb", "am", "vm")] == [2, 1, 2, 2]
