"""A parser for German and English dice notation: one regular-expression
pass into tokens, then recursive descent over them.

The grammar is written down in ``docs/wuerfelsprache.md``. ``parse`` returns
an immutable tree of ``nodes``; results without variables are cached.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from numbers import Integral
from typing import Mapping, cast

from ..errors import DiceLimitError, DiceSyntaxError
from ..messages import t
from . import limits
from .nodes import (DIVISION, OTHERWISE, ROUNDING, Call, Chain, Compare, Const, Die, Fate, Group, Label, Neg, Node,
                    Paren, Pool, Selector, Set, notation, walk)

_END = ""  # the token after the last one


def _spellings(word: str) -> list[str]:
    """Every text whose ``lower()`` is ``word``: any case, and the Kelvin sign for k."""
    out = [""]
    for c in word:
        out = [s + v for s in out for v in ("kK\u212a" if c == "k" else c + c.upper())]
    return out


def _words(*words: str, to: str | None = None) -> dict[str, str]:
    """Every spelling of each word -> ``to`` (or the word itself)."""
    return {s: word if to is None else to for word in words for s in _spellings(word)}


_DIE = frozenset(_spellings("w") + _spellings("d"))
_FATE = frozenset(_spellings("wf") + _spellings("df"))  # Fate dice: 4WF, 4dF
_DICE = _DIE | _FATE  # what makes an operand dice
_DROP_LOW = frozenset(_spellings("d"))  # Roll20's and Foundry's 4d6d1: drop the lowest
# keep and drop: by rank (kh, kl, dh, dl; d20's ph, pl), k N (the N highest), d20's k/p selectors
_KEEP = {**_words("kh", "kl", "dh", "dl"), **_words("ph", to="dh"), **_words("pl", to="dl"),
         **_words("k"), **_words("p")}
_REROLL = {**dict.fromkeys(_spellings("r") + _spellings("ro"), True),
           **dict.fromkeys(_spellings("rr"), False)}  # -> reroll once
# explosions: ! (cap N, or a range !>=9), !!, Foundry's x and xo, d20's e and ra; bounds: mi/min, ma/max
_EXPLODE = {"!": "!", **_words("x", "e", to="x"), **_words("xo"), **_words("ra")}
_BOUNDS = {**_words("mi", "min", to="mi"), **_words("ma", "max", to="ma")}
_COUNT = {**_words("cs"), **_words("cf"), **_words("f", to="cf")}  # Foundry's cs/cf, Roll20's f
_FAILS = frozenset(w for w, word in _COUNT.items() if word == "cf")
# d20's rerolls, explosions and bounds of dice chosen by rank (1d6rol1): refused with a reason
_RANKED = _words(*(m + side for m in ("r", "ro", "rr", "ra", "e", "mi", "ma") for side in "hl"))
_WORDS = _DIE | _KEEP.keys() | _REROLL.keys() | _EXPLODE.keys() | _COUNT.keys() | _RANKED.keys() | \
    frozenset(_spellings("mi") + _spellings("ma"))
_DIE_MODIFIERS = _REROLL.keys() | _EXPLODE.keys() | _BOUNDS.keys() | _RANKED.keys()
_CMP = frozenset(("<", "<=", ">", ">=", "="))
_COMPARE = {"<": "<", "<=": "<=", ">": ">", ">=": ">=", "=": "=", "==": "=", "!=": "!="}  # of totals
_POOL_MODIFIERS = _KEEP.keys() | _CMP | _COUNT.keys() | _DROP_LOW
_SET_MODIFIERS = _KEEP.keys()
_BY_RANK = frozenset(("kh", "kl", "dh", "dl"))  # keep and drop by rank (_KEEP)
_PRODUCTS = frozenset(("*", "/", "%"))  # the operators of a product
_OPERATORS = {"+": "+", "-": "-", "−": "-", "*": "*", "×": "*", "·": "*", "/": "/", "//": "/", "%": "%"}
_FUNCTIONS = {"max": "max", "min": "min", "aufrunden": "aufrunden", "ceil": "aufrunden",
              "abrunden": "abrunden", "floor": "abrunden", "runden": "runden", "round": "runden"}
_new = tuple.__new__  # builds a node without its Python-level __new__ (hot path)
# Numbers up to 100 and plain dice with up to 100 sides (and W%) are looked up by their
# text; anything else goes through ``number`` (and ``sides``).
_NUMBERS = {str(n): n for n in range(101)}
_PLAIN_DICE = {"%": Die(100), **{str(s): Die(s) for s in range(1, 101)}}


def _trie(words: list[str]) -> str:
    """A regular expression for any of ``words``, a branch per first letter, the longest match first."""
    rests: dict[str, list[str]] = {}
    for w in words:
        rests.setdefault(w[0], []).append(w[1:])
    out = []
    for c, tails in sorted(rests.items()):
        longer = [r for r in tails if r]
        out.append(re.escape(c) if not longer else
                   f"{re.escape(c)}(?:{_trie(longer)})" + ("?" if "" in tails else ""))
    return "|".join(out)


_MODIFIER_WORDS = {w.lower() for w in (*_KEEP, *_REROLL, *_EXPLODE, *_BOUNDS, *_COUNT, *_RANKED)} - {"!"}
_MOD = _trie(sorted(_MODIFIER_WORDS))
_FIRST = "".join(sorted({w[0] for w in _MODIFIER_WORDS}))
_LETTER = r"[^\W\d_]"
_MAX_JOINED = 8  # letters of a run that is split into modifier words at most
# A token: a number, a character that is a token alone, a comparison of two characters, a die's
# letter, a modifier word alone, a modifier word (the longest) where the rest of its run of letters
# is modifier words too (W6xkh3, khcs: a run of at most _MAX_JOINED letters), any other run of
# letters (a word), a label, // or another character. The most frequent come first: each
# alternative tried costs time for every token.
_TOKEN = re.compile(rf"""\s*([0-9]+|[{{}},()+*%-]|[<>=!]=|[wWdD](?!{_LETTER})|(?i:(?:{_MOD})(?!{_LETTER}))
    |(?i:(?=[{_FIRST}]{_LETTER}{{0,{_MAX_JOINED - 1}}}(?!{_LETTER}))(?:{_MOD})(?=(?:{_MOD})*(?!{_LETTER})))
    |{_LETTER}+|\[[^\]]*\]|//|@\w*|\S)""", re.VERBOSE)


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
        node = p.comment(node, k)
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
    return _RANGES[type(node)](node)


