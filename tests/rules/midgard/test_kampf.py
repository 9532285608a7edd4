"""Midgard combat: attacks and defences, AP/LP loss, several defences, damage bonus dice,
initiative with a leader, divine grace in a fight; previews against icepool."""

import itertools
from pathlib import Path

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rpgkernel
from rpgkernel.resolve import pending
from rpgkernel import Campaign, rules
from rpgkernel.dice import Roller
from rpgkernel.errors import ResolveError
from rpgkernel.rules import midgard
from rpgkernel.rules.figure import view
from rpgkernel.rules.midgard.initiative import initiative, reihenfolge_vorschau
from rpgkernel.rules.midgard.kampf import abwehr_wm, angriff, angriff_vorschau
from rpgkernel.rules.midgard.schaden import ap_verlust_leicht, verlust_schwer

BEISPIEL = Path(midgard.__file__).with_name("data") / "beispiel_spielleitung.yaml"


def fig(name, resources=None, conditions=None, side="", **sheet):
    """A campaign-like record's view (the procedures read figures as views)."""
    return view({"name": name, "sheet": sheet, "side": side, "conditions": conditions or {},
                 "resources": {k: {"value": v, "max": v} for k, v in (resources or {}).items()}})


WOLFGANG = fig("Wolfgang Krentz", waffen=["Langschwert +10 (W6+2)"], rw=62, kampftaktik=2)
ELF = fig("Schattenelf", {"LP": 14, "AP": 25}, abwehr=17, schild="klein", schild_ap=1, rw=81)


@pytest.fixture
def camp(tmp_path):
    c = Campaign.open(tmp_path / "m.sqlite")
    c.set_ruleset("midgard")
    c.add_character("Wolfgang Krentz", {"waffen": ["Langschwert +10 (W6+2)"], "rw": 62, "kampftaktik": 2,
                                        "lp": 16, "ap": 30, "abwehr": 14, "rs": 3})
    c.add_character("Schattenelf", {"abwehr": 17, "schild": "klein", "schild_ap": 1, "lp": 14, "ap": 25,
                                    "rw": 81, "waffen": ["Kurzschwert +9 (W6)"], "rs": 2})
    yield c
    c.close()


@pytest.fixture
def tabellen(camp):
    """The example tables kept in the campaign (the verbs read them there); for direct calls: CFG."""
    midgard.einrichten(BEISPIEL, kampagne=camp)


CFG = midgard.einrichten(BEISPIEL)


# -- the seed's example ------------------------------------------------------------------
def test_the_seeds_example_wolfgang_krentz_against_the_schattenelf(camp):
    """Attack 13 + 10 = 23, 7 damage; defence 15 + 17 = 32; small shield -1: 7 - 4 - 1 = 2 AP."""
    res = rpgkernel.resolve('angriff "Wolfgang Krentz" -> Schattenelf', campaign=camp, dice=[13, 15, 5])
    assert res.outcome["angriff"] == 23 and res.outcome["abwehr"] == 32 and res.outcome["schaden"] == 7
    assert res.outcome["treffer"] == "leichter Treffer" and res.outcome["ap_verlust"] == 2
    elf = camp.figure("Schattenelf")
    assert elf.resources["AP"]["value"] == 23 and elf.resources["LP"]["value"] == 14
    assert "1. Abwehr" in elf.conditions
    assert "7 Schaden − (9 / 2 =) 4 − Schild 1 = 2 AP-Verlust" in repr(res)
    assert ap_verlust_leicht(7, 23, 32, 1) == 2


def test_heavy_hit_costs_lp_and_ap_minus_armour(camp):
    res = rpgkernel.resolve('angriff Schattenelf -> "Wolfgang Krentz"', campaign=camp, dice=[15, 4, 6])
    # 15 + 9 = 24 hits; 4 + 14 = 18 < 24: failed; 6 damage - RS 3 = 3 LP and AP
    assert res.outcome["treffer"] == "schwerer Treffer" and res.outcome["lp_verlust"] == 3
    wolfgang = camp.figure("Wolfgang Krentz")
    assert wolfgang.resources["LP"]["value"] == 13 and wolfgang.resources["AP"]["value"] == 27
    assert verlust_schwer(2, 3) == 0


