"""The Kampfwerte character sheet, the values derived from it (Initiative, Bewegungspunkte), the
resources it gives (LP, AD, BP) and reading a figure."""

from __future__ import annotations

from typing import Any, Mapping

from ...messages import Text
from rpgkernel.rules.kit import Field, Figure, Limits, Sheet, vorgabe

TALENTE = ("AUFMERKSAMKEIT", "GEWANDTHEIT", "INSTINKT", "HEIMLICHKEIT")

#: English names of the fields, read as aliases in any case
ENGLISH = {"awareness": "AUFMERKSAMKEIT", "agility": "GEWANDTHEIT", "instinct": "INSTINKT", "stealth": "HEIMLICHKEIT",
           "armour_hindrance": "ruestungsbehinderung", "attack_level": "angriffsstufe", "attack": "angriff",
           "parry": "parade", "armour": "ruestung", "armor": "ruestung", "weapons": "waffen",
           "manoeuvres": "manoever", "maneuvers": "manoever", "mount_level": "reittier_stufe",
           "player_character": "spielercharakter"}

class KampfwerteSheet(Sheet):
    """The fields below; LP, AD and the BP of a round as resources (``ressourcen``, ``bereich``)."""

    def resources(self, values: Mapping[str, Any], data: Mapping[str, Any]) -> dict[str, dict[str, int]]:
        return ressourcen(values)

    def limits(self, figure: Figure, resource: str, data: Mapping[str, Any]) -> Limits:
        return bereich(figure, resource, data)


SHEET = KampfwerteSheet({
    **{name: Field("int", Text(f"kampfwerte.field_{name.lower()}"), 0, 30, required=True) for name in TALENTE},
    "ini_mod": Field("int", Text("kampfwerte.field_ini_mod"), -30, 30, default=0),
    "bp_mod": Field("int", Text("kampfwerte.field_bp_mod"), -30, 30, default=0),
    "ruestungsbehinderung": Field("int", Text("kampfwerte.field_ruestungsbehinderung"), 0, 30, default=0),
    "AD": Field("int", Text("kampfwerte.field_ad"), 0, 999, required=True),
    "LP": Field("int", Text("kampfwerte.field_lp"), 1, 999, required=True),
    "NK": Field("int", Text("kampfwerte.field_nk"), 0, 30, default=0),
    "angriffsstufe": Field("int", Text("kampfwerte.field_angriffsstufe"), 0, 30, default=0),
    "angriff": Field("int", Text("kampfwerte.field_angriff"), 0, 30, default=0),
    "parade": Field("int", Text("kampfwerte.field_parade"), 0, 30, default=0),
    "ruestung": Field("int", Text("kampfwerte.field_ruestung"), 0, 99, default=0,
                      hint=Text("kampfwerte.field_ruestung_hint")),
    "waffen": Field("list", Text("kampfwerte.field_waffen"), hint=Text("kampfwerte.field_waffen_hint")),
    "manoever": Field("list", Text("kampfwerte.field_manoever"), hint=Text("kampfwerte.field_manoever_hint")),
    "mod_schleichen": Field("int", Text("kampfwerte.field_mod_schleichen"), -30, 30, default=0),
    "mod_klettern": Field("int", Text("kampfwerte.field_mod_klettern"), -30, 30, default=0),
    "mod_schwimmen": Field("int", Text("kampfwerte.field_mod_schwimmen"), -30, 30, default=0),
    "mod_reiten": Field("int", Text("kampfwerte.field_mod_reiten"), -30, 30, default=0),
    "ruestungsmalus_heimlichkeit": Field("int", Text("kampfwerte.field_ruestungsmalus_heimlichkeit"), -30, 0, default=0),
    "reittier_stufe": Field("int", Text("kampfwerte.field_reittier_stufe"), 0, 30, default=0),
    "spielercharakter": Field("bool", Text("kampfwerte.field_spielercharakter"), default=False,
                              hint=Text("kampfwerte.field_spielercharakter_hint")),
}, aliases=ENGLISH)


def initiativewert(sheet: Mapping[str, Any]) -> int:
    """AUFMERKSAMKEIT + GEWANDTHEIT + INSTINKT + Modifikatoren − Rüstungsbehinderung (Initiative)."""
    return (sheet["AUFMERKSAMKEIT"] + sheet["GEWANDTHEIT"] + sheet["INSTINKT"] + sheet.get("ini_mod", 0)
            - sheet.get("ruestungsbehinderung", 0))


def bewegungspunkte(sheet: Mapping[str, Any]) -> int:
    """GEWANDTHEIT + Modifikatoren − Rüstungsbehinderung + 2, per round, at least 0 (Bewegungspunkte)."""
    return max(0, sheet["GEWANDTHEIT"] + sheet.get("bp_mod", 0) - sheet.get("ruestungsbehinderung", 0) + 2)


def ressourcen(sheet: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    """The resources a checked sheet starts with: LP, AD and the BP of a round (Bewegungspunkte)."""
    bp = bewegungspunkte(sheet)
    return {"LP": {"value": sheet["LP"], "max": sheet["LP"]}, "AD": {"value": sheet["AD"], "max": sheet["AD"]},
            "BP": {"value": bp, "max": bp}}


#: the sections that set the lower bound 0 of AD and BP: what a manoeuvre costs must be paid from the
#: AD left (the engine refuses one that costs more), and a movement's costs "dürfen die zur Verfügung
#: stehenden BP des Charakters nicht überschreiten"
MANOEVER_KOSTEN, BEWEGUNGSKOSTEN = "Manöver: Kosten", "Bewegungskosten"


def grenzen(figure: Figure, resource: str) -> Limits | None:
    """AD and BP between 0 (``MANOEVER_KOSTEN``, ``BEWEGUNGSKOSTEN``) and their maximum (the BP of a
    round are refilled to it, Bewegungspunkte); None for LP, whose lower bound the seed does not name
    (the kit's default)."""
    rule = {"AD": MANOEVER_KOSTEN, "BP": BEWEGUNGSKOSTEN}.get(resource)
    found = figure.resource(resource) if rule else None
    return None if found is None or rule is None else Limits(0, found.max, rule)


def bereich(figure: Figure, resource: str, data: Mapping[str, Any]) -> Limits:
    """The range ``figure``'s ``resource`` stays within (``KampfwerteSheet.limits``): AD and BP per
    ``grenzen``, LP the kit's default (from the GM's lower bound, ``rules.limits.vorgabe``)."""
    return grenzen(figure, resource) or vorgabe(figure, resource, data)


def spielercharakter(figure: Figure) -> bool:
    """A player character: marked on the sheet, or on the side "Spieler"."""
    return bool(figure.value("spielercharakter", False)) or figure.side == "Spieler"
