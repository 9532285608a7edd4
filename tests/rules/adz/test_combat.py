"""AdZ combat: initiative, reactions, the melee chain, two weapons, ranged; exact previews against icepool."""

import icepool
import pytest
from hypothesis import given, settings, strategies as st

from brute_force import leaves

import rpgkernel
from rpgkernel import Campaign, statblocks
from rpgkernel.dice import Roller
from rpgkernel.rules import adz
from rpgkernel.rules.adz.exact import angriff_dist, ausgaenge, erfolge_dist, kette, p_treffer
from rpgkernel.rules.figure import view

from .test_core import figure


def alrik(**kw):
    sheet = dict(fertigkeiten=["Schwerter 6", "Verteidigung 5", "Beidhändiger Kampf 2", "Bögen 4", "Reflexe 3"],
                 spezialisierungen=["Parade 2", "Ausweichen 1"],
                 waffen=["Langschwert (Schwerter, KK, GS 5)", "Kurzschwert (Schwerter, KK, GS 3)",
                         "Kurzbogen (Bögen, GS 3, RK C)"],
                 ausruestung=["Kettenhemd (RS 2, WB 1, AM 1)"])
    sheet.update(kw.pop("sheet", {}))
    return figure("Alrik", **sheet, **kw)


def ork(**kw):
    sheet = dict(KK=6, KO=5, GE=4, fertigkeiten=["Äxte 5", "Verteidigung 3"], waffen=["Axt (Äxte, KK, GS 6, VM -1)"],
                 ausruestung=["Holzschild (VM 2, AM 1)"])
    sheet.update(kw.pop("sheet", {}))
    return figure("Ork", **sheet, **kw)


def ice_successes(n):
    return n @ (icepool.d6 >= 5) if n > 0 else icepool.Die([0])


def ice_pmf(die):
    total = die.denominator()
    return {int(o): q / total for o, q in die.items() if q}


def close(dist, die, tol=1e-12):
    ref = ice_pmf(die)
    mine = dist.pmf()
    return all(abs(mine.get(k, 0.0) - ref.get(k, 0.0)) <= tol for k in set(mine) | set(ref))


# -- the chain with given dice ------------------------------------------------------------
def test_the_melee_chain_by_hand():
    # attack KK 5 + Schwerter 6 − AM 1 = 10; defence GE 4 + Verteidigung 3 − VM 1 (axe) + VM 2 (shield) = 8
    dice = [6, 6, 5, 5, 1, 1, 1, 1, 1, 1] + [5, 1, 1, 1, 1, 1, 1, 1] + [6, 1, 1, 1, 1]
    res = adz.combat.angriff(alrik(luck=0), ork(luck=0), Roller(dice=dice))
    o = res.outcome
    assert (o["angriff"], o["verteidigung"], o["übrig"], o["schaden_vor_widerstand"], o["widerstand"], o["schaden"]) \
        == (4, 1, 3, 8, 1, 7)  # 5 + 3 − RS 0 = 8; KO 5 resistance, one success
    assert [(e.figure, e.resource, e.by) for e in res.effects if e.resource] == [("Ork", "körperlich", -7)]
    assert ("Ork", "Reaktionen: 1") in {(e.figure, e.condition) for e in res.effects}
    assert not res.open


def test_armour_and_resistance_bonus():
    # Ork hits Alrik: KK 6 + Äxte 5 − AM 1 = 10; Alrik: GE 6 + Verteidigung 5 + Parade 2 = 13; RS 2, KO 4 + WB 1
    dice = [6] * 6 + [1] * 4 + [5, 5] + [1] * 11 + [6, 1, 1, 1, 1]
    res = adz.combat.angriff(ork(luck=0), alrik(luck=0), Roller(dice=dice), verteidigung="parade")
    assert res.outcome["schaden_vor_widerstand"] == 6 + 4 - 2 and res.outcome["schaden"] == 7
    assert "GE 6 + Verteidigung 5 + Parade 2 = 13 W6" in " ".join(s.text for s in res.steps)


