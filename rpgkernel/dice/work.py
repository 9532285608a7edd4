"""The work of an exact computation, counted before it is done.

Every operation that can be large charges its steps before it runs: one
step is about one Python-level operation on a float (a cell of a small
convolution), about 0.1 µs of CPU (the budget, about 0.2 s); numpy cells are
cheaper and counted in proportion, so that the count stays within a factor of
two of the time taken (``benchmarks/bench.py --only sums``). While a
computation counts (``counter``), the charges of all its steps add up, and
the charge that would pass ``limits.MAX_WORK`` is refused with a
``DiceLimitError`` before its work starts; outside, each operation is
measured alone. Work that the dice limit bounds by itself (a count per die
of a success pool, the packed sum of one small pool) is not charged. The
count depends only on the expression, never on a clock or on what was
cached before, so the same expression is always computed or always refused.
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
COUNT: ContextVar[list | None] = ContextVar("rpgkernel_dice_work", default=None)


def charge(steps: int) -> None:
    """Count ``steps`` of work about to be done; refuse if the step or the computation would pass the budget."""
    count = COUNT.get() or counter()
    total = count[0] = count[0] + steps
    if total > limits.MAX_WORK or steps > limits.MAX_WORK:
        raise DiceLimitError(t("limit.exact", size=max(total, steps), max=limits.MAX_WORK))


def counter() -> list:
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
