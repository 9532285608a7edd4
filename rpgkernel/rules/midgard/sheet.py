"""The Midgard character sheet: fields, checks of skill and weapon entries, resources, and the
sheet's values as the procedures read them from a figure's view.

Every field is optional, so that a figure may carry only what a procedure
needs; a procedure that needs a missing value says which one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping

from ...dice import parse
from ...errors import DiceSyntaxError
from ...messages import Text, t
from rpgkernel.rules.kit import Field, Figure, Limits, Sheet, SheetError
from .core import MidgardError

ATTRIBUTE = ("st", "ge", "gw", "ko", "in", "zt")
_ENTRY = re.compile(r"^\s*(?P<name>.*?\S)\s*(?P<wert>[+-]\s*\d+)\s*(?:\((?P<schaden>[^()]*)\))?\s*$")

FELDER = {
    "rasse": Field("text", Text("midgard.field_rasse"), hint=Text("midgard.field_rasse_hint")),
    "klasse": Field("text", Text("midgard.field_klasse"), hint=Text("midgard.field_klasse_hint")),
    "grad": Field("int", Text("midgard.field_grad"), 1, 100),
    "beruf": Field("text", Text("midgard.field_beruf")),
    "zauberer": Field("bool", Text("midgard.field_zauberer")),
    "sprachen": Field("list", Text("midgard.field_sprachen")),
    "alter": Field("int", Text("midgard.field_alter"), 0, 10000),
    "groesse": Field("text", Text("midgard.field_groesse"), choices=("klein", "mittel", "groß")),
    "gestalt": Field("text", Text("midgard.field_gestalt"), choices=("schlank", "normal", "breit")),
    "st": Field("int", Text("midgard.field_st"), -100, 100),
    "ge": Field("int", Text("midgard.field_ge"), -100, 100),
    "gw": Field("int", Text("midgard.field_gw"), -100, 100),
    "ko": Field("int", Text("midgard.field_ko"), -100, 100),
    "in": Field("int", Text("midgard.field_in"), -100, 100),
    "zt": Field("int", Text("midgard.field_zt"), -100, 100),
    "lp": Field("int", Text("midgard.field_lp"), 0, 1000),
    "ap": Field("int", Text("midgard.field_ap"), 0, 10000),
    "gg": Field("int", Text("midgard.field_gg"), 0, 100),
    "ap_bonus": Field("int", Text("midgard.field_ap_bonus"), -100, 100),
    "rw": Field("int", Text("midgard.field_rw"), 0, 200),
    "rw_ruestung": Field("int", Text("midgard.field_rw_ruestung"), -200, 0),
    "kampftaktik": Field("int", Text("midgard.field_kampftaktik"), 0, 20),
    "angriffsrang": Field("int", Text("midgard.field_angriffsrang"), -20, 20),
    "abwehr": Field("int", Text("midgard.field_abwehr"), -20, 60),
    "resistenz": Field("int", Text("midgard.field_resistenz"), -20, 60),
    "abb": Field("int", Text("midgard.field_abb"), -20, 20),
    "schb": Field("int", Text("midgard.field_schb"), -20, 20),
    "rs": Field("int", Text("midgard.field_rs"), 0, 20),
    "schild": Field("text", Text("midgard.field_schild"), choices=("klein", "groß")),
    "schild_ap": Field("int", Text("midgard.field_schild_ap"), 0, 20),
    "waffen": Field("list", Text("midgard.field_waffen"), hint=Text("midgard.field_waffen_hint")),
    "fertigkeiten": Field("list", Text("midgard.field_fertigkeiten"), hint=Text("midgard.field_fertigkeiten_hint")),
    "angeboren": Field("list", Text("midgard.field_angeboren")),
    "zaubersprueche": Field("list", Text("midgard.field_zaubersprueche")),
}


@dataclass(frozen=True)
class Eintrag:
    """A skill or weapon entry: 'Balancieren +12', 'Langschwert +10 (W6+2)'."""

    name: str
    wert: int
    schaden: str | None = None


def eintrag(text: str, waffe: bool = False) -> Eintrag:
    """Read an entry; a weapon needs its damage in parentheses, a valid dice expression."""
    m = _ENTRY.match(text)
    if m is None or (waffe and not m.group("schaden")):
        raise SheetError(t("midgard.bad_weapon" if waffe else "midgard.bad_skill", entry=text))
    damage = m.group("schaden")
    if damage is not None:
        damage = damage.strip()
        try:
            parse(damage)
        except DiceSyntaxError:
            raise SheetError(t("midgard.bad_weapon", entry=text)) from None
    return Eintrag(m.group("name"), int(m.group("wert").replace(" ", "")), damage)


class MidgardBogen(Sheet):
    """The fields above; skill and weapon entries must read as such; LP, AP and GG as resources
    (``ressourcen``, ``grenzen``)."""

    def validate(self, data: Mapping[str, Any]) -> dict[str, Any]:
        out = super().validate(data)
        for key in ("waffen", "fertigkeiten"):
            for text in out.get(key, ()):
                eintrag(text, waffe=key == "waffen")
        return out

    def resources(self, values: Mapping[str, Any], data: Mapping[str, Any]) -> dict[str, dict[str, int]]:
        return ressourcen(values)

    def limits(self, figure: Figure, resource: str, data: Mapping[str, Any]) -> Limits:
        """GG 0 to the points awarded, AP 0 to their maximum (``grenzen``); LP the kit's default."""
        return grenzen(figure, resource) or super().limits(figure, resource, data)


