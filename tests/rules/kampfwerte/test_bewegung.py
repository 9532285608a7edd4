"""Kampfwerte: sheet, resources, INI and BP, initiative order and ties, the W10 test (checked
against icepool), the hex map (Dijkstra costs by hand), moves through %%resolve and a campaign."""

import subprocess
import sys
from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings, strategies as st

import rpgkernel
from rpgkernel import Campaign
from rpgkernel.dice import Roller
from rpgkernel.errors import RpgError
from rpgkernel.resolve.language import parse
from rpgkernel.rules import get
from rpgkernel.rules.figure import view
from rpgkernel.rules.kampfwerte import (EINSTELLUNGEN, HexKarte, KampfwerteError, abstand, bewegungspunkte,
                                        einrichten, erfolge_dist, erreichbar, initiativewert, karte_aus,
                                        karte_setzen, p_gelingt, p_vor, wuerfeln)
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
    lava = HexKarte(3, 3, {(0, 0): "Lava"})  # terrain is checked against the rule data in force
    with pytest.raises(KampfwerteError, match="Unbekanntes Gelände „Lava“"):
        lava.pruefe_gelaende()
    with pytest.raises(KampfwerteError, match="Lava"):
        lava.erreichbar((1, 1), art("Gehen"), 3)


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
    c = Campaign.open(tmp_path / "k.sqlite")
    c.set_ruleset("kampfwerte")
    enc = c.new_encounter("Gefecht")
    karte_setzen(enc, HexKarte(8, 8, {(2, 0): "Bewuchs"}, {(0, 3)}))
    enc.add("Kael", sheet=KAEL, side="Spieler")
    enc.add("Ork", sheet=ORK)
    rpgkernel.resolve("platziere Kael auf=(0,0)\nplatziere Ork auf=(4,1)", campaign=c)
    yield c
    c.close()


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
    a = view({"name": "A", "sheet": {**KAEL, "AUFMERKSAMKEIT": auf_a, "GEWANDTHEIT": gew, "spielercharakter": pc},
              "conditions": {f"Initiative +{bonus}": {}} if bonus else {}})
    b = view({"name": "B", "sheet": {**ORK, "AUFMERKSAMKEIT": auf_b, "ini_mod": mod}, "conditions": {}})
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


# -- fields written q,r; the map in the campaign ----------------------------------------------

def test_field_as_a_bare_pair_of_integers(camp):
    """``nach=3,0`` reads as one field (a comma between two integers); the same move as ``nach=(3,0)``."""
    [cmd] = parse("bewege Kael nach=3,0 art=Gehen")
    assert cmd.options["nach"].text == "3,0" and cmd.options["art"].text == "Gehen"
    assert parse("bewege Kael nach=-1,2")[0].options["nach"].text == "-1,2"
    res = rpgkernel.resolve("bewege Kael nach=3,0", campaign=camp)
    assert res.outcome["nach"] == [3, 0] and res.outcome["kosten"] == "4"
    rpgkernel.resolve("platziere Ork auf=-1,2", campaign=camp)
    assert "Feld -1,2" in camp.figure("Ork").conditions
    # commas still separate names everywhere else
    assert [a.text for a in parse("bp Kael, Ork")[0].actors] == ["Kael", "Ork"]


@pytest.mark.parametrize("line, message", [
    ("bewege Kael nach=3,x", "nach=3,x: Ein Komma im Wert verbindet nur zwei ganze Zahlen"),
    ("bewege Kael nach=3,", "nach=3,: Ein Komma im Wert verbindet nur zwei ganze Zahlen"),
    ("bewege Kael nach=3,2,1", "nach=3,2,1: Ein Komma im Wert verbindet nur zwei ganze Zahlen"),
    ("bewege Kael nach=3;2", "„3;2“ ist kein Feld; so schreibt man eines: q,r"),
    ("bewege Kael nach=drei,2", "',' gehört hier nicht hin"),
    ("bewege Kael nach=(3,x)", "„(3,x)“ ist kein Feld"),
])
def test_bad_fields_are_refused_in_german_and_write_nothing(camp, line, message):
    seq = camp.state["seq"]
    with pytest.raises(RpgError) as info:
        rpgkernel.resolve(line, campaign=camp)
    assert message in str(info.value)
    assert camp.state["seq"] == seq and "Feld 0,0" in camp.figure("Kael").conditions


