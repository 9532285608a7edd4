"""docs/kampfwerte.md: every verb documented, every example line valid and run on the page's figures and
map, the page's cells and cards in a notebook, its GM data and hex map as it shows them, and the numbers
it states checked by hand against the seed text (Kampfwerte)."""

from itertools import product

import pytest
import yaml
from doc_blocks import assert_shown, run_python
from verb_docs import VerbDoc

import rpgkernel
from rpgkernel import Campaign, rules, statblocks
from rpgkernel.errors import RpgError
from rpgkernel.rules import kampfwerte as kw
from rpgkernel.rules.kampfwerte.settings import DATA as SHIPPED

ENGINE = rules.get("kampfwerte")
VERBS = ENGINE.verbs
DOC = VerbDoc("kampfwerte.md", VERBS)
PAGE = DOC.page
START = PAGE.block("", "%rpg kampfwerte")
YAML = PAGE.block("yaml", "figuren:")
GM_DATA = PAGE.block("python", "from rpgkernel.rules import kampfwerte as kw")
HEXMAP = PAGE.block("python", "from rpgkernel.rules.kampfwerte import HexKarte")
PLACING = PAGE.block("text", "platziere ")
CHAIN = PAGE.take("", "%%resolve --würfel", count=3)
BEFORE_CARD = PAGE.block("", "vor: Kael → Ork")
RIPOSTE_CARD = PAGE.block("", "Riposte: Ork → Kael")



def test_the_doc_has_example_blocks():
    assert len(DOC.blocks) >= 6 and len(DOC.examples) >= 15


@pytest.mark.parametrize("name", sorted(VERBS))
def test_every_verb_alias_and_option_is_documented(name):
    DOC.assert_documented(name)


def test_every_sheet_field_and_manoeuvre_is_documented():
    for key in ENGINE.sheet.fields:
        assert f"`{key}`" in DOC.text, key
    for name in kw.EINSTELLUNGEN.defaults().manoever:
        assert name in DOC.text, name


@pytest.mark.parametrize("line", DOC.examples)
def test_every_example_line_names_known_verbs_and_options(line):
    DOC.assert_valid(line)


# -- the page's figures, GM data and map -------------------------------------------

def load_page(c: Campaign) -> None:
    """The figures, then the GM data block (the map), as the page sets them up."""
    c.set_ruleset("kampfwerte")
    statblocks.load(c, YAML.text)
    run_python(GM_DATA.text, {"kampagne": c})


@pytest.fixture
def camp(tmp_path):
    c = Campaign.open(tmp_path / "doc.sqlite")
    load_page(c)
    rpgkernel.resolve(PLACING.text, campaign=c)
    yield c
    c.close()


def field(c, name):
    return [k for k in c.figure(name).conditions if k.startswith("Feld ")]


def value(c, name, resource):
    return c.figure(name).resources[resource]["value"]


@pytest.mark.parametrize("line", DOC.examples)
def test_every_example_line_runs_with_a_preview_and_with_dice(camp, line):
    rpgkernel.resolve(line, campaign=camp, preview=True)
    res = rpgkernel.resolve(line, campaign=camp, seed=7)
    assert res.steps


def test_the_gm_data_block_keeps_map_and_rules_in_the_campaign(camp, tmp_path):
    assert camp.encounter.data("karte") == kw.HexKarte(12, 8, {(2, 1): "Bewuchs"}, {(4, 3)}).to_dict()
    assert camp.data("kampfwerte") == {"regeln": {"gelaende": {"frei": 1, "Bewuchs": 2, "Lava": 4},
                                                  "rundumschlag_kosten": "stufe"}}
    assert kw.EINSTELLUNGEN.kept_in(camp).gelaende["Lava"] == 4
    camp.encounter.set_data("karte", None)   # the campaign's map stands behind the encounter's
    assert camp.data("karte") == kw.HexKarte(12, 8, {(2, 1): "Bewuchs"}).to_dict()
    with Campaign.open(tmp_path / "doc.sqlite") as again:   # a restart, another notebook
        assert again.data("kampfwerte") == camp.data("kampfwerte")
    kinds = [e.kind for e in camp.journal(kind="daten")]
    assert len(kinds) == 4   # two maps, the rules, the map removed
    kw.einrichten(kampagne=camp)
    assert camp.data("kampfwerte") is None and kw.EINSTELLUNGEN.kept_in(camp) == kw.EINSTELLUNGEN.defaults()
    camp.undo()
    assert camp.data("kampfwerte")["regeln"]["rundumschlag_kosten"] == "stufe"


