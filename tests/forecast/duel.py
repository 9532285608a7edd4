"""A duel as a Markov chain, for checking forecasts against a model computed without them.

Two figures A and B with ``a`` and ``b`` points each; a figure is out at 0 or below. Each round one
acts first (A with probability ``a_first``), then the other if it still stands, or, with probability
``together``, both strike at once at the points the round found (both may fall). ``hits_a(ha, hb)`` is
the distribution {points lost: probability} of A's attack on B when A has ``ha`` and B ``hb`` left
(so an injury malus can weaken a figure); ``hits_b`` the same for B's attack on A.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, Mapping

Hits = Callable[[int, int], Mapping[int, float]]


def a_wins(a: int, b: int, hits_a: Hits, hits_b: Hits, a_first: float, together: float = 0.0) -> float:
    """P(A is left standing, B not)."""

    @lru_cache(maxsize=None)
    def value(ha: int, hb: int) -> float:
        # a round that changes nothing comes again: V = (what else happens) / (1 - P(nothing happens))
        stay = won = 0.0
        for x, px in hits_a(ha, hb).items() if together else ():
            for y, py in hits_b(ha, hb).items():
                ha1, hb1, p = ha - y, hb - x, together * px * py
                if (ha1, hb1) == (ha, hb):
                    stay += p
                elif min(ha1, hb1) <= 0:
                    won += p * (hb1 <= 0 < ha1)
                else:
                    won += p * value(ha1, hb1)
        for first, p_first in ((True, a_first), (False, 1 - a_first - together)):
            if p_first == 0:
                continue
            for x, px in (hits_a if first else hits_b)(ha, hb).items():
                ha1, hb1 = (ha, hb - x) if first else (ha - x, hb)
                if min(ha1, hb1) <= 0:
                    won += p_first * px * (hb1 <= 0)
                    continue
                for y, py in (hits_b if first else hits_a)(ha1, hb1).items():
                    ha2, hb2 = (ha1 - y, hb1) if first else (ha1, hb1 - y)
                    p = p_first * px * py
                    if (ha2, hb2) == (ha, hb):
                        stay += p
                    elif min(ha2, hb2) <= 0:
                        won += p * (hb2 <= 0)
                    else:
                        won += p * value(ha2, hb2)
        return won / (1 - stay)

    return value(a, b)


def attack(p_hit: float, damage: Mapping[int, float]) -> dict[int, float]:
    """An attack that hits with ``p_hit`` and then deals ``damage`` ({points: probability})."""
    out = {0: 1 - p_hit}
    for x, p in damage.items():
        out[x] = out.get(x, 0.0) + p_hit * p
    return out


def die(sides: int, plus: int = 0) -> dict[int, float]:
    """One die with ``sides`` faces, plus ``plus``."""
    return {face + plus: 1 / sides for face in range(1, sides + 1)}
