"""A parser for German and English dice notation: one regular-expression
pass into tokens, then recursive descent over them.

The grammar is written down in ``docs/wuerfelsprache.md``. ``parse`` returns
an immutable tree of ``nodes``; results without variables are cached.

The descent reads the token texts directly: a token is recognised by set
and dict lookups on its text (keywords in every spelling), and a number is
the only token that starts with a digit. Each rule takes the index of its
first token and returns its node with the index after it; positions in the
source are found again only when an error needs them.

Parsing a short expression for the first time in a process is dominated by
the first run of each function and line on the way, so the grammar has few
rules: ``sum`` (with its operands), ``dice`` (one group or a pool in braces,
with all modifiers) and ``call``; the rarer parts have their own methods.
"""

from __future__ import annotations

import re
from functools import lru_cache
from numbers import Integral
from typing import Mapping

from ..errors import DiceLimitError, DiceSyntaxError
from ..messages import t
from . import limits
from .nodes import Call, Chain, Const, Die, Group, Neg, Node, Paren, Pool, Selector, walk

_TOKEN = re.compile(r"\s*([0-9]+|[^\W\d_]+|<=|>=|@\w*|\S)")
_END = ""  # the token after the last one


def _spellings(word: str) -> list[str]:
    """Every text whose ``lower()`` is ``word``: any case, and the Kelvin sign for k."""
    out = [""]
    for c in word:
        out = [s + v for s in out for v in ("kK\u212a" if c == "k" else c + c.upper())]
    return out


_DIE = frozenset(_spellings("w") + _spellings("d"))
_KEEP = {s: word for word in ("kh", "kl", "dh", "dl") for s in _spellings(word)}
_REROLL = {s: word == "r" for word in ("r", "rr") for s in _spellings(word)}  # -> reroll once
_WORDS = _DIE | _KEEP.keys() | _REROLL.keys()
_DIE_MODIFIERS = _REROLL.keys() | {"!"}
_CMP = frozenset(("<", "<=", ">", ">=", "="))
_KEEP_TYPOS = frozenset(("k", "K", "kK"))  # 4W6k3: "kh" was meant
_POOL_MODIFIERS = _KEEP.keys() | _CMP | _KEEP_TYPOS
_OPERATORS = {"+": "+", "-": "-", "−": "-", "*": "*", "×": "*", "·": "*"}
_FUNCTIONS = ("max", "min")
_new = tuple.__new__  # builds a node without its Python-level __new__ (hot path)
# Numbers up to 100 and plain dice with up to 100 sides (and W%) are looked up by their
# text; anything else goes through ``number`` (and ``sides``).
_NUMBERS = {str(n): n for n in range(101)}
_PLAIN_DICE = {"%": Die(100), **{str(s): Die(s) for s in range(1, 101)}}


def _is_number(text: str) -> bool:
    return "0" <= text < ":"  # only numbers start with a digit (":" follows "9")


def parse(text: str, variables: Mapping[str, object] | None = None) -> Node:
    """Parse ``text``; ``@name`` is looked up in ``variables`` (int or expression)."""
    if not isinstance(text, str):
        raise DiceSyntaxError(t("dice.empty"))
    if variables is None or "@" not in text:
        return _parse_cached(text)
    return _parse(text, variables)


def _parse(src: str, variables: Mapping[str, object] | None = None, depth: int = 0) -> Node:
    """``src`` as a tree; ``depth``: the nesting it sits in (a variable's expression)."""
    if len(src) > limits.MAX_LENGTH:
        raise DiceLimitError(t("limit.length", n=len(src), max=limits.MAX_LENGTH))
    p = _Parser()
    p.src, p.toks, p.depth, p.n_dice, p.variables, p.wide = src, _TOKEN.findall(src), depth, 0, variables, False
    p.toks.append(_END)
    if p.toks[0] == _END:  # nothing but white space
        raise DiceSyntaxError(t("dice.empty"))
    node, k = p.sum(0)
    if p.toks[k] != _END:
        raise p.trailing(k)
    if p.wide:
        value_range(node)
    return node


_parse_cached = lru_cache(maxsize=4096)(_parse)


