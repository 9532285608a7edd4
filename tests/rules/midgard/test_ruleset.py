"""Midgard: the sheet, resources, the basic rolls EW/WW/PW with exact previews, divine grace."""

from pathlib import Path

import icepool
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rpgkernel
from rpgkernel import Campaign, rules
from rpgkernel.errors import ResolveError
from rpgkernel.rules.figure import view
from rpgkernel.rules.midgard import MidgardError, einrichten
from rpgkernel.rules.midgard.core import Grundregeln, grundregeln_laden, p_ew, p_pw, p_ww
from rpgkernel.rules.midgard.proben import ew
from rpgkernel.rules.sheet import SheetError

REGELN = Grundregeln()
BEISPIEL = Path(rpgkernel.rules.midgard.__file__).with_name("data") / "beispiel_spielleitung.yaml"


def figure(name="Marvelus", gg=0, **sheet):
    """A campaign-like record's view (the procedures read figures as views)."""
    record = {"name": name, "sheet": sheet, "conditions": {}, "resources": {}}
    if gg:
        record["resources"]["GG"] = {"value": gg, "max": gg}
    return view(record)


@pytest.fixture
def camp(tmp_path):
    c = Campaign.open(tmp_path / "m.sqlite")
    c.set_ruleset("midgard")
    c.add_character("Marvelus", {"ge": 45, "ko": 60, "zt": 80, "gg": 2, "lp": 12, "ap": 20, "abwehr": 12,
                                 "fertigkeiten": ["Balancieren +12", "Sehen +4"]})
    yield c
    c.close()


# -- sheet and resources -------------------------------------------------------------
def test_registered_with_sheet_resources_and_verbs():
    engine = rules.get("midgard")
    sheet = engine.sheet.validate({"st": 80, "lp": 14, "ap": 22, "gg": 1, "waffen": ["Langschwert +10 (W6+2)"]})
    assert engine.sheet.resources(sheet, {}) == {"LP": {"value": 14, "max": 14}, "AP": {"value": 22, "max": 22},
                                       "GG": {"value": 1, "max": 1}}
    assert engine.sheet.resources({"st": 80}, {}) == {}
    for verb in ("ew", "ww", "pw", "gnade"):
        assert verb in engine.verbs


def test_the_free_sheets_of_the_campaign_docs_still_validate():
    """The README and docs/kampagne.md write Midgard figures with st, gw, beruf, zauberer, sprachen."""
    rules.get("midgard").sheet.validate({"st": 80, "gw": 61, "beruf": "Krieger", "zauberer": False,
                                         "sprachen": ["Comentang", "Albisch"]})


@pytest.mark.parametrize("sheet, message", [
    ({"waffen": ["Langschwert +10"]}, "Name \\+Erfolgswert \\(Schaden\\)"),
    ({"waffen": ["Langschwert +10 (W6+)"]}, "Langschwert"),
    ({"fertigkeiten": ["Balancieren"]}, "Name \\+Erfolgswert"),
    ({"ge": 101}, "Geschicklichkeit"),
    ({"schild": "riesig"}, "klein, groß"),
    ({"gee": 50}, "meinten Sie|Meinten Sie"),
])
def test_bad_sheets_are_refused_in_german(sheet, message):
    with pytest.raises(SheetError, match=message):
        rules.get("midgard").sheet.validate(sheet)


# -- exact chances ---------------------------------------------------------------------
@given(st.integers(-30, 40))
def test_p_ew_equals_icepool(value):
    d20 = icepool.d20
    success = d20.map(lambda f: f == 20 or (f != 1 and f + value >= 20))
    assert p_ew(value, REGELN) == pytest.approx(float(success.probability(True)), abs=1e-12)


@given(st.integers(-10, 40), st.integers(-10, 70))
def test_p_ww_equals_icepool(value, against):
    success = icepool.d20.map(lambda f: f == 20 or (f != 1 and f + value >= against))
    assert p_ww(value, against, REGELN) == pytest.approx(float(success.probability(True)), abs=1e-12)


