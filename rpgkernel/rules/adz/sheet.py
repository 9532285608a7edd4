"""The AdZ character sheet (Eigenschaften, Attribute, Techniken), the resources it gives, and
reading a figure.

The sheet follows the GM's data (``build(daten)``; ``AdzSheet.for_data`` gives a campaign's): its
technique fields are the data's techniques. It gives both damage tracks and the luck pool
(``ressourcen``). Skills and the like are lists of "Name Wert"; weapons and equipment a text with
their values or a bare name from the GM's lists.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping

from ...messages import Text, t
from rpgkernel.rules.kit import Field, Figure, Limits, Sheet, SheetError
from .settings import ATTRIBUTE, EINSTELLUNGEN, Ausruestung, Daten, Waffe

ATTRIBUT_NAMEN = {"KK": "Körperkraft", "KO": "Konstitution", "GE": "Gewandtheit", "FF": "Fingerfertigkeit",
                  "KL": "Klugheit", "WK": "Willenskraft", "IN": "Intuition", "CH": "Charisma", "GL": "Glück"}
#: Eigenschaften kept as lists of "Name Wert": field -> maximum points
LISTEN = {"fertigkeiten": 10, "magiebereiche": 10, "spezialisierungen": 5, "foki": 5}
ATTRIBUT_MAX = 10          # Attribute und Techniken: bis zu 10 Punkte
GROESSEN = ("winzig", "klein", "mittel", "groß", "riesig")
#: the resources: the damage tracks (the value: the steps still free) and the luck pool (Glückspool)
KOERPERLICH, GEISTIG = "körperlich", "geistig"
#: the seed's sections on them
KOERPERLICHER_SCHADEN, GEISTIGER_SCHADEN = "Körperlicher Schaden", "Geistiger Schaden"
GLUECK = "Glückspool"

_ENTRY = re.compile(r"^(?P<name>\S.*?)\s*:?\s+(?P<wert>-?\d+)$")
_ITEM = re.compile(r"^(?P<name>[^()]*?)\s*(?:\((?P<inner>[^()]*)\))?\s*$")
_KEYED = re.compile(r"^(?P<key>GS|VM|RK|AM|RS|WB)\s*:?\s*(?P<value>[+-]?\w+)$", re.I)


def punkte(entries: list[str], field: str, maximum: int) -> dict[str, int]:
    """``["Schwerter 6", "Reiten: 2"]`` -> {"Schwerter": 6, "Reiten": 2}, each 0..maximum, names unique."""
    out: dict[str, int] = {}
    for entry in entries:
        m = _ENTRY.match(entry.strip())
        if m is None:
            raise SheetError(t("adz.bad_entry", field=field, entry=entry))
        name, value = m.group("name").strip(), int(m.group("wert"))
        if not 0 <= value <= maximum:
            raise SheetError(t("adz.entry_range", field=field, name=name, value=value, max=maximum))
        if name.casefold() in (k.casefold() for k in out):
            raise SheetError(t("adz.entry_twice", field=field, name=name))
        out[name] = value
    return out


def _items(entry: str, field: str) -> tuple[str, list[str]]:
    m = _ITEM.match(entry)
    if m is None or not m.group("name"):
        raise SheetError(t("adz.bad_item", field=field, entry=entry))
    inner = m.group("inner")
    return m.group("name"), [x.strip() for x in inner.split(",") if x.strip()] if inner is not None else []


def _int(value: str, entry: str, field: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise SheetError(t("adz.bad_item", field=field, entry=entry)) from None


def waffe(entry: str, daten: Daten) -> Waffe:
    """A weapon entry: ``Name (Fertigkeit, Attribut, GS n[, VM n][, RK X][, geistig])`` or a listed name."""
    name, items = _items(entry, "waffen")
    if not items:
        found = daten.waffe(name)
        if found is None:
            raise SheetError(t("adz.unknown_weapon", entry=entry))
        return found
    skill, attr, keyed, mental = None, None, {}, False
    for item in items:
        k = _KEYED.match(item)
        if k:
            keyed[k.group("key").upper()] = k.group("value")
        elif item.upper() in ATTRIBUTE:
            attr = item.upper()
        elif item.casefold() == "geistig":
            mental = True
        elif skill is None:
            skill = item
        else:
            raise SheetError(t("adz.bad_weapon", entry=entry))
    rk = keyed.get("RK")
    if skill is None or "GS" not in keyed or (attr is None and rk is None):
        raise SheetError(t("adz.bad_weapon", entry=entry))
    if rk is not None:
        rk = rk.upper()
        classes = daten.reichweitenklassen
        if rk not in classes:
            raise SheetError(t("adz.bad_range_class", entry=entry, known=", ".join(classes)))
    return Waffe(name, skill, attr, _int(keyed["GS"], entry, "waffen"), _int(keyed.get("VM", "0"), entry, "waffen"),
                 rk, mental)


def ausruestung(entry: str, daten: Daten) -> Ausruestung:
    """An equipment entry: ``Name (RS n, WB n, AM n, VM n)`` (any of them) or a listed name."""
    name, items = _items(entry, "ausruestung")
    if not items:
        found = daten.ausruestung(name)
        if found is None:
            raise SheetError(t("adz.unknown_equipment", entry=entry))
        return found
    values: dict[str, int] = {}
    for item in items:
        k = _KEYED.match(item)
        if k is None or k.group("key").upper() not in ("RS", "WB", "AM", "VM"):
            raise SheetError(t("adz.bad_equipment", entry=entry))
        values[k.group("key").lower()] = _int(k.group("value"), entry, "ausruestung")
    return Ausruestung(name, **values)


@dataclass(frozen=True)
class Eintraege(Field):
    """A list field whose entries are checked as the rules allow (Eigenschaften): ``maximum`` points
    per "Name Wert" entry, or weapons ("waffen") or equipment ("ausruestung"), which may name
    entries of the GM's lists in ``daten``."""

    daten: Daten | None = None

    def check(self, name: str, value: Any) -> Any:
        entries = super().check(name, value)
        if name in ("waffen", "ausruestung"):
            assert self.daten is not None      # build gives these fields the GM's data
            read = waffe if name == "waffen" else ausruestung
            for entry in entries:
                read(entry, self.daten)
        else:
            punkte(entries, name, self.maximum)
        return entries


