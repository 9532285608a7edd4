"""The dice core: notation, rolling and exact distributions.

One core serves every ruleset. Values (parsed trees, ``Dist``, ``Roll``)
are immutable.
"""

from .dist import Dist
from .exact import dist
from .parser import parse
from .roll import DieRoll, Roll, Rolls, roll, roll_many

__all__ = ["Dist", "DieRoll", "Roll", "Rolls", "dist", "parse", "roll", "roll_many"]
