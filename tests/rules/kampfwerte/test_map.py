"""The Kampfwerte hex map: distances and bounds, Dijkstra costs by hand and against brute force, obstacles,
riding range, the map kept in the campaign (seed: Bewegungskosten)."""

from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

import rpgkernel
from rpgkernel import Campaign
from rpgkernel.errors import RpgError
from rpgkernel.rules.kampfwerte import HexKarte, KampfwerteError, karte_setzen
from rpgkernel.rules.kampfwerte.map import abstand
from rpgkernel.rules.kampfwerte.bewegung import art

from .test_sheet import KAEL


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
