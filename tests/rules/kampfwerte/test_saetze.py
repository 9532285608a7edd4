"""Kampfwerte: every verb's card, and every manoeuvre's, says its outcome as a German sentence
(Resolution.summary)."""

import pytest
from doc_blocks import page

import rpgkernel
from rpgkernel import Campaign
from rpgkernel.rules.kampfwerte import EINSTELLUNGEN, HexKarte, karte_setzen
from rpgkernel.rules.kampfwerte.verbs import VERBS

from saetze import assert_said, each

PAGE = page("kampfwerte.md")
CARDS = {"vor": PAGE.block("", "vor: Kael → Ork").text, "Riposte": PAGE.block("", "Riposte: Ork → Kael").text}
BASE = {"AUFMERKSAMKEIT": 3, "GEWANDTHEIT": 3, "INSTINKT": 3, "HEIMLICHKEIT": 3, "LP": 30}
MANOEUVRES = ["Rundumschlag 3", "Mehrfach-Angriff 2", "Schadenserhöhung 5", "Gezielte Attacke 2", "Schattensprung 4",
              "Wuchtschlag 5", "Schattenhieb 3", "Finte 3", "Starker Tritt 2", "Ausweichen Spezial 2", "Entwaffnen 3",
              "Mehrfach-Parade 2", "Dreckiger Rückzug 2", "Mantel-Parade 2", "Schattendolch 2", "Konterparade 3"]
KAEL = {**BASE, "AD": 40, "angriff": 5, "angriffsstufe": 3, "spielercharakter": True,
        "waffen": ["Dolch (Stichwaffe)"], "manoever": MANOEUVRES}
ORK = {**BASE, "AD": 10, "angriff": 4, "NK": 1, "ruestung": 2, "parade": 3, "angriffsstufe": 2,
       "manoever": ["Riposte 3"]}


@pytest.fixture
def camp(tmp_path):
    c = Campaign.open(tmp_path / "saetze.sqlite")
    c.set_ruleset("kampfwerte")
    enc = c.new_encounter("Gefecht")
    karte_setzen(enc, HexKarte(10, 10))
    enc.add("Kael", sheet=KAEL, side="Spieler")
    enc.add("Ork", sheet=ORK)
    enc.add("Goblin", sheet=ORK)
    rpgkernel.resolve("platziere Kael auf=(2,2)\nplatziere Ork auf=(3,2)\nplatziere Goblin auf=(2,3)", campaign=c)
    yield c
    c.close()


FINTE = ("manöver Kael -> Ork manöver=Finte stufe=2", [8, 8, 2, 2, 2])
RIPOSTE = ("manöver Ork -> Kael manöver=Riposte stufe=2 gegen=Finte:2 schaden=W6", [9, 9, 2, 2, 4])
#: per manoeuvre of the GM data: cells with given dice, hit, miss and what it does
MANOEUVRE_SCENARIOS = {
    "Rundumschlag": [("manöver Kael -> Ork, Goblin manöver=Rundumschlag stufe=2 schaden=W6+5", [8, 8, 2, 2, 2, 6])],
    "Mehrfach-Angriff": [("manöver Kael -> Ork, Goblin manöver=Mehrfach-Angriff stufe=2 nach=(2,1)",
                          [8, 8, 2, 2, 2])],
    "Schadenserhöhung": [("manöver Kael -> Ork manöver=Schadenserhöhung stufe=3 schaden=W6",
                          [8, 8, 2, 2, 2, 3, 5, 6]),
                         ("manöver Kael -> Ork manöver=Schadenserhöhung stufe=1 schaden=W6 abgewehrt",
                          [8, 8, 2, 2, 2])],
    "Gezielte Attacke": [('manöver Kael -> Ork manöver="Gezielte Attacke" stufe=2 schaden=W6', [8, 8, 2, 2, 2, 4])],
    "Schattensprung": [("manöver Kael -> Ork manöver=Schattensprung stufe=4 schaden=W6 nach=(2,1)",
                        [8, 8, 8, 2, 2, 4])],
    "Wuchtschlag": [("manöver Kael -> Ork manöver=Wuchtschlag stufe=5", [8, 8, 2, 2, 2, 9, 9, 9]),
                    ("manöver Kael -> Ork manöver=Wuchtschlag stufe=5", [8, 8, 2, 2, 2, 10, 10, 2]),
                    ("manöver Kael -> Ork manöver=Wuchtschlag stufe=1", [1, 1, 2, 2, 2])],
    "Schattenhieb": [("manöver Kael -> Ork manöver=Schattenhieb stufe=2 schaden=W2", [8, 8, 2, 2, 2, 1])],
    "Finte": [("manöver Kael -> Ork manöver=Finte stufe=2", [1, 1, 2, 2, 2]), FINTE],
    "Starker Tritt": [('manöver Kael -> Ork manöver="Starker Tritt" stufe=2', [8, 8, 2, 2, 2]),
                      ("platziere Ork auf=(3,2)", []),
                      ('manöver Kael -> Ork, Goblin manöver="Starker Tritt" stufe=2', [8, 8, 2, 2, 2])],
    "Ausweichen Spezial": [('manöver Kael manöver="Ausweichen Spezial" stufe=1 nach=(1,2)', [])],
    "Entwaffnen": [("manöver Kael -> Ork manöver=Entwaffnen stufe=3", [8, 8, 2, 2, 2])],
    "Mehrfach-Parade": [("manöver Kael manöver=Mehrfach-Parade stufe=2", [])],
    "Dreckiger Rückzug": [('manöver Kael -> Ork manöver="Dreckiger Rückzug" stufe=1 schaden=W6 nach=(1,2)',
                           [8, 8, 2, 2, 2, 5])],
    "Mantel-Parade": [("manöver Kael manöver=Mantel-Parade stufe=2", [])],
    "Schattendolch": [("manöver Kael -> Ork manöver=Schattendolch stufe=1 schaden=W4 nach=(1,2)",
                       [8, 8, 2, 2, 2, 3])],
    "Riposte": [FINTE, RIPOSTE],
    "Konterparade": [FINTE, RIPOSTE, ("manöver Kael -> Ork manöver=Konterparade stufe=2 gegen=Riposte:2",
                                      [10, 2, 2, 2, 2])],
}
#: per verb of the table: cells with given dice, each branch of its procedure
SCENARIOS = {
    "manöver": [*MANOEUVRE_SCENARIOS["Rundumschlag"], *MANOEUVRE_SCENARIOS["Konterparade"]],
    "bewege": [("bewege Kael nach=2,1 art=Schleichen", [1, 1, 1]), ("bewege Kael nach=2,1 art=Schleichen", [8, 8, 2]),
               ("bewege Kael nach=2,0", [])],
    "platziere": [("platziere Kael auf=(0,0)", [])],
    "probe": [("probe Kael talent=HEIMLICHKEIT", [8, 8, 2]), ("probe Kael talent=INSTINKT mod=1", [1, 2, 3, 4])],
    "vor": [("vor Kael -> Ork", [])],
    "bp": [("bp Kael", []), ("bp Kael, Ork", [])],
}


