"""OSR basics (seed 001): hit dice, level and the roll needed.

Seed sections: "Kampf", "Nahkampf-Angriff", "Fernkampf-Angriffe",
"Angriffs- und Rettungswurfmatrizen für Monster". The hit-dice table is the
seed's (``data/trefferwuerfel.yaml``); the attack matrix is the GM's
(``settings``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ...dice import Dist, dist
from ...messages import t
from rpgkernel.rules.kit import Figure, read_yaml
from .settings import DATA, Einstellungen, OsrError

NAHKAMPF_REICHWEITE = 10      # feet (Nahkampf-Angriff)
SEGMENTE = 10                 # six-second segments of a one-minute round (Kampf)
RINGEN = "W2-1"               # Ringen und Überwältigen
_TW = re.compile(r"^\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$")


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
    stufe = figure.value("angriffsstufe", None)
    return max(0, (grundstufe(figure) if stufe is None else stufe) + figure.value("stufe_mod"))


def grundstufe(figure: Figure) -> int:
    """The level, else the level equivalent of the hit dice."""
    stufe, tw = figure.value("stufe", None), figure.value("tw", None)
    if stufe is not None:
        return stufe
    if tw is not None:
        return stufe_aus_tw(tw)
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
    if settings.rk_aufsteigend:
        ab = figure.value("ab")
        return rk - ab, t("osr.need_ascending", ab=ab, rk=rk)
    etw0 = figure.value("etw0", None)
    if etw0 is not None:
        return etw0 - rk, t("osr.need_thac0", thac0=etw0, rk=rk)
    stufe = angriffsstufe(figure)
    return min((_aus_matrix(klasse, stufe, rk, settings) for klasse in tabellen(figure.value("klasse", None))),
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
