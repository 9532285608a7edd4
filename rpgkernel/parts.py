"""The parts a lower layer uses but may not import, handed down by the top.

The dice roll from the session's stream, the state reads rulesets and their figure views, an encounter
shows its forecast: each lives in a higher layer. ``rpgkernel.wiring.compose`` (called once, by the
package's ``__init__``) hands them in here; the lower layers read them here and import nothing above.
This module imports nothing of the package."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple


class Parts(NamedTuple):
    """What the top hands down."""

    dice_stream: Callable[[], Any]            # the stream rolls draw from by default: the session's
    ruleset: Callable[[str | None], Any]      # the ruleset for a key (None: play without one)
    figure: Callable[[Mapping[str, Any]], Any]   # a campaign record as the rules read it
    forecast: Callable[..., Any]              # the forecast of (campaign, encounter, **options)


_handed: list[Parts] = []


def hand_down(parts: Parts) -> None:
    """Called by the composition alone (``rpgkernel.wiring.compose``)."""
    _handed[:] = [parts]


def _parts() -> Parts:
    if not _handed:
        raise RuntimeError("rpgkernel's parts are not composed: rpgkernel.wiring.compose() hands them down")
    return _handed[0]


def dice_stream() -> Any:
    """The stream rolls without ``seed``, ``rng`` or given dice draw from."""
    return _parts().dice_stream()


def ruleset(key: str | None) -> Any:
    """The ruleset for ``key`` (None: play without one); raises for an unknown key."""
    return _parts().ruleset(key)


def figure(record: Mapping[str, Any]) -> Any:
    """A record the campaign keeps as the rules read it."""
    return _parts().figure(record)


def forecast(campaign: Any, encounter: str, **options: Any) -> Any:
    """The forecast of ``encounter``."""
    return _parts().forecast(campaign, encounter, **options)
