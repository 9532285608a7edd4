"""The AdZ engine's GM settings: default tables (data/*.yaml), the GM's replacements, AdZ's error.

``einrichten(path, …, kampagne=…)`` checks the GM's files merged over the defaults (a section's
keys replace the default's) and keeps them in the campaign (data ``adz``); the verbs read them as
``Request.settings`` (``EINSTELLUNGEN``). Without any, ``EINSTELLUNGEN.defaults()`` holds.
Example files (``beispiel_*.yaml``) load only when asked for. The sections and their fields take
English keys too (``ENGLISH``, ``ENGLISH_FIELDS``, ``rules.aliases``), names of weapons, areas and
effects do not.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from ...messages import t
from rpgkernel.rules.kit import RulesError, Settings, as_json, read_yaml, renamed_in
from .einheiten import Einheiten, Ungueltig
from .zauberparameter import Wirkung, wirkung_lesen

DATA = Path(__file__).with_name("data")
DEFAULT_FILES = ("regeln.yaml", "fernkampf.yaml", "krafteinsatz.yaml")
ATTRIBUTE = ("KK", "KO", "GE", "FF", "KL", "WK", "IN", "CH", "GL")
DATEN = "adz"       # the name of the GM's data in the campaign
#: the English keys of the kept data and of the files' sections, read as aliases
ENGLISH = {"files": "dateien", "source": "quelle", "default_data": "standarddaten", "techniques": "techniken",
           "minimum_roll": "mindestwurf", "damage_track": "schadensleiste", "healing": "heilung",
           "defence": "verteidigung", "defense": "verteidigung", "resistance": "widerstand",
           "ambidextrous": "beidhaendig", "drain": "entzug", "saving_throw": "rettungswurf", "distance": "distanz",
           "size": "groesse", "range_classes": "reichweitenklassen", "standard_scale": "standardskala",
           "units": "einheiten", "number_words": "zahlwoerter", "magic_areas": "magiebereiche", "weapons": "waffen",
           "armour": "ruestungen", "armor": "ruestungen", "actions": "handlungen"}
#: the English names of the fields inside the sections and inside each entry of a name -> entry section
ENGLISH_FIELDS = {"attribute": "attribut", "skill": "fertigkeit", "factor": "faktor", "penalties": "malus",
                  "on_drain_roll": "auf_entzugswurf", "physical_phases": "koerperlich_phasen",
                  "mental_minutes": "geistig_minuten", "specialisations": "spezialisierungen",
                  "specializations": "spezialisierungen", "bonus_per_success": "bonus_je_erfolg",
                  "on_failure": "bei_misslingen", "actions": "aktionen", "reactions": "reaktionen",
                  "base_damage": "grundschaden", "range_class": "reichweitenklasse", "mental": "geistig",
                  "effects": "effekte", "technique": "technik", "casting_time": "zauberdauer",
                  "parameters": "parameter"}
#: the sections that are fields, and those whose entries (by name) are
FIELD_SECTIONS = ("initiative", "schadensleiste", "heilung", "verteidigung", "widerstand", "beidhaendig", "entzug",
                  "rettungswurf", "handlungen")
ENTRY_SECTIONS = ("mindestwurf", "waffen", "ruestungen")


class AdzError(RulesError):
    """An AdZ action or GM data the rules do not allow."""


@dataclass(frozen=True)
class Waffe:
    """A weapon: its skill, the damage code's attribute (None: ranged, FF), Grundschaden, VM,
    range class (ranged weapons), whether it hurts the mental track (brawling)."""

    name: str
    fertigkeit: str
    attribut: str | None
    grundschaden: int
    vm: int = 0
    reichweitenklasse: str | None = None
    geistig: bool = False

    @property
    def fernkampf(self) -> bool:
        return self.reichweitenklasse is not None


@dataclass(frozen=True)
class Ausruestung:
    """Armour, a shield or a parrying weapon: RS, WB, AM, VM (Rüstungen, Parierwaffen und Schilde)."""

    name: str
    rs: int = 0
    wb: int = 0
    am: int = 0
    vm: int = 0


class Daten:
    """The merged data: every section checked once, read through properties."""

    def __init__(self, raw: Mapping[str, Any], source: str = "") -> None:
        self.raw = dict(raw)
        self.source = source
        self._check()

    def _section(self, key: str) -> Any:
        if key not in self.raw:
            raise AdzError(t("adz.data_missing", section=key, source=self.source))
        return self.raw[key]

    def _bad(self, key: str, why: str) -> AdzError:
        return AdzError(t("adz.data_bad", section=key, why=why, source=self.source))

    def _check(self) -> None:
        self._listen_pruefen()
        self._tabellen_pruefen()
        for attr in (self.initiative["attribut"], self.verteidigung["attribut"], self.widerstand["attribut"],
                     self.entzug["attribut"], self.rettungswurf["attribut"]):
            if attr not in ATTRIBUTE:
                raise self._bad("attribut", str(attr))
        self._wirkungen = self._effekte_pruefen()

    def _listen_pruefen(self) -> None:
        """The techniques and the damage track's maluses."""
        tech = self._section("techniken")
        if not isinstance(tech, list) or not tech or not all(isinstance(x, str) and x for x in tech):
            raise self._bad("techniken", t("adz.data_names"))
        malus = self._section("schadensleiste").get("malus")
        if not isinstance(malus, list) or len(malus) < 2 or malus[-1] != "X" \
                or not all(isinstance(m, int) and m >= 0 for m in malus[:-1]):
            raise self._bad("schadensleiste", t("adz.data_malus"))

    def _tabellen_pruefen(self) -> None:
        """The Mindestwurf table, the standard scale, the range classes, distance and size modifiers."""
        for name, row in self._section("mindestwurf").items():
            if not isinstance(row, Mapping) or not all(v is None or (isinstance(v, int) and v >= 1)
                                                       for v in row.values()):
                raise self._bad("mindestwurf", str(name))
        scale = self._section("standardskala")
        if not isinstance(scale, list) or not all(isinstance(v, int) and v > 0 for v in scale):
            raise self._bad("standardskala", t("adz.data_scale"))
        for cls, limits in self._section("reichweitenklassen").items():
            if not isinstance(limits, list) or len(limits) != len(self.distanz) \
                    or not all(isinstance(v, (int, float)) and v > 0 for v in limits):
                raise self._bad("reichweitenklassen", str(cls))
        for key in ("distanz", "groesse"):
            if not all(isinstance(v, int) for v in self._section(key).values()):
                raise self._bad(key, t("adz.data_ints"))

    def _effekte_pruefen(self) -> dict[str, Wirkung]:
        """The units, and every effect of the effect lists that names its parameters, read and checked."""
        why = Einheiten.pruefen(self.raw.get("einheiten"), self.raw.get("zahlwoerter", {}))
        if why is not None:
            raise self._bad("einheiten", why)
        self.einheiten = Einheiten(self.raw["einheiten"], self.raw.get("zahlwoerter", {}))
        out = {}
        for area, spec in (self.raw.get("magiebereiche") or {}).items():
            for name, row in ((spec or {}).get("effekte") or {}).items() if isinstance(spec, Mapping) else ():
                if isinstance(row, Mapping) and "parameter" in row:
                    try:
                        out.setdefault(str(name).casefold(), wirkung_lesen(str(name), str(area), row,
                                                                           self.standardskala, self.einheiten))
                    except Ungueltig as err:
                        raise self._bad("magiebereiche", str(err)) from None
        return out

    # -- sections --------------------------------------------------------------
    @property
    def techniken(self) -> tuple[str, ...]:
        return tuple(self.raw["techniken"])

    @property
    def initiative(self) -> Mapping[str, Any]:
        return self._section("initiative")

    @property
    def mindestwurf(self) -> Mapping[str, Mapping[str, int | None]]:
        return self.raw["mindestwurf"]

    @property
    def malus(self) -> list[int | str]:
        return list(self.raw["schadensleiste"]["malus"])

    @property
    def stufen(self) -> int:
        """Steps of each damage track."""
        return len(self.raw["schadensleiste"]["malus"])

    @property
    def malus_auf_entzug(self) -> bool:
        return bool(self.raw["schadensleiste"].get("auf_entzugswurf", False))

    @property
    def heilung(self) -> Mapping[str, Any]:
        return self._section("heilung")

    @property
    def verteidigung(self) -> Mapping[str, Any]:
        return self._section("verteidigung")

    @property
    def widerstand(self) -> Mapping[str, Any]:
        return self._section("widerstand")

    @property
    def beidhaendig(self) -> str:
        return str(self._section("beidhaendig")["fertigkeit"])

    @property
    def entzug(self) -> Mapping[str, Any]:
        return self._section("entzug")

    @property
    def rettungswurf(self) -> Mapping[str, Any]:
        return self._section("rettungswurf")

    @property
    def distanz(self) -> dict[str, int]:
        return dict(self.raw["distanz"])

    @property
    def groesse(self) -> dict[str, int]:
        return dict(self.raw["groesse"])

    @property
    def reichweitenklassen(self) -> dict[str, list[float]]:
        return {str(k): list(v) for k, v in self.raw["reichweitenklassen"].items()}

    @property
    def standardskala(self) -> list[int]:
        return list(self.raw["standardskala"])

    def waffe(self, name: str) -> Waffe | None:
        """A weapon of the GM's weapon list (section ``waffen``), or None."""
        row = _lookup(self.raw.get("waffen") or {}, name)
        if row is None:
            return None
        try:
            return Waffe(name, str(row["fertigkeit"]), row.get("attribut"), int(row["grundschaden"]),
                         int(row.get("vm", 0)), row.get("reichweitenklasse"), bool(row.get("geistig", False)))
        except (KeyError, TypeError, ValueError):
            raise self._bad("waffen", name) from None

    def ausruestung(self, name: str) -> Ausruestung | None:
        """Armour, shield or parrying weapon of the GM's list (section ``ruestungen``), or None."""
        row = _lookup(self.raw.get("ruestungen") or {}, name)
        if row is None:
            return None
        try:
            return Ausruestung(name, **{k: int(row.get(k, 0)) for k in ("rs", "wb", "am", "vm")})
        except (TypeError, ValueError):
            raise self._bad("ruestungen", name) from None

    def handlung(self, name: str) -> str:
        """Whether the GM's action examples (``handlungen``) list ``name`` as "aktion" or "reaktion"."""
        table = self.raw.get("handlungen") or {}
        for kind in ("aktionen", "reaktionen"):
            if any(str(x).casefold() == name.casefold() for x in table.get(kind) or ()):
                return kind[:-2]
        known = ", ".join(str(x) for kind in ("aktionen", "reaktionen") for x in table.get(kind) or ()) or "–"
        raise AdzError(t("adz.unknown_action", name=name, known=known))

    def effekt(self, name: str) -> tuple[str, Mapping[str, Any]] | None:
        """A spell effect of the GM's effect lists (``magiebereiche``): (area, entry), or None."""
        for area, spec in (self.raw.get("magiebereiche") or {}).items():
            row = _lookup((spec or {}).get("effekte") or {}, name)
            if row is not None:
                return str(area), row
        return None


    def wirkung(self, name: str) -> Wirkung | None:
        """The parameters of an effect of the effect lists (``zauberparameter``), or None if it names none."""
        return self._wirkungen.get(name.casefold())


