"""GM data: the tables the seed refers to but does not contain (attribute purchase, LP, AP,
skills, innate abilities, aging, damage bonus, spells, element star, critical tables).

One YAML file with a section per table (schemas in docs/midgard.md), every section checked on
reading; sections and their fields take English keys too (``ENGLISH``, ``ENGLISH_FIELDS``,
``rules.aliases``), data keys (skills, spells, races) do not; ``data/beispiel_spielleitung.yaml``
only shows the format, its numbers are not the published rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any, Callable

from ...dice import parse
from ...errors import DiceSyntaxError
from ...messages import Text, Texts, t
from rpgkernel.rules.kit import read_yaml, renamed, renamed_in
from .core import MidgardError
from .sheet import ATTRIBUTE

KATEGORIEN = ("Grund", "Standard", "Ausnahme")
GRENZE = 6          # Kauf der Attribute: nobody goes beyond the +/-6 column
#: the critical tables (section kritisch): situation -> when its table is rolled
SITUATIONEN = Texts({
    "treffer": Text("midgard.situation_treffer"),
    "fehler_angriff": Text("midgard.situation_fehler_angriff"),
    "fehler_abwehr": Text("midgard.situation_fehler_abwehr"),
    "erfolg": Text("midgard.situation_erfolg"),
    "fehler": Text("midgard.situation_fehler"),
})
#: the English keys of the tables and the critical tables, read as aliases
ENGLISH = {"attribute_purchase": "attributkauf", "ap_fixed": "ap_fest", "skills": "fertigkeiten",
           "sixth_sense": "sechster_sinn", "innate": "angeboren", "aging": "altern",
           "damage_bonus": "schadensbonus", "spells": "zauber", "element_star": "elementarstern",
           "critical": "kritisch"}
ENGLISH_CRITICAL = {"hit": "treffer", "attack_fumble": "fehler_angriff", "defence_fumble": "fehler_abwehr",
                    "defense_fumble": "fehler_abwehr", "success": "erfolg", "fumble": "fehler"}
#: the English names of the fields inside the sections and their rows (never of data keys)
ENGLISH_FIELDS = {"tiers": "stufen", "zero_tier": "null_stufe", "columns": "spalten", "base": "basis",
                  "attribute": "attribut", "values": "werte", "size": "groesse", "build": "gestalt",
                  "races": "rassen", "minimum": "mindestwert", "cost": "kosten", "value": "wert",
                  "ability": "faehigkeit", "senses": "sinne", "changes": "aenderungen", "rows": "zeilen",
                  "multiplier": "multiplikator", "spells": "sprueche", "categories": "kategorien",
                  "level": "stufe", "opposite": "gegensatz", "die": "wuerfel", "from": "von", "to": "bis",
                  "ap_die": "ap_wuerfel", "ap_extra": "ap_zusatz", "size_and_build": "gestalt_abb"}
_RANGE = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+))?\s*$")


@dataclass(frozen=True)
class Stufe:
    """An attribute tier such as 91-95 or 100."""

    von: int
    bis: int

    @property
    def text(self) -> str:
        return str(self.von) if self.von == self.bis else f"{self.von:02d}-{self.bis:02d}"


def stufe(text: Any) -> Stufe:
    m = _RANGE.match(str(text))
    if m is None:
        raise ValueError(text)
    lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
    if not 1 <= lo <= hi <= 100:
        raise ValueError(text)
    return Stufe(lo, hi)


@dataclass
class Tabellen:
    """The GM's tables, checked; ``quelle`` is the file they came from ("" when none)."""

    daten: dict[str, Any] = field(default_factory=dict)
    quelle: str = ""

    def teil(self, section: str) -> Any:
        """A section, or a clear error that the GM has to supply it."""
        if section not in self.daten:
            raise MidgardError(t("midgard.table_missing", table=section, source=self.quelle or "–"))
        return self.daten[section]


