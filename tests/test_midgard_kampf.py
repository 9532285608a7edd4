"""Midgard combat: attacks and defences, AP/LP loss, several defences, damage bonus dice,
initiative with a leader, divine grace in a fight; previews against icepool."""

import itertools
from pathlib import Path

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rpgkernel
from rpgkernel import Campaign, rules
from rpgkernel.dice import Roller
from rpgkernel.errors import ResolveError
from rpgkernel.rules import midgard
from rpgkernel.rules.midgard import (
    abwehr_wm,
    angriff,
    angriff_vorschau,
    ap_verlust_leicht,
    initiative,
    reihenfolge_vorschau,
    verlust_schwer,
)

BEISPIEL = Path(midgard.__file__).with_name("data") / "beispiel_spielleitung.yaml"


def fig(name, resources=None, conditions=None, side="", **sheet):
    return {"name": name, "sheet": sheet, "side": side, "conditions": conditions or {},
            "resources": {k: {"value": v, "max": v} for k, v in (resources or {}).items()}}


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
def tabellen():
    midgard.einrichten(BEISPIEL)
    yield
    midgard.einrichten()


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
    res = angriff(strong, ELF, Roller(dice=[15, 2, 3, 4]))        # W6 3 + W4 4
    assert res.outcome["schaden"] == 7 and "W6+W4" in repr(res)
    weak = fig("Zwerg", waffen=["Dolch +5 (W6)"], schb=-2)
    res = angriff(weak, ELF, Roller(dice=[19, 2, 1]))
    assert res.outcome["schaden"] == 0 and "max(0, W6-2)" in repr(res)
    midgard.einrichten()
    with pytest.raises(midgard.MidgardError, match="Die Tabelle 'schadensbonus' fehlt"):
        angriff(strong, ELF, Roller(dice=[15, 2, 3, 4]))


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


# -- initiative ----------------------------------------------------------------------------------
GROUP = [fig("Anführer", side="Helden", rw=62, kampftaktik=2), fig("Franz", side="Helden", rw=45, kampftaktik=1),
         fig("Fritz", side="Helden", rw=78), fig("Ork", side="Orks", rw=50, rw_ruestung=-20)]


def test_followers_by_side_or_named():
    from rpgkernel.rules.midgard.initiative import gruppen
    assert gruppen(GROUP, ["Anführer"]) == [("Anführer", ["Anführer", "Franz", "Fritz"]), ("Ork", ["Ork"])]
    assert gruppen(GROUP, ["Anführer"], eigene=["Franz"])[1] == ("Franz", ["Franz"])
    assert gruppen(GROUP, ["Anführer"], folgen=["Ork"]) == [("Anführer", ["Anführer", "Ork"]), ("Franz", ["Franz"]),
                                                            ("Fritz", ["Fritz"])]


def test_individual_initiative():
    res = initiative(GROUP, Roller(dice=[3, 4, 5, 6]))
    assert res.outcome["initiative"] == {"Anführer": 6 + 2 + 3, "Franz": 4 + 1 + 4, "Fritz": 7 + 5, "Ork": 3 + 6}
    assert res.outcome["reihenfolge"] == ["Fritz", "Anführer", "Franz", "Ork"]


def test_leader_rolls_once_for_those_who_follow():
    res = initiative(GROUP, Roller(dice=[4, 5, 1]), anfuehrer=["Anführer"], eigene=["Franz"])
    # Anführer: W6 4 + KT 2 = 6 passed on; Fritz 7 + 6 = 13; Franz rolls himself 4 + 1 + 5; Ork 3 + 1
    assert res.outcome["initiative"] == {"Anführer": 12, "Fritz": 13, "Franz": 10, "Ork": 4}
    with pytest.raises(midgard.MidgardError, match="Kampftaktik \\+1"):
        initiative(GROUP, Roller(dice=[4]), anfuehrer=["Fritz"])


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
    assert engine.initiative_expression(camp.figure("Wolfgang Krentz").record) == "W6+8"
    assert enc.start(dice=[1, 2]) == ["Schattenelf", "Wolfgang Krentz"]      # 9 against 10
    camp.add_character("Knappe", {"rw": 30})
    res = rpgkernel.resolve('initiative "Wolfgang Krentz", Knappe, Schattenelf anführer="Wolfgang Krentz" '
                            'folgen=Knappe', campaign=camp, dice=[6, 1])
    assert res.outcome["initiative"] == {"Wolfgang Krentz": 14, "Knappe": 11, "Schattenelf": 9}
    with pytest.raises(ResolveError, match="Schattenelf kann nicht anführen"):
        rpgkernel.resolve("initiative Schattenelf anführer=Schattenelf", campaign=camp, dice=[6])


def test_the_encounter_panel_shows_bars_conditions_and_the_grace_choice(camp):
    from rpgkernel.widgets.panel_data import pending_list, rows, rules_info
    camp.set_sheet("Schattenelf", {**camp.figure("Schattenelf").sheet, "gg": 1})
    enc = camp.new_encounter("Gasse")
    enc.add("Wolfgang Krentz", side="Helden", character="Wolfgang Krentz")
    enc.add("Schattenelf", side="Schatten", character="Schattenelf")
    enc.start(order=["Wolfgang Krentz", "Schattenelf"])
    rpgkernel.resolve('angriff "Wolfgang Krentz" -> Schattenelf', campaign=camp, dice=[13])
    engine = rules.get("midgard")
    info = rules_info(engine)
    assert "gnade" not in [v["name"] for v in info["verbs"]] and "volle Abwehr" in info["conditions"]
    assert ["AP", 25, 25] in rows(camp.state, camp.state["encounters"]["Gasse"], engine)[1]["res"]
    [pending] = pending_list(camp.state, engine)
    assert [c["verb"] for c in pending["choices"]] == ["gnade"]          # the marker has no verb: not shown
    assert pending["choices"][0]["who"] == ["Schattenelf"]


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