def test_an_encounters_catalogue_replaces_the_campaigns_there_only(camp, tmp_path):
    mine = tmp_path / "meine_manoever.yaml"
    shipped = yaml.safe_load((SHIPPED / "manoever.yaml").read_text(encoding="utf-8"))
    mine.write_text(yaml.safe_dump({"Finte": shipped["Finte"]}, allow_unicode=True), encoding="utf-8")
    kw.einrichten(manoever=str(mine), kampagne=camp, begegnung="Gefecht")
    in_fight = kw.EINSTELLUNGEN.kept_in(camp, "Gefecht")
    assert list(in_fight.manoever) == ["Finte"]
    assert in_fight.gelaende == kw.EINSTELLUNGEN.defaults().gelaende   # the campaign's rules do not hold there
    camp.new_encounter("Später", activate=False)
    assert kw.EINSTELLUNGEN.kept_in(camp, "Später").gelaende["Lava"] == 4
    assert len(kw.EINSTELLUNGEN.kept_in(camp, "Später").manoever) > 1


def test_bad_gm_data_is_refused_before_anything_is_kept(camp):
    before = camp.store.last_seq()
    with pytest.raises(kw.KampfwerteError, match="Sumpf"):
        kw.karte_setzen(camp, {"breite": 12, "hoehe": 8, "gelaende": [[2, 1, "Sumpf"]]})
    kw.karte_setzen(camp, {"breite": 12, "hoehe": 8, "gelaende": [[2, 1, "Lava"]]})   # the GM's own terrain
    assert camp.store.last_seq() == before + 1


def test_without_a_map_placing_and_moving_are_refused_in_german(tmp_path):
    with Campaign.open(tmp_path / "ohne.sqlite") as c:
        c.set_ruleset("kampfwerte")
        statblocks.load(c, YAML.text)
        for line in (DOC.example("platziere Kael auf=0,0"), DOC.example("bewege Kael nach=3,2")):
            with pytest.raises(RpgError, match="Karte"):
                rpgkernel.resolve(line, campaign=c)
        assert field(c, "Kael") == []


def test_a_field_that_is_no_field_names_line_and_column(camp):
    for bad in ("3,x", "3,2,1"):
        with pytest.raises(RpgError, match="Zeile 1, Spalte"):
            rpgkernel.resolve(f"bewege Kael nach={bad}", campaign=camp)
    assert field(camp, "Kael") == ["Feld 0,0"] and value(camp, "Kael", "BP") == 5


# -- the numbers the page states, by hand from the seed ----------------------------

def test_initiative_and_bp_of_the_page_figures(camp):
    # Initiative: AUFMERKSAMKEIT + GEWANDTHEIT + INSTINKT − Rüstungsbehinderung; BP: GEWANDTHEIT − RB + 2
    assert "Kael hat Initiative 3 + 3 + 3 = 9 und 3 + 2 = 5 BP; der Ork 3 + 4 + 3 − 1 = 9 und 4 − 1 + 2 = 5 BP." \
        in " ".join(DOC.text.split())
    for name in ("Kael", "Ork"):
        assert kw.sheet.initiativewert(camp.figure(name).sheet) == 9
        assert camp.figure(name).resources["BP"] == {"value": 5, "max": 5}


def test_acting_before_is_counted_over_both_w10(camp):
    # equal initiative: of the 100 pairs of W10 Kael is higher in 45 and ties in 10, where the player
    # character goes first ("Bei Gleichstand ist entweder der Spielercharakter zuerst an der Reihe")
    res = rpgkernel.resolve(DOC.example("vor Kael -> Ork"), campaign=camp)
    assert res.outcome["p_vor"] == pytest.approx(55 / 100, abs=1e-12)
    assert rpgkernel.resolve("vor Ork -> Kael", campaign=camp).outcome["p_vor"] == pytest.approx(45 / 100, abs=1e-12)


def net(faces, schwierigkeit=7):
    """A test's successes as the page counts them: from the difficulty +1, the 0 (ten) +2, a 1 −1."""
    return max(0, sum(2 if f == 10 else -1 if f == 1 else int(f >= schwierigkeit) for f in faces))


def test_the_test_counts_as_the_page_says(camp):
    line = DOC.example("probe Kael talent=HEIMLICHKEIT mod=1")
    res = rpgkernel.resolve(line, campaign=camp, dice=[10, 1, 7, 3])
    assert res.outcome == {"erfolge": 2, "gelungen": True} == {"erfolge": net([10, 1, 7, 3]), "gelungen": True}
    assert rpgkernel.resolve(line, campaign=camp, dice=[10, 1, 1, 3]).outcome == {"erfolge": 0, "gelungen": False}
    exact = rpgkernel.resolve(line, campaign=camp, preview=True).preview   # four W10, all 10 000 throws
    counts = {}
    for faces in product(range(1, 11), repeat=4):
        counts[net(faces)] = counts.get(net(faces), 0) + 1
    for k, n in counts.items():
        assert exact.p_exactly(k) == pytest.approx(n / 10_000, abs=1e-12)
    hard = rpgkernel.resolve(DOC.example("probe Ork talent=INSTINKT schwierigkeit=8"), campaign=camp, dice=[7, 8, 9])
    assert hard.outcome == {"erfolge": 2, "gelungen": True} == {"erfolge": net([7, 8, 9], 8), "gelungen": True}


