"""Mythic Bastionland beyond the basics: feats, gambits, special attacks, recovery, morale, warfare (seed 003)."""

import pytest

import rpgkernel
from rpgkernel.dice import Roller
from rpgkernel.rules import bastionland as bl
from rpgkernel.rules.bastionland import Bastionland, BastionlandError
from rpgkernel.rules.figure import view


def figure(name, vig=12, cla=10, spi=10, gd=5, armour=0, weapons=(), conditions=(), side="", extra=None, **cur):
    sheet = Bastionland.sheet.validate({"vig": vig, "cla": cla, "spi": spi, "gd": gd, "ruestung": armour,
                                        "waffen": list(weapons), **(extra or {})})
    res = Bastionland().sheet.resources(sheet, {})
    for k, v in cur.items():
        res[k.upper()]["value"] = v
    return view({"name": name, "sheet": sheet, "resources": res, "conditions": {c: {} for c in conditions},
                 "side": side})


RITTER = dict(weapons=["Streitkolben (W8, wuchtig)", "Schild (W4)"])


def conds(res, who):
    return {e.condition for e in res.effects if e.figure == who and e.condition and e.on}


def test_reaction_and_surprise():
    wirt = figure("Wirt", spi=8)
    assert bl.core.reaction(wirt, Roller(dice=[9])).outcome["reaktion"] == "ungünstig"
    assert bl.core.reaction(wirt, Roller(dice=[8])).outcome["reaktion"] == "nicht ungünstig"
    res = bl.core.surprise([figure("A", cla=10), figure("B", cla=10)], Roller(dice=[11, 10]))
    assert res.outcome["setzt_aus"] == ["A"] and conds(res, "A") == {"setzt aus"}
    assert res.preview == {"CLA A": 0.5, "CLA B": 0.5}


def test_virtues_stay_within_0_and_19_and_loss_never_kills():
    f = figure("Ritter", vig=3, spi=18)
    res = bl.core.virtue_loss(f, "VIG", 5)
    assert [(e.resource, e.by) for e in res.effects if e.resource] == [("VIG", -3)]
    assert "tot" not in conds(res, "Ritter") and "Todeswunde" not in conds(res, "Ritter")
    assert conds(res, "Ritter") == {"entkräftet"} and res.outcome["tödlich"] is False
    assert [(e.resource, e.by) for e in bl.virtue_gain(f, "SPI", 4).effects] == [("SPI", 1)]
    assert bl.core.change_virtue(figure("X", spi=19), "SPI", 1) is None
    schar = figure("Miliz", extra={"art": "Kriegsschar"}, spi=2)
    assert "gebrochen" in conds(bl.core.virtue_loss(schar, "SPI", 2), "Miliz")


def test_spi_zero_impairs_cla_zero_exposes_vig_zero_blocks_attack_after_moving():
    ziel = figure("Wolf", gd=3)
    res = bl.attack.attack([figure("R", spi=0, **RITTER)], ziel, Roller(dice=[4]), bonus=["W8"])
    assert res.outcome["würfel"] == [4] and "Beeinträchtigte Angriffe erhalten keine Bonuswürfel." in \
        [s.text for s in res.steps]
    with pytest.raises(BastionlandError, match="VIG 0"):
        bl.attack.attack([figure("R", vig=0, **RITTER)], ziel, Roller(dice=[1, 1]), moved=["R"])
    assert bl.damage.exposed(figure("X", cla=0))


def test_unarmed_is_impaired_unless_natural_weapons():
    ziel = figure("Wolf", gd=10)
    assert bl.attack.attack([figure("Faust")], ziel, Roller(dice=[3])).outcome["würfel"] == [3]
    bear = figure("Bär", weapons=["Klauen (W8)"], extra={"natuerliche_waffen": True})
    assert bl.attack.attack([bear], ziel, Roller(dice=[8])).outcome["schaden"] == 8
    with pytest.raises(BastionlandError, match="keine Feats"):
        bl.attack.attack([figure("Faust")], ziel, Roller(dice=[3, 1]), smite={"by": "Faust", "art": "W12"})