def _lookup(table: Mapping[str, Any], name: str) -> Mapping[str, Any] | None:
    for key, row in table.items():
        if str(key).casefold() == name.casefold():
            return row if isinstance(row, Mapping) else {}
    return None


def _read(path: str | Path) -> dict[str, Any]:
    found = read_yaml(path, AdzError, "adz.data_unreadable")
    if not isinstance(found, dict):
        raise AdzError(t("adz.data_not_mapping", path=str(path)))
    return found


@lru_cache(maxsize=1)
def _defaults() -> tuple[dict[str, Any], ...]:
    return tuple(_read(DATA / f) for f in DEFAULT_FILES)


def _merged(files: list[Any]) -> dict[str, Any]:
    """The default data with the files' sections merged over it, in order."""
    merged: dict[str, Any] = {}
    for found in (*_defaults(), *files):
        for key, value in renamed_in(found, ENGLISH).items():
            value = _fields_in(key, value)
            if isinstance(value, Mapping) and isinstance(merged.get(key), Mapping):
                merged[key] = {**merged[key], **value}
            else:
                merged[key] = value
    return merged


def _fields_in(section: str, value: Any) -> Any:
    """A section with its English field names read as the German ones (entries' names as they are)."""
    if section in FIELD_SECTIONS:
        return renamed_in(value, ENGLISH_FIELDS)
    if section in ENTRY_SECTIONS:
        return _entries(value)
    if section == "magiebereiche" and isinstance(value, Mapping):
        areas = {area: renamed_in(spec, ENGLISH_FIELDS) for area, spec in value.items()}
        return {area: {**spec, "effekte": _entries(spec["effekte"])} if isinstance(spec, Mapping) and "effekte" in spec
                else spec for area, spec in areas.items()}
    return value