#: English names of the fields, read as aliases in any case
ENGLISH = {"race": "rasse", "class": "klasse", "level": "grad", "profession": "beruf", "spellcaster": "zauberer",
           "languages": "sprachen", "age": "alter", "height": "groesse", "build": "gestalt", "hp": "lp",
           "defence": "abwehr", "defense": "abwehr", "resistance": "resistenz", "shield": "schild",
           "weapons": "waffen", "skills": "fertigkeiten", "innate": "angeboren", "spells": "zaubersprueche"}
SHEET = MidgardBogen(FELDER, aliases=ENGLISH)


def ressourcen(sheet: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    """LP, AP (value and maximum) and GG, for the fields the sheet has."""
    out = {}
    for key, res in (("lp", "LP"), ("ap", "AP"), ("gg", "GG")):
        if key in sheet:
            out[res] = {"value": sheet[key], "max": sheet[key]}
    return out


GNADE = "Neue Regelung der Göttlichen Gnade"   # the seed's section on divine grace
GRUNDREGELN = "Grundwürfe (Vorgabe)"            # the basic rules the seed presupposes, as the attack cites them


def grenzen(figure: Figure, resource: str) -> Limits | None:
    """Divine grace between 0 and the points awarded: a point spent is gone, and a roll is repeated
    only as long as the points left allow it (Neue Regelung der Göttlichen Gnade); AP between 0 and
    their maximum, as an attack takes no more AP than are left (the basic rules); None for LP, whose
    lower bound the seed does not name (the kit's default: 0, or the GM's)."""
    rule = {"GG": GNADE, "AP": GRUNDREGELN}.get(resource)
    found = figure.resource(resource) if rule else None
    return None if found is None or rule is None else Limits(0, found.max, rule)


# -- a figure's values ------------------------------------------------------------
def attribut(figure: Figure, key: str) -> int:
    """A basic attribute (st, ge, ko, in, zt, gw) from the sheet, or a clear error when missing."""
    key = key.lower()
    if key not in ATTRIBUTE:
        raise MidgardError(t("midgard.bad_attribute", name=key, known=", ".join(ATTRIBUTE)))
    value = figure.sheet.get(key)
    if value is None:
        raise MidgardError(t("midgard.missing_value", figure=figure.name, field=key))
    return value


def feld(figure: Figure, key: str, default: Any = None) -> Any:
    """A sheet value; without ``default`` a missing one is an error naming figure and field."""
    value = figure.sheet.get(key, default)
    if value is None:
        raise MidgardError(t("midgard.missing_value", figure=figure.name, field=key))
    return value


def eintraege(figure: Figure, key: str) -> dict[str, Eintrag]:
    """The sheet's ``fertigkeiten`` or ``waffen`` by lower-case name."""
    out = {}
    for text in figure.sheet.get(key) or ():
        e = eintrag(text, waffe=key == "waffen")
        out[e.name.lower()] = e
    return out


def waffe(figure: Figure, wanted: str | None) -> Eintrag:
    """The weapon ``wanted`` (by name), or the first of the sheet's ``waffen``."""
    weapons = eintraege(figure, "waffen")
    if not weapons:
        raise MidgardError(t("midgard.no_weapon", figure=figure.name))
    if wanted is None:
        return next(iter(weapons.values()))
    found = weapons.get(wanted.lower())
    if found is None:
        raise MidgardError(t("midgard.unknown_weapon", figure=figure.name, weapon=wanted,
                             known=", ".join(w.name for w in weapons.values())))
    return found