def test_fully_defended_and_missed_attacks_do_no_damage():
    res = adz.combat.angriff(alrik(luck=0), ork(luck=0), Roller(dice=[5] + [1] * 9 + [6] + [1] * 7))
    assert not res.outcome["treffer"] and res.outcome["schaden"] == 0 and res.outcome["widerstand"] is None
    res = adz.combat.angriff(alrik(luck=0), ork(luck=0), Roller(dice=[1] * 10))   # no success: no defence needed
    assert res.outcome["verteidigung"] is None and "Reaktionen: 1" not in {e.condition for e in res.effects}


def test_a_manoeuvre_must_reach_its_mindestwurf_and_be_fully_negated():
    res = adz.combat.angriff(alrik(luck=0), ork(luck=0), Roller(dice=[5] + [1] * 9), mw=2)
    assert not res.outcome["treffer"] and res.outcome["verteidigung"] is None
    dice = [5, 5, 5] + [1] * 7 + [6, 6] + [1] * 6 + [1] * 5
    res = adz.combat.angriff(alrik(luck=0), ork(luck=0), Roller(dice=dice), mw=3)
    assert res.outcome["treffer"] and res.outcome["übrig"] == 1


def test_the_damage_may_fall_to_zero_before_resistance():
    # GS 3 + 1 − RS 4: nothing left, no resistance roll
    target = ork(luck=0, sheet={"ausruestung": ["Plattenpanzer (RS 4)"]})
    res = adz.combat.angriff(alrik(luck=0), target, Roller(dice=[5, 5] + [1] * 8 + [6] + [1] * 5), waffe="Kurzschwert")
    assert res.outcome["treffer"] and res.outcome["schaden"] == 0 and res.outcome["widerstand"] is None


def test_reactions_halve_the_defence():
    dice = [1] * 9 + [5] + [1] * 4
    res = adz.combat.angriff(alrik(luck=0), ork(luck=0, conditions=["Reaktionen: 1"]), Roller(dice=dice + [1] * 5))
    assert any("2. Reaktion in dieser Runde – 8 Würfel werden zu 4" in s.text for s in res.steps)
    marks = {(e.condition, e.on) for e in res.effects if e.condition}
    assert {("Reaktionen: 1", False), ("Reaktionen: 2", True)} <= marks


def test_mental_damage_from_a_brawl_and_an_unconscious_defender():
    brawler = figure("Schläger", fertigkeiten=["Raufen 3"], waffen=["Faust (Raufen, KK, GS 1, geistig)"], luck=0)
    res = adz.combat.angriff(brawler, ork(luck=0, mental=0), Roller(dice=[6, 6] + [1] * 6 + [1] * 5))
    assert res.outcome["verteidigung"] is None and res.outcome["schaden"] == 3
    assert any(e.resource == "körperlich" and e.by == -3 for e in res.effects)   # mental track full: overflow


# -- two weapons ----------------------------------------------------------------------------
def test_two_weapons_extra_roll_is_limited_and_the_better_counts():
    # main: KK 5 + Schwerter 6 − AM 1 = 10; extra: KK 5 + min(6, BK 2) − AM 1 = 6
    dice = [1] * 10 + [5, 5, 1, 1, 1, 1] + [1] * 8 + [1] * 5
    res = adz.combat.angriff(alrik(luck=0), ork(luck=0), Roller(dice=dice), beidhaendig=True)
    assert res.outcome["angriff"] == 2 and res.outcome["übrig"] == 2
    assert any("Zusatzwurf mit höchstens 2 Fertigkeitswürfeln" in s.text for s in res.steps)
    assert res.preview["schaden"].isclose(kette(erfolge_dist(10).maximum(erfolge_dist(6)), erfolge_dist(8), 5, 0,
                                                erfolge_dist(5)))


def test_two_weapons_need_the_skill_the_same_type_and_not_for_dodging():
    with pytest.raises(adz.AdzError, match="Beidhändiger Kampf nicht"):
        adz.combat.kampfplan(ork(), alrik(), beidhaendig=True)
    with pytest.raises(adz.AdzError, match="desselben Typs"):
        adz.combat.kampfplan(alrik(), ork(), waffe="Kurzbogen", beidhaendig=True, distanz=5)
    with pytest.raises(adz.AdzError, match="Ausweichen"):
        adz.combat.kampfplan(ork(), alrik(), verteidigung="ausweichen", v_beidhaendig=True)
    plan = adz.combat.kampfplan(ork(), alrik(), verteidigung="parade", v_beidhaendig=True)
    # GE 6 + Verteidigung 5 + Parade 2 = 13; extra: GE 6 + min(5, BK 2) + Parade 2 = 10
    assert (plan.verteidigung, plan.verteidigung2) == (13, 10)


