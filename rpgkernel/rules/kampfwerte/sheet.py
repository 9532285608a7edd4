"""The Kampfwerte character sheet and the values derived from it (Initiative, Bewegungspunkte)."""

from __future__ import annotations

from typing import Any, Mapping

from ..figure import Figure
from ..sheet import Field, Sheet

TALENTE = ("AUFMERKSAMKEIT", "GEWANDTHEIT", "INSTINKT", "HEIMLICHKEIT")

SHEET = Sheet({
    **{name: Field("int", name.capitalize(), 0, 30, required=True) for name in TALENTE},
    "ini_mod": Field("int", "Modifikatoren auf die Initiative (Klasse)", -30, 30, default=0),
    "bp_mod": Field("int", "Modifikatoren auf die Bewegungspunkte", -30, 30, default=0),
    "ruestungsbehinderung": Field("int", "Rüstungsbehinderung", 0, 30, default=0),
    "AD": Field("int", "Ausdauer (AD)", 0, 999, required=True),
    "LP": Field("int", "Lebenspunkte (LP)", 1, 999, required=True),
    "NK": Field("int", "NK (Spielleitung)", 0, 30, default=0),
    "angriffsstufe": Field("int", "Angriffsstufe", 0, 30, default=0),
    "angriff": Field("int", "Würfel der Angriffsprobe (W10)", 0, 30, default=0),
    "parade": Field("int", "Würfel der Parade (W10)", 0, 30, default=0),
    "ruestung": Field("int", "Rüstung (senkt Schaden)", 0, 99, default=0),
    "waffen": Field("list", "Waffen, z. B. 'Dolch (Stichwaffe)'"),
    "manoever": Field("list", "Manöver mit Stufe, z. B. 'Finte 3'"),
    "mod_schleichen": Field("int", "Talent-Modifikator Schleichen", -30, 30, default=0),
    "mod_klettern": Field("int", "Talent-Modifikator Klettern", -30, 30, default=0),
    "mod_schwimmen": Field("int", "Talent-Modifikator Schwimmen", -30, 30, default=0),
    "mod_reiten": Field("int", "Talent-Modifikator Reiten", -30, 30, default=0),
    "ruestungsmalus_heimlichkeit": Field("int", "Rüstungsmalus auf Heimlichkeit (Kriechen)", -30, 0, default=0),
    "reittier_stufe": Field("int", "Reittier-Stufe", 0, 30, default=0),
    "spielercharakter": Field("bool", "Spielercharakter (gewinnt Gleichstand der Initiative)", default=False),
})


def initiativewert(sheet: Mapping[str, Any]) -> int:
    """AUFMERKSAMKEIT + GEWANDTHEIT + INSTINKT + Modifikatoren − Rüstungsbehinderung (Initiative)."""
    return (sheet["AUFMERKSAMKEIT"] + sheet["GEWANDTHEIT"] + sheet["INSTINKT"] + sheet.get("ini_mod", 0)
            - sheet.get("ruestungsbehinderung", 0))


def bewegungspunkte(sheet: Mapping[str, Any]) -> int:
    """GEWANDTHEIT + Modifikatoren − Rüstungsbehinderung + 2, per round, at least 0 (Bewegungspunkte)."""
    return max(0, sheet["GEWANDTHEIT"] + sheet.get("bp_mod", 0) - sheet.get("ruestungsbehinderung", 0) + 2)


def spielercharakter(figure: Figure) -> bool:
    """A player character: marked on the sheet, or on the side "Spieler"."""
    return bool(figure.value("spielercharakter", False)) or figure.side == "Spieler"
