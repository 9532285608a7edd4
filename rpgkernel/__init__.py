"""rpgkernel: a notebook as a living game-master binder.

``%load_ext rpgkernel`` registers the magics ``%roll``, ``%rpg``, ``%begegnung``, ``%figuren``, ``%%figuren``
and ``%%resolve``; the engines below work without IPython.
"""

from importlib import import_module

from .dice import Dist, Roll, Rolls, dist, roll, roll_many
from .display import load_with
from .errors import DiceLimitError, DiceSyntaxError, GivenDiceError, ResolveError, RpgError, StoreError
from .resolve import resolve
from .resolve.run import weigh_with
from .rules import rulesets
from .session import Session
from .state import Campaign, forecasting

__version__ = "0.1.0"

load_with(lambda: import_module(".render", __name__))  # values show themselves through the forms it registers
forecasting.use(lambda: import_module(".forecast", __name__).forecast)  # imported at the first forecast
weigh_with(lambda: import_module(".forecast.options", __name__).weigh)   # … or the first advice weighed

__all__ = [
    "Campaign", "DiceLimitError", "DiceSyntaxError", "Dist", "GivenDiceError", "ResolveError", "Roll", "Rolls",
    "RpgError", "Session", "StoreError", "__version__", "dist", "load_ipython_extension", "resolve", "roll",
    "roll_many", "rulesets",
    "unload_ipython_extension",
]


def load_ipython_extension(ipython) -> None:  # noqa: ANN001 - IPython's shell
    """Called by ``%load_ext rpgkernel``."""
    from .magics import register
    from .numerals import prepare
    register(ipython)
    prepare()   # the number formats load now, not while the first card waits


def unload_ipython_extension(ipython) -> None:  # noqa: ANN001
    """Called by ``%unload_ext rpgkernel``."""
    from .magics import unregister
    unregister(ipython)