# Seed, "Beidhändiger Kampf": "Außerdem muss die jeweilige Aktion auch mit den beiden Waffen durchgeführt werden, es
# darf sich also inbesondere nicht um Ausweichen oder den Einsatz eines Schildes handeln. Auch das Verwenden einer
# Parierwaffe zählt nicht als beidhändiger Kampf."
def test_a_two_weapon_defence_uses_no_shield_or_parrying_weapon():
    gear = ["Kettenhemd (RS 2, WB 1, AM 1)", "Holzschild (VM 2, AM 1)", "Parierdolch (VM 1)", "Helm (RS 1, VM -1)"]
    armed = alrik(sheet={"ausruestung": gear})
    plan = adz.combat.kampfplan(ork(), armed, verteidigung="parade", v_beidhaendig=True)
    # GE 6 + Verteidigung 5 + Parade 2 − 1 (helm) = 12; extra: GE 6 + min(5, BK 2) + Parade 2 − 1 = 9
    assert (plan.verteidigung, plan.verteidigung2) == (12, 9)
    assert "Holzschild (VM +2), Parierdolch (VM +1) zählt in keinem der beiden Würfe" in str(plan.res)
    shielded = adz.combat.kampfplan(ork(), armed, verteidigung="parade")     # one weapon and the shield: VM +3 − 1
    assert (shielded.verteidigung, shielded.verteidigung2) == (15, None)


# -- ranged -----------------------------------------------------------------------------------
@pytest.mark.parametrize("distanz, groesse, mw", [(12, None, 1), (13, None, 2), (50, None, 3), (100, "klein", 5),
                                                  (30, "riesig", 1), (5, "winzig", 3)])
def test_ranged_mindestwurf_by_distance_and_size(distanz, groesse, mw):
    plan = adz.combat.kampfplan(alrik(), ork(), waffe="Kurzbogen", distanz=distanz, groesse=groesse)
    assert plan.mw == mw and plan.angriff == 3 + 4 - 1   # FF + Bögen − AM


def test_ranged_range_and_size_from_the_sheet():
    with pytest.raises(adz.AdzError, match="höchstens 100 m"):
        adz.combat.kampfplan(alrik(), ork(), waffe="Kurzbogen", distanz=101)
    assert adz.combat.kampfplan(alrik(), ork(sheet={"groesse": "groß"}), waffe="Kurzbogen", entfernung="weit").mw == 3
    with pytest.raises(adz.AdzError, match="Wie weit"):
        adz.combat.kampfplan(alrik(), ork(), waffe="Kurzbogen")


# -- previews against icepool -----------------------------------------------------------------
def ice_chain(na, nd, gs, rs, nr, mw=1, na2=None):
    A = ice_successes(na) if na2 is None else icepool.map(lambda x, y: max(x, y), ice_successes(na), ice_successes(na2))

    def final(a, d, r):
        if a < mw or a - d < 1:
            return 0
        return max(0, max(0, gs + a - d - rs) - r)
    return icepool.map(final, A, ice_successes(nd), ice_successes(nr))


@settings(max_examples=40)
@given(st.integers(0, 12), st.integers(0, 10), st.integers(0, 8), st.integers(0, 6), st.integers(0, 6),
       st.integers(1, 3))
def test_chain_distribution_equals_icepool(na, nd, gs, rs, nr, mw):
    mine = kette(erfolge_dist(na), erfolge_dist(nd), gs, rs, erfolge_dist(nr), mw)
    assert close(mine, ice_chain(na, nd, gs, rs, nr, mw))


def test_chain_with_two_weapons_and_luck_equals_icepool():
    assert close(kette(angriff_dist(8, 5), erfolge_dist(6), 4, 1, erfolge_dist(4)), ice_chain(8, 6, 4, 1, 4, na2=5))
    lucky = angriff_dist(8, None, 3)
    assert close(kette(lucky, erfolge_dist(6), 4, 1, erfolge_dist(4)), ice_chain(11, 6, 4, 1, 4))