def test_critical_defence_loses_no_ap_and_a_miss_rolls_nothing_more(camp):
    res = rpgkernel.resolve('angriff "Wolfgang Krentz" -> Schattenelf', campaign=camp, dice=[19, 20, 6])
    assert res.outcome["treffer"] == "leichter Treffer" and res.outcome["ap_verlust"] == 0
    assert camp.figure("Schattenelf").resources["AP"]["value"] == 25
    res = rpgkernel.resolve('angriff "Wolfgang Krentz" -> Schattenelf', campaign=camp, dice=[1])
    assert res.outcome["treffer"] == "kein Treffer" and "Kritischer Fehler" in repr(res)
    res = rpgkernel.resolve('angriff "Wolfgang Krentz" -> Schattenelf', campaign=camp, dice=[9])
    assert res.outcome["treffer"] == "kein Treffer" and not res.effects


def test_ap_never_below_zero():
    tired = fig("Müde", {"LP": 10, "AP": 1}, abwehr=0)
    res = angriff(WOLFGANG, tired, Roller(dice=[15, 2, 6]))
    assert res.outcome["ap_verlust"] == 1 and res.outcome["lp_verlust"] == 8


# -- several defences ----------------------------------------------------------------------
def test_defence_wm_table():
    assert [abwehr_wm(n) for n in range(1, 6)] == [0, -2, -4, -6, -8]
    assert [abwehr_wm(n, volle_abwehr=True) for n in range(1, 6)] == [0, 0, -2, -4, -6]
    assert [abwehr_wm(n, nicht_kumulativ=True) for n in range(1, 5)] == [0, -2, -2, -2]


def test_defences_are_counted_in_the_round(camp):
    rpgkernel.resolve('angriff "Wolfgang Krentz" -> Schattenelf', campaign=camp, dice=[13, 15, 5])
    res = rpgkernel.resolve('angriff "Wolfgang Krentz" -> Schattenelf', campaign=camp, dice=[13, 15, 5])
    assert res.outcome["abwehr"] == 30                     # second defence: WM -2
    elf = camp.figure("Schattenelf")
    assert "2. Abwehr" in elf.conditions and "1. Abwehr" not in elf.conditions
    res = rpgkernel.resolve('angriff "Wolfgang Krentz" -> Schattenelf abwehr_nr=1', campaign=camp, dice=[13, 15, 5])
    assert res.outcome["abwehr"] == 32


def test_full_defence_and_ranged_attacks_against_a_large_shield(camp):
    rpgkernel.resolve("volle_abwehr Schattenelf", campaign=camp)
    assert "volle Abwehr" in camp.figure("Schattenelf").conditions
    res = rpgkernel.resolve('angriff "Wolfgang Krentz" -> Schattenelf abwehr_nr=2', campaign=camp, dice=[13, 15, 5])
    assert res.outcome["abwehr"] == 32                     # full defence: no WM at the second
    res = rpgkernel.resolve('angriff "Wolfgang Krentz" -> Schattenelf abwehr_nr=4', campaign=camp, dice=[13, 15, 5])
    assert res.outcome["abwehr"] == 28                     # ... -4 at the fourth
    big = fig("Schildträger", {"AP": 20}, abwehr=10, schild="groß")
    assert angriff(WOLFGANG, big, Roller(dice=[13, 15, 5]), abwehr_nr=4, fernkampf=True,
                   eine_richtung=True).outcome["abwehr"] == 23      # not cumulative: -2
    assert angriff(WOLFGANG, big, Roller(dice=[13, 15, 5]), abwehr_nr=4,
                   fernkampf=True).outcome["abwehr"] == 19          # one condition missing: -6


# -- damage bonus as dice ---------------------------------------------------------------------
def test_damage_bonus_needs_the_gm_list_and_a_negative_one_stays(camp, tabellen):
    strong = fig("Hüne", waffen=["Keule +8 (W6)"], schb=2)
    res = angriff(strong, ELF, Roller(dice=[15, 2, 3, 4]), cfg=CFG)        # W6 3 + W4 4
    assert res.outcome["schaden"] == 7 and "W6+W4" in repr(res)
    dagger = fig("Flink", waffen=["Dolch +5 (W6)"], schb=1)
    res = angriff(dagger, ELF, Roller(dice=[15, 2, 3, 2]), cfg=CFG)       # W6 3 + W3 2
    assert res.outcome["schaden"] == 5 and "W6+W3" in repr(res)
    weak = fig("Zwerg", waffen=["Dolch +5 (W6)"], schb=-2)
    res = angriff(weak, ELF, Roller(dice=[19, 2, 1]))
    assert res.outcome["schaden"] == 0 and "max(0, W6-2)" in repr(res)
    with pytest.raises(midgard.MidgardError, match="Die Tabelle 'schadensbonus' fehlt"):
        angriff(strong, ELF, Roller(dice=[15, 2, 3, 4]))               # the defaults: no GM tables
    camp.set_sheet("Wolfgang Krentz", {**camp.figure("Wolfgang Krentz").sheet, "schb": 2})
    res = rpgkernel.resolve('angriff "Wolfgang Krentz" -> Schattenelf', campaign=camp, dice=[13, 15, 5, 4])
    assert res.outcome["schaden"] == 5 + 2 + 4                        # W6+2 and the W4 of the campaign's list