def test_map_is_campaign_data_read_after_reopen(tmp_path):
    path = tmp_path / "k.sqlite"
    with Campaign.open(path) as c:
        c.set_ruleset("kampfwerte")
        enc = c.new_encounter("Gefecht")
        enc.add("Kael", sheet=KAEL, side="Spieler")
        with pytest.raises(RpgError, match="keine Hexkarte"):
            rpgkernel.resolve("platziere Kael auf=0,0", campaign=c)
        with pytest.raises(KampfwerteError, match="keine Hexkarte"):  # checked before it is stored
            karte_setzen(enc, {"breite": 4})
        with pytest.raises(KampfwerteError, match="Gelände"):
            karte_setzen(enc, {"breite": 4, "hoehe": 1, "gelaende": [[0, 0, "Lava"]]})
        assert enc.data("karte") is None
        karte_setzen(enc, {"breite": 4, "hoehe": 1, "gelaende": [[1, 0, "Wasser"]], "hindernisse": [[3, 0]]})
        rpgkernel.resolve("platziere Kael auf=0,0", campaign=c)
    with Campaign.open(path) as again:
        # Wasser x3 on (1,0), then (2,0) 1: 4 BP; the obstacle (3,0) takes all 7
        res = rpgkernel.resolve("bewege Kael nach=2,0", campaign=again)
        assert res.outcome["weg"] == [[0, 0], [1, 0], [2, 0]] and res.outcome["kosten"] == "4"
        assert again.figure("Kael").resources["BP"]["value"] == 3
        with pytest.raises(RpgError, match="nicht auf der Karte"):
            rpgkernel.resolve("bewege Kael nach=4,0", campaign=again)


def test_gm_rule_data_in_the_campaign_survives_reopen(tmp_path):
    """The GM's terrain table (not in the seed: "x BP pro Feld") and other rule sections are kept in
    the campaign and are in force for its procedures only."""
    path = tmp_path / "k.sqlite"
    lava = HexKarte(5, 1, {(1, 0): "Lava"})
    with Campaign.open(path) as c:
        c.set_ruleset("kampfwerte")
        enc = c.new_encounter("Gefecht")
        enc.add("Kael", sheet=KAEL, side="Spieler")
        with pytest.raises(KampfwerteError, match="Unbekanntes Gelände „Lava“"):
            karte_setzen(enc, lava)
        with pytest.raises(KampfwerteError, match="Kampfwerte-Daten"):  # checked before it is stored
            einrichten(regeln={"rundumschlag_kosten": "beides"}, kampagne=c)
        assert c.data("kampfwerte") is None
        einrichten(regeln={"gelaende": {"frei": 1, "Lava": 4}, "wuchtschlag_parade": {1: 7, 2: 7, 3: 8, 4: 8, 5: 9}},
                   kampagne=c)
        assert c.data("kampfwerte")["regeln"]["wuchtschlag_parade"]["1"] == 7  # JSON: text keys
        karte_setzen(enc, lava)
        rpgkernel.resolve("platziere Kael auf=0,0", campaign=c)
    assert "Lava" not in EINSTELLUNGEN.defaults().gelaende  # a direct call: the shipped defaults
    with Campaign.open(path) as again:
        res = rpgkernel.resolve("bewege Kael nach=2,0", campaign=again)
        assert res.outcome["kosten"] == "5"  # Lava x4 + 1
        again.set_data("kampfwerte", None)  # back to the defaults: the map's Lava is unknown now
        with pytest.raises(RpgError, match="Unbekanntes Gelände „Lava“"):
            rpgkernel.resolve("bewege Kael nach=1,0", campaign=again)


def _probe_regeln(schwierigkeit, mindest_erfolge):
    return {"probe": {"schwierigkeit": schwierigkeit, "mindest_erfolge": mindest_erfolge}}