#: English names of the fields, read as aliases in any case
ENGLISH = {"strength": "KK", "constitution": "KO", "agility": "GE", "dexterity": "FF", "cleverness": "KL",
           "willpower": "WK", "intuition": "IN", "charisma": "CH", "luck": "GL", "skills": "fertigkeiten",
           "magic_areas": "magiebereiche", "specialisations": "spezialisierungen",
           "specializations": "spezialisierungen", "foci": "foki", "weapons": "waffen", "equipment": "ausruestung",
           "initiative_base": "initiativebasis", "size": "groesse"}


class AdzSheet(Sheet):
    """A sheet ``build`` makes; the GM's data shape its fields (``for_data``) and its resources."""

    def for_data(self, data: Mapping[str, Any]) -> Sheet:
        """The sheet with the techniques of the GM's data (``einrichten``) in ``data``."""
        return build(EINSTELLUNGEN.of(data))

    def resources(self, values: Mapping[str, Any], data: Mapping[str, Any]) -> dict[str, dict[str, int]]:
        """Both damage tracks, as long as the GM's data in ``data`` has them, and the luck pool (GL)."""
        return ressourcen(values, EINSTELLUNGEN.of(data))

    def limits(self, figure: Figure, resource: str, data: Mapping[str, Any]) -> Limits:
        return grenzen(figure, resource) or super().limits(figure, resource, data)


@lru_cache(maxsize=16)
def build(daten: Daten) -> AdzSheet:
    """The sheet for the GM's data ``daten`` (built once per data)."""
    fields: dict[str, Field] = {a: Field("int", ATTRIBUT_NAMEN[a], 1, ATTRIBUT_MAX, required=True) for a in ATTRIBUTE}
    fields.update({tech: Field("int", Text("adz.field_technique", name=tech), 0, ATTRIBUT_MAX, default=0)
                   for tech in daten.techniken})
    fields.update({
        "fertigkeiten": Eintraege("list", Text("adz.field_skills"), maximum=LISTEN["fertigkeiten"],
                                  hint=Text("adz.field_skills_hint")),
        "magiebereiche": Eintraege("list", Text("adz.field_areas"), maximum=LISTEN["magiebereiche"],
                                   hint=Text("adz.field_areas_hint")),
        "spezialisierungen": Eintraege("list", Text("adz.field_specs"), maximum=LISTEN["spezialisierungen"],
                                       hint=Text("adz.field_specs_hint")),
        "foki": Eintraege("list", Text("adz.field_foci"), maximum=LISTEN["foki"], hint=Text("adz.field_foci_hint")),
        "waffen": Eintraege("list", Text("adz.field_weapons"), daten=daten, hint=Text("adz.field_weapons_hint")),
        "ausruestung": Eintraege("list", Text("adz.field_equipment"), daten=daten, hint=Text("adz.field_equipment_hint")),
        "initiativebasis": Field("int", Text("adz.field_initiative"), 0, 1000, hint=Text("adz.field_initiative_hint")),
        "groesse": Field("text", Text("adz.field_size"), choices=GROESSEN),
    })
    return AdzSheet(fields, aliases=ENGLISH)