def test_deny_chooses_a_die_then_spi_save():
    ziel = figure("Wolf", gd=10, spi=10)
    res = bl.attack.attack([figure("R", **RITTER)], ziel, Roller(dice=[8, 4, 3]), deny={"by": "Wolf", "würfel": 4})
    assert res.outcome["höchster"] == 8 and "Fatigued" not in conds(res, "Wolf")  # saved with 3
    with pytest.raises(BastionlandError, match="kein Würfel mit 5"):
        bl.attack.attack([figure("R", **RITTER)], ziel, Roller(dice=[8, 4, 3]), deny={"by": "Wolf", "würfel": 5})


def test_ally_denies_and_fatigued_blocks_feats():
    ziel, knappe = figure("Ritter", gd=10), figure("Knappe", spi=5)
    res = bl.attack.attack([figure("S", **RITTER)], ziel, Roller(dice=[7, 2, 6]), deny="Knappe",
                    figures={"Knappe": knappe})
    assert res.outcome["höchster"] == 2 and "Fatigued" in conds(res, "Knappe")
    with pytest.raises(BastionlandError, match="Fatigued"):
        bl.attack.attack([figure("S", **RITTER)], ziel, Roller(dice=[7, 2, 6]), deny="Knappe",
                  figures={"Knappe": figure("Knappe", conditions=["Fatigued"])})
    with pytest.raises(BastionlandError, match="nur einmal"):
        bl.attack.attack([figure("S", **RITTER)], ziel, Roller(dice=[7, 2, 1, 1]), deny=["Ritter", "Ritter"])


def test_gambits_vig_save_except_bolster_and_move():
    ziel = figure("Söldner", gd=10, vig=12)
    res = bl.attack.attack([figure("R", weapons=["A (W8)", "B (W6)", "C (W6)", "D (W6)"])], ziel,
                    Roller(dice=[7, 6, 5, 4, 13, 3]),
                    gambits=[(6, "Move"), (5, "Impair"), (4, "Trap")])
    got = [(g["gambit"], g["widerstanden"]) for g in res.outcome["gambits"]]
    assert got == [("Move", False), ("Impair", False), ("Trap", True)]
    assert conds(res, "Söldner") == {"beeinträchtigt"} and res.outcome["schaden"] == 7


def test_strong_gambit_needs_8_in_melee_and_bigger_effect_keeps_bolster():
    ziel = figure("Söldner", gd=20)
    res = bl.attack.attack([figure("R", weapons=["A (W10)", "B (W10)"])], ziel, Roller(dice=[9, 8]),
                    gambits=[{"würfel": 8, "gambit": "Impair", "stark": "keine_probe"}])
    assert res.outcome["gambits"][0]["widerstanden"] is False  # no save rolled: no die left over
    res = bl.attack.attack([figure("R", weapons=["A (W10)", "B (W10)"])], ziel, Roller(dice=[9, 8]),
                    gambits=[{"würfel": 8, "gambit": "Bolster", "stark": "größer"}])
    assert res.outcome["bolster"] == 1 and res.outcome["schaden"] == 10
    with pytest.raises(BastionlandError, match="8 oder mehr"):
        bl.attack.attack([figure("R", weapons=["A (W10)", "B (W10)"])], ziel, Roller(dice=[9, 7]),
                  gambits=[{"würfel": 7, "gambit": "Impair", "stark": "keine_probe"}])
    with pytest.raises(BastionlandError, match="8 oder mehr"):
        bl.attack.attack([figure("R", weapons=["Bogen (W10)", "B (W10)"])], ziel, Roller(dice=[9, 8]), ranged=True,
                  gambits=[{"würfel": 8, "gambit": "Impair", "stark": "keine_probe"}])


def test_focus_gambit_without_a_die_then_cla_save():
    ziel = figure("Wolf", gd=20)
    res = bl.attack.attack([figure("R", cla=10, **RITTER)], ziel, Roller(dice=[6, 2, 11]), focus=[("R", "Bolster")])
    assert res.outcome["schaden"] == 7 and "Fatigued" in conds(res, "R")


