"""Kampfwerte moves through %%resolve and a campaign: BP spent and refilled, the test of each movement type,
blocked fields, fields written q,r, German errors that write nothing (seed: Bewegungspunkte, Bewegungskosten)."""

from fractions import Fraction

import pytest

import rpgkernel
from rpgkernel import Campaign
from rpgkernel.errors import RpgError
from rpgkernel.resolve.language import parse
from rpgkernel.rules.figure import view
from rpgkernel.rules.kampfwerte import HexKarte, einrichten, erreichbar, karte_setzen, p_gelingt
from rpgkernel.rules.kampfwerte.map import karte_aus

from .test_sheet import KAEL, ORK


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


# -- fields written q,r ---------------------------------------------------------------------------------

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


# Seed, Bewegungskosten: "Reiten | ½ BP/Feld" and "Die Gesamtkosten dürfen die zur Verfügung stehenden BP des
# Charakters nicht überschreiten": the costs of a round's moves add up, so two rides of one field cost 1 BP.
def test_halves_add_up_over_a_round(camp):
    camp.encounter.add("Rin", sheet={**RIN, "reittier_stufe": 0})      # BP 4 + 2 = 6, no mount bonus
    rpgkernel.resolve("platziere Rin auf=0,1", campaign=camp)
    ride = [8, 8, 2, 2, 2, 2]                                           # GEWANDTHEIT 4 + mod_reiten 2: 2 successes
    first = rpgkernel.resolve("bewege Rin nach=1,1 art=Reiten", campaign=camp, dice=ride)
    assert first.outcome["bp_abgezogen"] == 1 and "BP-Rest 1/2" in camp.figure("Rin").conditions
    assert any("als BP-Rest für die nächste Bewegung dieser Runde bleiben 1/2 BP" in s.text for s in first.steps)
    second = rpgkernel.resolve("bewege Rin nach=2,1 art=Reiten", campaign=camp, dice=ride)
    assert second.outcome["bp_abgezogen"] == 0
    rin = camp.figure("Rin")
    assert rin.resources["BP"]["value"] == 5 and not any(c.startswith("BP-Rest") for c in rin.conditions)
    rpgkernel.resolve("bewege Rin nach=7,1", campaign=camp)             # 5 fields on foot: 1 + 5 = 6 BP in all
    assert camp.figure("Rin").resources["BP"]["value"] == 0
    with pytest.raises(RpgError, match="erreicht Feld"):                 # never beyond the BP
        rpgkernel.resolve("bewege Rin nach=6,1 art=Reiten", campaign=camp, dice=ride)


def test_a_new_round_ends_the_rest_and_the_gm_may_round_each_move(camp):
    camp.encounter.add("Rin", sheet={**RIN, "reittier_stufe": 0})
    rpgkernel.resolve("platziere Rin auf=0,1", campaign=camp)
    ride = [8, 8, 2, 2, 2, 2]
    rpgkernel.resolve("bewege Rin nach=1,1 art=Reiten", campaign=camp, dice=ride)
    rpgkernel.resolve("bp Rin", campaign=camp)
    rin = camp.figure("Rin")
    assert rin.resources["BP"]["value"] == 6 and not any(c.startswith("BP-Rest") for c in rin.conditions)
    einrichten({"bp_bruchteile": "aufrunden"}, kampagne=camp)
    rpgkernel.resolve("platziere Rin auf=0,1", campaign=camp)
    for field in ("1,1", "2,1"):
        res = rpgkernel.resolve(f"bewege Rin nach={field} art=Reiten", campaign=camp, dice=ride)
        assert res.outcome["bp_abgezogen"] == 1
    assert camp.figure("Rin").resources["BP"]["value"] == 4
    with pytest.raises(RpgError, match="erreicht Feld"):
        rpgkernel.resolve("bewege Rin nach=7,1", campaign=camp)          # 5 fields on foot: 4 BP are too few


def test_riding_range_on_the_map_with_the_mount_level(camp):
    camp.encounter.add("Rin", sheet=RIN)
    rpgkernel.resolve("platziere Rin auf=0,4", campaign=camp)
    # BP 6, Reittier-Stufe 2: 2 x 6 + 2 = 14 fields; the 8-wide row 4 ends at (5,4) after 5 fields
    rec, k = view(camp.figure("Rin").record), karte_aus({"karte": camp.encounter.data("karte")})
    reach = erreichbar(rec, k, "Reiten")
    assert reach[(5, 4)] == Fraction(5, 2) and max(reach.values()) <= 7
    assert len(reach) > len(erreichbar(rec, k, "Gehen"))
