"""Midgard's other house rules: senses and the sixth sense, innate abilities, aging, spells,
summonings, carrying capacity."""

from pathlib import Path

import pytest

import rpgkernel
from rpgkernel import Campaign
from rpgkernel.dice import Roller
from rpgkernel.errors import ResolveError
from rpgkernel.rules import midgard
from rpgkernel.rules.figure import view
from rpgkernel.rules.midgard import MidgardError
from rpgkernel.rules.midgard.alter import altern, pruefungen
from rpgkernel.rules.midgard.belastung import belastung, tragkraft
from rpgkernel.rules.midgard.zauber import beschwoerung, beschwoerung_kategorie, zauber_lernen

BEISPIEL = Path(midgard.__file__).with_name("data") / "beispiel_spielleitung.yaml"


CFG = midgard.einrichten(BEISPIEL)      # checked, not kept anywhere: passed to the procedures


@pytest.fixture
def camp(tmp_path):
    c = Campaign.open(tmp_path / "k.sqlite")
    c.set_ruleset("midgard")
    c.add_character("Bilbo", {"rasse": "Halbling", "st": 15, "ge": 100, "zt": 70, "fertigkeiten": ["Klettern +10"]})
    midgard.einrichten(BEISPIEL, kampagne=c)
    yield c
    c.close()


def fig(name="Alrik", conditions=None, **sheet):
    """A campaign-like record's view (the procedures read figures as views)."""
    return view({"name": name, "sheet": sheet, "conditions": conditions or {}, "resources": {}})


# -- senses ---------------------------------------------------------------------------------
def test_the_sixth_sense_from_zaubertalent_replaces_gefahrensinn(camp):
    res = rpgkernel.resolve("ew Bilbo fertigkeit=Gefahrensinn", campaign=camp, dice=[17])
    assert res.outcome["gesamt"] == 17 + 2                  # Zt 70: +2 in the example table
    assert "Gefahrensinn entfällt" in repr(res)


# -- innate abilities -------------------------------------------------------------------------
def test_innate_ability_sets_a_sense(camp):
    res = rpgkernel.resolve("angeboren Bilbo", campaign=camp, dice=[2])
    assert res.outcome["fähigkeiten"] == ["Kurzsichtigkeit"] and res.outcome["sinne"] == {"Sehen": 4}
    assert camp.figure("Bilbo").sheet["fertigkeiten"] == ["Klettern +10", "Sehen +4"]
    assert camp.figure("Bilbo").sheet["angeboren"] == ["Kurzsichtigkeit"]
    seen = rpgkernel.resolve("ew Bilbo fertigkeit=Sehen", campaign=camp, dice=[10])
    assert seen.outcome["gesamt"] == 14                     # Sehen +4 instead of +8


def test_a_hundred_lets_the_player_choose_and_roll_again(camp):
    opened = rpgkernel.resolve("angeboren Bilbo", campaign=camp, dice=[100, 100, 50])
    assert opened.open and opened.choices[0].key == "wahl" and "Nachtsicht" in opened.choices[0].options
    res = rpgkernel.resolve("wahl Bilbo fähigkeit=Nachtsicht\nwahl Bilbo fähigkeit='Gutes Gehör'", campaign=camp)
    assert res.outcome["fähigkeiten"] == ["keine besondere Fähigkeit", "Nachtsicht", "Gutes Gehör"]
    assert res.outcome["sinne"] == {"Hören": 10}
    rpgkernel.resolve("angeboren Bilbo", campaign=camp, dice=[100, 3])
    res = rpgkernel.resolve("verzicht Bilbo", campaign=camp)
    assert res.outcome["fähigkeiten"] == ["Schwerhörigkeit", "freie Wahl"]
    rpgkernel.resolve("angeboren Bilbo", campaign=camp, dice=[100, 3])
    with pytest.raises(ResolveError, match="'Fliegen' steht nicht in der Tabelle"):
        rpgkernel.resolve("wahl Bilbo fähigkeit=Fliegen", campaign=camp)


