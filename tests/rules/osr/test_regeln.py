"""OSR combat (seed 001), rule by rule with given dice; every expected number is worked out by hand
from the seed and the example fighter matrix (level 1-2: 20 - AC for AC 0 to 10), or by icepool."""

import icepool
import pytest

import rpgkernel
from rpgkernel import Campaign
from rpgkernel.dice import Roller
from rpgkernel.rules import osr
from rpgkernel.rules.figure import view
from rpgkernel.rules.osr import OsrError
from rpgkernel.rules.osr.angriff import angriff_plaene

S = osr.settings.Einstellungen()


def fig(name, side="", conditions=(), **sheet):
    sheet.setdefault("rk", 10)
    sheet.setdefault("tp", 8)
    return view({"name": name, "side": side, "sheet": osr.Osr.sheet.validate(sheet),
            "resources": {"TP": {"value": sheet["tp"], "max": sheet["tp"]}}, "conditions": {c: {} for c in conditions}})


def hits(res):
    return [s.text for s in res.steps if "W20 =" in s.text]


K1 = dict(stufe=1, waffen=["Schwert (W8)"])


# -- Modifikatoren im Kampf ------------------------------------------------------------

@pytest.mark.parametrize("ziel, optionen, miss, hit", [
    # Tarnung 1/2: AC 6 -> 4, needs 16
    (dict(rk=6), {"tarnung": 50}, 15, 16),
    # Tarnung 9/10: AC 6 -> 2, needs 18
    (dict(rk=6), {"tarnung": 90}, 17, 18),
    # Deckung 25 %: AC 6 -> 4, needs 16
    (dict(rk=6), {"deckung": 25}, 15, 16),
    # Deckung 75 %: AC 8 -> 1, needs 19
    (dict(rk=8), {"deckung": 75}, 18, 19),
    # Flanke: AC 4 with a shield point -> 5, needs 15 (the Dex bonus stays)
    (dict(rk=4, schild=1, ges_rk=2), {"flanke": True}, 14, 15),
    # von hinten: AC 4 -> 7 (shield and Dex lost), needs 13, +2
    (dict(rk=4, schild=1, ges_rk=2), {"hinten": True}, 10, 11),
    # unsichtbar with a known position: -4; AC 10 needs 10
    (dict(rk=10, conditions=["unsichtbar"]), {"position_bekannt": True}, 13, 14),
    # liegend: AC 4 -> 7, needs 13, +4
    (dict(rk=4, schild=1, ges_rk=2, conditions=["liegend"]), {}, 8, 9),
    # betäubt: the same as liegend
    (dict(rk=4, schild=1, ges_rk=2, conditions=["betäubt"]), {}, 8, 9),
])
def test_each_modifier_with_given_dice(ziel, optionen, miss, hit):
    target = fig("Z", **ziel)
    att = fig("K", **K1)
    assert osr.angriff.angriff(att, [target], Roller(dice=[miss]), optionen, S).outcome["treffer"] == 0
    res = osr.angriff.angriff(att, [target], Roller(dice=[hit, 5]), optionen, S)
    assert res.outcome == {"ziel": "Z", "treffer": 1, "schaden": 5}


def test_sleeping_target_killed_by_the_gm_chance_else_attacked_normally():
    ork = fig("Ork", rk=6, conditions=["schläft"])
    killed = osr.angriff.angriff(fig("K", **K1), [ork], Roller(dice=[25]), {"toetung": 25}, S)
    assert killed.outcome == {"ziel": "Ork", "getötet": True}
    assert ("Ork", "tot") in [(e.figure, e.condition) for e in killed.effects]
    alive = osr.angriff.angriff(fig("K", **K1), [ork], Roller(dice=[26, 14, 3]), {"toetung": 25}, S)   # then needs 14
    assert alive.outcome == {"ziel": "Ork", "treffer": 1, "schaden": 3}