def test_two_campaigns_in_one_process_keep_their_own_settings(tmp_path):
    """Each campaign's %%resolve lines (and previews) use the settings kept in that campaign, an
    encounter's over its campaign's, however the lines interleave; a direct call the defaults."""
    eins, zwei = Campaign.open(tmp_path / "eins.sqlite"), Campaign.open(tmp_path / "zwei.sqlite")
    try:
        for c in (eins, zwei):
            c.set_ruleset("kampfwerte")
            c.new_encounter("Gefecht").add("Kael", sheet=KAEL, side="Spieler")
        einrichten(regeln=_probe_regeln(5, 1), kampagne=eins)
        einrichten(regeln=_probe_regeln(9, 2), kampagne=zwei)
        line, dice = "probe Kael talent=HEIMLICHKEIT", [9, 5, 2, 2]   # 4 W10: 2 successes against 5, 1 against 9
        for c, sw, erfolge, gelungen in ((eins, 5, 2, True), (zwei, 9, 1, False), (eins, 5, 2, True)):
            res = rpgkernel.resolve(line, campaign=c, dice=dice)
            assert res.outcome == {"erfolge": erfolge, "gelungen": gelungen}
            assert f"4W10 gegen {sw}," in res.steps[0].text
            assert rpgkernel.resolve(line, campaign=c, preview=True).preview == erfolge_dist(4, sw)
            assert EINSTELLUNGEN.kept_in(c).schwierigkeit == sw
        einrichten(regeln=_probe_regeln(3, 1), kampagne=eins, begegnung="Gefecht")
        assert rpgkernel.resolve(line, campaign=eins, dice=[3, 2, 2, 2]).outcome["gelungen"]
        assert rpgkernel.resolve(line, campaign=zwei, dice=[3, 2, 2, 2]).outcome == {"erfolge": 0, "gelungen": False}
        einrichten(kampagne=eins, begegnung="Gefecht")            # the encounter's go: the campaign's hold again
        assert EINSTELLUNGEN.kept_in(eins, "Gefecht").schwierigkeit == 5
        assert EINSTELLUNGEN.kept_in(zwei, "Gefecht").schwierigkeit == 9
        assert wuerfeln(4, Roller(dice=dice)).schwierigkeit == 7   # a direct call: the shipped defaults
    finally:
        eins.close()
        zwei.close()


def test_einrichten_checks_everything_first_and_none_goes_back_to_the_defaults(tmp_path):
    regeln = tmp_path / "regeln.yaml"
    regeln.write_text("gelaende: {frei: 1, Lava: 4}\nwuchtschlag_parade: {1: 7, 2: 7, 3: 8, 4: 8, 5: 9}\n",
                      encoding="utf-8")
    assert einrichten(regeln).gelaende == {"frei": 1, "Lava": 4}      # without a campaign: only checked
    with Campaign.open(tmp_path / "k.sqlite") as c:
        c.set_ruleset("kampfwerte")
        c.new_encounter("Gefecht").add("Kael", sheet=KAEL, side="Spieler")
        kept = einrichten(regeln, kampagne=c)                          # a YAML file, kept as JSON
        assert kept.wuchtschlag_parade[1] == 7 and c.data("kampfwerte")["regeln"]["wuchtschlag_parade"]["1"] == 7
        for bad, detail in (({"gelande": {"Lava": 4}}, "gelande"),    # a section regeln.yaml does not have
                            ({"probe": {"schwierigkeit": 0, "mindest_erfolge": 2}}, "probe"),
                            ({"bewegungsarten": {"Fliegen": {"kosten": "0"}}}, "bewegungsarten"),
                            ({"gelaende": {"Lava": (4,)}}, "gelaende")):
            with pytest.raises(KampfwerteError, match=rf"passen nicht \({detail}\)"):
                einrichten(bad, kampagne=c)
        with pytest.raises(KampfwerteError, match=r"\(manoever\)"):
            einrichten(manoever={"Finte": {"ziele": "eins"}}, kampagne=c)   # an entry without its cost
        with pytest.raises(KampfwerteError, match="lässt sich nicht lesen"):
            einrichten(tmp_path / "fehlt.yaml", kampagne=c)
        assert EINSTELLUNGEN.kept_in(c).gelaende == {"frei": 1, "Lava": 4}   # nothing kept from a bad call
        c.set_data("kampfwerte", {"regel": {}})                             # set by hand, misspelt
        with pytest.raises(RpgError, match=r"passen nicht \(regel\)"):
            rpgkernel.resolve("probe Kael talent=INSTINKT", campaign=c)
        einrichten(kampagne=c)
        assert c.data("kampfwerte") is None and EINSTELLUNGEN.kept_in(c) is EINSTELLUNGEN.defaults()


