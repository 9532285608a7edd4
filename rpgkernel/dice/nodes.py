"""The syntax tree of the dice language. All nodes are immutable.

Every node is a named tuple: cheap to build, hashed and compared by value
in C. The parts of a pool (``Selector``, ``Die``, ``Group``) compare as
plain tuples; the expression nodes (``Pool``, ``Const``, ``Neg``, ``Chain``,
``Call``, ``Paren``) compare their kind too, so that nodes of different
kinds never compare equal (``Neg(x) != Paren(x)``).

Sums and products are flat chains, not nested pairs: a tree is only as deep
as its parentheses, functions and signs (at most ``limits.MAX_DEPTH``), so
no function over it comes near Python's recursion limit.
"""

from __future__ import annotations

import operator
from typing import Callable, NamedTuple, Union

COMPARISONS: dict[str, Callable[[int, int], bool]] = {
    "=": operator.eq,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


class Selector(NamedTuple):
    """Faces that satisfy ``face <op> value`` (``r<3``, ``>=5``)."""

    op: str
    value: int

    def __call__(self, face: int) -> bool:
        return COMPARISONS[self.op](face, self.value)

    def matches_in(self, lo: int, hi: int) -> int:
        """How many integers in lo..hi satisfy the selector."""
        op, v = self
        if op == ">=":
            lo = max(lo, v)
        elif op == ">":
            lo = max(lo, v + 1)
        elif op == "<=":
            hi = min(hi, v)
        elif op == "<":
            hi = min(hi, v - 1)
        else:
            lo, hi = max(lo, v), min(hi, v)
        return max(0, hi - lo + 1)

    def __str__(self) -> str:
        return f"{'' if self.op == '=' else self.op}{self.value}"


class Die(NamedTuple):
    """One kind of die: ``sides`` faces 1..sides, optional reroll and explosion.

    ``reroll``: faces to roll again; ``reroll_once`` says whether the second
    result stands (``r``) or rolling repeats until a face outside the
    selector shows (``rr``). ``explode``: the number of extra dice at most
    that a maximum face adds to this die's value (``!3``), or None.
    """

    sides: int
    reroll: Selector | None = None
    reroll_once: bool = True
    explode: int | None = None

    @property
    def plain(self) -> bool:
        return self.reroll is None and self.explode is None

    def notation(self) -> str:
        text = "W%" if self.sides == 100 else f"W{self.sides}"
        if self.reroll is not None:
            text += ("r" if self.reroll_once else "rr") + str(self.reroll)
        if self.explode is not None:
            text += f"!{self.explode}"
        return text


class Group(NamedTuple):
    """``count`` dice of one kind inside a pool."""

    count: int
    die: Die


class Pool(NamedTuple):
    """Dice rolled together: ``3W6``, ``{W8,W4,2W6}kh1``, ``7W6>=5``.

    ``keep`` is ``("h"|"l", k)``: keep the k highest or lowest dice (drops are
    normalised to keeps by the parser). ``count``: if set, the pool's value
    is the number of kept dice that satisfy it, else the sum of kept dice.
    """

    groups: tuple[Group, ...]
    keep: tuple[str, int] | None = None
    count: Selector | None = None
    braces: bool = False

    @property
    def size(self) -> int:
        return sum(g.count for g in self.groups)


class Const(NamedTuple):
    value: int


class Neg(NamedTuple):
    operand: Node


class Chain(NamedTuple):
    """Operands joined left to right by operators of one precedence: ``a+b-c``, ``a*b*c``.

    ``ops[i]`` (``'+'``, ``'-'`` or ``'*'``) joins ``terms[i]`` and ``terms[i + 1]``.
    """

    ops: tuple[str, ...]
    terms: tuple[Node, ...]


class Call(NamedTuple):
    name: str  # 'max' | 'min'
    args: tuple[Node, ...]


class Paren(NamedTuple):
    """Parentheses kept for faithful rendering; semantically transparent."""

    inner: Node


def _same_node(self: tuple, other: object) -> bool:
    return type(self) is type(other) and tuple.__eq__(self, other)


def _other_node(self: tuple, other: object) -> bool:
    return not (type(self) is type(other) and tuple.__eq__(self, other))


for _kind in (Pool, Const, Neg, Chain, Call, Paren):
    _kind.__eq__, _kind.__ne__, _kind.__hash__ = _same_node, _other_node, tuple.__hash__


Node = Union[Pool, Const, Neg, Chain, Call, Paren]


def children(node: Node) -> tuple[Node, ...]:
    """The operands of a node, left to right (none for a pool or a number)."""
    kind = type(node)
    if kind is Chain:
        return node.terms
    if kind is Call:
        return node.args
    if kind is Neg or kind is Paren:
        return (node[0],)
    return ()


def walk(node: Node):
    """Every node of the tree, depth first, parents before children."""
    stack = [node]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(children(node)))


def notation(node: Node) -> str:
    """The canonical German notation of a tree (``4W6kh3+2``)."""
    if isinstance(node, Const):
        return str(node.value)
    if isinstance(node, Paren):
        return f"({notation(node.inner)})"
    if isinstance(node, Neg):
        return f"-{notation(node.operand)}"
    if isinstance(node, Chain):
        return notation(node.terms[0]) + "".join(op + notation(t) for op, t in zip(node.ops, node.terms[1:]))
    if isinstance(node, Call):
        return f"{node.name}({', '.join(notation(a) for a in node.args)})"
    items = [f"{g.count if g.count > 1 else ''}{g.die.notation()}" for g in node.groups]
    text = "{" + ",".join(items) + "}" if node.braces else items[0]
    if node.keep is not None:
        text += f"k{node.keep[0]}{node.keep[1]}"
    if node.count is not None:
        text += f"{node.count.op}{node.count.value}"
    return text
