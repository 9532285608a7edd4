"""The dice core: notation, rolling and exact distributions.

One core serves every ruleset. Values (parsed trees, ``Dist``, ``Roll``)
are immutable.
"""

from . import estimate, exact, parser
from .dist import Dist
from .estimate import Estimate, preview
from .exact import dist
from .parser import parse
from .roll import DieRoll, Roll, Roller, Rolls, roll, roll_many

__all__ = ["Dist", "DieRoll", "Estimate", "Roll", "Roller", "Rolls", "clear_caches", "dist", "parse", "preview",
           "roll", "roll_many"]


def clear_caches() -> None:
    """Forget parsed expressions and computed distributions (for fair timings)."""
    parser._parse_cached.cache_clear()
    exact._die_dist.cache_clear()
    exact._exact_or_refusal.cache_clear()
    estimate.estimate.cache_clear()