def ressourcen(bogen: Mapping[str, Any], daten: Daten) -> dict[str, dict[str, int]]:
    """The resources a checked sheet starts with: both damage tracks of the GM's data, unhurt
    (Körperlicher Schaden; Geistiger Schaden), and the luck pool at GL (Glückspool)."""
    steps = daten.stufen
    return {KOERPERLICH: {"value": steps, "max": steps}, GEISTIG: {"value": steps, "max": steps},
            GLUECK: {"value": bogen["GL"], "max": bogen["GL"]}}


def leistengrenzen(figur: Figure, track: str) -> Limits:
    """A damage track's limits: between its last step (0 steps free) and unhurt, its maximum
    (Körperlicher Schaden; Geistiger Schaden: healing takes the steps off again). Mental damage
    beyond the last mental step goes on to the physical track ("wird auf die körperliche
    Schadensleiste übertragen"); beyond the last physical step it is the figure's state, not a value."""
    found = figur.resource(track)
    if track == GEISTIG:
        return Limits(0, found.max if found else None, GEISTIGER_SCHADEN, overflow=KOERPERLICH)
    return Limits(0, found.max if found else None, KOERPERLICHER_SCHADEN)


def grenzen(figur: Figure, resource: str) -> Limits | None:
    """The limits of the damage tracks (``leistengrenzen``) and of the luck pool, which never falls
    below 0 and has no upper bound: its height "kann sich jedoch im Lauf des Spiels verändern", and
    the GM refills it to any height (Glückspool); None for other resources (the kit's default)."""
    if resource in (KOERPERLICH, GEISTIG):
        return leistengrenzen(figur, resource)
    return Limits(0, None, "Glückspool") if resource == GLUECK else None


# -- reading a figure (the kit's view of its campaign record) --------------------------
def _find(table: Mapping[str, int], name: str) -> tuple[str, int] | None:
    for key, value in table.items():
        if key.casefold() == name.casefold():
            return key, value
    return None


def attribut(figur: Figure, name: str) -> int:
    """An attribute's points (KK, GE, ...)."""
    key = name.upper()
    if key not in ATTRIBUTE:
        raise SheetError(t("adz.unknown_attribute", name=name, known=", ".join(ATTRIBUTE)))
    return int(figur.value(key))


def technik(figur: Figure, name: str, daten: Daten) -> int:
    """A technique's points."""
    for tech in daten.techniken:
        if tech.casefold() == name.casefold():
            return int(figur.value(tech))
    raise SheetError(t("adz.unknown_technique", name=name, known=", ".join(daten.techniken)))


def liste(figur: Figure, field: str) -> dict[str, int]:
    """A list of "Name Wert" entries (skills, areas, specialisations, foci) as name -> points."""
    return punkte(figur.value(field, []), field, LISTEN[field])


def wert(figur: Figure, field: str, name: str, required: bool = True) -> tuple[str, int]:
    """(name as written, points) of a skill, area, specialisation or focus; (name, 0) if absent
    and not ``required``."""
    found = _find(liste(figur, field), name)
    if found is None:
        if required:
            known = ", ".join(liste(figur, field)) or "–"
            raise SheetError(t("adz.unknown_property", figure=figur.name, field=t(f"adz.field_{field}_one"),
                               name=name, known=known))
        return name, 0
    return found


def waffen(figur: Figure, daten: Daten) -> list[Waffe]:
    return [waffe(e, daten) for e in figur.value("waffen", [])]


def waffe_von(figur: Figure, name: str | None, daten: Daten) -> Waffe:
    """The weapon named ``name``, else the first listed."""
    weapons = waffen(figur, daten)
    if name is None:
        if not weapons:
            raise SheetError(t("adz.no_weapon", figure=figur.name))
        return weapons[0]
    for w in weapons:
        if w.name.casefold() == name.casefold():
            return w
    raise SheetError(t("adz.unknown_weapon_of", figure=figur.name, name=name,
                       known=", ".join(w.name for w in weapons) or "–"))


def ausruestung_von(figur: Figure, daten: Daten) -> list[Ausruestung]:
    return [ausruestung(e, daten) for e in figur.value("ausruestung", [])]


def summe(figur: Figure, key: str, daten: Daten) -> int:
    """The sum of RS, WB, AM or VM over the equipment (several modifiers add up)."""
    return sum(getattr(a, key) for a in ausruestung_von(figur, daten))


def unterstuetzung(figur: Figure, name: str, daten: Daten) -> tuple[str, int]:
    """A supporting skill or magic area: (name, bonus dice = ceil(points / 3)) (Unterstützende Eigenschaften)."""
    for field in ("fertigkeiten", "magiebereiche"):
        found = _find(liste(figur, field), name)
        if found is not None:
            return found[0], math.ceil(found[1] / 3)
    if name.upper() in ATTRIBUTE or any(tech.casefold() == name.casefold() for tech in daten.techniken):
        raise SheetError(t("adz.support_not_allowed", name=name))
    raise SheetError(t("adz.unknown_support", figure=figur.name, name=name))
