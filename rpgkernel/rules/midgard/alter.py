"""Aging adventurers (seed 000, "Alternde Abenteurer").

The effects of age are rolled on the GM's table ``altern``; the new values go onto the sheet, a
Konstitution at 0 or below as the false value the player is told. Given dice: per check in time
order, the row's changes in the table's order; then the secret W6 if Ko fell to 0 or below.
"""

from __future__ import annotations

from typing import Any

from ...dice import Roller
from ...messages import t
from rpgkernel.rules.kit import Effect, Figure, Resolution, clauses, counted
from .angeboren import sinnes_eintraege
from .core import MidgardError
from .settings import EINSTELLUNGEN, Einstellungen
from .lernen import mindest_wm
from .proben import SINNE, erfolgswert
from .sheet import ATTRIBUTE, attribut, eintraege, feld

RULE = "Alternde Abenteurer"
ALLE = 5        # alle fünf Jahre
JAEHRLICH = 80  # ab 80 Jahren jedes Jahr
MAX_CHECKS = 200  # age checks one line may roll (a human from 40 to 2000 would take 1920)


def pruefungen(von: int, bis: int, multiplikator: int = 1) -> list[int]:
    """The ages in (von, bis] at which age is rolled (scaled by the race's multiplier)."""
    out = []
    for age in range(von + 1, bis + 1):
        if age % multiplikator:
            continue
        human = age // multiplikator
        if human >= JAEHRLICH or human % ALLE == 0:
            out.append(age)
    return out


def multiplikator(race: str, cfg: Einstellungen) -> int:
    if race == "Mensch":
        return 1
    table = cfg.tabellen.teil("altern")["multiplikator"]
    if race not in table:
        raise MidgardError(t("midgard.no_age_factor", race=race))
    return table[race]


def altern(figure: Figure, roller: Roller | None, *, bis: int, von: int | None = None,
           angezeigt: int = 1, cfg: Einstellungen | None = None) -> Resolution:
    """Age the figure from ``von`` (the sheet's ``alter``) to ``bis`` years (see the module docstring).

    ``angezeigt``: the false Ko the player is told if it fell to 0 or below.
    """
    cfg = cfg or EINSTELLUNGEN.defaults()
    who = figure.name
    von = feld(figure, "alter") if von is None else von
    if bis < von:
        raise MidgardError(t("midgard.bad_ages", von=von, bis=bis))
    if angezeigt < 1:
        raise MidgardError(t("midgard.bad_shown", value=angezeigt))
    factor = multiplikator(feld(figure, "rasse", "Mensch"), cfg)
    rows = cfg.tabellen.teil("altern")["zeilen"]
    checks = pruefungen(von, bis, factor)
    if len(checks) > MAX_CHECKS:
        raise MidgardError(t("midgard.too_many_age_checks", figure=who, von=von, bis=bis, n=len(checks),
                             max=MAX_CHECKS, step=checks[MAX_CHECKS - 1]))
    res = Resolution("midgard", "altern", (who,))
    res.step(t("midgard.age_checks", figure=who, von=von, bis=bis, factor=factor,
               ages=", ".join(map(str, checks)) or "–"), RULE)
    if roller is None:
        return res
    values, senses = alterswuerfe(res, figure, roller, checks, factor, rows, cfg)
    res.outcome = {"alter": bis, "werte": dict(values), "sinne": senses}
    sheet_values: dict[str, Any] = {"alter": bis, **values}
    if values.get("ko", 1) <= 0:
        sheet_values["ko"] = ko_tod(res, figure, roller, values["ko"], angezeigt)
    if senses:
        sheet_values["fertigkeiten"] = sinnes_eintraege(figure, senses)
    res.effects.append(Effect(who, sheet=sheet_values))
    below = unter_mindestwert(res, figure, values, cfg)
    res.summary = _satz(res, figure, bis, angezeigt, below)
    return res


def alterswuerfe(res: Resolution, figure: Figure, roller: Roller, checks: list[int], factor: int,
                 rows: list[dict[str, Any]], cfg: Einstellungen) -> tuple[dict[str, int], dict[str, int]]:
    """Every check's row of the table ``altern``, each change rolled: the new attributes (1 to 100, Ko
    unbounded) and senses."""
    values: dict[str, int] = {}
    senses: dict[str, int] = {}
    for age in checks:
        human = age // factor
        row = rows[-1] if human >= JAEHRLICH else next((r for r in rows if human <= r["bis"]), rows[-1])
        for key, expr in row["aenderungen"].items():
            roll = roller.roll(expr)
            if key in ATTRIBUTE:
                old = values.get(key, attribut(figure, key))
                new = old + roll.total
                values[key] = new if key == "ko" else max(1, min(100, new))
                shown = values[key]
            else:
                sense = next((s for s in SINNE if s.lower() == key), None)
                if sense is None:
                    raise MidgardError(t("midgard.bad_age_key", key=key))
                old = senses.get(sense, erfolgswert(figure, sense, cfg)[0])
                senses[sense] = shown = old + roll.total
            res.step(t("midgard.age_change", age=age, what=key.capitalize(), expr=expr, change=roll.total, old=old,
                       new=shown), RULE, roll, value=shown)
    return values, senses


def ko_tod(res: Resolution, figure: Figure, roller: Roller, ko: int, angezeigt: int) -> int:
    """Ko at 0 or below: death within 1W6-1 years (the GM's secret roll); the false Ko the player is told."""
    roll = roller.roll("W6")
    years = roll.total - 1
    res.step(t("midgard.age_death", figure=figure.name, ko=ko, years=years, shown=angezeigt), RULE, roll,
             value=years)
    res.outcome.update({"tod_in_jahren": years, "dem_spieler_genannt": {"ko": angezeigt}})
    return angezeigt


def unter_mindestwert(res: Resolution, figure: Figure, values: dict[str, int], cfg: Einstellungen) -> dict[str, int]:
    """The skills whose minimum the new values no longer meet, with their WM (Lernen von Fertigkeiten)."""
    below = {}
    for skill in [e.name for e in eintraege(figure, "fertigkeiten").values()]:
        wm, why = mindest_wm(figure, skill, cfg, werte=values)
        if wm and mindest_wm(figure, skill, cfg)[0] != wm:
            below[skill] = wm
            res.step(t("midgard.age_skill", skill=skill, why=why), "Lernen von Fertigkeiten")
    res.outcome["unter_mindestwert"] = below
    return below


def _satz(res: Resolution, figure: Figure, bis: int, angezeigt: int, below: dict[str, int]) -> str:
    who, values, senses = figure.name, res.outcome["werte"], res.outcome["sinne"]
    changed = [t("midgard.satz.eintrag", was=k.capitalize(), wert=v) for k, v in values.items()] + [
        t("midgard.satz.sinn", was=s, wert=v) for s, v in senses.items()]
    aged = (t("midgard.satz.altern", figure=who, bis=bis, werte=", ".join(changed)) if changed else
            t("midgard.satz.altern_gleich", figure=who, bis=bis))
    death = ""
    if "tod_in_jahren" in res.outcome:
        years = res.outcome["tod_in_jahren"]
        death = (t("midgard.satz.tod_0", figure=who, shown=angezeigt) if years == 0 else
                 counted("midgard.satz.tod", years, figure=who, shown=angezeigt))
    return clauses([aged, death, t("midgard.satz.unter_mindestwert", skills=", ".join(below)) if below else ""])