def test_attack_preview_of_the_plan():
    plan = adz.combat.kampfplan(alrik(), ork())
    p = plan.res.preview
    assert close(p["schaden"], ice_chain(10, 8, 5, 0, 5))
    hit = icepool.map(lambda a, d: a - d >= 1, ice_successes(10), ice_successes(8))
    assert p["p_trifft"] == pytest.approx(hit.probability(True), abs=1e-12)
    assert close(p["schaden_mit_glück"], ice_chain(13, 8, 5, 0, 5))
    assert p_treffer(erfolge_dist(2), erfolge_dist(0), 3) == 0.0


# -- luck in the chain --------------------------------------------------------------------------
def test_luck_turns_a_miss_into_a_hit_and_the_defence_follows():
    first = [1] * 10
    opened = adz.combat.angriff(alrik(), ork(luck=0), Roller(dice=first))
    assert opened.open and opened.choices[0].options == ("angriff",)
    # luck: 3 dice, two successes; then the defence (8 dice, none) and resistance (5 dice, none)
    dice = first + [6, 5, 1] + [1] * 8 + [1] * 5
    res = adz.combat.angriff(alrik(), ork(luck=0), Roller(dice=dice), glueck=[{"figures": ["Alrik"], "wurf": "angriff"}])
    assert res.outcome["treffer"] and res.outcome["schaden"] == 5 + 2
    assert ("Alrik", "Glückspool", -1) in {(e.figure, e.resource, e.by) for e in res.effects}


def test_the_defender_may_spend_luck_on_defence_or_resistance():
    dice = [6, 6, 5, 5] + [1] * 6 + [5] + [1] * 7 + [6] + [1] * 4
    opened = adz.combat.angriff(alrik(luck=0), ork(luck=2), Roller(dice=dice))
    assert opened.choices[0].who == ("Ork",) and opened.choices[0].options == ("verteidigung", "widerstand")
    with pytest.raises(adz.AdzError, match="Für welchen Wurf"):
        adz.combat.angriff(alrik(luck=0), ork(luck=2), Roller(dice=dice + [1, 1]), glueck=[{"figures": ["Ork"]}])
    res = adz.combat.angriff(alrik(luck=0), ork(luck=2), Roller(dice=dice + [6, 6]),
                      glueck=[{"figures": ["Ork"], "wurf": "widerstand"}])
    assert res.outcome["widerstand"] == 3 and res.outcome["schaden"] == 8 - 3


# -- initiative ----------------------------------------------------------------------------------
#: rules for the luck pool after an attack's rolls (the roll it goes on, from hit, damage, defended): the
#: tactics', always on the attack (after a hit too: the damage grows past the resistance already rolled),
#: always on the defence, always on the resistance, never
GLUECKSREGELN = {
    "taktik": rpgkernel.rules.get("adz").tactics.glueck_wurf,
    "angriff": lambda treffer, schaden, verteidigt: "angriff",
    "verteidigung": lambda treffer, schaden, verteidigt: "verteidigung",
    "widerstand": lambda treffer, schaden, verteidigt: "widerstand",
    "nie": lambda treffer, schaden, verteidigt: None,
}


