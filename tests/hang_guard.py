"""A guard against a hang that counts the test process's CPU time, not the wall clock.

A loaded machine stretches the wall clock of a test many times over, not the work it does: a guard on
CPU time stops a run that goes on (a hang, work without bound) and nothing that merely waited its turn.
"""

from __future__ import annotations

import signal
import threading
import time
from contextlib import contextmanager

GUARD = 10.0  # CPU seconds: far above any budget of one call, far below "it hangs"
WAITING = 600.0  # wall seconds: the cap for a call that neither ends nor works (it waits on something)


class Hang(Exception):
    """A run went on past its guard."""


@contextmanager
def hang_guard(seconds: float = GUARD):
    """Raise ``Hang`` in the code running once the process has spent ``seconds`` of CPU time in it
    (SIGPROF: the main thread, Unix)."""
    def stop(signum, frame):
        raise Hang(f"still running after {seconds} s of CPU time")
    old = signal.signal(signal.SIGPROF, stop)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    except Hang as err:  # raised inside whatever ran: a fresh traceback that reports cleanly
        raise Hang(str(err)) from None
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)


def finishes(fn, *args, seconds: float = GUARD, **kwargs):
    """``fn(*args, **kwargs)`` in a thread of its own (a hang inside native code is caught too); fails
    the test once the process has spent ``seconds`` of CPU time on it without an end."""
    out: dict = {}

    def run():
        try:
            out["value"] = fn(*args, **kwargs)
        except BaseException as err:  # handed to the test below
            out["error"] = err
    spent, cap = time.process_time(), time.monotonic() + WAITING
    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    while worker.is_alive() and time.process_time() - spent < seconds and time.monotonic() < cap:
        worker.join(0.05)
    assert not worker.is_alive(), \
        f"{getattr(fn, '__name__', fn)}{args} did not finish within {seconds} s of CPU time"
    if "error" in out:
        raise out["error"]
    return out["value"]