def _kept_range(ranges: list[tuple[int, int]], kept: int, where: object) -> tuple[int, int]:
    """The range of the sum of the ``kept`` items of ``ranges`` (each 0 too where a comparison counts)."""
    if where is not None:
        ranges = [(min(lo, 0), max(hi, 0)) for lo, hi in ranges]
    return sum(sorted(r[0] for r in ranges)[:kept]), sum(sorted((r[1] for r in ranges), reverse=True)[:kept])


def _pool_range(node: Pool) -> tuple[int, int]:
    groups, keep, count, _, fail, where = node
    kept = keep[1] if keep is not None else node.size
    if count is not None:
        return -kept if fail is not None else 0, kept
    return _kept_range([g.die.value_range() for g in groups for _ in range(g.count)], kept, where)


def _set_range(node: Set) -> tuple[int, int]:
    ranges = [value_range(i) for i in node.items]
    return _kept_range(ranges, node.keep[1] if node.keep is not None else len(ranges), node.where)


def _compare_range(node: Compare) -> tuple[int, int]:
    value_range(node.left)
    value_range(node.right)
    return 0, 1


def _neg_range(node: Neg) -> tuple[int, int]:
    lo, hi = value_range(node[0])
    return -hi, -lo


def _call_range(node: Call) -> tuple[int, int]:
    ranges = [value_range(a) for a in node.args]
    if len(ranges) == 1:  # a rounding function
        return ranges[0]
    pick = max if node.name == "max" else min
    return pick(r[0] for r in ranges), pick(r[1] for r in ranges)


def _chain_range(node: Chain) -> tuple[int, int]:
    ops, terms = node
    lo, hi = value_range(terms[0])
    for op, term in zip(ops, terms[1:]):
        lo, hi = _step_range(op, (lo, hi), value_range(term), term)
        if max(-lo, hi) > limits.MAX_VALUE:
            raise DiceLimitError(t("limit.value", value=max(-lo, hi), max=limits.MAX_VALUE))
    return lo, hi


