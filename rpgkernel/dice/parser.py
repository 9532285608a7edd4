"""A parser for German and English dice notation: one regular-expression
pass into tokens, then recursive descent over them.

The grammar is written down in ``docs/wuerfelsprache.md``. ``parse`` returns
an immutable tree of ``nodes``; results without variables are cached.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Mapping

from ..errors import DiceLimitError, DiceSyntaxError
from ..messages import t
from . import limits
from .nodes import BinOp, Call, Const, Die, Group, Neg, Node, Paren, Pool, Selector, walk

_TOKEN = re.compile(r"\s*([0-9]+|[^\W\d_]+|<=|>=|@\w*|\S)")
_WORDS = {"w": "die", "d": "die", "kh": "keep", "kl": "keep", "dh": "keep", "dl": "keep",
          "r": "reroll", "rr": "reroll"}
_SYMBOLS = {"−": "-", "×": "*", "·": "*", "<": "cmp", ">": "cmp", "=": "cmp", "<=": "cmp",
            ">=": "cmp", **{c: c for c in "-+*(){},%!"}}
_FUNCTIONS = ("max", "min")
_DIE_MODIFIERS = ("reroll", "!")
_POOL_MODIFIERS = ("keep", "cmp", "bad")
_END = "end"


def parse(text: str, variables: Mapping[str, object] | None = None) -> Node:
    """Parse ``text``; ``@name`` is looked up in ``variables`` (int or expression)."""
    if not isinstance(text, str):
        raise DiceSyntaxError(t("dice.empty"))
    if variables is None or "@" not in text:
        return _parse_cached(text)
    return _Parser(text, variables).parse()


@lru_cache(maxsize=4096)
def _parse_cached(text: str) -> Node:
    return _Parser(text, None).parse()


def _tokens(src: str) -> list[tuple[str, str]]:
    """(kind, text) for each token; symbols are their own kind.

    A run of letters is a die letter, a modifier (kh, r, …), a function
    name when "(" follows, or else a fault ("bad"). Positions are found
    again only when an error needs them.
    """
    texts = _TOKEN.findall(src)
    out = []
    for i, text in enumerate(texts):
        c = text[0]
        if "0" <= c <= "9":
            kind = "num"
        elif c.isalpha():
            kind = _WORDS.get(text.lower()) or (
                "func" if i + 1 < len(texts) and texts[i + 1] == "(" else "bad")
        elif c == "@":
            kind = "var"
        else:
            kind = _SYMBOLS.get(text, "bad")
        out.append((kind, text))
    out.append((_END, ""))
    return out


class _Parser:
    def __init__(self, src: str, variables: Mapping[str, object] | None) -> None:
        if len(src) > limits.MAX_LENGTH:
            raise DiceLimitError(t("limit.length", n=len(src), max=limits.MAX_LENGTH))
        self.src = src
        self.toks = _tokens(src)
        self.k = 0
        self.depth = 0
        self.n_dice = 0
        self.variables = variables

    # -- helpers -------------------------------------------------------
    def pos(self, k: int | None = None) -> int:
        """The position in the source of token ``k`` (default: the current one)."""
        starts = [m.start(1) for m in _TOKEN.finditer(self.src)] + [len(self.src)]
        return starts[self.k if k is None else k]

    def error(self, message: str, at: int | None = None, suggestion: str | None = None,
              cls: type[DiceSyntaxError] = DiceSyntaxError, shift: int = 0) -> DiceSyntaxError:
        """An error at token ``at`` (default: the current one), ``shift`` characters on."""
        return cls(message, self.src, self.pos(at) + shift, suggestion)

    def kind(self) -> str:
        return self.toks[self.k][0]

    def missing(self, expected: str, suggestion: str | None = None) -> DiceSyntaxError:
        kind, text = self.toks[self.k]
        if kind == _END:
            return self.error(t("dice.unexpected_end", expected=expected), suggestion=suggestion)
        return self.error(t("dice.expected", expected=expected, found=text[0]), suggestion=suggestion)

    def expect(self, kind: str, expected_key: str) -> None:
        if self.toks[self.k][0] != kind:
            raise self.missing(t(expected_key))
        self.k += 1

    def expect_number(self, what: str = "dice.number") -> int:
        """Read a number; ``what`` is the catalogue key naming it in an error."""
        kind, text = self.toks[self.k]
        if kind != "num":
            raise self.missing(t(what))
        if len(text) > 10 or int(text) > limits.MAX_NUMBER:
            raise self.error(t("limit.number", n=text, max=limits.MAX_NUMBER), cls=DiceLimitError)
        self.k += 1
        return int(text)

    def enter(self) -> None:
        self.depth += 1
        if self.depth > limits.MAX_DEPTH:
            raise self.error(t("limit.depth", max=limits.MAX_DEPTH), cls=DiceLimitError)

    def count_dice(self, n: int, at: int) -> None:
        self.n_dice += n
        if self.n_dice > limits.MAX_DICE:
            raise self.error(t("limit.dice", n=self.n_dice, max=limits.MAX_DICE), at,
                             cls=DiceLimitError)

    # -- grammar -------------------------------------------------------
    def parse(self) -> Node:
        if not self.src.strip():
            raise DiceSyntaxError(t("dice.empty"))
        node = self.sum()
        if self.kind() != _END:
            raise self.trailing()
        return node

    def trailing(self) -> DiceSyntaxError:
        kind, text = self.toks[self.k]
        suggestion = None
        before, after = self.toks[self.k - 1], self.toks[self.k + 1]
        if kind == "bad" and text.isalpha() and before[0] == "num" and after[0] == "num":
            suggestion = t("suggest.die", suggestion=f"{before[1]}W{after[1]}")
        return self.error(t("dice.trailing", found=text[0]), suggestion=suggestion)

    def sum(self) -> Node:
        """Terms joined by + and -, each a product of operands (left-associative)."""
        toks = self.toks
        terms = [self.operand()]
        ops = []
        while (op := toks[self.k][0]) in ("+", "-", "*"):
            self.k += 1
            if op == "*":
                terms[-1] = BinOp("*", terms[-1], self.operand())
            else:
                ops.append(op)
                terms.append(self.operand())
        node = terms[0]
        for op, term in zip(ops, terms[1:]):
            node = BinOp(op, node, term)
        return node

    def operand(self) -> Node:
        """A signed number, dice, pool, variable, function call or parenthesis."""
        kind, text = self.toks[self.k]
        pos = self.k
        if kind == "num":
            n = self.expect_number()
            return self.dice(n, pos) if self.toks[self.k][0] == "die" else Const(n)
        if kind == "die":
            return self.dice(1, pos)
        if kind == "-":
            self.k += 1
            self.enter()
            node: Node = Neg(self.operand())
            self.depth -= 1
            return node
        if kind == "+":
            self.k += 1
            return self.operand()
        if kind == "(":
            self.k += 1
            self.enter()
            inner = self.sum()
            self.expect(")", "dice.close_paren")
            self.depth -= 1
            return Paren(inner)
        if kind == "{":
            return self.pool()
        if kind == "var":
            return self.variable()
        if kind == "func":
            if text.lower() not in _FUNCTIONS:
                raise self.error(t("dice.unknown_function", name=text))
            return self.call(text.lower())
        raise self.missing(t("dice.operand"))

    def dice(self, count: int, start: int) -> Node:
        self.k += 1  # the die letter
        die = self.die_sides()
        if count < 1:
            raise self.error(t("dice.no_dice", n=count), start)
        if self.toks[self.k][0] in _DIE_MODIFIERS:
            die = self.settled(self.die_modifiers(die), start)
        return self.pool_modifiers((Group(count, die),), braces=False, start=start)

    def settled(self, die: Die, pos: int) -> Die:
        """``die``, unless its reroll selector covers every face."""
        if die.reroll is not None and all(die.reroll(f) for f in range(1, die.sides + 1)):
            raise self.error(t("dice.reroll_all", sel=str(die.reroll), sides=die.sides), pos)
        return die

    def die_sides(self) -> Die:
        kind, pos = self.toks[self.k][0], self.k
        if kind == "%":
            self.k += 1
            return Die(100)
        sides = self.expect_number("dice.sides")
        if sides < 1:
            raise self.error(t("dice.no_sides", sides=sides), pos)
        if sides > limits.MAX_SIDES:
            raise self.error(t("limit.sides", sides=sides, max=limits.MAX_SIDES), pos,
                             cls=DiceLimitError)
        return Die(sides)

    def die_modifiers(self, die: Die) -> Die:
        while (kind := self.kind()) in _DIE_MODIFIERS:
            text, pos = self.toks[self.k][1], self.k
            self.k += 1
            if kind == "reroll":
                if die.reroll is not None:
                    raise self.error(t("dice.modifier_twice", mod="r"), pos)
                die = Die(die.sides, self.selector(), text.lower() == "r", die.explode)
                continue
            if die.explode is not None:
                raise self.error(t("dice.modifier_twice", mod="!"), pos)
            if self.kind() != "num":
                after = self.pos(pos) + 1
                raise self.error(t("limit.explode", max=limits.MAX_EXPLODE), pos,
                                 t("suggest.explode", suggestion=self.src[:after] + "3"),
                                 cls=DiceLimitError, shift=1)
            cap_pos = self.k
            cap = self.expect_number()
            if cap > limits.MAX_EXPLODE:
                raise self.error(t("limit.explode_cap", cap=cap, max=limits.MAX_EXPLODE),
                                 cap_pos, cls=DiceLimitError)
            die = Die(die.sides, die.reroll, die.reroll_once, cap)
        return die

    def selector(self) -> Selector:
        """``[op] number``; without an operator the selector is equality."""
        op = "="
        if self.kind() == "cmp":
            op = self.toks[self.k][1]
            self.k += 1
        return Selector(op, self.expect_number())

    def pool(self) -> Node:
        start = self.k
        self.k += 1  # '{'
        self.enter()
        groups = [self.pool_item()]
        while self.kind() == ",":
            self.k += 1
            groups.append(self.pool_item())
        self.expect("}", "dice.close_brace")
        self.depth -= 1
        pos = self.k
        shared = self.die_modifiers(Die(1))
        if not shared.plain:
            if any(not g.die.plain for g in groups):
                raise self.error(t("dice.modifier_twice", mod=shared.notation()[2:]), pos)
            groups = [Group(g.count, self.settled(Die(g.die.sides, shared.reroll, shared.reroll_once,
                                                      shared.explode), pos)) for g in groups]
        return self.pool_modifiers(tuple(groups), braces=True, start=start)

    def pool_item(self) -> Group:
        start = self.k
        count = self.expect_number() if self.kind() == "num" else 1
        if self.kind() != "die":
            raise self.missing(t("dice.pool_item"))
        self.k += 1
        die = self.die_sides()
        if self.toks[self.k][0] in _DIE_MODIFIERS:
            die = self.settled(self.die_modifiers(die), start)
        if count < 1:
            raise self.error(t("dice.no_dice", n=count), start)
        return Group(count, die)

    def pool_modifiers(self, groups: tuple[Group, ...], braces: bool, start: int) -> Node:
        n = sum(g.count for g in groups)
        self.count_dice(n, start)
        if self.toks[self.k][0] not in _POOL_MODIFIERS:
            return Pool(groups, None, None, braces)
        keep: tuple[str, int] | None = None
        count: Selector | None = None
        while True:
            kind, text = self.toks[self.k]
            pos = self.k
            if kind == "keep":
                self.k += 1
                if keep is not None:
                    raise self.error(t("dice.keep_one"), pos)
                mod = text.lower()
                k = self.expect_number()
                low = 1 if mod[0] == "k" else 0
                if not low <= k <= n - (1 - low):
                    raise self.error(t("dice.keep_range", mod=mod, k=k, n=n, low=low,
                                       high=n - (1 - low)), pos)
                keep = ("h", k) if mod == "kh" else ("l", k) if mod == "kl" else \
                    ("l", n - k) if mod == "dh" else ("h", n - k)
            elif kind == "cmp":
                if count is not None:
                    raise self.error(t("dice.modifier_twice", mod=text), pos)
                count = self.selector()
            elif kind == "bad" and text in "kK" and self.toks[self.k + 1][0] == "num":
                raise self.error(t("dice.expected", expected="kh, kl, dh oder dl", found=text), pos,
                                 t("suggest.keep", suggestion="kh" + self.toks[self.k + 1][1]))
            else:
                return Pool(groups, keep, count, braces)

    def call(self, name: str) -> Node:
        pos = self.k
        self.k += 2  # name and '('
        self.enter()
        args = [self.sum()]
        while self.kind() == ",":
            self.k += 1
            args.append(self.sum())
        self.expect(")", "dice.close_paren")
        self.depth -= 1
        if len(args) < 2:
            raise self.error(t("dice.function_args", name=name), pos)
        return Call(name, tuple(args))

    def variable(self) -> Node:
        text, pos = self.toks[self.k][1], self.k
        name = text[1:]
        if not name:
            raise self.missing(t("dice.operand"))
        self.k += 1
        vars_ = self.variables or {}
        if name not in vars_:
            raise self.error(t("dice.variable_unknown", name=name), pos)
        value = vars_[name]
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise self.error(t("dice.variable_type", name=name, type=type(value).__name__), pos)
        if isinstance(value, int):
            return Neg(Const(-value)) if value < 0 else Const(value)
        try:
            inner = parse(value)
        except DiceSyntaxError as err:
            raise self.error(f"@{name}: {err.message}", pos, cls=type(err)) from None
        self.count_dice(sum(node.size for node in walk(inner) if isinstance(node, Pool)), pos)
        return Paren(inner)
