"""OSR basics (seed 001): settings, figures, weapons, hit dice and the attack matrix.

Seed sections: "Kampf", "Nahkampf-Angriff", "Fernkampf-Angriffe",
"Angriffs- und Rettungswurfmatrizen für Monster". The attack matrix and the
saving-throw tables are GM data (``data/angriffsmatrix.yaml`` and
``data/rettungswuerfe.yaml`` are examples); the hit-dice table is the seed's
(``data/trefferwuerfel.yaml``). The GM's settings live in the campaign (data
``osr``, see ``Campaign.set_data``): ``einrichten`` checks them and puts them
there, the verbs read them as ``Request.settings`` (``EINSTELLUNGEN.of`` of the
campaign's data); without any, the defaults hold (``EINSTELLUNGEN.defaults()``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from ...dice import Dist, dist
from ...errors import DiceSyntaxError, RpgError
from ...messages import t
from ..errors import RulesError, read_yaml
from ..figure import Figure
from ..settings import Settings
from ..sheet import SheetError

DATA = Path(__file__).with_name("data")
NAHKAMPF_REICHWEITE = 10      # feet (Nahkampf-Angriff)
SEGMENTE = 10                 # six-second segments of a one-minute round (Kampf)
WAFFENLOS = "W2"              # Unbewaffneter Kampf
RINGEN = "W2-1"               # Ringen und Überwältigen
_TW = re.compile(r"^\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$")
_WAFFE = re.compile(r"^(?P<name>[^()]*?)\s*\((?P<inhalt>[^()]*)\)\s*$")
_LAENGE = re.compile(r"^länge\s+(\d+(?:[.,]\d+)?)$", re.IGNORECASE)
_TRENNER = re.compile(r"(?<!\d),|,(?!\d)")   # a comma between two digits is a decimal comma


class OsrError(RulesError):
    """An action or value the seed does not allow."""


# -- settings (GM-configurable, kept in the campaign) --------------------------------

DATEN = "osr"        # the name of the GM's settings among the campaign's data
TEILE = ("ueberrascht_bis", "gleichstand", "rk_aufsteigend", "matrix", "rettungswuerfe")


def _zeilen(zeilen: Any, breite: int) -> list[tuple[int, int, list[int]]]:
    rows = []
    for z in zeilen:
        lo, hi = (int(x) for x in z["stufen"])
        wurf = [int(x) for x in z["wurf"]]
        if len(wurf) != breite or lo > hi:
            raise ValueError
        rows.append((lo, hi, wurf))
    return rows


def matrix_pruefen(data: Any, where: str) -> dict[str, Any]:
    """The attack matrices of a file's (or the campaign's) data, checked (``where`` names it in errors)."""
    try:
        spalten = [int(x) for x in data["rk"]]
        matrizen = {str(name): _zeilen(zeilen, len(spalten)) for name, zeilen in data["matrizen"].items()}
        if not matrizen or spalten != sorted(spalten, reverse=True):
            raise ValueError
    except (KeyError, TypeError, ValueError, AttributeError):
        raise OsrError(t("osr.bad_matrix", path=where)) from None
    return {"rk": spalten, "matrizen": matrizen}


def rettung_pruefen(data: Any, where: str) -> dict[str, Any]:
    """The saving-throw tables of a file's (or the campaign's) data, checked."""
    try:
        kategorien = [str(k) for k in data["kategorien"]]
        tabellen = {str(name): _zeilen(zeilen, len(kategorien)) for name, zeilen in data["tabellen"].items()}
        if not tabellen or not kategorien or len({k.lower() for k in kategorien}) != len(kategorien):
            raise ValueError
    except (KeyError, TypeError, ValueError, AttributeError):
        raise OsrError(t("osr.bad_saves", path=where)) from None
    return {"kategorien": kategorien, "tabellen": tabellen}


def matrix_laden(path: str | Path | None = None) -> dict[str, Any]:
    """The attack matrices: the example (data/angriffsmatrix.yaml) or the GM's file, checked."""
    src = Path(path) if path else DATA / "angriffsmatrix.yaml"
    return matrix_pruefen(read_yaml(src, OsrError, "osr.bad_matrix"), str(src))