def _step_range(op: str, left: tuple[int, int], right: tuple[int, int], term: Node) -> tuple[int, int]:
    """The range of ``left op right`` (``term``: the right operand, named when it can be zero in a division)."""
    (lo, hi), (a, b) = left, right
    if op == "+":
        return lo + a, hi + b
    if op == "-":
        return lo - b, hi - a
    if op == "*":
        corners = (lo * a, lo * b, hi * a, hi * b)
        return min(corners), max(corners)
    if a <= 0 <= b:
        raise DiceSyntaxError(t("dice.divide_zero", divisor=notation(term)))
    if op == "%":
        return (0, b - 1) if a > 0 else (a + 1, 0)
    quotients = [divide(x, y, op) for x in (lo, hi) for y in (a, b)]   # monotone while the divisor keeps its sign
    return min(quotients), max(quotients)


_RANGES = {
    Const: lambda node: (node[0], node[0]),
    Pool: _pool_range,
    Paren: lambda node: value_range(node[0]),
    Label: lambda node: value_range(node[0]),
    Fate: lambda node: (-node.count, node.count),
    Compare: _compare_range,
    Set: _set_range,
    Neg: _neg_range,
    Call: _call_range,
    Chain: _chain_range,
}


def _explode_chance(die: Die) -> float:
    """The chance that one roll of ``die`` (after its rerolls) shows a face that explodes."""
    sides, sel = die.sides, die.reroll
    p = [1.0 / sides] * sides
    if sel is not None:
        hit = [sel(f) for f in range(1, sides + 1)]
        p_sel = sum(hit) / sides
        p = [(0.0 if h else q) + p_sel * q for h, q in zip(hit, p)] if die.reroll_once else \
            [0.0 if h else q / (1.0 - p_sel) for h, q in zip(hit, p)]
    return sum(q for f, q in zip(range(1, sides + 1), p) if die.explodes(f))


