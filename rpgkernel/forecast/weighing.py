"""The advice's chances of winning, weighed after the card in a thread of their own, one open
resolution at a time, kept by the state they were weighed on.

``ask(state, pid)`` gives the ``Weighing`` of the open resolution ``pid``; ``shown`` and ``shown_dicts``
put what is known into the advice. When a weighing stops: docs/mitwirken.md, "Die Siegchance einer
Möglichkeit"."""

from __future__ import annotations

import hashlib
import json
import logging
import queue
import threading
import time
from collections import OrderedDict
from dataclasses import replace
from typing import Any, Callable, Mapping, Sequence

from ..rules.advice import Advice, win_said
from .options import weigh, weighed_options

KEPT = 64   # weighings kept, the least recently asked for dropped first
#: seconds a weighing waits after it was asked for: the card and the panel that asked are drawn first,
#: before the weighing takes its share of the interpreter
START_AFTER = 0.2
_log = logging.getLogger(__name__)

Option = tuple[str, str, str]   # (choice key, who, option label)


class Weighing:
    """The chances of winning after each option of one open resolution's advice on one state."""

    def __init__(self, key: str, scope: str, state: dict[str, Any], pid: str, record: Mapping[str, Any],
                 current: Callable[[], Mapping[str, Any]] | None = None) -> None:
        """``current()``: the campaign's state as it is now (read in the weighing's thread, never changed)."""
        self.key, self.scope, self.pid, self.current = key, scope, pid, current
        self.asked = time.monotonic()
        self.options: tuple[Option, ...] = tuple(weighed_options(record))
        self.wins: dict[Option, float] = {}   # each option weighed so far that has a number
        self.weighed: set[Option] = set()      # each option weighed so far
        self._work: tuple[dict[str, Any], Mapping[str, Any]] | None = (state, record)
        self._listeners: list[Callable[[Weighing], None]] = []
        self._stop = threading.Event()
        self._finished = threading.Event()

    @property
    def finished(self) -> bool:
        return self._finished.is_set()

    @property
    def progress(self) -> tuple[int, int]:
        """(options weighed, options to weigh)."""
        return len(self.weighed), len(self.options)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the weighing has finished (at most ``timeout`` seconds); whether it has."""
        return self._finished.wait(timeout)

    def known(self, option: Option) -> tuple[float | None, bool]:
        """The chance of winning after ``option`` as known now, and whether it is still being weighed."""
        return self.wins.get(option), option in self.options and option not in self.weighed and not self.finished

    def listen(self, heard: Callable[[Weighing], None]) -> None:
        """Call ``heard(self)`` (in the weighing's thread) after each option weighed and at the end."""
        with _lock:
            if not self.finished and heard not in self._listeners:
                self._listeners.append(heard)

    @property
    def stopped(self) -> bool:
        """Whether the weighing was stopped before its end (a newer state, its resolution closed)."""
        return self._stop.is_set()

    def _closed(self) -> bool:
        """Whether to stop now: asked to, or the resolution is no longer open in the campaign."""
        if not self._stop.is_set() and self.current is not None and self.pid not in self.current().get("pending", {}):
            self._stop.set()
        return self._stop.is_set()

    def _run(self) -> None:
        assert self._work is not None
        state, record = self._work
        try:
            if not self._stop.wait(self.asked + START_AFTER - time.monotonic()) and not self._closed():
                weigh(state, self.pid, record, self._heard, self._closed)
        except Exception as err:   # a bug: the advice stays without the chances, the log says why
            _log.error("weighing the advice failed: %s", type(err).__name__)
        finally:
            self._work = None
            with _lock:
                if self._stop.is_set():
                    _cache.pop(self.key, None)   # a stopped weighing is started again when asked
                self._finished.set()
            self._tell()

    def _heard(self, option: Option, win: float | None) -> None:
        with _lock:
            if win is not None:
                self.wins[option] = win
            self.weighed.add(option)
        self._tell()

    def _tell(self) -> None:
        global _changes
        with _lock:
            _changes += 1
            listeners = list(self._listeners)
            if self.finished:
                self._listeners.clear()
        for heard in listeners:
            try:
                heard(self)
            except Exception as err:   # a listener's bug does not stop the weighing
                _log.error("a listener of the advice's weighing failed: %s", type(err).__name__)


_lock = threading.RLock()
_cache: OrderedDict[str, Weighing] = OrderedDict()
_running: dict[tuple[str, str], Weighing] = {}   # (scope, pid) -> its newest weighing
_queue: queue.LifoQueue[Weighing] = queue.LifoQueue()
_worker: threading.Thread | None = None
_changes = 0


def key(state: Mapping[str, Any], pid: str, scope: str = "") -> str:
    """The key of a weighing: the state's contents that the chances read, the resolution's id, the scope."""
    text = json.dumps({k: v for k, v in state.items() if k not in ("seq", "history")}, sort_keys=True, default=str)
    return hashlib.sha256(f"{scope}\x00{pid}\x00{text}".encode()).hexdigest()


def ask(state: Mapping[str, Any], pid: str, scope: str = "", heard: Callable[[Weighing], None] | None = None,
        current: Callable[[], Mapping[str, Any]] | None = None) -> Weighing | None:
    """The weighing of the open resolution ``pid`` of ``state`` (started in the background where none
    is known; ``heard`` listens to it); None where it is not open or has nothing to weigh. It stops once
    ``pid`` is no longer open in ``current()``, the campaign's state now. ``scope`` keeps apart weighings
    that must not share their timing (a player's page). ``state`` is read, not copied: it must not change."""
    record = state.get("pending", {}).get(pid)
    if record is None or not weighed_options(record):
        return None
    found = key(state, pid, scope)
    with _lock:
        w = _cache.get(found)
        if w is None:
            w = _cache[found] = Weighing(found, scope, dict(state), pid, record, current)
            while len(_cache) > KEPT:
                _cache.popitem(last=False)
            older = _running.get((scope, pid))
            if older is not None and not older.finished:
                older._stop.set()   # the state moved on
            _running[scope, pid] = w
            _queue.put(w)
            _start()
        else:
            _cache.move_to_end(found)
            if w.current is None:
                w.current = current
    if heard is not None:
        w.listen(heard)
    return w


def changes() -> int:
    """How often a weighing has moved on (an option weighed, one finished): a page looks again when it grew."""
    return _changes


def _start() -> None:
    global _worker
    if _worker is None or not _worker.is_alive():
        _worker = threading.Thread(target=_work, name="rpgkernel-rat", daemon=True)
        _worker.start()


def _work() -> None:
    while True:
        w = _queue.get()
        w._run()
        with _lock:
            if _running.get((w.scope, w.pid)) is w:
                del _running[w.scope, w.pid]


def shown(advice: Sequence[Advice], w: Weighing | None) -> list[Advice]:
    """``advice`` with each option's chance of winning as ``w`` knows it now (``waiting`` while it is
    being weighed)."""
    if w is None:
        return list(advice)
    out = []
    for a in advice:
        options = []
        for o in a.options:
            win, waiting = w.known((a.key, a.who, o.label))
            options.append(replace(o, win=win, waiting=waiting))
        out.append(replace(a, options=tuple(options)))
    return out


def shown_dicts(advice: Sequence[Mapping[str, Any]], w: Weighing | None) -> list[dict[str, Any]]:
    """The same for advice as data (``Advice.to_dict``): each option's ``win``, ``waiting`` and its line
    in ``said``."""
    if w is None:
        return [dict(a) for a in advice]
    out = []
    for a in advice:
        options = []
        for o in a["options"]:
            win, waiting = w.known((a["key"], a["who"], o["label"]))
            line = win_said(win, waiting)
            options.append({**o, "win": win, "waiting": waiting, "said": [*o["said"], *([line] if line else [])]})
        out.append({**a, "options": options})
    return out
