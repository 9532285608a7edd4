"""AdZ: every verb's card says its outcome as one German sentence (Resolution.summary)."""

import html
import re
import shutil

import pytest
from doc_blocks import page

import rpgkernel
from rpgkernel import Campaign, statblocks
from rpgkernel.errors import ResolveError
from rpgkernel.render import resolution_html, resolution_text
from rpgkernel.rules.wording import outcome_text
from rpgkernel.resolve.language import parse
from rpgkernel.resolve.run import PASS
from rpgkernel.rules.adz.verbs import VERBS

PAGE = page("adz.md")
DOC = " ".join(PAGE.text.split())
DOC_CELLS = PAGE.take("", "%%resolve --würfel", count=2)
FIGURES = """
figuren:
  - name: Alrik
    werte:
      {KK: 5, KO: 4, GE: 6, FF: 3, KL: 3, WK: 4, IN: 5, CH: 2, GL: 3,
       fertigkeiten: ["Klettern 4", "Schwerter 6", "Verteidigung 5", "Reflexe 2", "Bögen 3", "Lügen 2"],
       spezialisierungen: ["Parade 2"],
       waffen: ["Langschwert (Schwerter, KK, GS 5)", "Kurzbogen (Bögen, GS 3, RK C)"],
       ausruestung: ["Kettenhemd (RS 2, WB 1, AM 1)"]}
  - name: Magierin
    werte: {KK: 2, KO: 3, GE: 3, FF: 4, KL: 6, WK: 5, IN: 4, CH: 3, GL: 3, erschaffen: 4, beherrschen: 3,
            magiebereiche: ["Feuer 5", "Humanoid 3", "Licht 4"], foki: ["Flammen 2"]}
begegnung:
  name: Hohlweg
  teilnehmer:
    - figur: Alrik
      seite: Spieler
    - name: Ork
      anzahl: 2
      seite: Feinde
      werte: {KK: 6, KO: 5, GE: 4, FF: 2, KL: 2, WK: 3, IN: 3, CH: 1, GL: 1,
              fertigkeiten: ["Äxte 5", "Verteidigung 3"], waffen: ["Axt (Äxte, KK, GS 6, VM -1)"]}
"""

# Cells that together run every action verb through its branches (tests passed and failed,
# impossible, opposed, hits, parries, misses, damage to unconsciousness and beyond, spells with
# drain, targets and saving throws, healing); each runs with several seeds.
CELLS = [
    "probe Alrik attribut=GE fertigkeit=Klettern mw=3",
    "probe Alrik attribut=CH mw=4",
    "test Alrik attribut=CH mw=4 zulassen",
    "vergleich Alrik -> \"Ork 1\" attribut=KK ziel_attribut=KK gleichwertig",
    "opposed Alrik -> \"Ork 1\" attribut=CH fertigkeit=Lügen ziel_attribut=IN mw=2 ziel_mw=2",
    "initiative Alrik, \"Ork 1\", \"Ork 2\"",
    "init Magierin modifikator=-4",
    "angriff Alrik -> \"Ork 1\" verteidigung=parade",
    "attack \"Ork 1\" -> Alrik mw=3",
    "schaden \"Ork 2\" menge=9\nangriff Alrik -> \"Ork 2\"",
    "angriff Alrik -> \"Ork 1\" waffe=Kurzbogen entfernung=nah keine_verteidigung",
    "zauber Magierin bereich=Feuer technik=erschaffen mw=2 kp=4",
    "zauber Magierin -> \"Ork 1\" bereich=Humanoid technik=beherrschen mw=2 kp=3",
    "zauber Magierin bereich=Licht technik=erschaffen mw=1 kp=1 aufrecht name=Lichtkugel\n"
    "erneuern Magierin kp=2 name=Lichtkugel\nbeenden Magierin name=Lichtkugel",
    "cast Magierin bereich=Feuer technik=erschaffen mw=6 kp=2",
    "zauber Magierin bereich=Feuer technik=erschaffen mw=12 kp=2",
    "schaden Magierin menge=10 leiste=geistig\nrenew Magierin kp=6",
    "schaden Alrik menge=2 leiste=geistig\nheal Alrik stufen=4 leiste=geistig",
    "damage \"Ork 1\" menge=0\nschaden \"Ork 1\" menge=14\nheilung \"Ork 1\" stufen=3 magisch",
    "schaden Alrik menge=12\nheilung Alrik stufen=1 phasen=2",
    "heilung Alrik stufen=1 phasen=2",
    "schaden Alrik menge=12 leiste=geistig\nschaden Alrik menge=12\nheilung Alrik stufen=1 phasen=3",
    "auffüllen Alrik, Magierin\nrefill \"Ork 1\" auf=2",
]
SPELLINGS = {n.lower(): v.name for v in VERBS.values() for n in (v.name, *v.aliases)} | {PASS: PASS, "pass": PASS}


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    """The fixture campaign, written once; each run opens a copy."""
    path = tmp_path_factory.mktemp("adz") / "vorlage.sqlite"
    with Campaign.open(path) as c:
        c.set_ruleset("adz")
        statblocks.load(c, FIGURES)
    return path


