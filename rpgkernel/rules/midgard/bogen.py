"""The Midgard character sheet: fields, checks of skill and weapon entries, resources.

Every field is optional, so that a figure may carry only what a procedure
needs; a procedure that needs a missing value says which one.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..sheet import Field, Sheet
from .core import eintrag

FELDER = {
    "rasse": Field("text", "Rasse (aus der Rassenliste, z. B. Halbling; Mensch)"),
    "klasse": Field("text", "Charakterklasse, z. B. Spitzbube"),
    "grad": Field("int", "Grad", 1, 100),
    "beruf": Field("text", "Beruf"),
    "zauberer": Field("bool", "zauberkundig"),
    "sprachen": Field("list", "Sprachen"),
    "alter": Field("int", "Alter in Jahren", 0, 10000),
    "groesse": Field("text", "Größe", choices=("klein", "mittel", "groß")),
    "gestalt": Field("text", "Gestalt", choices=("schlank", "normal", "breit")),
    "st": Field("int", "Stärke (St)", -100, 100),
    "ge": Field("int", "Geschicklichkeit (Ge)", -100, 100),
    "gw": Field("int", "Gewandtheit (Gw)", -100, 100),
    "ko": Field("int", "Konstitution (Ko)", -100, 100),
    "in": Field("int", "Intelligenz (In)", -100, 100),
    "zt": Field("int", "Zaubertalent (Zt)", -100, 100),
    "lp": Field("int", "LP-Maximum", 0, 1000),
    "ap": Field("int", "AP-Maximum", 0, 10000),
    "gg": Field("int", "Punkte Göttliche Gnade", 0, 100),
    "ap_bonus": Field("int", "persönlicher AP-Bonus", -100, 100),
    "rw": Field("int", "Reaktionswert", 0, 200),
    "rw_ruestung": Field("int", "Änderung des Reaktionswerts durch die Rüstung", -200, 0),
    "kampftaktik": Field("int", "Erfahrungsstufe in Kampftaktik", 0, 20),
    "angriffsrang": Field("int", "waffenspezifische Angriffsrangmodifikation", -20, 20),
    "abwehr": Field("int", "Abwehr (Erfolgswert des WW: Abwehr)", -20, 60),
    "resistenz": Field("int", "Resistenz (Erfolgswert des WW: Resistenz)", -20, 60),
    "abb": Field("int", "Abwehrbonus (AbB)", -20, 20),
    "schb": Field("int", "Schadensbonus (SchB)", -20, 20),
    "rs": Field("int", "Rüstungsschutz", 0, 20),
    "schild": Field("text", "Schild", choices=("klein", "groß")),
    "schild_ap": Field("int", "AP weniger bei gelungener Abwehr durch den Schild", 0, 20),
    "waffen": Field("list", "Waffen 'Name +Erfolgswert (Schaden)', z. B. 'Langschwert +10 (W6+2)'"),
    "fertigkeiten": Field("list", "Fertigkeiten 'Name +Erfolgswert', z. B. 'Balancieren +12'"),
    "angeboren": Field("list", "angeborene Fähigkeiten"),
    "zaubersprueche": Field("list", "Zaubersprüche"),
}


class MidgardBogen(Sheet):
    """The fields above; skill and weapon entries must read as such."""

    def validate(self, data: Mapping[str, Any]) -> dict[str, Any]:
        out = super().validate(data)
        for key in ("waffen", "fertigkeiten"):
            for text in out.get(key, ()):
                eintrag(text, waffe=key == "waffen")
        return out


def ressourcen(sheet: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    """LP, AP (value and maximum) and GG, for the fields the sheet has."""
    out = {}
    for key, res in (("lp", "LP"), ("ap", "AP"), ("gg", "GG")):
        if key in sheet:
            out[res] = {"value": sheet[key], "max": sheet[key]}
    return out
