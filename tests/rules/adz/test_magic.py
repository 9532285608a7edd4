"""AdZ magic: spell tests, Krafteinsatz, drain, saving throws, trivial spells, concentration; GM data."""

import icepool
import pytest
from hypothesis import given, settings, strategies as st

import rpgkernel
from rpgkernel.dice import Roller
from rpgkernel.rules import adz
from rpgkernel.rules.adz import sheet as bogen
from rpgkernel.rules.adz.exact import entzug, erfolge_dist
from rpgkernel.rules.figure import view

from .test_core import figure
from .test_combat import close, ice_successes


def magierin(**kw):
    sheet = dict(WK=5, magiebereiche=["Feuer 5", "Pflanze 2", "Luft 6"], foki=["Flammen 2"], erschaffen=4,
                 beherrschen=1, fertigkeiten=["Alchemie 5"])
    sheet.update(kw.pop("sheet", {}))
    return figure("Magierin", **sheet, **kw)


@pytest.fixture
def gm_data(tmp_path):
    """The GM's data of files with these texts, checked (kept in no campaign: for ``daten=``)."""
    def load(*texts):
        paths = []
        for i, text in enumerate(texts):
            p = tmp_path / f"daten{i}.yaml"
            p.write_text(text, encoding="utf-8")
            paths.append(p)
        return adz.einrichten(*paths)
    return load


def test_spell_pool_area_technique_focus():
    plan = adz.magic.zauberplan(magierin(), bereich="Feuer", technik="erschaffen", fokus="Flammen", mw=2, kp=4)
    assert plan.test.wuerfel == 5 + 4 + 2 and plan.kp == 4 and not plan.trivial


def test_the_primary_property_gives_the_dice():
    plan = adz.magic.zauberplan(magierin(), bereich="Pflanze+Luft", technik="erschaffen+beherrschen", mw=2, kp=2)
    assert plan.test.wuerfel == 2 + 4
    assert "Primäreigenschaften sind Pflanze und erschaffen" in plan.test.res.steps[0].text


def test_supporting_areas_and_skills():
    plan = adz.magic.zauberplan(magierin(), bereich="Feuer", technik="erschaffen", unterstuetzung=["Alchemie", "Luft"],
                          mw=2, kp=2)
    assert plan.test.wuerfel == 9 + 2 + 2


def test_drain_with_surplus_bonus_dice():
    # 11 dice, 4 successes against 2: 2 surplus -> drain 5 + 2 = 7 dice, 3 successes; 8 KP -> 5 mental damage
    dice = [5, 5, 6, 6] + [1] * 7 + [5, 5, 6] + [1] * 4
    res = adz.zaubern(magierin(luck=0), Roller(dice=dice), bereich="Feuer", technik="erschaffen", fokus="Flammen",
                      mw=2, kp=8)
    o = res.outcome
    assert (o["gelungen"], o["überzählig"], o["entzug"], o["geistiger_schaden"]) == (True, 2, 3, 5)
    assert [(e.resource, e.by) for e in res.effects] == [("geistig", -5)]


def test_a_failed_spell_still_drains_without_bonus_dice():
    res = adz.zaubern(magierin(luck=0), Roller(dice=[5] + [1] * 10 + [6] + [1] * 4), bereich="Feuer",
                      technik="erschaffen", fokus="Flammen", mw=2, kp=3)
    assert not res.outcome["gelungen"] and res.outcome["geistiger_schaden"] == 2 and not res.outcome["wirkt"]


def test_no_drain_for_a_failure_when_the_gm_data_says_so(gm_data):
    daten = gm_data("entzug: {bei_misslingen: false}\n")
    res = adz.zaubern(magierin(luck=0), Roller(dice=[5] + [1] * 10), bereich="Feuer", technik="erschaffen",
                      fokus="Flammen", mw=2, kp=3, daten=daten)
    assert res.outcome["entzug"] is None and res.outcome["geistiger_schaden"] == 0


