"""Innate abilities (seed 000, "Besondere angeborene Fähigkeiten"; "Die Sinne").

W% on the GM's table ``angeboren``; an ability may set a sense's Erfolgswert; a 100 gives a free
choice and another roll. The free choices are taken after the roll (choice ``wahl``).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...dice import Roller
from ...messages import t
from rpgkernel.rules.kit import (DECLINE, Advice, Choice, Effect, Figure, Option, Resolution, Take, clauses, counted,
                                 sentence)
from .core import MidgardError
from .settings import EINSTELLUNGEN, Einstellungen
from .sheet import eintraege
from .tabellen import zeile

RULE = "Besondere angeborene Fähigkeiten"
CHOICE = "wahl"
FREI = 100


def sinn_eintrag(sense: str, value: int) -> str:
    """A sense's entry in the sheet's skills: 'Sehen +4'."""
    return f"{sense} {value:+d}"


def sinnes_eintraege(figure: Figure, sinne: Mapping[str, int]) -> list[str]:
    """The sheet's skills with the senses set to new values ('Sehen +4')."""
    skills = {k: f"{e.name} {e.wert:+d}" for k, e in eintraege(figure, "fertigkeiten").items()}
    for sense, value in sinne.items():
        skills[sense.lower()] = sinn_eintrag(sense, value)
    return list(skills.values())


def _rat(who: str, rows: Sequence[Mapping[str, Any]]) -> Advice:
    """The free choice: each ability of the GM's table with what it writes into the sheet (the senses it
    sets), or none (the choice stays open on the sheet)."""
    options = [Option(t("midgard.advice.keine_wahl"), (Take(DECLINE, who),),
                      notes=(t("midgard.advice.wahl_offen", figure=who),))]
    for r in rows:
        options.append(Option(r["faehigkeit"], (Take(CHOICE, who, {"fähigkeit": r["faehigkeit"]}),),
                              notes=(t("midgard.advice.eintrag", figure=who, faehigkeit=r["faehigkeit"]),
                                     *(t("midgard.advice.sinn", figure=who, sinn=sinn_eintrag(s, v))
                                       for s, v in r["sinne"].items()))))
    return Advice(CHOICE, who, t("midgard.advice.ziel_wahl"), tuple(options), (who,))


def angeboren_vorschau(cfg: Einstellungen | None = None) -> dict[str, float]:
    """The preview of ``angeboren`` (the GM's table must be there): P(a free choice) on the W%."""
    (cfg or EINSTELLUNGEN.defaults()).tabellen.teil("angeboren")
    return {t("midgard.p_free_choice"): 1 / 100}


def angeboren(figure: Figure, roller: Roller | None, *,
              decisions: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
              cfg: Einstellungen | None = None) -> Resolution:
    """Roll W% for innate abilities; each 100: a free choice (``wahl FIGUR fähigkeit=…``) and roll again.
    Without a roller only the preview (``angeboren_vorschau``)."""
    cfg = cfg or EINSTELLUNGEN.defaults()
    rows = cfg.tabellen.teil("angeboren")
    who = figure.name
    res = Resolution("midgard", "angeboren", (who,), preview=angeboren_vorschau(cfg))
    if roller is None:
        return res
    found, free = wuerfeln(res, figure, roller, rows)
    names = [r["faehigkeit"] for r in rows]
    taken = list((decisions or {}).get(CHOICE, ()))
    if free and CHOICE not in (decisions or {}):
        res.choices.append(Choice(CHOICE, t("midgard.choice_innate", n=free), (who,), tuple(names)))
        res.advice.append(_rat(who, rows))
        res.summary = clauses([counted("midgard.satz.angeboren_wahl", free, figure=who,
                                       ability=found[0]["faehigkeit"])])
        return res
    found += gewaehlt(res, figure, rows, free, taken)
    abilities = [r["faehigkeit"] for r in found] + [t("midgard.free_choice")] * max(0, free - len(taken))
    senses = {s: v for r in found for s, v in r["sinne"].items()}
    sheet = {"angeboren": [*figure.value("angeboren", ()), *abilities]}
    if senses:
        sheet["fertigkeiten"] = sinnes_eintraege(figure, senses)
    res.outcome = {"fähigkeiten": abilities, "sinne": senses}
    res.effects.append(Effect(who, sheet=sheet))
    left = free - len(taken)
    res.summary = clauses([sentence("midgard.satz.angeboren", [r["faehigkeit"] for r in found], figure=who),
                           counted("midgard.satz.wahl_offen", left, figure=who) if left > 0 else ""])
    return res


def wuerfeln(res: Resolution, figure: Figure, roller: Roller, rows: Any) -> tuple[list[dict[str, Any]], int]:
    """W% on the GM's table until a face other than 100; each 100 is a free choice."""
    free = 0
    while True:
        roll = roller.roll("W%")
        if roll.total != FREI:
            break
        free += 1
        res.step(t("midgard.innate_free", figure=figure.name), RULE, roll, value=FREI)
    row = zeile(rows, roll.total)
    res.step(t("midgard.innate_rolled", figure=figure.name, face=roll.total, ability=row["faehigkeit"]), RULE, roll,
             value=roll.total)
    return [row], free


def gewaehlt(res: Resolution, figure: Figure, rows: Any, free: int,
             taken: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The rows of the free choices taken (``wahl FIGUR fähigkeit=…``); a choice not taken stays open."""
    names = [r["faehigkeit"] for r in rows]
    chosen = []
    for k in range(free):
        if k < len(taken):
            wanted = str(taken[k].get("fähigkeit", ""))
            row = next((r for r in rows if r["faehigkeit"].lower() == wanted.lower()), None)
            if row is None:
                raise MidgardError(t("midgard.unknown_ability", ability=wanted, known=", ".join(names)))
            chosen.append(row)
            res.step(t("midgard.innate_chosen", figure=figure.name, ability=row["faehigkeit"]), RULE)
        else:
            res.step(t("midgard.innate_not_chosen", figure=figure.name), RULE)
    return chosen