@pytest.mark.parametrize("dex, main, off", [(-3, -5, -7), (0, -2, -4), (1, -1, -3), (3, 0, -1), (5, 0, 0)])
def test_two_weapons_as_in_the_seed_dex_3_gives_minus_5_and_minus_7(dex, main, off):
    att = fig("K", stufe=1, fernkampfbonus=dex, waffen=["Kurzschwert (W6)", "Handaxt (W6)"])
    main_plan, off_plan = angriff_plaene(att, fig("Z", rk=10), {"zwei_waffen": True}, S)
    assert (main_plan.mod, off_plan.mod) == (main, off)
    # AC 10 needs 10: main 10 + main hits exactly when 10 + main >= 10
    res = osr.angriff.angriff(att, [fig("Z", rk=10, tp=30)], Roller(dice=[10 - main, 2, 9 - off]), {"zwei_waffen": True}, S)
    assert res.outcome == {"ziel": "Z", "treffer": 1, "schaden": 2}


# -- Aktionen im Kampf -----------------------------------------------------------------

def charge_pair(**defender):
    charger = fig("K", stufe=1, rk=5, tp=6, waffen=["Schwert (W8, Länge 3,5)"])
    spear = fig("S", stufe=1, rk=6, tp=8, waffen=["Speer (W6, Länge 8, Sturm)"], **defender)
    return charger, spear


def test_a_longer_set_spear_strikes_first_and_takes_the_charger_out():
    charger, spear = charge_pair(conditions=["gegen Sturm gestemmt"])
    # the charging K has no Dex bonus: AC 5 -> 6, the spear needs 14; W6 3 doubled = 6 = K's TP
    res = osr.angriff.angriff(charger, [spear], Roller(dice=[14, 3]), {"sturmangriff": True}, S)
    assert res.outcome == {"ziel": "S", "treffer": 0, "schaden": 0, "gefallen": True}
    assert ("K", "TP", -6) in [(e.figure, e.resource, e.by) for e in res.effects]
    assert ("S", "hat gehandelt") in [(e.figure, e.condition) for e in res.effects]
    assert len(hits(res)) == 1                      # the charger never rolls


def test_a_charger_that_survives_the_first_strike_strikes_with_plus_2():
    charger, spear = charge_pair(conditions=["gegen Sturm gestemmt"])
    # spear 14 hits for 2 x 2 = 4 (K: 6 -> 2); K needs 14 against AC 6: 12 + 2 hits, W8 5
    res = osr.angriff.angriff(charger, [spear], Roller(dice=[14, 2, 12, 5]), {"sturmangriff": True}, S)
    assert res.outcome == {"ziel": "S", "treffer": 1, "schaden": 5}
    assert [(e.figure, e.by) for e in res.effects if e.resource] == [("K", -4), ("S", -5)]
    first, second = hits(res)
    assert first.startswith("S → K") and second.startswith("K → S")
    miss = osr.angriff.angriff(charger, [spear], Roller(dice=[13, 12, 5]), {"sturmangriff": True}, S)
    assert miss.outcome["schaden"] == 5 and [(e.figure, e.by) for e in miss.effects if e.resource] == [("S", -5)]


def test_the_charge_preview_with_a_first_strike_is_exact():
    charger, spear = charge_pair(conditions=["gegen Sturm gestemmt"])
    pv = osr.angriff.vorschau(charger, [spear], {"sturmangriff": True}, S)
    p_spear = (icepool.d20 >= 14).probability(True)
    p_fall = p_spear * (icepool.d6 * 2 >= 6).probability(True)     # 6 TP
    p_hit = (icepool.d20 + 2 >= 14).probability(True)
    assert pv["P(K fällt durch den Erstschlag von S auf 0 TP oder darunter)"] == pytest.approx(float(p_fall),
                                                                                               abs=1e-12)
    assert pv["P(K übersteht den Erstschlag und trifft S, Schwert)"] == pytest.approx(
        float((1 - p_fall) * p_hit), abs=1e-12)
    assert pv["erwartet:S"].mean == pytest.approx(float((1 - p_fall) * p_hit) * 4.5, abs=1e-12)
    assert pv["schaden (Erstschlag):K"].mean == pytest.approx(7, abs=1e-12)    # 2 x W6


