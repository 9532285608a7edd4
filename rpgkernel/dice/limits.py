"""Bounds on the work any dice expression may ask for.

A request beyond them is refused at once with a ``DiceLimitError``; nothing
hangs or exhausts memory.
"""

MAX_LENGTH = 2_000          # characters of an expression
MAX_DEPTH = 64              # nesting of parentheses, braces and functions
MAX_NUMBER = 10**9          # any literal number, and an integer variable
MAX_VALUE = 10**15          # any value a part of an expression can take (float-exact, int64-safe)
MAX_DICE = 1_000            # dice in one expression (before explosions)
MAX_SIDES = 10_000          # faces of one die
MAX_EXPLODE = 20            # extra dice one exploding die may add
MAX_WORK = 2_000_000        # steps of work an exact distribution may take (see work.py)
MAX_DRAWS = 4_000_000       # die faces one estimated distribution may simulate (see estimate.py)
MAX_REROLLS = 100           # shown rerolls of one die (``rr``) before sampling directly
MAX_ROLLS = 1_000           # rolls of one expression at once (``%roll -n``)
MAX_SHOWN = 20_000          # die faces and parts of the expression several rolls at once may show (roll.shown_rerolls)
NEGLECTED = 1e-12           # probability an explosion without a cap may leave out (beyond its bound)
MAX_BOUND = 100             # extra dice that bound at most; an explosion that needs more is refused
