"""Learning skills (seed 000, "Lernen von Fertigkeiten", "Lernen von Spielercharakteren").

Below the attribute minimum a skill can still be learnt or raised: Grund
becomes Standard, Standard becomes Ausnahme, an Ausnahme skill cannot be
learnt; every roll with it gets WM -(minimum - value) / 10, rounded up.
The costs by category and the minima are GM data (``fertigkeiten``).
"""

from __future__ import annotations

import math
from typing import Mapping

from ...messages import t
from rpgkernel.rules.kit import Figure, Resolution, clauses
from .core import MidgardError
from .settings import EINSTELLUNGEN, Einstellungen
from .sheet import attribut
from .tabellen import KATEGORIEN

SCHWERER = {"Grund": "Standard", "Standard": "Ausnahme", "Ausnahme": None}
RULE = "Lernen von Fertigkeiten"


def wm_unter_mindestwert(wert: int, minimum: int) -> int:
    """-(minimum - wert) / 10 rounded up ("Im Zweifelsfall wird aufgerundet"); 0 at or above the minimum."""
    return -math.ceil((minimum - wert) / 10) if wert < minimum else 0


def mindestwerte(fertigkeit: str, cfg: Einstellungen) -> dict[str, int]:
    """The skill's minimum attributes from the GM's table; {} when the table or the skill is not there."""
    table = cfg.tabellen.daten.get("fertigkeiten", {})
    row = next((r for k, r in table.items() if k.lower() == fertigkeit.lower()), None)
    return dict(row["mindestwert"]) if row else {}


def mindest_wm(figure: Figure, fertigkeit: str, cfg: Einstellungen, *,
               werte: Mapping[str, int] | None = None) -> tuple[int, str]:
    """The WM on every roll with ``fertigkeit`` from attributes below its minimum, and why;
    ``werte``: attributes that have changed since the sheet (aging).

    With several minimum attributes the worst one counts.
    """
    worst, why, werte = 0, "", werte or {}
    for key, minimum in mindestwerte(fertigkeit, cfg).items():
        have = werte[key] if key in werte else attribut(figure, key)
        wm = wm_unter_mindestwert(have, minimum)
        if wm < worst:
            worst, why = wm, t("midgard.below_minimum", attribute=key.capitalize(), value=have, minimum=minimum,
                                wm=wm)
    return worst, why


def fertigkeit_lernen(figure: Figure, fertigkeit: str, kategorie: str, *,
                      von_spielerfigur: bool = False, cfg: Einstellungen | None = None) -> Resolution:
    """The learning cost of ``fertigkeit`` for ``figure``, whose class learns it as ``kategorie``.

    Below the minimum the category shifts (an Ausnahme skill becomes
    impossible) and the WM is named. From a player character: 2/3 of the FP
    in EP (rounded up), the full FP credited, usually no money
    (Lernen von Spielercharakteren).
    """
    cfg = cfg or EINSTELLUNGEN.defaults()
    if kategorie not in KATEGORIEN:
        raise MidgardError(t("midgard.bad_category", value=kategorie, known=", ".join(KATEGORIEN)))
    table = cfg.tabellen.teil("fertigkeiten")
    key = next((k for k in table if k.lower() == fertigkeit.lower()), None)
    if key is None:
        raise MidgardError(t("midgard.unknown_skill", skill=fertigkeit, known=", ".join(table) or "–"))
    res = Resolution("midgard", "lernen", (figure.name,))
    wm, why = mindest_wm(figure, key, cfg)
    cat = kategorie
    if wm:
        cat = SCHWERER[kategorie]
        res.step(why, RULE)
        if cat is None:
            res.step(t("midgard.learn_impossible", figure=figure.name, skill=key), RULE)
            res.outcome = {"fertigkeit": key, "kategorie": None, "möglich": False, "wm": wm}
            res.summary = clauses([t("midgard.satz.lernen_unmoeglich", figure=figure.name, skill=key)])
            return res
        res.step(t("midgard.learn_shift", skill=key, old=kategorie, new=cat, wm=wm), RULE)
    costs = table[key]["kosten"]
    if cat not in costs:
        raise MidgardError(t("midgard.no_cost", skill=key, category=cat))
    fp = costs[cat]
    res.step(t("midgard.learn_cost", figure=figure.name, skill=key, category=cat, fp=fp), RULE, value=fp)
    res.outcome = {"fertigkeit": key, "kategorie": cat, "möglich": True, "fp": fp, "wm": wm}
    learnt = t("midgard.satz.lernen", figure=figure.name, skill=key, category=cat, fp=fp)
    if von_spielerfigur:
        ep = math.ceil(fp * 2 / 3)
        res.step(t("midgard.learn_from_pc", fp=fp, ep=ep), "Lernen von Spielercharakteren", value=ep)
        res.outcome.update({"ep": ep, "gold": 0})
        learnt = t("midgard.satz.lernen_spielerfigur", figure=figure.name, skill=key, category=cat, fp=fp, ep=ep)
    res.summary = clauses([learnt, t("midgard.satz.lernen_wm", wm=wm) if wm else ""])
    return res
