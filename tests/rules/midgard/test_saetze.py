"""Midgard: every verb's card says its outcome as one German sentence (Resolution.summary)."""

import html
import re
import shutil
from pathlib import Path

import pytest
from doc_blocks import page

import rpgkernel
from rpgkernel import Campaign, statblocks
from rpgkernel.render import resolution_html, resolution_text
from rpgkernel.rules.wording import outcome_text
from rpgkernel.resolve.language import parse
from rpgkernel.resolve.run import PASS
from rpgkernel.rules import midgard
from rpgkernel.rules.midgard.verbs import VERBS

BEISPIEL = Path(midgard.__file__).with_name("data") / "beispiel_spielleitung.yaml"
PAGE = page("midgard.md")
DOC = " ".join(PAGE.text.split())
YAML = PAGE.block("yaml", "figuren:").text
DOC_CELLS = PAGE.take("", "%%resolve --würfel", count=2)
FIGURES = """
figuren:
  - name: Wolfgang Krentz
    werte: {rasse: Mensch, klasse: Krieger, grad: 3, st: 81, ge: 70, ko: 65, rw: 62, kampftaktik: 2,
            waffen: ["Langschwert +10 (W6+2)"], abwehr: 14, rs: 3, lp: 16, ap: 30, gg: 1}
  - name: Schattenelf
    werte: {rasse: Schwarzalb, abwehr: 17, schild: klein, schild_ap: 1, rs: 2, rw: 81,
            waffen: ["Kurzschwert +9 (W6)", "Bogen +8 (W6)"], lp: 14, ap: 25}
  - name: Söldner
    werte: {abwehr: 10, waffen: ["Keule +5 (W6)"], lp: 3, ap: 4, schild: groß}
  - name: Ritter
    werte: {abwehr: 15, lp: 15, ap: 30, gg: 1}
  - name: Knappe
    werte: {abwehr: 5, lp: 3, ap: 2}
  - name: Bauer
    werte: {abwehr: 5, lp: 2, ap: 10}
  - name: Gaukler
    werte: {rasse: Mensch, ko: 20, groesse: klein, gestalt: schlank, abb: 1}
  - name: Fritz
    werte: {rw: 50}
  - name: Franz
    werte: {rw: 40}
  - name: Marvelus
    werte: {rasse: Mensch, klasse: Hexer, st: 60, ge: 45, ko: 60, in: 70, zt: 80, gg: 2, lp: 12, ap: 20,
            abwehr: 12, resistenz: 11, alter: 40, fertigkeiten: ["Balancieren +12", "Sehen +4"]}
  - name: Bilbo
    werte: {rasse: Halbling, klasse: Spitzbube, grad: 11, st: 15, ge: 100, ko: 50, zt: 70, ap: 40,
            groesse: klein, gestalt: schlank, fertigkeiten: ["Klettern +10"]}
  - name: Greis
    werte: {rasse: Mensch, st: 20, ge: 20, ko: 2, alter: 85}
  - name: Priester
    werte: {klasse: Priester, zt: 60, gg: 1}
  - name: Barde
    werte: {klasse: Barde}
"""

