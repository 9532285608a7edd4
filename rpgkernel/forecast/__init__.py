"""Forecasts of a fight from where it stands: who wins, in how many rounds, who falls, what is left;
never written anywhere.

Three paths (``weg``), the same rules on each: "exakt" (``chain``), "kompakt" (``sample``) and
"prozeduren" (``fight``). How "auto" picks one and when a sampled forecast stops: docs/mitwirken.md,
"Die drei Wege der Prognose"."""

from __future__ import annotations

import math
import time
from inspect import getattr_static
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from .. import rules
from ..messages import Text, t
from ..rules.tactics import Tactics
from .chain import MAX_STATES, exact_forecast
from .fight import MAX_ROUNDS, ForecastError, Outcome, Table
from .mixture import PER_CLOSING, Mixture, NoModel, board
from .request import MAX_FIGHTS, PRECISION, Request
from .value import WEGE, Z95, Chance, FigureForecast, Forecast, Mean, Tally

if TYPE_CHECKING:
    from ..state import Campaign

__all__ = ["MAX_FIGHTS", "MAX_ROUNDS", "MAX_STATES", "PRECISION", "WEGE", "Chance", "FigureForecast", "Forecast",
           "ForecastError", "Mean", "Outcome", "Request", "forecast"]

#: fights played between two looks at the precision (and two calls of ``progress``), per path
BATCH = {"prozeduren": 50, "kompakt": 1000}


def forecast(campaign: Campaign, encounter: str | None = None, request: Request | None = None,
             **options: Any) -> Forecast:
    """The forecast of ``encounter`` (default: the active one) from where it stands.

    The options, a ``Request`` or its fields as keywords: ``weg`` ("auto" or one of ``WEGE``), ``n``
    fights or until every side's chance is known to ``precision``, ``seed``, ``zielwahl``, ``moral``,
    and the hooks ``progress(done, planned)``, ``stop()`` and ``notice(text)``.
    """
    return forecast_state(campaign.state, encounter, request, **options)


def forecast_state(state: dict, encounter: str | None = None, request: Request | None = None,
                   **options: Any) -> Forecast:
    """``forecast`` of a campaign's state document (a copy the forecast may change: its own); an exact
    forecast's chain may have at most ``max_states`` nodes."""
    asked = Request.of(request, options)
    name = encounter or state["active_encounter"]
    if name is None or name not in state["encounters"]:
        raise ForecastError(t("forecast.no_encounter", name=name or "–"))
    picking = asked.checked()
    state["active_encounter"] = name
    record = state["encounters"][name]
    table = Table(state, name, rules.get(record["ruleset"] or None), picking, asked.moral)
    rng = np.random.default_rng(asked.seed)
    # the rule as declared (a ``Text``), so the card says it in the language it is shown in
    shown = {"zielwahl": picking, "seed": asked.seed, "target_rule": getattr_static(table.tactics, "target_rule"),
             "moral": asked.moral}
    left_out = [] if asked.moral else [t("forecast.ohne_moral")]
    mixture = Mixture.of(table, rng) if asked.weg != "prozeduren" else None
    if mixture is None and asked.weg in ("exakt", "kompakt"):
        raise ForecastError(t("forecast.no_compact", ruleset=table.engine.title or table.engine.key))
    notes = _closings(table, mixture)
    if mixture is not None and asked.weg in ("auto", "exakt") and asked.n is None:
        exact = _exact(mixture, asked, name, record["round"], notes, shown)
        if exact is not None:
            exact.noted += notes + left_out
            return exact
    run = {"name": name, "start_round": record["round"], "notes": notes + left_out, "shown": shown}
    if mixture is not None:
        try:
            return _sampled(mixture.tally(table.sides), lambda tally, k: mixture.play(tally, k, rng), "kompakt",
                            asked, **run)
        except NoModel:   # a closing drawn later leaves the model: the fight goes over the procedures
            run["notes"] = left_out
    return _sampled(Tally(table.sides), _played(table, rng, asked, run["notes"]), "prozeduren", asked, **run)


def _closings(table: Table, mixture: Mixture | None) -> list[str]:
    """The note on the open resolutions a compact forecast closes first, in every way or drawn."""
    if mixture is None or not table.pending():
        return []
    return [t("forecast.closings", ways=mixture.closings) if mixture.parts is not None
            else t("forecast.closings_drawn", fights=PER_CLOSING)]


