"""Midgard character creation and advancement: the seed's Halbling and Marvelus examples,
tier purchase, LP, the AP maximum, learning below the minimum and from player characters."""

from pathlib import Path

import icepool
import pytest

import rpgkernel
from rpgkernel import Campaign
from rpgkernel.dice import Roller
from rpgkernel.errors import ResolveError
from rpgkernel.rules import midgard
from rpgkernel.rules.figure import view
from rpgkernel.rules.midgard import MidgardError, kauf
from rpgkernel.rules.midgard.erschaffung import ap_wurf, attributkauf, lp_wurf, null_stufe
from rpgkernel.rules.midgard.lernen import fertigkeit_lernen, wm_unter_mindestwert
from rpgkernel.rules.midgard.tabellen import laden

BEISPIEL = Path(midgard.__file__).with_name("data") / "beispiel_spielleitung.yaml"


CFG = midgard.einrichten(BEISPIEL)      # checked, not kept anywhere: passed to the procedures


@pytest.fixture
def tabellen():
    return CFG


def with_tables(camp):
    """The example tables kept in the campaign, where the verbs read them."""
    midgard.einrichten(BEISPIEL, kampagne=camp)


def fig(name="Bilbo", **sheet):
    """A campaign-like record's view (the procedures read figures as views)."""
    return view({"name": name, "sheet": sheet, "conditions": {}, "resources": {}})


def tier(cfg, race, key):
    return cfg.tabellen.daten["attributkauf"]["stufen"][null_stufe(race, key, cfg)].text


# -- the seed's Halbling ----------------------------------------------------------------------
def test_halbling_zero_cost_tiers_are_st_11_20_and_ge_91_95(tabellen):
    assert tier(tabellen, "Halbling", "st") == "11-20"
    assert tier(tabellen, "Halbling", "ge") == "91-95"


def test_three_points_buy_ge_100_and_no_more(tabellen):
    bought = kauf("Halbling", {"ge": "96-99"}, tabellen)
    assert bought["ge"][0] == 1 and bought["ge"][2] == 1                      # +1 for 96-99
    bought = kauf("Halbling", {"ge": "100"}, tabellen)
    assert bought["ge"][0] == 2 and bought["ge"][2] == 3                      # +2 more for 100: 3
    with pytest.raises(MidgardError, match="100 ist die natürliche Grenze"):
        kauf("Halbling", {"ge": "+3"}, tabellen)


def test_halbling_strength_ends_at_91_95_on_the_plus_six_column(tabellen):
    assert kauf("Halbling", {"st": "+6"}, tabellen)["st"][1].text == "91-95"
    with pytest.raises(MidgardError, match="Spalte \\+7 geht über die ±6-Grenze"):
        kauf("Halbling", {"st": "96-99"}, tabellen)


def test_the_purchase_rolls_within_the_tiers_and_fills_the_sheet(tmp_path):
    with Campaign.open(tmp_path / "k.sqlite") as camp:
        camp.set_ruleset("midgard")
        camp.add_character("Bilbo", {"rasse": "Halbling"})
        with_tables(camp)
        res = rpgkernel.resolve("attributkauf Bilbo punkte=8 ge=100 ko=+1", campaign=camp, dice=[5, 10, 7, 3])
        # St 11-20: 10 + 5; Ge 100 (no roll); Ko 71-80: 70 + 10; In 51-70: 50 + 7; Zt 51-70: 50 + 3
        assert res.outcome["werte"] == {"st": 15, "ge": 100, "ko": 80, "in": 57, "zt": 53}
        assert res.outcome["kosten"] == 4
        assert camp.figure("Bilbo").sheet == {"rasse": "Halbling", "st": 15, "ge": 100, "ko": 80, "in": 57, "zt": 53}
        assert "Bilbo: Bogen: rasse Halbling; st 15; ge 100; ko 80; in 57; zt 53" in repr(res)
        camp.undo()
        assert camp.figure("Bilbo").sheet == {"rasse": "Halbling"}


def test_the_budget_and_the_choices_are_checked():
    bilbo = fig(rasse="Halbling")
    with pytest.raises(MidgardError, match="kostet 9 Punkte, zu verteilen sind 8"):
        attributkauf(bilbo, None, punkte=8, wahl={"ge": "100", "ko": "+2", "in": "+2"}, cfg=CFG)
    with pytest.raises(MidgardError, match="weder eine Spalte"):
        attributkauf(bilbo, None, punkte=8, wahl={"ge": "viel"}, cfg=CFG)
    with pytest.raises(MidgardError, match="'au' wird nicht gekauft"):
        attributkauf(bilbo, None, punkte=8, wahl={"au": "+1"}, cfg=CFG)
    with pytest.raises(MidgardError, match="Unbekannte Rasse 'Hobbit'"):
        attributkauf(fig(rasse="Hobbit"), None, punkte=8, wahl={}, cfg=CFG)
    # lowering an attribute gives points back
    res = attributkauf(bilbo, Roller(dice=[1, 1, 1, 1]), punkte=8, wahl={"ge": "100", "ko": "+3", "in": "-1"},
                       cfg=CFG)
    assert res.outcome["kosten"] == 3 + 6 - 1