def test_chances_by_hand():
    assert p_ew(12, REGELN) == 13 / 20          # 8..20
    assert p_ew(-5, REGELN) == 1 / 20           # only the critical 20
    assert p_ew(30, REGELN) == 19 / 20          # all but the critical 1
    assert p_ww(17, 23, REGELN) == 15 / 20      # 6..20 (a tie succeeds)
    assert p_ww(17, 23, Grundregeln(ww_bei_gleichstand=False)) == 14 / 20
    assert p_ew(12, Grundregeln(mindestwurf=21)) == 12 / 20
    assert p_pw(45) == 0.45 and p_pw(120) == 1.0 and p_pw(-3) == 0.0


def test_the_basic_rolls_are_configurable(tmp_path):
    path = tmp_path / "grund.yaml"
    path.write_text("mindestwurf: 21\nww_bei_gleichstand: false\n", encoding="utf-8")
    assert grundregeln_laden(path) == Grundregeln(mindestwurf=21, ww_bei_gleichstand=False)
    path.write_text("mindestwurf: zwanzig\n", encoding="utf-8")
    with pytest.raises(MidgardError, match="mindestwurf hat den falschen Typ"):
        grundregeln_laden(path)
    path.write_text("mindeswurf: 20\n", encoding="utf-8")
    with pytest.raises(MidgardError, match="Unbekannter Eintrag 'mindeswurf'"):
        grundregeln_laden(path)


# -- the rolls --------------------------------------------------------------------------
def test_ew_with_given_dice_and_criticals():
    fig = figure(fertigkeiten=["Klettern +6"])
    rolled = [(13, True, None), (14, True, None), (13, False, None), (20, True, "kritischer Erfolg"),
              (1, False, "kritischer Fehler")]
    for face, ok, krit in rolled:
        res = ew(fig, rpgkernel.dice.Roller(dice=[face]), fertigkeit="Klettern", wm=1 if face == 13 and ok else 0)
        assert (res.outcome["erfolg"], res.outcome["kritisch"]) == (ok, krit), face
    # 13 + 6 + 1 = 20 succeeds; 13 + 6 = 19 fails; 1 + 6 + 30 still fails (critical failure)
    res = ew(fig, rpgkernel.dice.Roller(dice=[1]), wert=36)
    assert res.outcome == {"erfolg": False, "wurf": 1, "gesamt": 37, "kritisch": "kritischer Fehler"}


def test_senses_default_to_plus_eight_unless_on_the_sheet(camp):
    def total(line):
        return rpgkernel.resolve(line, campaign=camp, dice=[12]).outcome["gesamt"]
    assert total("ew Marvelus fertigkeit=Hören ohne_gnade") == 20
    assert total("ew Marvelus fertigkeit=Sehen ohne_gnade") == 16


def test_sixth_sense_needs_the_gm_table(camp):
    with pytest.raises(ResolveError, match="Die Tabelle 'sechster_sinn' fehlt"):
        rpgkernel.resolve("ew Marvelus fertigkeit=Gefahrensinn", campaign=camp, dice=[12])


def test_ww_and_pw(camp):
    res = rpgkernel.resolve("ww Marvelus gegen=23 ohne_gnade", campaign=camp, dice=[11])
    assert res.outcome["erfolg"] and res.outcome["gesamt"] == 23        # a tie succeeds
    res = rpgkernel.resolve("ww Marvelus gegen=23 wm=-1 ohne_gnade", campaign=camp, dice=[11])
    assert not res.outcome["erfolg"]
    res = rpgkernel.resolve("pw Marvelus eigenschaft=ko ohne_gnade", campaign=camp, dice=[60])
    assert res.outcome["erfolg"] and not rpgkernel.resolve(
        "pw Marvelus eigenschaft=ko ohne_gnade", campaign=camp, dice=[61]).outcome["erfolg"]
    preview = rpgkernel.resolve("pw Marvelus eigenschaft=ge", campaign=camp, preview=True).preview
    assert list(preview.values()) == [0.45]
    with pytest.raises(ResolveError, match="keine Eigenschaft|Unbekannte Eigenschaft"):
        rpgkernel.resolve("pw Marvelus eigenschaft=xx", campaign=camp, dice=[1])


