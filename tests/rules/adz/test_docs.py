"""docs/adz.md: every verb documented, every example line valid and run against a campaign."""

from pathlib import Path

import pytest
from doc_blocks import assert_shown, run_python
from verb_docs import VerbDoc

import rpgkernel
from rpgkernel import Campaign, statblocks
from rpgkernel.resolve.language import parse
from rpgkernel.resolve.run import PASS
from rpgkernel.rules import adz
from rpgkernel.rules.adz import sheet as bogen
from rpgkernel.rules.adz.verbs import VERBS
from rpgkernel.rules.figure import view

DOC = VerbDoc("adz.md", VERBS, declines=True)
PAGE = DOC.page
YAML = PAGE.block("yaml", "figuren:").text


def test_the_doc_has_example_blocks():
    assert len(DOC.blocks) >= 12 and len(DOC.examples) >= 30


@pytest.mark.parametrize("name", sorted(VERBS))
def test_every_verb_alias_and_option_is_documented(name):
    DOC.assert_documented(name)


@pytest.mark.parametrize("line", DOC.examples)
def test_every_example_line_names_known_verbs_and_options(line):
    DOC.assert_valid(line)


MORE = """
figuren:
  - name: Betty
    werte: {KK: 3, KO: 3, GE: 5, FF: 6, KL: 4, WK: 4, IN: 6, CH: 4, GL: 4}
  - name: Magierin
    werte: {KK: 2, KO: 3, GE: 3, FF: 4, KL: 6, WK: 5, IN: 4, CH: 3, GL: 3, erschaffen: 4, beherrschen: 3,
            magiebereiche: ["Feuer 5", "Pflanze 2", "Luft 4", "Humanoid 3", "Licht 4"], foki: ["Flammen 2"]}
  - name: Wolf
    werte: {KK: 4, KO: 4, GE: 6, FF: 1, KL: 1, WK: 2, IN: 6, CH: 1, GL: 1}
"""


@pytest.fixture
def camp(tmp_path):
    c = Campaign.open(tmp_path / "doc.sqlite")
    c.set_ruleset("adz")
    doc_figures = YAML.replace('"Klettern 4"]', '"Klettern 4", "Bögen 3", "Beidhändiger Kampf 2", "Akrobatik 3", '
                               '"Reiten 2", "Lügen 2"], spezialisierungen: ["Parade 2", "Felswände 1"]').replace(
        '       spezialisierungen: ["Parade 2"],\n', '').replace(
        'waffen: ["Langschwert (Schwerter, KK, GS 5)"]',
        'waffen: ["Langschwert (Schwerter, KK, GS 5)", "Kurzschwert (Schwerter, KK, GS 3)", '
        '"Kurzbogen (Bögen, GS 3, RK C)"]')
    statblocks.load(c, doc_figures)
    statblocks.load(c, MORE)
    c.encounter.add("Ork", side="Feinde", sheet={"KK": 6, "KO": 5, "GE": 4, "FF": 2, "KL": 2, "WK": 3, "IN": 3,
                                                 "CH": 1, "GL": 1, "fertigkeiten": ["Äxte 5", "Verteidigung 3"],
                                                 "waffen": ["Axt (Äxte, KK, GS 6, VM -1)"]})
    yield c
    c.close()


def test_the_sheet_example_loads(camp):
    assert camp.figure("Ork 2").resources["körperlich"] == {"value": 12, "max": 12}
    assert camp.figure("Alrik").resources["Glückspool"] == {"value": 3, "max": 3}


@pytest.mark.parametrize("line", [x for x in DOC.examples if DOC.spellings[parse(x)[0].verb.text.lower()] not in
                                  ("glück", "verteidigen", PASS)])
def test_every_action_example_runs(camp, line):
    if line.startswith("beenden"):
        rpgkernel.resolve("zauber Magierin bereich=Licht technik=erschaffen mw=1 kp=1 aufrecht name=Lichtkugel",
                          campaign=camp, seed=1)
    res = rpgkernel.resolve(line, campaign=camp, seed=7)
    assert res.steps


