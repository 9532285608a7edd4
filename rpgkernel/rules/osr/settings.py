"""What the GM sets for OSR combat: surprise range, ties, AC direction, the hit points at which a
figure is dead or unconscious, the attack matrices and the saving-throw tables.

``einrichten`` checks them and keeps them in the campaign (data ``osr``); the verbs read them as
``Request.settings``; without any, ``EINSTELLUNGEN.defaults()`` holds. The data and the files take
English keys too (``ENGLISH``, ``rules.aliases``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from ...messages import t
from rpgkernel.rules.kit import RulesError, Settings, read_yaml, renamed_in

DATA = Path(__file__).with_name("data")


class OsrError(RulesError):
    """An action or value the seed does not allow, or GM data that does not fit."""


DATEN = "osr"        # the name of the GM's settings among the campaign's data
SCHWELLE_MAX = 1000  # TP a threshold may lie above or below 0
WERTE = ("ueberrascht_bis", "gleichstand", "rk_aufsteigend", "todesschwelle", "bewusstlos_schwelle")
TEILE = (*WERTE, "matrix", "rettungswuerfe")
#: the English keys of the settings, the attack matrices and the saving-throw tables, read as aliases
ENGLISH = {"surprised_up_to": "ueberrascht_bis", "tie": "gleichstand", "ascending_ac": "rk_aufsteigend",
           "death_threshold": "todesschwelle", "unconscious_threshold": "bewusstlos_schwelle",
           "attack_matrix": "matrix", "saving_throws": "rettungswuerfe"}
ENGLISH_TABLES = {"ac": "rk", "matrices": "matrizen", "categories": "kategorien", "tables": "tabellen",
                  "levels": "stufen", "roll": "wurf"}


def _zeilen(zeilen: Any, breite: int) -> list[tuple[int, int, list[int]]]:
    rows = []
    for z in zeilen:
        z = renamed_in(z, ENGLISH_TABLES)
        lo, hi = (int(x) for x in z["stufen"])
        wurf = [int(x) for x in z["wurf"]]
        if len(wurf) != breite or lo > hi:
            raise ValueError
        rows.append((lo, hi, wurf))
    return rows


def matrix_pruefen(data: Any, where: str) -> dict[str, Any]:
    """The attack matrices of a file's (or the campaign's) data, checked (``where`` names it in errors)."""
    try:
        data = renamed_in(data, ENGLISH_TABLES)
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
        data = renamed_in(data, ENGLISH_TABLES)
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
    todesschwelle: int = 0                      # dead at this many TP or fewer
    bewusstlos_schwelle: int | None = None      # unconscious at this many TP or fewer (above the death threshold)
    matrix: dict[str, Any] = field(default_factory=matrix_laden)
    rettung: dict[str, Any] = field(default_factory=rettung_laden)


def _ganz(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _werte_pruefen(ueberrascht_bis: Any, gleichstand: Any, rk_aufsteigend: Any, todesschwelle: Any,
                   bewusstlos_schwelle: Any) -> None:
    if not _ganz(ueberrascht_bis) or not 0 <= ueberrascht_bis <= 6:
        raise OsrError(t("osr.bad_surprise_range", value=repr(ueberrascht_bis)[:40]))
    if gleichstand not in ("gleichzeitig", "neu"):
        raise OsrError(t("osr.bad_tie_rule", value=repr(gleichstand)[:40]))
    if not isinstance(rk_aufsteigend, bool):
        raise OsrError(t("osr.bad_ascending", value=repr(rk_aufsteigend)[:40]))
    if not _ganz(todesschwelle) or abs(todesschwelle) > SCHWELLE_MAX:
        raise OsrError(t("osr.bad_death_threshold", value=repr(todesschwelle)[:40], max=SCHWELLE_MAX))
    if bewusstlos_schwelle is not None and not (_ganz(bewusstlos_schwelle)
                                                and todesschwelle < bewusstlos_schwelle <= SCHWELLE_MAX):
        raise OsrError(t("osr.bad_unconscious_threshold", value=repr(bewusstlos_schwelle)[:40],
                         death=todesschwelle, max=SCHWELLE_MAX))


def _bauen(kept: Any) -> Einstellungen:
    """The settings of the GM's kept data (``{}``: the defaults), checked."""
    if not isinstance(kept, dict) or set(kept) - set(TEILE):
        raise OsrError(t("osr.bad_kept_data", name=DATEN, known=", ".join(TEILE)))
    werte = {f.name: kept.get(f.name, f.default) for f in fields(Einstellungen) if f.name in WERTE}
    _werte_pruefen(**werte)
    where = t("osr.kept_source", name=DATEN)
    matrix = matrix_pruefen(kept["matrix"], where) if "matrix" in kept else matrix_laden()
    rettung = rettung_pruefen(kept["rettungswuerfe"], where) if "rettungswuerfe" in kept else rettung_laden()
    return Einstellungen(**werte, matrix=matrix, rettung=rettung)


EINSTELLUNGEN = Settings(DATEN, _bauen, aliases=ENGLISH)


def einrichten(*, ueberrascht_bis: int = 2, gleichstand: str = "gleichzeitig", rk_aufsteigend: bool = False,
               todesschwelle: int = 0, bewusstlos_schwelle: int | None = None,
               matrix: str | Path | None = None, rettungswuerfe: str | Path | None = None,
               kampagne: Any = None, begegnung: str | None = None) -> Einstellungen:
    """Check the settings (and the GM's files; None: the example) and keep them in ``kampagne`` as data
    ``osr`` (for ``begegnung`` only, if given), replacing what it kept before; values not named go back
    to the defaults.

    Everything is checked first: a bad value changes nothing. Without ``kampagne`` only checked and
    returned (for calling the procedures directly).
    """
    _werte_pruefen(ueberrascht_bis, gleichstand, rk_aufsteigend, todesschwelle, bewusstlos_schwelle)
    kept: dict[str, Any] = {"ueberrascht_bis": ueberrascht_bis, "gleichstand": gleichstand,
                            "rk_aufsteigend": rk_aufsteigend, "todesschwelle": todesschwelle,
                            "bewusstlos_schwelle": bewusstlos_schwelle}
    if matrix is not None:
        kept["matrix"] = _als_daten(matrix_laden(matrix), "rk", "matrizen")
    if rettungswuerfe is not None:
        kept["rettungswuerfe"] = _als_daten(rettung_laden(rettungswuerfe), "kategorien", "tabellen")
    return EINSTELLUNGEN.keep(kept, kampagne, begegnung)