# -- aging -------------------------------------------------------------------------------------
def test_aging_checks_every_five_years_then_every_year_from_80():
    assert pruefungen(40, 55) == [45, 50, 55]
    assert pruefungen(77, 83) == [80, 81, 82, 83]
    assert pruefungen(100, 200, 10) == [150, 200]            # an elf: human-equivalent 15 and 20
    assert pruefungen(790, 820, 10) == [800, 810, 820]        # an elf from 80 x 10 years on: every 10 years


def test_aging_clamps_attributes_and_changes_senses():
    alrik = fig(rasse="Mensch", alter=52, st=2, ge=99, ko=40, fertigkeiten=["Sehen +6", "Balancieren +8"])
    res = altern(alrik, Roller(dice=[3, 2, 4, 1, 1, 6]), bis=61, cfg=CFG)
    # at 55 and 60 the row up to 69: st -W6, ge -W3, ko -W6, sehen -1, hören -1; St never below 1
    assert res.outcome["werte"] == {"st": 1, "ge": 99 - 2 - 1, "ko": 40 - 4 - 6}
    assert res.outcome["sinne"] == {"Sehen": 4, "Hören": 6}
    assert res.effects[-1].sheet == {"alter": 61, "st": 1, "ge": 96, "ko": 30,
                                     "fertigkeiten": ["Sehen +4", "Balancieren +8", "Hören +6"]}


def test_ko_at_zero_kills_within_1w6_minus_1_years_and_the_player_sees_a_false_value():
    old = fig(rasse="Mensch", alter=84, st=50, ge=50, ko=8)
    res = altern(old, Roller(dice=[1, 1, 9, 4, 2]), bis=85, angezeigt=3, cfg=CFG)
    # at 85: st -W10 (1), ge -W10 (1), ko -2W10 (9 + 4 = 13): Ko -5; then the secret W6
    assert res.outcome["werte"]["ko"] == -5
    assert "GEHEIM" in repr(res) and res.outcome["dem_spieler_genannt"] == {"ko": 3}
    assert res.outcome["tod_in_jahren"] == 1
    # the sheet shows the false Ko; senses -1 each from +8
    assert res.effects[-1].sheet == {"alter": 85, "st": 49, "ge": 49, "ko": 3, "fertigkeiten": ["Sehen +7", "Hören +7"]}


def test_aging_through_resolve_writes_the_sheet_and_undo_takes_it_back(camp):
    camp.set_sheet("Bilbo", {**camp.figure("Bilbo").sheet, "alter": 60, "ko": 40})
    res = rpgkernel.resolve("altern Bilbo bis=110", campaign=camp, dice=[1] * 9)
    # a Halbling (x2): checks at 70, 80, 90, 100, 110 = human 35 (empty row), 40, 45, 50 (st -W3, ko -W3,
    # sehen -1: two dice each), 55 (st -W6, ge -W3, ko -W6, sehen -1, hören -1: three dice)
    sheet = camp.figure("Bilbo").sheet
    assert {k: sheet[k] for k in ("alter", "st", "ge", "ko")} == {"alter": 110, "st": 11, "ge": 99, "ko": 36}
    assert sheet["fertigkeiten"] == ["Klettern +10", "Sehen +4", "Hören +7"]
    assert "Bilbo: Bogen: alter 110" in repr(res)
    camp.undo()
    sheet = camp.figure("Bilbo").sheet
    assert sheet["alter"] == 60 and sheet["st"] == 15 and sheet["fertigkeiten"] == ["Klettern +10"]


def test_ko_death_roll():
    old = fig(rasse="Mensch", alter=84, st=50, ge=50, ko=1)
    res = altern(old, Roller(dice=[1, 1, 1, 1, 6]), bis=85, cfg=CFG)
    assert res.outcome["tod_in_jahren"] == 5