def test_moves_cost_what_the_page_says(camp):
    # Gehen 1 BP per field: (0,0) to (3,2) is 5 fields for Kael's 5 BP
    res = rpgkernel.resolve(DOC.example("bewege Kael nach=3,2"), campaign=camp)
    assert field(camp, "Kael") == ["Feld 3,2"] and value(camp, "Kael", "BP") == 0
    with pytest.raises(RpgError, match="0 BP"):   # "Die Gesamtkosten dürfen die BP nicht überschreiten"
        rpgkernel.resolve("bewege Kael nach=3,3", campaign=camp)
    assert res.steps
    rpgkernel.resolve(DOC.example("bp Kael, Ork") + "\n" + DOC.example("platziere Kael auf=0,0"), campaign=camp)
    # the Ork named in the line holds (1,0): around it over (0,1) and (1,1), 3 BP instead of 2
    rpgkernel.resolve(DOC.example("bewege Kael -> Ork nach=2,0"), campaign=camp)
    assert field(camp, "Kael") == ["Feld 2,0"] and value(camp, "Kael", "BP") == 2
    rpgkernel.resolve("bp Kael\nplatziere Kael auf=0,0\nbewege Kael nach=2,0", campaign=camp)
    assert value(camp, "Kael", "BP") == 3
    # Schleichen 2 BP per field, with a test on HEIMLICHKEIT (3 W10): passed, 2 fields for 4 BP ...
    rpgkernel.resolve("bp Kael\nplatziere Kael auf=0,0", campaign=camp)
    rpgkernel.resolve(DOC.example("bewege Kael nach=0,2 art=Schleichen"), campaign=camp, dice=[8, 8, 2])
    assert field(camp, "Kael") == ["Feld 0,2"] and value(camp, "Kael", "BP") == 1
    # ... failed: Kael stays and keeps his BP (the page's decision where the seed is silent)
    rpgkernel.resolve("bp Kael\nplatziere Kael auf=0,0", campaign=camp)
    rpgkernel.resolve("bewege Kael nach=0,2 art=Schleichen", campaign=camp, dice=[8, 2, 2])
    assert field(camp, "Kael") == ["Feld 0,0"] and value(camp, "Kael", "BP") == 5
    # Bewuchs (2,1) costs 2 × 1 to enter: three fields for 4 BP; Schwimmen 3 BP per field
    rpgkernel.resolve("bewege Kael nach=2,1", campaign=camp)
    assert field(camp, "Kael") == ["Feld 2,1"] and value(camp, "Kael", "BP") == 1
    rpgkernel.resolve(DOC.example("bewege Ork nach=1,1 art=Schwimmen schwierigkeit=8"), campaign=camp,
                      dice=[8, 9, 2, 2])   # GEWANDTHEIT 4: four W10 against 8, two successes
    assert field(camp, "Ork") == ["Feld 1,1"] and value(camp, "Ork", "BP") == 2
    # an obstacle (4,3) takes all BP left
    rpgkernel.resolve("bp Kael\nplatziere Kael auf=3,3\nbewege Kael nach=4,3", campaign=camp)
    assert field(camp, "Kael") == ["Feld 4,3"] and value(camp, "Kael", "BP") == 0


def test_manoeuvres_cost_and_hit_as_the_seed_says(camp):
    # Gezielte Attacke: 1 AD per level, +2 damage per level; three W10 (würfel=3), then the W6;
    # the Ork's armour 2 comes off: 3 + 2 × 2 − 2 = 5
    res = rpgkernel.resolve(DOC.example('manöver Kael -> Ork manöver="Gezielte Attacke" stufe=2 schaden=W6 würfel=3'),
                            campaign=camp, dice=[8, 8, 2, 3])
    assert value(camp, "Kael", "AD") == 38 and value(camp, "Ork", "LP") == 25 and res.outcome["stufe"] == 2
    # Schadenserhöhung level 1: 2 AD ("Stufe 1-2 = 2 AD"); a defence that held does no damage
    rpgkernel.resolve(DOC.example("manöver Kael -> Ork manöver=Schadenserhöhung stufe=1 schaden=W6 abgewehrt"),
                      campaign=camp, dice=[8, 8, 2, 2, 2])
    assert value(camp, "Kael", "AD") == 36 and value(camp, "Ork", "LP") == 25
    # Ausweichen Spezial: a change of position up to [Stufe] fields, 1 AD per level and field
    rpgkernel.resolve(DOC.example('manöver Kael manöver="Ausweichen Spezial" stufe=1 nach=0,1'), campaign=camp)
    assert field(camp, "Kael") == ["Feld 0,1"] and value(camp, "Kael", "AD") == 35
    with pytest.raises(RpgError):   # Finte does no damage of its own: schaden= is refused
        rpgkernel.resolve("manöver Kael -> Ork manöver=Finte stufe=2 schaden=W6", campaign=camp)
    assert value(camp, "Kael", "AD") == 35


