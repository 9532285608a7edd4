"""Every open choice of Midgard and Mythic Bastionland gets advice: each verb that runs a procedure is walked
with given and seeded dice, and at every open resolution the walk reaches, each choice a line can take has,
for every figure who may take it, an ``Advice`` whose options are lines %%resolve takes; the walk goes on by
one of those options (a seeded choice) until the resolution closes.

The one choice left without advice on purpose: a Deny offered to a figure who is Fatigued (seed 003, Feats:
a Fatigued figure uses no feat, so it has no option but to let the dice stand)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from brute_force import next_sides

import rpgkernel
from rpgkernel import Campaign, rules, statblocks
from rpgkernel.errors import GivenDiceError
from rpgkernel.resolve.lines import choice_line
from rpgkernel.rules import midgard

MIDGARD = """
figuren:
  - name: Bilbo
    werte: {rasse: Halbling, klasse: Spitzbube, grad: 1, ap_bonus: 1, groesse: klein, gestalt: schlank, gg: 1}
  - name: Marvelus
    werte: {rasse: Mensch, klasse: Magier, st: 55, gw: 60, ge: 45, ko: 58, in: 80, zt: 85, resistenz: 14,
            abwehr: 12, alter: 40, gg: 2, fertigkeiten: ["Balancieren +8"], zaubersprueche: ["Schmerzen"]}
  - name: Hexe
    werte: {klasse: Hexer}
  - name: Wolfgang
    werte: {rasse: Mensch, klasse: Krieger, rw: 62, kampftaktik: 2, abwehr: 14, rs: 3, lp: 16, ap: 30, gg: 1,
            waffen: ["Langschwert +10 (W6+2)"]}
begegnung:
  name: Gasse
  teilnehmer:
    - figur: Wolfgang
      seite: Helden
    - figur: Bilbo
      seite: Helden
    - name: Schattenelf
      seite: Schatten
      werte: {abwehr: 17, schild: klein, schild_ap: 1, rs: 2, rw: 81, waffen: ["Kurzschwert +9 (W6)"], lp: 5,
              ap: 25, gg: 1}
"""

BASTIONLAND = """
figuren:
  - name: Ritter
    werte: {vig: 13, cla: 10, spi: 13, gd: 5, waffen: ["Streitkolben (W8)", "Schild (W4)"]}
  - name: Knappe
    werte: {vig: 10, cla: 7, spi: 10, gd: 3, waffen: ["Dolch (W6)", "Dolch (W6)"]}
begegnung:
  name: Furt
  teilnehmer:
    - figur: Ritter
      seite: Spieler
    - figur: Knappe
      seite: Spieler
    - name: Söldner
      seite: Feinde
      werte: {vig: 13, cla: 10, spi: 10, gd: 4, ruestung: 2, waffen: ["Speer (W8)"]}
    - name: Wache
      seite: Feinde
      werte: {vig: 4, cla: 10, spi: 12, gd: 2, waffen: ["Keule (W6)"]}
    - name: Kogge
      seite: Feinde
      werte: {vig: 0, cla: 0, spi: 0, gd: 8, art: Schiff, material: Holz}
    - name: Galeere
      seite: Spieler
      werte: {vig: 0, cla: 0, spi: 0, gd: 12, art: Schiff, material: Holz}