# Cells that together run every action verb through its branches (EW/WW/PW passed, failed and
# critical, attacks missed, defended and hitting, LP and AP run out, initiative with a leader,
# creation, learning, aging to death, spells and summonings, load); each runs with several seeds.
CELLS = [
    "ew Marvelus fertigkeit=Balancieren",
    "check Marvelus wert=8 wm=-2 ohne_gnade",
    "ew Bilbo fertigkeit=Sehen",
    "ww Schattenelf gegen=23",
    "resist Marvelus gegen=21 art=resistenz",
    "pw Marvelus eigenschaft=ko",
    'angriff "Wolfgang Krentz" -> Schattenelf',
    'angriff "Wolfgang Krentz" -> Ritter',
    'attack Schattenelf -> "Wolfgang Krentz" waffe=Kurzschwert',
    "angriff Schattenelf -> Söldner waffe=Bogen fernkampf eine_richtung",
    'volle_abwehr Schattenelf\nangriff "Wolfgang Krentz" -> Schattenelf abwehr_nr=3 schaden=W8',
    'initiative "Wolfgang Krentz", Fritz, Franz, Schattenelf',
    "init Schattenelf angriffsrang",
    'anführer "Wolfgang Krentz" -> Fritz, Franz\neigene Franz\ninitiative "Wolfgang Krentz", Fritz, Franz',
    'leader "Wolfgang Krentz" -> Fritz\nown_initiative Fritz dauerhaft',
    'anführer "Wolfgang Krentz" -> Fritz, Franz\neigene Fritz, Franz\nown_initiative Fritz, Franz dauerhaft',
    "abwarten Fritz, Franz\nhold Schattenelf",
    "attributkauf Bilbo rasse=Halbling punkte=8 ge=100",
    "lp_wurf Bilbo\nroll_lp Marvelus\nlp_wurf Gaukler",
    "ap_wurf Bilbo grad=11\nroll_ap Bilbo grad=12 von=11",
    "lernen Marvelus fertigkeit=Balancieren kategorie=Standard\n"
    "learn Bilbo fertigkeit=Klettern kategorie=Grund von_spielerfigur\n"
    "lernen Marvelus fertigkeit=Balancieren kategorie=Ausnahme",
    "angeboren Bilbo",
    "altern Marvelus bis=60\nage Greis bis=90 angezeigt=3\naltern Bilbo bis=30 von=28\naltern Marvelus von=40 bis=41",
    "zauber Marvelus sprüche='Schmerzen, Zeichen der Macht' erschaffung\nspells Barde sprüche='Lied der Tanzlust'\n"
    "zauber Marvelus sprüche='Sehen in Dunkelheit' klasse=Magier\nzauber Marvelus",
    "beschwörungslehre Priester ziel=Feuer form=Bannzauber wahl=Wasser\n"
    "summoning_lore Priester ziel=Luft klasse=Elementarbeschwörer wahl=Feuer\n"
    "beschwörungslehre Priester ziel=Erde klasse=Elementarbeschwörer wahl=Feuer",
    "beschwörung Priester grad=4 opfer=2 fesselung=12",
    "summon Priester grad=2",
    "belastung Bilbo gewicht=0,5\nload Bilbo gewicht=2\nbelastung Bilbo gewicht=12.5",
]
SPELLINGS = {n.lower(): v.name for v in VERBS.values() for n in (v.name, *v.aliases)} | {PASS: PASS, "pass": PASS}


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    """The fixture campaign with the example GM tables, written once; each run opens a copy."""
    path = tmp_path_factory.mktemp("midgard") / "vorlage.sqlite"
    with Campaign.open(path) as c:
        c.set_ruleset("midgard")
        statblocks.load(c, FIGURES)
        midgard.einrichten(BEISPIEL, kampagne=c)
    return path


def campaign(template, path):
    shutil.copy(template, path)
    return Campaign.open(path)


@pytest.fixture
def camp(template, tmp_path):
    c = campaign(template, tmp_path / "m.sqlite")
    yield c
    c.close()


def cards(result):
    return list(result) if isinstance(result, list) else [result]


def quoted(name):
    return f'"{name}"' if " " in name else name


def assert_says(res):
    """The sentence names everyone involved (and who may decide), reads as German, is no data dump."""
    said = res.summary
    assert said and said.endswith(".") and said[0].isupper(), (res.action, said)
    assert "_" not in said and " · " not in said and not said.startswith("Ergebnis"), said
    assert not res.outcome or outcome_text(res) not in said
    if res.open:
        for choice in res.choices:
            for name in choice.who:
                assert name in said, (name, said)
    else:
        for name in (*res.actors, *res.targets):
            assert name in said, (name, said)
    assert resolution_text(res).splitlines()[1].strip() == said        # the card's headline
    assert html.escape(said) in resolution_html(res)


