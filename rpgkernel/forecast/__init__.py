"""Forecasts of a fight: who wins, in how many rounds, who falls, what is left; never written anywhere.

``forecast(campaign, encounter)`` plays the encounter from where it stands to its end, many times,
through the ruleset's own procedures under its stated tactics (``rules.tactics``, the GM's target
picking ``zielwahl``), and counts: a sampled forecast with a 95 % interval on every number,
reproducible with ``seed``. ``Encounter.forecast`` is the same call.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Callable

import numpy as np

from .. import rules
from ..messages import t
from ..rules.tactics import zielwahl as checked_zielwahl
from .fight import MAX_ROUNDS, ForecastError, Outcome, Table
from .value import Chance, FigureForecast, Forecast, Mean, Tally

if TYPE_CHECKING:
    from ..state import Campaign

__all__ = ["MAX_FIGHTS", "MAX_ROUNDS", "PRECISION", "Chance", "FigureForecast", "Forecast", "ForecastError", "Mean",
           "Outcome", "forecast"]

#: the half-width of the 95 % interval of every side's chance that a forecast without ``n`` plays to
PRECISION = 0.01
#: the most fights one forecast plays
MAX_FIGHTS = 20_000
#: fights played between two looks at the precision (and two calls of ``progress``)
BATCH = 50


def forecast(campaign: Campaign, encounter: str | None = None, *, n: int | None = None, seed: int | None = None,
             zielwahl: str = "schwächste", precision: float = PRECISION,
             progress: Callable[[int, int], None] | None = None) -> Forecast:
    """The forecast of ``encounter`` (default: the active one) from where it stands.

    ``n`` fights are played; without it, fights are played until every side's chance of winning is
    known to ``precision`` (95 % interval), at most ``MAX_FIGHTS``. ``seed`` makes it reproducible.
    ``progress(done, planned)`` is called between batches of fights (``planned``: the fights the
    precision asks for as far as it can be told yet).
    """
    state = campaign.state
    name = encounter or state["active_encounter"]
    if name is None or name not in state["encounters"]:
        raise ForecastError(t("forecast.no_encounter", name=name or "–"))
    if n is not None and (isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_FIGHTS):
        raise ForecastError(t("forecast.bad_n", value=repr(n)[:40], max=MAX_FIGHTS))
    if isinstance(precision, bool) or not isinstance(precision, (int, float)) or not 0.001 <= precision <= 0.5:
        raise ForecastError(t("forecast.bad_precision", value=repr(precision)[:40]))
    try:
        picking = checked_zielwahl(zielwahl)
    except ValueError as err:
        raise ForecastError(str(err)) from None
    state["active_encounter"] = name
    record = state["encounters"][name]
    table = Table(state, name, rules.get(record["ruleset"] or None), picking)
    rng = np.random.default_rng(seed)
    tally = Tally(table.sides)
    limit = n if n is not None else MAX_FIGHTS
    while tally.n < limit and (n is not None or tally.n < BATCH or tally.precision() > precision):
        for _ in range(min(BATCH, limit - tally.n)):
            tally.add(table.play(rng))
        if progress is not None:
            progress(tally.n, limit if n is not None else _planned(tally, precision))
    rule = table.tactics.target_rule
    return tally.forecast(name, record["round"], zielwahl=picking, seed=seed, notes=[rule] if rule else [])



def _planned(tally: Tally, precision: float) -> int:
    """The fights the precision asks for, told from the margin so far (it shrinks with the root of n)."""
    margin = tally.precision()
    if margin <= precision:
        return tally.n
    return min(MAX_FIGHTS, max(tally.n + 1, math.ceil(tally.n * (margin / precision) ** 2)))