# -- critical tables ---------------------------------------------------------------------------
def test_critical_results_roll_the_gms_tables_when_there_are_some(camp, tabellen):
    res = rpgkernel.resolve('angriff "Wolfgang Krentz" -> Schattenelf', campaign=camp, dice=[20, 2, 5, 100])
    # 20: critical; defence 2 + 17 = 19 < 30 fails; 5 + 2 = 7 damage - RS 2; the table: W% 100
    assert res.outcome["kritische_tabellen"] == [{"tabelle": "treffer", "wurf": 100,
                                                 "zeile": "BEISPIEL: tödlicher Treffer"}]
    assert "Kritischer Treffer (Schattenelf): W% 100 – BEISPIEL: tödlicher Treffer" in repr(res)
    assert camp.figure("Schattenelf").resources["LP"]["value"] == 14 - 5
    res = rpgkernel.resolve('angriff "Wolfgang Krentz" -> Schattenelf', campaign=camp, dice=[1, 95])
    assert res.outcome["kritische_tabellen"][0]["zeile"] == "BEISPIEL: sich selbst verletzt – 1W6 Schaden"
    res = rpgkernel.resolve('angriff "Wolfgang Krentz" -> Schattenelf abwehr_nr=1', campaign=camp,
                            dice=[15, 1, 3, 16])
    assert res.outcome["kritische_tabellen"] == [{"tabelle": "fehler_abwehr", "wurf": 16,
                                                 "zeile": "BEISPIEL: Schild oder Waffe verloren"}]
    res = rpgkernel.resolve("ww Schattenelf gegen=20 ohne_gnade", campaign=camp, dice=[1, 3])
    assert res.outcome["kritische_tabelle"]["zeile"] == "BEISPIEL: gestolpert – nächste Abwehr WM −2"
    # no table for a critical EW in the example: only named, no further die
    res = rpgkernel.resolve("ew Schattenelf wert=5 ohne_gnade", campaign=camp, dice=[20])
    assert res.outcome["kritisch"] == "kritischer Erfolg" and "kritische_tabelle" not in res.outcome


def test_without_tables_a_critical_is_only_named(camp):
    res = rpgkernel.resolve('angriff "Wolfgang Krentz" -> Schattenelf', campaign=camp, dice=[20, 2, 5])
    assert "Kritischer Treffer gegen Schattenelf." in repr(res) and "kritische_tabellen" not in res.outcome


def test_grace_after_a_critical_hit_repeats_only_the_table_roll(camp, tabellen):
    """The seed: critically hit, and a 100 on the table - now only the table roll may be repeated."""
    camp.set_sheet("Schattenelf", {**camp.figure("Schattenelf").sheet, "gg": 1})
    rpgkernel.resolve('angriff "Wolfgang Krentz" -> Schattenelf', campaign=camp, dice=[20])
    rpgkernel.resolve("verzicht Schattenelf", campaign=camp, dice=[2])       # the EW stands; defence 2
    rpgkernel.resolve("verzicht Schattenelf", campaign=camp, dice=[5])       # the defence stands; damage 7
    opened = rpgkernel.resolve("verzicht Schattenelf", campaign=camp, dice=[100])   # the damage stands; table
    assert opened.open and "Kritischer Treffer (100)" in opened.choices[0].label
    closed = rpgkernel.resolve("gnade Schattenelf", campaign=camp, dice=[30])
    assert not closed.open and closed.outcome["angriff"] == 30      # the EW: Angriff was not repeated
    assert closed.outcome["kritische_tabellen"][0]["zeile"] == "BEISPIEL: Prellung – doppelter AP-Verlust"
    assert [s.value for s in closed.steps if s.rolls] == [20, 2, 7, 100, 30]
    assert camp.figure("Schattenelf").resources["GG"]["value"] == 0


