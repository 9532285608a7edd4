"""Kampfwerte manoeuvres: costs per level, conditions, weapons, reaction chains
(Finte -> Riposte -> Konterparade), effects, exact previews checked against icepool."""

import icepool
import pytest

import rpgkernel
from rpgkernel import Campaign
from rpgkernel.errors import RpgError
from rpgkernel.rules.figure import view
from rpgkernel.rules.kampfwerte import HexKarte, einrichten, karte_setzen
from rpgkernel.rules.kampfwerte.manoever import (kosten, multiplikator, reaktion_erlaubt, schaden_dist_wuerfel,
                                                 vorschau)

BASE = {"AUFMERKSAMKEIT": 3, "GEWANDTHEIT": 3, "INSTINKT": 3, "HEIMLICHKEIT": 3, "LP": 30}
KAEL = {**BASE, "AD": 20, "angriff": 5, "angriffsstufe": 3, "spielercharakter": True,
        "waffen": ["Dolch (Stichwaffe)"],
        "manoever": ["Finte 3", "Schattensprung 4", "Schadenserhöhung 5", "Wuchtschlag 5", "Schattenhieb 3",
                     "Rundumschlag 3", "Entwaffnen 3", "Konterparade 3", "Gezielte Attacke 2", "Starker Tritt 2",
                     "Mantel-Parade 2"]}
ORK = {**BASE, "AD": 10, "angriff": 4, "NK": 1, "ruestung": 2, "parade": 3, "angriffsstufe": 2,
       "manoever": ["Riposte 3", "Schattenhieb 1", "Entwaffnen 2"]}


def test_costs_per_level_from_the_tables():
    assert [kosten("Schadenserhöhung", s) for s in range(1, 6)] == [2, 2, 4, 4, 5]
    assert kosten("Finte", 3) == 3 and kosten("Schattensprung", 4) == 4
    assert kosten("Rundumschlag", 3, ziele=2) == 2  # default: the "1 AD pro Gegner" form


def test_reaction_chain_levels():
    assert reaktion_erlaubt("Finte", 2, "Riposte", 2) and reaktion_erlaubt("Finte", 2, "Riposte", 3)
    assert not reaktion_erlaubt("Finte", 3, "Riposte", 2)
    assert reaktion_erlaubt("Riposte", 2, "Konterparade", 2) and not reaktion_erlaubt("Riposte", 3, "Konterparade", 1)
    assert not reaktion_erlaubt("Wuchtschlag", 1, "Riposte", 5)  # only Finte allows a Riposte


def test_schattensprung_multiplier_and_preview_against_icepool():
    assert [multiplikator("Schattensprung", e) for e in (2, 3, 4, 5, 8)] == [1, 2, 2, 3, 3]
    die = icepool.d10.map(lambda f: 2 if f == 10 else (-1 if f == 1 else int(f >= 7)))
    pool = (5 @ die).map(lambda x: max(0, x))
    total = pool.denominator()
    p = lambda lo, hi: sum(pool.quantity(x) for x in pool.outcomes() if lo <= x <= hi) / total  # noqa: E731
    pv = vorschau(view({"name": "Kael", "sheet": KAEL, "conditions": {}}), [view({"name": "Ork", "sheet": ORK})],
                  "Schattensprung", 4)
    assert pv["p_x2"] == pytest.approx(p(3, 4), abs=1e-12)
    assert pv["p_x3"] == pytest.approx(p(5, 99), abs=1e-12)
    assert pv["p_treffer"] == pytest.approx(p(2, 99), abs=1e-12)


@pytest.fixture
def camp(tmp_path):
    c = Campaign.open(tmp_path / "m.sqlite")
    c.set_ruleset("kampfwerte")
    enc = c.new_encounter("Gefecht")
    karte_setzen(enc, HexKarte(10, 10))
    enc.add("Kael", sheet=KAEL, side="Spieler")
    enc.add("Ork", sheet=ORK)
    enc.add("Goblin", sheet={**ORK, "NK": 3})
    rpgkernel.resolve("platziere Kael auf=(2,2)\nplatziere Ork auf=(3,2)\nplatziere Goblin auf=(2,3)", campaign=c)
    yield c
    c.close()


