"""OSR combat: every verb's card says its outcome as a German sentence (Resolution.summary)."""

import pytest
from doc_blocks import page

import rpgkernel
from rpgkernel import Campaign, statblocks
from rpgkernel.rules.osr.verbs import VERBS

from saetze import assert_said, each
from .test_docs import YAML

CARD = page("osr.md").block("", "angriff: Hauptmann → Ork")


@pytest.fixture
def camp(tmp_path):
    """The figures of docs/osr.md."""
    c = Campaign.open(tmp_path / "saetze.sqlite")
    c.set_ruleset("osr")
    statblocks.load(c, YAML)
    yield c
    c.close()


#: per verb of the table: cells with given dice (and conditions set first), each branch of its procedure
SCENARIOS = {
    "angriff": [("angriff Hauptmann -> Ork", [15, 5]), ("angriff Hauptmann -> Bär", [2]),
                ('angriff Schütze -> Hauptmann, "Goblin 2"', [2, 20, 3]),
                ('angriff Hauptmann -> "Goblin 1" sturmangriff', [3, 12, 5]),
                ('angriff Magier -> "Goblin 2" sturmangriff', [20, 4]),
                ("angriff Hauptmann -> Bär zwei_waffen", [15, 3, 2]),
                ("angriff Bär -> Hauptmann routine", [20, 2, 20, 3, 1]),
                ("angriff Bär -> Wachmann routine", [1, 1, 1]),
                ("angriff Bär -> Magier", [20, 2], {"Magier": "zaubert"}),
                ("angriff Hauptmann -> Ork toetung=45", [40], {"Ork": "schläft"})],
    "ringen": [("ringen Hauptmann -> Ork", [15, 2]), ("ringen Wachmann -> Bär sturmangriff", [20, 1]),
               ("ringen Schütze -> Bär", [1])],
    "fliehen": [("fliehen Ork -> Hauptmann, Wachmann", [20, 5, 1]), ("fliehen Bär", []),
                ("fliehen Bär -> Wachmann", [], {"Wachmann": "pariert"})],
    "überraschung": [('überraschung Hauptmann, Schütze, "Goblin 1", "Goblin 2"', [1, 5]),
                     ("überraschung Hauptmann, Bär", [6, 6]), ("überraschung Hauptmann, Bär", [2, 1])],
    "initiative": [('initiative Hauptmann, Schütze, "Goblin 1"', [2, 5]), ("initiative Hauptmann, Ork", [4, 4])],
    "vorrücken": [('vorrücken Hauptmann -> "Goblin 1", "Goblin 2"', []), ("vorrücken Hauptmann", [])],
    "rückzug": [("rückzug Hauptmann tausch=Wachmann pariert", []), ("rückzug Magier", [])],
    "parieren": [("parieren Hauptmann", []), ("parieren Magier", [])],
    "verhandeln": [("verhandeln Hauptmann -> Ork", []), ("verhandeln Hauptmann, Magier -> Ork, Bär", []),
                   ("verhandeln Magier", [])],
    "abwarten": [("abwarten Magier", [])],
    "stemmen": [("stemmen Wachmann", [])],
    "zaubern": [("zaubern Magier spruch=Schlaf zeit=1 segment=3", []),
                ("zaubern Magier spruch=Feuerball zeit=12 segment=5", [])],
    "rettungswurf": [("rettungswurf Ork kategorie=Gift", [20]), ("rettungswurf Ork kategorie=Gift", [2])],
    "losreißen": [("losreißen Ork chance=30", [30]), ("losreißen Ork chance=30", [31])],
}


def test_every_verb_has_its_scenarios():
    assert set(SCENARIOS) == set(VERBS)


def run(camp, cell, dice, conditions=None):
    for figure, condition in (conditions or {}).items():
        camp.add_condition(figure, condition)
    return each(rpgkernel.resolve(cell, campaign=camp, dice=dice))