def laden(path: str | Path) -> Tabellen:
    """Read and check the GM's tables from ``path`` (YAML)."""
    return pruefen(read_yaml(path, MidgardError) or {}, str(path))


def pruefen(data: Any, quelle: str) -> Tabellen:
    """Check the GM's tables (a mapping of sections, read from ``quelle``)."""
    if not isinstance(data, dict):
        raise MidgardError(t("midgard.bad_table", table="–", path=quelle, detail=t("midgard.detail_mapping")))
    checked = {}
    for key, value in renamed_in(data, ENGLISH).items():
        check = _SECTIONS.get(key)
        if check is None:
            raise MidgardError(t("midgard.unknown_table", table=key, path=quelle, known=", ".join(_SECTIONS)))
        try:
            checked[key] = check(value)
        except (ValueError, TypeError, KeyError, AttributeError) as err:
            detail = str(err.args[0]) if err.args else type(err).__name__
            raise MidgardError(t("midgard.bad_table", table=key, path=quelle, detail=detail[:120])) from None
    return Tabellen(checked, quelle)


# -- the sections -------------------------------------------------------------------
def _mapping(value: Any) -> dict:
    if not isinstance(value, dict):
        raise ValueError(t("midgard.detail_mapping"))
    return value


def _fields(value: Any) -> dict:
    """A mapping of fields (not of data keys), its English field names read as the German ones."""
    return renamed(_mapping(value), ENGLISH_FIELDS)


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(t("midgard.detail_int", value=repr(value)[:30]))
    return value


def _nummer(key: Any) -> int:
    """A number as a key: 12 in YAML, "12" once kept in the campaign (JSON keys are text)."""
    if isinstance(key, str) and key.lstrip("+-").isdigit():
        return int(key)
    return _int(key)


def _dice(value: Any) -> str:
    text = str(value).strip()
    try:
        parse(text)
    except DiceSyntaxError:
        raise ValueError(t("midgard.detail_dice", value=text[:30])) from None
    return text


def _attribute_key(key: Any) -> str:
    k = str(key).lower()
    if k not in ATTRIBUTE:
        raise ValueError(t("midgard.detail_attribute", value=key, known=", ".join(ATTRIBUTE)))
    return k


def _rows(value: Any, key: str, make: Callable[[dict], Any]) -> list:
    """A list of rows ``{bis: N, …}`` in rising order of ``key``."""
    if not isinstance(value, list) or not value:
        raise ValueError(t("midgard.detail_rows"))
    rows = [make(_fields(r)) for r in value]
    limits = [r[key] for r in rows]
    if limits != sorted(limits):
        raise ValueError(t("midgard.detail_order", key=key))
    return rows


def _attributkauf(value: Any) -> dict[str, Any]:
    v = _fields(value)
    tiers = [stufe(x) for x in v["stufen"]]
    for a, b in pairwise(tiers):
        if b.von != a.bis + 1:
            raise ValueError(t("midgard.detail_tiers"))
    if tiers[-1].bis != 100:
        raise ValueError(t("midgard.detail_tiers"))
    labels = {x.text: i for i, x in enumerate(tiers)}
    zero = v["null_stufe"]
    zero_map = ({_attribute_key(k): zero_v for k, zero_v in _mapping(zero).items()} if isinstance(zero, dict)
                else {k: zero for k in ATTRIBUTE})
    null = {}
    for k, label in zero_map.items():
        s = stufe(label).text
        if s not in labels:
            raise ValueError(t("midgard.detail_tier_unknown", value=label))
        null[k] = labels[s]
    columns = {_nummer(k): _int(c) for k, c in _mapping(v["spalten"]).items()}
    if columns.get(0, 0) != 0 or any(abs(k) > GRENZE for k in columns):
        raise ValueError(t("midgard.detail_columns", limit=GRENZE))
    return {"stufen": tiers, "null": null, "spalten": columns}