def _entries(value: Any) -> Any:
    """A name -> entry section with each entry's English field names read as the German ones."""
    if not isinstance(value, Mapping):
        return value
    return {name: renamed_in(row, ENGLISH_FIELDS) for name, row in value.items()}


def _bauen(kept: Any) -> Daten:
    """The data of the GM's kept files (``{}``: the defaults), merged over the defaults and checked."""
    files = kept.get("dateien", []) if isinstance(kept, dict) else None
    if not isinstance(files, list) or not all(isinstance(f, dict) for f in files) or set(kept) - {"dateien", "quelle"}:
        raise AdzError(t("adz.bad_kept_data", name=DATEN))
    return Daten(_merged(files), kept.get("quelle") or t("adz.default_source"))


EINSTELLUNGEN = Settings(DATEN, _bauen, sort_keys=False, aliases=ENGLISH)     # key order matters (the distance classes)


def einrichten(*paths: str | Path, kampagne: Any = None, begegnung: str | None = None) -> Daten:
    """Read the GM's files (YAML, merged over the defaults in order) and keep them in ``kampagne`` (for
    ``begegnung`` only, if given), replacing what it kept before; no files: back to the defaults.

    Everything is checked first: a bad file changes nothing. Without ``kampagne`` only checked and
    returned (for calling the procedures directly with ``daten=``).
    """
    kept = {"dateien": [as_json(_read(p)) for p in paths], "quelle": ", ".join(str(p) for p in paths)}
    return EINSTELLUNGEN.keep(kept if paths else None, kampagne, begegnung)