def test_smite_w12_or_blast_then_vig_save():
    ziel = figure("Wolf", gd=20)
    res = bl.attack.attack([figure("R", vig=12, **RITTER)], ziel, Roller(dice=[3, 2, 11, 13]),
                    smite={"by": "R", "art": "W12"})
    assert res.outcome["schaden"] == 11 and "Fatigued" in conds(res, "R")
    a, b = figure("A", gd=20), figure("B", gd=20)
    res = bl.attack.attack([figure("R", **RITTER)], [a, b], Roller(dice=[5, 1, 2, 1, 1]), smite={"by": "R", "art": "Blast"})
    assert res.outcome["ziele"]["A"]["schaden"] == 5 and res.outcome["ziele"]["B"]["schaden"] == 2
    with pytest.raises(BastionlandError, match="Nahkampf"):
        bl.attack.attack([figure("R", **RITTER)], ziel, Roller(dice=[1, 1]), ranged=True, smite={"by": "R"})
    with pytest.raises(BastionlandError, match="Blast"):
        bl.attack.attack([figure("R", **RITTER)], [a, b], Roller(dice=[1, 1]))


def test_dismount_adds_w6_to_the_damage_dice():
    ziel = figure("Reiter", gd=20, vig=12, extra={"reittier": "Pferd"})
    res = bl.attack.attack([figure("R", **RITTER)], ziel, Roller(dice=[2, 4, 15, 6]), gambits=[(4, "Dismount")])
    assert res.outcome["höchster"] == 6 and "abgeworfen" in conds(res, "Reiter")


def test_scar_rerolls_the_kept_die_and_needs_gm_table():
    ziel = figure("Wolf", gd=7)
    res = bl.attack.attack([figure("R", **RITTER)], ziel, Roller(dice=[7, 1, 5]))
    assert res.outcome["folge"] == "Narbe" and res.outcome["narbe"] == 5
    assert "keine Narbentabelle hinterlegt" in res.steps[-1].text
    res = bl.attack.attack([figure("R", **RITTER)], ziel, Roller(dice=[7, 1, 5]), scar_table={5: "Tiefer Schnitt"})
    assert res.outcome["narbe_text"] == "Tiefer Schnitt"
    res = bl.attack.attack([figure("R", **RITTER)], ziel, Roller(dice=[7, 1]), bloodless=True)
    assert res.outcome["folge"] == "entgangen"


def test_cover_shield_wall_spear_wall_ranged_and_charge():
    ziel = figure("Wolf", gd=20, armour=1)
    assert bl.attack.attack([figure("B", weapons=["Bogen (W6)"])], ziel, Roller(dice=[6]), ranged=True,
                     cover=True).outcome["schaden"] == 4
    assert bl.attack.attack([figure("B", weapons=["Bogen (W6)"])], ziel, Roller(dice=[6]), shield_wall=True
                     ).outcome["schaden"] == 4
    with pytest.raises(BastionlandError, match="Nahkampf gebunden"):
        bl.attack.attack([figure("B", weapons=["Bogen (W6)"])], ziel, Roller(dice=[6]), ranged=True,
                  started_in_melee=["B"])
    reiter = figure("R", extra={"reittier": "Schlachtross (W8 Trampelschaden)"}, **RITTER)
    assert bl.attack.attack([reiter], ziel, Roller(dice=[1, 1, 8]), charge=["R"]).outcome["höchster"] == 8
    with pytest.raises(BastionlandError, match="Speerwall"):
        bl.attack.attack([reiter], ziel, Roller(dice=[1, 1, 8]), charge=["R"], spear_wall=True)
    wall = [figure(n, weapons=["Speer (W8)", "Schild (W4)"]) for n in "ABC"]
    assert bl.formation(wall) == {"schildwall": True, "speerwall": True}
    assert bl.formation(wall[:2])["schildwall"] is False
    assert bl.formation([*wall[:2], figure("D", weapons=["Buckler (W4)"])])["schildwall"] is False


def test_duel_resolves_both_against_the_state_before():
    a, b = figure("A", gd=3, vig=12, **RITTER), figure("B", gd=3, vig=12, **RITTER)
    res = bl.duel(a, b, Roller(dice=[8, 1, 6, 2]))
    assert res.outcome["A"]["schaden"] == 8 and res.outcome["B"]["schaden"] == 6
    assert res.outcome["A"]["folge"] == "verwundet" and res.outcome["B"]["folge"] == "verwundet"