def test_the_choice_examples_close_open_resolutions(camp):
    rpgkernel.resolve("probe Alrik attribut=CH mw=2", campaign=camp, dice=[1, 1])
    assert rpgkernel.resolve("glück Alrik", campaign=camp, dice=[1, 1, 1]).outcome["würfel"] == 5
    asked = rpgkernel.resolve("angriff Alrik -> \"Ork 1\"", campaign=camp, dice=[6] * 4 + [1] * 6)
    assert [c.key for c in asked.choices] == ["verteidigen"]
    rpgkernel.resolve('verteidigen "Ork 1"', campaign=camp, dice=[1] * 6 + [1] * 5)
    res = rpgkernel.resolve('glück "Ork 1" wurf=widerstand', campaign=camp, dice=[6])
    assert res.outcome["widerstand"] == 1 and not res.open
    # Alrik parries with his specialisation (GE 6 + Verteidigung 5 + Parade 2 = 13 dice): KK 6 + Äxte 5
    rpgkernel.resolve('angriff "Ork 2" -> Alrik', campaign=camp, dice=[6] + [1] * 10)
    res = rpgkernel.resolve("defend Alrik verteidigung=parade", campaign=camp, dice=[6] + [1] * 12)
    assert "Parade 2" in " ".join(s.text for s in res.steps) and res.outcome["verteidigung"] == 1
    rpgkernel.resolve("zauber Magierin bereich=Feuer technik=erschaffen mw=2 kp=4", campaign=camp,
                      dice=[5, 5] + [1] * 7 + [1] * 5)
    assert not rpgkernel.resolve("luck Magierin wurf=entzug", campaign=camp, dice=[6, 6, 1]).open
    rpgkernel.resolve("probe Alrik attribut=CH mw=2", campaign=camp, dice=[1, 1])
    assert not rpgkernel.resolve("verzicht Alrik", campaign=camp).open
    rpgkernel.resolve("zauber Magierin bereich=Feuer technik=erschaffen mw=2 kp=4", campaign=camp,
                      dice=[5, 5] + [1] * 6 + [1] * 5)   # 2 mental steps now: malus 1
    assert not rpgkernel.resolve("pass Magierin", campaign=camp).open


def test_gm_data_is_named_plainly():
    assert "austauschbare Standarddaten" in DOC.text and "Beispieldateien" in DOC.text
    for name in ("regeln.yaml", "fernkampf.yaml", "krafteinsatz.yaml", "beispiel_ausruestung.yaml",
                 "beispiel_magiebereiche.yaml", "beispiel_handlungen.yaml"):
        assert name in DOC.text and (rpgkernel.rules.adz.DATA / name).exists()
        text = (rpgkernel.rules.adz.DATA / name).read_text(encoding="utf-8")
        assert ("BEISPIELDATEN" in text) == name.startswith("beispiel")


# -- the start line in a notebook, the GM's files as the page shows them ----------

START = PAGE.block("", "%rpg adz --kampagne kampagne.sqlite")
SETUP = PAGE.block("python", "from rpgkernel.rules import adz", after="## Daten der Spielleitung")
RULES_FILE, LISTS_FILE = PAGE.take("yaml", after="## Daten der Spielleitung", count=2)


def test_the_start_line_and_the_sheet_block_in_a_notebook(notebook):
    notebook.ok(START.text)
    assert rpgkernel.session.current().campaign.ruleset == "adz"
    notebook.ok("%%figuren\n" + YAML)
    [card] = notebook.ok("%%resolve --würfel 5,5,1,1,1,1,1,1,1,1\nprobe Alrik attribut=GE fertigkeit=Klettern mw=3")
    assert card.startswith("probe: Alrik\n")


