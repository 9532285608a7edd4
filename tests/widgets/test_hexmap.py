"""The hex map widget: its data for a real Kampfwerte campaign, and every sync path (move messages,
%%resolve moves in other cells, turn changes in the encounter panel, other notebooks' writes,
the movement type chosen in the front end), German errors that write nothing, hostile names as data."""

import json
import re
import subprocess
import sys

import icepool
import pytest

import rpgkernel
from rpgkernel import Campaign
from rpgkernel.assets import asset
from rpgkernel.errors import RpgError
from rpgkernel.render.base import percent
from rpgkernel.resolve.language import parse
from rpgkernel.rules.kampfwerte import HexKarte
from rpgkernel.widgets import EncounterPanel, HexMap

HOSTILE = "<img src=x onerror=alert(1)>"
KAEL = {"AUFMERKSAMKEIT": 4, "GEWANDTHEIT": 5, "INSTINKT": 3, "HEIMLICHKEIT": 4, "ini_mod": 2, "bp_mod": 1,
        "ruestungsbehinderung": 1, "AD": 12, "LP": 20, "spielercharakter": True, "mod_schleichen": 1}
ORK = {"AUFMERKSAMKEIT": 3, "GEWANDTHEIT": 3, "INSTINKT": 4, "HEIMLICHKEIT": 1, "AD": 10, "LP": 25,
       "ruestungsbehinderung": 2}
# 6 x 4 fields; (1,0) Bewuchs (x2), (3,3) Wasser (x3), an obstacle on (2,1)
MAP = HexKarte(6, 4, {(1, 0): "Bewuchs", (3, 3): "Wasser"}, {(2, 1)})


def _campaign(path, kael="Kael"):
    c = Campaign.open(path)
    c.set_ruleset("kampfwerte")
    enc = c.new_encounter("Gefecht")
    enc.add(kael, sheet=KAEL, side="Spieler")
    enc.add("Ork", sheet=ORK)
    return c


@pytest.fixture
def camp(tmp_path):
    c = _campaign(tmp_path / "k.sqlite")
    yield c
    c.close()


def _place_and_start(c, kael="Kael"):
    rpgkernel.resolve(f'platziere "{kael}" auf=(0,0)\nplatziere Ork auf=(3,0)', campaign=c)
    # Kael: INI 13 + 2 = 15, Ork: 8 + 7 = 15 -> tie, the player character first; Kael has 7 BP
    c.encounter.start(dice=[2, 7])


def _pos(c, name):
    return [k for k in c.figure(name).conditions if k.startswith("Feld ")]


def test_model_of_a_kampfwerte_campaign(camp):
    m = HexMap(camp, MAP)
    assert camp.encounter.data("karte") == MAP.to_dict()  # kept in the campaign: the map `bewege` moves on
    assert m.text() == "Hexkarte 6 × 4 – niemand am Zug"
    k = m.karte
    assert (k["breite"], k["hoehe"]) == (6, 4) and len(k["fields"]) == 24
    by_field = {(q, r): (g, o) for q, r, g, o in k["fields"]}
    assert by_field[(1, 0)] == ("Bewuchs", False) and by_field[(3, 3)] == ("Wasser", False)
    assert by_field[(2, 1)] == ("frei", True) and by_field[(0, 0)] == ("frei", False)
    assert (-1, 2) in by_field and (6, 0) not in by_field  # odd rows shifted: row 2 starts at q = -1
    assert m.legend == [["frei", 1], ["Bewuchs", 2], ["Wasser", 3]]
    assert [a for a, _ in m.arten] == ["Gehen", "Schleichen", "Klettern", "Schwimmen", "Kriechen", "Reiten"]
    assert dict(m.arten)["Reiten"] == "1/2"
    assert m.figures == [] and m.turn == {} and m.reachable == []

    _place_and_start(camp)
    assert m.text() == "Hexkarte 6 × 4 – am Zug: Kael auf (0,0), 7 BP"
    assert m.turn == {"figure": "Kael", "bp": 7, "q": 0, "r": 0}
    assert m.figures == [{"name": "Kael", "side": "Spieler", "q": 0, "r": 0, "active": True},
                         {"name": "Ork", "side": "", "q": 3, "r": 0, "active": False}]
    reach = {(q, r): c for q, r, c in m.reachable}
    # by hand: (0,1) 1; Bewuchs (1,0) 2; (2,0) via (0,1),(1,1) 3; the obstacle (2,1) takes all 7 BP
    assert reach[(0, 1)] == "1" and reach[(1, 0)] == "2" and reach[(2, 0)] == "3" and reach[(2, 1)] == "7"
    # (2,3) is 5 free fields away ((0,1),(0,2),(0,3),(1,3),(2,3)); Wasser (3,3) one more at x3: 8 > 7
    assert (3, 3) not in reach and reach[(2, 3)] == "5"
    assert (0, 0) not in reach and (3, 0) not in reach  # neither the start nor the Ork's field
    assert all(0 < int(c) <= 7 for c in reach.values())