def lp(camp, name):
    return camp.figure(name).resources["LP"]["value"]


def ad(camp, name):
    return camp.figure(name).resources["AD"]["value"]


def test_finte_riposte_konterparade_chain(camp):
    # Finte 2 against the Ork (NK 1 < 2): faces 8,8,2,2,2 -> 2 successes, success
    rpgkernel.resolve("manöver Kael -> Ork manöver=Finte stufe=2", campaign=camp, dice=[8, 8, 2, 2, 2])
    assert ad(camp, "Kael") == 18 and "Finte +2" in camp.figure("Kael").conditions
    # a Riposte below the Finte's level is refused, nothing written
    with pytest.raises(RpgError, match="gleiche oder höhere"):
        rpgkernel.resolve("manöver Ork -> Kael manöver=Riposte stufe=1 gegen=Finte:2", campaign=camp)
    assert ad(camp, "Ork") == 10
    # Riposte 2 negates the Finte: faces 9,9,2,2 -> 2 successes
    rpgkernel.resolve("manöver Ork -> Kael manöver=Riposte stufe=2 gegen=Finte:2", campaign=camp, dice=[9, 9, 2, 2])
    assert "Finte +2" not in camp.figure("Kael").conditions and ad(camp, "Ork") == 8
    # Konterparade answers the Riposte at the same level
    res = rpgkernel.resolve("manöver Kael -> Ork manöver=Konterparade stufe=2 gegen=Riposte:2", campaign=camp,
                            dice=[10, 2, 2, 2, 2])
    assert res.outcome["treffer"] and ad(camp, "Kael") == 16


def test_a_reaction_does_not_use_up_a_pending_finte(camp):
    """The Finte serves the next attack: a Konterparade in between rolls its own dice."""
    rpgkernel.resolve("manöver Kael -> Ork manöver=Finte stufe=2", campaign=camp, dice=[8, 8, 2, 2, 2])
    res = rpgkernel.resolve("manöver Kael -> Ork manöver=Konterparade stufe=2 gegen=Riposte:2", campaign=camp,
                            dice=[10, 2, 2, 2, 2])
    assert res.outcome["erfolge"] != 6 and "Finte +2" in camp.figure("Kael").conditions


def test_finte_gives_next_attack_six_successes_and_damage_bonus(camp):
    rpgkernel.resolve("manöver Kael -> Ork manöver=Finte stufe=3", campaign=camp, dice=[8, 8, 2, 2, 2])
    # Schattensprung 4 with 6 successes (no roll): ×3; W6 shows 4: (4 + 3) × 3 = 21, armour 2 -> 19
    res = rpgkernel.resolve("manöver Kael -> Ork manöver=Schattensprung stufe=4 schaden=W6 nach=(2,1)",
                            campaign=camp, dice=[4])
    assert res.outcome["erfolge"] == 6 and lp(camp, "Ork") == 30 - 19
    assert "Finte +3" not in camp.figure("Kael").conditions
    assert "Feld 2,1" in camp.figure("Kael").conditions


def test_conditions_and_requirements_are_checked(camp):
    with pytest.raises(RpgError, match="NK"):      # Goblin NK 3, Finte 2
        rpgkernel.resolve("manöver Kael -> Goblin manöver=Finte stufe=2", campaign=camp)
    with pytest.raises(RpgError, match="beherrscht"):
        rpgkernel.resolve("manöver Kael -> Ork manöver=Finte stufe=4", campaign=camp)
    with pytest.raises(RpgError, match="Dolch"):
        rpgkernel.resolve("manöver Ork -> Kael manöver=Schattenhieb stufe=1", campaign=camp)
    with pytest.raises(RpgError, match="Manöver"):
        rpgkernel.resolve("manöver Kael -> Ork manöver=Flickflack", campaign=camp)
    with pytest.raises(RpgError, match="Entwaffnen"):  # Kael's Angriffsstufe 3 is above the Ork's 2
        rpgkernel.resolve("manöver Ork -> Kael manöver=Entwaffnen stufe=1", campaign=camp)
    assert ad(camp, "Kael") == 20