@pytest.mark.parametrize("verb", sorted(SCENARIOS))
def test_every_verb_says_its_outcome_as_a_sentence(tmp_path, verb):
    for i, (cell, dice, *conditions) in enumerate(SCENARIOS[verb]):
        with Campaign.open(tmp_path / f"{i}.sqlite") as c:   # each cell on the doc's fresh figures
            c.set_ruleset("osr")
            statblocks.load(c, YAML)
            for res in run(c, cell, dice, *conditions):
                assert_said(res)


def said(camp, cell, dice, conditions=None):
    return assert_said(run(camp, cell, dice, conditions)[0])


def test_a_hit_to_zero_a_hit_a_miss_and_several_attacks(camp):
    down = said(camp, "angriff Hauptmann -> Ork", [15, 5])
    assert down == "Hauptmann trifft Ork mit 6 Schaden; Ork ist bei 0 TP oder darunter (die Folgen regelt die Spielleitung)."
    assert CARD.text.startswith(f"angriff: Hauptmann → Ork\n  {down}\n")   # the doc's card
    assert said(camp, 'angriff Schütze -> Hauptmann, "Goblin 2"', [2, 20, 3]) == (
        "Schütze trifft Goblin 2 mit 3 Schaden; Goblin 2 hat noch 1 TP.")
    assert said(camp, "angriff Hauptmann -> Bär", [2]) == "Hauptmann verfehlt Bär."
    assert said(camp, "angriff Bär -> Hauptmann routine", [20, 2, 20, 3, 1]) == (
        "Bär trifft Hauptmann mit 2 von 3 Angriffen, 5 Schaden; Hauptmann hat noch 15 TP.")


def test_a_charge_a_sleeping_target_a_caster_and_wrestling(camp):
    assert said(camp, 'angriff Magier -> "Goblin 2" sturmangriff', [20, 4]) == (
        "Goblin 2 schlägt zuerst zu und trifft Magier mit 4 Schaden; Magier ist bei 0 TP oder darunter "
        "(die Folgen regelt die Spielleitung); Magier greift nicht mehr an.")
    assert said(camp, "angriff Hauptmann -> Ork toetung=45", [40], {"Ork": "schläft"}) == (
        "Hauptmann tötet Ork im Schlaf.")
    assert said(camp, "angriff Bär -> Wachmann", [20, 2], {"Wachmann": "zaubert"}) == (
        "Bär trifft Wachmann mit 2 Schaden; Wachmann hat noch 6 TP; Wachmann verliert den Zauber.")
    assert said(camp, "ringen Wachmann -> Bär sturmangriff", [20, 1]) == (
        "Wachmann trifft Bär ohne Schaden; Bär ist überwältigt, liegt am Boden und ist festgehalten.")


def test_fleeing_surprise_initiative_and_a_failed_save(camp):
    assert said(camp, "fliehen Ork -> Hauptmann, Wachmann", [20, 5, 1]) == (
        "Ork flieht; Hauptmann trifft Ork mit 6 Schaden; Wachmann verfehlt Ork; "
        "Ork ist bei 0 TP oder darunter (die Folgen regelt die Spielleitung).")
    assert said(camp, "fliehen Bär -> Wachmann", [], {"Wachmann": "pariert"}) == (
        "Bär flieht; Wachmann greift nicht mit +4 an.")
    assert said(camp, 'überraschung Hauptmann, Schütze, "Goblin 1", "Goblin 2"', [1, 5]) == (
        "Hauptmann und Schütze sind überrascht; Goblin 1 und Goblin 2 sind nicht überrascht.")
    assert said(camp, 'initiative Hauptmann, Schütze, "Goblin 1"', [2, 5]) == (
        "Goblins hat die Initiative: Goblin 1, Schütze, Hauptmann.")
    assert said(camp, "initiative Hauptmann, Ork", [4, 4]) == (
        "Gleichstand, Gruppe und Goblins handeln gleichzeitig: Hauptmann, Ork.")
    assert said(camp, "rettungswurf Ork kategorie=Gift", [2]) == "Ork scheitert am Rettungswurf gegen Gift."
