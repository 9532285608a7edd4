"""Kampfwerte: sheet, resources, INI and BP, initiative order and ties, the W10 test (checked
against icepool), the hex map (Dijkstra costs by hand), moves through %%resolve and a campaign."""

from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings, strategies as st

import rpgkernel
from rpgkernel import Campaign
from rpgkernel.errors import RpgError
from rpgkernel.rules import get
from rpgkernel.rules.kampfwerte import (HexKarte, KampfwerteError, abstand, bewegungspunkte, erfolge_dist,
                                        initiativewert, p_gelingt, p_vor, use_karte)
from rpgkernel.rules.kampfwerte.bewegung import art
from rpgkernel.rules.sheet import SheetError

KAEL = {"AUFMERKSAMKEIT": 4, "GEWANDTHEIT": 5, "INSTINKT": 3, "HEIMLICHKEIT": 4, "ini_mod": 2, "bp_mod": 1,
        "ruestungsbehinderung": 1, "AD": 12, "LP": 20, "spielercharakter": True, "mod_schleichen": 1}
ORK = {"AUFMERKSAMKEIT": 3, "GEWANDTHEIT": 3, "INSTINKT": 4, "HEIMLICHKEIT": 1, "AD": 10, "LP": 25,
       "ruestungsbehinderung": 2}
ENGINE = get("kampfwerte")


def test_ini_and_bp_follow_the_seed_formulas():
    s = ENGINE.sheet.validate(KAEL)
    assert initiativewert(s) == 4 + 5 + 3 + 2 - 1
    assert bewegungspunkte(s) == 5 + 1 - 1 + 2
    res = ENGINE.resources(s)
    assert res == {"LP": {"value": 20, "max": 20}, "AD": {"value": 12, "max": 12}, "BP": {"value": 7, "max": 7}}
    assert ENGINE.initiative_expression({"sheet": s}) == "W10+13"


def test_sheet_refuses_missing_talent_and_unknown_field():
    with pytest.raises(SheetError, match="GEWANDTHEIT"):
        ENGINE.sheet.validate({k: v for k, v in KAEL.items() if k != "GEWANDTHEIT"})
    with pytest.raises(SheetError, match="AUFMERKSAMKEIT"):
        ENGINE.sheet.validate({**KAEL, "AUFMERKSAMKEITT": 3})


def _rec(sheet, side=""):
    return {"sheet": ENGINE.sheet.validate(sheet), "side": side}


def test_ties_player_first_then_aufmerksamkeit_gewandtheit_instinkt():
    npc = {**ORK, "AUFMERKSAMKEIT": 9}
    c = {"Kael": _rec(KAEL), "Ork": _rec(npc), "Goblin": _rec({**npc, "GEWANDTHEIT": 4}),
         "Wolf": _rec({**npc, "GEWANDTHEIT": 4, "INSTINKT": 5}), "Zorn": _rec(ORK)}
    rolls = {"Kael": 15, "Ork": 15, "Goblin": 15, "Wolf": 15, "Zorn": 16}
    assert ENGINE.initiative_order(c, rolls) == ["Zorn", "Kael", "Wolf", "Goblin", "Ork"]
    # side "Spieler" also marks a player character
    c2 = {"A": _rec(ORK), "B": _rec(ORK, "Spieler")}
    assert ENGINE.initiative_order(c2, {"A": 9, "B": 9}) == ["B", "A"]


def test_initiative_rolled_once_and_held(tmp_path):
    with Campaign.open(tmp_path / "k.sqlite") as camp:
        camp.set_ruleset("kampfwerte")
        enc = camp.new_encounter("Gefecht")
        enc.add("Kael", sheet=KAEL, side="Spieler")
        enc.add("Ork", sheet=ORK)
        # Kael: 13 + 2 = 15, Ork: 3+3+4-2 = 8, + 7 = 15 -> tie, the player character first
        assert enc.start(dice=[2, 7]) == ["Kael", "Ork"]
        enc.next_turn()
        enc.next_turn()
        assert enc.round == 2 and enc.order == ["Kael", "Ork"]


def _icepool_erfolge(n, sw):
    die = icepool.d10.map(lambda f: 2 if f == 10 else (-1 if f == 1 else int(f >= sw)))
    return (n @ die).map(lambda x: max(0, x))


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 12), st.integers(2, 10))
def test_successes_equal_icepool(n, sw):
    ours = erfolge_dist(n, sw).pmf()
    ref = _icepool_erfolge(n, sw) if n else icepool.Die([0])
    total = ref.denominator()
    for x in set(ours) | set(ref.outcomes()):
        assert ours.get(x, 0.0) == pytest.approx(ref.quantity(x) / total, abs=1e-12)


def test_test_by_hand_with_given_dice():
    # faces 10, 7, 1, 3: +2 +1 -1 +0 = 2 successes against 7
    from rpgkernel.dice import Roller
    from rpgkernel.rules.kampfwerte import wuerfeln
    w = wuerfeln(4, Roller(dice=[10, 7, 1, 3]))
    assert (w.erfolge, w.gelungen) == (2, True)
    w = wuerfeln(3, Roller(dice=[1, 1, 9]))
    assert (w.erfolge, w.gelungen) == (0, False)
    # P(success) of 1 die against 7: only a 0 (two successes) -> 1/10
    assert p_gelingt(1) == pytest.approx(0.1, abs=1e-12)


