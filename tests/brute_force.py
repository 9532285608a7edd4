"""Brute force over given dice, for the advice tests: a run with too few dice names the next die it
needs ("als Nächstes ein W20"), and the tests try every face of it."""

from __future__ import annotations

import re

from rpgkernel.errors import GivenDiceError

NEXT = re.compile(r"als Nächstes ein W(\d+)")


def next_sides(err: GivenDiceError) -> int:
    """The sides of the die a run given too few dice needed next."""
    return int(NEXT.search(str(err))[1])


def leaves(run, prefix=(), faces=None):
    """(probability, result of ``run(dice)``) for every face of every die still to roll; ``faces(sides)``:
    the faces to try of a die with ``sides`` sides, as (face, probability) (default: each face alike)."""
    try:
        return [(1.0, run(list(prefix)))]
    except GivenDiceError as err:
        sides = next_sides(err)
        tried = faces(sides) if faces is not None else [(face, 1 / sides) for face in range(1, sides + 1)]
        return [(p * q, res) for face, q in tried for p, res in leaves(run, (*prefix, face), faces)]
