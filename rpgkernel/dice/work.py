"""The work of an exact computation, counted before it is done.

Every operation that can be large charges its steps before it runs: one
step is about one Python-level operation on a float (a cell of a small
convolution); numpy cells are cheaper and counted in proportion. Inside
``counted`` the charges of one computation add up, and the charge that
would pass ``limits.MAX_WORK`` is refused with a ``DiceLimitError`` before
its work starts; outside, each operation is measured alone. The count
depends only on the expression, never on a clock or on what was cached
before, so the same expression is always computed or always refused.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Callable, TypeVar

from ..errors import DiceLimitError
from ..messages import t
from . import limits

T = TypeVar("T")

NUMPY_CELLS = 200   # cells of a numpy convolution per step
OUTPUT = 2          # steps per value of a new distribution (building it, and showing it later)

_spent: ContextVar[list[int] | None] = ContextVar("rpgkernel_dice_work", default=None)


def charge(steps: int) -> None:
    """Count ``steps`` of work about to be done; refuse if the computation would pass the budget."""
    spent = _spent.get()
    total = steps if spent is None else spent[0] + steps
    if total > limits.MAX_WORK:
        raise DiceLimitError(t("limit.exact", size=total, max=limits.MAX_WORK))
    if spent is not None:
        spent[0] = total


def counted(compute: Callable[..., T], *args: object) -> T:
    """``compute(*args)`` as one computation: its charges add up (into a running count, if any)."""
    if _spent.get() is not None:
        return compute(*args)
    token = _spent.set([0])
    try:
        return compute(*args)
    finally:
        _spent.reset(token)