def _lp(value: Any) -> dict[str, Any]:
    v = _fields(value)
    basis = v["basis"]
    if isinstance(basis, dict):
        basis = _fields(basis)
        basis = {"attribut": _attribute_key(basis["attribut"]),
                 "werte": _rows(basis["werte"], "bis", lambda r: {"bis": _int(r["bis"]), "lp": _int(r["lp"])})}
    else:
        basis = _int(basis)
    return {"basis": basis,
            "groesse": {str(k): _int(x) for k, x in _mapping(v.get("groesse", {})).items()},
            "gestalt": {str(k): _int(x) for k, x in _mapping(v.get("gestalt", {})).items()},
            "rassen": {str(k): _int(x) for k, x in _mapping(v.get("rassen", {})).items()}}


def _ap_fest(value: Any) -> dict[str, dict[int, int]]:
    return {str(k): {_nummer(g): _int(x) for g, x in _mapping(row).items()} for k, row in _mapping(value).items()}


def _fertigkeiten(value: Any) -> dict[str, dict[str, Any]]:
    out = {}
    for k, row in _mapping(value).items():
        row = _fields(row)
        minimum = {_attribute_key(a): _int(x) for a, x in _mapping(row.get("mindestwert", {})).items()}
        costs = {}
        for cat, x in _mapping(row.get("kosten", {})).items():
            if cat not in KATEGORIEN:
                raise ValueError(t("midgard.detail_category", value=cat, known=", ".join(KATEGORIEN)))
            costs[cat] = _int(x)
        out[str(k)] = {"mindestwert": minimum, "kosten": costs}
    return out


def _sechster_sinn(value: Any) -> list[dict[str, int]]:
    return _rows(value, "bis", lambda r: {"bis": _int(r["bis"]), "wert": _int(r["wert"])})


def _angeboren(value: Any) -> list[dict[str, Any]]:
    rows = _rows(value, "bis", lambda r: {"von": _int(r["von"]), "bis": _int(r["bis"]),
                                          "faehigkeit": str(r["faehigkeit"]),
                                          "sinne": {str(s): _int(x) for s, x in _mapping(r.get("sinne", {})).items()}})
    if not _luecklos(rows, 1, 99):
        raise ValueError(t("midgard.detail_innate"))
    return rows


def _altern(value: Any) -> dict[str, Any]:
    v = _fields(value)

    def row(r: dict) -> dict[str, Any]:
        return {"bis": _int(r["bis"]), "aenderungen": {str(k).lower(): _dice(x) for k, x in
                                                      _mapping(r.get("aenderungen", {})).items()}}
    return {"zeilen": _rows(v["zeilen"], "bis", row),
            "multiplikator": {str(k): _int(x) for k, x in _mapping(v.get("multiplikator", {})).items()}}


def _schadensbonus(value: Any) -> dict[int, str]:
    out = {_nummer(k): _dice(x) for k, x in _mapping(value).items()}
    if any(k <= 0 for k in out):
        raise ValueError(t("midgard.detail_positive"))
    return out


def _luecklos(rows: list[dict[str, Any]], von: int, bis: int) -> bool:
    return [n for r in rows for n in range(r["von"], r["bis"] + 1)] == list(range(von, bis + 1))


def _kritisch(value: Any) -> dict[str, Any]:
    out = {}
    for key, table in renamed_in(_mapping(value), ENGLISH_CRITICAL).items():
        if key not in SITUATIONEN:
            raise ValueError(t("midgard.detail_crit_key", value=key, known=", ".join(SITUATIONEN)))
        table = _fields(table)
        die = str(table.get("wuerfel", "W%"))
        sides = {"W%": 100, "W100": 100, "W20": 20}.get(die)
        if sides is None:
            raise ValueError(t("midgard.detail_crit_die", value=die[:30]))
        rows = _rows(table.get("zeilen"), "bis", lambda r: {"von": _int(r["von"]), "bis": _int(r["bis"]),
                                                             "text": str(r["text"])})
        if not _luecklos(rows, 1, sides):
            raise ValueError(t("midgard.detail_crit_rows", key=key, sides=sides))
        out[str(key)] = {"wuerfel": die, "zeilen": rows}
    return out