# -- divine grace ----------------------------------------------------------------------
def test_grace_repeats_the_roll_and_spends_the_point(camp):
    opened = rpgkernel.resolve("ew Marvelus fertigkeit=Balancieren", campaign=camp, dice=[3])
    assert opened.open and opened.choices[0].key == "gnade"
    again = rpgkernel.resolve("gnade Marvelus", campaign=camp, dice=[5])
    assert again.open                              # one point left: may repeat again
    closed = rpgkernel.resolve("gnade Marvelus", campaign=camp, dice=[9])
    assert not closed.open and closed.outcome["wurf"] == 9 and closed.outcome["erfolg"]
    assert camp.figure("Marvelus").resources["GG"]["value"] == 0
    faces = [s.value for s in closed.steps if s.rolls]
    assert faces == [3, 5, 9]


def test_grace_declined_lets_the_roll_stand(camp):
    rpgkernel.resolve("ew Marvelus fertigkeit=Balancieren", campaign=camp, dice=[3])
    closed = rpgkernel.resolve("verzicht Marvelus", campaign=camp)
    assert not closed.open and closed.outcome["wurf"] == 3 and not closed.outcome["erfolg"]
    assert camp.figure("Marvelus").resources["GG"]["value"] == 2


def test_grace_then_decline_then_undo(camp):
    rpgkernel.resolve("ew Marvelus fertigkeit=Balancieren", campaign=camp, dice=[3])
    assert rpgkernel.resolve("gnade Marvelus", campaign=camp, dice=[4]).open
    closed = rpgkernel.resolve("verzicht Marvelus", campaign=camp)
    assert closed.outcome["wurf"] == 4 and camp.figure("Marvelus").resources["GG"]["value"] == 1
    camp.undo()
    assert camp.figure("Marvelus").resources["GG"]["value"] == 2


def test_grace_only_for_those_involved_with_points(camp):
    camp.add_character("Alrik", {"gg": 3})
    rpgkernel.resolve("ew Marvelus fertigkeit=Balancieren", campaign=camp, dice=[3])
    with pytest.raises(ResolveError, match="Alrik kann EW: Balancieren nicht wiederholen lassen"):
        rpgkernel.resolve("gnade Alrik", campaign=camp, dice=[4])
    assert camp.figure("Alrik").resources["GG"]["value"] == 3


def test_no_pause_without_points(camp):
    camp.add_character("Alrik", {"fertigkeiten": ["Klettern +5"]})
    assert not rpgkernel.resolve("ew Alrik fertigkeit=Klettern", campaign=camp, dice=[3]).open


def test_missing_values_and_tables_are_named(camp):
    camp.add_character("Leer", {})
    with pytest.raises(ResolveError, match="Leer hat keinen Wert 'abwehr'"):
        rpgkernel.resolve("ww Leer gegen=20", campaign=camp, dice=[3])
    with pytest.raises(ResolveError, match="braucht fertigkeit= oder wert="):
        rpgkernel.resolve("ew Leer", campaign=camp, dice=[3])


def test_einrichten_checks_before_it_changes_anything(tmp_path, camp):
    bad = tmp_path / "t.yaml"
    bad.write_text("lp: {basis: viel}\n", encoding="utf-8")
    with pytest.raises(MidgardError, match="Tabelle 'lp'"):
        einrichten(bad, kampagne=camp)
    bad.write_text("lpp: {}\n", encoding="utf-8")
    with pytest.raises(MidgardError, match="Unbekannte Tabelle 'lpp'"):
        einrichten(bad, kampagne=camp)
    assert camp.data("midgard") is None