def test_move_message_runs_the_resolve_line(camp):
    m = HexMap(camp, MAP)
    panel = EncounterPanel(camp)
    _place_and_start(camp)
    seq = camp.folded["seq"]
    m._dispatch(m, {"type": "move", "q": 1, "r": 1, "art": "Gehen"})
    assert m.error == ""
    assert m.result["cell"] == "%%resolve\nbewege Kael nach=1,1 art=Gehen"
    assert m.result["card"]["action"] == "bewegen"
    assert _pos(camp, "Kael") == ["Feld 1,1"] and camp.figure("Kael").resources["BP"]["value"] == 5
    assert camp.folded["seq"] > seq
    assert any("Feld 1,1" in e.data.get("text", "") for e in camp.journal(figure="Kael", last=3))
    # the map and the panel follow
    assert m.turn == {"figure": "Kael", "bp": 5, "q": 1, "r": 1} and m.figures[0]["q"] == 1
    assert {(q, r) for q, r, _ in m.reachable} >= {(0, 0), (2, 0)} and all(int(c) <= 5 for *_, c in m.reachable)
    assert dict((r["name"], r["res"]) for r in panel.rows)["Kael"][2] == ["BP", 5, 7]
    assert any("Feld 1,1" in e["text"] for e in panel.journal)


def test_resolve_move_and_panel_turn_update_the_map(camp):
    m = HexMap(camp, MAP)
    _place_and_start(camp)
    rpgkernel.resolve("bewege Kael nach=(0,2)", campaign=camp)
    assert m.turn == {"figure": "Kael", "bp": 5, "q": 0, "r": 2}
    assert m.text() == "Hexkarte 6 × 4 – am Zug: Kael auf (0,2), 5 BP"
    assert {"name": "Kael", "side": "Spieler", "q": 0, "r": 2, "active": True} in m.figures
    panel = EncounterPanel(camp)
    panel._dispatch(panel, {"type": "next_turn"})
    assert m.turn == {"figure": "Ork", "bp": 3, "q": 3, "r": 0}  # Ork: 3 - 2 + 2 BP
    assert [f["name"] for f in m.figures if f["active"]] == ["Ork"]
    reach = {(q, r): c for q, r, c in m.reachable}
    # by hand from (3,0) with 3 BP: (2,0) 1 + Bewuchs (1,0) 2 = 3; (0,0) needs 4; (0,2) is Kael's field
    assert reach[(4, 0)] == "1" and reach[(1, 0)] == "3" and (0, 0) not in reach and (0, 2) not in reach


def test_other_notebooks_writes_show_on_poll(camp, tmp_path):
    m = HexMap(camp, MAP)
    _place_and_start(camp)
    with Campaign.open(tmp_path / "k.sqlite") as other:
        rpgkernel.resolve("bewege Kael nach=(0,1)", campaign=other)
    assert m.turn["q"] == 0 and m.turn["r"] == 0  # not read yet
    m._dispatch(m, {"type": "poll"})
    assert (m.turn["q"], m.turn["r"], m.turn["bp"]) == (0, 1, 6)