def value_range(node: Node) -> tuple[int, int]:
    """The least and greatest value ``node`` can take (dice at their extremes).

    Refuses a tree in which any part, or any step of a chain, can leave
    ±``MAX_VALUE``. Only products and variables' expressions can get there:
    without them, 1,000 dice and 2,000 characters of numbers stay far below.
    """
    kind = type(node)
    if kind is Const:
        return node[0], node[0]
    if kind is Pool:
        groups, keep, count, _ = node
        if count is not None:
            return 0, keep[1] if keep is not None else node.size
        highs = sorted((g.die.sides * (1 + (g.die.explode or 0)) for g in groups for _ in range(g.count)),
                       reverse=keep is None or keep[0] == "h")
        kept = keep[1] if keep is not None else len(highs)
        return kept, sum(highs[:kept])
    if kind is Paren:
        return value_range(node[0])
    if kind is Neg:
        lo, hi = value_range(node[0])
        return -hi, -lo
    if kind is Call:
        ranges = [value_range(a) for a in node.args]
        pick = max if node.name == "max" else min
        return pick(r[0] for r in ranges), pick(r[1] for r in ranges)
    ops, terms = node
    lo, hi = value_range(terms[0])
    for op, term in zip(ops, terms[1:]):
        a, b = value_range(term)
        if op == "+":
            lo, hi = lo + a, hi + b
        elif op == "-":
            lo, hi = lo - b, hi - a
        else:
            corners = (lo * a, lo * b, hi * a, hi * b)
            lo, hi = min(corners), max(corners)
        if max(-lo, hi) > limits.MAX_VALUE:
            raise DiceLimitError(t("limit.value", value=max(-lo, hi), max=limits.MAX_VALUE))
    return lo, hi