def test_damage_increase_and_split_and_armour(camp):
    # Schadenserhöhung 3: +2W6; weapon W6: 3, bonus 5, 6 -> 14, armour 2 -> 12; AD 4
    rpgkernel.resolve("manöver Kael -> Ork manöver=Schadenserhöhung stufe=3 schaden=W6", campaign=camp,
                      dice=[8, 8, 2, 2, 2, 3, 5, 6])
    assert lp(camp, "Ork") == 18 and ad(camp, "Kael") == 16
    # Rundumschlag 2 on two adjacent targets: W6+5 = 11 -> 5 each, minus armour 2 -> 3 each; AD 2 (per target)
    rpgkernel.resolve("manöver Kael -> Ork, Goblin manöver=Rundumschlag stufe=2 schaden=W6+5", campaign=camp,
                      dice=[8, 8, 2, 2, 2, 6])
    assert lp(camp, "Ork") == 15 and lp(camp, "Goblin") == 27 and ad(camp, "Kael") == 14


def test_schattenhieb_ignores_armour_at_three_successes(camp):
    rpgkernel.resolve("manöver Kael -> Ork manöver=Schattenhieb stufe=2 schaden=W6", campaign=camp,
                      dice=[8, 8, 8, 2, 2, 4])
    assert lp(camp, "Ork") == 30 - 4  # armour 2 - Stufe 2 = 0


def test_wuchtschlag_knocks_down_when_the_parade_fails(camp):
    # hit (2 successes), no damage given; the Ork parries 3W10 against 0 (only a ten): 9,9,9 fails
    res = rpgkernel.resolve("manöver Kael -> Ork manöver=Wuchtschlag stufe=5", campaign=camp,
                            dice=[8, 8, 2, 2, 2, 9, 9, 9])
    assert "niedergeworfen" in camp.figure("Ork").conditions
    parade = (3 @ icepool.d10.map(lambda f: 2 if f == 10 else (-1 if f == 1 else 0)))
    p_fail = sum(parade.quantity(x) for x in parade.outcomes() if x < 2) / parade.denominator()
    assert res.preview["p_niedergeworfen"] == pytest.approx(res.preview["p_treffer"] * p_fail, abs=1e-12)


def test_starker_tritt_pushes_back(camp):
    rpgkernel.resolve('manöver Kael -> Ork manöver="Starker Tritt" stufe=2', campaign=camp, dice=[8, 8, 2, 2, 2])
    assert "Feld 5,2" in camp.figure("Ork").conditions


def test_not_enough_ad(camp):
    rpgkernel.resolve("manöver Kael manöver=Mantel-Parade stufe=2", campaign=camp)
    camp.change("Kael", "AD", -17)
    with pytest.raises(RpgError, match="zu wenig AD"):
        rpgkernel.resolve("manöver Kael -> Ork manöver=Finte stufe=2", campaign=camp)


def test_riposte_is_checked_against_the_real_pending_finte(camp):
    # no Finte pending on Kael: nothing to answer
    with pytest.raises(RpgError, match="keine anhängige Finte"):
        rpgkernel.resolve("manöver Ork -> Kael manöver=Riposte stufe=2 gegen=Finte:2", campaign=camp)
    rpgkernel.resolve("manöver Kael -> Ork manöver=Finte stufe=3", campaign=camp, dice=[8, 8, 2, 2, 2])
    # the Ork claims a Finte 1; the real one is Finte +3: refused, naming 3, nothing written
    with pytest.raises(RpgError, match="Stufe 3"):
        rpgkernel.resolve("manöver Ork -> Kael manöver=Riposte stufe=1 gegen=Finte:1", campaign=camp)
    assert ad(camp, "Ork") == 10 and "Finte +3" in camp.figure("Kael").conditions
    assert not any(c.startswith("Riposte") for c in camp.figure("Ork").conditions)
    rpgkernel.resolve("manöver Ork -> Kael manöver=Riposte stufe=3 gegen=Finte:3", campaign=camp, dice=[9, 9, 2, 2])
    assert "Finte +3" not in camp.figure("Kael").conditions and "Riposte 3" in camp.figure("Ork").conditions


