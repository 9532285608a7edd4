"""docs/osr.md: every verb documented, every example line valid and run, some of them played by hand."""

from pathlib import Path

import icepool
import pytest
from verb_docs import VerbDoc

import rpgkernel
from rpgkernel import Campaign, statblocks
from rpgkernel.errors import RpgError
from rpgkernel.numerals import decimal, percent
from rpgkernel.rules import osr
from rpgkernel.rules.osr.verbs import VERBS

DOC = VerbDoc("osr.md", VERBS)
PAGE = DOC.page
PYTHON = [b.text for b in PAGE.take("python")]
YAML = PAGE.block("yaml", "figuren:").text


def said(section: str, *parts: str) -> None:
    """Each of ``parts`` stands in the doc's prose under the heading line ``section`` (lines joined)."""
    prose = " ".join(PAGE.text.split(section + "\n", 1)[1].split("\n#", 1)[0].split())
    for part in parts:
        assert part in prose, f"{part!r} steht nicht unter {section!r} in docs/osr.md"


def share(p: float, of: int) -> str:
    """``p`` as the fraction of ``of`` the doc writes (12/20), exact."""
    assert p * of == pytest.approx(round(p * of), abs=1e-9)
    return f"{round(p * of)}/{of}"



def test_the_doc_has_example_blocks():
    assert len(DOC.blocks) >= 12 and len(DOC.examples) >= 25


@pytest.mark.parametrize("name", sorted(VERBS))
def test_every_verb_alias_and_option_is_documented(name):
    DOC.assert_documented(name)


def test_every_sheet_field_and_condition_is_documented():
    for key in osr.Osr.sheet.fields:
        assert f"| `{key}` |" in DOC.text, key
    for condition in osr.Osr.status.conditions:
        assert f"| `{condition}` |" in DOC.text, condition


def test_gm_data_is_named_plainly():
    assert "Die Angriffsmatrizen gehören der Spielleitung" in DOC.text
    assert (Path(osr.settings.DATA) / "angriffsmatrix.yaml").read_text(encoding="utf-8").startswith("# BEISPIEL")


@pytest.mark.parametrize("line", DOC.examples)
def test_every_example_line_names_known_verbs_and_options(line):
    DOC.assert_valid(line)


# -- played against the doc's figures, with given dice -----------------------------

@pytest.fixture
def camp(tmp_path):
    c = Campaign.open(tmp_path / "doc.sqlite")
    c.set_ruleset("osr")
    statblocks.load(c, YAML)
    c.encounter.start(dice=[5, 3])
    yield c
    c.close()


def tp(camp, name):
    return camp.figure(name).resources["TP"]["value"]


def hit_chance(res):
    return [v for k, v in res.preview.items() if k.startswith("P(Treffer")]


@pytest.mark.parametrize("line", DOC.examples)
def test_every_example_line_runs_with_a_preview_and_with_dice(camp, line):
    if "position_bekannt" in line or "sieht_unsichtbar" in line:
        camp.add_condition("Goblin 2", "unsichtbar")
    if "toetung" in line:
        camp.add_condition("Ork", "schläft")
    before = rpgkernel.resolve(line, campaign=camp, preview=True)
    res = rpgkernel.resolve(line, campaign=camp, seed=7)
    assert res.steps
    if before.preview is not None:   # the verb's preview is the one its procedure computes before the roll
        assert before.to_dict()["preview"] == res.to_dict()["preview"]


def test_the_python_blocks_run(camp, tmp_path):
    c = Campaign.open(tmp_path / "py.sqlite")
    c.set_ruleset("osr")
    statblocks.load(c, YAML)
    try:
        for block in PYTHON:
            exec(block, {"kampagne": c})
        enc = c.encounter
        assert enc.order[:4] == ["Bär", "Goblin 1", "Goblin 2", "Ork"]   # round 2: Goblins 6 against 2
        assert {"unsichtbar", "schläft"} <= set(c.figure("Goblin 2").conditions) | set(c.figure("Ork").conditions)
        assert c.data("osr") == {"ueberrascht_bis": 2, "gleichstand": "gleichzeitig", "rk_aufsteigend": False,
                                 "todesschwelle": 0, "bewusstlos_schwelle": None}
    finally:
        c.close()