def test_movement_type_changes_the_reachable_set(camp):
    m = HexMap(camp, MAP)
    _place_and_start(camp)
    m.set_state({"art": "Schleichen"})  # 2 BP per field, 7 BP
    reach = {(q, r): c for q, r, c in m.reachable}
    assert reach[(0, 1)] == "2" and reach[(1, 0)] == "4" and reach[(0, 3)] == "6" and (2, 0) in reach
    assert all(int(c) % 2 == 0 or (q, r) == (2, 1) for (q, r), c in reach.items())
    assert reach[(2, 1)] == "7" and (2, 3) not in reach  # 5 fields x 2 = 10 > 7
    m.set_state({"art": "Reiten"})  # 1/2 BP per field
    reach = {(q, r): c for q, r, c in m.reachable}
    assert reach[(0, 1)] == "1/2" and reach[(1, 0)] == "1"
    m.set_state({"art": "Fliegen"})
    assert m.reachable == [] and "Unbekannte Bewegungsart „Fliegen“" in m.error
    m.set_state({"art": "Gehen"})
    assert m.error == "" and len(m.reachable) > 0
    # the move uses the type the message carries, with its test (HEIMLICHKEIT 4 + mod_schleichen 1)
    m._dispatch(m, {"type": "move", "q": 0, "r": 1, "art": "Schleichen"})
    assert m.error == "" and m.art == "Schleichen" and m.result["cell"].endswith("art=Schleichen")
    assert "Probe auf HEIMLICHKEIT: 5W10 gegen 7" in m.result["card"]["steps"][1]["text"]


def test_bad_targets_give_german_errors_and_write_nothing(camp):
    m = HexMap(camp, MAP)
    m._dispatch(m, {"type": "move", "q": 1, "r": 0})
    assert m.error.startswith("Niemand ist am Zug")
    _place_and_start(camp)
    seq = camp.folded["seq"]
    for msg, expected in [({"q": 3, "r": 3}, "Kael erreicht Feld (3,3) mit Gehen und 7 BP nicht."),
                          ({"q": 3, "r": 0}, "Auf Feld (3,0) steht schon Ork."),
                          ({"q": 40, "r": 0}, "liegt nicht auf der Karte"),
                          ({"q": "1", "r": 0}, "zwei ganze Zahlen"),
                          ({"q": True, "r": 0}, "zwei ganze Zahlen"),
                          ({"q": 1, "r": 0, "art": "Fliegen"}, "Unbekannte Bewegungsart")]:
        m._dispatch(m, {"type": "move", **msg})
        assert expected in m.error
        assert camp.folded["seq"] == seq and _pos(camp, "Kael") == ["Feld 0,0"]
    m.set_state({"art": "Gehen"})
    m._dispatch(m, {"type": "move", "q": 1, "r": 0})
    assert m.error == "" and _pos(camp, "Kael") == ["Feld 1,0"]


def test_no_active_encounter_and_wrong_input(tmp_path):
    with Campaign.open(tmp_path / "leer.sqlite") as c:
        m = HexMap(c)
        assert m.karte == {} and m.text() == "Hexkarte – keine Karte in der Kampagne"
        m._dispatch(m, {"type": "move", "q": 1, "r": 1})
        assert m.error.startswith("Keine aktive Begegnung")
    with pytest.raises(RpgError, match="braucht eine Kampagne"):
        HexMap("k.sqlite")
    with Campaign.open(tmp_path / "x.sqlite") as c, pytest.raises(RpgError, match="keine Hexkarte"):
        HexMap(c, karte={"breite": 3})


def test_hostile_names_stay_data(tmp_path):
    c = _campaign(tmp_path / "h.sqlite", kael=HOSTILE)
    try:
        m = HexMap(c, MAP)
        _place_and_start(c, kael=HOSTILE)
        assert m.turn["figure"] == HOSTILE and m.figures[0]["name"] == HOSTILE
        assert m.text() == f"Hexkarte 6 × 4 – am Zug: {HOSTILE} auf (0,0), 7 BP"
        line = m.move_line(1, 1)
        assert [a.text for a in parse(line)[0].actors] == [HOSTILE]
        m._dispatch(m, {"type": "move", "q": 1, "r": 1})
        assert m.error == "" and _pos(c, HOSTILE) == ["Feld 1,1"]
    finally:
        c.close()
    js = asset("hexmap.js")
    assert not re.search(r"innerHTML|outerHTML|insertAdjacentHTML|DOMParser", js)


