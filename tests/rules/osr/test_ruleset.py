"""OSR combat (seed 001): hit dice, the roll needed, surprise, side initiative, attacks and actions."""

import icepool
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rpgkernel
from rpgkernel import Campaign
from rpgkernel.dice import Roller
from rpgkernel.errors import ResolveError
from rpgkernel.rules import limits
from rpgkernel.rules import osr
from rpgkernel.rules.figure import view
from rpgkernel.rules.osr import OsrError

S = osr.settings.Einstellungen()


def fig(name, side="", **sheet):
    sheet.setdefault("rk", 10)
    sheet.setdefault("tp", 8)
    return view({"name": name, "side": side, "sheet": osr.Osr.sheet.validate(sheet),
            "resources": {"TP": {"value": sheet["tp"], "max": sheet["tp"]}}, "conditions": {}})


@pytest.mark.parametrize("tw, stufe", [("0", 0), ("1-2", 0), ("1-1", 1), ("1", 2), ("1+1", 3), ("2", 3),
                                       ("2+1", 4), ("3", 4), ("10+1", 12), ("18+1", 20), ("19+1", 20), ("25", 20)])
def test_hit_dice_to_level_each_row_starts_a_range(tw, stufe):
    assert osr.stufe_aus_tw(tw) == stufe


def test_special_attack_level_and_gm_adjustment():
    midge = fig("Blutmücke", tw="1+1", angriffsstufe=5)
    assert osr.core.angriffsstufe(midge) == 5
    assert osr.core.angriffsstufe(fig("Ork", tw="1", stufe_mod=1)) == 3
    assert osr.zauberstufe(fig("Drache", tw="11")) == 12
    with pytest.raises(OsrError, match="weder Stufe"):
        osr.core.angriffsstufe(fig("Niemand"))
    with pytest.raises(OsrError, match="Trefferwürfel"):
        osr.stufe_aus_tw("viele")


@pytest.mark.parametrize("stufe, rk, need", [(1, 10, 10), (1, 0, 20), (2, -5, 20), (1, -6, 21), (1, -10, 25),
                                             (3, 0, 18), (3, -7, 20), (3, -8, 21), (5, 10, 6), (20, 0, 2),
                                             (1, -12, 27), (1, 12, 8)])
def test_the_example_fighter_matrix(stufe, rk, need):
    """1-2 needs 20 vs AC 0 and 10 vs AC 10, 2 better every two levels, 20 six times; beyond: +1 per point."""
    assert osr.core.mindestwurf(fig("K", stufe=stufe), rk, S)[0] == need


def test_thac0_and_ascending_ac():
    assert osr.core.mindestwurf(fig("K", etw0=19), 5, S)[0] == 14
    asc = osr.settings.Einstellungen(rk_aufsteigend=True)
    assert osr.core.mindestwurf(fig("K", ab=3), 15, asc)[0] == 12


@given(st.integers(-30, 40), st.integers(-20, 20))
def test_hit_chance_is_exact(need, mod):
    oracle = (icepool.d20 + mod >= need).probability(True)
    assert osr.core.p_treffer(need, mod) == pytest.approx(float(oracle), abs=1e-12)


def test_surprise_per_side_with_preview():
    a, b = fig("A", "Gruppe"), fig("B", "Goblins")
    res = osr.initiative.ueberraschung([a, b], Roller(dice=[2, 3]), S)
    assert res.outcome == {"überrascht": ["Gruppe"]}
    assert [e.figure for e in res.effects] == ["A"] and res.effects[0].condition == "überrascht"
    assert all(p == pytest.approx(2 / 6) for p in res.preview.values())
    assert osr.initiative.ueberraschung([a, b], Roller(dice=[3, 3]), S, bis=3).outcome["überrascht"] == ["Gruppe", "Goblins"]