@pytest.mark.parametrize("regel", GLUECKSREGELN)
@pytest.mark.parametrize("luck_a, luck_v, mw", [(2, 1, 1), (1, 2, 2)])
def test_every_end_of_an_attack_with_a_luck_rule_as_the_procedure_plays_it(regel, luck_a, luck_v, mw,
                                                                           resolutions_speak_german):
    """``exact.ausgaenge`` against ``angriff`` with every way its dice fall (a W6 as a success or not),
    the luck pool spent as the rule names after the rolls (where it is offered to one with luck), then run
    again with the same dice: the final damage, whether the target defended, the roll luck went on. Two
    attack dice, GS 2; one defence die, RS 1 and three resistance dice: often more than the damage."""
    a = figure("Alrik", KK=1, fertigkeiten=["Schwerter 1"], waffen=["Kurzschwert (Schwerter, KK, GS 2)"],
               luck=luck_a)
    v = figure("Ork", GE=1, KO=3, ausruestung=["Wams (RS 1)"], luck=luck_v)
    rule = GLUECKSREGELN[regel]

    def run(dice):
        res = adz.combat.angriff(a, v, Roller(dice=dice), mw=mw)
        o = res.outcome
        roll = rule(o["treffer"], o["schaden"], o["verteidigung"] is not None)
        who = a.name if roll == "angriff" else v.name
        luck = next((c for c in res.choices if c.key == "glück"), None)
        taken = luck is not None and who in luck.who and roll in luck.options
        res = adz.combat.angriff(a, v, Roller(dice=dice), mw=mw, glueck=[{"figures": [who], "wurf": roll}] if taken else [])
        reacted = any(e.condition == "Reaktionen: 1" for e in res.effects)
        return res.outcome["schaden"], reacted, roll if taken else None

    expected: dict = {}
    for p, end in leaves(run, faces=lambda sides: [(1, 2 / 3), (5, 1 / 3)]):
        expected[end] = expected.get(end, 0.0) + p
    plan = adz.combat.kampfplan(a, v, mw=mw)
    got = ausgaenge(erfolge_dist(plan.angriff), erfolge_dist(plan.verteidigung), plan.waffe.grundschaden, plan.rs,
                    erfolge_dist(plan.widerstand), mw, rule,
                    {"angriff": luck_a, "verteidigung": luck_v, "widerstand": luck_v})
    assert set(got) == set(expected)
    assert all(got[k] == pytest.approx(q, abs=1e-12) for k, q in expected.items())
    resolutions_speak_german.clear()   # the brute force's runs are never shown


def test_initiative_base_and_ties():
    a = alrik()                               # (IN 5 + Reflexe 3) × 2 = 16
    b = figure("Betty", IN=7)                 # (7 + 0) × 2 = 14
    c = figure("Ork", initiativebasis=12)
    assert [adz.combat.initiativebasis(x) for x in (a, b, c)] == [16, 14, 12]
    # 2W6: Alrik 1+1 = 18, Betty 2+2 = 18, Ork 6+6 = 24; tie: W6 Alrik 3, Betty 3, again 2, 5
    res = adz.combat.initiative([a, b, c], Roller(dice=[1, 1, 2, 2, 6, 6, 3, 3, 2, 5]))
    assert res.outcome["reihenfolge"] == ["Ork", "Betty", "Alrik"]
    assert res.outcome["initiative"] == {"Alrik": 18, "Betty": 18, "Ork": 24}
    res = adz.combat.initiative([c], Roller(dice=[3, 3]), modifikator=-4)
    assert res.outcome["initiative"] == {"Ork": 14}


def test_an_encounter_rolls_2w6_plus_the_base(tmp_path):
    camp = Campaign.open(tmp_path / "init.sqlite")
    camp.set_ruleset("adz")
    statblocks.load(camp, """
begegnung:
  name: Hohlweg
  teilnehmer:
    - name: Alrik
      werte: {KK: 5, KO: 4, GE: 6, FF: 3, KL: 3, WK: 4, IN: 5, CH: 2, GL: 3, fertigkeiten: ["Reflexe 3"]}
    - name: Ork
      werte: {KK: 6, KO: 5, GE: 4, FF: 2, KL: 2, WK: 3, IN: 3, CH: 1, GL: 1, initiativebasis: 30}
""")
    engine = rpgkernel.rules.get("adz")
    assert engine.initiative.expression(view(camp.figure("Alrik").record)) == "2W6+16"
    assert engine.initiative.expression(view(camp.figure("Ork").record)) == "2W6+30"
    assert camp.encounter.start(rolls={"Alrik": 25, "Ork": 33}) == ["Ork", "Alrik"]
    rolled = [e for e in camp.journal() if e.kind == "initiative"][-1].data["rolls"]
    assert rolled == {"Alrik": 25, "Ork": 33}
    camp.close()


