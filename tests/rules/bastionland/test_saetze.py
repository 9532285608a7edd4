"""Mythic Bastionland: every verb's card says its outcome as a German sentence (Resolution.summary)."""

import pytest
from doc_blocks import page

import rpgkernel
from rpgkernel import Campaign
from rpgkernel.resolve.run import PASS
from rpgkernel.rules.bastionland.verbs import VERBS

from saetze import assert_said, each

CARD = "angriff: Ritter, Knappe → Söldner"
OPENED, CLOSED = page("bastionland.md").take("", CARD, count=2, after="### Ein ganzer Angriff")
SHOWN = page("resolve.md").block("", CARD)


@pytest.fixture
def camp(tmp_path):
    c = Campaign.open(tmp_path / "saetze.sqlite")
    c.set_ruleset("bastionland")
    enc = c.new_encounter("Furt")
    enc.add("Ritter", side="Spieler", sheet={"vig": 13, "cla": 10, "spi": 13, "gd": 5, "spielfigur": True,
                                             "waffen": ["Streitkolben (W8, wuchtig)", "Schild (W4)"]})
    enc.add("Knappe", side="Spieler", sheet={"vig": 10, "cla": 10, "spi": 10, "gd": 3,
                                             "waffen": ["Dolch (W6)", "Dolch (W6)"]})
    enc.add("Söldner", side="Feinde", sheet={"vig": 13, "cla": 10, "spi": 10, "gd": 4, "ruestung": 2,
                                             "waffen": ["Speer (W8, wuchtig)", "Schild (W4)"]})
    enc.add("Wache", side="Feinde", sheet={"vig": 10, "cla": 10, "spi": 12, "gd": 3})
    enc.add("Räuber", side="Feinde", sheet={"vig": 4, "cla": 10, "spi": 8, "gd": 2})
    enc.add("Tölpel", side="Feinde", sheet={"vig": 10, "cla": 0, "spi": 8, "gd": 5})
    enc.add("Miliz", side="Feinde", sheet={"art": "Kriegsschar", "vig": 10, "cla": 10, "spi": 7, "gd": 3,
                                           "waffen": ["Rohe Stangenwaffe (W8, lang)"]})
    enc.add("Kogge", side="Feinde", sheet={"art": "Schiff", "material": "Holz", "vig": 0, "cla": 0, "spi": 0,
                                           "gd": 10})
    enc.add("Galeere", side="Feinde", sheet={"art": "Schiff", "material": "Holz", "vig": 0, "cla": 0, "spi": 0,
                                             "gd": 20})
    yield c
    c.close()


#: per verb of the table (and the built-in verzicht): cells with given dice, each branch of its procedure
SCENARIOS = {
    "probe": [("probe Ritter virtue=CLA", [12]), ("probe Ritter virtue=SPI", [20])],
    "reaktion": [("reaktion Wache", [3]), ("reaktion Wache", [18])],
    "überraschung": [("überraschung Söldner, Knappe", [3, 15]), ("überraschung Söldner, Knappe", [1, 2]),
                     ("überraschung Söldner", [20])],
    "angriff": [("angriff Ritter -> Söldner entschieden", [8, 4]), ("angriff Ritter -> Söldner entschieden", [2, 1]),
                ("angriff Ritter -> Räuber entschieden", [8, 4]), ("angriff Ritter -> Tölpel entschieden", [6, 1]),
                ("angriff Ritter -> Wache entschieden", [3, 1, 5]), ("angriff Ritter -> Miliz entschieden", [5, 2]),
                ("angriff Ritter -> Miliz blast entschieden", [8, 4]),
                ("angriff Miliz -> Ritter entschieden", [8, 12]), ("angriff Ritter -> Kogge entschieden", [8, 4]),
                ("angriff Ritter -> Kogge ursache=feuer entschieden", [8, 4]),
                ("angriff Ritter, Knappe -> Söldner", [7, 3, 1, 5]),
                ("angriff Ritter -> Söldner, Wache blast", [6, 2, 7, 1]),
                ("angriff Ritter -> Söldner, Wache blast entschieden", [5, 2, 7, 1])],
    "moral": [("moral Söldner", [5]), ("moral Söldner, Wache, Ritter", [15]),
              ("moral Söldner, Wache gruppe verloren=1 größe=4", []),
              ("moral Söldner, Wache gruppe anführer=Wache verloren=2 größe=4", [15]),
              ("moral Söldner, Wache gruppe unorganisiert verloren=3 größe=4", [5, 5])],
    "ruhe": [("ruhe Ritter, Söldner", [])],
    "erholung": [("erholung Ritter virtue=VIG mittel=handlung", []), ("erholung Ritter, Knappe mittel=jahreszeit", [])],
    "verlust": [("verlust Ritter virtue=SPI um=2", []), ("verlust Knappe virtue=VIG um=19", []),
                ("verlust Knappe virtue=CLA um=19", []), ("verlust Knappe virtue=SPI um=19 grund=Albtraum", []),
                ("verlust Miliz virtue=SPI um=7", [])],
    "zusammenstoß": [("zusammenstoß Kogge -> Galeere größer=Galeere", [12, 3]),
                     ("zusammenstoß Kogge -> Galeere", [4, 12])],
    "reparatur": [("reparatur Kogge", [])],
    "deny": [("angriff Ritter -> Söldner", [7, 3]), ("deny Söldner", [15])],
    "gambit": [("angriff Ritter -> Söldner", [7, 3]), ("gambit Ritter bolster=7\nverzicht Söldner", [])],
    "focus": [("angriff Ritter -> Söldner", [7, 3]), ("focus Ritter gambit=Bolster", [5])],
    PASS: [("angriff Ritter -> Söldner", [7, 3]), ("verzicht Söldner", [])],
}