def decide(camp, res, take):
    """Answer the open choice: grace (``take``) or decline, a free innate choice; the next card."""
    choice = res.choices[0]
    who = quoted(choice.who[0])
    if choice.key == "wahl":
        return rpgkernel.resolve(f"wahl {who} fähigkeit='{choice.options[-1]}'", campaign=camp, seed=4), "wahl"
    if take:
        return rpgkernel.resolve(f"gnade {who}", campaign=camp, seed=4), "gnade"
    return rpgkernel.resolve(f"verzicht {who}", campaign=camp, seed=4), PASS


def test_every_verb_says_its_outcome_in_every_branch(template, tmp_path):
    used, words = set(), set()
    for n, cell in enumerate(CELLS + ["angeboren Bilbo"]):
        used |= {SPELLINGS[parse(line)[0].verb.text.lower()] for line in cell.splitlines()}
        for seed in range(6):
            camp = campaign(template, tmp_path / f"{n}-{seed}.sqlite")
            try:
                given = {"dice": [100, 97]} if n == len(CELLS) else {"seed": seed}
                for res in cards(rpgkernel.resolve(cell, campaign=camp, **given)):
                    for step in range(10):
                        assert_says(res)
                        words |= set(res.summary.split())
                        if not res.open:
                            break
                        res, verb = decide(camp, res, take=(seed + step) % 2 == 0)
                        used.add(verb)
                    assert not res.open
            finally:
                camp.close()
    assert used == set(VERBS) | {PASS}
    assert {"besteht", "scheitert", "trifft", "wehrt", "verfehlt", "hat", "lernt", "kann", "ist", "führt",
            "würfelt", "beschwört", "geht"} <= words


def test_the_seeds_example_with_grace_and_the_light_hit(camp):
    res = rpgkernel.resolve('angriff "Wolfgang Krentz" -> Schattenelf', campaign=camp, dice=[5])
    assert res.open and res.summary == ("Wolfgang Krentz scheitert am EW: Angriff mit Langschwert gegen "
                                        "Schattenelf (15); Wolfgang Krentz kann den Wurf mit Göttlicher Gnade "
                                        "wiederholen lassen.")
    res = rpgkernel.resolve('gnade "Wolfgang Krentz"', campaign=camp, dice=[13, 15, 5])
    assert res.summary == "Schattenelf wehrt den Angriff von Wolfgang Krentz ab, leichter Treffer: 2 AP Schaden."


def test_every_pause_names_the_roll_and_who_may_have_it_repeated(camp):
    res = rpgkernel.resolve('angriff "Wolfgang Krentz" -> Ritter', campaign=camp, dice=[13])
    assert res.summary == ("Wolfgang Krentz besteht den EW: Angriff mit Langschwert gegen Ritter (23); "
                           "Wolfgang Krentz und Ritter können den Wurf mit Göttlicher Gnade wiederholen lassen.")
    res = rpgkernel.resolve("verzicht Ritter", campaign=camp, dice=[10])
    assert res.summary == ("Ritter besteht den WW: Abwehr (25 gegen 23); Wolfgang Krentz und Ritter können den Wurf "
                           "mit Göttlicher Gnade wiederholen lassen.")
    res = rpgkernel.resolve("verzicht Ritter", campaign=camp, dice=[5])
    assert res.summary == ("Wolfgang Krentz würfelt 7 Schaden gegen Ritter; Wolfgang Krentz und Ritter können den "
                           "Wurf mit Göttlicher Gnade wiederholen lassen.")
    res = rpgkernel.resolve("verzicht Ritter", campaign=camp)
    assert res.summary == "Ritter wehrt den Angriff von Wolfgang Krentz ab, leichter Treffer: 6 AP Schaden."


