"""How much one player link may do: per link a bucket of actions and a bucket of work, each
refilled over time.

Every message is an action; a roll's work is ``dice.estimate.draws``, a choice or suggestion a
fixed amount, one action at most ``WORK``. Beyond the buckets an action is refused in German and
counted per link (``due``); the GM lifts a limit through ``players.lift``. Used in one campaign
watcher's thread only.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from ..errors import RpgError
from ..messages import t

ACTIONS = 20            # actions at once
ACTION_SECONDS = 3.0    # one action more every 3 s (20 a minute)
WORK = 1_000            # work at once, and the most one action may cost
WORK_PER_SECOND = WORK / 60
CHOICE_WORK = 100       # a choice: a resolution with its advice
SUGGESTION_WORK = 10
REPORT_SECONDS = 60.0   # a link's refusals go into the journal at most once in this time


class QuotaError(RpgError):
    """An action beyond its link's limit (German, for that page only)."""


@dataclass
class _Account:
    actions: float
    work: float
    at: float
    lifts: int = 0
    hits: int = 0               # refusals not reported yet
    reported: float = -math.inf


class Quota:
    """The accounts of one campaign's links."""

    def __init__(self) -> None:
        self._links: dict[str, _Account] = {}

    def _account(self, link: str) -> _Account:
        now = time.monotonic()
        acc = self._links.setdefault(link, _Account(ACTIONS, WORK, now))
        acc.actions = min(ACTIONS, acc.actions + (now - acc.at) / ACTION_SECONDS)
        acc.work = min(WORK, acc.work + (now - acc.at) * WORK_PER_SECOND)
        acc.at = now
        return acc

    def spend(self, link: str, actions: int, work: int) -> None:
        """Take ``actions`` and ``work`` from ``link``'s buckets, or QuotaError (and nothing taken)."""
        acc = self._account(link)
        if work > WORK:
            error = QuotaError(t("quota.too_costly", work=work, max=WORK))
        elif acc.actions < actions:
            error = QuotaError(t("quota.too_fast", seconds=math.ceil((actions - acc.actions) * ACTION_SECONDS)))
        elif acc.work < work:
            error = QuotaError(t("quota.too_much", work=work, seconds=math.ceil((work - acc.work) / WORK_PER_SECOND)))
        else:
            acc.actions -= actions
            acc.work -= work
            return
        acc.hits += 1
        raise error

    def sync(self, link: str, lifts: int) -> None:
        """``lifts``: how often the GM has lifted ``link``'s limit; one more than before refills it."""
        acc = self._account(link)
        if lifts != acc.lifts:
            acc.actions, acc.work, acc.lifts, acc.hits = ACTIONS, WORK, lifts, 0

    def due(self) -> list[tuple[str, int]]:
        """The links whose refusals the journal should get now, with how many (each link at most once
        in ``REPORT_SECONDS``; the rest waits for the next call after it)."""
        now, found = time.monotonic(), []
        for link, acc in self._links.items():
            if acc.hits and now - acc.reported >= REPORT_SECONDS:
                found.append((link, acc.hits))
                acc.hits, acc.reported = 0, now
        return found
