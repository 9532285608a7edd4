"""The check of echte Würfel: per figure and die size, how often each face
came up by hand, tested against a fair die (Pearson's chi-square,
``dice.chisquare``).

It reads the ``real_dice`` of journal entries (``by``: who threw, None for
the Spielleitung; ``faces``: ``[sides, face]`` of every numbered die thrown
by hand).
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from ..dice import limits
from ..dice.chisquare import fair_die
from ..display import Shown
from ..messages import t
from ..numerals import number, percent
from .events import Event
from .transaction import CampaignError

FIELD = "real_dice"
KINDS = ("wurf", "auflösung", "initiative")   # the entries that may hold echte Würfel
MIN_EXPECTED = 5         # throws expected per face below which the test says it is not reliable
NOTABLE = 0.01           # a p-value below this is notable


def gm() -> str:
    """The name that stands for the dice the Spielleitung threw (``by`` None): in filters and tables."""
    return t("dicecheck.gm")


def journalled(given: bool, thrown: Iterable[tuple[int, int]], by: str | None = None) -> dict[str, Any]:
    """The ``real_dice`` field of an entry (nothing where the dice were random)."""
    return {FIELD: {"by": by, "faces": [[s, f] for s, f in thrown]}} if given else {}


def _read(event: Event) -> tuple[str | None, list[tuple[int, int]]] | None:
    """Who threw the echte Würfel of an entry and their ``(sides, face)``; None for an entry without."""
    field = event.data.get(FIELD)
    if isinstance(field, Mapping):
        by = field.get("by")
        return (by if isinstance(by, str) else None), _faces(field.get("faces"))
    roll = event.data.get("roll")
    if event.kind == "wurf" and isinstance(roll, Mapping) and roll.get("given"):   # written before FIELD
        figures: list[Any] = event.data.get("figures") or [None]
        dice = cast("list[Any]", roll["dice"]) if isinstance(roll.get("dice"), list) else []
        faces = [[d["sides"], f] for d in dice if isinstance(d, Mapping) and d.get("sides") != 3
                 and isinstance(d.get("faces"), list) for f in d["faces"]]
        return (figures[0] if isinstance(figures[0], str) else None), _faces(faces)
    return None


def _faces(faces: object) -> list[tuple[int, int]]:
    """The well-formed ``[sides, face]`` pairs of a stored list."""
    if not isinstance(faces, list):
        return []
    return [(pair[0], pair[1]) for pair in faces
            if isinstance(pair, list) and len(pair) == 2 and all(type(v) is int for v in pair)
            and 2 <= pair[0] <= limits.MAX_SIDES and 1 <= pair[1] <= pair[0]]


@dataclass(frozen=True)
class DieTest:
    """The echte Würfel of one figure (None: the Spielleitung) and one die size: ``counts[i]`` throws
    showed face i + 1; the chi-square ``statistic`` against a fair die, its ``df`` and ``p``."""

    figure: str | None
    sides: int
    counts: tuple[int, ...]
    statistic: float
    df: int
    p: float

    @classmethod
    def of(cls, figure: str | None, sides: int, counts: Sequence[int]) -> DieTest:
        test = fair_die(counts)
        return cls(figure, sides, tuple(counts), test.statistic, test.df, test.p)

    @property
    def who(self) -> str:
        return gm() if self.figure is None else self.figure

    @property
    def throws(self) -> int:
        return sum(self.counts)

    @property
    def expected(self) -> float:
        """Throws per face a fair die would show on average."""
        return self.throws / self.sides

    @property
    def reliable(self) -> bool:
        """Whether enough throws were counted for the test (``MIN_EXPECTED`` expected per face)."""
        return self.expected >= MIN_EXPECTED

    @property
    def notable(self) -> bool:
        return self.reliable and self.p < NOTABLE

    @property
    def verdict(self) -> str:
        """The outcome as a German sentence."""
        if not self.reliable:
            return t("dicecheck.few", expected=number(self.expected, 1), min=MIN_EXPECTED,
                     needed=MIN_EXPECTED * self.sides, sides=self.sides)
        return t("dicecheck.notable" if self.notable else "dicecheck.fair", p=p_value(self.p))


@dataclass(frozen=True, repr=False)
class DiceCheck(Shown):
    """The tests of the echte Würfel in a journal: one per figure and die size, the Spielleitung first,
    then the figures by name, each figure's dice by size; and the filters they were read with."""

    tests: tuple[DieTest, ...]
    figure: str | None = None
    encounter: str | None = None
    sides: int | None = None

    @property
    def filters(self) -> list[str]:
        """The filters as German words (``Figur Ritter``, ``Begegnung Furt``, ``W6``)."""
        return [t(key, value=value) for key, value in (("dicecheck.filter_figure", self.figure),
                                                       ("dicecheck.filter_encounter", self.encounter),
                                                       ("dicecheck.filter_sides", self.sides))
                if value is not None]


def p_value(p: float) -> str:
    """``p = 0,30 %``; ``p < 0,01 %`` and ``p > 99,99 %`` beyond what two decimals show."""
    if p < 0.00005:
        return t("dicecheck.p_below", p=percent(0.0001))
    if p > 0.99995:
        return t("dicecheck.p_above", p=percent(0.9999))
    return t("dicecheck.p", p=percent(p))


def check(events: Iterable[Event], figure: str | None = None, encounter: str | None = None,
          sides: int | None = None) -> DiceCheck:
    """The tests of the echte Würfel in ``events``: of one figure (``gm()``: the Spielleitung's), in one
    encounter, of one die size, where given."""
    counted: dict[tuple[str | None, int], Counter[int]] = {}
    spielleitung = gm()
    for event in events:
        if encounter is not None and event.data.get("encounter") != encounter:
            continue
        found = _read(event)
        if found is None or (figure is not None and (found[0] or spielleitung) != figure):
            continue
        for s, face in found[1]:
            if sides is None or s == sides:
                counted.setdefault((found[0], s), Counter())[face] += 1
    order = sorted(counted, key=lambda key: (key[0] is not None, (key[0] or "").casefold(), key[0] or "", key[1]))
    tests = tuple(DieTest.of(who, s, [counted[who, s][f] for f in range(1, s + 1)]) for who, s in order)
    return DiceCheck(tests, figure, encounter, sides)


def throwers(events: Iterable[Event]) -> list[str]:
    """The figures the journal names as throwers of echte Würfel."""
    return list(dict.fromkeys(found[0] for found in map(_read, events) if found is not None and found[0]))


def known(name: str | None, names: Sequence[str], key: str) -> None:
    """A name the check filters by must be one of ``names``: otherwise a German error with the closest."""
    if name is not None and name not in names:
        close = difflib.get_close_matches(name, list(names), n=1)
        raise CampaignError(t(key, name=name) + (" " + t("suggest.die", suggestion=close[0]) if close else ""))


def check_sides(sides: object) -> int | None:
    """A die size to filter by: a whole number from 2 to ``limits.MAX_SIDES`` (None: every size)."""
    if sides is None:
        return None
    if isinstance(sides, bool) or not isinstance(sides, int) or not 2 <= sides <= limits.MAX_SIDES:
        shown = f"W{sides}" if isinstance(sides, int) and not isinstance(sides, bool) else repr(sides)[:40]
        raise CampaignError(t("dicecheck.bad_sides", value=shown, max=limits.MAX_SIDES))
    return sides
