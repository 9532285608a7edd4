"""Resources within their limits: the range a ruleset keeps each resource in, and how a change lands.

Every change of a resource lands within the ``Limits`` of the figure's ruleset
(``Sheet.limits``): a loss stops at the lower bound (or goes on to another resource where the
ruleset says so), a gain at the maximum; a value beyond a bound never moves further against its
sign. The lower bound is 0 unless the seed or the GM (data ``untergrenzen``) names one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..messages import t
from ..state.resources import Landed
from .errors import RulesError
from .figure import Figure
from .settings import Settings

DATEN = "untergrenzen"   # the GM's lower bounds among the campaign's data
MAX_BOUND = 10**9        # the largest bound, as for resources


@dataclass(frozen=True)
class Limits:
    """The range a resource stays within: ``low`` to ``high`` (None: no bound on that side).

    ``low_rule``, ``high_rule``: what sets each bound, in German (the seed's section, or the GM's
    setting); "" for the resource's own maximum. ``overflow``: the resource that takes what a loss
    leaves beyond ``low`` (None: it is cut off).
    """

    low: int | None
    high: int | None
    low_rule: str = ""
    high_rule: str = ""
    overflow: str | None = None


def _bauen(kept: Any) -> dict[str, int]:
    """The GM's lower bounds (resource -> lowest value), checked."""
    if not isinstance(kept, dict) or not all(
            isinstance(k, str) and k and type(v) is int and abs(v) <= MAX_BOUND for k, v in kept.items()):
        raise RulesError(t("limits.bad_kept", name=DATEN, max=MAX_BOUND))
    return dict(kept)


UNTERGRENZEN = Settings(DATEN, _bauen)


def untergrenze(resource: str, data: Mapping[str, Any]) -> tuple[int, str]:
    """The lower bound of ``resource`` where the rules name none: the GM's (``untergrenzen`` in
    ``data``), else 0; with the words naming it."""
    kept = UNTERGRENZEN.of(data)
    if resource in kept:
        return kept[resource], t("limits.rule_kept", name=DATEN)
    return 0, t("limits.rule_default", name=DATEN)


def vorgabe(figure: Figure, resource: str, data: Mapping[str, Any]) -> Limits:
    """The default limits: from ``untergrenze`` to the resource's maximum."""
    low, rule = untergrenze(resource, data)
    found = figure.resource(resource)
    return Limits(low, None if found is None else found.max, rule)


def spread(figure: Figure, resource: str, by: int, limits: Callable[[str], Limits], noted: bool = True
           ) -> list[Landed]:
    """How a change of ``figure``'s ``resource`` by ``by`` lands within ``limits`` (resource ->
    its ``Limits``): on the resource, and, for a loss beyond its lower bound with an ``overflow``,
    on the next one (each resource once). A resource the figure lacks takes nothing. ``noted``: each
    landing's German ``note`` (False: the numbers alone, no note)."""
    out: list[Landed] = []
    while resource not in (s.resource for s in out):
        found = figure.resource(resource)
        if found is None:
            break
        lim, old = limits(resource), found.value
        new, held = old + by, None
        if by < 0 and lim.low is not None and new < lim.low:
            new, held = max(new, min(old, lim.low)), "low"
        elif by > 0 and lim.high is not None and new > lim.high:
            new, held = min(new, max(old, lim.high)), "high"
        rest = by - (new - old)
        carried = rest < 0 and lim.overflow is not None and figure.resource(lim.overflow) is not None
        note = _note(lim, held, rest, carried) if noted else ""
        rule = "" if held is None else lim.low_rule if held == "low" else lim.high_rule
        out.append(Landed(resource, old, new - old, by, note, rule))
        if not (rest < 0 and lim.overflow):
            break
        resource, by = lim.overflow, rest
    return out


def _note(lim: Limits, held: str | None, rest: int, carried: bool) -> str:
    """What held a change back at a bound of ``lim`` (``held``: "low", "high" or None) and carried
    ``rest`` on to the overflow (``carried``), in German."""
    note = ""
    if held == "low":
        note = t("limits.low", bound=lim.low, rule=lim.low_rule)
    elif held == "high":
        note = t("limits.high_rule", bound=lim.high, rule=lim.high_rule) if lim.high_rule \
            else t("limits.high", bound=lim.high)
    if carried:
        note = "; ".join(filter(None, [note, t("limits.overflow", n=-rest, resource=lim.overflow)]))
    return note


def einrichten(untergrenzen: Mapping[str, int] | None = None, *, kampagne: Any = None,
               begegnung: str | None = None) -> dict[str, int]:
    """Keep the GM's lower bounds (resource -> lowest value, e.g. ``{"TP": -10}``) in ``kampagne``
    (for ``begegnung`` only, if given) for the resources whose rules name none, replacing those
    kept before; None: back to 0 for all. Checked first: a bad value keeps nothing. Without
    ``kampagne`` only checked and returned."""
    return UNTERGRENZEN.keep(dict(untergrenzen) if untergrenzen else None, kampagne, begegnung)