def test_every_verb_and_manoeuvre_has_its_scenarios():
    assert set(SCENARIOS) == set(VERBS)
    assert set(MANOEUVRE_SCENARIOS) == set(EINSTELLUNGEN.defaults().manoever)


def play(camp, cells):
    for cell, dice in cells:
        for res in each(rpgkernel.resolve(cell, campaign=camp, dice=dice)):
            assert_said(res)


@pytest.mark.parametrize("verb", sorted(SCENARIOS))
def test_every_verb_says_its_outcome_as_a_sentence(camp, verb):
    play(camp, SCENARIOS[verb])


@pytest.mark.parametrize("name", sorted(MANOEUVRE_SCENARIOS))
def test_every_manoeuvre_says_its_outcome_as_a_sentence(camp, name):
    play(camp, MANOEUVRE_SCENARIOS[name])


def said(camp, cell, dice):
    return assert_said(rpgkernel.resolve(cell, campaign=camp, dice=dice))


def test_damage_a_miss_a_defence_and_a_knock_down(camp):
    assert said(camp, "manöver Kael -> Ork, Goblin manöver=Rundumschlag stufe=2 schaden=W6+5",
                [8, 8, 2, 2, 2, 6]) == (
        "Kael trifft Ork und Goblin (Rundumschlag); Ork verliert 3 LP; Goblin verliert 3 LP.")
    assert said(camp, "manöver Kael -> Ork manöver=Wuchtschlag stufe=1", [1, 1, 2, 2, 2]) == (
        "Kael verfehlt Ork (Wuchtschlag).")
    assert said(camp, "manöver Kael -> Ork manöver=Schadenserhöhung stufe=1 schaden=W6 abgewehrt",
                [8, 8, 2, 2, 2]) == "Ork wehrt den Angriff von Kael ab (Schadenserhöhung)."
    assert said(camp, "manöver Kael -> Ork manöver=Wuchtschlag stufe=5", [8, 8, 2, 2, 2, 9, 9, 9]) == (
        "Kael trifft Ork (Wuchtschlag); Ork ist niedergeworfen.")


def test_the_finte_riposte_konterparade_chain(camp):
    assert said(camp, *FINTE) == "Kael trifft Ork (Finte); der nächste Angriff von Kael hat 6 Erfolge."
    riposte = said(camp, *RIPOSTE)
    assert riposte == (
        "Ork trifft Kael (Riposte); Kael verliert 4 LP; die Finte von Kael ist negiert; "
        "Kael kann bis Rundenende mit Konterparade antworten.")
    assert CARDS["Riposte"].startswith(f"Riposte: Ork → Kael\n  {riposte}\n")   # the doc's card
    assert said(camp, "manöver Kael -> Ork manöver=Konterparade stufe=2 gegen=Riposte:2", [10, 2, 2, 2, 2]) == (
        "Kael wehrt die Riposte von Ork ab (Konterparade); die Finte von Kael gilt wieder; Kael erhält 4 LP zurück.")


def test_moves_tests_and_initiative(camp):
    assert said(camp, "bewege Kael nach=2,1 art=Schleichen", [1, 1, 1]) == (
        "Kael scheitert an der Probe für Schleichen und bleibt auf Feld (2,2).")
    assert said(camp, "bewege Kael nach=2,1 art=Schleichen", [8, 8, 2]) == (
        "Kael erreicht Feld (2,1) (Schleichen, 2 BP).")
    assert said(camp, "probe Kael talent=HEIMLICHKEIT", [1, 2, 3]) == "Kael scheitert an der Probe auf HEIMLICHKEIT."
    assert said(camp, "bp Kael, Ork", []) == "Kael und Ork haben wieder volle BP für die neue Runde."
    before = said(camp, "vor Kael -> Ork", [])
    assert before == "Kael handelt mit 55,00 % vor Ork."
    assert CARDS["vor"].startswith(f"vor: Kael → Ork\n  {before}\n")   # the doc's card
