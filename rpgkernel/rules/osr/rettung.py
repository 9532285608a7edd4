"""Saving throws by the GM's tables (seed 001, "Angriffs- und Rettungswurfmatrizen für Monster").

The tables are GM data (``settings.rettung_laden``); a monster saves at the level
equivalent of its hit dice, by the fighter's table unless the GM names another
(``rettungsklasse``, else ``klasse``; several separated by '/': the most
favourable for each category), with the GM's level adjustment
(``rettungsstufe_mod``, e.g. lower for huge unintelligent creatures). A save
succeeds when W20 + modifiers >= the number in the table.
"""

from __future__ import annotations

from typing import Any

from ...dice import Roller
from ...messages import t
from rpgkernel.rules.kit import Figure, Resolution
from .core import grundstufe, p_treffer, tabellen, zeile
from .settings import Einstellungen, OsrError


def rettungsstufe(figure: Figure) -> int:
    """The level for the saving-throw table: level or hit-dice equivalent plus the GM's adjustment."""
    return max(0, grundstufe(figure) + figure.value("rettungsstufe_mod"))


def rettungsziel(figure: Figure, kategorie: str | None, settings: Einstellungen) -> tuple[int, str, str]:
    """The W20 roll needed, the category as the table spells it, and how it was found."""
    kategorien = settings.rettung["kategorien"]
    spalte = next((i for i, k in enumerate(kategorien) if kategorie and k.lower() == kategorie.lower()), None)
    if spalte is None:
        raise OsrError(t("osr.unknown_save_category", value=str(kategorie or "")[:40], known=", ".join(kategorien)))
    stufe, klassen = rettungsstufe(figure), figure.value("rettungsklasse", None) or figure.value("klasse", None)
    return min(((_aus_tabelle(klasse, stufe, settings, spalte), kategorien[spalte],
                 t("osr.need_save", name=klasse, level=stufe))
                for klasse in tabellen(klassen)), key=lambda x: x[0])


def _aus_tabelle(klasse: str, stufe: int, settings: Einstellungen, spalte: int) -> int:
    return zeile(settings.rettung["tabellen"], klasse, stufe, "osr.unknown_save_table",
                 "osr.level_not_in_saves")[spalte]


def rettung_vorschau(figure: Figure, kategorie: str | None, settings: Einstellungen,
                     bonus: int = 0) -> dict[str, Any]:
    """P(the saving throw succeeds), exact before the roll."""
    need, kat, how = rettungsziel(figure, kategorie, settings)
    return {t("osr.p_save", figure=figure.name, category=kat, mod=bonus, need=need, how=how): p_treffer(need, bonus)}


def rettungswurf(figure: Figure, kategorie: str | None, roller: Roller | None, settings: Einstellungen,
                 bonus: int = 0) -> Resolution:
    """A saving throw: P(success) exact before the roll (``rettung_vorschau``; without ``roller`` only
    that); the GM applies what it saves against."""
    need, kat, how = rettungsziel(figure, kategorie, settings)
    f = figure.name
    res = Resolution("osr", "rettungswurf", (f,))
    res.preview = rettung_vorschau(figure, kategorie, settings, bonus)
    if roller is None:
        return res
    roll = roller.roll("W20")
    total = roll.total + bonus
    ok = total >= need
    res.step(t("osr.save_roll", figure=f, category=kat, roll=roll.total,
               bonus=f" {bonus:+d}" if bonus else "", total=total, need=need, how=how,
               result=t("osr.save_ok" if ok else "osr.save_fail")),
             "Angriffs- und Rettungswurfmatrizen für Monster", roll, value=total)
    res.outcome = {"gelungen": ok, "wurf": total, "nötig": need}
    res.summary = t("osr.satz.rettung_gelungen" if ok else "osr.satz.rettung_misslungen", wer=f, kategorie=kat)
    return res
