"""docs/bastionland.md: every verb documented, every example line valid, some of them played."""

import re

import pytest
from doc_blocks import assert_shown, run_python
from verb_docs import VerbDoc

import rpgkernel
from rpgkernel import Campaign, statblocks
from rpgkernel.rules.bastionland.verbs import VERBS

DOC = VerbDoc("bastionland.md", VERBS, declines=True, comments=False)
PAGE = DOC.page


def test_the_doc_has_example_blocks():
    assert len(DOC.blocks) >= 15 and len(DOC.examples) >= 30


@pytest.mark.parametrize("name", sorted(VERBS))
def test_every_verb_and_alias_is_documented(name):
    DOC.assert_documented(name)


def test_pass_is_documented():
    assert re.search(r"^### `verzicht` \(Alias `pass`\)", DOC.text, re.M)
    assert any(line.startswith("verzicht ") for line in DOC.examples)


def test_gm_data_is_named_plainly():
    assert "Die Narbentabelle gehört der Spielleitung" in DOC.text
    assert "austauschbare Standarddaten" in DOC.text


@pytest.mark.parametrize("line", DOC.examples)
def test_every_example_line_parses_and_names_a_known_verb(line):
    DOC.assert_valid(line)


# -- played against a small campaign, with given dice ------------------------------

FIGURES = """
figuren:
  - name: Ritter
    werte: {vig: 14, cla: 12, spi: 13, gd: 5, ruestung: 2,
            waffen: ["Streitkolben (W8, wuchtig)", "Schild (W4)"], spielfigur: true}
  - name: Knappe
    werte: {vig: 10, cla: 9, spi: 11, gd: 3, ruestung: 1, waffen: ["Dolch (W6)", "Dolch (W6)"]}
begegnung:
  name: Furt
  teilnehmer:
    - figur: Ritter
      seite: Spieler
    - figur: Knappe
      seite: Spieler
    - name: Söldner
      seite: Feinde
      werte: {vig: 13, cla: 10, spi: 10, gd: 4, ruestung: 2, waffen: ["Speer (W8, wuchtig)", "Schild (W4)"]}
    - name: Miliz
      seite: Feinde
      werte: {art: Kriegsschar, vig: 10, cla: 10, spi: 7, gd: 3, waffen: ["Rohe Stangenwaffe (W8, lang)"]}
    - name: Kogge
      seite: Feinde
      werte: {art: Schiff, material: Holz, vig: 0, cla: 0, spi: 0, gd: 10}
    - name: Galeere
      seite: Feinde
      werte: {art: Schiff, material: Holz, vig: 0, cla: 0, spi: 0, gd: 20}
"""


@pytest.fixture
def camp(tmp_path):
    c = Campaign.open(tmp_path / "doc.sqlite")
    c.set_ruleset("bastionland")
    statblocks.load(c, FIGURES)
    yield c
    c.close()


def value(camp, name, resource):
    return camp.figure(name).resources[resource]["value"]


def test_a_save(camp):
    res = rpgkernel.resolve(DOC.example("probe Ritter virtue=CLA"), campaign=camp, dice=[12])
    assert res.outcome == {"erfolg": True, "wurf": 12, "wert": 12}


def test_the_rules_example_with_deny(camp):
    opened = rpgkernel.resolve(DOC.example("angriff Ritter, Knappe -> Söldner bonus=W8"), campaign=camp,
                               dice=[7, 3, 1, 5, 2])
    assert opened.open and value(camp, "Söldner", "GD") == 4
    closing = "\n".join([DOC.example("deny Söldner"), DOC.example("gambit Ritter bolster=5")])
    res = rpgkernel.resolve(closing, campaign=camp, dice=[14])  # SPI 10: missed -> Fatigued
    assert not res.open and res.outcome["höchster"] == 3 and res.outcome["schaden"] == 2
    assert value(camp, "Söldner", "GD") == 2 and "Fatigued" in camp.figure("Söldner").conditions


def test_the_rules_example_without_deny(camp):
    rpgkernel.resolve("angriff Ritter, Knappe -> Söldner", campaign=camp, dice=[7, 3, 1, 5])
    res = rpgkernel.resolve("\n".join([DOC.example("gambit Ritter bolster=5"), DOC.example("verzicht Söldner")]),
                            campaign=camp)
    assert res.outcome["schaden"] == 6
    assert value(camp, "Söldner", "GD") == 0 and value(camp, "Söldner", "VIG") == 11
    assert "verwundet" in camp.figure("Söldner").conditions


def test_a_warband_attacks_individuals_with_w12_and_blast(camp):
    opened = rpgkernel.resolve(DOC.example("angriff Miliz -> Ritter, Knappe"), campaign=camp, dice=[6, 9, 2, 6])
    assert opened.open and opened.outcome["blast"]
    res = rpgkernel.resolve(DOC.example("pass Ritter"), campaign=camp)
    assert res.outcome["ziele"]["Ritter"]["schaden"] == 7 and res.outcome["ziele"]["Knappe"]["schaden"] == 5
    assert value(camp, "Ritter", "VIG") == 12 and value(camp, "Knappe", "VIG") == 8
    rpgkernel.resolve(DOC.example("ruhe Ritter, Knappe"), campaign=camp)
    assert value(camp, "Ritter", "GD") == 5 and value(camp, "Knappe", "GD") == 3


