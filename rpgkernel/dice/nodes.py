"""The syntax tree of the dice language. All nodes are immutable.

Every node is a named tuple. The parts of a pool (``Selector``, ``Die``, ``Group``) compare as
plain tuples; the expression nodes (``Pool``, ``Const``, ``Neg``, ``Chain``, ``Call``,
``Paren``) compare their kind too. Sums and products are flat chains, so a tree is only as deep
as its parentheses, functions and signs (``limits.MAX_DEPTH``).
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any, Callable, Iterator, NamedTuple, Union, overload

if TYPE_CHECKING:
    import numpy as np

#: the comparison operators, on ints and elementwise on numpy arrays (``estimate.sample``)
COMPARISONS: dict[str, Callable[[Any, Any], Any]] = {
    "=": operator.eq,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "!=": operator.ne,
}
#: the operators of a chain that need no rounding, on ints, distributions and numpy arrays alike
ARITHMETIC: dict[str, Callable[[Any, Any], Any]] = {"+": operator.add, "-": operator.sub, "*": operator.mul}


class Selector(NamedTuple):
    """Faces that satisfy ``face <op> value`` (``r<3``, ``>=5``)."""

    op: str
    value: int

    @overload
    def __call__(self, face: int) -> bool: ...

    @overload
    def __call__(self, face: np.ndarray) -> np.ndarray: ...

    def __call__(self, face: Any) -> Any:
        """Whether ``face`` satisfies the selector (elementwise for an array of faces)."""
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
        elif op == "!=":
            return max(0, hi - lo + 1) - (1 if lo <= v <= hi else 0)
        else:
            lo, hi = max(lo, v), min(hi, v)
        return max(0, hi - lo + 1)

    def __str__(self) -> str:
        return f"{'' if self.op == '=' else self.op}{self.value}"


#: the selector of the faces a drop selector (``p3``, ``p<3``) lets stay
OTHERWISE = {"=": "!=", "!=": "=", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}


class Die(NamedTuple):
    """One kind of die: ``sides`` faces 1..sides, optional reroll, explosion and bounds.

    ``reroll``: faces to roll again (``reroll_once``: ``r``, else ``rr``); ``explode``: the most
    extra dice an exploding face adds (``!3``), or None; ``explode_on``: the faces that explode
    (None: the maximum); ``bounded``: no cap was written, ``explode`` is then the bound beyond which
    less than ``limits.NEGLECTED`` lies; ``lowest``/``highest``: the value bounds (``mi2``,
    ``ma5``), applied last.
    """

    sides: int
    reroll: Selector | None = None
    reroll_once: bool = True
    explode: int | None = None
    explode_on: Selector | None = None
    bounded: bool = False
    lowest: int | None = None
    highest: int | None = None

    @property
    def plain(self) -> bool:
        return self.reroll is None and self.explode is None and self.lowest is None and self.highest is None

    def explodes(self, face: int) -> bool:
        return face == self.sides if self.explode_on is None else self.explode_on(face)

    def clamp(self, value: int) -> int:
        """The value the die counts as, after its bounds (``mi``, ``ma``)."""
        if self.lowest is not None and value < self.lowest:
            value = self.lowest
        if self.highest is not None and value > self.highest:
            value = self.highest
        return value

    def value_range(self) -> tuple[int, int]:
        """The least and greatest value the die can count as."""
        hi = self.sides * (1 + (self.explode or 0))
        return self.clamp(1), self.clamp(hi)

    def notation(self) -> str:
        text = "W%" if self.sides == 100 else f"W{self.sides}"
        if self.reroll is not None:
            text += ("r" if self.reroll_once else "rr") + str(self.reroll)
        if self.explode is not None:
            sel = self.explode_on
            if sel is None:
                text += "!" if self.bounded else f"!{self.explode}"
            elif not self.bounded:  # once (d20's ra)
                text += f"ra{sel}"
            else:
                text += f"x{sel.value}" if sel.op == "=" else f"!{sel}"
        if self.lowest is not None:
            text += f"mi{self.lowest}"
        if self.highest is not None:
            text += f"ma{self.highest}"
        return text


class Group(NamedTuple):
    """``count`` dice of one kind inside a pool."""

    count: int  # type: ignore[assignment]  # a field shadowing tuple.count, never called on a node
    die: Die


class Pool(NamedTuple):
    """Dice rolled together: ``3W6``, ``{W8,W4,2W6}kh1``, ``7W6>=5``.

    ``keep`` is ``("h"|"l", k)``: keep the k highest or lowest dice (drops are
    normalised to keeps by the parser). ``count``: if set, the pool's value
    is the number of kept dice that satisfy it, less the number that satisfy
    ``fail`` (``cf1``, Roll20's ``f1``), else the sum of kept dice. ``where``:
    keep only the dice whose value satisfies it (d20's ``k<3``, ``p3``).
    """

    groups: tuple[Group, ...]
    keep: tuple[str, int] | None = None
    count: Selector | None = None  # type: ignore[assignment]  # a field shadowing tuple.count, never called on a node
    braces: bool = False
    fail: Selector | None = None
    where: Selector | None = None

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


class Fate(NamedTuple):
    """``count`` Fate dice (``4WF``, ``4dF``), each -1, 0 or +1, summed."""

    count: int  # type: ignore[assignment]  # a field shadowing tuple.count, never called on a node


class Label(NamedTuple):
    """A label (``2W6[Feuer]``) or, around the whole expression, a comment (``W20+5 Angriff``); transparent."""

    inner: Node
    text: str
    comment: bool = False


class Set(NamedTuple):
    """Values rolled together, d20's and Foundry's sets: ``(2W6, W12)kh1``, ``(1, 2, 3)``.

    The value is the sum of the kept items: ``keep`` as in a ``Pool`` (of
    the items), ``where`` keeps the items whose value satisfies it.
    """

    items: tuple[Node, ...]
    keep: tuple[str, int] | None = None
    where: Selector | None = None


class Compare(NamedTuple):
    """``left op right``: 1 if it holds, else 0 (``W20+5>=15``, d20's ``1 == 1``)."""

    op: str
    left: Node
    right: Node


def _same_node(self: tuple[object, ...], other: object) -> bool:
    return type(self) is type(other) and tuple.__eq__(self, other)


def _other_node(self: tuple[object, ...], other: object) -> bool:
    return not (type(self) is type(other) and tuple.__eq__(self, other))


for _kind in (Pool, Const, Neg, Chain, Call, Paren, Label, Set, Compare, Fate):
    for _name, _method in (("__eq__", _same_node), ("__ne__", _other_node), ("__hash__", tuple.__hash__)):
        setattr(_kind, _name, _method)


Node = Union[Pool, Const, Neg, Chain, Call, Paren, Label, Set, Compare, Fate]

ROUNDING = ("aufrunden", "abrunden", "runden")  # the functions that say how the divisions in them round
#: a division's operator by its rounding: down (``/``, as d20's ``//``), up, to the nearest (half up)
DIVISION = {"abrunden": "/", "aufrunden": "/^", "runden": "/~"}


def children(node: Node) -> tuple[Node, ...]:
    """The operands of a node, left to right (none for a pool or a number)."""
    if type(node) is Chain:
        return node.terms
    if type(node) is Call:
        return node.args
    if type(node) is Neg or type(node) is Paren or type(node) is Label:
        return (node[0],)
    if type(node) is Set:
        return node.items
    if type(node) is Compare:
        return node.left, node.right
    return ()


def walk(node: Node) -> Iterator[Node]:
    """Every node of the tree, depth first, parents before children."""
    stack = [node]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(children(node)))


def notation(node: Node) -> str:
    """The canonical German notation of a tree (``4W6kh3+2``)."""
    return _NOTATIONS.get(type(node), _pool_notation)(node)


def _chain_notation(node: Chain) -> str:
    return notation(node.terms[0]) + "".join(
        ("/" if op[0] == "/" else op) + notation(t) for op, t in zip(node.ops, node.terms[1:]))


def _set_notation(node: Set) -> str:
    text = "(" + ", ".join(notation(i) for i in node.items) + ("," if len(node.items) == 1 else "") + ")"
    return text + _selection(node.keep, node.where)


def _pool_notation(node: Pool) -> str:
    items = [f"{g.count if g.count > 1 else ''}{g.die.notation()}" for g in node.groups]
    text = "{" + ",".join(items) + "}" if node.braces else items[0]
    text += _selection(node.keep, node.where)
    if node.count is not None:
        text += f"{node.count.op}{node.count.value}"
        if node.fail is not None:
            text += f"cf{node.fail.op}{node.fail.value}"
    return text


#: each kind of node as written (pools: ``_pool_notation``)
_NOTATIONS: dict[type, Callable[[Any], str]] = {
    Const: lambda node: str(node.value),
    Paren: lambda node: f"({notation(node.inner)})",
    Neg: lambda node: f"-{notation(node.operand)}",
    Chain: _chain_notation,
    Call: lambda node: f"{node.name}({', '.join(notation(a) for a in node.args)})",
    Label: lambda node: notation(node.inner) + (f" {node.text}" if node.comment else f"[{node.text}]"),
    Compare: lambda node: f"{notation(node.left)}{'==' if node.op == '=' else node.op}{notation(node.right)}",
    Fate: lambda node: f"{node.count if node.count > 1 else ''}WF",
    Set: _set_notation,
}


def _selection(keep: tuple[str, int] | None, where: Selector | None) -> str:
    if keep is not None:
        return f"k{keep[0]}{keep[1]}"
    if where is not None:
        return f"k{where.op}{where.value}"
    return ""
