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
import time
from inspect import getattr_static
from typing import TYPE_CHECKING, Callable

import numpy as np

from .. import rules
from ..messages import t
from ..rules.tactics import Tactics
from ..rules.tactics import zielwahl as checked_zielwahl
from .chain import MAX_STATES, exact_forecast
from .fight import MAX_ROUNDS, ForecastError, Outcome, Table
from .mixture import PER_CLOSING, Mixture, NoModel, board
from .value import WEGE, Z95, Chance, FigureForecast, Forecast, Mean, Tally

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
             weg: str = "auto", moral: bool = True, notice: Callable[[str], None] | None = None) -> Forecast:
    """The forecast of ``encounter`` (default: the active one) from where it stands.

    ``weg``: "auto", or one of ``WEGE`` (an error where that path cannot take the fight). A sampled
    forecast plays ``n`` fights; without it, fights until every side's chance of winning is known to
    ``precision`` (95 % interval), at most ``MAX_FIGHTS``. ``seed`` makes it reproducible.
    ``progress(done, planned)`` is called between batches of sampled fights (``planned``: the fights
    the precision asks for as far as it can be told yet). ``stop()`` is asked before each batch but the
    first: where it says so, the forecast ends there (``Forecast.stopped``). An exact forecast has no
    batches. ``moral``: False plays no morale (nobody flees or surrenders by the rules' morale,
    ``Tactics.morale``). ``notice(text)`` is told at once, in German, where the forecast goes over the
    procedures without being asked to (no compact model fits): why it is slow and about how long.
    """
    return forecast_state(campaign.state, encounter, n=n, seed=seed, zielwahl=zielwahl, precision=precision,
                          progress=progress, stop=stop, weg=weg, moral=moral, notice=notice)


def forecast_state(state: dict, encounter: str | None = None, *, n: int | None = None, seed: int | None = None,
                   zielwahl: str = "schwächste", precision: float = PRECISION,
                   progress: Callable[[int, int], None] | None = None, stop: Callable[[], bool] | None = None,
                   weg: str = "auto", max_states: int = MAX_STATES, moral: bool = True,
                   notice: Callable[[str], None] | None = None) -> Forecast:
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
    # the rule as declared (a ``Text``), so the card says it in the language it is shown in
    shown = {"zielwahl": picking, "seed": seed, "target_rule": getattr_static(table.tactics, "target_rule"),
             "moral": moral}
    notes: list[str] = []
    left_out = [] if moral else [t("forecast.ohne_moral")]
    mixture = Mixture.of(table, rng) if weg != "prozeduren" else None
    if mixture is None and weg in ("exakt", "kompakt"):
        raise ForecastError(t("forecast.no_compact", ruleset=table.engine.title or table.engine.key))
    if mixture is not None and table.pending():
        notes.append(t("forecast.closings", ways=len(mixture.parts)) if mixture.parts is not None
                     else t("forecast.closings_drawn", fights=PER_CLOSING))
    if mixture is not None and weg in ("auto", "exakt") and n is None:
        solution = mixture.solve(max_states)
        if solution is not None:
            exact = exact_forecast(mixture.first, solution, name, record["round"], **shown)
            exact.notes += notes + left_out
            return exact
        if weg == "exakt":
            raise ForecastError(t("forecast.open_too_many") if mixture.drawn else t("forecast.too_large", max=MAX_STATES))
        if not mixture.drawn:
            notes.append(t("forecast.not_exact", max=MAX_STATES))
    run = {"name": name, "start_round": record["round"], "n": n, "precision": precision, "progress": progress,
           "stop": stop, "notes": notes + left_out, "shown": shown}
    if mixture is not None:
        try:
            return _sampled(mixture.tally(table.sides), lambda tally, k: mixture.play(tally, k, rng), "kompakt", **run)
        except NoModel:   # a closing drawn later leaves the model: the fight goes over the procedures
            run["notes"] = left_out
    slow = _Slow(table, rng, run["notes"], notice, n or _fights_for(precision)) if weg == "auto" else None

    def played(tally: Tally, k: int) -> None:
        for _ in range(k):
            started = time.perf_counter()
            tally.add(table.play(rng))
            if slow is not None and tally.n == 1:
                slow.say(time.perf_counter() - started)
    return _sampled(Tally(table.sides), played, "prozeduren", **run)


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


def _sampled(tally: Tally, batch: Callable[[Tally, int], object], path: str, *, name: str, start_round: int,
             n: int | None, precision: float, progress: Callable[[int, int], None] | None,
             stop: Callable[[], bool] | None, notes: list[str], shown: dict) -> Forecast:
    """Fights played in batches on ``path`` and counted in ``tally``: ``n`` of them, or until every
    side's chance is known to ``precision`` (see ``forecast``)."""
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
                          notes=[t(f"forecast.weg_{path}", fights=tally.n), *notes], **shown)


def _planned(tally: Tally, precision: float) -> int:
    """The fights the precision asks for, told from the margin so far (it shrinks with the root of n)."""
    margin = tally.precision()
    if margin <= precision:
        return tally.n
    return min(MAX_FIGHTS, max(tally.n + 1, math.ceil(tally.n * (margin / precision) ** 2)))