def test_side_initiative_segments_missile_bonus_and_ties():
    archer = fig("Schütze", "Gruppe", fernkampfbonus=2, waffen=["Kurzbogen (W6, Fernkampf)"])
    knight, gob = fig("Ritter", "Gruppe"), fig("Goblin", "Goblins")
    res = osr.initiative.seiteninitiative([knight, archer, gob], Roller(dice=[2, 3]), S)
    assert res.outcome["segmente"] == {"Gruppe": 3, "Goblins": 2}
    assert res.outcome["reihenfolge"] == ["Schütze", "Goblin", "Ritter"]   # 2+2 beats 3
    tie = osr.initiative.seiteninitiative([knight, gob], Roller(dice=[4, 4]), S)
    assert tie.outcome["gleichzeitig"] == ["Gruppe", "Goblins"]
    again = osr.initiative.seiteninitiative([knight, gob], Roller(dice=[4, 4, 1, 5]), osr.settings.Einstellungen(gleichstand="neu"))
    assert again.outcome["reihenfolge"] == ["Goblin", "Ritter"]
    pv = res.preview
    two = (icepool.d6 > icepool.d6).probability(True)
    assert pv["P(Initiative für Gruppe)"] == pytest.approx(float(two), abs=1e-12)
    assert pv["P(Gleichstand: gleichzeitig)"] == pytest.approx(1 / 6, abs=1e-12)
    assert pv["P(Schütze handelt mit Fernkampfbonus vor der anderen Seite)"] == pytest.approx(
        float((icepool.d6 + 2 > icepool.d6).probability(True)), abs=1e-12)


def test_attack_modifiers_and_armour_losses():
    att = fig("K", stufe=1, angriffsbonus=1, schadensbonus=2, waffen=["Langschwert (W8)"])
    tgt = fig("Z", rk=4, schild=1, ges_rk=2)
    assert osr.angriff.plan(att, tgt, {}, S).mindestwurf == 16 and osr.angriff.plan(att, tgt, {}, S).mod == 1
    rear = osr.angriff.plan(att, tgt, {"hinten": True}, S)       # loses shield and Dex: AC 7, +2
    assert (rear.rk, rear.mod) == (7, 3)
    assert osr.angriff.plan(att, tgt, {"flanke": True}, S).rk == 5
    covered = osr.angriff.plan(att, tgt, {"deckung": 75, "tarnung": 50}, S)
    assert covered.rk == 4 - 7 - 2 and covered.mindestwurf == 20   # AC -5: the sixth 20
    prone = tgt.with_condition("liegend")
    assert (osr.angriff.plan(att, prone, {}, S).rk, osr.angriff.plan(att, prone, {}, S).mod) == (7, 5)
    parrying = fig("P", rk=5, angriffsbonus=2).with_condition("pariert")
    assert osr.angriff.plan(att, parrying, {}, S).mod == 1 - 2
    charging = fig("C", rk=5).with_condition("stürmt")
    assert osr.angriff.plan(att, charging, {}, S).rk == 6          # no Dex bonus: AC 1 worse
    inv = tgt.with_condition("unsichtbar")
    with pytest.raises(OsrError, match="bekannter Position"):
        osr.angriff.plan(att, inv, {}, S)
    with pytest.raises(OsrError, match="nicht von hinten"):
        osr.angriff.plan(att, inv, {"position_bekannt": True, "hinten": True}, S)
    assert osr.angriff.plan(att, inv, {"position_bekannt": True}, S).mod == 1 - 4
    with pytest.raises(OsrError, match="erlaubt sind 25, 50, 75, 90"):
        osr.angriff.plan(att, tgt, {"deckung": 30}, S)


def test_preview_is_exact_and_two_weapons_never_give_a_bonus():
    att = fig("K", stufe=1, angriffsbonus=0, schadensbonus=1, fernkampfbonus=3,
              waffen=["Kurzschwert (W6)", "Dolch (W4)"])
    tgt = fig("Z", rk=6)
    pv = osr.angriff.vorschau(att, [tgt], {"zwei_waffen": True}, S)
    hits = [v for k, v in pv.items() if k.startswith("P(Treffer")]
    assert hits == [pytest.approx(7 / 20), pytest.approx(6 / 20)]   # need 14: +0 (capped) and -1
    dmg = pv["schaden:Z"]
    oracle = icepool.d6 + 1
    assert all(dmg.p_exactly(v) == pytest.approx(float(oracle.probability(v)), abs=1e-12) for v in range(2, 8))
    mixed = pv["erwartet:Z"]
    assert mixed.mean == pytest.approx(7 / 20 * 4.5, abs=1e-12)
    with pytest.raises(OsrError, match="Dolch oder eine Handaxt"):
        osr.angriff.vorschau(fig("X", stufe=1, waffen=["Schwert (W8)", "Keule (W6)"]), [tgt], {"zwei_waffen": True}, S)


