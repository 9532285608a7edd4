"""Exact distributions of parsed dice expressions.

Closed forms where they exist: binomial pools for success counting, products
of CDFs for keep-highest/-lowest of one die, convolution powers for sums.
Keeping several dice of a pool walks its order statistics face by face
(``keep``).

Every step charges its work before it runs (``work``): ``exact_cached`` and
``dist`` compute within the budget ``limits.MAX_WORK`` or refuse at once.
"""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache
from typing import Callable, Mapping, Sequence

from ..errors import DiceLimitError
from .dist import Dist
from .keep import kept
from .nodes import (ARITHMETIC, COMPARISONS, Call, Chain, Compare, Const, Die, Fate, Label, Neg, Node, Paren, Pool,
                    Selector, Set)
from .parser import _parse_cached, divide, parse
from .work import COUNT, IDLE, OUTPUT, charge, counter


def dist(expr: str, variables: Mapping[str, object] | None = None) -> Dist:
    """The exact distribution of the expression ``expr``."""
    # what parse() does for a string without variables, inlined (hot path)
    node = _parse_cached(expr) if variables is None and isinstance(expr, str) else \
        parse(expr, variables)
    result = _exact_or_refusal(node)  # exact_cached, inlined (hot path)
    if isinstance(result, DiceLimitError):
        raise result.with_traceback(None)
    return result.labelled(expr.strip())


def exact(node: Node) -> Dist:
    """The exact distribution of a parsed expression.

    Constants stay ints where they meet a ``Dist`` (``X-2``, ``max(0, X)``):
    a shift or a clip, without a ``Dist`` of their own.
    """
    if type(node) is Pool:
        return pool_dist(node)
    if type(node) is Const:
        return Dist.const(node[0])
    if type(node) is Chain:
        return _chain_dist(node)
    if type(node) is Call:
        return _call_dist(node)
    if type(node) is Paren or type(node) is Label:
        return exact(node[0])
    if type(node) is Neg:
        return -exact(node[0])
    if type(node) is Compare:
        return _compare_dist(node)
    if type(node) is Set:
        return set_dist(node)
    if type(node) is Fate:
        return Dist._owned(-1, [1 / 3] * 3).repeat_sum(node.count)
    raise TypeError(node)


def _chain_dist(node: Chain) -> Dist:
    """Terms joined left to right by ``+ - * /`` (and the rounded divisions, ``%``)."""
    ops, terms = node
    acc = exact(terms[0])
    for i, op in enumerate(ops, 1):
        term = terms[i]
        right = term[0] if type(term) is Const else exact(term)
        acc = ARITHMETIC[op](acc, right) if op in ARITHMETIC else _divided(acc, right, op)
    return acc


def _call_dist(node: Call) -> Dist:
    """``max``/``min`` of their arguments (the constant ones a clip); a rounding function its argument."""
    name, args = node
    if len(args) == 1:  # a rounding function: its divisions round already
        return exact(args[0])
    highest = name == "max"
    result: Dist | None = None
    bound: int | None = None  # the extreme of the constant arguments
    for arg in args:
        if type(arg) is Const:
            v = arg[0]
            bound = v if bound is None else max(bound, v) if highest else min(bound, v)
        else:
            d = exact(arg)
            result = d if result is None else \
                result.maximum(d) if highest else result.minimum(d)
    if result is None:
        assert bound is not None   # every argument a constant
        return Dist.const(bound)
    if bound is None:
        return result
    return result.clip(lower=bound) if highest else result.clip(upper=bound)


def _compare_dist(node: Compare) -> Dist:
    """1 where the comparison holds, else 0."""
    op, left, other = node
    holds = COMPARISONS[op]
    if type(other) is Const:
        v = other[0]
        return exact(left).map(lambda x: 1 if holds(x, v) else 0)
    return (exact(left) - exact(other)).map(lambda x: 1 if holds(x, 0) else 0)


