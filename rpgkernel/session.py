"""The session: one seedable random generator and the chosen ruleset.

Each notebook kernel has one current session (the magics use it); code that
wants its own stream creates a ``Session`` or passes ``seed=``/``rng=``.
"""

from __future__ import annotations

import numpy as np


class Session:
    """Settings of one GM session: seed, generator, ruleset, campaign path."""

    def __init__(self, seed: int | None = None) -> None:
        self.ruleset: str | None = None
        self.campaign: str | None = None
        self.reseed(seed)

    def reseed(self, seed: int | None) -> None:
        """Restart the random stream; the same seed gives the same rolls everywhere."""
        from .dice.roll import RandomDice
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self.dice = RandomDice(self.rng)


_current: Session | None = None


def current() -> Session:
    """The kernel's session, created on first use with an unseeded generator."""
    global _current
    if _current is None:
        _current = Session()
    return _current
