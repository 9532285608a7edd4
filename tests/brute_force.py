"""Brute force over given dice, for the advice tests: a run with too few dice names the next die it
needs ("als Nächstes ein W20"), and the tests try every face of it."""

from __future__ import annotations

import re

from rpgkernel.errors import GivenDiceError

NEXT = re.compile(r"als Nächstes ein W(\d+)")


def next_sides(err: GivenDiceError) -> int:
    """The sides of the die a run given too few dice needed next."""
    return int(NEXT.search(str(err))[1])


def leaves(run, prefix=()):
    """(probability, result of ``run(dice)``) for every face of every die still to roll."""
    try:
        return [(1.0, run(list(prefix)))]
    except GivenDiceError as err:
        sides = next_sides(err)
        return [(p / sides, res) for face in range(1, sides + 1) for p, res in leaves(run, (*prefix, face))]