def test_front_end_is_assembled_with_its_labels(camp):
    m = HexMap(camp, MAP)
    assert m._esm.rstrip().endswith("export default { render: relabelled(render) };") and "function hexSvg" in m._esm
    assert "rpgk-hex-reach" in m._css
    used = set(re.findall(r'"(widget\.hexmap\.[a-z_]+)"', asset("hexmap.js")))
    assert used and used <= set(m.labels)


# -- the map in the campaign -----------------------------------------------------------

def test_map_survives_a_restart_in_a_fresh_process(tmp_path):
    """The map is kept in the campaign file: a new process reads it, shows it and moves on it."""
    path = tmp_path / "k.sqlite"
    c = _campaign(path)
    HexMap(c, MAP).close()
    _place_and_start(c)
    c.close()
    script = f"""
import json, rpgkernel
from rpgkernel import Campaign
from rpgkernel.widgets import HexMap
c = Campaign.open({str(path)!r})
m = HexMap(c)
out = {{"size": [m.karte["breite"], m.karte["hoehe"]], "fields": m.karte["fields"],
       "reach": m.reachable, "text": m.text()}}
res = rpgkernel.resolve("bewege Kael nach=1,0", campaign=c)
out["kosten"], out["bp"] = res.outcome["kosten"], c.figure("Kael").resources["BP"]["value"]
print(json.dumps(out))
c.close()
"""
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out["size"] == [6, 4] and out["text"] == "Hexkarte 6 × 4 – am Zug: Kael auf (0,0), 7 BP"
    by_field = {(q, r): (g, o) for q, r, g, o in out["fields"]}
    assert by_field[(1, 0)] == ("Bewuchs", False) and by_field[(2, 1)] == ("frei", True)
    reach = {(q, r): c for q, r, c in out["reach"]}
    assert reach[(1, 0)] == "2" and reach[(2, 1)] == "7"  # Bewuchs x2; the obstacle takes all 7 BP
    assert out["kosten"] == "2" and out["bp"] == 5
    with Campaign.open(path) as again:  # the move of the other process is in the file
        assert _pos(again, "Kael") == ["Feld 1,0"]
        assert "Daten der Spielleitung: karte gesetzt" in [e.data["text"] for e in again.journal(kind="daten")]


def test_second_notebook_sees_the_map_and_its_changes(camp, tmp_path):
    m = HexMap(camp, MAP)
    _place_and_start(camp)
    with Campaign.open(tmp_path / "k.sqlite") as other:
        seen = HexMap(other)
        assert seen.karte == m.karte and seen.reachable == m.reachable
        # the GM puts a Grube (x3) on (0,1) from the other notebook; the first map follows on poll
        bigger = HexKarte(6, 4, {**MAP.gelaende, (0, 1): "Grube"}, MAP.hindernisse)
        HexMap(other, bigger).close()
        seen.close()
    m._dispatch(m, {"type": "poll"})
    reach = {(q, r): c for q, r, c in m.reachable}
    assert reach[(0, 1)] == "3" and ["Grube", 3] in m.legend
    camp.undo()  # the map is undoable like every other change
    assert {(q, r): c for q, r, c in m.reachable}[(0, 1)] == "1"