def test_side_initiative_with_the_missile_bonus(camp):
    # Gruppe 5, Goblins 3: the archer (5 + 2) first, then the rest of the party by name
    assert camp.encounter.order == ["Schütze", "Hauptmann", "Magier", "Reiter", "Wachmann",
                                    "Bär", "Goblin 1", "Goblin 2", "Ork"]
    res = rpgkernel.resolve(DOC.example('initiative Hauptmann, Schütze, "Goblin 1"'), campaign=camp, dice=[2, 5])
    assert res.outcome["segmente"] == {"Gruppe": 5, "Goblins": 2}
    assert res.outcome["reihenfolge"] == ["Goblin 1", "Schütze", "Hauptmann"]   # 5 against 2 + 2
    pv = res.preview
    assert pv["P(Initiative für Gruppe)"] == pytest.approx(15 / 36, abs=1e-12)
    assert pv["P(Gleichstand: gleichzeitig)"] == pytest.approx(1 / 6, abs=1e-12)
    assert pv["P(Schütze handelt mit Fernkampfbonus vor der anderen Seite)"] == pytest.approx(26 / 36, abs=1e-12)
    said("### `initiative` (Alias `init`)", f"bei zwei Seiten {share(pv['P(Initiative für Gruppe)'], 36)};",
         f"bei zwei Seiten {pv['P(Gleichstand: gleichzeitig)'] * 6:.0f}/6;",
         f"etwa {share(pv['P(Schütze handelt mit Fernkampfbonus vor der anderen Seite)'], 36)} für b = 2")


def test_surprise_with_a_wider_range(camp):
    line = DOC.example('surprise Hauptmann, Schütze, Wachmann, Magier, Reiter, "Goblin 1", "Goblin 2", Ork bis=3')
    res = rpgkernel.resolve(line, campaign=camp, dice=[3, 4])
    assert res.outcome == {"überrascht": ["Gruppe"]}
    assert all(p == pytest.approx(0.5) for p in res.preview.values())
    assert "überrascht" in camp.figure("Reiter").conditions and "überrascht" not in camp.figure("Ork").conditions


def test_the_charge_preview_of_the_doc_is_exact(camp):
    res = rpgkernel.resolve(DOC.example('angriff Hauptmann -> "Goblin 1" sturmangriff'), campaign=camp, preview=True)
    # first the goblin's spear (longer): level 1 against AC 5 (charging: no Dex) needs 15, 6/20;
    # W6 cannot take 20 TP, so the Hauptmann always strikes: 9 or more on the W20, 12/20
    assert hit_chance(res) == [pytest.approx(6 / 20, abs=1e-12), pytest.approx(12 / 20, abs=1e-12)]
    assert res.preview["P(Hauptmann fällt durch den Erstschlag von Goblin 1 auf 0 TP oder darunter)"] == 0
    on_hit = res.preview["schaden:Goblin 1"]
    oracle = icepool.d8 + 1
    for v in range(2, 10):
        assert on_hit.p_exactly(v) == pytest.approx(float(oracle.probability(v)), abs=1e-12)
    assert res.preview["erwartet:Goblin 1"].mean == pytest.approx(0.6 * 5.5, abs=1e-12)
    first, own = hit_chance(res)
    said("## Modifikatoren", f"P = {share(own, 20)} = {percent(own).replace(',00', '')}",
         f"Mittelwert {decimal(on_hit.mean)}), insgesamt {decimal(own)} · {decimal(on_hit.mean)} = "
         f"{decimal(res.preview['erwartet:Goblin 1'].mean)} im Mittel",
         f"P = {share(first, 20)} = {percent(first).replace(',00', '')}", "P(fällt) = 0 und")


def test_missile_fire_into_melee_as_in_the_doc(camp):
    res = rpgkernel.resolve(DOC.example('angriff Schütze -> Hauptmann, "Goblin 2"'), campaign=camp, dice=[2, 15, 4])
    assert res.outcome == {"ziel": "Goblin 2", "treffer": 1, "schaden": 4}
    assert tp(camp, "Goblin 2") == 0 and tp(camp, "Hauptmann") == 20


def test_a_lance_charge_from_the_warhorse(camp):
    # level 2 against AC 6 needs 14; 12 + 2 (charge) hits; W8 5 doubled + 1: the Ork's 6 TP down to 0,
    # not -5 (the seed names no lower bound: 0, which the card names)
    res = rpgkernel.resolve(DOC.example("attack Reiter -> Ork sturmangriff"), campaign=camp, dice=[12, 5])
    assert res.outcome["schaden"] == 11 and tp(camp, "Ork") == 0
    assert res.steps[-1].text == "TP von Ork: 6 → 0 (mindestens 0: Vorgabe, einstellbar mit untergrenzen)."
    assert ("Ork", "TP", -6) in [(e.figure, e.resource, e.by) for e in res.effects]
    assert {"stürmt", "hat gestürmt"} <= set(camp.figure("Reiter").conditions)
    with pytest.raises(RpgError, match="10 Runden"):
        rpgkernel.resolve("angriff Reiter -> Ork sturmangriff", campaign=camp, dice=[12, 5])


