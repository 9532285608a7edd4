"""The one place where the layers are composed.

A lower layer never imports a higher one. What it needs of one (the dice the session's stream, the state
a ruleset and its figure views, an encounter its forecast, ``display`` its renderer) the top hands down:
``compose``, called once by the package's ``__init__``, gives them to ``parts`` and ``display``. Each part
is imported when first used, so that composing loads nothing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import display, parts


def compose() -> None:
    """Hand every lower layer the parts it uses from above."""
    display.shown_by(_renderer)
    parts.hand_down(parts.Parts(dice_stream=_dice_stream, ruleset=_ruleset, figure=_figure, forecast=_forecast))


def _renderer() -> None:
    """Import the renderer, which registers the forms of every value (``display.register``)."""
    from . import render  # noqa: F401 - registers the forms


def _dice_stream() -> Any:
    from .session import current
    return current().dice


def _ruleset(key: str | None) -> Any:
    from .rules.registry import get
    return get(key)


def _figure(record: Mapping[str, Any]) -> Any:
    from .rules.figure import view
    return view(record)


def _forecast(campaign: Any, encounter: str, **options: Any) -> Any:
    from .forecast import forecast
    return forecast(campaign, encounter, **options)