def test_encounter_map_over_campaign_map_and_no_map(tmp_path):
    with Campaign.open(tmp_path / "k.sqlite") as c:
        c.set_ruleset("kampfwerte")
        m = HexMap(c, HexKarte(3, 3))  # no active encounter: the campaign's map
        assert c.data("karte") == HexKarte(3, 3).to_dict() and m.karte["breite"] == 3
        enc = c.new_encounter("Gefecht")
        enc.add("Kael", sheet=KAEL, side="Spieler")
        assert m.karte["breite"] == 3  # the new encounter sees the campaign's map
        HexMap(c, MAP).close()         # now the encounter has its own
        assert m.karte["breite"] == 6 and c.data("karte", encounter="Gefecht")["breite"] == 6
        assert c.data("karte", encounter=None) == c.data("karte")
        c.set_data("karte", None)
        enc.set_data("karte", None)
        assert m.karte == {} and m.reachable == [] and m.text() == "Hexkarte – keine Karte in der Kampagne"
        enc.start(order=["Kael"])
        m._dispatch(m, {"type": "move", "q": 1, "r": 0})
        assert m.error.startswith("Die Begegnung hat keine Hexkarte")
        with pytest.raises(RpgError, match="keine Hexkarte"):
            rpgkernel.resolve("platziere Kael auf=0,0", campaign=c)
        enc.set_data("karte", {"breite": 2})  # set by hand, no map: shown as an error, nothing breaks
        assert m.karte == {} and "keine Hexkarte" in m.error


# -- physical dice for the move's test ----------------------------------------------------

def test_given_dice_go_with_the_move(camp):
    m = HexMap(camp, MAP)
    _place_and_start(camp)
    m.set_state({"art": "Schleichen"})
    # HEIMLICHKEIT 4 + mod_schleichen 1 = 5 W10 against 7, at least 2 successes; by icepool
    pool = (5 @ icepool.d10.map(lambda f: 2 if f == 10 else (-1 if f == 1 else int(f >= 7)))).map(lambda x: max(0, x))
    p = sum(pool.quantity(x) for x in pool.outcomes() if x >= 2) / pool.denominator()
    assert m.probe == f"Probe auf HEIMLICHKEIT: 5W10 gegen 7, gelingt mit {percent(p)}"
    # the front end writes the dice trait, then sends the move: 8,8 -> 2 successes
    m.set_state({"dice": "8, 8, 2, 2, 2"})
    m._dispatch(m, {"type": "move", "q": 0, "r": 1})
    assert m.error == ""
    assert m.result["cell"] == "%%resolve --würfel 8,8,2,2,2\nbewege Kael nach=0,1 art=Schleichen"
    steps = [s["text"] for s in m.result["card"]["steps"]]
    assert "Probe auf HEIMLICHKEIT: 5W10 gegen 7, 2 Erfolge – gelungen." in steps
    assert _pos(camp, "Kael") == ["Feld 0,1"] and camp.figure("Kael").resources["BP"]["value"] == 5
    assert m.dice == ""  # used up
    # the dice carried in the message; a 1 cancels a success: failed, no BP spent, still on (0,1)
    m._dispatch(m, {"type": "move", "q": 0, "r": 2, "art": "Schleichen", "dice": "8,8,1,2,2"})
    assert m.error == "" and "1 Erfolge – misslungen" in m.result["card"]["steps"][1]["text"]
    assert _pos(camp, "Kael") == ["Feld 0,1"] and camp.figure("Kael").resources["BP"]["value"] == 5


def test_wrong_given_dice_write_nothing_and_stay(camp):
    m = HexMap(camp, MAP)
    _place_and_start(camp)
    seq = camp.folded["seq"]
    for art, dice, expected in [("Schleichen", "8,x", "--würfel"),
                                ("Schleichen", "8,8,2", "Würfel"),          # 3 of the 5 dice
                                ("Gehen", "4", "Würfel")]:                  # walking needs no test
        m._dispatch(m, {"type": "move", "q": 0, "r": 1, "art": art, "dice": dice})
        assert expected in m.error and m.dice == dice
        assert camp.folded["seq"] == seq and _pos(camp, "Kael") == ["Feld 0,0"]
    m._dispatch(m, {"type": "move", "q": 0, "r": 1, "art": "Gehen", "dice": ""})
    assert m.error == "" and m.probe == "Gehen: keine Probe" and _pos(camp, "Kael") == ["Feld 0,1"]