def test_mantel_parade_raises_the_next_initiative(camp):
    camp.encounter.start(dice=[5, 5])
    assert camp.encounter.order == ["Kael", "Ork"]   # 14 against 14: the player character first
    rpgkernel.resolve(DOC.example("manöver Kael manöver=Mantel-Parade stufe=2"), campaign=camp)
    assert "Initiative +2" in camp.figure("Kael").conditions
    # the raise counts: the Ork acts first only with a W10 three or more above Kael's
    assert rpgkernel.resolve("vor Ork -> Kael", campaign=camp).outcome["p_vor"] == pytest.approx(
        sum(o > k + 2 for k in range(1, 11) for o in range(1, 11)) / 100, abs=1e-12)
    camp.encounter.next_round(new_initiative=True, dice=[1, 4])   # Kael 1 + 9 + 2, Ork 4 + 9
    [entry] = camp.journal(kind="initiative", last=1)
    rolls = entry.data["rolls"]
    assert {name: roll["total"] for name, roll in rolls.items()} == {"Kael": 12, "Ork": 13}
    assert rolls["Kael"]["expression"] == "W10+11" and camp.encounter.order == ["Ork", "Kael"]


# -- in a notebook: the start line, the cells and their cards ---------------------

def test_the_page_in_a_notebook(notebook):
    notebook.ok(START.text)
    assert rpgkernel.session.current().campaign.ruleset == "kampfwerte"
    notebook.ok("%%figuren\n" + YAML.text)
    notebook.ok("import rpgkernel\nkampagne = rpgkernel.session.current().campaign")
    notebook.ok(GM_DATA.text)
    notebook.ok("%%resolve\n" + PLACING.text)
    [card] = notebook.ok("%%resolve\n" + DOC.example("vor Kael -> Ork"))
    assert_shown(BEFORE_CARD.text, card)
    finte, riposte, konter = (cell.text for cell in CHAIN)
    notebook.ok(finte)
    [card] = notebook.ok(riposte)
    assert_shown(RIPOSTE_CARD.text, card)
    [card] = notebook.ok(konter)
    said = card.splitlines()[1].strip()
    assert f"Die Karte: „{said}“" in " ".join(DOC.text.split())
    camp = notebook.ns["kampagne"]
    # by hand (seed, Manöver): Finte and Riposte 1 AD per level; the Riposte's 4 LP came back
    assert value(camp, "Kael", "AD") == 40 - 2 - 2 and value(camp, "Ork", "AD") == 10 - 2
    assert value(camp, "Kael", "LP") == 30 and "Finte +2" in camp.figure("Kael").conditions


def test_the_hex_map_block(camp, tmp_path):
    camp.encounter.set_data("karte", None)
    namespace = {"kampagne": camp}
    m = run_python(HEXMAP.text, namespace)
    # the given map becomes the active encounter's map in the campaign
    assert camp.encounter.data("karte") == namespace["HexKarte"](12, 8, {(2, 1): "Bewuchs"}, {(4, 3)}).to_dict()
    camp.encounter.start(dice=[5, 5])
    assert m.turn == {"figure": "Kael", "bp": 5, "q": 0, "r": 0}
    reach = {(q, r): c for q, r, c in m.reachable}
    assert reach[(0, 1)] == "1" and reach[(2, 1)] == "4" and (1, 0) not in reach   # the Ork's field is no target
    m.art = "Schleichen"
    assert "HEIMLICHKEIT" in m.probe and "3" in m.probe
    # given dice that do not fit (three W10 for Schleichen): the message, nothing written, the dice stay
    before = camp.store.last_seq()
    m.dice = "8,3,10,1,7"
    m._dispatch(m, {"type": "move", "q": 0, "r": 1, "art": "Schleichen"})
    assert m.error and camp.store.last_seq() == before and m.dice == "8,3,10,1,7"
    m._dispatch(m, {"type": "move", "q": 0, "r": 1, "art": "Schleichen", "dice": "8,8,2"})
    assert m.result["cell"] == "%%resolve --würfel 8,8,2\nbewege Kael nach=0,1 art=Schleichen"
    assert field(camp, "Kael") == ["Feld 0,1"]
    with Campaign.open(tmp_path / "doc.sqlite") as again:   # after a restart: the stored map
        assert run_python("HexMap(kampagne)", {**namespace, "kampagne": again}).karte == m.karte