def test_mental_damage_overflows_from_a_big_spell():
    res = adz.zaubern(magierin(luck=0, mental=3), Roller(dice=[5, 5] + [1] * 9 + [1] * 5), bereich="Feuer",
                      technik="erschaffen", fokus="Flammen", mw=2, stufe=5)   # 15 KP
    assert res.outcome["kp"] == 15 and res.outcome["geistiger_schaden"] == 15
    assert {(e.resource, e.by) for e in res.effects if e.resource} == {("geistig", -3), ("körperlich", -12)}
    assert {"bewusstlos", "dem Tod nahe"} <= {e.condition for e in res.effects}


@pytest.mark.parametrize("step, kp", [(1, 1), (2, 2), (3, 4), (4, 8), (5, 15), (6, 30), (7, 75), (8, 150),
                                      (9, 300), (10, 600), (11, 1200), (12, 2500), (13, 5000)])
def test_the_standard_scale(step, kp):
    assert adz.magic.krafteinsatz(None, step) == kp


def test_krafteinsatz_errors():
    with pytest.raises(adz.AdzError, match="Stufen 1 bis 13"):
        adz.magic.krafteinsatz(None, 14)
    with pytest.raises(adz.AdzError, match="nicht beides"):
        adz.magic.krafteinsatz(3, 2)
    with pytest.raises(adz.AdzError, match="Welcher Krafteinsatz"):
        adz.magic.krafteinsatz(None, None)


@pytest.mark.parametrize("kw, trivial", [
    ({"mw": 1, "kp": 1}, True),
    ({"mw": 1, "kp": 0}, True),
    ({"mw": 2, "kp": 1}, False),
    ({"mw": 1, "kp": 2}, False),
    ({"mw": 1, "kp": 1, "kampf": True}, False),
    ({"mw": 1, "kp": 1, "wuerfeln_": True}, False),
])
def test_trivial_spells(kw, trivial):
    assert adz.magic.zauberplan(magierin(), bereich="Feuer", technik="erschaffen", **kw).trivial is trivial


def test_a_trivial_spell_needs_three_dice_and_no_target():
    weak = figure("Lehrling", magiebereiche=["Licht 1"], erschaffen=1)
    assert not adz.magic.zauberplan(weak, bereich="Licht", technik="erschaffen", mw=1, kp=1).trivial
    assert not adz.magic.zauberplan(magierin(), bereich="Feuer", technik="erschaffen", mw=1, kp=1, ziel=figure("Ork")).trivial
    res = adz.zaubern(magierin(), Roller(dice=[]), bereich="Feuer", technik="erschaffen", mw=1, kp=1)
    assert res.outcome["trivial"] and res.outcome["erfolge"] == 1 and res.effects == [] and not res.open


def test_saving_throw_is_an_opposed_test_the_caster_initiated():
    ork = figure("Ork", WK=3, luck=0)
    # spell 11 dice: 3 successes (MW 3); Ork WK 3: 3 successes -> tie, the initiator wins
    dice = [5, 5, 5] + [1] * 8 + [6, 6, 6] + [1] * 5
    res = adz.zaubern(magierin(luck=0), Roller(dice=dice), bereich="Feuer", technik="erschaffen", fokus="Flammen",
                      mw=3, kp=0, ziel=ork)
    assert res.outcome["wirkt"] and res.outcome["geistiger_schaden"] == 0
    dice = [5, 5, 5] + [1] * 8 + [6, 6, 6, 1] + [1] * 5
    res = adz.zaubern(magierin(luck=0), Roller(dice=dice), bereich="Feuer", technik="erschaffen", fokus="Flammen",
                      mw=3, kp=0, ziel=figure("Ork", WK=4, luck=0))
    assert res.outcome["wirkt"]
    dice = [5, 5, 5] + [1] * 8 + [6, 6, 6, 6] + [1] * 5
    res = adz.zaubern(magierin(luck=0), Roller(dice=dice), bereich="Feuer", technik="erschaffen", fokus="Flammen",
                      mw=3, kp=0, ziel=figure("Ork", WK=4, luck=0))
    assert not res.outcome["wirkt"] and res.outcome["gelungen"]


