"""Where an encounter finds its forecast: the forecast plays fights through the rules, which the state
never imports, so the package tells the state where it is (as the rules register their lookup,
``rulebook.use``); it is imported at the first forecast."""

from __future__ import annotations

from typing import Any, Callable

_loader: list[Callable[[], Callable[..., Any]]] = []


def use(loader: Callable[[], Callable[..., Any]]) -> None:
    """Forecast encounters with what ``loader()`` returns: ``forecast(campaign, encounter, **options)``."""
    _loader[:] = [loader]


def forecast(campaign: Any, encounter: str, **options: Any) -> Any:
    """The forecast of ``encounter`` (``rpgkernel.forecast.forecast``)."""
    return _loader[0]()(campaign, encounter, **options)