def test_konterparade_is_checked_against_the_recorded_riposte(camp):
    rpgkernel.resolve("manöver Kael -> Ork manöver=Finte stufe=2", campaign=camp, dice=[8, 8, 2, 2, 2])
    rpgkernel.resolve("manöver Ork -> Kael manöver=Riposte stufe=3 gegen=Finte:2", campaign=camp, dice=[9, 9, 2, 2])
    assert "Riposte 3" in camp.figure("Ork").conditions
    # Kael says Riposte 2 (his Konterparade 2 would suffice for that); the recorded Riposte has level 3
    with pytest.raises(RpgError, match="Stufe 3"):
        rpgkernel.resolve("manöver Kael -> Ork manöver=Konterparade stufe=2 gegen=Riposte:2", campaign=camp)
    assert ad(camp, "Kael") == 18
    with pytest.raises(RpgError, match="gleiche oder höhere"):  # Konterparade 2 < Riposte 3
        rpgkernel.resolve("manöver Kael -> Ork manöver=Konterparade stufe=2 gegen=Riposte:3", campaign=camp)
    rpgkernel.resolve("manöver Kael -> Ork manöver=Konterparade stufe=3 gegen=Riposte:3", campaign=camp,
                      dice=[10, 2, 2, 2, 2])
    assert "Riposte 3" not in camp.figure("Ork").conditions and ad(camp, "Kael") == 15


def test_recorded_riposte_lapses_at_the_round_end(camp):
    camp.encounter.start(order=["Kael", "Ork", "Goblin"])
    rpgkernel.resolve("manöver Kael -> Ork manöver=Finte stufe=2", campaign=camp, dice=[8, 8, 2, 2, 2])
    rpgkernel.resolve("manöver Ork -> Kael manöver=Riposte stufe=2 gegen=Finte:2 schaden=W6", campaign=camp,
                      dice=[9, 9, 2, 2, 4])
    assert "Riposte 2" in camp.figure("Ork").conditions
    assert {"Finte +2 negiert", "Riposte-Schaden 4"} <= set(camp.figure("Kael").conditions)
    camp.encounter.next_round()
    # unanswered: the Riposte stands for good (the Finte stays negated, the damage stays)
    assert "Riposte 2" not in camp.figure("Ork").conditions
    assert not any(c.startswith(("Finte", "Riposte")) for c in camp.figure("Kael").conditions)
    assert lp(camp, "Kael") == 26


def test_mantel_parade_raises_the_next_new_initiative(camp):
    enc = camp.encounter
    # INI: Kael 9, Ork 9, Goblin 9; W10: 2, 5, 3 -> Ork 14, Goblin 12, Kael 11
    assert enc.start(dice=[2, 5, 3]) == ["Ork", "Goblin", "Kael"]
    rpgkernel.resolve("manöver Kael manöver=Mantel-Parade stufe=2", campaign=camp)
    rpgkernel.resolve("manöver Kael manöver=Mantel-Parade stufe=1", campaign=camp)
    assert "Initiative +3" in camp.figure("Kael").conditions and ad(camp, "Kael") == 17
    enc.next_round()                       # the order holds for the fight
    assert enc.order == ["Ork", "Goblin", "Kael"]
    # a new initiative: the same W10s, Kael now 9 + 3 + 3 = 15 goes first
    enc.next_round(new_initiative=True, dice=[3, 5, 3])
    assert enc.order == ["Kael", "Ork", "Goblin"]
    # given totals are taken as they are
    enc.next_round(new_initiative=True, rolls={"Kael": 10, "Ork": 12, "Goblin": 11})
    assert enc.order == ["Ork", "Goblin", "Kael"]