def _divided(acc: Dist, right: Dist | int, op: str) -> Dist:
    """``acc / right`` rounded as ``op`` says, or ``acc % right`` (the parser refused a divisor that can be 0)."""
    if op == "%":
        f = int.__mod__
    else:
        def f(a: int, b: int) -> int:
            return divide(a, b, op)
    if isinstance(right, int):
        return acc.map(lambda a: f(a, right))
    return acc.combine(right, f)


def set_dist(node: Set) -> Dist:
    """The sum of a set's kept items: all of them, those ``where`` selects, or the highest/lowest few."""
    items, keep, where = node
    dists = [exact(i) for i in items]
    if keep is not None and keep[1] < len(dists):
        return kept([(d, 1) for d in dists], keep[1], keep[0] == "h", None)
    if where is not None:
        dists = [d.map(lambda v: v if where(v) else 0) for d in dists]
    total = dists[0]
    for d in dists[1:]:
        total = total + d
    return total


def exact_cached(node: Node) -> Dist:
    """``exact(node)`` as one computation within the budget (``work.counter``), each tree once.

    A refusal is remembered as well: asking again costs nothing.
    """
    result = _exact_or_refusal(node)
    if isinstance(result, DiceLimitError):
        raise result.with_traceback(None)
    return result


@lru_cache(maxsize=512)
def _exact_or_refusal(node: Node) -> Dist | DiceLimitError:
    count = COUNT.get() or counter()
    if count[0] >= 0:  # within a computation that counts already: its budget
        return exact(node)
    count[0] = 0
    try:
        return exact(node)
    except DiceLimitError as err:
        return err
    finally:
        count[0] = IDLE


def die_dist(die: Die) -> Dist:
    """One die after its rerolls, explosions and bounds (its work charged also when it is cached)."""
    cells = die.sides * (1 + (die.explode or 0))
    charge(OUTPUT * cells if die.explode_on is None else OUTPUT * cells * (1 + (die.explode or 0)))
    return _die_dist(die)


@lru_cache(maxsize=1024)
def _die_dist(die: Die) -> Dist:
    sides = die.sides
    p = [1.0 / sides] * sides
    if die.reroll is not None:
        rerolled = [die.reroll(f) for f in range(1, sides + 1)]
        p_sel = sum(rerolled) / sides
        if die.reroll_once:  # the second result stands
            p = [(0.0 if r else q) + p_sel * q for r, q in zip(rerolled, p)]
        else:  # uniform over the faces that stay
            p = [0.0 if r else q / (1.0 - p_sel) for r, q in zip(rerolled, p)]
    if die.lowest is not None or die.highest is not None:
        return _die_dist(die._replace(lowest=None, highest=None)).map(die.clamp)
    if die.explode_on is not None:
        return _exploding(die, p)
    top = p[-1]
    if not die.explode or not top:
        return Dist._owned(1, p)
    # a maximum face adds another roll of the same die, at most `explode` times: after m
    # maximum faces, a face f below the maximum ends the die at m * sides + f (the last roll
    # may show any face)
    pmf: list[float] = []
    roll = p
    for _ in range(die.explode):
        pmf += roll[:-1]
        pmf.append(0.0)  # (m + 1) * sides is reached only by exploding further
        roll = [x * top for x in roll]
    pmf += roll
    return Dist._owned(1, pmf)


def _exploding(die: Die, p: list[float]) -> Dist:
    """A die whose faces in ``explode_on`` bring another roll, added, at most ``explode`` times.

    From the last roll back: a roll that may still explode is its face, plus
    (for an exploding face) the rest of the die.
    """
    last = Dist._owned(1, list(p))
    stays = [0.0 if die.explodes(f) else q for f, q in enumerate(p, 1)]
    rest = last
    assert die.explode is not None   # an exploding die
    for _ in range(die.explode):
        out: dict[int, float] = {}
        for f, q in enumerate(p, 1):
            if not q:
                continue
            if die.explodes(f):
                for v, r in rest.pmf().items():
                    out[f + v] = out.get(f + v, 0.0) + q * r
            else:
                out[f] = out.get(f, 0.0) + stays[f - 1]
        rest = Dist.from_pmf(out)
    return rest