def test_attack_rolls_damage_and_a_hit_caster_loses_the_spell():
    att = fig("K", stufe=1, schadensbonus=1, waffen=["Streitaxt (W8)"])
    mage = fig("M", rk=10, tp=5).with_condition("zaubert")
    res = osr.angriff.angriff(att, [mage], Roller(dice=[10, 4]), {}, S)
    assert res.outcome == {"ziel": "M", "treffer": 1, "schaden": 5}
    assert [(e.figure, e.resource, e.by, e.condition, e.on) for e in res.effects] == [
        ("K", None, 0, "hat gehandelt", True), ("M", "TP", -5, None, True), ("M", None, 0, "zaubert", False)]
    miss = osr.angriff.angriff(att, [mage], Roller(dice=[9]), {}, S)
    assert miss.outcome["schaden"] == 0 and [e.condition for e in miss.effects] == ["hat gehandelt"]


def test_charge_lance_set_spear_and_refusals():
    rider = fig("R", stufe=1, beritten=True, schlachtross=True, schadensbonus=1, waffen=["Lanze (W8, Lanze, Länge 10)"])
    spear = fig("S", stufe=1, rk=7, waffen=["Speer (W6, Länge 8, Sturm)"])
    lance = osr.angriff.plan(rider, spear, {"sturmangriff": True}, S)
    assert lance.faktor == 2 and lance.mod == 2 and lance.schaden.max == 17   # 2×8 + 1, bonus not doubled
    res = osr.angriff.angriff(rider, [spear], Roller(dice=[11, 5]), {"sturmangriff": True}, S)
    assert res.outcome["schaden"] == 11
    assert {e.condition for e in res.effects if e.condition} == {"stürmt", "hat gestürmt", "hat gehandelt"}
    done = rider.with_condition("hat gestürmt")
    with pytest.raises(OsrError, match="10 Runden"):
        osr.angriff.angriff(done, [spear], Roller(dice=[11, 5]), {"sturmangriff": True}, S)
    heavy = fig("H", stufe=1, maximal_belastet=True, waffen=["Schwert (W8)"])
    with pytest.raises(OsrError, match="maximal belastet"):
        osr.angriff.angriff(heavy, [spear], Roller(dice=[11, 5]), {"sturmangriff": True}, S)
    set_ = osr.aktionen.stemmen(spear)
    braced = spear.with_condition("gegen Sturm gestemmt")
    with pytest.raises(OsrError, match="stürmenden"):
        osr.angriff.angriff(braced, [rider], Roller(dice=[20, 1]), {}, S)
    charging = rider.with_condition("stürmt")
    assert osr.angriff.plan(braced, charging, {}, S).faktor == 2 and set_.effects[0].condition == "gegen Sturm gestemmt"
    with pytest.raises(OsrError, match="stemmen"):
        osr.aktionen.stemmen(rider)


def test_flee_wrestle_overbear_break_free_and_random_target():
    ork = fig("Ork", rk=7, tp=6)
    k1 = fig("K1", stufe=1, waffen=["Schwert (W8)"])
    res = osr.angriff.fliehen(ork, [k1], Roller(dice=[9, 3]), S)   # need 13; 9 + 4 = 13 hits
    assert res.outcome["schaden"] == 3 and res.effects[0].condition == "flieht"
    w = osr.angriff.angriff(k1, [ork], Roller(dice=[13, 1]), {"ringen": True, "sturmangriff": True}, S)
    assert w.outcome["schaden"] == 0 and {"festgehalten", "liegend"} <= {e.condition for e in w.effects}
    held = ork.with_condition("festgehalten")
    with pytest.raises(OsrError, match="festgehalten"):
        osr.angriff.angriff(held, [k1], Roller(dice=[20, 1]), {}, S)
    free = osr.aktionen.losreissen(held, 30, Roller(dice=[30]))
    assert free.outcome == {"frei": True} and free.effects[0].on is False
    rnd = osr.angriff.angriff(k1, [ork, fig("Gob", rk=7)], Roller(dice=[2, 1]), {}, S)
    assert rnd.outcome["ziel"] == "Gob"
    sleeping = ork.with_condition("schläft")
    with pytest.raises(OsrError, match="Meuchelmord"):
        osr.angriff.angriff(k1, [sleeping], Roller(dice=[1]), {}, S)
    assert osr.angriff.angriff(k1, [sleeping], Roller(dice=[40]), {"toetung": 45}, S).outcome["getötet"]