def rettung_laden(path: str | Path | None = None) -> dict[str, Any]:
    """The saving-throw tables: the example (data/rettungswuerfe.yaml) or the GM's file, checked."""
    src = Path(path) if path else DATA / "rettungswuerfe.yaml"
    return rettung_pruefen(read_yaml(src, OsrError, "osr.bad_saves"), str(src))


def _als_daten(checked: Mapping[str, Any], spalten: str, tabellen: str) -> dict[str, Any]:
    """Checked tables as JSON in the files' schema (rows as ``stufen``/``wurf``)."""
    return {spalten: list(checked[spalten]),
            tabellen: {name: [{"stufen": [lo, hi], "wurf": list(wurf)} for lo, hi, wurf in rows]
                       for name, rows in checked[tabellen].items()}}


@dataclass(frozen=True)
class Einstellungen:
    """What the GM may configure: surprise range, ties, the attack matrices, AC direction, saving throws."""

    ueberrascht_bis: int = 2                    # surprised on 1-2 (first-edition default)
    gleichstand: str = "gleichzeitig"           # or "neu": tied sides roll again
    rk_aufsteigend: bool = False                # ascending AC with an attack bonus (sheet "ab")
    matrix: dict[str, Any] = field(default_factory=matrix_laden)
    rettung: dict[str, Any] = field(default_factory=rettung_laden)


def _werte_pruefen(ueberrascht_bis: Any, gleichstand: Any, rk_aufsteigend: Any) -> None:
    if isinstance(ueberrascht_bis, bool) or not isinstance(ueberrascht_bis, int) or not 0 <= ueberrascht_bis <= 6:
        raise OsrError(t("osr.bad_surprise_range", value=repr(ueberrascht_bis)[:40]))
    if gleichstand not in ("gleichzeitig", "neu"):
        raise OsrError(t("osr.bad_tie_rule", value=repr(gleichstand)[:40]))
    if not isinstance(rk_aufsteigend, bool):
        raise OsrError(t("osr.bad_ascending", value=repr(rk_aufsteigend)[:40]))


def _bauen(kept: Any) -> Einstellungen:
    """The settings of the GM's kept data (``{}``: the defaults), checked."""
    if not isinstance(kept, dict) or set(kept) - set(TEILE):
        raise OsrError(t("osr.bad_kept_data", name=DATEN, known=", ".join(TEILE)))
    werte = {f.name: kept.get(f.name, f.default) for f in fields(Einstellungen)[:3]}
    _werte_pruefen(**werte)
    where = t("osr.kept_source", name=DATEN)
    matrix = matrix_pruefen(kept["matrix"], where) if "matrix" in kept else matrix_laden()
    rettung = rettung_pruefen(kept["rettungswuerfe"], where) if "rettungswuerfe" in kept else rettung_laden()
    return Einstellungen(**werte, matrix=matrix, rettung=rettung)


EINSTELLUNGEN = Settings(DATEN, _bauen)


def einrichten(*, ueberrascht_bis: int = 2, gleichstand: str = "gleichzeitig", rk_aufsteigend: bool = False,
               matrix: str | Path | None = None, rettungswuerfe: str | Path | None = None,
               kampagne: Any = None, begegnung: str | None = None) -> Einstellungen:
    """Check the settings (and the GM's files; None: the example) and keep them in ``kampagne`` as data
    ``osr`` (for ``begegnung`` only, if given), replacing what it kept before; values not named go back
    to the defaults.

    Everything is checked first: a bad value changes nothing. Without ``kampagne`` only checked and
    returned (for calling the procedures directly).
    """
    _werte_pruefen(ueberrascht_bis, gleichstand, rk_aufsteigend)
    kept: dict[str, Any] = {"ueberrascht_bis": ueberrascht_bis, "gleichstand": gleichstand,
                            "rk_aufsteigend": rk_aufsteigend}
    if matrix is not None:
        kept["matrix"] = _als_daten(matrix_laden(matrix), "rk", "matrizen")
    if rettungswuerfe is not None:
        kept["rettungswuerfe"] = _als_daten(rettung_laden(rettungswuerfe), "kategorien", "tabellen")
    return EINSTELLUNGEN.keep(kept, kampagne, begegnung)


# -- weapons -------------------------------------------------------------------