class _Parser:
    """The state of one parse: the source, its tokens, nesting depth and dice so far.

    ``wide``: whether the tree has a product or a variable's expression, whose
    values ``value_range`` must check.
    """

    __slots__ = ("depth", "n_dice", "src", "toks", "variables", "wide")

    # -- errors (kept out of the grammar methods, which stay short) -------
    def position(self, k: int) -> int:
        """The position in the source of token ``k``."""
        starts = [m.start(1) for m in _TOKEN.finditer(self.src)] + [len(self.src)]
        return starts[k]

    def error(self, message: str, at: int, suggestion: str | None = None,
              cls: type[DiceSyntaxError] = DiceSyntaxError, shift: int = 0) -> DiceSyntaxError:
        """An error at token ``at``, ``shift`` characters on."""
        return cls(message, self.src, self.position(at) + shift, suggestion)

    def fail(self, at: int, key: str, **fields: object) -> DiceSyntaxError:
        """The catalogue message ``key`` as an error at token ``at``."""
        return self.error(t(key, **fields), at)

    def limit(self, at: int, key: str, **fields: object) -> DiceLimitError:
        """The catalogue message ``key`` as a refused request at token ``at``."""
        return self.error(t(key, **fields), at, cls=DiceLimitError)

    def missing(self, k: int, expected: str, suggestion: str | None = None) -> DiceSyntaxError:
        """Token ``k`` is not what the catalogue key ``expected`` names."""
        text, expected = self.toks[k], t(expected)
        if text == _END:
            return self.error(t("dice.unexpected_end", expected=expected), k, suggestion)
        return self.error(t("dice.expected", expected=expected, found=text[0]), k, suggestion)

    def trailing(self, k: int) -> DiceSyntaxError:
        before, text, after = self.toks[k - 1:k + 2]
        suggestion = None
        if text.isalpha() and text not in _WORDS and _is_number(before) and _is_number(after):
            suggestion = t("suggest.die", suggestion=f"{before}W{after}")
        return self.error(t("dice.trailing", found=text[0]), k, suggestion)

    def too_deep(self, k: int) -> DiceLimitError:
        return self.limit(k, "limit.depth", max=limits.MAX_DEPTH)

    # -- checks --------------------------------------------------------
    def number(self, k: int, what: str = "dice.number") -> int:
        """The number at token ``k``; ``what`` is the catalogue key naming it in an error.

        The hot paths look numbers up to 100 up in ``_NUMBERS`` and call this
        for anything else.
        """
        text = self.toks[k]
        if not _is_number(text):
            raise self.missing(k, what)
        if len(text) > 9 and (len(text) > 10 or int(text) > limits.MAX_NUMBER):
            raise self.limit(k, "limit.number", n=text, max=limits.MAX_NUMBER)
        return int(text)

    def settled(self, die: Die, at: int) -> None:
        """Refuse a die whose reroll selector covers every face."""
        if die.reroll is not None and all(die.reroll(f) for f in range(1, die.sides + 1)):
            raise self.fail(at, "dice.reroll_all", sel=str(die.reroll), sides=die.sides)

    def count_dice(self, n: int, at: int) -> None:
        self.n_dice += n
        if self.n_dice > limits.MAX_DICE:
            raise self.limit(at, "limit.dice", n=self.n_dice, max=limits.MAX_DICE)

    # -- grammar -------------------------------------------------------
    def sum(self, k: int) -> tuple[Node, int]:
        """Terms joined by + and -, each a product of operands: a ``Chain`` of ``Chain``s.

        An operand is a signed number, dice, a pool, or what ``nested`` reads.
        Signs, numbers and dice are read here, inlined: every expression
        passes through.
        """
        toks = self.toks
        terms: list[Node] | None = None  # the terms so far (None while there is one)
        signs: list[str] | None = None  # the + or - before each term after the first (made with terms)
        factors: list[Node] | None = None  # the operands of the product being read
        while True:
            negs = 0  # minus signs before the operand, each a level of nesting
            text = toks[k]
            while True:
                if text == "-" or text == "−":
                    negs += 1
                    self.depth += 1
                    if self.depth > limits.MAX_DEPTH:
                        raise self.too_deep(k + 1)
                elif text != "+":  # a plus sign changes nothing
                    break
                k += 1
                text = toks[k]
            if text in _DIE or text == "{" or "0" <= text < ":" and toks[k + 1] in _DIE:
                node, k = self.dice(k, text == "{")
            elif "0" <= text < ":":  # a number
                value = _NUMBERS.get(text)
                node = _new(Const, (self.number(k) if value is None else value,))
                k += 1
            else:
                node, k = self.nested(k)
            if negs:
                self.depth -= negs
                for _ in range(negs):
                    node = Neg(node)
            op = _OPERATORS.get(toks[k])
            k += 1
            if op == "*":
                self.wide = True
                if factors is None:
                    factors = [node]
                else:
                    factors.append(node)
                continue
            if factors is not None:
                factors.append(node)
                node = _new(Chain, (("*",) * (len(factors) - 1), tuple(factors)))
                factors = None
            if op is None:
                if terms is None:
                    return node, k - 1
                terms.append(node)
                return _new(Chain, (tuple(signs), tuple(terms))), k - 1
            if terms is None:
                terms, signs = [node], [op]
            else:
                terms.append(node)
                signs.append(op)

    def nested(self, k: int) -> tuple[Node, int]:
        """A parenthesis, a function call ``max(…)``/``min(…)`` or a variable at token ``k``."""
        toks = self.toks
        text = toks[k]
        start = k
        if text == "(":
            name = None
        elif text[:1].isalpha() and toks[k + 1] == "(" and text not in _WORDS:
            name = text.lower()
            if name not in _FUNCTIONS:
                raise self.fail(k, "dice.unknown_function", name=text)
            k += 1
        elif text[:1] == "@":
            return self.variable(k)
        else:
            raise self.missing(k, "dice.operand")
        self.depth += 1
        if self.depth > limits.MAX_DEPTH:
            raise self.too_deep(k + 1)
        arg, k = self.sum(k + 1)  # after "("
        if name is None:
            node: Node = Paren(arg)
        else:
            args = [arg]
            while toks[k] == ",":
                arg, k = self.sum(k + 1)
                args.append(arg)
            node = _new(Call, (name, tuple(args)))
        if toks[k] != ")":
            raise self.missing(k, "dice.close_paren")
        self.depth -= 1
        if name is not None and len(args) < 2:
            raise self.fail(start, "dice.function_args", name=name)
        return node, k + 1

    def dice(self, k: int, braces: bool) -> tuple[Node, int]:
        """Dice from token ``k``: a pool in braces, or one group ``[count] letter sides``.

        Then the modifiers: for every die of a pool after its braces, and
        keep or count for the whole. One rule, inlined: this is the hot path
        of nearly every expression.
        """
        toks = self.toks
        start = k
        if braces:
            self.depth += 1
            k += 1
            if self.depth > limits.MAX_DEPTH:
                raise self.too_deep(k)
        groups = []
        n = 0  # dice so far
        while True:  # the groups, each from just after "{" or ","
            item = k
            text = toks[k]
            count = 1
            if "0" <= text < ":":
                count = _NUMBERS.get(text)
                if count is None:
                    count = self.number(k)
                k += 1
                text = toks[k]
            if text not in _DIE:
                raise self.missing(k, "dice.pool_item")
            k += 1
            die = _PLAIN_DICE.get(toks[k]) or _new(Die, (self.sides(k), None, True, None))
            k += 1
            if count < 1 and not braces:  # a single group is refused before its modifiers
                raise self.fail(item, "dice.no_dice", n=count)
            if toks[k] in _DIE_MODIFIERS:
                die, k = self.die_modifiers(die, k)
                self.settled(die, item)
            if count < 1:
                raise self.fail(item, "dice.no_dice", n=count)
            groups.append(_new(Group, (count, die)))
            n += count
            if not braces or toks[k] != ",":
                break
            k += 1
        if braces:
            if toks[k] != "}":
                raise self.missing(k, "dice.close_brace")
            self.depth -= 1
            k += 1
            if toks[k] in _DIE_MODIFIERS:
                k = self.share_modifiers(groups, k)
        self.count_dice(n, start)
        keep: tuple[str, int] | None = None
        count_sel: Selector | None = None
        while toks[k] in _POOL_MODIFIERS:
            text = toks[k]
            mod = _KEEP.get(text)
            if mod is not None:
                if keep is not None:
                    raise self.fail(k, "dice.keep_one")
                c = _NUMBERS.get(toks[k + 1])
                if c is None:
                    c = self.number(k + 1)
                keep = self.keep(mod, c, n, k)
                k += 2
            elif text in _CMP:
                if count_sel is not None:
                    raise self.fail(k, "dice.modifier_twice", mod=text)
                v = _NUMBERS.get(toks[k + 1])
                if v is None:
                    v = self.number(k + 1)
                count_sel = _new(Selector, (text, v))
                k += 2
            elif _is_number(toks[k + 1]):  # 4W6k3
                raise self.error(t("dice.expected", expected=t("dice.keep_modifiers"), found=text), k,
                                 t("suggest.keep", suggestion="kh" + toks[k + 1]))
            else:
                break
        return _new(Pool, (tuple(groups), keep, count_sel, braces)), k

    def sides(self, k: int) -> int:
        """The sides of a die at token ``k``, when not in the table of plain dice."""
        sides = self.number(k, "dice.sides")
        if sides < 1:
            raise self.fail(k, "dice.no_sides", sides=sides)
        if sides > limits.MAX_SIDES:
            raise self.limit(k, "limit.sides", sides=str(sides), max=limits.MAX_SIDES)
        return sides

    def keep(self, mod: str, c: int, n: int, k: int) -> tuple[str, int]:
        """``kh``/``kl``/``dh``/``dl`` ``c`` (token ``k``) of ``n`` dice as keep highest/lowest."""
        low = 1 if mod[0] == "k" else 0
        if not low <= c <= n - (1 - low):
            raise self.fail(k, "dice.keep_range", mod=mod, k=c, n=n, low=low, high=n - (1 - low))
        return ("h", c) if mod == "kh" else ("l", c) if mod == "kl" else \
            ("l", n - c) if mod == "dh" else ("h", n - c)

    def share_modifiers(self, groups: list[Group], k: int) -> int:
        """Give the die modifiers at token ``k`` (after a pool's braces) to every group."""
        shared, end = self.die_modifiers(Die(1), k)
        if any(not g.die.plain for g in groups):
            raise self.fail(k, "dice.modifier_twice", mod=shared.notation()[2:])
        for i, g in enumerate(groups):
            die = Die(g.die.sides, shared.reroll, shared.reroll_once, shared.explode)
            self.settled(die, k)
            groups[i] = Group(g.count, die)
        return end

    def die_modifiers(self, die: Die, k: int) -> tuple[Die, int]:
        toks = self.toks
        while True:
            text = toks[k]
            once = _REROLL.get(text)
            if once is not None:
                if die.reroll is not None:
                    raise self.fail(k, "dice.modifier_twice", mod="r")
                op = toks[k + 1]
                if op in _CMP:
                    k += 1
                else:
                    op = "="
                die = Die(die.sides, Selector(op, self.number(k + 1)), once, die.explode)
                k += 2
            elif text == "!":
                if die.explode is not None:
                    raise self.fail(k, "dice.modifier_twice", mod="!")
                if not _is_number(toks[k + 1]):
                    after = self.position(k) + 1
                    raise self.error(t("limit.explode", max=limits.MAX_EXPLODE), k,
                                     t("suggest.explode", suggestion=self.src[:after] + "3"),
                                     cls=DiceLimitError, shift=1)
                cap = self.number(k + 1)
                if cap > limits.MAX_EXPLODE:
                    raise self.limit(k + 1, "limit.explode_cap", cap=cap, max=limits.MAX_EXPLODE)
                die = Die(die.sides, die.reroll, die.reroll_once, cap)
                k += 2
            else:
                return die, k

    def variable(self, k: int) -> tuple[Node, int]:
        name = self.toks[k][1:]
        if not name:
            raise self.missing(k, "dice.operand")
        vars_ = self.variables or {}
        if name not in vars_:
            raise self.fail(k, "dice.variable_unknown", name=name)
        value = vars_[name]
        if isinstance(value, bool) or not isinstance(value, (Integral, str)):
            raise self.fail(k, "dice.variable_type", name=name, type=type(value).__name__)
        if isinstance(value, Integral):
            value = int(value)
            if abs(value) > limits.MAX_NUMBER:
                raise self.limit(k, "limit.variable", name=name, max=limits.MAX_NUMBER)
            node: Node = Neg(Const(-value)) if value < 0 else Const(value)
            return node, k + 1
        self.wide = True
        if self.depth >= limits.MAX_DEPTH:  # the expression counts as one level of parentheses
            raise self.too_deep(k)
        try:
            inner = _parse(value, None, self.depth + 1)
        except DiceSyntaxError as err:
            raise self.error(f"@{name}: {err.message}", k, cls=type(err)) from None
        self.count_dice(sum(node.size for node in walk(inner) if isinstance(node, Pool)), k)
        return Paren(inner), k + 1