def campaign(template, path):
    shutil.copy(template, path)
    return Campaign.open(path)


@pytest.fixture
def camp(template, tmp_path):
    c = campaign(template, tmp_path / "adz.sqlite")
    yield c
    c.close()


def cards(result):
    return list(result) if isinstance(result, list) else [result]


def quoted(name):
    return f'"{name}"' if " " in name else name


def assert_says(res):
    """The sentence names everyone involved, reads as German, and is no data dump."""
    said = res.summary
    assert said and said.endswith(".") and said[0].isupper(), (res.action, said)
    assert "_" not in said and " · " not in said and not said.startswith("Ergebnis"), said
    assert not res.outcome or outcome_text(res) not in said
    for name in (*res.actors, *res.targets):
        assert name in said, (name, said)
    if res.open:
        assert all({"glück": "Glückspool", "verteidigen": "verteidigen"}[c.key] in said for c in res.choices)
        for choice in res.choices:
            for name in choice.who:
                assert name in said, (name, said)
    assert resolution_text(res).splitlines()[1].strip() == said        # the card's headline
    assert html.escape(said) in resolution_html(res)


def close(camp, res, luck):
    """Take the open choice (the defence; luck on the first roll one may take) or decline it; the card
    after it and the verb."""
    choice = res.choices[0]
    if luck and choice.key == "verteidigen":
        return rpgkernel.resolve(f"verteidigen {quoted(choice.who[0])}", campaign=camp, seed=3), "verteidigen"
    if luck:
        for roll in choice.options:
            try:
                return rpgkernel.resolve(f"glück {quoted(choice.who[0])} wurf={roll}", campaign=camp, seed=3), "glück"
            except ResolveError:
                continue
    return rpgkernel.resolve(f"verzicht {quoted(choice.who[0])}", campaign=camp), PASS


def test_every_verb_says_its_outcome_in_every_branch(template, tmp_path):
    used, words = set(), set()
    for n, cell in enumerate(CELLS):
        used |= {SPELLINGS[parse(line)[0].verb.text.lower()] for line in cell.splitlines()}
        for seed in range(6):
            camp = campaign(template, tmp_path / f"{n}-{seed}.sqlite")
            try:
                for res in cards(rpgkernel.resolve(cell, campaign=camp, seed=seed)):
                    assert_says(res)
                    words |= set(res.summary.split())
                    while res.open:   # the defence, then the luck pool
                        res, verb = close(camp, res, luck=seed % 2 == 0)
                        used.add(verb)
                        assert_says(res)
            finally:
                camp.close()
    assert used == set(VERBS) | {PASS}
    # the branches seen, by their verbs: tests passed and failed, impossible, hits, parries, misses, spells …
    assert {"besteht", "scheitert", "ist", "trifft", "wehrt", "verfehlt", "wirkt", "erleidet", "baut",
            "gewinnt", "hat", "beendet", "versorgt"} <= words


def test_a_failed_test_and_the_open_luck_pool(camp):
    dice = [5] + [1] * 9
    res = rpgkernel.resolve("probe Alrik attribut=GE fertigkeit=Klettern mw=3 entschieden", campaign=camp, dice=dice)
    assert res.summary == "Alrik scheitert an der Fertigkeitsprobe mit 1 Erfolg."
    res = rpgkernel.resolve("probe Alrik attribut=GE fertigkeit=Klettern mw=3", campaign=camp, dice=dice)
    assert res.open and res.summary == ("Alrik scheitert an der Fertigkeitsprobe mit 1 Erfolg; "
                                        "Alrik kann den Glückspool einsetzen.")
    res = rpgkernel.resolve("glück Alrik", campaign=camp, dice=[6, 5, 1])
    assert res.summary == "Alrik besteht die Fertigkeitsprobe mit 3 Erfolgen."
    res = rpgkernel.resolve("probe Alrik attribut=CH mw=4", campaign=camp)
    assert res.summary == "Alrik ist der Attributsprobe nicht gewachsen, es wird nicht gewürfelt."


def test_a_hit_with_damage_and_an_unconscious_target(camp):
    attack, defence, resistance = [6] * 4 + [1] * 6, [5] + [1] * 5, [6] + [1] * 4
    res = rpgkernel.resolve('angriff Alrik -> "Ork 1" entschieden', campaign=camp,
                            dice=attack + defence + resistance)
    # 4 successes − 1 defence = 3 left; GS 5 + 3 − RS 0 = 8, resistance 1: 7 steps
    assert res.summary == "Alrik trifft Ork 1 und richtet 7 Stufen körperlichen Schaden an."
    rpgkernel.resolve('schaden "Ork 2" menge=5', campaign=camp)       # malus 2: four defence dice
    res = rpgkernel.resolve('angriff Alrik -> "Ork 2"\nverteidigen "Ork 2"', campaign=camp,
                            dice=attack + [5, 1, 1, 1] + resistance)
    assert res.open and res.summary == ("Alrik trifft Ork 2 und richtet 7 Stufen körperlichen Schaden an; "
                                        "Ork 2 ist bewusstlos und dem Tod nahe; "
                                        "Alrik und Ork 2 können den Glückspool einsetzen.")
    res = rpgkernel.resolve("verzicht Alrik", campaign=camp)
    assert res.summary == "Alrik trifft Ork 2 und richtet 7 Stufen körperlichen Schaden an; Ork 2 ist bewusstlos " \
                          "und dem Tod nahe."
    assert f"„{res.summary}“" in DOC
    res = rpgkernel.resolve('schaden "Ork 2" menge=1', campaign=camp)
    assert res.summary == ("Ork 2 erleidet 1 Stufe körperlichen Schaden; Ork 2 ist über die letzte Stufe hinaus: "
                           "nur sofortige Heilungsmagie kann noch retten.")
    res = rpgkernel.resolve('heilung "Ork 2" stufen=2 magisch', campaign=camp)
    assert res.summary == ("Heilungsmagie baut bei Ork 2 2 Stufen körperlichen Schaden ab; "
                           "Ork 2 ist wieder bei Bewusstsein.")