def _zauber(value: Any) -> dict[str, Any]:
    v = _fields(value)
    costs = {}
    for cat, row in _mapping(v.get("kosten", {})).items():
        if cat not in KATEGORIEN:
            raise ValueError(t("midgard.detail_category", value=cat, known=", ".join(KATEGORIEN)))
        costs[cat] = {_nummer(level): _int(x) for level, x in _mapping(row).items()}
    spells = {}
    for k, r in _mapping(v.get("sprueche", {})).items():
        r = _fields(r)
        spells[str(k)] = {"stufe": _int(r["stufe"]), **({"fp": _int(r["fp"])} if "fp" in r else {})}
    classes = {}
    for cls, row in _mapping(v.get("kategorien", {})).items():
        classes[str(cls)] = {}
        for spell, cat in _mapping(row).items():
            if cat not in KATEGORIEN:
                raise ValueError(t("midgard.detail_category", value=cat, known=", ".join(KATEGORIEN)))
            classes[str(cls)][str(spell)] = cat
    return {"kosten": costs, "sprueche": spells, "kategorien": classes}


def _elementarstern(value: Any) -> dict[str, Any]:
    v = _fields(value)
    ring = [str(x) for x in v["ring"]]
    if len(ring) < 3 or len(set(ring)) != len(ring):
        raise ValueError(t("midgard.detail_ring"))
    opposite = {str(k): str(x) for k, x in _mapping(v.get("gegensatz", {})).items()}
    if not set(opposite) | set(opposite.values()) <= set(ring):
        raise ValueError(t("midgard.detail_ring"))
    return {"ring": ring, "gegensatz": opposite}


_SECTIONS: dict[str, Callable[[Any], Any]] = {
    "attributkauf": _attributkauf, "lp": _lp, "ap_fest": _ap_fest, "fertigkeiten": _fertigkeiten,
    "sechster_sinn": _sechster_sinn, "angeboren": _angeboren, "altern": _altern,
    "schadensbonus": _schadensbonus, "zauber": _zauber, "elementarstern": _elementarstern, "kritisch": _kritisch,
}


def zeile(rows: list[dict[str, Any]], value: int) -> dict[str, Any]:
    """The first row with ``value <= bis`` (the last row for anything above)."""
    return next((r for r in rows if value <= r["bis"]), rows[-1])


def rassen(path: str | Path | None = None) -> dict[str, dict[str, Any]]:
    """The seed's race list (data/rassen.yaml, or the GM's): shifts in tiers, the AP die."""
    source = Path(path) if path else Path(__file__).with_name("data") / "rassen.yaml"
    return rassen_pruefen(read_yaml(source, MidgardError), str(source))


def rassen_pruefen(data: Any, quelle: str) -> dict[str, dict[str, Any]]:
    out = {}
    try:
        for race, row in _mapping(data).items():
            row = _fields(row)
            shifts = _mapping(row.get("stufen", {}))
            out[str(race)] = {"stufen": {_attribute_key(k): _int(x) for k, x in shifts.items()},
                              "ap": str(row["ap"]), "ap_wuerfel": _dice(row["ap_wuerfel"]),
                              "ap_zusatz": str(row.get("ap_zusatz", "")), "gestalt_abb": bool(row.get("gestalt_abb"))}
    except (ValueError, TypeError, KeyError, AttributeError) as err:
        detail = str(err.args[0]) if err.args else type(err).__name__
        raise MidgardError(t("midgard.bad_table", table="rassen", path=quelle, detail=detail[:120])) from None
    return out