def test_a_rolled_test_answers_by_the_settings_it_was_rolled_with():
    """``Wurf.gelungen`` keeps the needed successes of the rule data it was rolled with."""
    einer = einrichten(regeln=_probe_regeln(7, 1))
    w = wuerfeln(2, Roller(dice=[7, 2]), daten=einer)        # 1 success
    assert (w.erfolge, w.mindest_erfolge, w.gelungen) == (1, 1, True)
    assert not wuerfeln(2, Roller(dice=[7, 2])).gelungen     # the defaults need 2
    assert p_gelingt(1, daten=einer) == pytest.approx(0.4, abs=1e-12) and p_gelingt(1) == pytest.approx(0.1)


def test_the_rule_data_is_checked_under_python_optimisations(tmp_path):
    """The checks are no ``assert``s, which ``python -O`` drops."""
    code = ("from rpgkernel.rules.kampfwerte import einrichten, KampfwerteError\n"
            "try:\n    einrichten({'probe': {'schwierigkeit': 0, 'mindest_erfolge': 2}})\n"
            "except KampfwerteError as err:\n    print(err)\n")
    out = subprocess.run([sys.executable, "-O", "-c", code], capture_output=True, text=True, timeout=120)
    assert "passen nicht (probe)" in out.stdout, out.stderr


RIN = {"AUFMERKSAMKEIT": 3, "GEWANDTHEIT": 4, "INSTINKT": 3, "HEIMLICHKEIT": 3, "AD": 8, "LP": 12,
       "mod_klettern": 1, "mod_schwimmen": -1, "ruestungsmalus_heimlichkeit": -2, "mod_reiten": 2, "reittier_stufe": 2}


@pytest.mark.parametrize("art, extra, dice, test, cost, spent", [
    # Bewegungskosten table: BP per field, the talent tested and its modifier; Rin has BP 4 + 2 = 6
    ("Klettern", "", [8, 8, 2, 2, 2], "GEWANDTHEIT: 5W10 gegen 7", "2", 2),
    ("Schwimmen", " schwierigkeit=8", [8, 9, 2], "GEWANDTHEIT: 3W10 gegen 8", "3", 3),  # currents: harder
    ("Kriechen", "", [10], "HEIMLICHKEIT: 1W10 gegen 7", "4", 4),              # armour malus -2
    ("Reiten", "", [8, 8, 2, 2, 2, 2], "GEWANDTHEIT: 6W10 gegen 7", "1/2", 1),  # a fraction counts in full
])
def test_each_movement_type_costs_and_tests(camp, art, extra, dice, test, cost, spent):
    camp.encounter.add("Rin", sheet=RIN)
    rpgkernel.resolve("platziere Rin auf=0,5", campaign=camp)
    res = rpgkernel.resolve(f"bewege Rin nach=1,5 art={art}{extra}", campaign=camp, dice=dice)
    assert res.outcome["gelungen"] and res.outcome["kosten"] == cost
    assert any(s.text.startswith(f"Probe auf {test}, 2 Erfolge") for s in res.steps)
    assert camp.figure("Rin").resources["BP"]["value"] == 6 - spent


def test_riding_range_on_the_map_with_the_mount_level(camp):
    camp.encounter.add("Rin", sheet=RIN)
    rpgkernel.resolve("platziere Rin auf=0,4", campaign=camp)
    # BP 6, Reittier-Stufe 2: 2 x 6 + 2 = 14 fields; the 8-wide row 4 ends at (5,4) after 5 fields
    rec, k = view(camp.figure("Rin").record), karte_aus({"karte": camp.encounter.data("karte")})
    reach = erreichbar(rec, k, "Reiten")
    assert reach[(5, 4)] == Fraction(5, 2) and max(reach.values()) <= 7
    assert len(reach) > len(erreichbar(rec, k, "Gehen"))