def test_declared_actions_and_spells():
    k = fig("K", angriffsbonus=2)
    assert osr.aktionen.parieren(k).effects[0].condition == "pariert"
    adv = osr.aktionen.vorruecken(k, [fig("G")])
    assert [(e.figure, e.condition) for e in adv.effects] == [("K", "rückt vor"), ("G", "kein Angriff")]
    cast = osr.aktionen.zaubern(k, "Schlaf", 12, 5)
    assert cast.outcome == {"zauber": "Schlaf", "runden": 2}
    with pytest.raises(OsrError, match="kann in dieser Runde nicht angreifen"):
        osr.angriff.angriff(k.with_condition("pariert"), [fig("G")], Roller(dice=[1]), {}, S)


def test_bad_weapons_and_settings_are_refused():
    with pytest.raises(Exception, match="Name \\(Schaden"):
        osr.sheet.waffe("Schwert")
    with pytest.raises(Exception, match="unbekannte Eigenschaft"):
        osr.sheet.waffe("Schwert (W8, scharf)")
    with pytest.raises(OsrError, match="0 bis 6"):
        osr.einrichten(ueberrascht_bis=9)
    with pytest.raises(OsrError, match="Angriffsmatrix"):
        osr.settings.matrix_laden(__file__)
    with pytest.raises(OsrError, match="'gleichzeitig' oder 'neu'"):
        osr.einrichten(gleichstand="später")
    with pytest.raises(OsrError, match="True oder False"):
        osr.einrichten(rk_aufsteigend="ja")


@pytest.fixture
def camp(tmp_path):
    c = Campaign.open(tmp_path / "k.sqlite")
    c.set_ruleset("osr")
    enc = c.new_encounter("Höhle")
    enc.add("Hauptmann", side="Gruppe", sheet={"stufe": 3, "rk": 4, "schild": 1, "ges_rk": 1, "tp": 20,
                                               "angriffsbonus": 1, "waffen": ["Langschwert (W8, Länge 3.5)"]})
    enc.add("Schütze", side="Gruppe", sheet={"stufe": 1, "rk": 7, "tp": 6, "fernkampfbonus": 2,
                                             "waffen": ["Kurzbogen (W6, Fernkampf)"]})
    enc.add("Goblin", side="Goblins", count=2, sheet={"tw": "1-1", "rk": 6, "tp": 4,
                                                      "waffen": ["Speer (W6, Länge 8, Sturm)"]})
    enc.activate()
    yield c
    c.close()


def test_encounter_rolls_side_initiative_every_round(camp):
    enc = camp.encounters["Höhle"]
    assert enc.start(dice=[4, 3]) == ["Schütze", "Hauptmann", "Goblin 1", "Goblin 2"]
    enc.set_segment(3)
    assert enc.next_round(dice=[1, 5]) == 2 and enc.order[:2] == ["Goblin 1", "Goblin 2"]


def test_resolve_lines_apply_effects(camp):
    camp.encounters["Höhle"].start(dice=[4, 3])
    # the goblin's spear (8 ft) is longer than the long sword (3.5 ft): it strikes first, W20 = 3 misses
    # (level 1 against the charging Hauptmann's AC 5 needs 15); then the Hauptmann: 12 + 1 + 2 >= 12
    res = rpgkernel.resolve('angriff Hauptmann -> "Goblin 1" sturmangriff', campaign=camp, dice=[3, 12, 5])
    assert res.outcome == {"ziel": "Goblin 1", "treffer": 1, "schaden": 5}
    assert camp.figure("Goblin 1").resources["TP"]["value"] == 0     # 4 TP - 5: not below 0
    assert "hat gehandelt" in camp.figure("Goblin 1").conditions
    assert "hat gestürmt" in camp.figure("Hauptmann").conditions
    pv = rpgkernel.resolve('angriff Schütze -> Hauptmann, "Goblin 2"', campaign=camp, preview=True).preview
    assert pv["P(Ziel Hauptmann)"] == 0.5
    card = repr(rpgkernel.resolve('fliehen "Goblin 2" -> Hauptmann', campaign=camp, dice=[1]))
    assert "Flucht +4" in card


