"""The ``%%resolve`` language: ``language`` reads lines into commands, ``run`` carries them out.

``rpgkernel.resolve`` (the function) is ``run.resolve``, imported at its first call (and ``Resolutions``
and ``pending`` when first asked for), so that importing the package stays light.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .run import Resolutions, pending

__all__ = ["Resolutions", "pending", "resolve"]


def resolve(source: str, **options: Any) -> Any:
    """Carry out the ``%%resolve`` lines of ``source`` (the options of ``run.resolve``: ``ruleset``,
    ``campaign``, ``seed``, ``dice``, ``preview``, ``figures``, ``dice_by``)."""
    return import_module(".run", __name__).resolve(source, **options)


def __getattr__(name: str) -> Any:
    if name not in ("Resolutions", "pending"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(".run", __name__), name)