def test_konterparade_undoes_the_riposte(camp):
    """Finte -> Riposte (negates it, counter-attack for 5 LP) -> Konterparade wards the Riposte off:
    the Finte holds again and serves the next attack, the 5 LP come back; the AD spent stay spent."""
    rpgkernel.resolve("manöver Kael -> Ork manöver=Finte stufe=2", campaign=camp, dice=[8, 8, 2, 2, 2])
    # the Ork's 4 W10: 9, 9 -> 2 successes, a hit; W6 shows 5, Kael has no armour
    res = rpgkernel.resolve("manöver Ork -> Kael manöver=Riposte stufe=2 gegen=Finte:2 schaden=W6",
                            campaign=camp, dice=[9, 9, 2, 2, 5])
    assert res.outcome["schaden"] == {"Kael": 5} and lp(camp, "Kael") == 25
    kael = camp.figure("Kael").conditions
    assert "Finte +2" not in kael and {"Finte +2 negiert", "Riposte-Schaden 5"} <= set(kael)
    assert "Riposte 2" in camp.figure("Ork").conditions
    # the Konterparade deals no damage of its own: schaden= is refused, nothing written
    with pytest.raises(RpgError, match="keinen eigenen Schaden"):
        rpgkernel.resolve("manöver Kael -> Ork manöver=Konterparade stufe=2 gegen=Riposte:2 schaden=W8",
                          campaign=camp, dice=[10, 2, 2, 2, 2, 3])
    assert ad(camp, "Kael") == 18
    # Kael's 5 W10: the 10 counts twice -> 2 successes: the Riposte is warded off
    res = rpgkernel.resolve("manöver Kael -> Ork manöver=Konterparade stufe=2 gegen=Riposte:2", campaign=camp,
                            dice=[10, 2, 2, 2, 2])
    assert res.outcome["treffer"]
    kael = camp.figure("Kael").conditions
    assert "Finte +2" in kael and not any(c.endswith("negiert") or c.startswith("Riposte") for c in kael)
    assert lp(camp, "Kael") == 30 and ad(camp, "Kael") == 16 and ad(camp, "Ork") == 8
    assert "Riposte 2" not in camp.figure("Ork").conditions
    # the restored Finte serves the next attack: 6 successes without a roll, +2 damage;
    # Gezielte Attacke 2 (+2 per level): W6 3 + 2 + 4 = 9, armour 2 -> 7
    res = rpgkernel.resolve("manöver Kael -> Ork manöver=\"Gezielte Attacke\" stufe=2 schaden=W6", campaign=camp,
                            dice=[3])
    assert res.outcome["erfolge"] == 6 and lp(camp, "Ork") == 30 - 7
    assert "Finte +2" not in camp.figure("Kael").conditions


def test_a_failed_konterparade_leaves_the_riposte_standing(camp):
    rpgkernel.resolve("manöver Kael -> Ork manöver=Finte stufe=2", campaign=camp, dice=[8, 8, 2, 2, 2])
    rpgkernel.resolve("manöver Ork -> Kael manöver=Riposte stufe=2 gegen=Finte:2 schaden=W6", campaign=camp,
                      dice=[9, 9, 2, 2, 5])
    res = rpgkernel.resolve("manöver Kael -> Ork manöver=Konterparade stufe=2 gegen=Riposte:2", campaign=camp,
                            dice=[9, 2, 2, 2, 2])
    assert not res.outcome["treffer"]
    kael = camp.figure("Kael").conditions
    assert not any(c.startswith(("Finte", "Riposte")) for c in kael)  # answered: nothing left to undo
    assert lp(camp, "Kael") == 25 and ad(camp, "Kael") == 16
    # a second Konterparade finds no Riposte to undo: it is answered at the stated level, nothing comes back
    rpgkernel.resolve("manöver Kael -> Ork manöver=Konterparade stufe=2 gegen=Riposte:2", campaign=camp,
                      dice=[10, 2, 2, 2, 2])
    assert lp(camp, "Kael") == 25 and "Finte +2" not in camp.figure("Kael").conditions


