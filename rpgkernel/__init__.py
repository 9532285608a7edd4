"""rpgkernel: a notebook as a living game-master binder.

``%load_ext rpgkernel`` registers the magics ``%roll``, ``%rpg``, ``%begegnung``, ``%figuren``, ``%%figuren``
and ``%%resolve``; the engines below work without IPython. The names below are imported when first used, so
that importing the package and loading the extension stay light.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: public name -> the module that defines it
_PUBLIC = {
    "Dist": "dice", "Roll": "dice", "Rolls": "dice", "dist": "dice", "roll": "dice", "roll_many": "dice",
    "DiceLimitError": "errors", "DiceSyntaxError": "errors", "GivenDiceError": "errors", "ResolveError": "errors",
    "RpgError": "errors", "StoreError": "errors",
    "rulesets": "rules", "Session": "session", "Campaign": "state",
}

__all__ = [
    "Campaign", "DiceLimitError", "DiceSyntaxError", "Dist", "GivenDiceError", "ResolveError", "Roll", "Rolls",
    "RpgError", "Session", "StoreError", "__version__", "dist", "load_ipython_extension", "resolve", "roll",
    "roll_many", "rulesets", "unload_ipython_extension",
]

from .wiring import compose  # noqa: E402
from .resolve import resolve  # noqa: E402 - light; bound here so that the name is the function, not the package

compose()   # the layers get what they use from above, here and nowhere else (each part imported when first used)

if TYPE_CHECKING:
    from .dice import Dist, Roll, Rolls, dist, roll, roll_many
    from .errors import DiceLimitError, DiceSyntaxError, GivenDiceError, ResolveError, RpgError, StoreError
    from .rules import rulesets
    from .session import Session
    from .state import Campaign


def __getattr__(name: str) -> Any:
    """A public name, or a subpackage (``rpgkernel.session``), imported at its first use."""
    if name in _PUBLIC:
        value = getattr(import_module(f".{_PUBLIC[name]}", __name__), name)
        globals()[name] = value
        return value
    try:
        return import_module(f".{name}", __name__)
    except ModuleNotFoundError as err:
        if err.name != f"{__name__}.{name}":
            raise
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None


def __dir__() -> list[str]:
    return sorted({*globals(), *_PUBLIC})


def load_ipython_extension(ipython) -> None:  # noqa: ANN001 - IPython's shell
    """Called by ``%load_ext rpgkernel``."""
    from .extension import register
    from .numerals import prepare
    register(ipython)
    prepare()   # the number formats load now, not while the first card waits


def unload_ipython_extension(ipython) -> None:  # noqa: ANN001
    """Called by ``%unload_ext rpgkernel``."""
    from .extension import unregister
    unregister(ipython)
