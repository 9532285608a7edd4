"""Property tests of the dice language.

1. Any text: ``parse``/``dist``/``roll`` fail only with ``DiceSyntaxError``.
2. Generated valid expressions over the whole language: every rolled total
   lies in the support of the exact distribution, which sums to 1.
3. Oracle: the exact distribution equals icepool's for the same structure.

Expressions are generated as small structures (below) and rendered twice:
as our notation (with random spelling variants) and as an icepool ``Die``.
"""

from __future__ import annotations

import functools
import math
import operator
from dataclasses import dataclass, replace

import icepool
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import rpgkernel
from rpgkernel import DiceSyntaxError
from rpgkernel.dice import parse

TOL = 1e-12
CMP = {"=": operator.eq, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


# -- 1. arbitrary text --------------------------------------------------------

_DICE_CHARS = list("0123456789WwDd%{},()+-*<>=!rkhld@ ") + list("RKHLmaxin_.")
_UNICODE = list("äöüÄÖÜß−×·²³¹½①٣۷𝟙Kİﬀ\u00a0\u2009\t\n\u200b\U0001f3b2")
_TOKENS = ["W6", "d20", "W%", "3", "10", "max(", "min(", "kh", "kl", "dh", "dl", "rr",
           "r<", "r>=", "!", "!3", ">=", "<=", "{", "}", ",", "(", ")", "@x", " "]

dice_like_text = st.lists(
    st.one_of(st.sampled_from(_DICE_CHARS), st.sampled_from(_UNICODE), st.sampled_from(_TOKENS)),
    max_size=30,
).map("".join)
any_text = st.one_of(st.text(max_size=40), dice_like_text)


@pytest.mark.slow
@settings(max_examples=600, suppress_health_check=[HealthCheck.too_slow])
@given(any_text)
@example("W²")  # str.isdigit() accepts superscripts, int() refuses them
@example("3W6kh²")
@example("W6!³")
def test_arbitrary_text_raises_only_dice_syntax_errors(text):
    try:
        parse(text)
    except DiceSyntaxError:
        return
    for compute in (rpgkernel.dist, lambda s: rpgkernel.roll(s, seed=1)):
        try:
            compute(text)
        except DiceSyntaxError:  # DiceLimitError included
            pass


# -- generated structures -------------------------------------------------------

@dataclass(frozen=True)
class Die:
    sides: int
    reroll: tuple[str, int, bool] | None = None  # (op, value, once)
    explode: int | None = None
    # spelling only
    letter: str = "W"
    percent: bool = False
    reroll_letters: str = "r"
    explicit_eq: bool = False
    explode_first: bool = False
    gap: str = ""  # before the modifiers

    def mods(self) -> str:
        parts = []
        if self.reroll is not None:
            op, value, once = self.reroll
            letters = self.reroll_letters if once else self.reroll_letters * 2
            parts.append(f"{letters}{'' if op == '=' and not self.explicit_eq else op}{value}")
        if self.explode is not None:
            parts.append(f"!{self.explode}")
        text = "".join(reversed(parts) if self.explode_first else parts)
        return self.gap + text if text else ""

    def text(self, with_mods: bool = True) -> str:
        sides = "%" if self.percent else str(self.sides)
        return f"{self.letter}{sides}{self.mods() if with_mods else ''}"

    def bounds(self) -> tuple[int, int]:
        return 1, self.sides * (1 + (self.explode or 0))

    def ice(self) -> icepool.Die:
        die = icepool.d(self.sides)
        if self.reroll is not None:
            op, value, once = self.reroll
            die = die.reroll(lambda f: CMP[op](f, value), depth=1 if once else "inf")
        if self.explode:
            # Only the die's top face explodes (not the top remaining after `rr`);
            # end=0 also makes a W1 (always exploding) well-defined.
            die = die.explode([self.sides], depth=self.explode, end=0)
        return die


@dataclass(frozen=True)
class Pool:
    groups: tuple[tuple[int, Die], ...]
    braces: bool = False
    shared: bool = False  # braces only: one set of die modifiers after '}'
    keep: tuple[str, int] | None = None  # ("kh"|"kl"|"dh"|"dl", k)
    count: tuple[str, int] | None = None  # (op, value)
    # spelling only
    one_prefix: bool = False
    space: str = ""
    upper_keep: bool = False

    @property
    def size(self) -> int:
        return sum(c for c, _ in self.groups)

    def text(self) -> str:
        def item(c: int, d: Die) -> str:
            return f"{c if c > 1 or self.one_prefix else ''}{d.text(not self.shared)}"
        if self.braces:
            text = "{" + ("," + self.space).join(item(c, d) for c, d in self.groups) + "}"
            if self.shared:
                text += self.groups[0][1].mods()
        else:
            text = item(*self.groups[0])
        if self.keep is not None:
            kind = self.keep[0].upper() if self.upper_keep else self.keep[0]
            text += f"{self.space}{kind}{self.keep[1]}"
        if self.count is not None:
            text += f"{self.space}{self.count[0]}{self.count[1]}"
        return text

    def bounds(self) -> tuple[int, int]:
        if self.count is not None:
            return 0, self.size
        return self.size, sum(c * d.bounds()[1] for c, d in self.groups)

    def ice(self) -> icepool.Die:
        dice = [d.ice() for c, d in self.groups for _ in range(c)]
        if self.keep is None and self.count is None:
            return functools.reduce(operator.add, dice)
        kept = icepool.Pool(dice)
        if self.keep is not None:
            kind, k = self.keep
            if kind == "kh":
                kept = kept.highest(k)
            elif kind == "kl":
                kept = kept.lowest(k)
            elif kind == "dh":
                kept = kept.highest(drop=k)  # drop the k highest, keep the rest
            else:
                kept = kept.lowest(drop=k)
        if self.count is None:
            return kept.sum()
        op, value = self.count
        return kept.keep_outcomes(lambda o: CMP[op](o, value)).size()


@dataclass(frozen=True)
class Const:
    value: int

    def text(self) -> str:
        return str(self.value)

    def bounds(self) -> tuple[int, int]:
        return self.value, self.value

    def ice(self) -> icepool.Die:
        return icepool.Die([self.value])


@dataclass(frozen=True)
class Sign:
    operand: object
    symbol: str = "-"  # '-'/'−' negate, '+' is transparent

    def bounds(self) -> tuple[int, int]:
        lo, hi = self.operand.bounds()
        return (lo, hi) if self.symbol == "+" else (-hi, -lo)

    def ice(self) -> icepool.Die:
        return self.operand.ice() if self.symbol == "+" else -self.operand.ice()


@dataclass(frozen=True)
class Paren:
    inner: object

    def bounds(self) -> tuple[int, int]:
        return self.inner.bounds()

    def ice(self) -> icepool.Die:
        return self.inner.ice()


@dataclass(frozen=True)
class Bin:
    op: str  # '+', '-', '*'
    left: object
    right: object
    symbol: str = ""  # spelling of op ('−', '×', '·'), default op
    space: str = ""

    def bounds(self) -> tuple[int, int]:
        (a, b), (c, d) = self.left.bounds(), self.right.bounds()
        if self.op == "+":
            return a + c, b + d
        if self.op == "-":
            return a - d, b - c
        corners = [a * c, a * d, b * c, b * d]
        return min(corners), max(corners)

    def ice(self) -> icepool.Die:
        f = {"+": operator.add, "-": operator.sub, "*": operator.mul}[self.op]
        return f(self.left.ice(), self.right.ice())


@dataclass(frozen=True)
class Call:
    name: str  # 'max' | 'min'
    args: tuple
    upper: bool = False
    sep: str = ", "

    def bounds(self) -> tuple[int, int]:
        bs = [a.bounds() for a in self.args]
        pick = max if self.name == "max" else min
        return pick(b[0] for b in bs), pick(b[1] for b in bs)

    def ice(self) -> icepool.Die:
        pick = icepool.highest if self.name == "max" else icepool.lowest
        return pick(*(a.ice() for a in self.args))


ATOM, UNARY, PRODUCT, SUM = 3, 2, 1, 0


def render(node) -> tuple[str, int]:
    """Our notation of ``node`` and its precedence level."""
    if isinstance(node, (Pool, Const)):
        return node.text(), ATOM
    if isinstance(node, Paren):
        return f"({render(node.inner)[0]})", ATOM
    if isinstance(node, Call):
        name = node.name.upper() if node.upper else node.name
        return f"{name}(" + node.sep.join(render(a)[0] for a in node.args) + ")", ATOM
    if isinstance(node, Sign):
        return node.symbol + wrap(node.operand, UNARY), UNARY
    if isinstance(node, Bin):
        level = PRODUCT if node.op == "*" else SUM
        left, right = wrap(node.left, level), wrap(node.right, level + 1)
        return f"{left}{node.space}{node.symbol or node.op}{node.space}{right}", level
    raise TypeError(node)


def wrap(node, level: int) -> str:
    text, own = render(node)
    return text if own >= level else f"({text})"


def notation(node) -> str:
    return render(node)[0]


def width(node) -> int:
    lo, hi = node.bounds()
    return hi - lo + 1


# -- strategies ------------------------------------------------------------------

SIDES = [1, 2, 3, 4, 6, 8, 10, 12, 20, 100]
letters = st.sampled_from("WwdD")


def selectors(top: int) -> st.SearchStrategy[tuple[str, int]]:
    return st.tuples(st.sampled_from(list(CMP)), st.integers(0, top + 1))


def rerolls(sides: tuple[int, ...]) -> st.SearchStrategy:
    """A reroll that leaves some face of every die in ``sides`` standing."""
    return st.tuples(selectors(max(sides)), st.booleans()).map(lambda t: (*t[0], t[1])).filter(
        lambda r: all(not all(CMP[r[0]](f, r[1]) for f in range(1, s + 1)) for s in sides))


@st.composite
def die_mods(draw, sides: tuple[int, ...]) -> dict:
    """Reroll/explode for dice of the given sizes (no explosion of big dice)."""
    mods: dict = {}
    if draw(st.booleans()):
        mods["reroll"] = draw(rerolls(sides))
    if max(sides) <= 12 and draw(st.booleans()):
        mods["explode"] = draw(st.integers(0, 3 if max(sides) <= 6 else 2))
    mods.update(reroll_letters=draw(st.sampled_from("rR")), explicit_eq=draw(st.booleans()),
                explode_first=draw(st.booleans()), gap=draw(st.sampled_from(["", "", " "])))
    return mods


@st.composite
def dice(draw, sides: int | None = None, mods: dict | None = None) -> Die:
    sides = draw(st.sampled_from(SIDES)) if sides is None else sides
    mods = draw(die_mods((sides,))) if mods is None else mods
    percent = sides == 100 and draw(st.booleans())
    return Die(sides, letter=draw(letters), percent=percent, **mods)


@st.composite
def pools(draw) -> Pool:
    braces = draw(st.booleans())
    shared = False
    if not braces:
        die = draw(dice())
        n = draw(st.integers(1, 2 if die.sides == 100 else 4))
        groups = ((n, die),)
    else:
        sizes = draw(st.lists(st.sampled_from(SIDES[:-1]), min_size=1, max_size=3))
        counts = draw(st.lists(st.integers(1, 2), min_size=len(sizes), max_size=len(sizes)))
        while sum(counts) > 4:
            counts[counts.index(max(counts))] -= 1
        shared = draw(st.booleans())
        if shared:
            mods = draw(die_mods(tuple(sizes)))
            groups = tuple((c, draw(dice(s, mods))) for c, s in zip(counts, sizes))
        else:
            groups = tuple((c, draw(dice(s))) for c, s in zip(counts, sizes))
    n = sum(c for c, _ in groups)
    keep = None
    if draw(st.booleans()):
        kind = draw(st.sampled_from(["kh", "kl", "dh", "dl"]))
        k = draw(st.integers(1, n) if kind[0] == "k" else st.integers(0, n - 1))
        keep = (kind, k)
    count = draw(st.none() | selectors(max(d.bounds()[1] for _, d in groups)))
    return Pool(groups, braces, shared, keep, count, one_prefix=draw(st.booleans()),
                space=draw(st.sampled_from(["", " "])), upper_keep=draw(st.booleans()))


consts = st.builds(Const, st.integers(0, 12))
leaves = st.one_of(pools(), pools(), consts)
spaces = st.sampled_from(["", " "])
LENIENT = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
MAX_PRODUCT = 4_000  # outcome pairs of one product, to keep icepool fast


def _extend(children):
    sums = st.builds(Bin, st.sampled_from("+-"), children, children,
                     st.sampled_from(["", "", "−"]), spaces).map(
        lambda b: b if b.op == "-" else replace(b, symbol=""))
    products = st.builds(Bin, st.just("*"), children, children,
                         st.sampled_from(["", "×", "·"]), spaces).filter(
        lambda b: width(b.left) * width(b.right) <= MAX_PRODUCT)
    return st.one_of(
        sums,
        products,
        st.builds(Sign, children, st.sampled_from(["-", "-", "−", "+"])),
        st.builds(Paren, children),
        st.builds(Call, st.sampled_from(["max", "min"]),
                  st.lists(children, min_size=2, max_size=3).map(tuple), st.booleans(),
                  st.sampled_from([", ", ",", " , "])),
    )


expressions = st.recursive(leaves, _extend, max_leaves=5).filter(lambda n: width(n) <= 3_000)


# -- 2. rolls lie in the support -------------------------------------------------

@pytest.mark.slow
@settings(LENIENT, max_examples=250)
@given(expressions, st.lists(st.integers(0, 2**32 - 1), min_size=3, max_size=3, unique=True))
def test_rolls_lie_in_the_support_and_the_pmf_sums_to_one(node, seeds):
    text = notation(node)
    d = rpgkernel.dist(text)
    pmf = d.pmf()
    assert math.isclose(sum(pmf.values()), 1.0, rel_tol=0, abs_tol=TOL), text
    assert all(p > 0 for p in pmf.values()), text
    support = set(d.support)
    assert support == set(pmf)
    for seed in seeds:
        total = rpgkernel.roll(text, seed=seed).total
        assert total in support, (text, seed, total)


# -- 3. oracle: icepool ----------------------------------------------------------

def icepool_pmf(node) -> dict[int, float]:
    die = node.ice()
    den = die.denominator()
    return {int(o): q / den for o, q in die.items() if q}


def _check_against_icepool(node) -> str:
    text = notation(node)
    ours = rpgkernel.dist(text).pmf()
    theirs = icepool_pmf(node)
    diffs = {o: (ours.get(o, 0.0), theirs.get(o, 0.0)) for o in set(ours) | set(theirs)
             if abs(ours.get(o, 0.0) - theirs.get(o, 0.0)) > TOL}
    assert not diffs, f"{text}: outcome -> (ours, icepool) {sorted(diffs.items())[:8]}"
    return text


@pytest.mark.slow
def test_exact_distributions_match_icepool():
    compared: set[str] = set()

    @settings(LENIENT, max_examples=320)
    @given(expressions)
    def check(node):
        compared.add(_check_against_icepool(node))

    check()
    assert len(compared) >= 200, f"only {len(compared)} distinct expressions compared"


@pytest.mark.slow
@settings(LENIENT, max_examples=200)
@given(expressions)
@example(Pool(((3, Die(6)),), count=(">=", 1)))  # every die succeeds: only 3 is possible
def test_support_matches_icepool_exactly(node):
    """No outcome may get a (float-noise) probability that icepool says is impossible."""
    text = notation(node)
    ours = set(rpgkernel.dist(text).support)
    theirs = set(icepool_pmf(node))
    assert ours == theirs, (text, sorted(ours - theirs), sorted(theirs - ours))


@pytest.mark.parametrize(("node", "text", "pmf"), [
    (Pool(((2, Die(6, reroll=("=", 6, False), explode=2)),)), "2W6rr6!2",
     {n: (5 - abs(n - 6)) / 25 for n in range(2, 11)}),      # no 6 left to explode
    (Pool(((1, Die(1, explode=3)),)), "W1!3", {4: 1.0}),
    (Pool(((1, Die(6, reroll=("=", 1, True))),)), "W6r1",
     {1: 1 / 36, **{n: 7 / 36 for n in range(2, 7)}}),
    (Pool(((1, Die(6, explode=1)),)), "W6!1", {**{n: 1 / 6 for n in range(1, 6)},
                                                **{n: 1 / 36 for n in range(7, 13)}}),
    (Pool(((1, Die(2)), (1, Die(3))), braces=True, keep=("dh", 0)), "{W2,W3}dh0",
     {2: 1 / 6, 3: 2 / 6, 4: 2 / 6, 5: 1 / 6}),
    (Pool(((1, Die(2)), (1, Die(4))), braces=True, keep=("dl", 1)), "{W2,W4}dl1",
     {1: 1 / 8, 2: 3 / 8, 3: 2 / 8, 4: 2 / 8}),
    (Pool(((3, Die(6)),), keep=("kh", 1), count=(">=", 5)), "3W6kh1>=5",
     {0: 8 / 27, 1: 19 / 27}),
    (Pool(((2, Die(6)),), keep=("kl", 1), count=(">=", 5)), "2W6kl1>=5", {0: 8 / 9, 1: 1 / 9}),
    (Call("max", (Pool(((1, Die(4)),)), Sign(Pool(((1, Die(6)),))), Const(2))),
     "max(W4, -W6, 2)", {2: 0.5, 3: 0.25, 4: 0.25}),
    (Bin("*", Sign(Const(2)), Bin("-", Const(1), Const(3))), "-2*(1-3)", {4: 1.0}),
])
def test_oracle_mapping_on_known_cases(node, text, pmf):
    """The generator's notation and icepool mapping against hand-computed values."""
    assert notation(node) == text
    theirs = icepool_pmf(node)
    assert set(theirs) == set(pmf)
    assert all(abs(theirs[o] - p) <= TOL for o, p in pmf.items())
