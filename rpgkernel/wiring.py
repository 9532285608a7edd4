"""The one place where the layers are composed.

A lower layer never imports a higher one. Where it needs one at run time (the state a ruleset, an
encounter its forecast, the dice the session's stream), it asks here, and the part is imported when
first asked for. ``display`` is handed its renderer here, when this module is first imported (by the
dice, the state and the kit, so before any value exists)."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from . import display


def renderer() -> None:
    """Import the renderer, which registers the forms of every value (``display.register``)."""
    import_module("rpgkernel.render")


def ruleset(key: str | None) -> Any:
    """The ruleset for ``key`` (None: play without one), found through the ruleset registry."""
    return import_module("rpgkernel.rules.registry").get(key)


def figure(record: Any) -> Any:
    """A record the campaign keeps as the rules read it (``rpgkernel.rules.figure.view``)."""
    return import_module("rpgkernel.rules.figure").view(record)


def forecast(campaign: Any, encounter: str, **options: Any) -> Any:
    """The forecast of ``encounter`` (``rpgkernel.forecast.forecast``)."""
    return import_module("rpgkernel.forecast").forecast(campaign, encounter, **options)


def dice_stream() -> Any:
    """The dice stream rolls draw from by default: the current session's."""
    return import_module("rpgkernel.session").current().dice


display.shown_by(renderer)   # values are shown through the renderer, imported when the first is shown