def test_a_missed_riposte_negates_nothing_and_leaves_nothing_to_answer(camp):
    rpgkernel.resolve("manöver Kael -> Ork manöver=Finte stufe=2", campaign=camp, dice=[8, 8, 2, 2, 2])
    res = rpgkernel.resolve("manöver Ork -> Kael manöver=Riposte stufe=2 gegen=Finte:2 schaden=W6",
                            campaign=camp, dice=[9, 2, 2, 2])
    assert not res.outcome["treffer"] and ad(camp, "Ork") == 8
    assert "Finte +2" in camp.figure("Kael").conditions and lp(camp, "Kael") == 30
    assert not any(c.startswith("Riposte") for c in camp.figure("Ork").conditions)


# -- the rest of the catalogue, each against the seed's table ------------------------------------

VEX = {**BASE, "AD": 30, "angriff": 5, "angriffsstufe": 1,
       "manoever": ["Mehrfach-Angriff 3", "Ausweichen Spezial 3", "Mehrfach-Parade 2", "Dreckiger Rückzug 2",
                    "Schattendolch 2", "Rundumschlag 3", "Schattenhieb 3", "Starker Tritt 4"],
       "waffen": ["Dolch (Stichwaffe)"]}


@pytest.fixture
def vex(camp):
    """Vex on (3,3): the Ork (3,2) and the Goblin (2,3) are both adjacent."""
    camp.encounter.add("Vex", sheet=VEX, side="Spieler")
    rpgkernel.resolve("platziere Vex auf=3,3", campaign=camp)
    return camp


def test_level_tables():
    assert [schaden_dist_wuerfel("Schadenserhöhung", s) for s in range(1, 6)] == [1, 1, 2, 2, 3]
    assert [kosten(n, 3) for n in ("Gezielte Attacke", "Wuchtschlag", "Schattenhieb", "Finte", "Entwaffnen",
                                   "Mehrfach-Parade", "Mantel-Parade", "Riposte", "Konterparade",
                                   "Ausweichen Spezial", "Starker Tritt", "Mehrfach-Angriff")] == [3] * 12


def test_rundumschlag_both_forms_of_its_cost(vex):
    # the default form "1 AD pro Gegner": Rundumschlag 3 on two adjacent targets costs 2
    rpgkernel.resolve("manöver Vex -> Ork, Goblin manöver=Rundumschlag stufe=3", campaign=vex,
                      dice=[8, 8, 2, 2, 2])
    assert ad(vex, "Vex") == 28
    einrichten(regeln={"rundumschlag_kosten": "stufe"}, kampagne=vex)  # the other form: [Stufe]
    rpgkernel.resolve("manöver Vex -> Ork, Goblin manöver=Rundumschlag stufe=3", campaign=vex,
                      dice=[8, 8, 2, 2, 2])
    assert ad(vex, "Vex") == 25
    with pytest.raises(RpgError, match="angrenzenden"):  # Kael (2,2) is not next to Vex (3,3)
        rpgkernel.resolve("manöver Vex -> Kael manöver=Rundumschlag stufe=1", campaign=vex)


def test_mehrfach_angriff_moves_one_field_per_attack(vex):
    # Mehrfach-Angriff 2 on Ork and Goblin: 2 AD, W6 4 each (armour 2 -> 2 LP), Vex moves 1 field
    res = rpgkernel.resolve("manöver Vex -> Ork, Goblin manöver=Mehrfach-Angriff stufe=2 schaden=W6 nach=3,4",
                            campaign=vex, dice=[8, 8, 2, 2, 2, 4])
    assert res.outcome["schaden"] == {"Ork": 2, "Goblin": 2} and ad(vex, "Vex") == 28
    assert "Feld 3,4" in vex.figure("Vex").conditions
    with pytest.raises(RpgError, match="1 bis 2 Ziele"):
        rpgkernel.resolve("manöver Vex -> Ork, Goblin, Kael manöver=Mehrfach-Angriff stufe=2", campaign=vex)
    with pytest.raises(RpgError, match="höchstens 1 Felder"):
        rpgkernel.resolve("manöver Vex -> Ork manöver=Mehrfach-Angriff stufe=1 nach=3,6", campaign=vex)