def test_the_tier_preview_is_uniform():
    res = attributkauf(fig(rasse="Elf"), None, punkte=9, wahl={"ge": "+1"}, cfg=CFG)
    ge = next(v for k, v in res.preview.items() if k.startswith("Ge"))
    assert ge.isclose(rpgkernel.dist("W5+90"))              # Elf Ge: 0-cost 81-90 (Ge +2); +1: 91-95


def test_every_race_of_the_seed_is_listed():
    races = midgard.EINSTELLUNGEN.defaults().rassen
    assert set(races) == {"Mensch", "Amazone", "Arracht", "Dunkelzwerg", "Echsenmensch", "Eistroll", "Elf", "Fee",
                          "Fischmensch", "Gnom", "Halbling", "Höhlenmensch", "Kentaur", "Kobold", "Ork", "Sritra",
                          "Schrat", "Schwarzalb", "Vogelmensch", "Zwerg"}
    assert races["Schwarzalb"]["stufen"] == {"st": -1, "ge": 2, "ko": 1, "in": 1, "zt": 1}
    assert races["Echsenmensch"]["stufen"] == {"st": 1, "ge": -2, "in": -2, "ko": 1}
    assert races["Fee"]["ap_wuerfel"] == "W3" and races["Vogelmensch"]["ap_wuerfel"] == "W4+1"


# -- LP ----------------------------------------------------------------------------------------
def test_lp_for_a_human_by_size_and_shape_with_the_abb():
    hune = fig("Hune", rasse="Mensch", ko=75, groesse="groß", gestalt="breit", abb=1)
    res = lp_wurf(hune, Roller(dice=[4]), cfg=CFG)
    # base 6 (Ko 61-90) + W6 4 + groß 1 + breit 1
    assert res.outcome["lp"] == 12 and res.effects[0].sheet == {"lp": 12, "abb": 0}
    small = fig("Wicht", rasse="Mensch", ko=20, groesse="klein", gestalt="schlank")
    res = lp_wurf(small, Roller(dice=[1]), cfg=CFG)
    assert res.outcome["lp"] == 4 + 1 - 2 and res.outcome["abb_änderung"] == 1


def test_lp_for_other_races_and_its_preview():
    bilbo = fig(rasse="Halbling", ko=50, groesse="groß", gestalt="breit")
    res = lp_wurf(bilbo, None, cfg=CFG)
    assert res.preview.isclose(rpgkernel.dist("W6+3"))       # 5 - 2, no size or shape for a Halbling
    assert lp_wurf(bilbo, Roller(dice=[6]), cfg=CFG).outcome["abb_änderung"] == 0


# -- AP maximum ----------------------------------------------------------------------------------
def test_the_seeds_spitzbube_12W4_plus_12_plus_24_plus_bonus():
    bilbo = fig(rasse="Halbling", klasse="Spitzbube", grad=12, ap_bonus=3)
    res = ap_wurf(bilbo, None, cfg=CFG)
    expected = 12 @ icepool.d4 + 12 + 24 + 3
    assert "12W4+12+24+3" in repr(res)
    for outcome, count in expected.items():
        assert res.preview.p_exactly(outcome) == pytest.approx(count / expected.denominator(), abs=1e-12)
    rolled = ap_wurf(bilbo, Roller(dice=[4] * 12), cfg=CFG)
    assert rolled.outcome["ap"] == 48 + 12 + 24 + 3


def test_lp_and_ap_go_onto_the_sheet_with_their_resources_and_undo(tmp_path):
    with Campaign.open(tmp_path / "k.sqlite") as camp:
        camp.set_ruleset("midgard")
        camp.add_character("Bilbo", {"rasse": "Halbling", "klasse": "Spitzbube", "grad": 12, "ap_bonus": 3,
                                     "ko": 50})
        with_tables(camp)
        res = rpgkernel.resolve("ap_wurf Bilbo\nlp_wurf Bilbo", campaign=camp, dice=[4] * 12 + [6])
        # the seed's 12W4 + 12 + 24 + bonus: 48 + 12 + 24 + 3; LP: base 5 (Ko 31-60) + W6 6 - 2 (Halbling)
        bilbo = camp.figure("Bilbo")
        assert bilbo.sheet["ap"] == 87 and bilbo.resources["AP"] == {"value": 87, "max": 87}
        assert bilbo.sheet["lp"] == 9 and bilbo.resources["LP"] == {"value": 9, "max": 9}
        assert "Bilbo: Bogen: ap 87; grad 12" in repr(res)
        camp.undo()
        bilbo = camp.figure("Bilbo")
        assert "ap" not in bilbo.sheet and "lp" not in bilbo.sheet and bilbo.resources == {}