def test_flee_gives_no_free_attack_to_those_who_may_not_attack():
    ork = fig("Ork", rk=7, tp=6)
    frei = fig("Frei", stufe=1, waffen=["Schwert (W8)"])
    held = fig("Gehalten", stufe=1, waffen=["Schwert (W8)"]).with_condition("festgehalten")
    parry = fig("Pariert", stufe=1, angriffsbonus=2, waffen=["Schwert (W8)"]).with_condition("pariert")
    spear = fig("Speer", stufe=1, waffen=["Speer (W6, Sturm)"]).with_condition("gegen Sturm gestemmt")
    res = osr.angriff.fliehen(ork, [held, parry, frei, spear], Roller(dice=[9, 3]), S)   # only Frei: 9 + 4 = 13 hits
    assert res.outcome == {"schaden": 3}
    texts = [s.text for s in res.steps]
    assert sum("Kein Angriff mit +4" in x for x in texts) == 3
    assert any("festgehalten" in x for x in texts) and any("gestemmt" in x for x in texts)
    pv = osr.angriff.fliehen(ork, [held, parry, frei, spear], None, S).preview
    assert [k for k in pv if k.startswith("P(Treffer")] == [next(k for k in pv if "Frei" in k)]
    # a set spear is not barred against a charging figure that flees: it strikes, for double damage
    stuermt = ork.with_condition("stürmt")
    res = osr.angriff.fliehen(stuermt, [spear], Roller(dice=[8, 2]), S)   # RK 8 (no Dex: 1 worse): needs 12; 8 + 4
    assert res.outcome == {"schaden": 4}
    pv = osr.angriff.fliehen(stuermt, [spear], None, S).preview
    assert [v for k, v in pv.items() if k.startswith("P(Treffer")] == [13 / 20]   # W20 >= 8


@pytest.mark.parametrize("entry, laenge", [("Langschwert (W8, Länge 3,5)", 3.5), ("Langschwert (W8, Länge 3.5)", 3.5),
                                           ("Speer (W6,Länge 8,5,Sturm)", 8.5), ("Speer (W6, Sturm, Länge 12)", 12.0)])
def test_weapon_lengths_with_a_decimal_comma(entry, laenge):
    w = osr.sheet.waffe(entry)
    assert w.laenge == laenge and w.schaden in ("W8", "W6")
    assert w.sturm == ("Sturm" in entry)


@pytest.mark.parametrize("entry", ["Speer (W6, Länge acht)", "Speer (W6, Länge 3,5,5)", "Speer (W6, Länge)",
                                   "Speer (W6, Länge -3)"])
def test_a_malformed_length_is_refused_in_german(entry):
    with pytest.raises(Exception, match="ist keine Länge"):
        osr.sheet.waffe(entry)


def test_saving_throws_by_the_gm_table(tmp_path):
    table = tmp_path / "rw.yaml"
    table.write_text("kategorien: [Gift, Odem]\ntabellen:\n  Kämpfer:\n    - stufen: [0, 2]\n      wurf: [14, 17]\n"
                     "    - stufen: [3, 20]\n      wurf: [11, 13]\n  Kleriker:\n    - stufen: [0, 20]\n"
                     "      wurf: [9, 15]\n", encoding="utf-8")
    s = osr.settings.Einstellungen(rettung=osr.settings.rettung_laden(table))
    ork = fig("Ork", tw="1")                                   # 1 TW -> Stufe 2
    pv = osr.rettung.rettungswurf(ork, "gift", None, s, bonus=2).preview
    assert list(pv.values()) == [pytest.approx(float((icepool.d20 + 2 >= 14).probability(True)), abs=1e-12)]
    assert "Stufe 2" in next(iter(pv))
    assert osr.rettung.rettungswurf(fig("Oger", tw="4+1"), "Odem", None, s).preview.popitem()[1] == 8 / 20   # Stufe 6: 13
    giant = fig("Riese", tw="2", rettungsstufe_mod=-1)         # 2 TW -> 3, minus 1 -> 2
    assert osr.rettung.rettungsstufe(giant) == 2 and osr.rettung.rettungsziel(giant, "Gift", s)[0] == 14
    shaman = fig("Schamane", tw="1", klasse="Kleriker")
    assert osr.rettung.rettungsziel(shaman, "Gift", s)[0] == 9
    res = osr.rettung.rettungswurf(ork, "Gift", Roller(dice=[12]), s, bonus=2)
    assert res.outcome == {"gelungen": True, "wurf": 14, "nötig": 14}
    assert osr.rettung.rettungswurf(ork, "Gift", Roller(dice=[11]), s, bonus=2).outcome["gelungen"] is False
    with pytest.raises(OsrError, match="unbekannte Kategorie"):
        osr.rettung.rettungswurf(ork, "Feuer", None, s)
    with pytest.raises(OsrError, match="Keine Rettungswurftabelle"):
        osr.rettung.rettungswurf(fig("D", tw="1", rettungsklasse="Dieb"), "Gift", None, s)
    with pytest.raises(OsrError, match="Rettungswurftabelle"):
        osr.settings.rettung_laden(__file__)
    with pytest.raises(OsrError, match="Rettungswurftabelle"):
        osr.einrichten(rettungswuerfe=__file__)
    example = (osr.settings.DATA / "rettungswuerfe.yaml").read_text(encoding="utf-8")
    assert example.startswith("# BEISPIEL") and "KEINE veröffentlichte Tabelle" in example