def test_an_unconscious_target_makes_no_saving_throw():
    res = adz.zaubern(magierin(luck=0), Roller(dice=[5, 5, 5] + [1] * 8 + [1] * 5), bereich="Feuer",
                      technik="erschaffen", fokus="Flammen", mw=3, kp=0, ziel=figure("Ork", physical=0))
    assert res.outcome["wirkt"] and res.targets == ("Ork",)
    assert "Ork ist bewusstlos: kein Rettungswurf." in [s.text for s in res.steps]


def test_luck_on_the_spell_test_adds_drain_dice():
    base = [5, 5] + [1] * 9 + [1] * 5                  # 2 successes (MW 2): drain 5 dice, none
    opened = adz.zaubern(magierin(), Roller(dice=base), bereich="Feuer", technik="erschaffen", fokus="Flammen",
                         mw=2, kp=4)
    assert opened.open and opened.choices[0].options == ("entzug",)
    failed = [5] + [1] * 10 + [1] * 5
    opened = adz.zaubern(magierin(), Roller(dice=failed), bereich="Feuer", technik="erschaffen", fokus="Flammen",
                         mw=2, kp=4)
    assert opened.choices[0].options == ("zauber", "entzug")
    # luck on the test: 3 dice, 3 successes -> 4 successes, 2 surplus: two more drain dice (both successes)
    dice = failed + [6, 6, 5] + [5, 6]
    res = adz.zaubern(magierin(), Roller(dice=dice), bereich="Feuer", technik="erschaffen", fokus="Flammen", mw=2,
                      kp=4, glueck=[{"figures": ["Magierin"], "wurf": "zauber"}])
    o = res.outcome
    assert (o["gelungen"], o["überzählig"], o["entzug"], o["geistiger_schaden"]) == (True, 2, 2, 2)


def test_concentration_renewal_and_ending():
    res = adz.zaubern(magierin(luck=0), Roller(dice=[5, 5] + [1] * 9 + [5] * 5), bereich="Feuer",
                      technik="erschaffen", fokus="Flammen", mw=2, kp=3, aufrecht=True, name="Feuerwand")
    assert ("Konzentration: Feuerwand", True) in {(e.condition, e.on) for e in res.effects}
    holding = magierin(luck=0, conditions=["Konzentration: Feuerwand"])
    assert adz.probe(holding, Roller(dice=[1] * 5), attribut="GE", mw=1).outcome["würfel"] == 5
    renewed = adz.magic.erneuern(holding, Roller(dice=[5, 1, 1, 1, 1]), kp=3, name="Feuerwand")
    assert renewed.outcome == {"kp": 3, "entzug": 1, "geistiger_schaden": 2}
    assert renewed.preview["geistiger_schaden"].isclose((rpgkernel.dist("5W6>=5") * -1 + 3).clip(lower=0))
    ended = adz.magic.beenden(holding, "Feuerwand")
    assert [(e.condition, e.on) for e in ended.effects] == [("Konzentration: Feuerwand", False)]
    with pytest.raises(adz.AdzError, match="hält keinen Zauber"):
        adz.magic.beenden(holding, "Lichtkugel")


# -- previews against icepool --------------------------------------------------------------------
def ice_drain(n, mw, wk, kp, bonus=1, on_failure=True):
    S = ice_successes(n)

    def branch(s):
        ok = s >= mw if mw <= n else False
        if not ok and not on_failure:
            return icepool.Die([0])
        extra = (s - mw) * bonus if ok else 0
        return (kp - ice_successes(wk + extra)).clip(0, None) if kp else icepool.Die([0])
    return S.map(branch)


@settings(max_examples=30)
@given(st.integers(1, 12), st.integers(1, 5), st.integers(1, 6), st.integers(0, 12))
def test_drain_distribution_equals_icepool(n, mw, wk, kp):
    mine = entzug(erfolge_dist(n), n, mw, wk, kp)
    assert close(mine, ice_drain(n, mw, wk, kp))


