"""What a forecast is asked: its path, how many fights or how precise, the target rule, the morale, the
seed, and the hooks that hear of it on the way."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable

from ..messages import t
from ..rules.tactics import zielwahl as checked_zielwahl
from .chain import MAX_STATES
from .fight import ForecastError
from .value import WEGE

#: the half-width of the 95 % interval of every side's chance that a forecast without ``n`` plays to
PRECISION = 0.01
#: the most fights one forecast plays
MAX_FIGHTS = 20_000


@dataclass(frozen=True)
class Request:
    """The options of one forecast (``forecast``'s keywords); ``checked`` refuses a bad one in German."""

    n: int | None = None
    seed: int | None = None
    zielwahl: str = "schwächste"
    precision: float = PRECISION
    weg: str = "auto"
    moral: bool = True
    max_states: int = MAX_STATES
    progress: Callable[[int, int], None] | None = None
    stop: Callable[[], bool] | None = None
    notice: Callable[[str], None] | None = None

    @classmethod
    def of(cls, request: Request | None, options: dict[str, Any]) -> Request:
        """``request`` (default: every option at its default) with ``options`` (keywords) put over it."""
        return replace(request or cls(), **options)

    def checked(self) -> str:
        """The target rule ``zielwahl`` names, once every option is checked (``ForecastError`` where one is bad)."""
        n, precision, weg = self.n, self.precision, self.weg
        if n is not None and (isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_FIGHTS):
            raise ForecastError(t("forecast.bad_n", value=repr(n)[:40], max=MAX_FIGHTS))
        if isinstance(precision, bool) or not isinstance(precision, (int, float)) or not 0.001 <= precision <= 0.5:
            raise ForecastError(t("forecast.bad_precision", value=repr(precision)[:40]))
        if weg not in ("auto", *WEGE):
            raise ForecastError(t("forecast.bad_weg", value=repr(weg)[:40], known=", ".join(("auto", *WEGE))))
        if weg == "exakt" and n is not None:
            raise ForecastError(t("forecast.exact_no_n"))
        if not isinstance(self.moral, bool):
            raise ForecastError(t("forecast.bad_moral", value=repr(self.moral)[:40]))
        try:
            return checked_zielwahl(self.zielwahl)
        except ValueError as err:
            raise ForecastError(str(err)) from None