def test_the_save_verb_through_resolve(camp):
    res = rpgkernel.resolve('save "Goblin 1" kategorie=Odem bonus=1', campaign=camp, dice=[18])
    assert res.outcome == {"gelungen": True, "wurf": 19, "nötig": 17}   # example table: 1-1 TW -> Stufe 1, Odem 17
    pv = rpgkernel.resolve('rettungswurf "Goblin 1" kategorie=Odem bonus=1', campaign=camp, preview=True).preview
    assert list(pv.values()) == [5 / 20]


def _p_surprised(camp):
    pv = rpgkernel.resolve('überraschung Hauptmann, "Goblin 1"', campaign=camp, preview=True).preview
    (p,) = set(pv.values())                                    # the same for both sides
    return p


MATRIX = "rk: [6, 5]\nmatrizen:\n  Kämpfer:\n    - stufen: [0, 20]\n      wurf: [3, 4]\n"
SAVES = "kategorien: [Gift]\ntabellen:\n  Kämpfer:\n    - stufen: [0, 20]\n      wurf: [20]\n"


def test_the_gm_settings_are_kept_in_the_campaign_and_survive_a_restart(tmp_path, camp):
    (tmp_path / "m.yaml").write_text(MATRIX, encoding="utf-8")
    (tmp_path / "rw.yaml").write_text(SAVES, encoding="utf-8")
    assert _p_surprised(camp) == 2 / 6
    cfg = osr.einrichten(ueberrascht_bis=6, matrix=tmp_path / "m.yaml", rettungswuerfe=tmp_path / "rw.yaml",
                         kampagne=camp)
    assert cfg.ueberrascht_bis == 6 and camp.data("osr")["matrix"]["rk"] == [6, 5]
    camp.close()
    (tmp_path / "m.yaml").unlink()                             # kept in the campaign, not read from the file
    with Campaign.open(tmp_path / "k.sqlite") as again:        # a new process
        assert _p_surprised(again) == 1
        # Hauptmann (Stufe 3, Stärke +1) against Goblin 1 (RK 6): the GM's matrix needs 3, 2+ hits
        res = rpgkernel.resolve('angriff Hauptmann -> "Goblin 1"', campaign=again, dice=[2, 4])
        assert res.outcome["treffer"] == 1
        pv = rpgkernel.resolve('rettungswurf "Goblin 1" kategorie=Gift', campaign=again, preview=True).preview
        assert list(pv.values()) == [1 / 20]                   # the GM's table: 20 needed


def test_a_second_notebook_on_the_campaign_sees_the_settings(tmp_path, camp):
    other = Campaign.open(tmp_path / "k.sqlite")
    try:
        osr.einrichten(ueberrascht_bis=0, kampagne=camp)
        assert _p_surprised(other) == 0
        osr.einrichten(gleichstand="neu", kampagne=other)
        # the tie 4:4 is rolled again (1:5); without the setting both sides would act at once
        res = rpgkernel.resolve('initiative Hauptmann, "Goblin 1"', campaign=camp, dice=[4, 4, 1, 5])
        assert res.outcome["würfe"] == {"Gruppe": 1, "Goblins": 5} and res.outcome["gleichzeitig"] == []
    finally:
        other.close()


def test_the_encounters_own_initiative_follows_the_kept_tie_rule(camp):
    enc = camp.encounters["Höhle"]
    assert enc.start(dice=[4, 4])[:2] == ["Schütze", "Hauptmann"]  # default: a tie acts at once
    osr.einrichten(gleichstand="neu", kampagne=camp)
    enc.next_round(dice=[4, 4, 1, 5])  # the tie 4:4 is rolled again: the Goblins (5) first
    assert enc.order[:2] == ["Goblin 1", "Goblin 2"]
    assert [e.data["text"] for e in camp.journal(kind="initiative")][-1].startswith("Initiative: Goblin 1")