"""

#: per ruleset: each verb that runs a procedure, with lines and the dice each starts with (the rest seeded)
LINES = {
    "midgard": {
        "ew": [("ew Marvelus fertigkeit=Balancieren", [20]), ("ew Marvelus wert=5", [1])],
        "ww": [("ww Marvelus gegen=20 art=abwehr", [1]), ("ww Marvelus gegen=25 art=resistenz", [])],
        "pw": [("pw Marvelus eigenschaft=ko", [])],
        "angriff": [("angriff Wolfgang -> Schattenelf", [20, 1]), ("angriff Wolfgang -> Schattenelf", [1]),
                    ("angriff Schattenelf -> Wolfgang", [])],
        "volle_abwehr": [("volle_abwehr Schattenelf", [])],
        "initiative": [("initiative Wolfgang, Schattenelf, Bilbo", [])],
        "anführer": [("anführer Wolfgang -> Bilbo", [])],
        "eigene": [("anführer Wolfgang -> Bilbo\neigene Bilbo", [])],
        "abwarten": [("abwarten Bilbo", [])],
        "attributkauf": [("attributkauf Bilbo punkte=8 ge=100 ko=+1", [])],
        "lp_wurf": [("lp_wurf Marvelus", [])],
        "ap_wurf": [("ap_wurf Bilbo grad=12", [])],
        "lernen": [("lernen Marvelus fertigkeit=Balancieren kategorie=Standard", [])],
        "angeboren": [("angeboren Bilbo", [100]), ("angeboren Bilbo", [100, 100])],
        "altern": [("altern Marvelus bis=60", [])],
        "zauber": [("zauber Hexe sprüche='Schmerzen, Zeichen der Macht' erschaffung", [])],
        "beschwörungslehre": [("beschwörungslehre Marvelus ziel=Feuer form=Bannzauber wahl=Wasser", [])],
        "beschwörung": [("beschwörung Marvelus grad=4 opfer=2 fesselung=12", [])],
        "belastung": [("belastung Marvelus gewicht=12.5", [])],
    },
    "bastionland": {
        "angriff": [("angriff Ritter, Knappe -> Söldner", [8, 3, 1, 5]), ("angriff Ritter -> Wache", [8, 4]),
                    ("angriff Knappe -> Söldner fernkampf", [6, 5]), ("angriff Ritter -> Söldner, Wache blast", []),
                    ("angriff Söldner -> Ritter", [])],
        "probe": [("probe Ritter virtue=CLA", [])],
        "reaktion": [("reaktion Söldner", [])],
        "überraschung": [("überraschung Söldner, Wache", [])],
        "moral": [("moral Söldner", [])],
        "ruhe": [("ruhe Ritter, Knappe", [])],
        "erholung": [("erholung Ritter virtue=VIG mittel=handlung", [])],
        "verlust": [("verlust Ritter virtue=SPI um=2", [])],
        "zusammenstoß": [("zusammenstoß Kogge -> Galeere größer=Galeere", [])],
        "reparatur": [("reparatur Kogge", [])],
    },
}
SEEDS = range(4)   # walks per line, each with its own dice after the given ones and its own choices


def opened(path: Path, ruleset: str) -> Campaign:
    c = Campaign.open(path)
    c.set_ruleset(ruleset)
    statblocks.load(c, MIDGARD if ruleset == "midgard" else BASTIONLAND)
    if ruleset == "midgard":
        midgard.einrichten(Path(midgard.__file__).with_name("data") / "beispiel_spielleitung.yaml", kampagne=c)
    return c


def run(camp: Campaign, source: str, given: list[int], rng: np.random.Generator):
    """``source`` with as many dice as it needs: the first of ``given`` (taken from it), then the generator's;
    the last resolution."""
    dice: list[int] = []
    while True:
        try:
            res = rpgkernel.resolve(source, campaign=camp, dice=dice)
        except GivenDiceError as err:
            dice.append(given.pop(0) if given else int(rng.integers(1, next_sides(err) + 1)))
            continue
        return res[-1] if isinstance(res, list) else res


def unadvised(camp: Campaign, res, verbs) -> list[tuple[str, str]]:
    """(choice key, figure) of each open choice a figure may take by a line that has no advice with options
    whose lines are all written."""
    missing = []
    for choice in res.choices:
        for who in dict.fromkeys((*choice.who, *choice.also)):
            if not choice_line(verbs, choice.key, who):
                continue   # a pause no line takes (Midgard's divine grace: ``weiter``)
            if choice.key.partition(":")[0] == "deny" and "Fatigued" in camp.figure(who).conditions:
                continue   # a Fatigued figure may not Deny
            found = [a for a in res.advice if a.key == choice.key and a.who == who]
            if len(found) != 1 or len(found[0].options) < 2 or not all(o.lines for o in found[0].options):
                missing.append((choice.key, who))
    return missing


def walk(camp: Campaign, line: str, dice: list[int], seed: int, verbs) -> tuple[int, list]:
    """One walk of ``line``: how many open resolutions it met and the choices among them without advice.
    Seed 0 takes the first option each time (the dice stand: the given ones reach the rolls they are
    meant for), any other seed an option of its generator's."""
    rng, given = np.random.default_rng(seed), list(dice)
    res, met, missing = run(camp, line, given, rng), 0, []
    while res.open:
        met += 1
        missing += [(line, *m) for m in unadvised(camp, res, verbs)]
        options = [o for a in res.advice for o in a.options]
        if not options:
            break
        res = run(camp, "\n".join(options[int(rng.integers(len(options))) if seed else 0].lines), given, rng)
        assert met < 50, line
    return met, missing


@pytest.mark.parametrize("ruleset", sorted(LINES))
def test_every_verb_with_a_procedure_is_walked(ruleset):
    assert set(LINES[ruleset]) == {name for name, verb in rules.get(ruleset).verbs.items() if verb.procedure}


@pytest.mark.parametrize("ruleset", sorted(LINES))
def test_every_open_choice_has_advice(ruleset, tmp_path):
    engine = rules.get(ruleset)
    verbs = list(engine.verbs.values())
    opening, missing = set(), []
    for verb, lines in LINES[ruleset].items():
        for k, (line, dice) in enumerate(lines):
            for seed in SEEDS:
                with opened(tmp_path / f"{verb}-{k}-{seed}.sqlite", ruleset) as camp:
                    met, lacking = walk(camp, line, dice, seed, verbs)
                if met:
                    opening.add(verb)
                missing += lacking
    assert not missing
    # the verbs whose choices were walked: every one that leaves choices open
    assert opening == {"midgard": {"ew", "ww", "pw", "angriff", "angeboren", "beschwörung"},
                       "bastionland": {"angriff"}}[ruleset]