def divide(a: int, b: int, op: str) -> int:
    """``a / b`` rounded as ``op`` says: ``/`` down, ``/^`` up, ``/~`` to the nearest (halves away from zero)."""
    if op == "/":
        return a // b
    if op == "/^":
        return -(-a // b)
    q, r = divmod(abs(a), abs(b))
    q += 2 * r >= abs(b)
    return q if (a < 0) == (b < 0) else -q


def _rounded(node: Node, op: str) -> Node:
    """``node`` with its divisions rounding as ``op`` (not those inside another function, a set or a pool)."""
    if type(node) is Chain:
        return Chain(tuple(op if o[0] == "/" else o for o in node.ops), tuple(_rounded(t, op) for t in node.terms))
    if type(node) is Paren:
        return Paren(_rounded(node.inner, op))
    if type(node) is Neg:
        return Neg(_rounded(node.operand, op))
    if type(node) is Label:
        return node._replace(inner=_rounded(node.inner, op))
    return node


class _Parser:
    """The state of one parse: the source, its tokens, nesting depth and dice so far.

    ``wide``: whether the tree has a product or a variable's expression, whose
    values ``value_range`` must check.
    """

    __slots__ = ("depth", "n_dice", "src", "toks", "variables", "wide")
    src: str
    toks: list[str]
    depth: int
    n_dice: int
    variables: Mapping[str, object] | None
    wide: bool

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
        return cast(DiceLimitError, self.error(t(key, **fields), at, cls=DiceLimitError))

    def missing(self, k: int, expected: str, suggestion: str | None = None) -> DiceSyntaxError:
        """Token ``k`` is not what the catalogue key ``expected`` names."""
        text, expected = self.toks[k], t(expected)
        if text == _END:
            return self.error(t("dice.unexpected_end", expected=expected), k, suggestion)
        return self.error(t("dice.expected", expected=expected, found=text[0]), k, suggestion)

    def trailing(self, k: int) -> DiceSyntaxError:
        before, text, after = self.toks[k - 1:k + 2]
        suggestion = None
        # 3X6: a number, a letter, a number -- unless the number before is a die's sides (1d6y6)
        if text.isalpha() and text not in _DIE and _is_number(before) and _is_number(after) and \
                (k < 2 or self.toks[k - 2] not in _DIE):
            suggestion = t("suggest.die", suggestion=f"{before}W{after}")
        return self.error(t("dice.trailing", found=text[0]), k, suggestion)

    def comment(self, node: Node, k: int) -> Node:
        """``node`` with the rest of the source from token ``k`` as its comment (``W20+5 Angriff``).

        A comment starts after white space with a word that is not part of the language.
        """
        text = self.toks[k]
        start = self.position(k)
        if not (text[:1].isalpha() and text not in _WORDS and text.lower() not in _FUNCTIONS
                and start > 0 and self.src[start - 1].isspace()):
            raise self.trailing(k)
        return Label(node, self.src[start:].strip(), True)

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
        """Refuse a die whose reroll-until selector (``rr``) covers every face."""
        if die.reroll is not None and not die.reroll_once and \
                all(die.reroll(f) for f in range(1, die.sides + 1)):
            raise self.fail(at, "dice.reroll_all", sel=str(die.reroll), sides=die.sides)

    def count_dice(self, n: int, at: int) -> None:
        self.n_dice += n
        if self.n_dice > limits.MAX_DICE:
            raise self.limit(at, "limit.dice", n=self.n_dice, max=limits.MAX_DICE)

    # -- grammar -------------------------------------------------------
    def compared(self, left: Node, k: int) -> tuple[Node, int]:
        """``left`` compared with the sum after the comparison at token ``k`` (``W20+5>=15``, ``1 == 1``):
        1 if the comparison holds, else 0."""
        right, end = self.sum(k + 1, False)
        return _new(Compare, (_COMPARE[self.toks[k]], left, right)), end

    def sum(self, k: int, compare: bool = True) -> tuple[Node, int]:
        """Terms joined by + and -, each a product of operands: a ``Chain`` of ``Chain``s;
        and, if ``compare``, a comparison with another sum after them (``compared``).

        An operand (``operand``) is a signed number, dice, a pool, or what
        ``nested`` reads: every expression passes through.
        """
        toks = self.toks
        terms: list[Node] | None = None  # the terms so far (None while there is one)
        signs: list[str] = []  # the + or - before each term after the first (made with terms)
        factors: list[Node] | None = None  # the operands of the product being read
        while True:
            node, k = self.operand(k)
            op = _OPERATORS.get(toks[k])
            k += 1
            if op in _PRODUCTS:
                self.wide = True
                if factors is None:
                    factors, products = [node], [op]
                else:
                    factors.append(node)
                    products.append(op)
                continue
            if factors is not None:
                factors.append(node)
                node = _new(Chain, (tuple(products), tuple(factors)))
                factors = None
            if op is None:
                if terms is not None:
                    terms.append(node)
                    node = _new(Chain, (tuple(signs), tuple(terms)))
                if compare and toks[k - 1] in _COMPARE:
                    return self.compared(node, k - 1)
                return node, k - 1
            if terms is None:
                terms, signs = [node], [op]
            else:
                terms.append(node)
                signs.append(op)

    def operand(self, k: int) -> tuple[Node, int]:
        """The operand at token ``k`` with the signs before it and a label after it (``-2W6[Feuer]``)."""
        toks = self.toks
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
        if text in _DICE or text == "{" or "0" <= text < ":" and toks[k + 1] in _DICE:
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
        if toks[k] not in _OPERATORS and toks[k] != _END and toks[k][0] == "[":  # a label: 2W6[Feuer]
            node = _new(Label, (node, toks[k][1:-1].strip(), False))
            k += 1
        return node, k

    def nested(self, k: int) -> tuple[Node, int]:
        """A parenthesis, a function call ``max(…)``/``min(…)`` or a variable at token ``k``."""
        toks = self.toks
        text = toks[k]
        start = k
        if text == "(":
            name = None
        elif text[:1].isalpha() and toks[k + 1] == "(" and text not in _WORDS:
            name = _FUNCTIONS.get(text.lower())
            if name is None:
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
        args = [arg]
        while toks[k] == ",":
            if name is None and toks[k + 1] == ")":  # (1,): a set of one
                k += 1
                break
            arg, k = self.sum(k + 1)
            args.append(arg)
        if toks[k] != ")":
            raise self.missing(k, "dice.close_paren")
        self.depth -= 1
        k += 1
        if name is None:
            if len(args) == 1 and toks[k - 2] != "," and toks[k] not in _SET_MODIFIERS:
                return Paren(arg), k
            keep, where, k = self.selection(k, len(args), sets=True)
            return _new(Set, (tuple(args), keep, where)), k
        if name in ROUNDING:
            if len(args) != 1:
                raise self.fail(start, "dice.rounding_args", name=name)
            return _new(Call, (name, (_rounded(arg, DIVISION[name]),))), k
        if len(args) < 2:
            raise self.fail(start, "dice.function_args", name=name)
        return _new(Call, (name, tuple(args))), k

    def dice(self, k: int, braces: bool) -> tuple[Node, int]:
        """Dice from token ``k``: a pool in braces, or one group ``[count] letter sides``.

        Then the modifiers: for every die of a pool after its braces, and
        keep or count for the whole. The hot path of nearly every expression:
        the common cases are inlined in the steps.
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
            count, k = self.group_count(k)
            if toks[k] not in _DIE:
                if toks[k] in _FATE and not braces:
                    return self.fate(count, item, k)
                raise self.missing(k, "dice.pool_item")
            group, k = self.group(count, item, k + 1, braces)
            groups.append(group)
            n += count
            if not braces or toks[k] != ",":
                break
            k += 1
        if braces:
            k = self.close_braces(groups, k)
        self.count_dice(n, start)
        keep, where, count_sel, fail, k = self.pool_modifiers(k, n)
        return _new(Pool, (tuple(groups), keep, count_sel, braces, fail, where)), k

    def group_count(self, k: int) -> tuple[int, int]:
        """The count of dice before a group's letter at token ``k`` (1 without one), and the next token."""
        text = self.toks[k]
        if "0" <= text < ":":
            count = _NUMBERS.get(text)
            return (self.number(k) if count is None else count), k + 1
        return 1, k

    def group(self, count: int, item: int, k: int, braces: bool) -> tuple[Group, int]:
        """The group of ``count`` dice whose sides stand at token ``k``, with its dice's modifiers."""
        toks = self.toks
        die = _PLAIN_DICE.get(toks[k]) or _new(Die, (self.sides(k), None, True, None, None, False, None, None))
        k += 1
        if count < 1 and not braces:  # a single group is refused before its modifiers
            raise self.fail(item, "dice.no_dice", n=count)
        if toks[k] in _DIE_MODIFIERS:
            die, k = self.die_modifiers(die, k)
            self.settled(die, item)
        if count < 1:
            raise self.fail(item, "dice.no_dice", n=count)
        return _new(Group, (count, die)), k

    def close_braces(self, groups: list[Group], k: int) -> int:
        """The ``}`` at token ``k`` and the modifiers after it, which every die of the pool shares."""
        if self.toks[k] != "}":
            raise self.missing(k, "dice.close_brace")
        self.depth -= 1
        k += 1
        if self.toks[k] in _DIE_MODIFIERS:
            k = self.share_modifiers(groups, k)
        return k

    def pool_modifiers(self, k: int, n: int) -> tuple[tuple[str, int] | None, Selector | None, Selector | None,
                                                     Selector | None, int]:
        """Keep or count for the whole pool of ``n`` dice from token ``k``: (keep, where, count, fail, next)."""
        toks = self.toks
        keep = where = count_sel = fail = None
        while toks[k] in _POOL_MODIFIERS:
            text = toks[k]
            if text in _CMP or text in _COUNT:
                counted = self.count_modifier(k, count_sel)
                if counted is None:
                    break
                count_sel, fail, k = counted
                continue
            if keep is not None or where is not None:
                raise self.fail(k, "dice.keep_one")
            mod = _KEEP.get(text)
            c = _NUMBERS.get(toks[k + 1])
            if c is not None and mod in _BY_RANK:  # kh1, dl2: by rank with a number (inlined: the hot path)
                keep = self.keep(mod, c, n, k)
                k += 2
                continue
            keep, where, end = self.selection(k, n)
            if end == k:
                break
            k = end
        return keep, where, count_sel, fail, k

    def count_modifier(self, k: int, before: Selector | None) -> tuple[Selector, Selector | None, int] | None:
        """Successes (and failures) counted, from token ``k``: (count, fail, next); None where the
        comparison is of totals (``W6 >= W6``). ``before``: a count already given (refused twice)."""
        toks = self.toks
        text = toks[k]
        fail = None
        if text in _CMP:  # successes: 7W6>=5 (the number inlined: the hot path)
            v = _NUMBERS.get(toks[k + 1])
            if v is None:
                if not _is_number(toks[k + 1]):
                    return None
                v = self.number(k + 1)
            if before is not None:
                raise self.fail(k, "dice.modifier_twice", mod=text)
            count, k = _new(Selector, (text, v)), k + 2
        else:
            if before is not None:
                raise self.fail(k, "dice.modifier_twice", mod=text)
            if text in _FAILS:  # only failures, each taking one away: 10d6cf1
                fail, k = self.selector(k + 1, "=")
                return _new(Selector, ("<", 1)), fail, k
            count, k = self.selector(k + 1, "=")  # Foundry's 10d6cs>=5 (cs6: the sixes)
        if toks[k] in _FAILS:  # and failures: Roll20's 8d6>4f1, Foundry's cs>4cf1
            fail, k = self.selector(k + 1, "=")
        return count, fail, k

    def fate(self, count: int, item: int, k: int) -> tuple[Node, int]:
        """``count`` Fate dice (token ``item`` their count, ``k`` the letters ``WF``); no modifiers."""
        if count < 1:
            raise self.fail(item, "dice.no_dice", n=count)
        self.count_dice(count, item)
        return _new(Fate, (count,)), k + 1

    def selector(self, k: int, default: str) -> tuple[Selector, int]:
        """A comparison and a number at token ``k`` (the comparison ``default`` if none is written)."""
        op = _COMPARE.get(self.toks[k])
        if op is None:
            op = default
        else:
            k += 1
        v = _NUMBERS.get(self.toks[k])
        if v is None:
            v = self.number(k)
        return _new(Selector, (op, v)), k + 1

    def selection(self, k: int, n: int, sets: bool = False) -> tuple[tuple[str, int] | None, Selector | None, int]:
        """The keep or drop at token ``k`` of ``n`` dice (``sets``: items of a set), if any: (keep, where, next).

        By rank: ``kh3``, ``kl``, ``dh1``, ``dl``, d20's ``ph``/``pl``, ``k3`` (the 3 highest,
        as Roll20 and Foundry read it) and ``d1`` of a pool (the lowest, Roll20 and Foundry). By
        value, d20's selectors: ``k<3``, ``k>3``, ``k=3`` keep the dice (items) that satisfy
        them, ``p3``, ``p<3`` drop them.
        """
        toks = self.toks
        text = toks[k]
        mod = _KEEP.get(text)
        if mod is None and not sets and text in _DROP_LOW and _is_number(toks[k + 1]):
            mod = "dl"
        if mod is None:
            return None, None, k
        if mod in ("k", "p") and toks[k + 1] in _COMPARE and _is_number(toks[k + 2]):
            sel, end = self.selector(k + 1, "=")
            return None, sel if mod == "k" else _new(Selector, (OTHERWISE[sel.op], sel.value)), end
        c = _NUMBERS.get(toks[k + 1])
        if c is None:
            c = self.number(k + 1) if _is_number(toks[k + 1]) else 1  # kh = kh1
            end = k + 1 + (_is_number(toks[k + 1]))
        else:
            end = k + 2
        if mod == "p":  # d20's p3: drop the dice showing 3
            if not _is_number(toks[k + 1]):
                raise self.missing(k + 1, "dice.number")
            return None, _new(Selector, ("!=", c)), end
        keep = self.keep("kh" if mod == "k" else mod, c, n, k)
        return keep, None, end

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
            raise self.fail(k, "dice.keep_range", mod=self.toks[k], k=c, n=n, low=low, high=n - (1 - low))
        return ("h", c) if mod == "kh" else ("l", c) if mod == "kl" else \
            ("l", n - c) if mod == "dh" else ("h", n - c)

    def share_modifiers(self, groups: list[Group], k: int) -> int:
        """Give the die modifiers at token ``k`` (after a pool's braces) to every group."""
        shared, end = self.die_modifiers(Die(1), k, shared=True)
        if any(not g.die.plain for g in groups):
            raise self.fail(k, "dice.modifier_twice", mod=shared.notation()[2:])
        for i, g in enumerate(groups):
            die = shared._replace(sides=g.die.sides)
            if die.explode is not None and die.bounded:
                die = self.bound(die, k)
            self.settled(die, k)
            groups[i] = Group(g.count, die)
        return end

    def die_modifiers(self, die: Die, k: int, shared: bool = False) -> tuple[Die, int]:
        """Rerolls (``r``, ``ro``, ``rr``), explosions and bounds (``mi``, ``ma``) at token ``k``.

        Explosions: ``!N`` at most N extra dice on the maximum face (the German cap); ``!``,
        ``!!``, ``x`` without a cap (bounded by ``bound``); ``!>=9``, ``!!5``, ``x6``, ``e6`` on
        those faces, without a cap; ``xo`` and ``ra1`` once. ``shared``: after a pool's braces
        (the sides are not known yet).
        """
        toks = self.toks
        while True:
            text = toks[k]
            once = _REROLL.get(text)
            if once is not None:
                if die.reroll is not None:
                    raise self.fail(k, "dice.modifier_twice", mod="r")
                sel, k = self.selector(k + 1, "=")
                die = die._replace(reroll=sel, reroll_once=once)
                continue
            word = _EXPLODE.get(text)
            if word is not None:
                if die.explode is not None:
                    raise self.fail(k, "dice.modifier_twice", mod=text)
                die, k = self.explosion(die, word, k, shared)
                continue
            bound = _BOUNDS.get(text)
            if bound is None:
                if text in _RANKED:
                    raise self.fail(k, "dice.rank_selector", mod=text)
                return die, k
            v = self.number(k + 1)
            if (die.lowest if bound == "mi" else die.highest) is not None:
                raise self.fail(k, "dice.modifier_twice", mod=text)
            die = die._replace(lowest=v) if bound == "mi" else die._replace(highest=v)
            k += 2

    def explosion(self, die: Die, word: str, k: int, shared: bool) -> tuple[Die, int]:
        """The explosion at token ``k`` (``word``: ``!``, ``x``, ``xo`` or ``ra``)."""
        toks = self.toks
        nxt = toks[k + 1]
        if word in ("xo", "ra"):  # once
            sel, end = self.selector(k + 1, "=") if word == "ra" or nxt in _COMPARE or _is_number(nxt) \
                else (None, k + 1)
            return die._replace(explode=1, explode_on=sel, bounded=False), end
        if word == "!" and nxt == "!":  # Roll20's compounding !!: the extra dice add to the die, as ours do
            k += 1
            nxt = toks[k + 1]
            word = "x"
        if word == "!" and _is_number(nxt):  # the German cap: W6!3
            cap = self.number(k + 1)
            if cap > limits.MAX_EXPLODE:
                raise self.limit(k + 1, "limit.explode_cap", cap=cap, max=limits.MAX_EXPLODE)
            return die._replace(explode=cap, explode_on=None, bounded=False), k + 2
        sel = None
        end = k + 1
        if nxt in _COMPARE or (word == "x" and _is_number(nxt)):
            sel, end = self.selector(k + 1, "=")
        die = die._replace(explode=0, explode_on=sel, bounded=True)
        return (die if shared else self.bound(die, k)), end

    def bound(self, die: Die, k: int) -> Die:
        """``die`` exploding without a cap, with the fewest extra dice beyond which less than
        ``limits.NEGLECTED`` of the probability lies; refused if that needs more than ``limits.MAX_BOUND``."""
        p = _explode_chance(die)
        if p >= 1.0 - 1e-15:
            raise self.limit(k, "limit.explode_always", die=die._replace(explode=None, bounded=False).notation())
        cap = 0 if p == 0.0 else max(1, math.ceil(math.log(limits.NEGLECTED) / math.log(p)) - 1)
        if cap > limits.MAX_BOUND:
            raise self.limit(k, "limit.explode_bound", p=round(p * 100), max=limits.MAX_BOUND)
        return die._replace(explode=cap)

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
