"""The ford fight of the panel tests, and driving an ``EncounterPanel`` as its front end would."""

from rpgkernel import Campaign
from rpgkernel.statblocks import load

# the players at the ford: the Ritter and his Knappe, on the players' side
PLAYERS = """
figuren:
  - name: Ritter
    werte: {vig: 13, cla: 10, spi: 13, gd: 5, waffen: ["Streitkolben (W8, wuchtig)", "Schild (W4)"]}
  - name: Knappe
    werte: {vig: 10, cla: 10, spi: 10, gd: 3, waffen: ["Dolch (W6)", "Dolch (W6)"]}
begegnung:
  name: Furt
  teilnehmer:
    - figur: Ritter
      seite: Spieler
    - figur: Knappe
      seite: Spieler
"""
FURT = PLAYERS + """    - name: Söldner
      seite: Feinde
      werte: {vig: 13, cla: 10, spi: 10, gd: 4, ruestung: 2, waffen: ["Speer (W8, wuchtig)", "Schild (W4)"]}
    - name: Wache
      seite: Feinde
      werte: {vig: 10, cla: 10, spi: 12, gd: 3}
      zustände:
        beeinträchtigt: {runden: 2, endet: zugende}
"""
FURT_NAMES = ["Ritter", "Knappe", "Söldner", "Wache"]

# two mercenaries at the ford, for several attacks open at once
ZWEI_SOELDNER = PLAYERS + """    - name: Söldner 1
      seite: Feinde
      werte: {vig: 13, cla: 10, spi: 10, gd: 4, ruestung: 1, waffen: ["Speer (W8)", "Schild (W4)"]}
    - name: Söldner 2
      seite: Feinde
      werte: {vig: 13, cla: 10, spi: 10, gd: 4, ruestung: 1, waffen: ["Speer (W8)", "Schild (W4)"]}
"""
ZWEI_NAMES = ["Ritter", "Knappe", "Söldner 1", "Söldner 2"]
FIRST_ATTACK = 'angriff Ritter, Knappe -> "Söldner 1" bonus=W8'   # W8 W4 W6 W6 W8
SECOND_ATTACK = 'angriff Knappe -> "Söldner 2"'                   # W6 W6
THIRD_ATTACK = 'angriff "Söldner 2" -> Ritter'                     # W8 W4


def make_campaign(path, start=True):
    """A Bastionland campaign at ``path`` with the ford fight, begun (the players' side first)."""
    camp = Campaign.open(path)
    camp.set_ruleset("bastionland")
    load(camp, FURT)
    if start:
        camp.encounter.start(rolls={n: 10 for n in FURT_NAMES})
    return camp


def make_two_mercenaries(path):
    """A Bastionland campaign at ``path`` with the ford against two mercenaries, begun (the players first)."""
    camp = Campaign.open(path)
    camp.set_ruleset("bastionland")
    load(camp, ZWEI_SOELDNER)
    camp.encounter.start(rolls={n: 10 - i for i, n in enumerate(ZWEI_NAMES)})
    return camp


def send(panel, kind, **content):
    """A message from the front end (a click, Enter)."""
    panel._dispatch(panel, {"type": kind, **content})


def set_form(panel, **values):
    """What the front end does when the GM selects or types something."""
    panel.set_state({"form": {**panel.form, **values}})


def row(panel, name):
    return next(r for r in panel.rows if r["name"] == name)
