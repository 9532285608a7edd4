"""What the GM sets for Kampfwerte: the test mechanic, the movement types, the terrain, the LP at
which a figure can no longer act, the decisions on ambiguous passages (``data/regeln.yaml``) and
the manoeuvre catalogue (``data/manoever.yaml``), shipped as documented defaults.

``einrichten`` checks the GM's sections and keeps them in the campaign (data ``kampfwerte``); the
verbs read them as ``Request.settings``, the procedures as ``daten``. The data and the fields of
each manoeuvre take English keys too (``ENGLISH``, ``ENGLISH_MANOEUVRE``, ``rules.aliases``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeVar

from ...messages import t
from rpgkernel.rules.kit import RulesError, Settings, read_yaml, renamed_in

DATA = Path(__file__).with_name("data")
DATEN = "kampfwerte"     # the name of the GM's settings among the campaign's data
TEILE = ("regeln", "manoever")
#: the English keys of the data, of its rule sections and of a test and a movement type, read as aliases
ENGLISH = {"rules": "regeln", "manoeuvres": "manoever", "maneuvers": "manoever"}
ENGLISH_RULES = {"test": "probe", "movement_types": "bewegungsarten", "terrain": "gelaende",
                 "riding_range": "reiten_reichweite", "bp_fractions": "bp_bruchteile",
                 "sweep_cost": "rundumschlag_kosten", "heavy_blow_parry": "wuchtschlag_parade",
                 "incapacitated_lp": "kampfunfaehig_lp", "difficulty": "schwierigkeit",
                 "min_successes": "mindest_erfolge", "cost": "kosten", "modifier": "modifikator"}
#: the English names of a manoeuvre's fields (its name and the values stay German)
ENGLISH_MANOEUVRE = {"group": "gruppe", "cost": "kosten", "targets": "ziele", "adjacent": "angrenzend",
                     "damage_split": "schaden_geteilt", "reaction": "reaktion", "description": "beschreibung",
                     "fields": "felder", "bonus_dice": "bonus_wuerfel", "condition": "bedingung", "damage": "schaden",
                     "damage_per_level": "schaden_pro_stufe", "no_defence": "keine_verteidigung",
                     "no_defense": "keine_verteidigung", "multiplier": "multiplikator", "knock_down": "niederwerfen",
                     "weapon": "waffe", "weapon_type": "waffe_art", "ignore_armour": "ruestung_ignorieren",
                     "ignore_armor": "ruestung_ignorieren", "push": "stossen", "disarm": "entwaffnen",
                     "parries": "paraden", "feint": "finte", "answers": "antwort_auf", "negates_feint": "negiert_finte",
                     "fends_off": "wehrt_ab"}
T = TypeVar("T")


class KampfwerteError(RulesError):
    """A Kampfwerte action, map or GM data the rules do not allow."""


@dataclass(frozen=True)
class Bewegungsart:
    """A movement type (Bewegungskosten): BP per field, the talent tested and the sheet field of its modifier."""

    name: str
    kosten: Fraction
    probe: str | None
    modifikator: str | None


@dataclass(frozen=True)
class Einstellungen:
    """The rule data in force, checked."""

    schwierigkeit: int                      # Probe: a W10 at or above it is a success
    mindest_erfolge: int                    # Probe: the successes a test needs
    bewegungsarten: dict[str, Bewegungsart]
    gelaende: dict[str, int]                # terrain -> factor on a field's movement cost
    reiten_reichweite: str                  # "zusatz_bp" (Reittier-Stufe × ½ BP more) or "keiner"
    bp_bruchteile: str                      # "summe" (a round's move costs add up) or "aufrunden" (each move)
    rundumschlag_kosten: str                # "gegner" (1 AD pro Gegner) or "stufe" ([Stufe] AD)
    wuchtschlag_parade: dict[int, int]      # Stufe -> the difficulty of the target's parry
    kampfunfaehig_lp: int                   # at this many LP or fewer a figure can no longer act
    manoever: dict[str, dict[str, Any]]     # the manoeuvre catalogue


def _lesen(name: str) -> Any:
    return read_yaml(DATA / name, KampfwerteError) or {}


def _keys(x: Any) -> Any:
    """Level tables read back from JSON: digit keys as ints ({"1": 8} -> {1: 8})."""
    if isinstance(x, Mapping):
        return {int(k) if isinstance(k, str) and k.isdigit() else k: _keys(v) for k, v in x.items()}
    return [_keys(v) for v in x] if isinstance(x, list) else x


def _schlecht(teil: str) -> KampfwerteError:
    return KampfwerteError(t("kampfwerte.bad_data", detail=teil))


def _teil(teil: str, read: Callable[[Any], T | None], value: Any) -> T:
    """``read(value)``: the section ``teil`` of the rule data, checked; an error naming it where it does not fit."""
    try:
        found = read(value)
    except (KeyError, TypeError, ValueError, AttributeError, ZeroDivisionError):
        found = None
    if found is None:
        raise _schlecht(teil)
    return found


def _probe(p: Any) -> tuple[int, int] | None:
    p = renamed_in(p, ENGLISH_RULES)
    sw, mindest = int(p["schwierigkeit"]), int(p["mindest_erfolge"])
    return (sw, mindest) if 1 <= sw <= 10 and mindest >= 0 else None


def _arten(arten: Any) -> dict[str, Bewegungsart] | None:
    found = {name: Bewegungsart(name, Fraction(str(v["kosten"])), v.get("probe"), v.get("modifikator"))
             for name, v in ((name, renamed_in(v, ENGLISH_RULES)) for name, v in arten.items())}
    return found if all(a.kosten > 0 for a in found.values()) else None


def _gelaende(g: Any) -> dict[str, int] | None:
    return dict(g) if all(isinstance(c, int) and c >= 1 for c in g.values()) else None


def _wahl(*erlaubt: str) -> Callable[[Any], str | None]:
    return lambda v: v if v in erlaubt else None


def _parade(w: Any) -> dict[int, int] | None:
    found = {stufe: int(w[stufe]) for stufe in range(1, 6)}
    return found if all(1 <= sw <= 10 for sw in found.values()) else None


def _lp(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) and abs(v) <= 999 else None


def _katalog(m: Any) -> dict[str, dict[str, Any]] | None:
    found = {name: renamed_in(e, ENGLISH_MANOEUVRE) for name, e in m.items()}
    return found if all(isinstance(e, Mapping) and "kosten" in e for e in found.values()) else None


def _bauen(kept: Any) -> Einstellungen:
    """The settings of the GM's kept data (``{}``: the defaults), checked: its ``regeln`` replace
    sections of regeln.yaml, its ``manoever`` the whole catalogue."""
    if not isinstance(kept, dict):
        raise _schlecht(type(kept).__name__)
    vorgabe, eigene = _lesen("regeln.yaml"), renamed_in(kept.get("regeln") or {}, ENGLISH_RULES)
    unbekannt = sorted(set(kept) - set(TEILE)) or (sorted(set(eigene) - set(vorgabe))
                                                   if isinstance(eigene, dict) else ["regeln"])
    if unbekannt:
        raise _schlecht(", ".join(map(str, unbekannt)))
    regeln = {**vorgabe, **_keys(eigene)}
    sw, mindest = _teil("probe", _probe, regeln["probe"])
    return Einstellungen(
        schwierigkeit=sw, mindest_erfolge=mindest,
        bewegungsarten=_teil("bewegungsarten", _arten, regeln["bewegungsarten"]),
        gelaende=_teil("gelaende", _gelaende, regeln["gelaende"]),
        reiten_reichweite=_teil("reiten_reichweite", _wahl("zusatz_bp", "keiner"), regeln["reiten_reichweite"]),
        bp_bruchteile=_teil("bp_bruchteile", _wahl("summe", "aufrunden"), regeln["bp_bruchteile"]),
        rundumschlag_kosten=_teil("rundumschlag_kosten", _wahl("stufe", "gegner"), regeln["rundumschlag_kosten"]),
        wuchtschlag_parade=_teil("wuchtschlag_parade", _parade, regeln["wuchtschlag_parade"]),
        kampfunfaehig_lp=_teil("kampfunfaehig_lp", _lp, regeln["kampfunfaehig_lp"]),
        manoever=_teil("manoever", _katalog, _keys(kept["manoever"]) if kept.get("manoever") is not None
                       else _lesen("manoever.yaml")))


EINSTELLUNGEN = Settings(DATEN, _bauen, aliases=ENGLISH)


def _als_daten(teil: str, value: Mapping[str, Any] | str | Path) -> Any:
    """A section or catalogue given as data or as a YAML file, as JSON (the campaign keeps JSON: level keys as text)."""
    if isinstance(value, (str, Path)):
        value = read_yaml(value, KampfwerteError)
    try:
        return json.loads(json.dumps(value, allow_nan=False))
    except (TypeError, ValueError):
        raise _schlecht(teil) from None


def einrichten(regeln: Mapping[str, Any] | str | Path | None = None,
               manoever: Mapping[str, Any] | str | Path | None = None, *,
               kampagne: Any = None, begegnung: str | None = None) -> Einstellungen:
    """Check the GM's rule sections (``regeln``: the sections of regeln.yaml it replaces, e.g.
    ``{"gelaende": {...}, "rundumschlag_kosten": "stufe"}``) and/or a whole manoeuvre catalogue
    (``manoever``), each as data or a YAML file, and keep them in ``kampagne`` as data ``kampfwerte``
    (for ``begegnung`` only, if given), replacing what it kept before; None for both: back to the
    defaults.

    Everything is checked first: data that does not fit changes nothing. Without ``kampagne`` only
    checked and returned (for calling the procedures directly).
    """
    kept: dict[str, Any] = {}
    if regeln is not None and (eigene := _als_daten("regeln", regeln)):
        kept["regeln"] = eigene
    if manoever is not None:
        kept["manoever"] = _als_daten("manoever", manoever)
    return EINSTELLUNGEN.keep(kept, kampagne, begegnung)