def test_a_heavy_hit_that_empties_lp_and_ap(camp):
    res = rpgkernel.resolve('angriff Schattenelf -> "Wolfgang Krentz" ohne_gnade', campaign=camp, dice=[15, 2, 6])
    # EW 15 + 9 = 24, WW 2 + 14 = 16 fails: 6 − RS 3 = 3
    assert res.summary == "Schattenelf trifft Wolfgang Krentz schwer: 3 LP und 3 AP Schaden."
    assert f"„{res.summary}“" in DOC
    res = rpgkernel.resolve("angriff Schattenelf -> Söldner", campaign=camp, dice=[15, 2, 5])
    assert res.summary == "Schattenelf trifft Söldner schwer: 5 LP und 4 AP Schaden; Söldner hat keine LP und " \
                          "keine AP mehr."
    res = rpgkernel.resolve("angriff Schattenelf -> Söldner", campaign=camp, dice=[1, 95])
    assert res.summary == ("Schattenelf verfehlt Söldner mit einem kritischen Fehler; Kritischer Fehler beim "
                           "Angriff: BEISPIEL: sich selbst verletzt – 1W6 Schaden.")
    res = rpgkernel.resolve("angriff Schattenelf -> Knappe", campaign=camp, dice=[15, 2, 2])
    assert res.summary == "Schattenelf trifft Knappe schwer: 2 LP und 2 AP Schaden; Knappe hat keine AP mehr."
    res = rpgkernel.resolve("angriff Schattenelf -> Bauer", campaign=camp, dice=[15, 2, 2])
    assert res.summary == "Schattenelf trifft Bauer schwer: 2 LP und 2 AP Schaden; Bauer hat keine LP mehr."
    res = rpgkernel.resolve('angriff Schattenelf -> "Wolfgang Krentz" ohne_gnade', campaign=camp, dice=[15, 2, 2])
    assert res.summary == "Schattenelf trifft Wolfgang Krentz schwer, doch die Rüstung hält den Schaden ab."


def test_critical_defences(camp):
    res = rpgkernel.resolve('angriff "Wolfgang Krentz" -> Schattenelf ohne_gnade', campaign=camp, dice=[15, 20, 5])
    assert res.summary == "Schattenelf wehrt den Angriff von Wolfgang Krentz kritisch ab und verliert keine AP."
    res = rpgkernel.resolve('angriff "Wolfgang Krentz" -> Schattenelf ohne_gnade abwehr_nr=1', campaign=camp,
                            dice=[15, 1, 3, 16])
    assert res.summary == ("Wolfgang Krentz trifft Schattenelf schwer: 3 LP und 3 AP Schaden; Schattenelf unterläuft "
                           "bei der Abwehr ein kritischer Fehler; Kritischer Fehler bei der Abwehr: BEISPIEL: Schild "
                           "oder Waffe verloren.")
    res = rpgkernel.resolve("ew Schattenelf wert=5 ohne_gnade", campaign=camp, dice=[20])
    assert res.summary == "Schattenelf besteht den EW: Wert (25, kritischer Erfolg)."
    res = rpgkernel.resolve("ww Schattenelf gegen=20 ohne_gnade", campaign=camp, dice=[1, 3])
    assert res.summary == ("Schattenelf scheitert am WW: Abwehr (18 gegen 20, kritischer Fehler); Kritischer Fehler "
                           "bei der Abwehr: BEISPIEL: gestolpert – nächste Abwehr WM −2.")


def test_a_critical_hit_with_the_gms_table_and_a_failed_ew(camp):
    res = rpgkernel.resolve('angriff "Wolfgang Krentz" -> Schattenelf ohne_gnade', campaign=camp,
                            dice=[20, 2, 5, 100])
    assert res.summary == ("Wolfgang Krentz trifft Schattenelf kritisch: 5 LP und 5 AP Schaden; "
                           "Kritischer Treffer: BEISPIEL: tödlicher Treffer.")
    res = rpgkernel.resolve("ew Marvelus fertigkeit=Balancieren ohne_gnade", campaign=camp, dice=[5])
    assert res.summary == "Marvelus scheitert am EW: Balancieren (15)."
    assert f"„{res.summary}“" in DOC
    res = rpgkernel.resolve("ew Marvelus fertigkeit=Balancieren", campaign=camp, dice=[5])
    assert res.open and res.summary == ("Marvelus scheitert am EW: Balancieren (15); Marvelus kann den Wurf mit "
                                        "Göttlicher Gnade wiederholen lassen.")
    res = rpgkernel.resolve("verzicht Marvelus", campaign=camp)
    assert res.summary == "Marvelus scheitert am EW: Balancieren (15)."