def _indicator(sel: Selector) -> Callable[[int], int]:
    return lambda v: 1 if sel(v) else 0


def _score(count: Selector | None, fail: Selector | None, where: Selector | None) -> Callable[[int], int]:
    """What one kept die adds: its value if ``where`` selects it; a success 1, a failure -1."""
    if count is None:
        assert where is not None   # a failure comes with a count
        return lambda v: v if where(v) else 0
    return lambda v: 0 if where is not None and not where(v) else \
        (1 if count(v) else 0) - (1 if fail is not None and fail(v) else 0)


_EXACT_DICE = 100  # the highest of at most this many plain dice is counted in integers


def pool_dist(pool: Pool) -> Dist:
    """The distribution of a pool's value: sum or success count of the kept dice."""
    groups, keep, count, _, fail, where = pool
    kinds, n, plain = _kinds(groups)
    if keep is not None and keep[1] >= n:
        keep = None
    if fail is not None or where is not None:
        return _scored_pool(kinds, keep, _score(count, fail, where))
    if keep is None:
        return _binomial_sum(kinds, count, plain) if count is not None else _plain_sum(kinds, plain)
    highest = keep[0] == "h"
    if keep[1] == 1:
        single = _plain_highest(kinds) if highest and plain and n <= _EXACT_DICE else \
            _extreme(kinds, highest)
        return single.map(_indicator(count)) if count is not None else single
    return kept([(die_dist(die), c) for die, c in kinds.items()], keep[1], highest,
                    _indicator(count) if count is not None else None)


def _kinds(groups: Sequence[tuple[int, Die]]) -> tuple[dict[Die, int], int, bool]:
    """How many dice of each kind, how many in all, and whether every die is plain."""
    kinds: dict[Die, int] = {}
    n = 0
    plain = True  # every die plain
    for c, die in groups:
        n += c
        before = kinds.get(die)
        if before is not None:
            kinds[die] = before + c
            continue
        kinds[die] = c  # a new kind: is it plain? (a reroll, explosion or bound; Die.plain by index: hot path)
        if die[1] is not None or die[3] is not None or die[6] is not None or die[7] is not None:
            plain = False
    return kinds, n, plain


def _scored_pool(kinds: dict[Die, int], keep: tuple[str, int] | None, score: Callable[[int], int]) -> Dist:
    """The sum of each kept die's score (successes less failures, or the faces ``where`` selects)."""
    if keep is not None:
        return kept([(die_dist(die), c) for die, c in kinds.items()], keep[1], keep[0] == "h", score)
    total: Dist | None = None
    for die, c in kinds.items():
        part = die_dist(die).map(score).repeat_sum(c)
        total = part if total is None else total + part
    assert total is not None
    return total


def _plain_sum(kinds: dict[Die, int], plain: bool) -> Dist:
    """The sum of every die of the pool."""
    total: Dist | None = None
    for die, c in kinds.items():
        part = _uniform_sum(die.sides, c) if plain or die.plain else die_dist(die).repeat_sum(c)
        total = part if total is None else total + part
    assert total is not None
    return total


_PACKED_BITS = 1 << 13  # size of the big integer _uniform_sum builds; beyond, convolution is faster


