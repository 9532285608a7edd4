"""The expressions of d20's own test suite, with d20's meaning, and how rpgkernel reads each.

Source: avrae/d20 at ad2ce2533af82645a29bbb79df5d814c93a4a590, ``tests/test_dice.py``,
``tests/test_utils.py`` and ``tests/test_arguments.py``: every string literal of those files
that d20 1.1.2's ``d20.roll`` evaluates to a number, stripped of white space at its ends and
counted once: 110 (``10 / 0``, ``10 // 0`` and ``10 % 0`` are left out: d20 refuses them).

``MEANING`` gives d20's meaning (its README and docs, its tests' assertions), written
independently of rpgkernel: an int, or an icepool ``Die`` built by a function of the icepool
module. ``READING`` says how rpgkernel reads each on purpose: ``same``, ``differs`` (with the
reason; the card shows a hint with the other spelling) or ``refused`` (with the reason).

``python tests/d20_expressions.py`` prints how the installed rpgkernel reads them: how many it
reads at all (its exact distribution exists) and how many of those mean what d20 means; with
``--d20`` (d20 installed, as ``benchmarks/run`` installs it) it first checks every model
against d20 itself: 3,000 seeded rolls each, all in the model's support, the mean within 5 sd.
"""

from __future__ import annotations

from typing import Callable, Union

Meaning = Union[int, Callable]


def _set_keep(items, keep: str, n: int):
    """The sum of the ``n`` highest (``h``) or lowest items of a d20 set (independent dice or ints)."""
    import icepool
    dice = [icepool.Die([v]) if isinstance(v, int) else v for v in items]
    pool = icepool.Pool(dice)
    return (pool.highest(n) if keep == "h" else pool.lowest(n)).sum()


def _tens(ip, n: int = 1):
    """d20's ``d%``: a tens die, 0, 10, …, 90."""
    return n @ ip.d10.map(lambda v: 10 * (v - 1))