def test_a_set_spear_against_a_charge(camp):
    rpgkernel.resolve(DOC.example("stemmen Wachmann"), campaign=camp)
    with pytest.raises(RpgError, match="stürmenden"):
        rpgkernel.resolve("angriff Wachmann -> Ork", campaign=camp, dice=[13, 4])
    # the set spear is longer than the scimitar: the Wachmann strikes first. The charging Ork has no
    # Dex bonus: AC 7, level 1 needs 13; W20 13 hits, W6 4 doubled = 8 takes the Ork (6 TP) out
    card = rpgkernel.resolve("angriff Ork -> Wachmann sturmangriff", campaign=camp, dice=[13, 4])
    assert "längere Waffe (Speer)" in repr(card)
    assert card.outcome == {"ziel": "Wachmann", "treffer": 0, "schaden": 0, "gefallen": True}
    assert tp(camp, "Ork") == 0 and tp(camp, "Wachmann") == 8


def test_two_weapons_and_the_modifier_lines(camp):
    # level 3 against AC 6 needs 12; main +1 -2, off hand +1 -4; damage +1 each
    res = rpgkernel.resolve(DOC.example("angriff Hauptmann -> Ork zwei_waffen"), campaign=camp, dice=[13, 4, 15, 3])
    assert res.outcome == {"ziel": "Ork", "treffer": 2, "schaden": 9}
    flank = rpgkernel.resolve(DOC.example("angriff Hauptmann -> Ork flanke deckung=50"), campaign=camp, preview=True)
    assert hit_chance(flank) == [pytest.approx(6 / 20)]          # AC 2: needs 16, +1
    rear = rpgkernel.resolve(DOC.example("angriff Hauptmann -> Ork hinten tarnung=25 bonus=1"), campaign=camp,
                             preview=True)
    assert hit_chance(rear) == [pytest.approx(12 / 20)]          # AC 5: needs 13, +1 +2 +1


def test_fleeing_gives_each_opponent_an_attack_at_plus_four(camp):
    # Hauptmann needs 12: 7 + 1 + 4 hits for W8 3 + 1; Wachmann needs 14: 8 + 4 misses
    res = rpgkernel.resolve(DOC.example("fliehen Ork -> Hauptmann, Wachmann"), campaign=camp, dice=[7, 3, 8])
    assert res.outcome == {"schaden": 4} and tp(camp, "Ork") == 2
    assert "flieht" in camp.figure("Ork").conditions
    pv = rpgkernel.resolve("fliehen Ork -> Hauptmann, Wachmann", campaign=camp, preview=True)
    assert hit_chance(pv) == [pytest.approx(14 / 20), pytest.approx(11 / 20)]


def test_overbearing_holds_and_breaking_free(camp):
    # Goblin 2's spear outreaches bare hands: it strikes first, 9 misses (needs 15 against the charging AC 5)
    res = rpgkernel.resolve(DOC.example('wrestle Hauptmann -> "Goblin 2" sturmangriff'), campaign=camp, dice=[9, 9, 2])
    assert res.outcome["schaden"] == 1 and {"festgehalten", "liegend"} <= set(camp.figure("Goblin 2").conditions)
    assert not rpgkernel.resolve(DOC.example('losreißen "Goblin 2" chance=30'), campaign=camp, dice=[31]).outcome["frei"]
    with pytest.raises(RpgError, match="festgehalten"):
        rpgkernel.resolve('angriff "Goblin 2" -> Hauptmann', campaign=camp, dice=[20, 1])


def test_parry_withdrawal_and_advance(camp):
    rpgkernel.resolve(DOC.example("parieren Hauptmann"), campaign=camp)
    pv = rpgkernel.resolve("angriff Ork -> Hauptmann", campaign=camp, preview=True)
    assert hit_chance(pv) == [pytest.approx(4 / 20)]             # level 2 against AC 4 needs 16, -1
    with pytest.raises(RpgError, match="nicht angreifen"):
        rpgkernel.resolve('angriff Hauptmann -> Ork', campaign=camp, dice=[20, 1])
    rpgkernel.resolve(DOC.example("rückzug Hauptmann tausch=Wachmann pariert"), campaign=camp)
    assert {"zieht sich zurück", "pariert"} <= set(camp.figure("Hauptmann").conditions)
    rpgkernel.resolve(DOC.example('vorrücken Hauptmann -> "Goblin 1", "Goblin 2"'), campaign=camp)
    assert "kein Angriff" in camp.figure("Goblin 1").conditions


