"""Warfare (seed 003): wall formations (the example warbands are the sheet's templates).

Seed sections: "Schild- und Speerwälle".
Warband damage, Blast and leading from the front live in ``damage`` and
``attack``; ships and structures in ``damage``.
"""

from __future__ import annotations

from typing import Sequence

from rpgkernel.rules.kit import Figure
from .sheet import weapons

#: weapons that count as spears for a spear wall ("Speere oder vergleichbare Waffen")
SPEAR_WORDS = ("speer", "lanze", "pike", "stangenwaffe")


def formation(members: Sequence[Figure]) -> dict[str, bool]:
    """Which wall at least three allies form (Schild- und Speerwälle).

    ``schildwall``: all carry shields, no bucklers (+1 armour);
    ``speerwall``: all carry spears or the like (chargers cannot attack that turn).
    """
    enough = len(members) >= 3
    shields = all(any(w.is_shield and not w.is_buckler for w in weapons(m)) for m in members)
    spears = all(any(any(s in w.name.lower() for s in SPEAR_WORDS) for w in weapons(m)) for m in members)
    return {"schildwall": enough and shields, "speerwall": enough and spears}
