"""The work of an exact computation, counted before it is done.

Each large operation charges its steps (about one float operation, 0.1 µs)
before it runs; inside ``counter`` the charges add up, and one that would pass
``limits.MAX_WORK`` raises ``DiceLimitError`` before its work starts. The
count depends only on the expression, never on a clock or the cache.
"""

from __future__ import annotations

from contextvars import ContextVar

from ..errors import DiceLimitError
from ..messages import t
from . import limits

NUMPY_CELLS = 200   # cells of a simple numpy operation per step
OUTPUT = 2          # steps per value of a new distribution (building it, and showing it later)

IDLE = -(2**62)  # the count between computations: what a lone operation adds never reaches the budget

#: this context's count of steps (``counter``): IDLE, or the steps of the computation under way
COUNT: ContextVar[list[int] | None] = ContextVar("rpgkernel_dice_work", default=None)


def charge(steps: int) -> None:
    """Count ``steps`` of work about to be done; refuse if the step or the computation would pass the budget."""
    count = COUNT.get() or counter()
    total = count[0] = count[0] + steps
    if total > limits.MAX_WORK or steps > limits.MAX_WORK:
        raise DiceLimitError(t("limit.exact", size=max(total, steps), max=limits.MAX_WORK))


def counter() -> list[int]:
    """This context's count, ``[steps]``, made on first use (IDLE).

    A computation sets it to 0 before it starts (unless a computation is
    counting already, which it then joins) and back to IDLE when it ends.
    """
    count = COUNT.get()
    if count is None:
        count = [IDLE]
        COUNT.set(count)
    return count


counter()  # the main thread's, made at import