def test_initiative_ties_are_rolled_off_with_the_session_dice():
    rpgkernel.session.current().reseed(5)
    engine = rpgkernel.rules.get("adz")
    first = engine.initiative.order({n: view({"name": n}) for n in "ABC"}, {"A": 20, "B": 20, "C": 21})
    rpgkernel.session.current().reseed(5)
    assert engine.initiative.order({n: view({"name": n}) for n in "ABC"}, {"A": 20, "B": 20, "C": 21}) == first
    assert first[0] == "C" and sorted(first[1:]) == ["A", "B"]
    rpgkernel.session.current().reseed(None)


def test_attack_through_resolve_with_preview(tmp_path):
    camp = Campaign.open(tmp_path / "a.sqlite")
    camp.set_ruleset("adz")
    camp.add_character("Alrik", dict(alrik().sheet))
    camp.add_character("Ork", dict(ork().sheet))
    pre = rpgkernel.resolve("angriff Alrik -> Ork verteidigung=parade", campaign=camp, preview=True)
    assert set(pre.preview) >= {"p_trifft", "schaden", "schaden_mit_glück"}
    dice = [6, 6, 5, 5] + [1] * 6 + [5] + [1] * 7 + [6] + [1] * 4
    asked = rpgkernel.resolve("attack Alrik -> Ork", campaign=camp, dice=dice[:10])   # the Ork decides
    assert [c.key for c in asked.choices] == ["verteidigen"] and asked.outcome == {"angriff": 4}
    opened = rpgkernel.resolve("defend Ork", campaign=camp, dice=dice[10:])
    assert [c.key for c in opened.choices] == ["glück"]
    res = rpgkernel.resolve("verzicht Alrik", campaign=camp)
    assert res.outcome["schaden"] == 7 and camp.figure("Ork").resources["körperlich"]["value"] == 5
    assert "Reaktionen: 1" in camp.figure("Ork").conditions
    camp.close()


@settings(max_examples=60)
@given(st.lists(st.integers(1, 6), min_size=10, max_size=10), st.lists(st.integers(1, 6), min_size=8, max_size=8),
       st.lists(st.integers(1, 6), min_size=5, max_size=5), st.integers(1, 3))
def test_the_procedure_follows_the_distribution_s_rule(a_faces, d_faces, r_faces, mw):
    """Every roll of the chain lands where ``kette`` puts its probability."""
    count = lambda faces: sum(f >= 5 for f in faces)  # noqa: E731
    a, d, r = count(a_faces), count(d_faces), count(r_faces)
    left = a - d if a >= mw else 0
    before = max(0, 5 + left) if left >= 1 else 0     # Langschwert GS 5, the Ork has RS 0
    dice = a_faces + (d_faces if a >= mw else []) + (r_faces if before > 0 else [])
    res = adz.combat.angriff(alrik(luck=0), ork(luck=0), Roller(dice=dice), mw=mw)
    final = max(0, before - r) if before else 0
    assert res.outcome["schaden"] == final
    assert kette(erfolge_dist(10), erfolge_dist(8), 5, 0, erfolge_dist(5), mw).p_exactly(final) > 0


def test_initiative_ties_are_rolled_off_with_given_dice_when_the_encounter_starts(tmp_path):
    """Physical dice: 2W6 per figure, then the W6 of the roll-off, all from the table."""
    camp = rpgkernel.Campaign.open(tmp_path / "k.sqlite")
    camp.set_ruleset("adz")
    enc = camp.new_encounter("Brücke")
    sheet = {k: 3 for k in ("KK", "KO", "GE", "FF", "KL", "WK", "IN", "CH", "GL")}
    for name in ("A", "B", "C"):
        enc.add(name, sheet=sheet)
    base = rpgkernel.rules.adz.initiativebasis(view({"name": "A", "sheet": sheet}))
    # A and B tie on 2W6 = 7, C has 9; the roll-off: A 2, B 5
    assert enc.start(dice=[3, 4, 5, 2, 4, 5, 2, 5]) == ["C", "B", "A"]
    rolls = camp.journal(kind="initiative")[-1].data["rolls"]
    assert rolls["A"]["total"] == rolls["B"]["total"] == 7 + base and rolls["C"]["total"] == 9 + base
    with pytest.raises(rpgkernel.GivenDiceError):      # the roll-off needs two more dice
        enc.next_round(new_initiative=True, dice=[3, 4, 5, 2, 4, 5])
    camp.close()