@dataclass(frozen=True)
class Waffe:
    """A weapon entry, e.g. 'Speer (W6, Länge 8, Sturm)', 'Langschwert (W8, Länge 3,5)' or
    'Kurzbogen (W6, Fernkampf)'.

    Qualities: ``Fernkampf`` (missile weapon), ``Sturm`` (can be set against a
    charge), ``Lanze``, ``Länge N`` (feet, for who strikes first in a charge).
    """

    name: str
    schaden: str
    fernkampf: bool = False
    sturm: bool = False
    lanze: bool = False
    laenge: float | None = None

    @property
    def nebenhand_tauglich(self) -> bool:
        """Zwei-Waffen-Kampf: the off-hand weapon must be a dagger or a hand axe."""
        low = self.name.lower()
        return "dolch" in low or "handax" in low


def waffe(entry: str) -> Waffe:
    m = _WAFFE.match(entry)
    if m is None:
        raise SheetError(t("osr.bad_weapon", entry=entry[:80]))
    teile = [p.strip() for p in _TRENNER.split(m.group("inhalt")) if p.strip()]
    if not teile:
        raise SheetError(t("osr.bad_weapon", entry=entry[:80]))
    try:
        dist(teile[0])
    except (DiceSyntaxError, RpgError):
        raise SheetError(t("osr.bad_weapon", entry=entry[:80])) from None
    kw: dict[str, Any] = {}
    for q in teile[1:]:
        low, laenge = q.lower(), _LAENGE.match(q)
        if laenge:
            kw["laenge"] = float(laenge.group(1).replace(",", "."))
        elif low.startswith("länge"):
            raise SheetError(t("osr.bad_length", entry=entry[:80], quality=q[:40]))
        elif low in ("fernkampf", "sturm", "lanze"):
            kw[low] = True
        else:
            raise SheetError(t("osr.bad_weapon_quality", entry=entry[:80], quality=q[:40]))
    return Waffe(m.group("name") or "Waffe", teile[0].upper().replace("D", "W"), **kw)


def waffen(figure: Figure) -> list[Waffe]:
    return [waffe(e) for e in figure.sheet.get("waffen") or ()]


def waffe_von(figure: Figure, wahl: str | None = None) -> Waffe:
    """The weapon named ``wahl`` (``waffenlos``: fist, foot, pommel, 1W2), else the first listed
    (the one in hand); unarmed 1W2 without one (Unbewaffneter Kampf)."""
    alle = waffen(figure)
    if wahl and wahl.lower() == t("osr.unarmed").lower():
        return Waffe(t("osr.unarmed"), WAFFENLOS)
    if wahl:
        for w in alle:
            if w.name.lower() == wahl.lower():
                return w
        raise OsrError(t("osr.unknown_weapon", figure=figure.name, weapon=wahl[:40],
                         known=", ".join([*(w.name for w in alle), t("osr.unarmed")])))
    return alle[0] if alle else Waffe(t("osr.unarmed"), WAFFENLOS)


def in_der_hand(figure: Figure) -> Waffe | None:
    """The weapon in hand: the first listed."""
    alle = waffen(figure)
    return alle[0] if alle else None


# -- hit dice and level (Angriffs- und Rettungswurfmatrizen für Monster) ----------

def _tw_schluessel(text: str) -> tuple[int, int]:
    m = _TW.match(str(text))
    if m is None:
        raise OsrError(t("osr.bad_hit_dice", value=str(text)[:40]))
    n, sign, k = int(m.group(1)), m.group(2), int(m.group(3) or 0)
    return n, (-k if sign == "-" else k)


def _tw_tabelle() -> list[tuple[tuple[int, int], int]]:
    data = read_yaml(DATA / "trefferwuerfel.yaml", OsrError)
    return [(_tw_schluessel(tw), int(stufe)) for tw, stufe in data["stufen"]]


TW_TABELLE = _tw_tabelle()


def stufe_aus_tw(tw: str) -> int:
    """The level equivalent of a monster's hit dice: the last row at or below them (20 = '20+')."""
    key = _tw_schluessel(tw)
    stufe = 0
    for start, lvl in TW_TABELLE:
        if key >= start:
            stufe = lvl
    return stufe


