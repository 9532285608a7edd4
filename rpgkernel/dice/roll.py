"""Rolling a parsed expression: random or given dice, with every face kept."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from .. import parts
from ..display import Shown
from ..errors import DiceLimitError, DiceSyntaxError, GivenDiceError
from ..messages import t
from . import limits
from .dist import Dist
from .nodes import COMPARISONS, Call, Chain, Compare, Const, Die, Fate, Label, Neg, Node, Paren, Pool, Selector, Set, walk
from .parser import divide, parse

if TYPE_CHECKING:
    from .estimate import Estimate


class RandomDice:
    """Fair dice from a numpy Generator.

    Raw 64-bit words are drawn in chunks and mapped to faces with Lemire's
    unbiased multiply-and-reject method, so a face costs no numpy call; many
    faces at once are mapped in numpy, word for word the same way.
    """

    given = False
    thrown = ()   # no real dice
    _MASK = (1 << 64) - 1

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self._buf: list[int] = []
        self._pos = 0
        self._chunk = 16

    def _raw(self) -> int:
        if self._pos >= len(self._buf):
            self._buf = self.rng.bit_generator.random_raw(self._chunk).tolist()
            self._pos = 0
            self._chunk = min(self._chunk * 4, 1024)
        x = self._buf[self._pos]
        self._pos += 1
        return x

    def face(self, sides: int) -> int:
        m = self._raw() * sides
        low = m & self._MASK
        if low < sides:
            threshold = (self._MASK + 1 - sides) % sides
            while low < threshold:
                m = self._raw() * sides
                low = m & self._MASK
        return (m >> 64) + 1

    def faces(self, sides: int, n: int) -> list[int]:
        if n < _VECTOR_FROM:
            face = self.face
            return [face(sides) for _ in range(n)]
        while len(self._buf) - self._pos < n:  # the chunks face() would fetch on the way
            self._buf = self._buf[self._pos:] + self.rng.bit_generator.random_raw(self._chunk).tolist()
            self._pos = 0
            self._chunk = min(self._chunk * 4, 1024)
        words = np.array(self._buf[self._pos:self._pos + n], dtype=np.uint64)
        s = np.uint64(sides)
        low = words * s  # the low 64 bits of each product, and below the high ones (sides < 2**32)
        high = ((words >> _32) * s + (((words & _LOW32) * s) >> _32)) >> _32
        threshold = (self._MASK + 1 - sides) % sides
        rejected = np.flatnonzero(low < np.uint64(threshold)) if threshold else _NO_WORDS
        if len(rejected):  # face() draws again for this word: continue word by word from there
            k = int(rejected[0])
            self._pos += k
            before: list[int] = (high[:k] + 1).tolist()
            return before + [self.face(sides)] + self.faces(sides, n - k - 1)
        self._pos += n
        faces: list[int] = (high + 1).tolist()
        return faces

    def fate(self) -> int:
        """A Fate die: -1, 0 or +1."""
        return self.face(3) - 2

    def finish(self) -> None:
        pass


_VECTOR_FROM = 48  # faces from which RandomDice.faces maps the words in numpy
_32, _LOW32 = np.uint64(32), np.uint64(0xFFFFFFFF)
_NO_WORDS = np.empty(0, dtype=np.intp)  # no word rejected (a power of two of sides)


class GivenDice:
    """Results entered by hand (physical dice), consumed in order.

    ``thrown`` lists ``(sides, face)`` of every face a numbered die showed
    (rerolled and exploding throws too; Fate dice are not numbered dice).
    """

    given = True

    def __init__(self, values: Iterable[object]) -> None:
        self.values = []
        for v in values:
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                raise GivenDiceError(t("given.not_int", value=v))
            self.values.append(int(v))
        self.used = 0
        self.thrown: list[tuple[int, int]] = []

    def face(self, sides: int) -> int:
        if self.used >= len(self.values):
            raise GivenDiceError(t("given.too_few", used=len(self.values), sides=sides))
        v = self.values[self.used]
        self.used += 1
        if not 1 <= v <= sides:
            raise GivenDiceError(t("given.out_of_range", sides=sides, value=v, index=self.used))
        self.thrown.append((sides, v))
        return v

    def faces(self, sides: int, n: int) -> list[int]:
        return [self.face(sides) for _ in range(n)]

    def fate(self) -> int:
        """A Fate die as entered: -1, 0 or 1."""
        if self.used >= len(self.values):
            raise GivenDiceError(t("given.too_few_fate", used=len(self.values)))
        v = self.values[self.used]
        self.used += 1
        if not -1 <= v <= 1:
            raise GivenDiceError(t("given.out_of_range_fate", value=v, index=self.used))
        return v

    def finish(self) -> None:
        if self.used < len(self.values):
            raise GivenDiceError(t("given.too_many", given=len(self.values), used=self.used))


class DieRoll(NamedTuple):
    """One die: every face it showed, which were rerolled away, its value."""

    sides: int
    faces: tuple[int, ...]
    rerolled: tuple[bool, ...]
    value: int
    kept: bool = True
    success: bool | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"sides": self.sides, "faces": list(self.faces), "rerolled": list(self.rerolled),
                "value": self.value, "kept": self.kept, "success": self.success}


class Part(NamedTuple):
    """The rolled value of one node of the tree, with its dice or sub-parts (``dropped``: a set's items not kept)."""

    node: Node
    value: int
    dice: tuple[DieRoll, ...] = ()
    children: tuple[Part, ...] = ()
    dropped: frozenset[int] = frozenset()


def _roll_die(die: Die, source: RandomDice | GivenDice | _Tape, rerolls: int) -> DieRoll:
    """One die with its rerolls and explosions; random dice show ``rerolls`` rerolls until (``rr``) at most.

    After them the face is drawn directly among those that stay, which is
    the same distribution.
    """
    faces: list[int] = []
    rerolled: list[bool] = []
    explosions = 0
    while True:
        f = source.face(die.sides)
        if die.reroll is not None and die.reroll(f):
            attempts = 0
            while die.reroll(f) and (attempts == 0 or not die.reroll_once):
                faces.append(f)
                rerolled.append(True)
                attempts += 1
                if not source.given and attempts >= rerolls:
                    f = _standing(die, source.face(die.sides - die.reroll.matches_in(1, die.sides)))
                    break
                f = source.face(die.sides)
        faces.append(f)
        rerolled.append(False)
        if die.explode is not None and explosions < die.explode and die.explodes(f):
            explosions += 1
            continue
        value = sum(x for x, r in zip(faces, rerolled) if not r)
        if die.lowest is not None or die.highest is not None:
            value = die.clamp(value)
        return DieRoll(die.sides, tuple(faces), tuple(rerolled), value)


def _standing(die: Die, i: int) -> int:
    """The ``i``-th face (from 1) of ``die`` that its reroll selector lets stand."""
    assert die.reroll is not None, die   # called for rerolled dice only
    op, v = die.reroll
    if op == "=":
        return i if i < v else i + 1
    if op in ("<", "<="):  # the faces above the selector stand
        return max(v if op == "<" else v + 1, 1) - 1 + i
    return i  # ">" and ">=": the faces below stand


_STANDING = (False,)  # a plain die's only face stands
_NONE: frozenset[int] = frozenset()  # no item of a set dropped (Part.dropped)
_new = tuple.__new__  # a DieRoll or Part without its Python-level __new__, every field given (hot path)


def _roll_pool(pool: Pool, source: RandomDice | GivenDice | _Tape, rerolls: int) -> Part:
    """A pool's dice rolled in order, kept as ``where`` and ``keep`` say; its value their sum or successes."""
    dice = _pool_dice(pool, source, rerolls)
    keep, sel, where = pool.keep, pool.count, pool.where
    if where is not None:
        dice = [d if where(d.value) else d._replace(kept=False) for d in dice]
    if keep is not None:
        _drop(dice, keep)
    if sel is not None:
        return _counted(pool, dice, sel)
    return _new(Part, (pool, sum(d.value for d in dice if d.kept), tuple(dice), (), _NONE))


def _pool_dice(pool: Pool, source: RandomDice | GivenDice | _Tape, rerolls: int) -> list[DieRoll]:
    """Every die of the pool, group by group (plain dice drawn at once: hot path)."""
    dice: list[DieRoll] = []
    for g in pool.groups:
        d = g.die
        if d.plain:
            sides = d.sides
            faces = [source.face(sides)] if g.count == 1 else source.faces(sides, g.count)
            dice += [_new(DieRoll, (sides, (f,), _STANDING, f, True, None)) for f in faces]
        else:
            dice.extend(_roll_die(d, source, rerolls) for _ in range(g.count))
    return dice


def _drop(dice: list[DieRoll], keep: tuple[str, int]) -> None:
    """Mark all but the ``keep`` highest (lowest) dice not kept; among equal values the one rolled first stays."""
    rank = [-d.value for d in dice] if keep[0] == "h" else [d.value for d in dice]
    order = sorted(range(len(dice)), key=rank.__getitem__)   # a stable sort
    for i in order[keep[1]:]:
        dice[i] = dice[i]._replace(kept=False)


def _counted(pool: Pool, dice: list[DieRoll], sel: Selector) -> Part:
    """The pool's successes among its kept dice, less its failures (``fail``)."""
    dice = [DieRoll(d.sides, d.faces, d.rerolled, d.value, d.kept, d.kept and sel(d.value)) for d in dice]
    fail = pool.fail
    failures = 0 if fail is None else sum(1 for d in dice if d.kept and fail(d.value))
    return Part(pool, sum(1 for d in dice if d.success) - failures, tuple(dice))


def _evaluate(node: Node, source: RandomDice | GivenDice | _Tape, rerolls: int) -> Part:
    """``node`` rolled from ``source`` (``rerolls``: the rerolls until one random die shows at most)."""
    if type(node) is Pool:
        return _roll_pool(node, source, rerolls)
    if type(node) is Const:
        return _new(Part, (node, node.value, (), (), _NONE))
    if type(node) is Chain:
        return _roll_chain(node, source, rerolls)
    if type(node) is Paren or type(node) is Label:
        inner = _evaluate(node[0], source, rerolls)
        return Part(node, inner.value, (), (inner,))
    if type(node) is Compare:
        left, right = _evaluate(node.left, source, rerolls), _evaluate(node.right, source, rerolls)
        return Part(node, 1 if COMPARISONS[node.op](left.value, right.value) else 0, (), (left, right))
    if type(node) is Set:
        return _roll_set(node, source, rerolls)
    if type(node) is Fate:
        dice = tuple(DieRoll(3, (f,), _STANDING, f) for f in (source.fate() for _ in range(node.count)))
        return Part(node, sum(d.value for d in dice), dice)
    if type(node) is Neg:
        inner = _evaluate(node.operand, source, rerolls)
        return Part(node, -inner.value, (), (inner,))
    if type(node) is Call:
        return _roll_call(node, source, rerolls)
    raise TypeError(node)


def _roll_chain(node: Chain, source: RandomDice | GivenDice | _Tape, rerolls: int) -> Part:
    """Every term rolled in order, then joined left to right."""
    parts = [_evaluate(term, source, rerolls) for term in node.terms]
    v = parts[0].value
    for op, part in zip(node.ops, parts[1:]):
        if op == "+":
            v += part.value
        elif op == "-":
            v -= part.value
        elif op == "*":
            v *= part.value
        else:
            v = v % part.value if op == "%" else divide(v, part.value, op)
    return _new(Part, (node, v, (), tuple(parts), _NONE))


def _roll_call(node: Call, source: RandomDice | GivenDice | _Tape, rerolls: int) -> Part:
    """``max``/``min`` of the rolled arguments; a rounding function its one argument."""
    parts = [_evaluate(a, source, rerolls) for a in node.args]
    if len(parts) == 1:  # a rounding function
        return Part(node, parts[0].value, (), tuple(parts))
    pick = max if node.name == "max" else min
    return Part(node, pick(p.value for p in parts), (), tuple(parts))


def _roll_set(node: Set, source: RandomDice | GivenDice | _Tape, rerolls: int) -> Part:
    """A set's items rolled in order; its value the sum of those kept (ties: the item rolled first)."""
    parts = [_evaluate(i, source, rerolls) for i in node.items]
    kept: Sequence[int] = range(len(parts))
    if node.keep is not None:
        side, k = node.keep
        rank = [-p.value for p in parts] if side == "h" else [p.value for p in parts]
        kept = sorted(sorted(kept, key=rank.__getitem__)[:k])
    elif node.where is not None:
        kept = [i for i, p in enumerate(parts) if node.where(p.value)]
    dropped = frozenset(range(len(parts))) - frozenset(kept)
    return Part(node, sum(parts[i].value for i in kept), (), tuple(parts), dropped)


@lru_cache(maxsize=1024)
def _size(node: Node) -> tuple[int, int]:
    """What one roll of ``node`` shows at most: its parts and faces without rerolls until; faces per reroll shown."""
    fixed = until = 0
    for part in walk(node):
        fixed += 1
        if type(part) is Pool:
            for count, die in part.groups:
                rolls = count * (1 + (die.explode or 0))
                if die.reroll is None:
                    fixed += rolls
                elif die.reroll_once:
                    fixed += 2 * rolls
                else:
                    fixed += rolls
                    until += rolls
        elif type(part) is Fate:
            fixed += part.count
    return fixed, until


def shown_rerolls(node: Node, n: int = 1) -> int:
    """The rerolls until (``rr``) one random die shows at most when ``node`` is rolled ``n`` times.

    All the rolls together show at most ``limits.MAX_SHOWN`` faces and parts
    of the expression (a single roll at least one reroll a die): rerolls
    beyond that are drawn directly. Several rolls that cannot stay within it
    are refused.
    """
    fixed, until = _size(node)
    if n > 1 and n * (fixed + until) > limits.MAX_SHOWN:
        raise DiceLimitError(t("limit.shown", n=n, parts=fixed + until, max=limits.MAX_SHOWN))
    if not until:
        return limits.MAX_REROLLS
    return max(1, min(limits.MAX_REROLLS, (limits.MAX_SHOWN // n - fixed) // until))


class Roll(Shown):
    """A rolled expression: every die, what was kept, and the result.

    ``total`` is the value (successes for a counting pool); ``dice`` every die in the order rolled;
    ``given`` whether the faces were entered by hand, ``thrown`` the ``(sides, face)`` of each die
    thrown by hand for it; ``dist`` the exact distribution and ``preview`` what the card shows, both
    computed on first use.
    """

    __slots__ = ("expression", "node", "tree", "given", "thrown", "_dist", "_preview")

    def __init__(self, expression: str, node: Node, tree: Part, given: bool,
                 thrown: tuple[tuple[int, int], ...] = ()) -> None:
        self.expression = expression
        self.node = node
        self.tree = tree
        self.given = given
        self.thrown = thrown
        self._dist: Dist | DiceSyntaxError | None = None
        self._preview: Dist | Estimate | DiceSyntaxError | None = None

    @property
    def total(self) -> int:
        return self.tree.value

    @property
    def counts_successes(self) -> bool:
        node = self._top()
        return isinstance(node, Pool) and node.count is not None

    @property
    def check(self) -> bool | None:
        """Whether a comparison of totals held (``W20+5>=15``: Erfolg or Fehlschlag), None for other expressions."""
        return bool(self.total) if isinstance(self._top(), Compare) else None

    @property
    def comment(self) -> str | None:
        """The comment after the expression (``W20+5 Angriff``), if any."""
        node = self.node
        return node.text if isinstance(node, Label) and node.comment else None

    @property
    def hints(self) -> tuple[str, ...]:
        """One line each where another dialect reads the expression differently, and warnings (``dialects``)."""
        from .dialects import hints
        return hints(self.expression, self.node)

    def _top(self) -> Node:
        node = self.node
        while isinstance(node, (Paren, Label)):
            node = node[0]
        return node

    @property
    def successes(self) -> int | None:
        """The number of successes if the expression counts them, else None."""
        return self.total if self.counts_successes else None

    @property
    def dice(self) -> tuple[DieRoll, ...]:
        out: list[DieRoll] = []
        stack = [self.tree]
        while stack:
            part = stack.pop()
            out.extend(part.dice)
            stack.extend(reversed(part.children))
        return tuple(out)

    @property
    def dist(self) -> Dist:
        """The exact distribution (raises DiceLimitError if too large)."""
        if self._dist is None:
            from .exact import exact_cached
            try:
                self._dist = exact_cached(self.node).labelled(self.expression)
            except DiceLimitError as err:
                self._dist = err
        if isinstance(self._dist, DiceSyntaxError):
            raise self._dist.with_traceback(None)
        return self._dist

    @property
    def preview(self) -> Dist | Estimate:
        """The distribution the card shows: exact within the budget, else estimated (``DiceLimitError`` if neither)."""
        if self._preview is None:
            from .estimate import shown
            try:
                self._preview = shown(self.node, self.expression)
            except DiceLimitError as err:
                self._preview = err
        if isinstance(self._preview, DiceSyntaxError):
            raise self._preview.with_traceback(None)
        return self._preview

    def p_at_least(self) -> float | None:
        """P(result >= this result), or None when no exact distribution exists."""
        try:
            return self.dist.p_at_least(self.total)
        except DiceLimitError:
            return None

    def __int__(self) -> int:
        return self.total

    def __index__(self) -> int:
        return self.total

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Roll):
            return self.to_dict() == other.to_dict()
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def to_dict(self) -> dict[str, Any]:
        return {"expression": self.expression, "total": self.total,
                "successes": self.successes, "given": self.given,
                "dice": [d.to_dict() for d in self.dice]}


class Rolls(Shown, tuple[Roll, ...]):
    """Several rolls of one expression (``%roll -n 5``)."""


def roll(expr: str, *, seed: int | None = None, dice: Sequence[int] | None = None,
         rng: np.random.Generator | None = None,
         variables: Mapping[str, object] | None = None) -> Roll:
    """Roll ``expr`` (``"3W6+2"``, ``"4d6kh3"``, ``"7W6>=5"``).

    ``dice`` gives the faces of physical dice in the order they are rolled;
    ``seed`` or ``rng`` choose the random stream (default: ``default_stream()``, the session's).
    """
    node = parse(expr, variables)
    source = _source(seed, dice, rng)
    tree = _evaluate(node, source, shown_rerolls(node))
    source.finish()
    return Roll(expr.strip(), node, tree, source.given, tuple(source.thrown))


def roll_many(expr: str, n: int, *, seed: int | None = None, dice: Sequence[int] | None = None,
              rng: np.random.Generator | None = None,
              variables: Mapping[str, object] | None = None) -> Rolls:
    """``n`` rolls of ``expr`` from one stream (given dice are shared in order)."""
    if not 1 <= n <= limits.MAX_ROLLS:
        raise DiceLimitError(t("limit.rolls", n=n, max=limits.MAX_ROLLS))
    node = parse(expr, variables)
    rerolls = shown_rerolls(node, n)
    source = _source(seed, dice, rng)
    trees, ends = [], [0]
    for _ in range(n):
        trees.append(_evaluate(node, source, rerolls))
        ends.append(len(source.thrown))
    source.finish()
    return Rolls(Roll(expr.strip(), node, tree, source.given, tuple(source.thrown[a:b]))
                 for tree, a, b in zip(trees, ends, ends[1:]))


class Roller:
    """The dice of one procedure (or one ``%%resolve`` cell): several expressions from one stream.

    Given dice (physical results) are consumed in the order the procedure
    rolls; ``finish`` says whether any were left over. Every face is
    recorded (``mark``/``since``), and ``replay`` puts recorded faces in
    front of the stream, so that a procedure re-run to close its open
    choices sees the same dice and draws new ones after them.
    """

    def __init__(self, seed: int | None = None, dice: Sequence[int] | None = None,
                 rng: np.random.Generator | None = None) -> None:
        self.source = _Tape(_source(seed, dice, rng))

    @classmethod
    def over(cls, source: Any) -> Roller:
        """A roller drawing from a dice source of the caller's: ``face(sides)``, ``faces(sides, n)``,
        ``fate()``, ``finish()``, ``given`` and ``thrown``, as ``RandomDice`` and ``GivenDice`` have them."""
        roller = cls.__new__(cls)
        roller.source = _Tape(source)
        return roller

    @property
    def given(self) -> bool:
        return self.source.given

    @property
    def thrown(self) -> Sequence[tuple[int, int]]:
        """``(sides, face)`` of every numbered die thrown by hand so far (``GivenDice.thrown``); replayed
        faces are not thrown again, so they are not among them."""
        return self.source.inner.thrown

    def roll(self, expr: str, variables: Mapping[str, object] | None = None) -> Roll:
        node = parse(expr, variables)
        before = len(self.thrown)
        tree = _evaluate(node, self.source, shown_rerolls(node))
        return Roll(expr.strip(), node, tree, self.source.given, tuple(self.thrown[before:]))

    def mark(self) -> int:
        """The position in the record of faces (for ``since``)."""
        return len(self.source.tape)

    def since(self, mark: int) -> list[int]:
        """The faces rolled since ``mark``."""
        return self.source.tape[mark:]

    def replay(self, faces: Iterable[int]) -> None:
        """Serve ``faces`` before the stream (recorded results of an earlier run); replaces any left."""
        self.source.replay = [int(f) for f in faces]
        self.source.at = 0

    def end_replay(self) -> int:
        """Drop replayed faces not used; returns how many there were."""
        left = len(self.source.replay) - self.source.at
        self.source.replay, self.source.at = [], 0
        return left

    def finish(self) -> None:
        self.source.finish()


class _Tape:
    """A dice source that serves replayed faces first, then its source; it records every face."""

    def __init__(self, source: RandomDice | GivenDice) -> None:
        self.inner = source
        self.given = source.given
        self.tape: list[int] = []
        self.replay: list[int] = []
        self.at = 0

    def face(self, sides: int) -> int:
        if self.at < len(self.replay):
            f = self.replay[self.at]
            self.at += 1
            if not 1 <= f <= sides:
                raise GivenDiceError(t("given.replay_mismatch", sides=sides, value=f))
        else:
            f = self.inner.face(sides)
        self.tape.append(f)
        return f

    def faces(self, sides: int, n: int) -> list[int]:
        if self.at < len(self.replay):
            return [self.face(sides) for _ in range(n)]
        out = self.inner.faces(sides, n)
        self.tape.extend(out)
        return out

    def fate(self) -> int:
        if self.at < len(self.replay):
            f = self.replay[self.at]
            self.at += 1
            if not -1 <= f <= 1:
                raise GivenDiceError(t("given.replay_mismatch", sides="F", value=f))
        else:
            f = self.inner.fate()
        self.tape.append(f)
        return f

    def finish(self) -> None:
        self.inner.finish()


def default_stream() -> RandomDice:
    """The stream rolls without ``seed``, ``rng`` or given dice draw from: the session's (handed down by the top, ``parts``)."""
    stream: RandomDice = parts.dice_stream()
    return stream


def _source(seed: int | None, dice: Sequence[int] | None,
            rng: np.random.Generator | None) -> RandomDice | GivenDice:
    if dice is not None:
        return GivenDice(dice)
    if seed is not None:
        return RandomDice(np.random.default_rng(seed))
    return default_stream() if rng is None else RandomDice(rng)