def test_creation_learning_aging_and_the_free_choice(camp):
    res = rpgkernel.resolve("lp_wurf Bilbo", campaign=camp, dice=[4])
    assert res.summary == "Bilbo hat jetzt 7 LP."
    res = rpgkernel.resolve("lp_wurf Gaukler", campaign=camp, dice=[1])
    assert res.summary == "Gaukler hat jetzt 3 LP und AbB +2."
    res = rpgkernel.resolve("zauber Marvelus sprüche='Sehen in Dunkelheit' klasse=Magier", campaign=camp)
    assert res.summary == "Marvelus lernt Sehen in Dunkelheit für 1 Lernpunkt."
    res = rpgkernel.resolve("lernen Marvelus fertigkeit=Balancieren kategorie=Standard", campaign=camp)
    assert res.summary == "Marvelus lernt Balancieren als Ausnahmefertigkeit für 200 FP; WM -2 auf jeden Wurf damit."
    res = rpgkernel.resolve("angeboren Bilbo", campaign=camp, dice=[100, 97])
    assert res.open and res.summary == ("Bilbo darf eine angeborene Fähigkeit frei wählen "
                                        "(dazu gewürfelt: Nachtsicht).")
    res = rpgkernel.resolve("wahl Bilbo fähigkeit='Scharfe Augen'", campaign=camp)
    assert res.summary == "Angeborene Fähigkeiten von Bilbo: Nachtsicht und Scharfe Augen."
    res = rpgkernel.resolve("angeboren Bilbo", campaign=camp, dice=[100, 100, 50])
    assert res.summary == ("Bilbo darf 2 angeborene Fähigkeiten frei wählen "
                           "(dazu gewürfelt: keine besondere Fähigkeit).")
    res = rpgkernel.resolve("verzicht Bilbo", campaign=camp)
    assert res.summary == "Angeborene Fähigkeit von Bilbo: keine besondere Fähigkeit; Bilbo hat noch 2 freie Wahlen."
    rpgkernel.resolve("angeboren Bilbo", campaign=camp, dice=[100, 50])
    res = rpgkernel.resolve("verzicht Bilbo", campaign=camp)
    assert res.summary == "Angeborene Fähigkeit von Bilbo: keine besondere Fähigkeit; Bilbo hat noch eine freie Wahl."
    res = rpgkernel.resolve("altern Greis bis=86 angezeigt=3", campaign=camp, dice=[4, 3, 1, 1, 3])
    # at 86 (every year from 80): St −4, Ge −3, Ko −(1 + 1), Sehen −1, Hören −1; Ko 0: the secret W6 3
    assert res.summary == ("Greis ist jetzt 86 Jahre alt: St 16, Ge 17, Ko 0, Sehen +7, Hören +7; "
                           "GEHEIM: Greis stirbt in 2 Jahren (dem Spieler Ko 3 nennen).")
    camp.undo()
    res = rpgkernel.resolve("altern Greis bis=86 angezeigt=3", campaign=camp, dice=[4, 3, 5, 5, 1])
    assert res.summary.endswith("GEHEIM: Greis stirbt noch in diesem Jahr (dem Spieler Ko 3 nennen).")
    res = rpgkernel.resolve("altern Marvelus bis=41", campaign=camp)
    assert res.summary == "Marvelus ist jetzt 41 Jahre alt, die Werte bleiben."


def test_the_docs_grace_walkthrough_says_what_the_engine_says(tmp_path):
    """The cells of the walkthrough in docs/midgard.md, on its YAML example, say the sentences quoted after them."""
    with Campaign.open(tmp_path / "doc.sqlite") as camp:
        camp.set_ruleset("midgard")
        statblocks.load(camp, YAML)
        cells = [(line.split()[1], body) for _, line, body in (cell.magic for cell in DOC_CELLS)]
        said = re.findall("„(.*?)“", DOC[DOC.index("%%resolve --würfel"):])      # in the order of the cells
        assert len(said) >= len(cells)
        for (dice, source), sentence in zip(cells, said):
            res = rpgkernel.resolve(source, campaign=camp, dice=[int(x) for x in dice.split(",")])
            assert res.summary == sentence