def test_morale():
    s1 = figure("S1", conditions=["verwundet"], spi=10)
    ritter = figure("Ritter", conditions=["verwundet"], side="Spieler")
    res = bl.core.morale([s1, ritter, figure("S2")], Roller(dice=[11]))
    assert res.outcome["flieht"] == ["S1"]
    group = [figure(f"M{i}", spi=7) for i in range(4)]
    res = bl.core.morale(group, Roller(dice=[12]), group=True, leader=figure("Hauptmann", spi=13), lost=2, size=4)
    assert res.outcome["flieht"] == [] and len([s for s in res.steps if s.rolls]) == 1
    res = bl.core.morale(group, Roller(dice=[8, 1, 1, 8]), group=True, organised=False, lost=2, size=4)
    assert res.outcome["flieht"] == ["M0", "M3"]
    assert bl.core.morale(group, Roller(dice=[]), group=True, lost=1, size=4).outcome["flieht"] == []


def test_recovery():
    f = figure("R", conditions=["Fatigued"], gd=5, vig=12, GD=1, VIG=4, SPI=3)
    res = bl.core.calm_moment([f])
    assert [(e.resource, e.by) for e in res.effects if e.resource] == [("GD", 4)]
    assert any(e.condition == "Fatigued" and not e.on for e in res.effects)
    assert [(e.resource, e.by) for e in bl.core.restore([f], "VIG", "Handlung").effects] == [("VIG", 8)]
    assert {e.resource for e in bl.core.restore([f], None, "jahreszeit").effects} == {"VIG", "SPI"}
    with pytest.raises(BastionlandError, match="Unbekannte Erholung"):
        bl.core.restore([f], "VIG", "Schlaf")


def test_warbands():
    templates = bl.warband_templates()
    assert list(templates) == ["Miliz", "Plänkler", "Söldner", "Reiter", "Ritter"]
    s = Bastionland.sheet.validate(templates["Söldner"])
    assert (s["vig"], s["cla"], s["spi"], s["gd"], s["ruestung"]) == (13, 10, 10, 4, 3)
    assert [bl.sheet.weapon(w) for w in s["waffen"]] == [bl.sheet.Weapon("Speer", "W8", ("wuchtig",)), bl.sheet.Weapon("Schild", "W4")]
    assert templates["Ritter"]["reittier"] == "Schlachtross (W8 Trampelschaden)"
    schar = figure("Söldner", extra={"art": "Kriegsschar"}, gd=4, vig=13, armour=3, weapons=s["waffen"])
    assert bl.attack.attack([figure("R", **RITTER)], schar, Roller(dice=[8, 4])).outcome["folge"] == "unversehrt"
    res = bl.attack.attack([figure("R", **RITTER)], schar, Roller(dice=[8, 4]), large_scale=True)
    assert res.outcome["folge"] == "verwundet"
    res = bl.attack.attack([figure("R", weapons=["X (W20)"])], schar, Roller(dice=[14]), blast=True)
    assert res.outcome["folge"] == "vertrieben"  # 11 - 4 = 7 off VIG 13: at least half
    res = bl.attack.attack([figure("R", weapons=["X (W20)"])], schar, Roller(dice=[20]), blast=True)
    assert res.outcome["folge"] == "vernichtet"  # 17 - 4 = 13 off VIG 13
    # a warband (with a leader from the front) on individuals: +W12 and Blast
    res = bl.attack.attack([schar, figure("Hauptmann", **RITTER)], [figure("A", gd=20), figure("B", gd=20)],
                    Roller(dice=[1, 1, 1, 1, 12, 2, 2, 2, 2, 3]))
    assert res.outcome["ziele"]["A"]["schaden"] == 12 and res.outcome["ziele"]["B"]["schaden"] == 3
    assert "führt von vorn" in conds(res, "Hauptmann")
    lead = figure("Hauptmann", gd=2)
    res = bl.attack.attack([figure("Z", weapons=["X (W12)"])], schar, Roller(dice=[10]), blast=True, front=[lead])
    assert res.outcome["folge"] == "verwundet" and res.outcome["vorderste_front"] == {"Hauptmann": "verwundet"}  # 7 after armour, 5 over GD 2