def test_only_blast_hurts_a_warband(camp):
    rpgkernel.resolve(DOC.example("angriff Ritter -> Miliz smite=Blast"), campaign=camp, dice=[8, 4])
    res = rpgkernel.resolve("verzicht Ritter", campaign=camp, dice=[5])  # Smite: VIG save
    assert res.outcome["folge"] == "vertrieben" and "vertrieben" in camp.figure("Miliz").conditions


def test_loss_recovery_and_ships(camp):
    rpgkernel.resolve(DOC.example("verlust Ritter virtue=SPI um=2"), campaign=camp)
    assert value(camp, "Ritter", "SPI") == 11
    rpgkernel.resolve(DOC.example("recover Ritter, Knappe mittel=jahreszeit"), campaign=camp)
    assert value(camp, "Ritter", "SPI") == 13
    res = rpgkernel.resolve(DOC.example("zusammenstoß Kogge -> Galeere größer=Galeere"), campaign=camp, dice=[5, 3])
    assert res.outcome["Kogge"]["schaden"] == 5 and res.outcome["Galeere"]["schaden"] == 3
    assert value(camp, "Kogge", "GD") == 5
    rpgkernel.resolve(DOC.example("reparatur Kogge"), campaign=camp)
    assert value(camp, "Kogge", "GD") == 10


# -- the start line, the sheet block and the rules' example as cells in a notebook -----

START = PAGE.block("", "%rpg bastionland --kampagne kampagne.sqlite")
SHEET = PAGE.block("yaml", "figuren:")
ROLLED, OPENED_CARD, CLOSING, CLOSED_CARD = PAGE.take("", after="### Ein ganzer Angriff", count=4)
SCARS = PAGE.block("python", "from rpgkernel.rules import bastionland")
ADVICE = PAGE.block("", "angriff: Ritter", after="### Rat zu den offenen Entscheidungen")


def test_the_sheet_block_gives_the_resources_the_page_names(tmp_path):
    with Campaign.open(tmp_path / "bogen.sqlite") as c:
        c.set_ruleset("bastionland")
        statblocks.load(c, SHEET.text)
        assert c.figure("Ritter").resources == {"GD": {"value": 5, "max": 5}, "VIG": {"value": 14, "max": 14},
                                                "CLA": {"value": 12, "max": 12}, "SPI": {"value": 13, "max": 13}}
        assert c.figure("Ritter").sheet["ruestung_aus"] == "Kettenhemd, Schild" and c.encounter.name == "Furt"
        assert c.figure("Miliz").sheet["art"] == "Kriegsschar"


def test_the_rules_example_as_cells_in_a_notebook(notebook):
    notebook.ok(START.text)
    assert rpgkernel.session.current().campaign.ruleset == "bastionland"
    notebook.ok("%%figuren\n" + FIGURES)
    camp = rpgkernel.session.current().campaign
    [opened] = notebook.ok(ROLLED.text)
    assert_shown(OPENED_CARD.text, opened)
    assert_shown(ADVICE.text, opened)
    [closed] = notebook.ok(CLOSING.text)
    assert_shown(CLOSED_CARD.text, closed)
    # by hand: 7 + Bolster 1 − Armour 2 = 6 against GD 4: 2 VIG lost (13 -> 11)
    assert value(camp, "Söldner", "VIG") == 11 and "verwundet" in camp.figure("Söldner").conditions


def test_a_scar_table_kept_in_the_campaign_is_read_by_every_attack(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "narben.yaml").write_text("narben:\n  3: Schmiss über der Braue\n", encoding="utf-8")
    with Campaign.open(tmp_path / "n.sqlite") as c:
        c.set_ruleset("bastionland")
        statblocks.load(c, FIGURES)
        run_python(SCARS.text, {"kampagne": c})
        # Streitkolben 6, Schild 1: 6 − Armour 2 = 4 takes the Söldner's GD 4 to exactly 0: a scar, the W8 again
        res = rpgkernel.resolve('angriff Ritter -> "Söldner" entschieden', campaign=c, dice=[6, 1, 3])
    assert res.outcome["narbe_text"] == "Schmiss über der Braue"
    assert any("Schmiss über der Braue" in s.text for s in res.steps)


def test_the_python_only_functions_read_figure_views_as_the_page_shows(tmp_path):
    call = re.search(r"`(bastionland\.formation\(\[view\(kampagne.*?\)\]\))`", DOC.text.replace("\n", " "))
    assert call, "docs/bastionland.md zeigt keinen Aufruf mit view"
    from rpgkernel.rules import bastionland
    from rpgkernel.rules.figure import view
    with Campaign.open(tmp_path / "w.sqlite") as c:
        c.set_ruleset("bastionland")
        for n in ("A", "B", "C"):
            c.add_character(n, {"vig": 10, "cla": 10, "spi": 10, "gd": 3, "waffen": ["Speer (W8)", "Schild (W4)"]})
        wall = run_python(call.group(1), {"bastionland": bastionland, "view": view, "kampagne": c})
    assert wall == {"schildwall": True, "speerwall": True}