def test_aging_of_a_non_human_needs_the_multiplier():
    elf = fig(rasse="Elf", alter=100, st=40, ge=80, ko=60)
    assert altern(elf, Roller(dice=[]), bis=149, cfg=CFG).outcome["werte"] == {}
    with pytest.raises(MidgardError, match="keinen Alters-Multiplikator für Ork"):
        altern(fig(rasse="Ork", alter=20), None, bis=30, cfg=CFG)


def test_aging_names_skills_whose_minimum_is_no_longer_met():
    marvelus = fig(rasse="Mensch", alter=64, st=40, ge=62, ko=50, fertigkeiten=["Balancieren +12"])
    res = altern(marvelus, Roller(dice=[1, 3, 1]), bis=65, cfg=CFG)
    assert res.outcome["werte"]["ge"] == 59 and res.outcome["unter_mindestwert"] == {"Balancieren": -1}


# -- spells --------------------------------------------------------------------------------------
def test_the_seeds_spell_costs():
    hexe = fig("Hexe", klasse="Hexer")
    res = zauber_lernen(hexe, ["Schmerzen", "Zeichen der Macht"], cfg=CFG)
    assert [s.value for s in res.steps[:2]] == [2, 5] and res.outcome["lernpunkte"] == 7
    barde = fig("Barde", klasse="Barde")
    assert zauber_lernen(barde, ["Lied der Tanzlust"], cfg=CFG).outcome["lernpunkte"] == 9   # 3 x 300 / 100


def test_spell_limits_at_creation(camp):
    magier = fig("Magier", klasse="Magier")
    with pytest.raises(MidgardError, match="höchstens 1 Zauberspruch der 3. Spruchstufe"):
        zauber_lernen(magier, ["Feuerkugel", "Feuerkugel"], erschaffung=True, cfg=CFG)
    assert zauber_lernen(magier, ["Feuerkugel", "Feuerkugel"], cfg=CFG).outcome["lernpunkte"] == 8
    templer = fig("Templer", klasse="Ordenskrieger")
    with pytest.raises(MidgardError, match="höchstens 2 Zaubersprüche"):
        zauber_lernen(templer, ["Heilen von Wunden", "Sehen in Dunkelheit", "Zeichen der Macht"], erschaffung=True,
                      cfg=CFG)
    assert zauber_lernen(templer, ["Heilen von Wunden", "Sehen in Dunkelheit"], erschaffung=True, cfg=CFG).outcome[
        "lernpunkte"] == 3 + 2
    camp.add_character("Hexe", {"klasse": "Hexer"})
    res = rpgkernel.resolve("zauber Hexe sprüche='Schmerzen, Zeichen der Macht' erschaffung", campaign=camp)
    assert res.outcome["lernpunkte"] == 7
    with pytest.raises(ResolveError, match="Feuerkugel' steht für Hexer nicht"):
        rpgkernel.resolve("zauber Hexe sprüche=Feuerkugel", campaign=camp)