def angriffsstufe(figure: Figure) -> int:
    """The level for the attack matrix: a special attack level (blood midges attack as 5), else the
    level, else the hit dice's equivalent; plus the GM's adjustment (``stufe_mod``: position, …)."""
    s = figure.sheet
    base = s["angriffsstufe"] if s.get("angriffsstufe") is not None else grundstufe(figure)
    return max(0, base + int(s.get("stufe_mod") or 0))


def grundstufe(figure: Figure) -> int:
    """The level, else the level equivalent of the hit dice."""
    s = figure.sheet
    if s.get("stufe") is not None:
        return s["stufe"]
    if s.get("tw") is not None:
        return stufe_aus_tw(s["tw"])
    raise OsrError(t("osr.no_level", figure=figure.name))


def zauberstufe(figure: Figure) -> int:
    """The casting level of a monster: from its hit dice unless its entry says otherwise
    (an 11-HD dragon casts at level 12)."""
    stufe = figure.value("stufe", None)
    return stufe if stufe is not None else stufe_aus_tw(figure.value("tw", "0"))


# -- the roll needed -----------------------------------------------------------------

def tabellen(text: str | None) -> list[str]:
    """The table names of ``klasse``/``rettungsklasse``: one, or several separated by '/'
    (a monster with the abilities of several classes uses the most favourable)."""
    return [n.strip() for n in (text or "Kämpfer").split("/") if n.strip()] or ["Kämpfer"]


def mindestwurf(figure: Figure, rk: int, settings: Einstellungen) -> tuple[int, str]:
    """The W20 roll needed against armour class ``rk`` and how it was found.

    Ascending AC: ``rk - ab``. Descending: ``thac0 - rk`` when the sheet has a
    THAC0 (``etw0``), else the GM's attack matrix (``klasse``, default Kämpfer;
    several names: the most favourable) by the attack level; beyond its columns
    the roll moves by 1 per AC point.
    """
    s = figure.sheet
    if settings.rk_aufsteigend:
        ab = int(s.get("ab") or 0)
        return rk - ab, t("osr.need_ascending", ab=ab, rk=rk)
    if s.get("etw0") is not None:
        return s["etw0"] - rk, t("osr.need_thac0", thac0=s["etw0"], rk=rk)
    stufe = angriffsstufe(figure)
    return min((_aus_matrix(klasse, stufe, rk, settings) for klasse in tabellen(s.get("klasse"))),
               key=lambda found: found[0])


def zeile(tables: Mapping[str, Any], klasse: str, stufe: int, unbekannt: str, ohne_stufe: str) -> list[int]:
    """The row of ``klasse``'s table (rows ``[von, bis, werte]``) for ``stufe``; the catalogue keys
    ``unbekannt`` and ``ohne_stufe`` name a missing table or level."""
    rows = tables.get(klasse)
    if rows is None:
        raise OsrError(t(unbekannt, name=klasse[:40], known=", ".join(tables)))
    row = next((w for lo, hi, w in rows if lo <= stufe <= hi), None)
    if row is None:
        raise OsrError(t(ohne_stufe, level=stufe, name=klasse))
    return row


def _aus_matrix(klasse: str, stufe: int, rk: int, settings: Einstellungen) -> tuple[int, str]:
    row = zeile(settings.matrix["matrizen"], klasse, stufe, "osr.unknown_matrix", "osr.level_not_in_matrix")
    spalten = settings.matrix["rk"]
    if rk > spalten[0]:
        need, note = row[0] - (rk - spalten[0]), t("osr.beyond_matrix")
    elif rk < spalten[-1]:
        need, note = row[-1] + (spalten[-1] - rk), t("osr.beyond_matrix")
    else:
        need, note = row[spalten.index(rk)], ""
    return need, t("osr.need_matrix", name=klasse, level=stufe, rk=rk) + note


def p_treffer(need: int, mod: int) -> float:
    """P(W20 + mod >= need): exact."""
    return min(20, max(0, 21 - (need - mod))) / 20


def schaden_dist(expr: str, faktor: int = 1, bonus: int = 0) -> Dist:
    """The damage of a hit: the weapon's dice times ``faktor`` (charge with a lance, set weapon),
    plus bonuses that are not multiplied; never below 0."""
    return (dist(expr).scale(faktor) + bonus).clip(lower=0)
