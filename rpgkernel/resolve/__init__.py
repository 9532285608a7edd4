"""The ``%%resolve`` language: ``language`` reads lines into commands, ``run`` carries them out.

``rpgkernel.resolve`` (the function) is ``run.resolve``.
"""

from .run import Resolutions, pending, resolve

__all__ = ["Resolutions", "pending", "resolve"]
