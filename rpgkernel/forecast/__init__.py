"""Forecasts of a fight: who wins, in how many rounds, who falls, what is left; never written anywhere.

``forecast(campaign, encounter)`` plays the encounter from where it stands to its end under the
ruleset's stated tactics (``rules.tactics``, the GM's target picking ``zielwahl``). Three paths
(``weg``), the same rules on each:

- "exakt": where the ruleset has a compact model of the fight (``rules.compact``) and its chain is
  small (``chain.MAX_STATES``), the exact chances of an absorbing Markov chain (``chain``);
- "kompakt": fights sampled many at once on the compact model (``sample``), with a 95 % interval on
  every number;
- "prozeduren": fights played one by one through the ruleset's own procedures, as ``%%resolve``
  lines (``fight``), with a 95 % interval on every number.

Without ``weg`` ("auto") a forecast is exact where it can be and ``n`` is not given, else sampled on
the compact model where the ruleset covers the fight, else through the procedures. A sampled forecast
plays ``n`` fights, or until every side's chance is known to ``precision``; it is reproducible with
``seed``. The rules' morale is played as the tactics state it (``Tactics.morale``) unless ``moral``
is False. A ``stop`` hook ends it between two batches of fights: the result counts the fights played,
with their intervals, and says that it was stopped. ``Encounter.forecast`` is the same call.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Callable

import numpy as np

from .. import rules
from ..messages import t
from ..rules.tactics import zielwahl as checked_zielwahl
from . import duel
from .board import Board
from .chain import MAX_STATES, exact_forecast, solve
from .fight import MAX_ROUNDS, ForecastError, Outcome, Table
from .sample import Sampler
from .value import WEGE, Chance, FigureForecast, Forecast, Mean, Tally

if TYPE_CHECKING:
    from ..state import Campaign

__all__ = ["MAX_FIGHTS", "MAX_ROUNDS", "MAX_STATES", "PRECISION", "WEGE", "Chance", "FigureForecast", "Forecast",
           "ForecastError", "Mean", "Outcome", "forecast"]

#: the half-width of the 95 % interval of every side's chance that a forecast without ``n`` plays to
PRECISION = 0.01
#: the most fights one forecast plays
MAX_FIGHTS = 20_000
#: fights played between two looks at the precision (and two calls of ``progress``), per path
BATCH = {"prozeduren": 50, "kompakt": 1000}


def forecast(campaign: Campaign, encounter: str | None = None, *, n: int | None = None, seed: int | None = None,
             zielwahl: str = "schwächste", precision: float = PRECISION,
             progress: Callable[[int, int], None] | None = None, stop: Callable[[], bool] | None = None,
             weg: str = "auto", moral: bool = True) -> Forecast:
    """The forecast of ``encounter`` (default: the active one) from where it stands.

    ``weg``: "auto", or one of ``WEGE`` (an error where that path cannot take the fight). A sampled
    forecast plays ``n`` fights; without it, fights until every side's chance of winning is known to
    ``precision`` (95 % interval), at most ``MAX_FIGHTS``. ``seed`` makes it reproducible.
    ``progress(done, planned)`` is called between batches of sampled fights (``planned``: the fights
    the precision asks for as far as it can be told yet). ``stop()`` is asked before each batch but the
    first: where it says so, the forecast ends there (``Forecast.stopped``). An exact forecast has no
    batches. ``moral``: False plays no morale (nobody flees or surrenders by the rules' morale,
    ``Tactics.morale``).
    """
    return forecast_state(campaign.state, encounter, n=n, seed=seed, zielwahl=zielwahl, precision=precision,
                          progress=progress, stop=stop, weg=weg, moral=moral)


def forecast_state(state: dict, encounter: str | None = None, *, n: int | None = None, seed: int | None = None,
                   zielwahl: str = "schwächste", precision: float = PRECISION,
                   progress: Callable[[int, int], None] | None = None, stop: Callable[[], bool] | None = None,
                   weg: str = "auto", max_states: int = MAX_STATES, moral: bool = True) -> Forecast:
    """``forecast`` of a campaign's state document (a copy the forecast may change: its own); an exact
    forecast's chain may have at most ``max_states`` nodes."""
    name = encounter or state["active_encounter"]
    if name is None or name not in state["encounters"]:
        raise ForecastError(t("forecast.no_encounter", name=name or "–"))
    if n is not None and (isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_FIGHTS):
        raise ForecastError(t("forecast.bad_n", value=repr(n)[:40], max=MAX_FIGHTS))
    if isinstance(precision, bool) or not isinstance(precision, (int, float)) or not 0.001 <= precision <= 0.5:
        raise ForecastError(t("forecast.bad_precision", value=repr(precision)[:40]))
    if weg not in ("auto", *WEGE):
        raise ForecastError(t("forecast.bad_weg", value=repr(weg)[:40], known=", ".join(("auto", *WEGE))))
    if weg == "exakt" and n is not None:
        raise ForecastError(t("forecast.exact_no_n"))
    if not isinstance(moral, bool):
        raise ForecastError(t("forecast.bad_moral", value=repr(moral)[:40]))
    try:
        picking = checked_zielwahl(zielwahl)
    except ValueError as err:
        raise ForecastError(str(err)) from None
    state["active_encounter"] = name
    record = state["encounters"][name]
    table = Table(state, name, rules.get(record["ruleset"] or None), picking, moral)
    rng = np.random.default_rng(seed)
    shown = {"zielwahl": picking, "seed": seed, "target_rule": table.tactics.target_rule, "moral": moral}
    notes: list[str] = []
    left_out = [] if moral else [t("forecast.ohne_moral")]
    board = _board(table, rng) if weg != "prozeduren" else None
    if board is None and weg in ("exakt", "kompakt"):
        raise ForecastError(t("forecast.no_compact", ruleset=table.engine.title or table.engine.key))
    if board is not None and weg in ("auto", "exakt") and n is None:
        solution = duel.solve(board, max_states) if duel.fits(board) else solve(board, max_states)
        if solution is not None:
            exact = exact_forecast(board, solution, name, record["round"], **shown)
            exact.notes += left_out
            return exact
        if weg == "exakt":
            raise ForecastError(t("forecast.too_large", max=MAX_STATES))
        notes.append(t("forecast.not_exact", max=MAX_STATES))
    path = "kompakt" if board is not None else "prozeduren"
    tally = Tally(table.sides)
    if path == "kompakt":
        sampler = Sampler(board)
        def batch(k: int) -> None:
            tally.add_counts(**sampler.counts(sampler.play(k, rng)))
    else:
        def batch(k: int) -> None:
            for _ in range(k):
                tally.add(table.play(rng))
    limit = n if n is not None else MAX_FIGHTS
    stopped = False
    while tally.n < limit and (n is not None or tally.n < BATCH[path] or tally.precision() > precision):
        if tally.n and stop is not None and stop():
            stopped = True
            break
        batch(min(BATCH[path], limit - tally.n))
        if progress is not None:
            progress(tally.n, limit if n is not None else _planned(tally, precision))
    return tally.forecast(name, record["round"], weg=path, stopped=stopped,
                          notes=[t(f"forecast.weg_{path}", fights=tally.n), *notes, *left_out], **shown)


def _planned(tally: Tally, precision: float) -> int:
    """The fights the precision asks for, told from the margin so far (it shrinks with the root of n)."""
    margin = tally.precision()
    if margin <= precision:
        return tally.n
    return min(MAX_FIGHTS, max(tally.n + 1, math.ceil(tally.n * (margin / precision) ** 2)))


def _board(table: Table, rng: np.random.Generator) -> Board | None:
    """The fight on its ruleset's compact model, or None where there is none for it."""
    opening = table.opening(rng)
    model = table.tactics.compact(opening.figures, opening.fight.data) if opening is not None else None
    if model is None or not Board.plays(table.tactics, model):
        return None
    return Board(opening, model, table.tactics)