def test_a_caster_hit_loses_the_spell(camp):
    res = rpgkernel.resolve(DOC.example("cast Magier spruch=Feuerball zeit=12 segment=5"), campaign=camp)
    assert res.outcome == {"zauber": "Feuerball", "runden": 2}
    # casting: no Dex bonus, AC 10; level 2 needs 10
    hit = rpgkernel.resolve("angriff Ork -> Magier", campaign=camp, dice=[10, 2])
    assert hit.outcome["schaden"] == 2 and "zaubert" not in camp.figure("Magier").conditions


def test_invisible_and_sleeping_targets(camp):
    camp.add_condition("Goblin 2", "unsichtbar")
    with pytest.raises(RpgError, match="bekannter Position"):
        rpgkernel.resolve('angriff Hauptmann -> "Goblin 2"', campaign=camp, preview=True)
    pv = rpgkernel.resolve(DOC.example('angriff Hauptmann -> "Goblin 2" position_bekannt'), campaign=camp, preview=True)
    assert hit_chance(pv) == [pytest.approx(6 / 20)]             # needs 12, +1 -4
    camp.add_condition("Ork", "schläft")
    res = rpgkernel.resolve(DOC.example("angriff Hauptmann -> Ork toetung=40"), campaign=camp, dice=[40])
    assert res.outcome["getötet"] and "tot" in camp.figure("Ork").conditions


def test_the_hit_dice_table_as_described():
    assert [osr.stufe_aus_tw(tw) for tw in ("0", "1-1", "1", "1+1", "2", "3", "18+1", "19+1", "1-2")] == \
        [0, 1, 2, 3, 3, 4, 20, 20, 0]


# -- the start line and the preview cell in a notebook, the GM's files -------------

START = PAGE.block("", "%rpg osr --kampagne kampagne.sqlite")
PREVIEW = PAGE.block("", "%%resolve --vorschau")
MATRIX, SAVES = PAGE.take("yaml", after="## Daten der Spielleitung", count=2)


def test_the_start_line_and_the_preview_cell_in_a_notebook(notebook):
    notebook.ok(START.text)
    assert rpgkernel.session.current().campaign.ruleset == "osr"
    notebook.ok("%%figuren\n" + YAML)
    camp = rpgkernel.session.current().campaign
    before = camp.store.last_seq()
    [card] = notebook.ok(PREVIEW.text)
    assert camp.store.last_seq() == before   # nothing rolled, nothing changed
    # the page's numbers: Goblin 1 first needs 15 (6/20 = 30 %), the Hauptmann 9 or more (12/20 = 60 %)
    assert "30,00 %" in card and "60,00 %" in card and "P = 12/20 = 60 %" in " ".join(DOC.text.split())


def test_the_gm_files_of_the_page(tmp_path):
    (tmp_path / "matrix.yaml").write_text(MATRIX.text, encoding="utf-8")
    (tmp_path / "saves.yaml").write_text(SAVES.text, encoding="utf-8")
    with Campaign.open(tmp_path / "g.sqlite") as c:
        c.set_ruleset("osr")
        statblocks.load(c, YAML)
        osr.einrichten(matrix=tmp_path / "matrix.yaml", rettungswuerfe=tmp_path / "saves.yaml", kampagne=c)
        # level 3 against AC 6 needs 12 in the page's matrix (row 3-4, column 6): +1 strength, 11 or more
        pv = rpgkernel.resolve("angriff Hauptmann -> Ork", campaign=c, preview=True)
        assert hit_chance(pv) == [pytest.approx(10 / 20, abs=1e-12)]
        # the Ork (1 HD: level 2) saves against poison with 14 in the page's table (row 1-4)
        assert rpgkernel.resolve("rettungswurf Ork kategorie=Gift", campaign=c, dice=[14]).outcome["gelungen"]
        assert not rpgkernel.resolve("rettungswurf Ork kategorie=Gift", campaign=c, dice=[13]).outcome["gelungen"]
        for line in ("angriff Bär -> Hauptmann", "rettungswurf Bär kategorie=Gift"):   # 3+1 HD: level 5, in no row
            with pytest.raises(RpgError, match="Stufe 5"):
                rpgkernel.resolve(line, campaign=c, preview=True)
