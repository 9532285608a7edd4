"""What an option of an open choice means for the whole fight: the chance of winning after taking it.

Exact only, from every way the dice after the decision can fall (docs/mitwirken.md, "Die Siegchance
einer Möglichkeit"); where that is not cheap, None says so."""

from __future__ import annotations

import copy
import json
from typing import Any, Callable, Mapping

from .. import rules
from ..dice.roll import Roller
from ..errors import RpgError
from ..resolve.run import carry_out
from ..state.transaction import Transaction
from ..state.views import Encounter
from . import faces
from .chain import MAX_STATES
from .fight import ForecastError

#: the most ways the dice after a decision may fall before the chance of winning is not worth it
MAX_WAYS = 4096
#: … for the advice (weighed behind its card, ``weighing``): per option, and for all options of a
#: resolution together (each way a run of the choice lines through the procedure), and the most dice
#: the resolution rolled before its choices (every run rolls them again)
ADVICE_WAYS, ADVICE_BUDGET, ADVICE_DICE = 64, 400, 24
#: the most nodes of the exact chain from a state an option leads to, for the advice
ADVICE_STATES = 5_000


class Stopped(Exception):
    """A weighing told to stop (``stop()``) between two of its runs."""


def ways(state: dict[str, Any], encounter: str, ruleset: str | None, source: str, most: int = MAX_WAYS,
         stop: Callable[[], bool] | None = None) -> tuple[dict[str, tuple[float, dict]], int] | None:
    """Every state ``source`` (choice lines on an open resolution of ``state``) leads to once the turn
    has passed, by its key, with its chance, and how many ways the dice fell; None where they would
    fall in more than ``most`` ways. ``Stopped`` where ``stop()`` says so before a run."""
    engine = rules.get(ruleset or None)

    def run(roller: Roller) -> tuple[str, dict]:
        if stop is not None and stop():
            raise Stopped
        tx = Transaction(state)
        carry_out(tx, engine, source, roller)
        Encounter(None, encounter)._advance(tx, False, None, 0, None)  # type: ignore[arg-type]
        return json.dumps(tx.state["encounters"][encounter], sort_keys=True, default=str) + json.dumps(
            tx.state["characters"], sort_keys=True, default=str), tx.state

    tried = faces.ways(run, most)
    if tried is None:
        return None
    found: dict[str, tuple[float, dict]] = {}
    for p, (key, after) in tried[0]:
        before = found.get(key)
        found[key] = ((before[0] if before else 0.0) + p, after)
    return found, tried[1]


def option_wins(state: Mapping[str, Any], encounter: str, options: Mapping[str, str],
                zielwahl: str = "schwächste", max_states: int = MAX_STATES, most: int = MAX_WAYS,
                budget: int | None = None, each: Callable[[str, dict[str, float] | None], None] | None = None,
                stop: Callable[[], bool] | None = None) -> dict[str, dict[str, float] | None]:
    """For each option (label -> its choice lines), each side's exact chance of winning the fight after
    it, or None where that is not to be had cheaply (see the module). ``each(label, found)`` hears of
    every option as it is weighed; ``stop()`` ends the weighing between two units of work."""
    from . import forecast_state
    base = copy.deepcopy(dict(state))
    ruleset = base["encounters"][encounter]["ruleset"]
    out: dict[str, dict[str, float] | None] = {}
    known: dict[str, dict[str, float]] = {}   # the exact chances from each state reached, by its key

    def chances(key: str, after: dict[str, Any]) -> dict[str, float]:
        if stop is not None and stop():
            raise Stopped
        if key not in known:
            f = forecast_state(copy.deepcopy(after), encounter, zielwahl=zielwahl, weg="exakt", max_states=max_states)
            known[key] = {side: c.p for side, c in f.win.items()}
        return known[key]

    left = budget
    for label, source in options.items():
        if stop is not None and stop():
            break
        out[label] = None
        try:
            found = ways(base, encounter, ruleset, source, most if left is None else min(most, left), stop)
            if found is not None:
                leaves, runs = found
                if left is not None:
                    left -= runs
                wins: dict[str, float] = {}
                for key, (p, after) in leaves.items():
                    for side, q in chances(key, after).items():
                        wins[side] = wins.get(side, 0.0) + p * q
                out[label] = wins
        except (ForecastError, RpgError):
            pass
        except Stopped:
            del out[label]
            break
        if each is not None:
            each(label, out[label])
    return out


Weighed = Callable[[tuple[str, str, str], float | None], None]   # (choice key, who, label), its chance


def weighed_options(record: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """The options of the open resolution ``record``'s advice that ``weigh`` weighs, in its order:
    (choice key, who, option label) of each option with lines."""
    return [(a["key"], a["who"], o["label"]) for a in record.get("advice", ()) for o in a["options"] if o["lines"]]


def weigh(state: Mapping[str, Any], pending: str, record: Mapping[str, Any], each: Weighed | None = None,
          stop: Callable[[], bool] | None = None) -> dict[tuple[str, str, str], float]:
    """The advice of the open resolution ``record`` (kept as ``pending``) weighed: (choice key, who,
    option label) -> the chance that who's side wins after that option; nothing where the fight after
    it is not small enough to be forecast exactly (``ADVICE_STATES``). ``each`` hears of every option
    as it is weighed (None: no number for it); ``stop`` ends the weighing early."""
    encounter = state.get("active_encounter")
    if not encounter or encounter not in state["encounters"] or len(record.get("faces", ())) > ADVICE_DICE:
        return {}
    kept = {k: v for k, v in record.items() if k != "advice"}   # what carries the choice out (not the advice)
    base = {**state, "pending": {**state.get("pending", {}), pending: kept}}
    sides = {n: c.get("side") or "" for n, c in state["encounters"][encounter]["combatants"].items()}
    options, named = {}, {}   # the options by a name option_wins may take, and what each stands for
    for a in record["advice"]:
        for o in a["options"]:
            if o["lines"]:
                name = "\x00".join((a["key"], a["who"], o["label"]))
                options[name], named[name] = "\n".join(o["lines"]), (a["key"], a["who"], o["label"])
    out: dict[tuple[str, str, str], float] = {}

    def heard(name: str, found: dict[str, float] | None) -> None:
        key, who, label = named[name]
        if found is not None and sides.get(who) in found:
            out[key, who, label] = min(1.0, max(0.0, found[sides[who]]))
        if each is not None:
            each(named[name], out.get((key, who, label)))

    option_wins(base, encounter, options, max_states=ADVICE_STATES, most=ADVICE_WAYS, budget=ADVICE_BUDGET,
                each=heard, stop=stop)
    return out
