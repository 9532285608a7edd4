"""A recursive-descent parser for German and English dice notation.

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

_DIE_LETTERS = "WwDd"
_DIE_MOD_START = ("r", "R", "!")
_POOL_MOD_START = ("k", "K", "d", "D", "<", ">", "=")
_NUMBER = re.compile(r"[0-9]+")
_SPACE = re.compile(r"\s")
_SPACES = re.compile(r"\s*")
_COMPARE_OPS = ("<=", ">=", "<", ">", "=")
_FUNCTIONS = ("max", "min")


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


class _Parser:
    def __init__(self, src: str, variables: Mapping[str, object] | None) -> None:
        if len(src) > limits.MAX_LENGTH:
            raise DiceLimitError(t("limit.length", n=len(src), max=limits.MAX_LENGTH))
        self.src = src
        self.spaced = _SPACE.search(src) is not None
        self.i = 0
        self.depth = 0
        self.n_dice = 0
        self.variables = variables

    # -- helpers -------------------------------------------------------
    def error(self, message: str, pos: int | None = None, suggestion: str | None = None,
              cls: type[DiceSyntaxError] = DiceSyntaxError) -> DiceSyntaxError:
        return cls(message, self.src, self.i if pos is None else pos, suggestion)

    def skip(self) -> None:
        if self.spaced:
            self.i = _SPACES.match(self.src, self.i).end()

    def peek(self) -> str:
        self.skip()
        return self.src[self.i] if self.i < len(self.src) else ""

    def take(self, s: str) -> bool:
        self.skip()
        if self.src.startswith(s, self.i):
            self.i += len(s)
            return True
        return False

    def take_ci(self, word: str) -> bool:
        self.skip()
        if self.src[self.i:self.i + len(word)].lower() == word:
            self.i += len(word)
            return True
        return False

    def expect_number(self, what: str = "dice.number") -> int:
        """Read a number; ``what`` is the catalogue key naming it in an error."""
        self.skip()
        start = self.i
        m = _NUMBER.match(self.src, start)
        if m is None:
            raise self.missing(t(what))
        self.i = m.end()
        n = int(m.group())
        if n > limits.MAX_NUMBER:
            raise self.error(t("limit.number", n=n, max=limits.MAX_NUMBER), start, cls=DiceLimitError)
        return n

    def missing(self, expected: str, suggestion: str | None = None) -> DiceSyntaxError:
        if self.i >= len(self.src):
            return self.error(t("dice.unexpected_end", expected=expected), suggestion=suggestion)
        return self.error(t("dice.expected", expected=expected, found=self.src[self.i]),
                          suggestion=suggestion)

    def enter(self) -> None:
        self.depth += 1
        if self.depth > limits.MAX_DEPTH:
            raise self.error(t("limit.depth", max=limits.MAX_DEPTH), cls=DiceLimitError)

    # -- grammar -------------------------------------------------------
    def parse(self) -> Node:
        if not self.src.strip():
            raise DiceSyntaxError(t("dice.empty"))
        node = self.sum()
        if self.peek():
            raise self.trailing()
        return node

    def trailing(self) -> DiceSyntaxError:
        found = self.src[self.i]
        suggestion = None
        prev = self.src[:self.i].rstrip()
        rest = self.src[self.i + 1:]
        if found.isalpha() and prev[-1:].isdigit() and rest[:1].isdigit():
            digits = len(prev) - len(prev.rstrip("0123456789"))
            suggestion = t("suggest.die", suggestion=f"{prev[len(prev) - digits:]}W{_lead_digits(rest)}")
        return self.error(t("dice.trailing", found=found), suggestion=suggestion)

    def sum(self) -> Node:
        node = self.product()
        while True:
            c = self.peek()
            if c == "+":
                self.i += 1
                node = BinOp("+", node, self.product())
            elif c in ("-", "−"):
                self.i += 1
                node = BinOp("-", node, self.product())
            else:
                return node

    def product(self) -> Node:
        node = self.unary()
        while self.peek() in ("*", "×", "·"):
            self.i += 1
            node = BinOp("*", node, self.unary())
        return node

    def unary(self) -> Node:
        c = self.peek()
        if c in ("-", "−"):
            self.i += 1
            self.enter()
            node: Node = Neg(self.unary())
            self.depth -= 1
            return node
        if c == "+":
            self.i += 1
            return self.unary()
        return self.atom()

    def atom(self) -> Node:
        c = self.peek()
        if c == "(":
            self.i += 1
            self.enter()
            inner = self.sum()
            if not self.take(")"):
                raise self.missing(t("dice.close_paren"))
            self.depth -= 1
            return Paren(inner)
        if c == "{":
            return self.pool()
        if c == "@":
            return self.variable()
        if c.isdigit():
            start = self.i
            n = self.expect_number()
            if self.peek() and self.peek() in _DIE_LETTERS:
                return self.dice(n, start)
            return Const(n)
        if c and c in _DIE_LETTERS:
            return self.dice(1, self.i)
        for name in _FUNCTIONS:
            if self.src[self.i:self.i + len(name)].lower() == name:
                return self.call(name)
        if c.isalpha():
            word = _lead_word(self.src[self.i:])
            if self.src[self.i + len(word):].lstrip().startswith("("):
                raise self.error(t("dice.unknown_function", name=word))
        raise self.missing(t("dice.operand"))

    def dice(self, count: int, start: int) -> Node:
        self.i += 1  # the die letter
        die = self.die_sides()
        if count < 1:
            raise self.error(t("dice.no_dice", n=count), start)
        die = self.settled(self.die_modifiers(die), start)
        return self.pool_modifiers((Group(count, die),), braces=False, start=start)

    def settled(self, die: Die, pos: int) -> Die:
        """``die``, unless its reroll selector covers every face."""
        if die.reroll is not None and all(die.reroll(f) for f in range(1, die.sides + 1)):
            raise self.error(t("dice.reroll_all", sel=str(die.reroll), sides=die.sides), pos)
        return die

    def die_sides(self) -> Die:
        if self.take("%"):
            return Die(100)
        pos = self.i
        sides = self.expect_number("dice.sides")
        if sides < 1:
            raise self.error(t("dice.no_sides", sides=sides), pos)
        if sides > limits.MAX_SIDES:
            raise self.error(t("limit.sides", sides=sides, max=limits.MAX_SIDES), pos,
                             cls=DiceLimitError)
        return Die(sides)

    def die_modifiers(self, die: Die) -> Die:
        while self.peek() in _DIE_MOD_START:
            pos = self.i
            if self.take_ci("rr") or self.take_ci("r"):  # else: "!"
                once = self.src[pos:self.i].lower() == "r"
                if die.reroll is not None:
                    raise self.error(t("dice.modifier_twice", mod="r"), pos)
                die = Die(die.sides, self.selector("="), once, die.explode)
            else:
                self.i += 1
                if die.explode is not None:
                    raise self.error(t("dice.modifier_twice", mod="!"), pos)
                if not self.peek().isdigit():
                    raise self.error(t("limit.explode", max=limits.MAX_EXPLODE), self.i,
                                     t("suggest.explode", suggestion=self.src[:self.i] + "3"),
                                     cls=DiceLimitError)
                cap_pos = self.i
                cap = self.expect_number()
                if cap > limits.MAX_EXPLODE:
                    raise self.error(t("limit.explode_cap", cap=cap, max=limits.MAX_EXPLODE),
                                     cap_pos, cls=DiceLimitError)
                die = Die(die.sides, die.reroll, die.reroll_once, cap)
        return die

    def selector(self, default: str) -> Selector:
        self.skip()
        for op in _COMPARE_OPS:
            if self.take(op):
                return Selector(op, self.expect_number())
        return Selector(default, self.expect_number())

    def pool(self) -> Node:
        start = self.i
        self.i += 1  # '{'
        self.enter()
        groups = [self.pool_item()]
        while self.take(","):
            groups.append(self.pool_item())
        if not self.take("}"):
            raise self.missing(t("dice.close_brace"))
        self.depth -= 1
        pos = self.i
        shared = self.die_modifiers(Die(1))
        if not shared.plain:
            if any(not g.die.plain for g in groups):
                raise self.error(t("dice.modifier_twice", mod=shared.notation()[2:]), pos)
            groups = [Group(g.count, self.settled(Die(g.die.sides, shared.reroll, shared.reroll_once,
                                                      shared.explode), pos)) for g in groups]
        return self.pool_modifiers(tuple(groups), braces=True, start=start)

    def pool_item(self) -> Group:
        self.skip()
        start = self.i
        count = self.expect_number() if self.peek().isdigit() else 1
        if not (self.peek() and self.peek() in _DIE_LETTERS):
            raise self.missing(t("dice.pool_item"))
        self.i += 1
        die = self.settled(self.die_modifiers(self.die_sides()), start)
        if count < 1:
            raise self.error(t("dice.no_dice", n=count), start)
        return Group(count, die)

    def pool_modifiers(self, groups: tuple[Group, ...], braces: bool, start: int) -> Node:
        n = sum(g.count for g in groups)
        self.n_dice += n
        if self.n_dice > limits.MAX_DICE:
            raise self.error(t("limit.dice", n=self.n_dice, max=limits.MAX_DICE), start,
                             cls=DiceLimitError)
        keep: tuple[str, int] | None = None
        count: Selector | None = None
        while self.peek() in _POOL_MOD_START:
            pos = self.i
            mod = self.src[self.i:self.i + 2].lower()
            if mod in ("kh", "kl", "dh", "dl"):
                self.i += 2
                if keep is not None:
                    raise self.error(t("dice.keep_one"), pos)
                k = self.expect_number()
                low = 1 if mod[0] == "k" else 0
                if not low <= k <= n - (1 - low):
                    raise self.error(t("dice.keep_range", mod=mod, k=k, n=n, low=low,
                                       high=n - (1 - low)), pos)
                keep = ("h", k) if mod == "kh" else ("l", k) if mod == "kl" else \
                    ("l", n - k) if mod == "dh" else ("h", n - k)
            elif mod[:1].lower() == "k" and self.src[self.i + 1:self.i + 2].isdigit():
                raise self.error(t("dice.expected", expected="kh, kl, dh oder dl", found="k"), pos,
                                 t("suggest.keep", suggestion="kh" + _lead_digits(self.src[self.i + 1:])))
            elif self.peek() in ("<", ">", "="):
                if count is not None:
                    raise self.error(t("dice.modifier_twice", mod=self.peek()), pos)
                count = self.selector("=")
            else:
                break
        return Pool(groups, keep, count, braces)

    def call(self, name: str) -> Node:
        pos = self.i
        self.i += len(name)
        if not self.take("("):
            raise self.missing("'('")
        self.enter()
        args = [self.sum()]
        while self.take(","):
            args.append(self.sum())
        if not self.take(")"):
            raise self.missing(t("dice.close_paren"))
        self.depth -= 1
        if len(args) < 2:
            raise self.error(t("dice.function_args", name=name), pos)
        return Call(name, tuple(args))

    def variable(self) -> Node:
        pos = self.i
        self.i += 1
        name = _lead_word(self.src[self.i:])
        if not name:
            raise self.missing(t("dice.number"))
        self.i += len(name)
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
        self.n_dice += sum(node.size for node in walk(inner) if isinstance(node, Pool))
        if self.n_dice > limits.MAX_DICE:
            raise self.error(t("limit.dice", n=self.n_dice, max=limits.MAX_DICE), pos,
                             cls=DiceLimitError)
        return Paren(inner)


def _lead_digits(s: str) -> str:
    return s[:len(s) - len(s.lstrip("0123456789"))]


def _lead_word(s: str) -> str:
    n = 0
    while n < len(s) and (s[n].isalnum() or s[n] == "_"):
        n += 1
    return s[:n]