def test_every_verb_has_its_scenarios():
    assert set(SCENARIOS) == {*VERBS, PASS}


@pytest.mark.parametrize("verb", sorted(SCENARIOS))
def test_every_verb_says_its_outcome_as_a_sentence(camp, verb):
    if verb == "moral":
        camp.add_condition("Söldner", "verwundet")
    for cell, dice in SCENARIOS[verb]:
        for res in each(rpgkernel.resolve(cell, campaign=camp, dice=dice)):
            assert_said(res)


def said(camp, cell, dice):
    return assert_said(rpgkernel.resolve(cell, campaign=camp, dice=dice))


def test_a_kill_a_wound_a_miss_and_a_mortal_wound(camp):
    assert said(camp, "angriff Ritter -> Räuber entschieden", [8, 4]) == (
        "Ritter greift Räuber an: Räuber verliert 4 VIG und ist tot.")
    assert said(camp, "angriff Ritter -> Söldner entschieden", [8, 4]) == (
        "Ritter greift Söldner an: Söldner verliert 2 VIG und ist verwundet.")
    assert said(camp, "angriff Ritter -> Söldner entschieden", [2, 1]) == (
        "Ritter greift Söldner an: Söldner erleidet keinen Schaden.")
    assert said(camp, "angriff Ritter -> Tölpel entschieden", [6, 1]) == (
        "Ritter greift Tölpel an: Tölpel (schutzlos) verliert 6 VIG und erleidet eine Todeswunde.")
    assert said(camp, "angriff Ritter -> Wache entschieden", [3, 1, 5]) == (
        "Ritter greift Wache an: Wache verliert 3 GD und erhält eine Narbe.")


def test_an_open_deny_says_what_is_waiting_and_the_closing_line_what_came_of_it(camp):
    assert said(camp, "angriff Ritter, Knappe -> Söldner", [7, 3, 1, 5]) == (
        "Ritter und Knappe greifen Söldner an; noch offen: Söldner kann Deny einsetzen, "
        "Ritter und Knappe können Gambits und Focus einsetzen.")
    assert said(camp, "deny Söldner\ngambit Ritter bolster=5", [14]) == (
        "Ritter und Knappe greifen Söldner an: Söldner verliert 2 GD und bleibt unverletzt; "
        "Söldner ist jetzt Fatigued.")


def test_warbands_blast_and_ships(camp):
    assert said(camp, "angriff Ritter -> Miliz entschieden", [5, 2]) == (
        "Ritter greift Miliz an: Miliz bleibt unversehrt.")
    assert said(camp, "angriff Ritter -> Miliz blast entschieden", [8, 4]) == (
        "Ritter greift Miliz an: Miliz verliert 5 VIG und wird vom Schlachtfeld vertrieben.")
    assert said(camp, "angriff Ritter -> Söldner, Wache blast entschieden", [5, 2, 7, 1]) == (
        "Ritter greift Söldner und Wache an: Söldner verliert 3 GD und bleibt unverletzt; "
        "Wache verliert 4 VIG und ist verwundet.")
    assert said(camp, "zusammenstoß Kogge -> Galeere größer=Galeere", [12, 3]) == (
        "Kogge und Galeere stoßen zusammen: Kogge ist zerstört; Galeere verliert 3 GD (noch 17 GD).")


def test_saves_surprise_morale_and_virtue_loss(camp):
    assert said(camp, "probe Ritter virtue=CLA", [15]) == "Ritter scheitert an der CLA-Probe."
    assert said(camp, "probe Ritter virtue=CLA", [10]) == "Ritter besteht die CLA-Probe."
    assert said(camp, "überraschung Söldner, Knappe", [3, 15]) == (
        "Knappe setzt im ersten Zug aus; Söldner ist rechtzeitig kampfbereit.")
    camp.add_condition("Söldner", "verwundet")
    assert said(camp, "moral Söldner, Wache, Ritter", [15]) == (
        "Söldner flieht oder ergibt sich; Wache und Ritter halten stand.")
    assert said(camp, "verlust Knappe virtue=CLA um=19", []) == "Knappe verliert 19 CLA und ist schutzlos (CLA 0)."


def test_the_docs_show_the_sentences_the_cards_say(camp):
    """docs/bastionland.md and docs/resolve.md show the rules' example card, open and closed."""
    opened = f"{CARD}\n  " + said(camp, "angriff Ritter, Knappe -> Söldner", [7, 3, 1, 5]) + "\n"
    closed = f"{CARD}\n  " + said(camp, "gambit Ritter bolster=5\nverzicht Söldner", []) + "\n"
    assert OPENED.text.startswith(opened) and CLOSED.text.startswith(closed)
    assert SHOWN.text.startswith(opened)