def _exact(mixture: Mixture, asked: Request, name: str, start_round: int, notes: list[str],
           shown: dict) -> Forecast | None:
    """The exact forecast, or None where the chain is too large (a note says so unless asked for "exakt",
    which is refused then)."""
    solution = mixture.solve(asked.max_states)
    if solution is not None:
        return exact_forecast(mixture.first, solution, name, start_round, **shown)
    if asked.weg == "exakt":
        raise ForecastError(t("forecast.open_too_many") if mixture.drawn else t("forecast.too_large", max=MAX_STATES))
    if not mixture.drawn:
        notes.append(t("forecast.not_exact", max=MAX_STATES))
    return None


def _played(table: Table, rng: np.random.Generator, asked: Request, notes: list[str]) -> Callable[[Tally, int], None]:
    """A batch of fights played through the procedures; the first one timed for the notice of a slow
    forecast where no path was asked for."""
    slow = _Slow(table, rng, notes, asked.notice, asked.n or _fights_for(asked.precision)) \
        if asked.weg == "auto" else None

    def played(tally: Tally, k: int) -> None:
        for _ in range(k):
            started = time.perf_counter()
            tally.add(table.play(rng))
            if slow is not None and tally.n == 1:
                slow.say(time.perf_counter() - started)
    return played


class _Slow:
    """The notice of a forecast that goes over the procedures where the caller asked for none in
    particular: why (no compact model, or one that does not cover the fight; where the open decisions
    lead out of a model that covers the fight as it stands, that deciding first makes it fast) and
    about how long, from the first fight's time; said at once (``notice``) and on the card."""

    def __init__(self, table: Table, rng: np.random.Generator, notes: list[str],
                 notice: Callable[[str], None] | None, fights: int) -> None:
        title = table.engine.title or table.engine.key or "–"
        own = type(table.tactics).compact is not Tactics.compact
        self.why = t("forecast.slow_not_covered", ruleset=title) if own else t("forecast.slow_no_model", ruleset=title)
        self.decide = own and table.pending() and board(table, rng, {**table.state, "pending": {}}) is not None
        self.notes, self.notice, self.fights = notes, notice, fights

    def say(self, seconds: float) -> None:
        rate = 1 / max(seconds, 1e-6)
        left = self.fights / rate
        duration = (t("forecast.duration_minutes", n=max(1, round(left / 60))) if left >= 90
                    else t("forecast.duration_seconds", n=max(1, round(left))))
        text = " ".join([t("forecast.slow", why=self.why, rate=rate, fights=self.fights, duration=duration),
                         *([t("forecast.slow_decide")] if self.decide else [])])
        self.notes.insert(0, text)
        if self.notice is not None:
            self.notice(text)


def _fights_for(precision: float) -> int:
    """The fights a forecast plays at most to know a chance of one half to ``precision`` (95 %)."""
    return min(MAX_FIGHTS, math.ceil((Z95 * 0.5 / precision) ** 2))


def _sampled(tally: Tally, batch: Callable[[Tally, int], object], path: str, asked: Request, *, name: str,
             start_round: int, notes: list[str], shown: dict) -> Forecast:
    """Fights played in batches on ``path`` and counted in ``tally``: ``n`` of them, or until every
    side's chance is known to ``precision`` (see ``forecast``)."""
    n, precision, progress, stop = asked.n, asked.precision, asked.progress, asked.stop
    limit = n if n is not None else MAX_FIGHTS
    stopped = False
    while tally.n < limit and (n is not None or tally.n < BATCH[path] or tally.precision() > precision):
        if tally.n and stop is not None and stop():
            stopped = True
            break
        batch(tally, min(BATCH[path], limit - tally.n))
        if progress is not None:
            progress(tally.n, limit if n is not None else _planned(tally, precision))
    return tally.forecast(name, start_round, weg=path, stopped=stopped,
                          noted=[Text(f"forecast.weg_{path}", fights=tally.n), *notes], **shown)


def _planned(tally: Tally, precision: float) -> int:
    """The fights the precision asks for, told from the margin so far (it shrinks with the root of n)."""
    margin = tally.precision()
    if margin <= precision:
        return tally.n
    return min(MAX_FIGHTS, max(tally.n + 1, math.ceil(tally.n * (margin / precision) ** 2)))