@pytest.mark.parametrize("defender, why", [
    (dict(conditions=["hat gehandelt"]), "schon gehandelt"),
    (dict(conditions=["festgehalten"]), "festgehalten"),
    (dict(conditions=["pariert"]), "pariert"),
])
def test_no_first_strike_when_the_defender_acted_or_may_not_attack(defender, why):
    charger, spear = charge_pair(**defender)
    res = osr.angriff.angriff(charger, [spear], Roller(dice=[12, 5]), {"sturmangriff": True}, S)
    assert res.outcome == {"ziel": "S", "treffer": 1, "schaden": 5}
    assert any(why in s.text for s in res.steps) and len(hits(res)) == 1


def test_no_first_strike_against_an_equal_or_longer_weapon_or_with_a_bow():
    lance = fig("R", stufe=1, tp=6, waffen=["Lanze (W8, Lanze, Länge 10)"])
    _, spear = charge_pair()
    assert osr.angriff.erstschlag(lance, spear, {"sturmangriff": True}, S) == (None, "")
    bow = fig("B", stufe=1, waffen=["Langbogen (W6, Fernkampf)"])
    assert osr.angriff.erstschlag(fig("K", **K1), bow, {"sturmangriff": True}, S) == (None, "")
    assert osr.angriff.erstschlag(lance, spear, {}, S) == (None, "")


def test_a_first_strike_against_an_overbearing_charge():
    _, spear = charge_pair()
    wrestler = fig("K", stufe=1, rk=5, tp=6)
    # the spear (not set: W6) misses with 13; then the overbearing: 12 + 2 >= 14, W2 - 1 = 1
    res = osr.angriff.angriff(wrestler, [spear], Roller(dice=[13, 12, 2]), {"sturmangriff": True, "ringen": True}, S)
    assert res.outcome == {"ziel": "S", "treffer": 1, "schaden": 1}
    assert {"festgehalten", "liegend"} <= {e.condition for e in res.effects if e.figure == "S"}


def test_cautious_advance_fighting_withdrawal_parry_and_delay():
    adv = osr.aktionen.vorruecken(fig("K"), [fig("G1"), fig("G2")])
    assert "greifen erst in der nächsten Runde an" in adv.steps[0].text
    held_back = fig("G1", conditions=["kein Angriff"], **K1)
    with pytest.raises(OsrError, match="kein Angriff"):
        osr.angriff.angriff(held_back, [fig("K")], Roller(dice=[20, 1]), {}, S)
    # withdrawing while parrying: the attacker's roll drops by the parrier's +2; AC 5 needs 15
    back = osr.aktionen.rueckzug(fig("P", angriffsbonus=2), None, pariert=True)
    parrier = fig("P", rk=5, angriffsbonus=2, conditions=[e.condition for e in back.effects])
    assert osr.angriff.angriff(fig("A", **K1), [parrier], Roller(dice=[16]), {}, S).outcome["treffer"] == 0
    assert osr.angriff.angriff(fig("A", **K1), [parrier], Roller(dice=[17, 1]), {}, S).outcome["treffer"] == 1
    with pytest.raises(OsrError, match="nicht angreifen"):
        osr.angriff.angriff(parrier, [fig("A")], Roller(dice=[20, 1]), {}, S)
    assert [e.condition for e in osr.aktionen.abwarten(fig("M")).effects] == ["wartet ab"]


def test_unarmed_fighting_does_1w2():
    fist = osr.angriff.angriff(fig("K", stufe=1), [fig("Z", rk=10)], Roller(dice=[10, 2]), {}, S)
    assert fist.outcome["schaden"] == 2
    pommel = osr.angriff.angriff(fig("K", **K1), [fig("Z", rk=10)], Roller(dice=[10, 1]), {"waffe": "waffenlos"}, S)
    assert pommel.outcome["schaden"] == 1
    pv = osr.angriff.vorschau(fig("K", **K1), [fig("Z", rk=10)], {"waffe": "Waffenlos"}, S)
    assert pv["schaden:Z"].pmf() == {1: 0.5, 2: 0.5}