def test_the_gm_files_go_into_the_campaign(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert RULES_FILE.text.startswith("# meine_regeln.yaml\n")
    Path("meine_regeln.yaml").write_text(RULES_FILE.text, encoding="utf-8")
    Path("meine_ausruestung.yaml").write_text(LISTS_FILE.text, encoding="utf-8")
    with Campaign.open("kampagne.sqlite") as camp:
        camp.set_ruleset("adz")
        d = run_python(SETUP.text, {"kampagne": camp})
        assert d.malus == [0, 1, 2, 3, 4, 5, "X"] and d.stufen == 7   # only what the file names changes
        assert d.raw["entzug"]["bei_misslingen"] is False and d.raw["initiative"]
        assert adz.EINSTELLUNGEN.kept_in(camp) is d and camp.data("adz")["quelle"] == "meine_regeln.yaml, " \
            "meine_ausruestung.yaml"
        camp.undo()                                                       # the page: undo takes them back
        assert camp.data("adz") is None and adz.EINSTELLUNGEN.kept_in(camp).stufen == 12
        d = run_python(SETUP.text, {"kampagne": camp})
        base = {"KK": 4, "KO": 3, "GE": 3, "FF": 3, "KL": 6, "WK": 5, "IN": 3, "CH": 2, "GL": 2}
        camp.add_character("Magierin", {**base, "erschaffen": 4, "magiebereiche": ["Feuer 5"]})
        camp.add_character("Ritter", {**base, "fertigkeiten": ["Schwerter 5"], "waffen": ["Langschwert"]})
        assert camp.figure("Ritter").resources["körperlich"] == {"value": 7, "max": 7}
        plan = adz.magic.zauberplan(view(camp.figure("Magierin").record), effekt="Flammenstrahl", daten=d)
        assert (plan.test.mw, plan.kp) == (2, 4)
        w = bogen.waffe_von(view(camp.figure("Ritter").record), None, d)
        assert (w.fertigkeit, w.attribut, w.grundschaden) == ("Schwerter", "KK", 4)


# -- Krafteinsatz der Effekte: the seed's example worked through --------------------

EFFECTS_FILE = PAGE.block("yaml", "# meine_effekte.yaml", after="## Krafteinsatz der Effekte")
EFFECTS_SETUP = PAGE.block("python", "from rpgkernel.rules import adz", after="## Krafteinsatz der Effekte")
EFFECTS_CELL, EFFECTS_SHOWN = PAGE.take("", after="## Krafteinsatz der Effekte", count=2)


def test_the_seeds_krafteinsatz_example(camp, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("meine_effekte.yaml").write_text(EFFECTS_FILE.text, encoding="utf-8")
    run_python(EFFECTS_SETUP.text, {"kampagne": camp})
    name, line, body = EFFECTS_CELL.magic
    assert (name, line) == ("resolve", "--vorschau")
    shown = rpgkernel.resolve(body, campaign=camp, preview=True)
    assert_shown(EFFECTS_SHOWN.text, str(shown))
    # "1 KP = einen Sinn eine Minute" -> "2 KP = zwei Sinne eine Minute", "1 KP = zwei Sinne 30 Sekunden"
    two, half, minute = (r.preview["geistiger_schaden"] for r in shown)
    assert (two.support[-1], half.support[-1], minute.support[-1]) == (2, 1, 2)
    res = rpgkernel.resolve(body.splitlines()[1] + " entschieden", campaign=camp, seed=4)
    assert res.outcome["kp"] == 1 and res.outcome["parameter"] == {"sinne": "2 Sinne", "dauer": "30 s"}
    assert "Entzug: 1 KP" in str(res)


def test_the_luck_advice_is_quoted_as_the_code_gives_it(camp):
    """"Rat zum Glückspool": Alrik's check of one success stays failed without luck (0 %); three luck dice
    need two more successes, 7/27 = 25,93 %."""
    from fractions import Fraction

    from rpgkernel.numerals import percent
    prose = " ".join(DOC.page.text.split("### Rat zum Glückspool", 1)[1].split("\n#", 1)[0].split())
    opened = rpgkernel.resolve("probe Alrik attribut=GE fertigkeit=Klettern mw=3", campaign=camp,
                               dice=[5, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    [advice] = opened.advice
    without, luck = ([c for _, c in o.chances][0] for o in advice.options)
    assert without == 0 and "bei einem Erfolg (0 %)" in prose
    share = Fraction(luck).limit_denominator(100)
    assert share == Fraction(7, 27) and f"{share}, also {percent(luck)}" in prose