MEANING: dict[str, Meaning] = {
    # STANDARD_EXPRESSIONS and the totals d20 asserts
    "1d20": lambda ip: ip.d20,
    "1d%": _tens,
    "1+1": 2,
    "4d6kh3": lambda ip: ip.d6.pool(4).highest(3).sum(),
    "(1)": 1,
    "(1,)": 1,
    "((1d6))": lambda ip: ip.d6,
    "4*(3d8kh2+9[fire]+(9d2e2+3[cold])/2)":
        lambda ip: 4 * (ip.d8.pool(3).highest(2).sum() + 9 + (9 @ ip.d2.explode([2], depth=40) + 3) // 2),
    "(1d4, 2+2, 3d6kl1)kh1": lambda ip: _set_keep([ip.d4, 4, ip.d6.pool(3).lowest(1).sum()], "h", 1),
    "((10d6kh5)kl2)kh1": lambda ip: ip.d6.pool(10)[0, 0, 0, 0, 0, 0, 1, 0, 0, 0].sum(),  # the 4th highest
    "1+2+3": 6,
    "1 + 3 * 6": 19,
    "1 + (3 * 6)": 19,
    "(1 + 3) * 6": 24,
    "1 + 2 + 3": 6,
    "(1 + 2) + 3": 6,
    "1 + (2 + 3)": 6,
    "1 + 2 == 2": 0,
    "1 + (2 == 2)": 2,
    "10d6k1k2k3": lambda ip: 10 @ ip.d6.map(lambda v: v if v <= 3 else 0),
    "10d6k1ph1": lambda ip: (10 @ ip.d6.map(lambda v: 1 if v == 1 else 0)).map(lambda n: max(0, n - 1)),
    "(1, 2, 3)k1k2": 3,
    "1": 1,
    "10000": 10000,
    "1.5": 1,
    "0.5": 0,
    ".5": 0,
    "(1, 1)": 2,
    "+1": 1,
    "-1": -1,
    "--1": 1,
    "-+-++---+1": -1,
    "2 + 2": 4,
    "2 - 2": 0,
    "2 * 5": 10,
    "15 / 2": 7,
    "15 // 2": 7,
    "13 % 2": 1,
    "1 == 1": 1,
    "1 == 2": 0,
    "1 > 1": 0,
    "2 > 1": 1,
    "1 < 1": 0,
    "1 < 2": 1,
    "1 >= 1": 1,
    "1 >= 2": 0,
    "1 <= 1": 1,
    "2 <= 1": 0,
    "1 != 1": 0,
    "1 != 2": 1,
    "(1, 2, 3, 4, 5)k3": 3,   # d20: keep the items equal to 3
    "(1, 2, 3, 4, 5)k<3": 3,
    "(1, 2, 3, 4, 5)k>3": 9,
    "(1, 2, 3, 4, 5)kl2": 3,
    "(1, 2, 3, 4, 5)kh2": 9,
    "(1)k1": 1,
    "(1)k2": 0,
    "(1, 2, 3, 4, 5)k1k2": 3,
    "(1, 2, 3, 4, 5)kh1kl1": 6,
    "(1, 2, 3, 4, 5)p3": 12,
    "(1, 2, 3, 4, 5)p1p2": 12,
    "(1, 2, 3, 4, 5)ph1pl1": 9,
    "1d20rr<20": 20,
    "1d20rr>1": 1,
    "1d1ro1": 1,
    "1d6rol1": lambda ip: ip.d6,
    "1d1ra1": 2,
    "1d6ral1": lambda ip: 2 @ ip.d6,
    "10d6mi6": 60,
    "10d6mi10": 100,
    "10d6mi2": lambda ip: 10 @ ip.d6.clip(2, None),
    "10d6ma1": 10,
    "10d6ma0": 0,
    "10d6ma5": lambda ip: 10 @ ip.d6.clip(None, 5),
    "(((1d6)))": lambda ip: ip.d6,
    "0d6": 0,
    "d6": lambda ip: ip.d6,
    "1d6": lambda ip: ip.d6,
    "2d6": lambda ip: 2 @ ip.d6,
    "0d%": 0,
    "d%": _tens,
    "2d%": lambda ip: _tens(ip, 2),
    "2 + 1d6": lambda ip: 2 + ip.d6,
    "2 * 1d6": lambda ip: 2 * ip.d6,
    "60 / 1d6": lambda ip: 60 // ip.d6,
    "60 // 1d6": lambda ip: 60 // ip.d6,
    "1d100 % 10": lambda ip: ip.d100 % 10,
    "1d% % 10": 0,
    "1d2e2": lambda ip: ip.d2.explode([2], depth=40),
    # tests/test_utils.py
    "1d20 + 4d6 + 3": lambda ip: ip.d20 + 4 @ ip.d6 + 3,
    "3": 3,
    "-1d8 + 4 - (3, 1d4)kh1": lambda ip: -ip.d8 + 4 - _set_keep([3, ip.d4], "h", 1),
    "1d4": lambda ip: ip.d4,
    "1d20+1": lambda ip: ip.d20 + 1,
    "d20-1d4": lambda ip: ip.d20 - ip.d4,
    "1d20ro1": lambda ip: ip.d20.reroll([1], depth=1),
    "1 [a] + 2 + 3 [b] + 4": 10,
    "1 [a] + 2 + 3": 6,
    "1 + 2 + 3 + 4": 10,
    "8d6": lambda ip: 8 @ ip.d6,
    "8d6 [fire]": lambda ip: 8 @ ip.d6,
    "2d20 + 8d6 + 3": lambda ip: 2 @ ip.d20 + 8 @ ip.d6 + 3,
    "(1d6, 1d6)kh1": lambda ip: _set_keep([ip.d6, ip.d6], "h", 1),
    "(2d6, 2d6)kh1": lambda ip: _set_keep([2 @ ip.d6, 2 @ ip.d6], "h", 1),
    "2d20kh1": lambda ip: ip.d20.pool(2).highest(1).sum(),
    "2d20kl1": lambda ip: ip.d20.pool(2).lowest(1).sum(),
    "1 [a] + 2 + 3 [a] + 4": 10,
    "(1 [a])": 1,
    "(1, 2, 3)": 6,
    "(1, 2, 3) + (4, 5, 6)": 21,
}

_D_PERCENT = "d% is the percentile die 1-100 (W%, as Roll20, Foundry and AnyDice read it), not d20's tens die"
_CHAIN = "one selection per pool: d20 unites chained selections (k1k2); write one selector"
_RANK = "d20's l/h selectors on rerolls and explosions (rol1, ral1) pick dice by rank: not supported"

#: how rpgkernel reads each expression on purpose: (reading, reason)
READING: dict[str, tuple[str, str]] = {
    "1d%": ("differs", _D_PERCENT),
    "d%": ("differs", _D_PERCENT),
    "2d%": ("differs", _D_PERCENT),
    "1d% % 10": ("differs", _D_PERCENT),
    "(1, 2, 3, 4, 5)k3": ("differs", "k3 keeps the 3 highest (Roll20, Foundry); d20's literal is k=3"),
    "1.5": ("refused", "numbers are whole: a German 1,5 and an English 1.5 would read differently"),
    "0.5": ("refused", "numbers are whole: a German 1,5 and an English 1.5 would read differently"),
    ".5": ("refused", "numbers are whole: a German 1,5 and an English 1.5 would read differently"),
    "0d6": ("refused", "at least one die: 0W6 is a typing error at the table"),
    "0d%": ("refused", "at least one die: 0W6 is a typing error at the table"),
    "(1)k2": ("refused", "k2 keeps the 2 highest, and the set has one item"),
    "((10d6kh5)kl2)kh1": ("refused", "a selection of the dice a parenthesis kept: write one pool"),
    "10d6k1k2k3": ("refused", _CHAIN),
    "10d6k1ph1": ("refused", _CHAIN),
    "(1, 2, 3)k1k2": ("refused", _CHAIN),
    "(1, 2, 3, 4, 5)k1k2": ("refused", _CHAIN),
    "(1, 2, 3, 4, 5)kh1kl1": ("refused", _CHAIN),
    "(1, 2, 3, 4, 5)p1p2": ("refused", _CHAIN),
    "(1, 2, 3, 4, 5)ph1pl1": ("refused", _CHAIN),
    "1d6rol1": ("refused", _RANK),
    "1d6ral1": ("refused", _RANK),
}


def reading(expr: str) -> tuple[str, str]:
    return READING.get(expr, ("same", ""))


def model(expr: str) -> dict[int, float]:
    """d20's meaning of ``expr`` as probabilities."""
    import icepool
    meaning = MEANING[expr]
    if isinstance(meaning, int):
        return {meaning: 1.0}
    die = meaning(icepool)
    total = die.denominator()
    return {int(v): q / total for v, q in die.items() if q}


def agrees(ours: dict[int, float], theirs: dict[int, float], tol: float = 1e-12) -> bool:
    return all(abs(ours.get(v, 0.0) - theirs.get(v, 0.0)) <= tol for v in ours.keys() | theirs.keys())


def measure() -> dict[str, list[str]]:
    """How the installed rpgkernel reads each expression: ``same``, ``differs`` or ``refused``."""
    import rpgkernel
    out: dict[str, list[str]] = {"same": [], "differs": [], "refused": []}
    for expr in MEANING:
        try:
            ours = rpgkernel.dist(expr).pmf()
        except rpgkernel.RpgError:
            out["refused"].append(expr)
            continue
        out["same" if agrees(ours, model(expr)) else "differs"].append(expr)
    return out


def check_against_d20(rolls: int = 3000) -> list[str]:
    """The expressions whose model d20's own rolls contradict (a value outside it, or the mean off by 5 sd)."""
    import random

    import d20
    random.seed(5)  # d20 draws from the random module
    wrong = []
    for expr in MEANING:
        want = model(expr)
        seen = [int(d20.roll(expr).total) for _ in range(rolls)]
        mean = sum(v * p for v, p in want.items())
        sd = sum((v - mean) ** 2 * p for v, p in want.items()) ** 0.5
        if any(want.get(v, 0.0) == 0.0 for v in seen) or abs(sum(seen) / rolls - mean) > 5 * sd / rolls ** 0.5:
            wrong.append(expr)
    return wrong


if __name__ == "__main__":
    import sys
    if "--d20" in sys.argv:
        print(f"models contradicted by d20's own rolls: {check_against_d20() or 'none'}")
    found = measure()
    print(f"{len(MEANING)} expressions of d20's tests: rpgkernel reads {len(found['same']) + len(found['differs'])},"
          f" {len(found['same'])} with d20's meaning, {len(found['differs'])} differently,"
          f" refuses {len(found['refused'])}")
    for kind in ("differs", "refused"):
        for expr in found[kind]:
            print(f"  {kind:8} {expr!r:42} {reading(expr)[1]}")
