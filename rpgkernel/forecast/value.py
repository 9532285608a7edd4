"""A forecast's result: who wins, how long it takes, who falls, what is left; with its precision.

Values only: the renderer registers its forms (``render.forecast``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping

from ..dice import Dist
from ..display import Shown
from ..messages import Text, t
from .fight import Outcome

Z95 = 1.959963984540054   # the normal quantile of a two-sided 95 % interval
#: the paths a forecast takes: the exact chain of a compact model, fights sampled on a compact model,
#: fights played through the ruleset's procedures
WEGE = ("exakt", "kompakt", "prozeduren")


def wilson(hits: int, n: int) -> tuple[float, float]:
    """The 95 % Wilson interval of a probability seen ``hits`` times in ``n`` trials."""
    if n == 0:
        return 0.0, 1.0
    p = hits / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # at none or all the bounds are 0 and 1 exactly (rounding aside)
    return (0.0 if hits == 0 else max(0.0, centre - half)), (1.0 if hits == n else min(1.0, centre + half))


@dataclass(frozen=True)
class Chance:
    """A probability with its 95 % interval (``low == high == p`` where it is exact)."""

    p: float
    low: float
    high: float

    @classmethod
    def exact(cls, p: float) -> Chance:
        return cls(p, p, p)

    @classmethod
    def counted(cls, hits: int, n: int) -> Chance:
        return cls(hits / n, *wilson(hits, n))

    @property
    def margin(self) -> float:
        """The larger distance from ``p`` to the interval's ends."""
        return max(self.p - self.low, self.high - self.p)


@dataclass(frozen=True)
class Mean:
    """An expected value with the half-width of its 95 % interval (0 where it is exact)."""

    value: float
    margin: float = 0.0


@dataclass(frozen=True)
class FigureForecast:
    """One combatant: its side, the chance that it is out of the fight at the end, and each of its
    resources' expected value at the end."""

    side: str
    falls: Chance
    resources: Mapping[str, Mean]


@dataclass(repr=False)
class Forecast(Shown):
    """The forecast of an encounter from where it stands: each side's chance (``win``, ``draw``), the rounds
    the fight still lasts, each figure's ``FigureForecast``; how it was made (``method``, ``weg``, ``fights``,
    ``zielwahl``, ``target_rule``, ``moral``, ``seed``), German ``notes`` (the path first; made of ``noted``
    as they are read), and whether it was ``stopped`` early (its numbers count the fights played)."""

    encounter: str
    method: str
    win: dict[str, Chance]
    draw: Chance
    rounds: Dist
    figures: dict[str, FigureForecast]
    fights: int = 0
    zielwahl: str = ""
    seed: int | None = None
    target_rule: str | Text = ""
    start_round: int = 0
    #: the notes as made: texts, or ``Text``s looked up (their numbers by the locale) when read (``notes``)
    noted: list[str | Text] = field(default_factory=list)
    weg: str = "prozeduren"
    moral: bool = True
    stopped: bool = False

    @property
    def notes(self) -> list[str]:
        """The notes in the language of the moment: a forecast formats no number before it is shown."""
        return [str(n) for n in self.noted]

    @property
    def precision(self) -> float:
        """The largest margin of any side's chance of winning (0 for an exact forecast)."""
        return max([c.margin for c in self.win.values()] + [self.draw.margin])

    def to_dict(self) -> dict[str, Any]:
        def chance(c: Chance) -> dict[str, float]:
            return {"p": c.p, "low": c.low, "high": c.high}
        return {"encounter": self.encounter, "method": self.method, "weg": self.weg, "fights": self.fights,
                "zielwahl": self.zielwahl, "moral": self.moral, "seed": self.seed, "start_round": self.start_round,
                "win": {s: chance(c) for s, c in self.win.items()}, "draw": chance(self.draw),
                "rounds": {str(k): v for k, v in self.rounds.pmf().items()},
                "figures": {n: {"side": f.side, "falls": chance(f.falls),
                                "resources": {k: {"value": m.value, "margin": m.margin}
                                              for k, m in f.resources.items()}}
                            for n, f in self.figures.items()},
                "target_rule": str(self.target_rule), "notes": list(self.notes), "stopped": self.stopped}


class Tally:
    """Outcomes of sampled fights, counted as they come."""

    def __init__(self, sides: Mapping[str, str]) -> None:
        self.sides = dict(sides)
        self.n = 0
        self.wins = dict.fromkeys(sides.values(), 0)   # the sides in the order their first combatant joined
        self.draws = 0
        self.rounds: dict[int, int] = {}
        self.falls = dict.fromkeys(sides, 0)
        self.sums: dict[str, dict[str, list[float]]] = {n: {} for n in sides}

    def add(self, o: Outcome) -> None:
        """One fight's outcome."""
        self.add_counts(1, {o.winner: 1} if o.winner is not None else {}, int(o.winner is None), {o.rounds: 1},
                        dict.fromkeys(o.out, 1),
                        {n: {k: (v, v * v) for k, v in values.items()} for n, values in o.resources.items()})

    def add_counts(self, n: int, wins: Mapping[str, int], draws: int, rounds: Mapping[int, int],
                   falls: Mapping[str, int], sums: Mapping[str, Mapping[str, tuple[float, float]]]) -> None:
        """The counts of ``n`` fights: wins by side, draws, fights by rounds, falls by figure, and the
        sum and the sum of squares of each figure's resources at the end."""
        self.n += n
        self.draws += draws
        for side, k in wins.items():
            self.wins[side] += k
        for r, k in rounds.items():
            self.rounds[r] = self.rounds.get(r, 0) + k
        for name, k in falls.items():
            if name in self.falls:
                self.falls[name] += k
        for name, values in sums.items():
            mine = self.sums.setdefault(name, {})
            for key, (v, v2) in values.items():
                s = mine.setdefault(key, [0.0, 0.0])
                s[0] += v
                s[1] += v2

    def precision(self) -> float:
        """The largest half-width of a side's (or the draw's) 95 % interval so far."""
        if self.n == 0:
            return 1.0
        return max(Chance.counted(k, self.n).margin for k in [*self.wins.values(), self.draws])

    def forecast(self, encounter: str, start_round: int, **kw: Any) -> Forecast:
        n = self.n
        figures = {}
        for name, side in self.sides.items():
            means = {}
            for key, (s, s2) in self.sums.get(name, {}).items():
                mean = s / n
                var = max(0.0, s2 / n - mean * mean) * n / max(1, n - 1)
                means[key] = Mean(mean, Z95 * math.sqrt(var / n))
            figures[name] = FigureForecast(side, Chance.counted(self.falls[name], n), means)
        rounds = Dist.from_pmf({r: c / n for r, c in self.rounds.items()}).labelled(t("forecast.rounds_label"))
        return Forecast(encounter, "simuliert", {s: Chance.counted(k, n) for s, k in self.wins.items()},
                        Chance.counted(self.draws, n), rounds, figures, fights=n, start_round=start_round, **kw)