def test_ausweichen_spezial_dreckiger_rueckzug_schattendolch_change_position(vex):
    rpgkernel.resolve("manöver Vex manöver=\"Ausweichen Spezial\" stufe=2 nach=3,5", campaign=vex)
    assert "Feld 3,5" in vex.figure("Vex").conditions and ad(vex, "Vex") == 28
    with pytest.raises(RpgError, match="keinen eigenen Schaden"):
        rpgkernel.resolve("manöver Vex manöver=\"Ausweichen Spezial\" stufe=1 schaden=W6", campaign=vex)
    # Dreckiger Rückzug: weapon damage (W6 5, armour 2 -> 3) and 2 fields back
    rpgkernel.resolve("manöver Vex -> Goblin manöver=\"Dreckiger Rückzug\" stufe=2 schaden=W6 nach=4,6",
                      campaign=vex, dice=[8, 8, 2, 2, 2, 5])
    assert lp(vex, "Goblin") == 27 and "Feld 4,6" in vex.figure("Vex").conditions
    res = rpgkernel.resolve("manöver Vex -> Ork manöver=Schattendolch stufe=2 schaden=W4 nach=4,7",
                            campaign=vex, dice=[8, 8, 2, 2, 2, 4])
    assert lp(vex, "Ork") == 28 and "Feld 4,7" in vex.figure("Vex").conditions
    assert any("Wurfwaffe" in s.text for s in res.steps)
    assert ad(vex, "Vex") == 24


def test_mehrfach_parade_raises_a_blade_shield(vex):
    res = rpgkernel.resolve("manöver Vex manöver=Mehrfach-Parade stufe=2", campaign=vex)
    assert res.outcome["paraden"] == 2 and "Klingenschild" in vex.figure("Vex").conditions
    assert ad(vex, "Vex") == 28


def test_schattensprung_allows_no_defence_and_schattenhieb_needs_three_successes(camp):
    res = rpgkernel.resolve("manöver Kael -> Ork manöver=Schattensprung stufe=1 abgewehrt", campaign=camp,
                            dice=[8, 8, 2, 2, 2])
    assert res.outcome["treffer"]  # "keine Verteidigung möglich": abgewehrt does not apply
    # 2 successes only: the armour (2) counts in full; W6 5 -> 3
    rpgkernel.resolve("manöver Kael -> Ork manöver=Schattenhieb stufe=2 schaden=W6", campaign=camp,
                      dice=[8, 8, 2, 2, 2, 5])
    assert lp(camp, "Ork") == 27


def test_starker_tritt_on_several_knocks_them_down(vex):
    # Ork (3,2) and Goblin (2,3, NK 3 < 4) next to Vex (3,3): each up to 4 fields straight back, stopped
    # by the map's edge (Ork: (3,1), (3,0); Goblin: (1,3), (0,3), (-1,3)), both knocked down; 4 AD
    rpgkernel.resolve("manöver Vex -> Ork, Goblin manöver=\"Starker Tritt\" stufe=4", campaign=vex,
                      dice=[8, 8, 2, 2, 2])
    ork, goblin = vex.figure("Ork").conditions, vex.figure("Goblin").conditions
    assert "Feld 3,0" in ork and "Feld -1,3" in goblin and ad(vex, "Vex") == 26
    assert "niedergeworfen" in ork and "niedergeworfen" in goblin


def test_entwaffnen_disarms(camp):
    rpgkernel.resolve("manöver Kael -> Ork manöver=Entwaffnen stufe=2", campaign=camp, dice=[8, 8, 2, 2, 2])
    assert "entwaffnet" in camp.figure("Ork").conditions


@pytest.mark.parametrize("line", ["manöver Kael -> Goblin manöver=Finte stufe=3",
                                  "manöver Kael -> Goblin manöver=\"Gezielte Attacke\" stufe=2",
                                  "manöver Kael -> Goblin manöver=\"Starker Tritt\" stufe=2",
                                  "manöver Kael -> Goblin manöver=Entwaffnen stufe=3"])
def test_stufe_must_exceed_nk(camp, line):
    """[Stufe] > NK des Gegners: the Goblin's NK is 3."""
    with pytest.raises(RpgError, match="Bedingung \\[Stufe\\] > NK verfehlt"):
        rpgkernel.resolve(line, campaign=camp)
    assert ad(camp, "Kael") == 20