# -- summonings -----------------------------------------------------------------------------------
def test_who_learns_which_summoning():
    # a priest of the sea: water at standard cost, other elements as exceptions
    assert beschwoerung_kategorie("Priester", "Wasser", "Beschwörung", wahl="Wasser", cfg=CFG) == "Standard"
    assert beschwoerung_kategorie("Priester", "Feuer", "Schutzkreis", wahl="Wasser", cfg=CFG) == "Ausnahme"
    assert beschwoerung_kategorie("Hexer", "dunkle Dämonen", "Bannzauber", wahl="dunkle Dämonen",
                                  cfg=CFG) == "Standard"
    # Elementarbeschwörer: primary Feuer and its neighbours Luft, Magma; antagonists only circles and banishments
    assert [beschwoerung_kategorie("Elementarbeschwörer", e, "Beschwörung", wahl="Feuer", cfg=CFG)
            for e in ("Feuer", "Luft", "Magma", "Wasser")] == ["Klasse", "Klasse", "Klasse", None]
    assert beschwoerung_kategorie("Elementarbeschwörer", "Wasser", "Bannzauber", wahl="Feuer",
                                  cfg=CFG) == "Ausnahme"
    assert beschwoerung_kategorie("Elementarbeschwörer", "finstere Dämonen", "Schutzkreis",
                                  wahl="Feuer", cfg=CFG) == "Ausnahme"
    assert beschwoerung_kategorie("Elementarbeschwörer", "finstere Dämonen", "Beschwörung", wahl="Feuer",
                                  cfg=CFG) is None
    # Dämonenbeschwörer: circles and banishments against elements as exceptions, no element summoning
    assert beschwoerung_kategorie("Dämonenbeschwörer", "Erde", "Schutzkreis", cfg=CFG) == "Ausnahme"
    assert beschwoerung_kategorie("Dämonenbeschwörer", "Erde", "Beschwörung", cfg=CFG) is None
    with pytest.raises(MidgardError, match="Unbekanntes Element 'Holz'"):
        beschwoerung_kategorie("Priester", "Holz", "Beschwörung", wahl="Wasser", cfg=CFG)


def test_the_summoning_ritual(camp):
    priester = fig("Priester")
    res = beschwoerung(priester, None, grad=4, opfer=3, cfg=CFG)
    assert res.outcome == {"dauer_minuten": 40, "wirkungsdauer_stunden": 4, "wm_fesselung": 2}
    res = beschwoerung(priester, Roller(dice=[6]), grad=4, opfer=2, fesselung=13, cfg=CFG)
    assert res.outcome["fesselung"] and "W20 6 +13 WM +1 = 20" in repr(res)
    with pytest.raises(MidgardError, match="einfach bis vierfach"):
        beschwoerung(priester, None, grad=4, opfer=5, cfg=CFG)
    camp.add_character("Priester", {"klasse": "Priester", "gg": 1})
    opened = rpgkernel.resolve("beschwörung Priester grad=2 opfer=2 fesselung=10", campaign=camp, dice=[2])
    assert opened.open                                     # divine grace on the binding roll
    res = rpgkernel.resolve("gnade Priester", campaign=camp, dice=[15])
    assert res.outcome["fesselung"] and camp.figure("Priester").resources["GG"]["value"] == 0
    res = rpgkernel.resolve("beschwörungslehre Priester ziel=Feuer form=Bannzauber wahl=Wasser", campaign=camp)
    assert res.outcome == {"kategorie": "Ausnahme"} and "als Ausnahmezauber" in repr(res)


# -- carrying capacity ------------------------------------------------------------------------------
@pytest.mark.parametrize("kg, label", [("7", "unbelastet"), ("7.5", "merklich belastet"), ("21", "merklich belastet"),
                                       ("21,5", "schwer belastet"), ("70", "schwer belastet"),
                                       ("70.1", "übermäßig belastet")])
def test_load_by_tragkraft(kg, label):
    res = belastung(fig(st=79), kg)                          # TK 7 kg
    assert res.outcome == {"tk": 7, "belastung": label}


def test_load_conditions_follow(camp):
    rpgkernel.resolve("belastung Bilbo gewicht=5", campaign=camp)     # St 15: TK 1
    assert "schwer belastet" in camp.figure("Bilbo").conditions
    res = rpgkernel.resolve("belastung Bilbo gewicht=11", campaign=camp)
    assert "Kraftakt" in repr(res)
    conditions = camp.figure("Bilbo").conditions
    assert "übermäßig belastet" in conditions and "schwer belastet" not in conditions
    rpgkernel.resolve("belastung Bilbo gewicht=0.5", campaign=camp)
    assert not camp.figure("Bilbo").conditions
    assert tragkraft(100) == 10 and tragkraft(9) == 0
    with pytest.raises(ResolveError, match="kein Gewicht"):
        rpgkernel.resolve("belastung Bilbo gewicht=viel", campaign=camp)