def test_ap_when_rising_a_grade():
    bilbo = fig(rasse="Halbling", klasse="Spitzbube", grad=11, ap=60, ap_bonus=3)
    res = ap_wurf(bilbo, Roller(dice=[2]), grad=12, von=11, cfg=CFG)
    assert res.outcome["ap"] == 60 + 2 + 1 + 2            # one W4+1 and the fixed part 24 - 22
    human = fig("Alrik", rasse="Mensch", klasse="Krieger", grad=2)
    assert ap_wurf(human, None, cfg=CFG).preview.isclose(rpgkernel.dist("2W6+6"))


def test_ap_dice_with_an_unexplained_note_are_shown():
    troll = fig("Troll", rasse="Eistroll", klasse="Krieger", grad=1)
    res = ap_wurf(troll, Roller(dice=[3]), cfg=CFG)
    assert res.outcome["ap"] == 3 + 2 + 3 and "'/ +3'" in repr(res)
    with pytest.raises(MidgardError, match="nennt die Klasse 'Hexer' nicht"):
        ap_wurf(fig(rasse="Elf", klasse="Hexer", grad=1), None, cfg=CFG)


# -- learning ----------------------------------------------------------------------------------
def test_the_seeds_marvelus_learning_balancieren():
    """Ge 45, Balancieren needs Ge 61: Standard becomes Ausnahme, 200 FP instead of 100, WM -2."""
    marvelus = fig("Marvelus", ge=45, klasse="Magier")
    res = fertigkeit_lernen(marvelus, "Balancieren", "Standard", cfg=CFG)
    assert res.outcome == {"fertigkeit": "Balancieren", "kategorie": "Ausnahme", "möglich": True, "fp": 200, "wm": -2}
    assert fertigkeit_lernen(fig("Flink", ge=70), "Balancieren", "Standard", cfg=CFG).outcome["fp"] == 100
    assert not fertigkeit_lernen(marvelus, "Balancieren", "Ausnahme", cfg=CFG).outcome["möglich"]
    assert fertigkeit_lernen(marvelus, "Balancieren", "Grund", cfg=CFG).outcome["kategorie"] == "Standard"


@pytest.mark.parametrize("value, minimum, wm", [(45, 61, -2), (51, 61, -1), (60, 61, -1), (61, 61, 0), (80, 61, 0),
                                                 (41, 61, -2), (40, 61, -3)])
def test_wm_below_the_minimum_rounds_up(value, minimum, wm):
    assert wm_unter_mindestwert(value, minimum) == wm


def test_the_wm_applies_to_every_roll_with_the_skill(tmp_path):
    with Campaign.open(tmp_path / "k.sqlite") as camp:
        camp.set_ruleset("midgard")
        camp.add_character("Marvelus", {"ge": 45, "fertigkeiten": ["Balancieren +12"]})
        with_tables(camp)
        res = rpgkernel.resolve("ew Marvelus fertigkeit=Balancieren", campaign=camp, dice=[9])
        assert res.outcome["gesamt"] == 9 + 12 - 2 and not res.outcome["erfolg"]
        assert rpgkernel.resolve("ew Marvelus fertigkeit=Balancieren", campaign=camp,
                                 preview=True).preview == {"P(EW: Balancieren gelingt)": 11 / 20}
        res = rpgkernel.resolve("lernen Marvelus fertigkeit=Balancieren kategorie=Standard von_spielerfigur",
                                campaign=camp)
        assert res.outcome["ep"] == 134 and res.outcome["fp"] == 200 and res.outcome["gold"] == 0
        with pytest.raises(ResolveError, match="'Fliegen' steht nicht in der Tabelle"):
            rpgkernel.resolve("lernen Marvelus fertigkeit=Fliegen", campaign=camp)


def test_learning_from_a_player_character():
    res = fertigkeit_lernen(fig("Flink", ge=70), "Balancieren", "Standard", von_spielerfigur=True, cfg=CFG)
    assert res.outcome["ep"] == 67 and res.outcome["fp"] == 100      # 2/3 of 100, rounded up


def test_bad_gm_tables_are_refused(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text("attributkauf: {stufen: ['01-10', '12-100'], null_stufe: '01-10', spalten: {0: 0}}\n",
                    encoding="utf-8")
    with pytest.raises(MidgardError, match="lückenlos"):
        laden(path)
    path.write_text("angeboren: [{von: 1, bis: 50, faehigkeit: x}]\n", encoding="utf-8")
    with pytest.raises(MidgardError, match="1 bis 99 lückenlos"):
        laden(path)
    path.write_text("schadensbonus: {1: 'W3+'}\n", encoding="utf-8")
    with pytest.raises(MidgardError, match="kein Würfelausdruck"):
        laden(path)
