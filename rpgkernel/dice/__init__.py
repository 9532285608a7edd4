"""The dice core: notation, rolling and exact distributions.

One core serves every ruleset. Values (parsed trees, ``Dist``, ``Roll``)
are immutable.
"""

from . import exact, parser
from .dist import Dist
from .exact import dist
from .parser import parse
from .roll import DieRoll, Roll, Roller, Rolls, roll, roll_many

__all__ = ["Dist", "DieRoll", "Roll", "Roller", "Rolls", "clear_caches", "dist", "parse", "roll", "roll_many"]


def clear_caches() -> None:
    """Forget parsed expressions and computed distributions (for fair timings)."""
    parser._parse_cached.cache_clear()
    exact.die_dist.cache_clear()
    exact.exact_cached.cache_clear()