def test_wrestling_holds_for_1w2_minus_1():
    res = osr.angriff.angriff(fig("K", **K1), [fig("Z", rk=6)], Roller(dice=[14, 1]), {"ringen": True}, S)
    assert res.outcome == {"ziel": "Z", "treffer": 1, "schaden": 0}
    assert [(e.figure, e.condition) for e in res.effects if e.figure == "Z"] == [("Z", "festgehalten")]
    assert osr.aktionen.losreissen(fig("Z"), 40, Roller(dice=[41])).outcome == {"frei": False}


def test_a_routine_of_attacks_goes_against_one_random_target():
    bear = fig("Bär", tw="3+1", waffen=["Klaue (W3)", "Klaue (W3)", "Biss (W6)"])   # level 5: AC 6 needs 10
    k1, k2 = fig("K1", rk=6, tp=20), fig("K2", rk=6, tp=20)
    res = osr.angriff.angriff(bear, [k1, k2], Roller(dice=[2, 10, 3, 9, 15, 6]), {"routine": True}, S)
    assert res.outcome == {"ziel": "K2", "treffer": 2, "schaden": 9}
    assert [e.by for e in res.effects if e.resource] == [-9]
    with pytest.raises(OsrError, match="mindestens zwei"):
        osr.angriff.angriff(fig("K", **K1), [k1], Roller(dice=[10]), {"routine": True}, S)
    with pytest.raises(OsrError, match="nicht zusammen"):
        osr.angriff.angriff(bear, [k1], Roller(dice=[10]), {"routine": True, "waffe": "Biss"}, S)


def test_missile_fire_into_melee_can_hit_a_friend():
    archer = fig("Schütze", "Gruppe", stufe=1, fernkampfbonus=2, waffen=["Kurzbogen (W6, Fernkampf)"])
    friend, gob = fig("Hauptmann", "Gruppe", rk=4, tp=20), fig("Goblin", "Goblins", rk=6)
    # W2 = 1: the friend; level 1 against AC 4 needs 16: 14 + 2 hits; W6 4
    res = osr.angriff.angriff(archer, [friend, gob], Roller(dice=[1, 14, 4]), {}, S)
    assert res.outcome == {"ziel": "Hauptmann", "treffer": 1, "schaden": 4}
    assert "Fernkampf in einen Nahkampf" in res.steps[0].text


def test_negotiation_is_declared_and_recorded_without_a_roll(tmp_path):
    res = osr.aktionen.verhandeln([fig("Hauptmann"), fig("Magier")], [fig("Ork")])
    assert [(e.figure, e.condition, e.rounds) for e in res.effects] == [("Hauptmann", "verhandelt", 1),
                                                                       ("Magier", "verhandelt", 1)]
    assert res.steps[0].rule == "Verhandlung und Diplomatie" and not res.steps[0].rolls
    assert "verhandeln mit Ork" in res.steps[0].text and res.preview is None
    with Campaign.open(tmp_path / "k.sqlite") as camp:
        camp.set_ruleset("osr")
        enc = camp.new_encounter("Brücke")
        enc.add("Hauptmann", side="Gruppe", sheet={"stufe": 1, "rk": 5, "tp": 8})
        enc.add("Ork", side="Orks", sheet={"tw": "1", "rk": 6, "tp": 6})
        enc.activate()
        line = rpgkernel.resolve("parley Hauptmann -> Ork", campaign=camp)
        assert "verhandelt mit Ork" in line.steps[0].text
        assert "verhandelt" in camp.figure("Hauptmann").conditions
        with pytest.raises(Exception, match="Zu viele Würfelergebnisse"):
            rpgkernel.resolve("verhandeln Hauptmann -> Ork", campaign=camp, dice=[3])


# -- Kampf: surprise, initiative, segments, spells ----------------------------------------

def test_surprise_on_1_to_2_by_default():
    res = osr.initiative.ueberraschung([fig("A", "Gruppe"), fig("B", "Orks")], Roller(dice=[3, 2]), S)
    assert res.outcome == {"überrascht": ["Orks"]}
    assert list(res.preview.values()) == [2 / 6, 2 / 6]