def test_undo_restores_the_previous_settings(camp):
    osr.einrichten(ueberrascht_bis=3, kampagne=camp)
    osr.einrichten(ueberrascht_bis=5, kampagne=camp)
    assert _p_surprised(camp) == 5 / 6
    camp.undo()
    assert camp.data("osr")["ueberrascht_bis"] == 3 and _p_surprised(camp) == 3 / 6
    camp.undo()
    assert camp.data("osr") is None and _p_surprised(camp) == 2 / 6


def test_bad_settings_change_nothing(tmp_path, camp):
    osr.einrichten(gleichstand="neu", kampagne=camp)
    kept = camp.data("osr")
    for bad, message in (({"ueberrascht_bis": 9}, "0 bis 6"), ({"gleichstand": "später"}, "'neu'"),
                         ({"rk_aufsteigend": 1}, "True oder False"), ({"todesschwelle": True}, "Todesschwelle"),
                         ({"bewusstlos_schwelle": -1}, "über der Todesschwelle 0"),
                         ({"matrix": __file__}, "Die Angriffsmatrix .* ist unvollständig"),
                         ({"rettungswuerfe": tmp_path / "fehlt.yaml"}, "Die Rettungswurftabelle .*fehlt.yaml")):
        with pytest.raises(OsrError, match=message):
            osr.einrichten(**bad, kampagne=camp)
        assert camp.data("osr") == kept
    assert kept == {"ueberrascht_bis": 2, "gleichstand": "neu", "rk_aufsteigend": False, "todesschwelle": 0,
                    "bewusstlos_schwelle": None}


@pytest.mark.parametrize("kept, message", [
    ({"tabelle": {}}, "Die Daten 'osr' der Kampagne sind keine Einstellungen für OSR"),
    ([2], "Die Daten 'osr' der Kampagne sind keine Einstellungen für OSR"),
    ({"ueberrascht_bis": 7}, "0 bis 6"),
    ({"matrix": {"rk": [5, 6], "matrizen": {}}}, "Die Angriffsmatrix in den Daten 'osr' der Kampagne"),
])
def test_kept_data_that_is_not_osr_settings_is_named(camp, kept, message):
    camp.set_data("osr", kept)
    with pytest.raises(ResolveError, match=message):
        rpgkernel.resolve('überraschung Hauptmann, "Goblin 1"', campaign=camp, preview=True)


def test_settings_for_one_encounter_only(camp):
    osr.einrichten(ueberrascht_bis=1, kampagne=camp)
    osr.einrichten(ueberrascht_bis=4, kampagne=camp, begegnung="Höhle")
    assert _p_surprised(camp) == 4 / 6                         # the encounter's over the campaign's
    camp.new_encounter("Gasse")
    assert osr.EINSTELLUNGEN.kept_in(camp, "Gasse").ueberrascht_bis == 1
    assert osr.EINSTELLUNGEN.kept_in(camp, "Höhle").ueberrascht_bis == 4
    camp.encounters["Höhle"].activate()
    camp.set_data("osr", None, encounter="Höhle")
    assert _p_surprised(camp) == 1 / 6


def test_tp_stop_at_0_or_at_the_gms_lower_bound(camp):
    """The seed says nothing of TP below 0: they stop at 0 and the card says so; a GM who plays on to
    -10 keeps that bound (untergrenzen), and the damage then lands in full."""
    camp.encounters["Höhle"].start(dice=[4, 3])
    res = rpgkernel.resolve('angriff Hauptmann -> "Goblin 1"', campaign=camp, dice=[15, 8])
    assert res.outcome["schaden"] == 8 and camp.figure("Goblin 1").resources["TP"]["value"] == 0
    assert "TP von Goblin 1: 4 → 0 (mindestens 0: Vorgabe, einstellbar mit untergrenzen)." in repr(res)
    assert "Goblin 1 ist bei 0 TP oder darunter" in repr(res)
    camp.undo()
    limits.einrichten({"TP": -10}, kampagne=camp)
    res = rpgkernel.resolve('angriff Hauptmann -> "Goblin 1"', campaign=camp, dice=[15, 8])
    assert camp.figure("Goblin 1").resources["TP"]["value"] == -4 and "TP von" not in repr(res)
