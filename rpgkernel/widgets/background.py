"""A widget's long work in a thread of its own, so that the kernel keeps handling the widget's messages
(its stop button's too) while the work runs.

What the work shows goes back to the main thread through the kernel's event loop
(``IOLoop.add_callback``), where every trait change is made. Outside a kernel it is shown at once.
"""

from __future__ import annotations

import threading
from typing import Callable


class Background:
    """One piece of work at a time in a thread of its own, with a stop flag it may ask."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.show = _main_thread()

    def start(self, work: Callable[[], None]) -> None:
        """Run ``work()`` in a new thread; ``stopped()`` says False until ``stop()``."""
        self._stop.clear()
        self.thread = threading.Thread(target=work, name=self.name, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        """Ask the work to stop (it asks ``stopped()`` where it can)."""
        self._stop.set()

    def stopped(self) -> bool:
        return self._stop.is_set()

    def join(self, timeout: float | None = None) -> None:
        """Wait until the work has ended (at most ``timeout`` seconds)."""
        if self.thread is not None:
            self.thread.join(timeout)


def _main_thread() -> Callable[[Callable[[], None]], None]:
    """How to run a call in the kernel's main thread from any thread: through its event loop; where
    there is no kernel, at once."""
    from IPython import get_ipython
    loop = getattr(getattr(get_ipython(), "kernel", None), "io_loop", None)
    return loop.add_callback if loop is not None else _at_once


def _at_once(call: Callable[[], None]) -> None:
    call()