def party(bonus=2):
    return [fig("Schütze", "Gruppe", fernkampfbonus=bonus, waffen=["Kurzbogen (W6, Fernkampf)"]),
            fig("Ritter", "Gruppe"), fig("Goblin", "Goblins")]


def test_a_missile_bonus_that_only_ties_does_not_act_before_the_other_side():
    res = osr.initiative.seiteninitiative(party(), Roller(dice=[1, 3]), S)      # 1 + 2 = 3 against 3
    assert res.outcome["reihenfolge"] == ["Goblin", "Schütze", "Ritter"]
    assert res.outcome["segmente"] == {"Gruppe": 3, "Goblins": 1}
    res = osr.initiative.seiteninitiative(party(-1), Roller(dice=[4, 3]), S)    # 4 - 1 = 3 against 3
    assert res.outcome["reihenfolge"] == ["Ritter", "Goblin", "Schütze"]


@pytest.mark.parametrize("bonus, count", [(2, 26), (1, 21), (-1, 10)])   # pairs (a, b) with a + bonus > b
def test_preview_and_order_follow_the_same_rule_over_every_pair_of_dice(bonus, count):
    orders = [osr.initiative.seiteninitiative(party(bonus), Roller(dice=[a, b]), S).outcome["reihenfolge"]
              for a in range(1, 7) for b in range(1, 7)]
    assert sum(o.index("Schütze") < o.index("Goblin") for o in orders) == count
    pv = osr.initiative.initiative_vorschau(osr.initiative.seiten(party(bonus)), S)
    assert pv["P(Schütze handelt mit Fernkampfbonus vor der anderen Seite)"] == pytest.approx(count / 36, abs=1e-12)


def test_with_rerolled_ties_the_preview_counts_the_final_dice():
    neu = osr.settings.Einstellungen(gleichstand="neu")
    # two sides roll again until they differ: 30 equally likely pairs, a + 2 > b in 20 of them
    pv = osr.initiative.initiative_vorschau(osr.initiative.seiten(party()), neu)
    assert pv["P(Schütze handelt mit Fernkampfbonus vor der anderen Seite)"] == pytest.approx(20 / 30, abs=1e-12)
    assert pv["P(Initiative für Gruppe)"] == 0.5
    order = osr.initiative.seiteninitiative(party(), Roller(dice=[2, 2, 1, 3]), neu).outcome["reihenfolge"]
    assert order == ["Goblin", "Schütze", "Ritter"]                # 2:2 again, then 1 + 2 = 3 ties 3


def test_the_encounter_order_uses_the_same_rule(tmp_path):
    with Campaign.open(tmp_path / "k.sqlite") as camp:
        camp.set_ruleset("osr")
        enc = camp.new_encounter("Wald")
        enc.add("Schütze", side="Gruppe", sheet={"stufe": 1, "rk": 7, "tp": 6, "fernkampfbonus": 2,
                                                 "waffen": ["Kurzbogen (W6, Fernkampf)"]})
        enc.add("Ritter", side="Gruppe", sheet={"stufe": 1, "rk": 3, "tp": 9})
        enc.add("Goblin", side="Goblins", sheet={"tw": "1-1", "rk": 6, "tp": 4})
        enc.activate()
        assert enc.start(dice=[1, 3]) == ["Goblin", "Schütze", "Ritter"]
        enc.set_segment(3)
        assert enc.next_round(dice=[2, 3]) == 2 and enc.order == ["Schütze", "Goblin", "Ritter"]


@pytest.mark.parametrize("segment, zeit, text, runden", [
    (3, 1, "Zauberzeit 1 Segment: wirkt in dieser Runde in Segment 4", 1),
    (3, 0, "Zauberzeit 0 Segmente: wirkt in dieser Runde in Segment 3", 1),
    (8, 3, "Zauberzeit 3 Segmente: wirkt in der nächsten Runde in Segment 1", 2),
    (5, 22, "Zauberzeit 22 Segmente: wirkt in 2 Runden in Segment 7", 3),
])
def test_spells_start_in_the_segment_and_take_effect_after_the_casting_time(segment, zeit, text, runden):
    res = osr.aktionen.zaubern(fig("M"), "Schlaf", zeit, segment)
    assert text in res.steps[0].text and res.outcome == {"zauber": "Schlaf", "runden": runden}
    assert [(e.condition, e.rounds) for e in res.effects] == [("zaubert", runden)]
    with pytest.raises(OsrError, match="Segment 1 bis 10"):
        osr.aktionen.zaubern(fig("M"), "Schlaf", 1, 11)