def test_the_gm_tables_are_kept_in_the_campaign_and_survive_a_restart(tmp_path):
    path = tmp_path / "k.sqlite"
    with Campaign.open(path) as camp:
        camp.set_ruleset("midgard")
        camp.add_character("Bilbo", {"zt": 70})
        with pytest.raises(ResolveError, match="Die Tabelle 'sechster_sinn' fehlt"):
            rpgkernel.resolve("ew Bilbo fertigkeit=Gefahrensinn ohne_gnade", campaign=camp, dice=[10])
        einrichten(BEISPIEL, kampagne=camp)
        assert camp.data("midgard")["quelle"] == "beispiel_spielleitung.yaml"
    with Campaign.open(path) as camp:                       # a new process: the tables are still there
        res = rpgkernel.resolve("ew Bilbo fertigkeit=Gefahrensinn ohne_gnade", campaign=camp, dice=[10])
        assert res.outcome["gesamt"] == 10 + 2              # Zt 70: +2 in the example table
        camp.undo()                                         # the resolution
        camp.undo()                                         # einrichten
        assert camp.data("midgard") is None


def test_other_basic_rolls_for_one_encounter_only(tmp_path, camp):
    strict = tmp_path / "grund.yaml"
    strict.write_text("mindestwurf: 21\n", encoding="utf-8")
    camp.new_encounter("Prüfung")
    einrichten(grundregeln=strict, kampagne=camp, begegnung="Prüfung")
    line = "ew Marvelus wert=5 ohne_gnade"
    assert not rpgkernel.resolve(line, campaign=camp, dice=[15]).outcome["erfolg"]      # 20 < 21
    camp.new_encounter("Gasse")                              # now the active one: the campaign's defaults
    assert rpgkernel.resolve(line, campaign=camp, dice=[15]).outcome["erfolg"]


def test_kept_data_that_is_not_midgards_is_named(camp):
    camp.set_data("midgard", {"tabelle": {}})
    with pytest.raises(ResolveError, match="Die Daten 'midgard' der Kampagne sind keine Einstellungen"):
        rpgkernel.resolve("ew Marvelus wert=5", campaign=camp, dice=[15])
    camp.set_data("midgard", {"grundregeln": {"mindestwurf": "hoch"}})
    with pytest.raises(ResolveError, match="mindestwurf hat den falschen Typ"):
        rpgkernel.resolve("ew Marvelus wert=5", campaign=camp, dice=[15])


def test_two_grace_lines_in_one_cell_repeat_twice(camp):
    rpgkernel.resolve("ew Marvelus fertigkeit=Balancieren", campaign=camp, dice=[3])
    closed = rpgkernel.resolve("gnade Marvelus\ngnade Marvelus", campaign=camp, dice=[4, 5])
    assert not closed.open and closed.outcome["wurf"] == 5
    assert camp.figure("Marvelus").resources["GG"]["value"] == 0


def test_lp_stop_at_0_unless_the_gm_sets_a_lower_bound_ap_and_grace_at_0(camp):
    """The seed names no lower bound of LP: 0, named in the journal, or the GM's (untergrenzen); AP
    stop at 0 as an attack's losses do (the basic rules); a point of divine grace spent is gone (Neue
    Regelung der Göttlichen Gnade): GG from 0 to the points."""
    camp.change("Marvelus", "LP", -30)
    camp.change("Marvelus", "AP", 25)
    camp.change("Marvelus", "AP", -50)
    camp.change("Marvelus", "GG", -3)
    camp.change("Marvelus", "GG", 5)
    assert [e.data["text"] for e in camp.journal(kind="ressource")] == [
        "Marvelus: LP 12 → 0 (mindestens 0: Vorgabe, einstellbar mit untergrenzen)",
        "Marvelus: AP 20 → 20 (höchstens 20)", "Marvelus: AP 20 → 0 (mindestens 0: Grundwürfe (Vorgabe))",
        "Marvelus: GG 2 → 0 (mindestens 0: Neue Regelung der Göttlichen Gnade)", "Marvelus: GG 0 → 2 (höchstens 2)"]
    rules.limits.einrichten({"LP": -5, "AP": -5}, kampagne=camp)
    camp.change("Marvelus", "LP", -30)
    camp.change("Marvelus", "AP", -30)
    assert [camp.figure("Marvelus").resources[k]["value"] for k in ("LP", "AP")] == [-5, 0]
