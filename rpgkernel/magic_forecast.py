"""``%rpg prognose``: the forecast of an encounter, with a progress bar while its fights are played; an
interrupt (Kernel > Interrupt, Ctrl+C) stops it between two batches of fights with what was played."""

from __future__ import annotations

import html
import signal
import time
from typing import Any

from . import magic_args as args
from . import session
from .errors import RpgError
from .forecast import MAX_FIGHTS, PRECISION, forecast
from .forecast.value import Forecast
from .messages import t
from .numerals import number, percent
from .render import Notice

OPTIONS = {"-n": "anzahl", "--anzahl": "anzahl", "--count": "anzahl", "--seed": "seed",
           "--zielwahl": "zielwahl", "--targets": "zielwahl", "--genauigkeit": "genauigkeit",
           "--precision": "genauigkeit", "--weg": "weg", "--path": "weg", "--ohne-moral": "ohne_moral",
           "--no-morale": "ohne_moral"}
FLAGS = ("ohne_moral",)


class Progress:
    """A progress bar shown while a forecast plays its fights (in a notebook's kernel only: a terminal
    gets the result alone); updated in place, it says at the end how many fights took how long."""

    def __init__(self) -> None:
        self.handle: Any = None
        self.start = time.perf_counter()
        try:
            from IPython import get_ipython
            from IPython.display import display
        except ImportError:
            return
        shell = get_ipython()
        if shell is not None and getattr(shell, "kernel", None) is not None:
            self.handle = display(_Bar(0, 1, 0.0), display_id=True)

    def __call__(self, done: int, planned: int) -> None:
        if self.handle is not None:
            self.handle.update(_Bar(done, planned, time.perf_counter() - self.start))

    def notice(self, text: str) -> None:
        """A word said at once while the fights are played (why the forecast is slow), above the bar's end."""
        if self.handle is not None:
            from IPython.display import display
            display(_Done(text))

    def close(self, f: Forecast | None) -> None:
        """The last word of the bar: the forecast ``f``, or none (stopped before it had a result)."""
        if self.handle is None:
            return
        seconds = number(time.perf_counter() - self.start, 1)
        if f is None:
            self.handle.update(_Done(t("forecast.progress_interrupted", seconds=seconds)))
        elif f.stopped:
            self.handle.update(_Done(t("forecast.progress_stopped", done=f.fights, seconds=seconds)))
        elif f.method == "exakt":
            self.handle.update(_Done(t("forecast.progress_exact", seconds=seconds)))
        else:
            self.handle.update(_Bar(f.fights, f.fights, time.perf_counter() - self.start))


class Interrupt:
    """While a forecast runs: the first interrupt (SIGINT: Kernel > Interrupt, Ctrl+C) asks it to stop
    after its batch of fights (``Interrupt()`` is its stop hook); a second one stops it at once, as a
    ``KeyboardInterrupt``. Outside the main thread, where no signal handler can be set, interrupts are
    left as they are."""

    def __init__(self) -> None:
        self.asked = False
        self._before: Any = None
        self._set = False

    def __call__(self) -> bool:
        return self.asked

    def __enter__(self) -> Interrupt:
        try:
            self._before = signal.signal(signal.SIGINT, self._interrupted)
            self._set = True
        except ValueError:   # not the main thread
            pass
        return self

    def __exit__(self, *_exc: object) -> None:
        if self._set:   # a handler set outside Python reads back as None: the default then
            signal.signal(signal.SIGINT, signal.default_int_handler if self._before is None else self._before)

    def _interrupted(self, _signum: int, _frame: object) -> None:
        if self.asked:
            raise KeyboardInterrupt
        self.asked = True


class _Done:
    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text

    def _repr_html_(self) -> str:
        return f'<div class="rpgk-progress">{html.escape(self.text)}</div>'


class _Bar:
    def __init__(self, done: int, planned: int, seconds: float) -> None:
        self.done, self.planned, self.seconds = done, max(planned, done, 1), seconds

    def __repr__(self) -> str:
        return t("forecast.progress", done=self.done, planned=self.planned, seconds=number(self.seconds, 1))

    def _repr_html_(self) -> str:
        return (f'<div class="rpgk-progress"><progress value="{self.done}" max="{self.planned}" '
                f'aria-label="{html.escape(repr(self))}"></progress> {html.escape(repr(self))}</div>')


def prognose(words: list[str], usage: str) -> Forecast | Notice:
    """``%rpg prognose [BEGEGNUNG] [-n N] [--seed N] [--zielwahl Z] [--genauigkeit 0,01] [--weg W]
    [--ohne-moral]``."""
    opts, rest = args.options(words, OPTIONS, usage, FLAGS)
    if len(rest) > 1:
        raise RpgError(t("rpg.words", words=" ".join(rest[1:])) + "\n" + t("magic.usage", usage=usage))
    s = session.current()
    campaign = s.need_campaign()
    n = args.integer(opts, "anzahl", "-n", t("forecast.expected_n", max=MAX_FIGHTS), low=1, high=MAX_FIGHTS)
    seed = args.integer(opts, "seed", "--seed")
    precision = _precision(opts.get("genauigkeit"))
    progress = Progress()
    try:
        with Interrupt() as stop:
            f = forecast(campaign, rest[0] if rest else None, n=n, seed=s.seed if seed is None else seed,
                         zielwahl=str(opts.get("zielwahl", "schwächste")), precision=precision,
                         progress=progress, stop=stop, weg=str(opts.get("weg", "auto")),
                         moral=not opts.get("ohne_moral"), notice=progress.notice)
    except KeyboardInterrupt:   # interrupted twice: no result, and no traceback either
        progress.close(None)
        return Notice(t("forecast.interrupted"))
    progress.close(f)
    return f


def _precision(value: object) -> float:
    """``--genauigkeit``: a probability (``0,01``, ``0.01``) or percent (``1%``, ``1 %``)."""
    if value is None:
        return PRECISION
    text = str(value).strip().replace(",", ".")
    try:
        p = float(text.rstrip("% ").strip()) / (100 if text.endswith("%") else 1)
    except ValueError:
        p = -1.0
    if not 0.001 <= p <= 0.5:
        raise RpgError(t("magic.bad_value", option="--genauigkeit", value=value,
                         expected=t("forecast.expected_precision", p=percent(PRECISION))))
    return p