def test_a_caster_has_no_dex_bonus_and_loses_the_spell_when_hurt():
    mage = fig("M", rk=8, ges_rk=2, tp=4, conditions=["zaubert"])     # AC 8 -> 10 while casting: needs 10
    assert osr.angriff.angriff(fig("O", **K1), [mage], Roller(dice=[9]), {}, S).outcome["treffer"] == 0
    res = osr.angriff.angriff(fig("O", **K1), [mage], Roller(dice=[10, 1]), {}, S)
    assert ("M", "zaubert", False) in [(e.figure, e.condition, e.on) for e in res.effects]


# -- Monsters: hit dice, the GM's adjustments, tables --------------------------------------

def test_several_classes_take_the_most_favourable_table(tmp_path):
    matrix = tmp_path / "m.yaml"
    matrix.write_text("rk: [10, 5, 0]\nmatrizen:\n  Kämpfer:\n    - stufen: [0, 20]\n      wurf: [10, 15, 20]\n"
                      "  Magier:\n    - stufen: [0, 20]\n      wurf: [11, 14, 21]\n", encoding="utf-8")
    s = osr.settings.Einstellungen(matrix=osr.settings.matrix_laden(matrix))
    drache = fig("Drache", tw="11", klasse="Kämpfer/Magier")
    assert osr.core.mindestwurf(drache, 10, s)[0] == 10 and "Kämpfer" in osr.core.mindestwurf(drache, 10, s)[1]
    assert osr.core.mindestwurf(drache, 5, s)[0] == 14 and "Magier" in osr.core.mindestwurf(drache, 5, s)[1]
    with pytest.raises(OsrError, match="Keine Angriffsmatrix 'Dieb'"):
        osr.core.mindestwurf(fig("X", tw="1", klasse="Kämpfer/Dieb"), 5, s)
    saves = tmp_path / "r.yaml"
    saves.write_text("kategorien: [Gift, Odem]\ntabellen:\n  Kämpfer:\n    - stufen: [0, 40]\n      wurf: [10, 15]\n"
                     "  Magier:\n    - stufen: [0, 40]\n      wurf: [12, 13]\n", encoding="utf-8")
    r = osr.settings.Einstellungen(rettung=osr.settings.rettung_laden(saves))
    drache = fig("Drache", tw="11", rettungsklasse="Kämpfer/Magier")
    assert osr.rettung.rettungsziel(drache, "Gift", r)[0] == 10 and osr.rettung.rettungsziel(drache, "Odem", r)[0] == 13


def test_the_gm_adjustments_reach_the_roll_needed():
    # blood midges: 1+1 HD (level 3) attack as level 5: AC 5 needs 11 instead of 13
    assert osr.core.mindestwurf(fig("Blutmücke", tw="1+1", angriffsstufe=5), 5, S)[0] == 11
    assert osr.core.mindestwurf(fig("Blutmücke", tw="1+1"), 5, S)[0] == 13
    # spears from higher ground: 1 HD (level 2) + 1 = level 3: AC 5 needs 13, not 15
    res = osr.angriff.angriff(fig("Ork", tw="1", stufe_mod=1, waffen=["Speer (W6)"]), [fig("Z", rk=5)],
                      Roller(dice=[13, 2]), {}, S)
    assert res.outcome["treffer"] == 1
    # a herbivorous dinosaur attacking lower: 12 HD (11+1: level 13) - 2 = level 11: AC 0 needs 10
    assert osr.core.mindestwurf(fig("Dino", tw="12", stufe_mod=-2), 0, S)[0] == 10
    assert osr.zauberstufe(fig("Drache", tw="11")) == 12