# -- the hex map -------------------------------------------------------------------------

def test_distance_and_bounds():
    assert abstand((0, 0), (3, -1)) == 3
    k = HexKarte(4, 3)
    assert len(k.felder()) == 12 and all(k.enthaelt(h) for h in k.felder())
    assert not k.enthaelt((-1, 0)) and k.enthaelt((-1, 2))  # row 2 is shifted: col 0 is q = -1
    with pytest.raises(KampfwerteError, match="nicht auf der Karte"):
        k.pruefe((9, 9))
    with pytest.raises(KampfwerteError, match="Gelände"):
        HexKarte(3, 3, {(0, 0): "Lava"})


def test_path_costs_by_hand():
    # a corridor along r = 0: (1,0) is Bewuchs (x2), (2,0) free; rows 1.. are Wasser (x3)
    k = HexKarte(6, 2, {(1, 0): "Bewuchs", **{h: "Wasser" for h in HexKarte(6, 2).felder() if h[1] == 1}})
    gehen, schleichen = art("Gehen"), art("Schleichen")
    reach = k.erreichbar((0, 0), gehen, 3)
    assert reach[(1, 0)] == 2 and reach[(2, 0)] == 3 and (3, 0) not in reach
    assert reach[(0, 1)] == 3 and (-1, 1) not in reach  # (-1, 1) lies off the map
    # Schleichen costs 2 per field: Bewuchs 4, with 4 BP only (1,0) and nothing in the water
    assert k.erreichbar((0, 0), schleichen, 4) == {(0, 0): 0, (1, 0): 4}
    w = k.weg((0, 0), (2, 0), gehen, 5)
    assert w.felder == [(0, 0), (1, 0), (2, 0)] and w.kosten == 3


def test_obstacle_uses_all_bp_and_ends_the_move():
    k = HexKarte(5, 1, hindernisse={(1, 0)})
    reach = k.erreichbar((0, 0), art("Gehen"), 4)
    assert reach == {(0, 0): 0, (1, 0): 4}


def test_riding_range_is_twice_bp_plus_mount_level():
    k = HexKarte(20, 1)
    a = art("Reiten")
    reach = k.erreichbar((0, 0), a, Fraction(3) + Fraction(2, 2))  # BP 3, Reittier-Stufe 2
    assert max(q for q, _ in reach) == 2 * 3 + 2
    assert reach[(3, 0)] == Fraction(3, 2)


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 8), st.integers(1, 8), st.integers(0, 12),
       st.dictionaries(st.tuples(st.integers(0, 7), st.integers(0, 7)), st.sampled_from(["frei", "Bewuchs", "Wasser"])))
def test_reachable_costs_within_bp_and_match_brute_force(w, h, bp, terrain):
    base = HexKarte(w, h)
    k = HexKarte(w, h, {x: g for x, g in terrain.items() if base.enthaelt(x)})
    start = base.felder()[0]
    reach = k.erreichbar(start, art("Gehen"), bp)
    assert all(0 <= c <= bp for c in reach.values())
    # Bellman-Ford relaxation as an independent oracle
    best = {start: 0}
    for _ in range(len(base.felder())):
        for x, c in list(best.items()):
            for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)):
                n = (x[0] + dq, x[1] + dr)
                if k.enthaelt(n):
                    nc = c + {"frei": 1, "Bewuchs": 2, "Wasser": 3}[k.gelaende.get(n, "frei")]
                    if nc < best.get(n, 10**9):
                        best[n] = nc
    assert reach == {x: c for x, c in best.items() if c <= bp}


# -- moves through %%resolve -------------------------------------------------------------

@pytest.fixture
def camp(tmp_path):
    use_karte(HexKarte(8, 8, {(2, 0): "Bewuchs"}, {(0, 3)}))
    c = Campaign.open(tmp_path / "k.sqlite")
    c.set_ruleset("kampfwerte")
    enc = c.new_encounter("Gefecht")
    enc.add("Kael", sheet=KAEL, side="Spieler")
    enc.add("Ork", sheet=ORK)
    rpgkernel.resolve("platziere Kael auf=(0,0)\nplatziere Ork auf=(4,1)", campaign=c)
    yield c
    c.close()
    use_karte(HexKarte(20, 20))


def test_move_walks_and_spends_bp(camp):
    res = rpgkernel.resolve("bewege Kael nach=(3,0)", campaign=camp)
    # (1,0) 1 + (2,0) Bewuchs 2 + (3,0) 1 = 4, or around via row 1: (0,1),(1,1),(2,1)... (3,0): 4 as well
    assert res.outcome["kosten"] == "4" and res.outcome["gelungen"]
    kael = camp.figure("Kael")
    assert "Feld 3,0" in kael.conditions and "Feld 0,0" not in kael.conditions
    assert kael.resources["BP"]["value"] == 7 - 4
    with pytest.raises(RpgError, match="erreicht Feld"):
        rpgkernel.resolve("bewege Kael nach=(7,0)", campaign=camp)
    assert camp.figure("Kael").resources["BP"]["value"] == 3
    rpgkernel.resolve("bp Kael", campaign=camp)
    assert camp.figure("Kael").resources["BP"]["value"] == 7