def test_a_hit_that_does_no_damage(camp):
    res = rpgkernel.resolve('angriff "Ork 1" -> Alrik entschieden', campaign=camp,
                            dice=[6] + [1] * 10 + [1] * 11 + [6] * 5)
    # 1 success, no defence: GS 6 + 1 − RS 2 = 5, resistance (KO 4 + WB 1) 5 successes
    assert res.summary == "Ork 1 trifft Alrik, richtet aber keinen Schaden an."


def test_parry_miss_and_opposed_test(camp):
    res = rpgkernel.resolve('angriff Alrik -> "Ork 1" entschieden', campaign=camp, dice=[6] + [1] * 9 + [6] * 6)
    assert res.summary == "Ork 1 wehrt den Angriff von Alrik ab."
    res = rpgkernel.resolve('angriff Alrik -> "Ork 1" mw=2 entschieden', campaign=camp, dice=[6] + [1] * 9)
    assert res.summary == "Alrik verfehlt Ork 1."
    res = rpgkernel.resolve('vergleich Alrik -> "Ork 1" attribut=KK ziel_attribut=KK entschieden', campaign=camp,
                            dice=[5, 1, 1, 1, 1] + [6, 6, 1, 1, 1, 1])
    assert res.summary == "Ork 1 gewinnt die vergleichende Probe gegen Alrik mit 2 zu 1 Erfolgen."


def test_a_spell_its_drain_and_its_target(camp):
    dice = [5, 5] + [1] * 7 + [1] * 5
    res = rpgkernel.resolve("zauber Magierin bereich=Feuer technik=erschaffen mw=2 kp=4 entschieden", campaign=camp,
                            dice=dice)
    assert f"„{res.summary}“" in DOC
    camp.undo()
    res = rpgkernel.resolve("zauber Magierin bereich=Feuer technik=erschaffen mw=2 kp=4", campaign=camp, dice=dice)
    assert res.open and res.summary == ("Magierin wirkt Feuer erschaffen mit 2 Erfolgen; Magierin erleidet durch "
                                        "den Entzug 4 Stufen geistigen Schaden; Magierin kann den Glückspool "
                                        "einsetzen.")
    res = rpgkernel.resolve('zauber Magierin -> "Ork 1" bereich=Humanoid technik=beherrschen mw=1 kp=2 entschieden',
                            campaign=camp, dice=[6, 6] + [1] * 4 + [6, 1, 1] + [6, 6] + [1] * 4)
    assert res.summary == ("Magierin wirkt Humanoid beherrschen auf Ork 1 mit 2 Erfolgen; Magierin erleidet durch "
                           "den Entzug keinen geistigen Schaden.")
    res = rpgkernel.resolve('zauber Magierin -> "Ork 1" bereich=Humanoid technik=beherrschen mw=1 kp=2 entschieden',
                            campaign=camp, dice=[6] + [1] * 5 + [6, 6, 1] + [6, 6] + [1] * 3)
    assert res.summary == ("Magierin wirkt Humanoid beherrschen, aber Ork 1 widersteht; Magierin erleidet durch den "
                           "Entzug keinen geistigen Schaden.")
    res = rpgkernel.resolve('zauber Magierin -> "Ork 1" bereich=Feuer technik=erschaffen mw=12 kp=2', campaign=camp)
    assert res.summary == ("Magierin ist der Zauberprobe für Feuer erschaffen auf Ork 1 nicht gewachsen, es wird "
                           "nicht gewürfelt.")


def test_the_docs_cards_say_what_the_engine_says(camp):
    """Each `%%resolve --würfel` cell of docs/adz.md, run in order, says the sentence quoted after it."""
    cells = [(line.split()[1], body) for _, line, body in (cell.magic for cell in DOC_CELLS)]
    said = re.findall("„(.*?)“", DOC[DOC.index("%%resolve --würfel"):])      # in the order of the cells
    assert len(said) >= len(cells)
    for (dice, source), sentence in zip(cells, said):
        res = rpgkernel.resolve(source, campaign=camp, dice=[int(x) for x in dice.split(",")])
        assert res.summary == sentence