def test_wood_stone_and_ships():
    kogge = figure("Kogge", gd=6, extra={"art": "Schiff", "material": "Holz"})
    galeere = figure("Galeere", gd=10, extra={"art": "Schiff", "material": "Holz"})
    res = bl.damage.collide(kogge, galeere, Roller(dice=[6, 5]), much_larger="Galeere")
    assert res.outcome["Kogge"]["folge"] == "zerstört" and res.outcome["Galeere"] == {"schaden": 5,
                                                                                     "folge": "beschädigt"}
    assert bl.attack.attack([figure("R", **RITTER)], kogge, Roller(dice=[8, 1])).outcome["folge"] == "unversehrt"
    assert bl.attack.attack([figure("R", **RITTER)], kogge, Roller(dice=[8, 1]), cause="feuer").outcome["folge"] == \
        "zerstört"
    mauer = figure("Mauer", gd=30, extra={"art": "Bauwerk", "material": "Stein"}, cla=0)
    assert bl.attack.attack([figure("R", **RITTER)], mauer, Roller(dice=[8, 1]), cause="belagerung"
                     ).outcome["folge"] == "unversehrt"
    assert [(e.resource, e.by) for e in bl.damage.repair(figure("K", gd=6, GD=0)).effects] == [("GD", 6)]


def test_weapon_qualities_are_kept_without_mechanics():
    w = bl.sheet.weapon("Rohe Stangenwaffe (W8, lang)")
    assert w == bl.sheet.Weapon("Rohe Stangenwaffe", "W8", ("lang",))


def test_previews_damage_deny_gambit_and_saves():
    ziel = figure("Söldner", gd=20, vig=13, armour=2)
    res = bl.attack.attack([figure("R", **RITTER), figure("K", weapons=["Dolch (W6)"])], ziel,
                    Roller(dice=[1, 1, 1]), decided=False, deny="Söldner", focus=[("R", "Bolster")])
    p = res.preview
    assert p["schaden"].isclose(rpgkernel.dist("max(0, {W8,W4,W6}kh1-1)"))  # one Bolster from Focus
    import itertools
    brute = {}
    for a, b, c in itertools.product(range(1, 9), range(1, 5), range(1, 7)):
        v = max(0, sorted((a, b, c))[1] + 1 - 2)
        brute[v] = brute.get(v, 0) + 1 / 192
    assert all(abs(p["schaden_mit_deny"].pmf().get(k, 0) - q) < 1e-12 for k, q in brute.items())
    assert p["p_gambit"] == pytest.approx(1 - (3 / 8) * (3 / 4) * (3 / 6))
    assert p["p_strong"] == pytest.approx(1 / 8)
    assert p["SPI-Probe Söldner (Deny)"] == 0.5 and p["CLA-Probe R (Focus)"] == 0.5
    assert p["VIG-Probe Söldner (Gambit widerstehen)"] == pytest.approx(13 / 20)


def test_open_attack_is_closed_with_the_rolled_faces():
    ziel = figure("Wolf", gd=3, spi=10)
    opened = bl.attack.attack([figure("R", **RITTER)], ziel, Roller(dice=[7, 4]), decided=False)
    assert opened.open and opened.effects == []
    closed = bl.attack.attack([figure("R", **RITTER)], ziel, Roller(dice=[]), faces=opened.outcome["würfel"],
                       bolster=[4])
    assert closed.outcome["schaden"] == 8 and not closed.open
    with pytest.raises(BastionlandError, match="passen nicht"):
        bl.attack.attack([figure("R", **RITTER)], ziel, Roller(dice=[]), faces=[9, 4])


def test_verbs_take_a_request():
    from rpgkernel.rules.resolution import Request
    ritter, wolf = figure("R", **RITTER), figure("Wolf", gd=3)
    kept = Bastionland.settings
    res = Bastionland.verbs["angriff"].procedure(Request([ritter], [wolf], {}, Roller(dice=[7, 3]),
                                                         decisions={"bolster": []}, kept=kept))
    assert res.outcome["schaden"] == 7
    res = Bastionland.verbs["angriff"].procedure(Request([ritter], [wolf], {}, Roller(dice=[7, 3]), kept=kept))
    assert res.open
    assert Bastionland.verbs["probe"].procedure(Request([ritter], [], {"virtue": "SPI"}, Roller(dice=[3]))
                                                ).outcome["erfolg"]