def test_sneaking_needs_its_test(camp):
    # pool HEIMLICHKEIT 4 + Schleichen 1 = 5 dice; faces 8,8,2,2,2 -> 2 successes
    res = rpgkernel.resolve("bewege Kael nach=(1,0) art=Schleichen", campaign=camp, dice=[8, 8, 2, 2, 2])
    assert res.outcome["gelungen"] and camp.figure("Kael").resources["BP"]["value"] == 5
    assert res.preview == pytest.approx(p_gelingt(5), abs=1e-12)
    res = rpgkernel.resolve("bewege Kael nach=(2,0) art=Schleichen", campaign=camp, dice=[1, 8, 2, 2, 2])
    assert not res.outcome["gelungen"]
    kael = camp.figure("Kael")
    assert "Feld 1,0" in kael.conditions and kael.resources["BP"]["value"] == 5


def test_move_errors_are_german_and_write_nothing(camp):
    with pytest.raises(RpgError, match="kein Feld"):
        rpgkernel.resolve("bewege Kael nach=hier", campaign=camp)
    with pytest.raises(RpgError, match="Bewegungsart"):
        rpgkernel.resolve("bewege Kael nach=(1,0) art=Fliegen", campaign=camp)
    with pytest.raises(RpgError, match="nicht auf der Karte"):
        rpgkernel.resolve("bewege Kael nach=(50,0)", campaign=camp)
    assert "Feld 0,0" in camp.figure("Kael").conditions


def test_named_figures_block_their_fields(camp):
    # Ork at (4,1); walking to it is refused when the line names the Ork
    with pytest.raises(RpgError, match="erreicht Feld"):
        rpgkernel.resolve("bewege Kael -> Ork nach=(4,1)", campaign=camp)


def _p_vor_icepool(a, b, a_wins_tie):
    diff = (icepool.d10 + a) - (icepool.d10 + b)
    total = diff.denominator()
    win = sum(diff.quantity(x) for x in diff.outcomes() if x > 0 or (x == 0 and a_wins_tie))
    return win / total


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 12), st.integers(0, 12), st.integers(0, 12), st.integers(0, 12), st.booleans(),
       st.integers(0, 4))
def test_p_vor_equals_icepool(auf_a, auf_b, gew, mod, pc, bonus):
    a = {"name": "A", "sheet": {**KAEL, "AUFMERKSAMKEIT": auf_a, "GEWANDTHEIT": gew, "spielercharakter": pc},
         "conditions": {f"Initiative +{bonus}": {}} if bonus else {}}
    b = {"name": "B", "sheet": {**ORK, "AUFMERKSAMKEIT": auf_b, "ini_mod": mod}, "conditions": {}}
    ini_a = auf_a + gew + KAEL["INSTINKT"] + KAEL.get("ini_mod", 0) - KAEL.get("ruestungsbehinderung", 0) + bonus
    ini_b = auf_b + ORK["GEWANDTHEIT"] + ORK["INSTINKT"] + mod - ORK.get("ruestungsbehinderung", 0)
    a_wins_tie = pc or (auf_a, gew, KAEL["INSTINKT"]) > (auf_b, ORK["GEWANDTHEIT"], ORK["INSTINKT"]) or (
        (auf_a, gew, KAEL["INSTINKT"]) == (auf_b, ORK["GEWANDTHEIT"], ORK["INSTINKT"]))  # then the name: "A"
    assert p_vor(a, b) == pytest.approx(_p_vor_icepool(ini_a, ini_b, a_wins_tie), abs=1e-12)
    assert p_vor(a, b) + p_vor(b, a) == pytest.approx(1.0, abs=1e-12)


def test_vor_verb_and_preview_by_enumeration():
    figs = {"Kael": {"sheet": KAEL, "side": "Spieler"}, "Ork": {"sheet": ORK}}
    wk, wo = 13, 8   # Kael 4+5+3+2-1, Ork 3+3+4-2
    # Kael acts first unless the Ork's W10 exceeds Kael's by more than 5 (a tie goes to the player character)
    p = sum(1 for x in range(1, 11) for y in range(1, 11) if x + wk >= y + wo) / 100
    assert p == 0.9
    pv = rpgkernel.resolve("vor Kael -> Ork", ruleset="kampfwerte", figures=figs, preview=True)
    assert pv.preview == pytest.approx(p, abs=1e-12)
    res = rpgkernel.resolve("vor Ork -> Kael", ruleset="kampfwerte", figures=figs)
    assert res.outcome["p_vor"] == pytest.approx(1 - p, abs=1e-12) and not res.effects