def test_bad_critical_tables_are_refused(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text("kritisch: {patzer: {wuerfel: W20, zeilen: [{von: 1, bis: 20, text: x}]}}\n", encoding="utf-8")
    with pytest.raises(midgard.MidgardError, match="unbekannte Situation 'patzer'"):
        midgard.tabellen.laden(path)
    path.write_text("kritisch: {treffer: {wuerfel: W%, zeilen: [{von: 1, bis: 99, text: x}]}}\n", encoding="utf-8")
    with pytest.raises(midgard.MidgardError, match="1 bis 100 lückenlos"):
        midgard.tabellen.laden(path)
    path.write_text("kritisch: {treffer: {wuerfel: W6, zeilen: [{von: 1, bis: 6, text: x}]}}\n", encoding="utf-8")
    with pytest.raises(midgard.MidgardError, match="erlaubt sind W% und W20"):
        midgard.tabellen.laden(path)


# -- exact previews -----------------------------------------------------------------------------
def icepool_losses(ew, abwehr, damage_die, rs, schild, ap=None):
    def outcome(a, d, dmg):
        ta = a + ew
        if not (a == 20 or (a != 1 and ta >= 20)):
            return (0, 0)
        td = d + abwehr
        if d == 20 or (d != 1 and td >= ta):
            loss = 0 if d == 20 else max(0, dmg - (td - ta) // 2 - schild)
            return (min(loss, ap) if ap is not None else loss, 0)
        loss = max(0, dmg - rs)
        return (min(loss, ap) if ap is not None else loss, loss)
    joint = icepool.map(outcome, icepool.d20, icepool.d20, damage_die)
    return joint.marginals[0], joint.marginals[1]


@settings(max_examples=25)
@given(st.integers(0, 20), st.integers(0, 25), st.integers(0, 4), st.integers(0, 2), st.sampled_from([6, 8, 10]),
       st.integers(0, 3), st.one_of(st.none(), st.integers(0, 12)))
def test_attack_preview_equals_icepool(ew, abwehr, rs, schild, sides, plus, ap):
    expr = f"W{sides}+{plus}"
    preview = angriff_vorschau(ew, abwehr, rpgkernel.dist(expr), rs=rs, schild_ap=schild, ap=ap)
    ap_die, lp_die = icepool_losses(ew, abwehr, icepool.d(sides) + plus, rs, schild, ap)
    for ours, theirs in ((preview["ap"], ap_die), (preview["lp"], lp_die)):
        for outcome, count in theirs.items():
            assert ours.p_exactly(outcome) == pytest.approx(count / theirs.denominator(), abs=1e-12)
        assert abs(sum(ours.pmf().values()) - 1) < 1e-12


def test_attack_preview_by_hand():
    preview = angriff_vorschau(10, 17, rpgkernel.dist("W6+2"), schild_ap=1)
    hit = 11 / 20                                           # 10..20 (1 fails anyway)
    assert preview[rpgkernel.messages.t("midgard.p_attack")] == pytest.approx(hit, abs=1e-12)
    # given a hit with total A = a + 10 (a = 10..20): the defence d + 17 >= A, d = 20 always, d = 1 never
    fails = sum(min(max(a + 10 - 17 - 1, 1), 19) for a in range(10, 21)) / 400
    assert preview[rpgkernel.messages.t("midgard.p_heavy")] == pytest.approx(fails, abs=1e-12)


def test_preview_through_resolve(camp):
    res = rpgkernel.resolve('angriff "Wolfgang Krentz" -> Schattenelf', campaign=camp, preview=True)
    ap = res.preview["ap"]
    assert ap.isclose(angriff_vorschau(10, 17, rpgkernel.dist("W6+2"), rs=2, schild_ap=1, ap=25)["ap"])
    assert ap.max == 7 and res.preview["lp"].max == 6      # light hit: 8 - 0 - 1; heavy: 8 - RS 2
    assert "AP-Verlust: 0 bis 7" in repr(res)


# -- divine grace in a fight ---------------------------------------------------------------------
def test_grace_in_a_fight_follows_the_rolls(camp):
    camp.set_sheet("Wolfgang Krentz", {**camp.figure("Wolfgang Krentz").sheet, "gg": 2})
    opened = rpgkernel.resolve('angriff "Wolfgang Krentz" -> Schattenelf', campaign=camp, dice=[5])
    assert opened.open and [s.value for s in opened.steps if s.rolls] == [5]   # missed: may repeat the EW
    after = rpgkernel.resolve('gnade "Wolfgang Krentz"', campaign=camp, dice=[13])
    assert after.open and "EW: Angriff mit Langschwert (13)" in after.choices[0].label   # a point left: again?
    after = rpgkernel.resolve("verzicht Schattenelf", campaign=camp, dice=[15])
    assert after.open and [s.value for s in after.steps if s.rolls] == [5, 13, 15]  # grace for the defence now
    assert "WW: Abwehr (15)" in after.choices[0].label
    after = rpgkernel.resolve("verzicht Schattenelf", campaign=camp, dice=[5])   # damage 7, grace offered
    assert after.open
    closed = rpgkernel.resolve('gnade "Wolfgang Krentz"', campaign=camp, dice=[6])  # damage again: 8
    assert not closed.open and closed.outcome["schaden"] == 8 and closed.outcome["ap_verlust"] == 3
    wolfgang = camp.figure("Wolfgang Krentz")
    assert wolfgang.resources["GG"]["value"] == 0
    assert camp.figure("Schattenelf").resources["AP"]["value"] == 22
    faces = [s.value for s in closed.steps if s.rolls]
    assert faces == [5, 13, 15, 7, 8]


def test_the_defender_may_spend_grace_against_the_attack(camp):
    camp.set_sheet("Schattenelf", {**camp.figure("Schattenelf").sheet, "gg": 1})
    rpgkernel.resolve('angriff "Wolfgang Krentz" -> Schattenelf', campaign=camp, dice=[18])
    res = rpgkernel.resolve("gnade Schattenelf", campaign=camp, dice=[2])
    assert not res.open and res.outcome["treffer"] == "kein Treffer"
    assert camp.figure("Schattenelf").resources["GG"]["value"] == 0


def test_ohne_gnade_rolls_straight_through(camp):
    camp.set_sheet("Schattenelf", {**camp.figure("Schattenelf").sheet, "gg": 1})
    res = rpgkernel.resolve('angriff "Wolfgang Krentz" -> Schattenelf ohne_gnade', campaign=camp, dice=[13, 15, 5])
    assert not res.open and res.outcome["ap_verlust"] == 2


# Seed, "Neue Regelung der Göttlichen Gnade": "Wichtig ist hierbei jedoch¸ daß er nur Würfe wiederholen kann¸ die
# noch keinen weiteren Wurf zur Folge hatten." The offer lapses with the next roll; it is no reason to wait.
def test_the_next_roll_lets_an_open_grace_offer_lapse(camp):
    camp.set_sheet("Wolfgang Krentz", {**camp.figure("Wolfgang Krentz").sheet, "gg": 1})
    opened = rpgkernel.resolve('angriff "Wolfgang Krentz" -> Schattenelf', campaign=camp, dice=[13])
    assert opened.open and "Das Angebot verfällt mit dem nächsten Wurf." in opened.choices[0].label
    held = rpgkernel.resolve("abwarten Schattenelf", campaign=camp)          # rolls nothing: the offer stays
    assert not held.open and len(pending(camp, "midgard")) == 1
    # the next roll: the open attack first declines each offer and rolls on (defence 15, damage 5), then closes
    lapsed, new = rpgkernel.resolve('angriff Schattenelf -> "Wolfgang Krentz"', campaign=camp, dice=[15, 5, 10])
    assert not lapsed.open and lapsed.outcome["ap_verlust"] == 2
    assert [s.value for s in lapsed.steps if s.rolls] == [13, 15, 7]
    note = 'Das offene Angebot verfällt ohne Einsatz: Der nächste Wurf ist gefallen (angriff Schattenelf -> ' \
           '"Wolfgang Krentz").'
    assert note in [s.text for s in lapsed.steps]
    assert camp.figure("Schattenelf").resources["AP"]["value"] == 23
    assert camp.figure("Wolfgang Krentz").resources["GG"]["value"] == 1     # declined: no point spent
    assert new.open and [s.value for s in new.steps if s.rolls] == [10]     # the new attack: grace for it now
    assert any(note in str(e) for e in camp.journal(kind="auflösung", last=2))
    assert list(pending(camp, "midgard").values())[0]["actors"] == ["Schattenelf"]


# -- initiative ----------------------------------------------------------------------------------
FOLGT = {"folgt Anführer": {}}
GROUP = [fig("Anführer", side="Helden", rw=62, kampftaktik=2),
         fig("Franz", side="Helden", rw=45, kampftaktik=1, conditions=FOLGT),
         fig("Fritz", side="Helden", rw=78, conditions=FOLGT), fig("Ork", side="Orks", rw=50, rw_ruestung=-20)]


def test_groups_come_from_the_leader_named_in_advance():
    from rpgkernel.rules.midgard.initiative import gruppen
    assert gruppen(GROUP) == ([("Anführer", ["Anführer", "Franz", "Fritz"]), ("Ork", ["Ork"])], {})
    franz_alone = [GROUP[0], fig("Franz", conditions={**FOLGT, "eigene Initiative": {}}), *GROUP[2:]]
    assert gruppen(franz_alone) == ([("Anführer", ["Anführer", "Fritz"]), ("Franz", ["Franz"]), ("Ork", ["Ork"])],
                                    {"Franz": "eigene"})
    # no leader in the fight, or one without Kampftaktik +1: no instructions, everyone rolls himself
    assert gruppen(GROUP[1:]) == ([("Franz", ["Franz"]), ("Fritz", ["Fritz"]), ("Ork", ["Ork"])],
                                  {"Franz": "fehlt", "Fritz": "fehlt"})
    untrained = [fig("Anführer", rw=62), *GROUP[1:]]
    assert gruppen(untrained)[1] == {"Franz": "fehlt", "Fritz": "fehlt"}


def test_individual_initiative():
    alone = [fig(f.name, side=f.side, **f.sheet) for f in GROUP]
    res = initiative(alone, Roller(dice=[3, 4, 5, 6]))
    assert res.outcome["initiative"] == {"Anführer": 6 + 2 + 3, "Franz": 4 + 1 + 4, "Fritz": 7 + 5, "Ork": 3 + 6}
    assert res.outcome["reihenfolge"] == ["Fritz", "Anführer", "Franz", "Ork"]


def test_initiative_with_the_weapon_rank_modifier_and_its_range():
    lancer = [fig("Lanzenreiter", rw=62, kampftaktik=2, angriffsrang=3)]
    assert initiative(lancer, Roller(dice=[4]), angriffsrang=True).outcome["initiative"] == {"Lanzenreiter": 15}
    assert initiative(lancer, Roller(dice=[4])).outcome["initiative"] == {"Lanzenreiter": 12}
    # the seed: between 2 and 20 (RW 1..100 after armour, Kampftaktik up to the grades)
    slow, fast = fig("Langsam", rw=10), fig("Schnell", rw=100, kampftaktik=4)
    assert initiative([slow, fast], Roller(dice=[1, 6])).outcome["initiative"] == {"Langsam": 2, "Schnell": 20}


def test_leader_rolls_once_for_those_who_follow():
    franz_alone = [GROUP[0], fig("Franz", rw=45, kampftaktik=1, conditions={**FOLGT, "eigene Initiative": {}}),
                   *GROUP[2:]]
    res = initiative(franz_alone, Roller(dice=[4, 5, 1]))
    # Anführer: W6 4 + KT 2 = 6 passed on; Fritz 7 + 6 = 13 (not his own KT); Franz rolls himself 4 + 1 + 5;
    # Ork 3 + 1
    assert res.outcome["initiative"] == {"Anführer": 12, "Fritz": 13, "Franz": 10, "Ork": 4}
    assert "Franz folgt diesmal nicht Anführer" in repr(res)


def test_naming_a_leader_opting_out_and_holding_through_resolve(camp):
    camp.add_character("Knappe", {"rw": 30})
    camp.add_character("Fritz", {"rw": 45})
    with pytest.raises(ResolveError, match="Schattenelf kann nicht anführen: dazu braucht es mindestens Kampftaktik"):
        rpgkernel.resolve("anführer Schattenelf -> Knappe", campaign=camp)
    res = rpgkernel.resolve('anführer "Wolfgang Krentz" -> Knappe, Fritz', campaign=camp)
    assert "ab dem nächsten Initiativewurf würfelt er für Knappe, Fritz" in repr(res)
    assert "folgt Wolfgang Krentz" in camp.figure("Knappe").conditions
    with pytest.raises(ResolveError, match="Schattenelf folgt keinem Anführer"):
        rpgkernel.resolve("eigene Schattenelf", campaign=camp)
    rpgkernel.resolve("eigene Fritz", campaign=camp)
    res = rpgkernel.resolve('initiative "Wolfgang Krentz", Knappe, Fritz, Schattenelf', campaign=camp,
                            dice=[6, 2, 1])
    # Wolfgang: W6 6 + KT 2 = 8: himself 6 + 8, the Knappe 3 + 8; Fritz 4 + 2; Schattenelf 8 + 1
    assert res.outcome["initiative"] == {"Wolfgang Krentz": 14, "Knappe": 11, "Fritz": 6, "Schattenelf": 9}
    rpgkernel.resolve("eigene Fritz dauerhaft", campaign=camp)
    assert not any(c.startswith("folgt") for c in camp.figure("Fritz").conditions)
    camp.undo()
    assert "folgt Wolfgang Krentz" in camp.figure("Fritz").conditions
    res = rpgkernel.resolve("abwarten Fritz", campaign=camp)
    assert "wartet ab" in camp.figure("Fritz").conditions and "gar nicht" in repr(res)
    assert any("anführer: Wolfgang Krentz → Knappe, Fritz" in e.data["text"] for e in camp.journal(kind="auflösung"))


def test_the_encounter_rolls_the_leaders_initiative_every_round(camp):
    """The panel's 'Nächste Runde' is next_round(): the leader's roll with no extra step."""
    camp.add_character("Knappe", {"rw": 30})
    camp.add_character("Fritz", {"rw": 45})
    enc = camp.new_encounter("Gasse")
    for who, side in (("Wolfgang Krentz", "Helden"), ("Knappe", "Helden"), ("Fritz", "Helden"),
                      ("Schattenelf", "Schatten")):
        enc.add(who, side=side, character=who)
    rpgkernel.resolve('anführer "Wolfgang Krentz" -> Knappe, Fritz', campaign=camp)
    # round 1: Wolfgang's one W6 (1) + KT 2 = 3: Wolfgang 6 + 3 = 9, Knappe 3 + 3 = 6, Fritz 4 + 3 = 7;
    # Schattenelf 8 + W6 (1) = 9: tie with Wolfgang, by name
    assert enc.start(dice=[1, 1]) == ["Schattenelf", "Wolfgang Krentz", "Fritz", "Knappe"]
    rpgkernel.resolve("eigene Fritz", campaign=camp)           # before the leader's next roll
    # round 2: Wolfgang W6 5 + 2 = 7: Wolfgang 13, Knappe 10; Fritz rolls himself 4 + 6 = 10; Schattenelf 8 + 1
    enc.next_round(dice=[5, 6, 1])
    assert enc.order == ["Wolfgang Krentz", "Fritz", "Knappe", "Schattenelf"] and enc.round == 2
    assert "eigene Initiative" not in camp.figure("Fritz").conditions      # only for that one roll
    enc.next_round(dice=[1, 6])                                # round 3: Fritz follows again
    assert enc.order == ["Schattenelf", "Wolfgang Krentz", "Fritz", "Knappe"]
    [last] = camp.journal(kind="initiative", last=1)
    assert set(last.data["rolls"]) == {"Wolfgang Krentz", "Schattenelf"}


def brute_force_places(sources):
    places = {n: [0.0] * 5 for src in sources for n, _ in src}
    for faces in itertools.product(range(1, 7), repeat=len(sources)):
        values = {n: off + f for src, f in zip(sources, faces) for n, off in src}
        order = sorted(values, key=lambda n: (-values[n], n))
        for i, n in enumerate(order):
            places[n][i] += 1 / 6 ** len(sources)
    return places


def test_order_preview_is_exact():
    sources = [[("Anführer", 8), ("Fritz", 9)], [("Franz", 5)], [("Ork", 3)]]
    preview = reihenfolge_vorschau(sources)
    for name, probs in brute_force_places(sources).items():
        place = preview[f"platz:{name}"]
        for i, p in enumerate(probs):
            assert place.p_exactly(i + 1) == pytest.approx(p, abs=1e-12)
    p_first = preview[rpgkernel.messages.t("midgard.p_first", figure="Ork")]
    # the Ork (3 + W6) is first only with 6 against the others' least 8 + 1: never
    assert p_first == 0.0


def test_initiative_through_the_encounter(camp):
    enc = camp.new_encounter("Gasse")
    enc.add("Wolfgang Krentz", side="Helden", character="Wolfgang Krentz")
    enc.add("Schattenelf", side="Schatten", character="Schattenelf")
    engine = rules.get("midgard")
    assert engine.initiative.expression(view(camp.figure("Wolfgang Krentz").record)) == "W6+8"
    assert enc.start(dice=[1, 2]) == ["Schattenelf", "Wolfgang Krentz"]      # 9 against 10
    preview = rpgkernel.resolve('initiative "Wolfgang Krentz", Schattenelf', campaign=camp, preview=True).preview
    # Wolfgang 8 + W6 before the Schattenelf 8 + W6: higher die, or a tie (by name: Schattenelf first)
    assert preview["P(Wolfgang Krentz handelt zuerst)"] == pytest.approx(15 / 36, abs=1e-12)


def _gasse_with_grace(camp):
    """Wolfgang Krentz and the Schattenelf (one point of grace) in the Gasse, Krentz first."""
    camp.set_sheet("Schattenelf", {**camp.figure("Schattenelf").sheet, "gg": 1})
    enc = camp.new_encounter("Gasse")
    enc.add("Wolfgang Krentz", side="Helden", character="Wolfgang Krentz")
    enc.add("Schattenelf", side="Schatten", character="Schattenelf")
    enc.start(order=["Wolfgang Krentz", "Schattenelf"])


def test_the_encounter_panel_shows_bars_conditions_and_the_grace_choice(camp):
    from rpgkernel.widgets.panel_data import pending_list, rows, rules_info
    _gasse_with_grace(camp)
    rpgkernel.resolve('angriff "Wolfgang Krentz" -> Schattenelf', campaign=camp, dice=[13])
    engine = rules.get("midgard")
    info = rules_info(engine)
    assert "gnade" not in [v["name"] for v in info["verbs"]] and "volle Abwehr" in info["conditions"]
    assert ["AP", 25, 25] in rows(camp.state, camp.state["encounters"]["Gasse"], engine)[1]["res"]
    [pending] = pending_list(camp.state, engine)
    assert [c["verb"] for c in pending["choices"]] == ["gnade"]          # the marker has no verb: not shown
    assert pending["choices"][0]["who"] == ["Schattenelf"]


def test_declining_grace_is_named_on_the_card_and_works_from_the_panel(camp):
    from rpgkernel.widgets import EncounterPanel
    _gasse_with_grace(camp)
    opened = rpgkernel.resolve('angriff "Wolfgang Krentz" -> Schattenelf', campaign=camp, dice=[13])
    labels = [c.label for c in opened.choices]
    assert "gnade Schattenelf" in labels[0] and "verzicht Schattenelf" in labels[1] and "„Verzicht“" in labels[1]
    panel = EncounterPanel(camp)
    panel.set_state({"form": {**panel.form, "decision_dice": "15"}})
    panel._dispatch(panel, {"type": "choose", "decline": True})       # the panel's "Verzicht" button
    assert panel.error == "" and panel.result["cell"].startswith('%%resolve --würfel 15\nverzicht')
    # the EW stood (13 + 10 = 23); the defence 15 + 17 = 32 fell and waits for grace in its turn
    [card] = panel.result["cards"]
    assert card["open"] and "WW: Abwehr (15)" in card["choices"][0]
    assert camp.figure("Schattenelf").resources["GG"]["value"] == 1
    panel.close()


def test_initiative_is_determined_anew_at_the_start_of_each_round(tmp_path):
    """Neue Initiativeregelung: 'am Anfang einer Kampfrunde neu bestimmt'."""
    from rpgkernel import Campaign
    camp = Campaign.open(tmp_path / "k.sqlite")
    camp.set_ruleset("midgard")
    enc = camp.new_encounter("Gasse")
    enc.add("Wolfgang")
    enc.add("Fritz")
    enc.start(dice=[6, 1])
    assert enc.order == ["Wolfgang", "Fritz"]
    enc.next_turn()
    assert enc.next_turn(dice=[2, 5]) == "Fritz" and enc.order == ["Fritz", "Wolfgang"] and enc.round == 2
    camp.close()