def test_spell_preview_with_a_saving_throw():
    plan = adz.magic.zauberplan(magierin(), bereich="Feuer", technik="erschaffen", fokus="Flammen", mw=3, kp=6,
                          ziel=figure("Ork", WK=4))
    p = plan.test.res.preview
    spell, save = ice_successes(11), ice_successes(4)
    wins = icepool.map(lambda s, r: s >= 3 and (r < 1 or s >= r), spell, save)
    assert p["p_wirkt"] == pytest.approx(wins.probability(True), abs=1e-12)
    assert close(p["geistiger_schaden"], ice_drain(11, 3, 5, 6))


# -- GM data ----------------------------------------------------------------------------------------
def test_effects_weapons_and_actions_from_the_example_files():
    daten = adz.einrichten(adz.DATA / "beispiel_magiebereiche.yaml", adz.DATA / "beispiel_ausruestung.yaml",
                           adz.DATA / "beispiel_handlungen.yaml")
    plan = adz.magic.zauberplan(magierin(), effekt="Flammenstrahl", daten=daten)
    assert (plan.test.mw, plan.kp, plan.name) == (2, 4, "Flammenstrahl")
    assert "Zauberdauer: 1 Runde." in [s.text for s in plan.test.res.steps]
    knight = figure("Ritter", fertigkeiten=["Schwerter 5"], waffen=["Langschwert"], ausruestung=["Kettenhemd"],
                    daten=daten)
    w = bogen.waffe_von(knight, None, daten)
    assert (w.fertigkeit, w.attribut, w.grundschaden) == ("Schwerter", "KK", 4)
    res = adz.probe(figure(conditions=["Reaktionen: 1"]), Roller(dice=[1] * 3), attribut="GE", mw=1,
                    handlung="Ausweichen", daten=daten)
    assert res.outcome["würfel"] == 3
    with pytest.raises(adz.AdzError, match="Handlungsbeispielen"):
        adz.probe(figure(), Roller(dice=[]), attribut="GE", mw=1, handlung="Tanzen", daten=daten)
    with pytest.raises(rpgkernel.RpgError, match="keiner Waffenliste"):
        bogen.waffe_von(knight, None, adz.EINSTELLUNGEN.defaults())


def test_gm_data_replaces_tables_and_is_checked(gm_data):
    daten = gm_data("schadensleiste: {malus: [0, 2, 4, X], auf_entzugswurf: true}\n"
                    "techniken: [formen, lösen]\n")
    assert daten.stufen == 4 and daten.techniken == ("formen", "lösen")
    assert bogen.build(daten).validate({**{k: 3 for k in "KK KO GE FF KL WK IN CH GL".split()},
                                        "formen": 2})["formen"] == 2
    assert adz.damage.verletzungsmalus(view({"name": "Alrik", "sheet": dict(figure().sheet), "resources": {
        "körperlich": {"value": 2, "max": 4}, "geistig": {"value": 4, "max": 4}}}), daten) == 2
    for bad, message in (("schadensleiste: {malus: [0, 1]}\n", "letzter Eintrag X"),
                         ("initiative: {attribut: XX}\n", "attribut"),
                         ("- keine Zuordnung\n", "Zuordnung")):
        with pytest.raises(adz.AdzError, match=message):
            gm_data(bad)


def test_the_injury_malus_on_the_drain_roll_is_a_data_switch(gm_data):
    hurt = magierin(luck=0, physical=7)    # 5 steps: malus 2
    assert adz.magic.zauberplan(hurt, bereich="Feuer", technik="erschaffen", mw=2, kp=3).entzug_wuerfel == 5
    daten = gm_data("schadensleiste: {auf_entzugswurf: true}\n")
    assert adz.magic.zauberplan(hurt, bereich="Feuer", technik="erschaffen", mw=2, kp=3, daten=daten).entzug_wuerfel == 3
