"""One small campaign per ruleset, with figures every %%resolve verb can name (fuzz and resolve tests)."""

from __future__ import annotations

from pathlib import Path

import rpgkernel
from rpgkernel import Campaign, statblocks
from rpgkernel.rules import midgard
from rpgkernel.rules.kampfwerte import HexKarte, karte_setzen

_ADZ = """
figuren:
  - name: Alrik
    werte:
      {KK: 5, KO: 4, GE: 6, FF: 3, KL: 3, WK: 4, IN: 5, CH: 2, GL: 3,
       fertigkeiten: ["Klettern 4", "Schwerter 6", "Verteidigung 5", "Reflexe 2"],
       spezialisierungen: ["Parade 2"],
       waffen: ["Langschwert (Schwerter, KK, GS 5)"],
       ausruestung: ["Kettenhemd (RS 2, WB 1, AM 1)"]}
  - name: Magierin
    werte:
      {KK: 2, KO: 3, GE: 3, FF: 3, KL: 6, WK: 5, IN: 4, CH: 3, GL: 2,
       magiebereiche: ["Feuer 5", "Luft 6"], foki: ["Flammen 2"], erschaffen: 4}
  - name: Ork
    werte:
      {KK: 6, KO: 5, GE: 4, FF: 2, KL: 2, WK: 3, IN: 3, CH: 1, GL: 1,
       fertigkeiten: ["Äxte 5", "Verteidigung 3"],
       waffen: ["Axt (Äxte, KK, GS 6, VM -1)"]}
"""

KAEL = {"AUFMERKSAMKEIT": 4, "GEWANDTHEIT": 5, "INSTINKT": 3, "HEIMLICHKEIT": 4, "ini_mod": 2, "bp_mod": 1,
        "ruestungsbehinderung": 1, "AD": 12, "LP": 20, "spielercharakter": True, "mod_schleichen": 1,
        "angriff": 4, "parade": 3, "waffen": ["Dolch (Stichwaffe)"],
        "manoever": ["Finte 3", "Riposte 2", "Wuchtschlag 2", "Rundumschlag 2", "Schattenhieb 1"]}
ORK = {"AUFMERKSAMKEIT": 3, "GEWANDTHEIT": 3, "INSTINKT": 4, "HEIMLICHKEIT": 1, "AD": 10, "LP": 25,
       "ruestungsbehinderung": 2, "angriff": 3, "parade": 2, "manoever": ["Riposte 1", "Konterparade 2"]}


def _bastionland(c: Campaign) -> None:
    c.add_character("Ritter", {"vig": 13, "cla": 10, "spi": 13, "gd": 5,
                               "waffen": ["Streitkolben (W8, wuchtig)", "Schild (W4)"]})
    c.add_character("Knappe", {"vig": 10, "cla": 10, "spi": 10, "gd": 3, "waffen": ["Dolch (W6)", "Dolch (W6)"]})
    enc = c.new_encounter("Furt")
    enc.add("Ritter", side="Spieler", character="Ritter")
    enc.add("Knappe", side="Spieler", character="Knappe")
    enc.add("Söldner", side="Feinde", sheet={"vig": 13, "cla": 10, "spi": 10, "gd": 4, "ruestung": 2,
                                             "waffen": ["Speer (W8, wuchtig)", "Schild (W4)"]})
    enc.add("Räuber", side="Feinde", count=2, sheet={"vig": 10, "cla": 10, "spi": 12, "gd": 3})
    enc.add("Kogge", side="Feinde", sheet={"vig": 0, "cla": 0, "spi": 0, "gd": 8, "art": "Schiff",
                                           "material": "Holz"})


def _adz(c: Campaign) -> None:
    statblocks.load(c, _ADZ)


_MIDGARD = """
figuren:
  - name: Bilbo
    werte: {rasse: Halbling, klasse: Spitzbube, grad: 1, ap_bonus: 1, groesse: klein, gestalt: schlank}
  - name: Marvelus
    werte: {rasse: Mensch, klasse: Magier, st: 55, gw: 60, ge: 45, ko: 58, in: 80, zt: 85, resistenz: 14,
            alter: 40, gg: 2, fertigkeiten: ["Balancieren +8"], zaubersprueche: ["Schmerzen"]}
  - name: Wolfgang Krentz
    werte: {rasse: Mensch, klasse: Krieger, rw: 62, kampftaktik: 2, abwehr: 14, rs: 3, lp: 16, ap: 30,
            waffen: ["Langschwert +10 (W6+2)"]}
begegnung:
  name: Gasse
  teilnehmer:
    - figur: Wolfgang Krentz
      seite: Helden
    - figur: Bilbo
      seite: Helden
    - name: Schattenelf
      seite: Schatten
      werte: {rasse: Schwarzalb, klasse: Ordenskrieger, abwehr: 17, schild: klein, schild_ap: 1, rs: 2, rw: 81,
              waffen: ["Kurzschwert +9 (W6)"], lp: 14, ap: 25}
"""


def _midgard(c: Campaign) -> None:
    statblocks.load(c, _MIDGARD)
    c.encounters["Gasse"].activate()
    midgard.einrichten(Path(midgard.__file__).with_name("data") / "beispiel_spielleitung.yaml", kampagne=c)


def _osr(c: Campaign) -> None:
    enc = c.new_encounter("Höhle")
    enc.add("Hauptmann", side="Gruppe", sheet={"stufe": 3, "rk": 4, "schild": 1, "ges_rk": 1, "tp": 20,
                                               "angriffsbonus": 1, "waffen": ["Langschwert (W8, Länge 3.5)"]})
    enc.add("Schütze", side="Gruppe", sheet={"stufe": 1, "rk": 7, "tp": 6, "fernkampfbonus": 2,
                                             "waffen": ["Kurzbogen (W6, Fernkampf)"]})
    enc.add("Goblin", side="Goblins", count=2, sheet={"tw": "1-1", "rk": 6, "tp": 4,
                                                      "waffen": ["Speer (W6, Länge 8, Sturm)"]})
    enc.activate()


def _kampfwerte(c: Campaign) -> None:
    enc = c.new_encounter("Gefecht")
    karte_setzen(enc, HexKarte(8, 8, {(2, 0): "Bewuchs"}, {(0, 3)}))
    enc.add("Kael", sheet=KAEL, side="Spieler")
    enc.add("Ork", sheet=ORK)
    rpgkernel.resolve("platziere Kael auf=(0,0)\nplatziere Ork auf=(4,1)", campaign=c)


_FIGURES = {"bastionland": _bastionland, "adz": _adz, "midgard": _midgard, "osr": _osr, "kampfwerte": _kampfwerte}
RULESETS = tuple(sorted(_FIGURES))


def campaign(ruleset: str, path: Path) -> Campaign:
    """A fresh campaign of ``ruleset`` at ``path`` with its figures (the caller closes it)."""
    c = Campaign.open(path)
    c.set_ruleset(ruleset)
    _FIGURES[ruleset](c)
    return c


def figure_names(c: Campaign) -> list[str]:
    """Every name a %%resolve line may use: the active encounter's combatants and the characters."""
    enc = c.state["encounters"].get(c.state["active_encounter"] or "")
    return list(dict.fromkeys(list(enc["combatants"] if enc else []) + list(c.state["characters"])))


