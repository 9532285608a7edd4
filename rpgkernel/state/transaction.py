"""Writing to a campaign: transactions, name and condition checks, retries.

A ``Transaction`` computes reversible changes against a working state that
copies only what the changes touch; ``Campaign.transaction`` appends its
events atomically. API calls that meet another writer's events are run
again on fresh state (``retrying``).
"""

from __future__ import annotations

import functools
import random
import time
from typing import Any, Mapping, Sequence

from ..errors import RpgError, StoreConflict
from ..messages import t
from . import changes as ch
from .events import Event, new_tx

MAX_NAME = 100          # characters in a figure or encounter name
MAX_ROUNDS = 10_000     # rounds a condition may last
MAX_COUNT = 200         # numbered individuals one Encounter.add creates
TICKS = {"rundenbeginn": "round_start", "rundenende": "round_end",
         "zugbeginn": "turn_start", "zugende": "turn_end"}


RETRY_SECONDS = 10.0   # how long an API call keeps trying when other writers get there first


def retrying(method: Any) -> Any:
    """Run a write again on fresh state when another writer got there first.

    Inside an outer transaction the outer caller decides (a conflict then
    aborts the whole transaction, and nothing is written).
    """
    @functools.wraps(method)
    def write(self: Any, *args: Any, **kwargs: Any) -> Any:
        campaign = getattr(self, "campaign", self)
        deadline = time.monotonic() + RETRY_SECONDS
        attempt = 0
        while True:
            try:
                return method(self, *args, **kwargs)
            except StoreConflict:
                attempt += 1
                if campaign._tx is not None or time.monotonic() > deadline:
                    raise
                time.sleep(random.uniform(0, min(0.05, 0.002 * attempt)))  # let the other writer finish
    return write


class CampaignError(RpgError, ValueError):
    """A request the campaign cannot carry out (unknown figure, nothing to undo, …)."""


def check_name(name: object, what: str) -> str:
    """A figure or encounter name: non-empty text without control characters."""
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME \
            or any(ord(c) < 32 or c == "\x7f" for c in name):
        raise CampaignError(t("campaign.bad_name", what=t(f"campaign.{what}"), max=MAX_NAME,
                              name=repr(name)[:60]))
    return name.strip()


class Transaction:
    """Changes and events collected for one atomic append.

    ``state`` is the working state: the state it started from with the
    changes so far, built by copying only what the changes touch.
    """

    def __init__(self, state: dict[str, Any]) -> None:
        self.state = state
        self.tx = new_tx()
        self.events: list[Event] = []
        self._pending: list[ch.Change] = []

    def set(self, path: list[str], value: Any) -> None:
        self._do(ch.set_(path, value, self.state), copy_value=False)   # set_ made the value's copy

    def delete(self, path: list[str]) -> None:
        self._do(ch.delete(path, self.state))

    def add(self, path: list[str], by: int) -> None:
        self._do(ch.add(path, by))

    def _do(self, change: ch.Change, copy_value: bool = True) -> None:
        self.state = ch.applied(self.state, change, copy_value)
        self._pending.append(change)

    def extend(self, changes: list[ch.Change]) -> None:
        for change in changes:
            self._do(change)

    def event(self, kind: str, text: str, figures: Sequence[str] = (), encounter: str | None = None,
              **data: Any) -> None:
        """Close the changes made since the last event into an event of ``kind``."""
        payload = {"text": text, "figures": list(figures), "encounter": encounter, **data}
        if self._pending:
            payload["changes"] = self._pending
        self.events.append(Event(kind, payload, self.tx))
        self._pending = []


def condition_record(spec: Mapping[str, Any], bearer: str) -> dict[str, Any]:
    """A condition record from user input (German keys: runden, endet, von)."""
    unknown = set(spec) - {"runden", "endet", "von"}
    if unknown:
        raise CampaignError(t("campaign.bad_condition_key", key=sorted(unknown)[0]))
    rounds, ends, of = spec.get("runden"), spec.get("endet", "rundenende"), spec.get("von")
    if rounds is not None and (isinstance(rounds, bool) or not isinstance(rounds, int)
                               or not 1 <= rounds <= MAX_ROUNDS):
        raise CampaignError(t("campaign.bad_rounds", value=repr(rounds)[:40]))
    if ends not in TICKS:
        raise CampaignError(t("campaign.bad_ends", value=repr(ends)[:40], known=", ".join(TICKS)))
    return {"remaining": rounds, "tick": TICKS[ends] if rounds else None,
            "of": check_name(of, "figure") if of else bearer}