def _uniform_sum(sides: int, n: int) -> Dist:
    """The sum of n fair dice, exactly: the coefficients of (x + … + x^sides)^n.

    The polynomial is packed into one integer, a coefficient per field of
    ``width`` bits, and raised to the n-th power by Python's big integers;
    the counts come out exact and are divided by sides^n once. Beyond a
    size bound, floating-point convolution takes over.
    """
    cells = n * (sides - 1) + 1
    width = -(-(n * sides.bit_length() + 1) // 8) * 8
    if n == 1 or cells * width > _PACKED_BITS:
        return Dist.die(sides).repeat_sum(n)
    # uncharged: at most _PACKED_BITS / 8 counts, for one pool of at least two of the 1,000 dice
    packed = sum(1 << (width * i) for i in range(sides)) ** n
    raw = packed.to_bytes(cells * width // 8, "little")
    step = width // 8
    total = sides ** n
    counts = [int.from_bytes(raw[i:i + step], "little") for i in range(0, len(raw), step)]
    return Dist._owned(n, [c / total for c in counts])


_CHANCE = {">=": Dist.p_at_least, ">": Dist.p_greater, "<=": Dist.p_at_most, "<": Dist.p_less,
           "=": Dist.p_exactly}  # P(X op v)
_OTHERWISE = {">=": "<", ">": "<=", "<=": ">", "<": ">="}


def _binomial_sum(kinds: dict[Die, int], sel: Selector, plain: bool) -> Dist:
    """Successes in a pool (``plain``: of plain dice only): one binomial per kind, convolved.

    For n plain dice with ``hit`` of their ``sides`` faces a success, the
    counts of outcomes C(n, k) hit^k miss^(n-k) are integers, each from the
    one before; each probability is rounded once, when divided by sides^n.
    """
    total: Dist | None = None
    for die, n in kinds.items():
        if plain or die.plain:
            sides = die.sides
            hit = sel.matches_in(1, sides)
            miss = sides - hit
            if hit and miss:  # uncharged: n + 1 counts, and 1,000 dice at most in all pools together
                outcomes = sides ** n
                count = miss ** n
                pmf = [count / outcomes]
                for k in range(n):
                    count = count * (n - k) * hit // ((k + 1) * miss)
                    pmf.append(count / outcomes)
                part = Dist._owned(0, pmf)
            else:
                part = Dist.const(n if hit else 0)
        else:  # n Bernoulli trials
            d = die_dist(die)
            op, v = sel
            p_hit = _CHANCE[op](d, v)
            p_miss = _CHANCE[_OTHERWISE[op]](d, v) if op != "=" else d.p_less(v) + d.p_greater(v)
            part = Dist.const(0) if not p_hit else Dist.const(n) if not p_miss else \
                Dist._owned(0, [p_miss, p_hit]).repeat_sum(n)
        total = part if total is None else total + part
    assert total is not None
    return total


def _extreme(kinds: dict[Die, int], highest: bool) -> Dist:
    """The highest (or lowest) single die of a pool: a product of CDFs.

    Per kind of die, ``cdf[i]`` is P(die <= lo + i) for the highest and
    P(die >= lo + i) for the lowest; plain dice get it by arithmetic.
    """
    dists = {die: die_dist(die) for die in kinds if not die.plain}
    lo = min(dists[d].min if d in dists else 1 for d in kinds)
    hi = max(dists[d].max if d in dists else d.sides for d in kinds)
    charge((2 + 2 * len(kinds)) * (hi - lo + 1))
    joint = [1.0] * (hi - lo + 1)
    for die, count in kinds.items():
        if die in dists:
            d = dists[die]
            cdf = d.cdf() if highest else d.sf()
            cdf = [0.0] * (d.min - lo) + cdf + [1.0] * (hi - d.max) if highest else \
                [1.0] * (d.min - lo) + cdf + [0.0] * (hi - d.max)
        else:  # faces 1..s, and lo == 1 since a plain die is in the pool
            s = die.sides
            if highest:
                cdf = [v / s for v in range(1, s)] + [1.0] * (hi - s + 1)
            else:
                cdf = [(s - v + 1) / s for v in range(1, s + 1)] + [0.0] * (hi - s)
        if count > 1:
            cdf = [c ** count for c in cdf]
        joint = [j * c for j, c in zip(joint, cdf)]
    if highest:
        pmf = [joint[0]] + [b - a for a, b in zip(joint, joint[1:])]
    else:
        pmf = [a - b for a, b in zip(joint, joint[1:])] + [joint[-1]]
    return Dist._owned(lo, pmf)


def _plain_highest(kinds: dict[Die, int]) -> Dist:
    """The highest of plain dice, exactly, from counts of outcomes.

    With the kinds sorted by sides s_1 < s_2 < …, the highest die shows v,
    for s_{j-1} < v <= s_j, in (v^m - (v-1)^m) · s_1^c_1 ⋯ s_{j-1}^c_{j-1}
    outcomes: the m dice with s_j or more sides show 1..v and not all of
    them less, the smaller ones anything. Each probability is rounded once,
    when divided by the number of all outcomes.
    """
    kinds_up = sorted(kinds.items())  # plain dice differ in their sides only
    m, outcomes = 0, 1
    for die, count in kinds_up:
        m += count
        outcomes *= die.sides ** count
    charge(kinds_up[-1][0].sides * (OUTPUT + m // 8))  # two powers of m-digit integers per value
    pmf: list[float] = []
    smaller, v = 1, 1  # the outcomes of the dice with fewer sides than v
    for die, count in kinds_up:
        sides = die.sides
        while v <= sides:
            pmf.append((v ** m - (v - 1) ** m) * smaller / outcomes)
            v += 1
        smaller *= sides ** count
        m -= count
    return Dist._owned(1, pmf)


def nth_highest(dists: Sequence[Dist], n: int) -> Dist:
    """The n-th highest of independent dice (n = 1: the highest; 2: what is left after removing it).

    P(n-th highest <= v) is the chance that at most n-1 dice exceed v: a
    Poisson-binomial count, built die by die for each v.
    """
    if not 1 <= n <= len(dists):
        raise ValueError("n out of range")
    lo = min(d.min for d in dists)
    hi = max(d.max for d in dists)
    charge((hi - lo + 1) * len(dists) * (2 + 2 * n))
    above = [[1.0 - c for c in [0.0] * (d.min - lo) + d.cdf() + [1.0] * (hi - d.max)] for d in dists]
    joint = []
    for i in range(hi - lo + 1):
        counts = [1.0] + [0.0] * n  # P(k dice above v) for k < n; the last cell gathers k >= n
        for q in (a[i] for a in above):
            nxt = [0.0] * (n + 1)
            for k, p in enumerate(counts):
                if p:
                    nxt[k] += p * (1.0 - q)
                    nxt[min(k + 1, n)] += p * q
            counts = nxt
        joint.append(1.0 - counts[n])  # exact 1 where fewer than n dice can be above
    pmf = [joint[0]] + [b - a for a, b in zip(joint, joint[1:])]
    return Dist._owned(lo, [max(0.0, x) for x in pmf])


def top_two(dists: Sequence[Dist]) -> dict[tuple[int, int | None], float]:
    """The joint chances of the highest and the second highest of independent dice (None for the second
    of a single die), built die by die over the pairs seen so far."""
    if not dists:
        raise ValueError("no dice")
    lo = min(d.min for d in dists)
    hi = max(d.max for d in dists)
    charge(len(dists) * (hi - lo + 1) ** 3)
    pairs: dict[tuple[int, int | None], float] = {(f, None): p for f, p in dists[0].pmf().items() if p}
    for d in dists[1:]:
        nxt: dict[tuple[int, int | None], float] = defaultdict(float)
        faces = [(f, q) for f, q in d.pmf().items() if q]
        for (top, second), p in pairs.items():
            for f, q in faces:
                if f >= top:
                    nxt[f, top] += p * q
                else:
                    nxt[top, f if second is None or f > second else second] += p * q
        pairs = dict(nxt)
    return pairs
