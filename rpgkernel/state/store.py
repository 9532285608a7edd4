"""The journal store: an append-only event log per campaign, plus snapshots.

``open_store(path_or_url)`` gives a ``SQLiteStore`` for a file path (the
default; created if missing) or a ``PostgresStore`` for a ``postgresql://``
URL (several campaigns may share one database). Both keep the same schema
(``schema.py``) and the same guarantees:

- ``append(events)`` is one atomic transaction: all events or none.
- ``seq`` is strictly increasing per campaign and follows commit order, so a
  reader polling ``events(after=last)`` never misses an event.
- Events are written with parameterised queries only; ``kind``, ``tx`` and the
  JSON of ``data`` come back verbatim. Input that cannot be stored verbatim
  (not JSON, too large, see the limits below) is refused with a
  ``StoreError`` before anything is written.
- A snapshot is a cache of the folded state at a ``seq``: the JSON object is
  stored verbatim; the caller puts a format version inside it and ignores
  snapshots it cannot read. Deleting snapshots never loses anything.
"""

from __future__ import annotations

import json
import math
import os
import re
import threading
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from typing import Any

from ..errors import StoreConflict, StoreError
from ..messages import t
from .events import Event

MAX_EVENT_BYTES = 1_000_000        # kind + tx + JSON of data, UTF-8
MAX_APPEND_EVENTS = 100_000        # events in one append
MAX_APPEND_BYTES = 64_000_000      # all events of one append
MAX_SNAPSHOT_BYTES = 256_000_000   # JSON of one snapshot
MAX_NAME_CHARS = 200               # kind, tx, campaign name
MAX_DEPTH = 100                    # nesting of data and snapshots
READ_PAGE = 5000                   # rows fetched per query while iterating
KEEP_SNAPSHOTS = 2                 # snapshots kept per campaign (only the latest is read)

DEFAULT_CAMPAIGN = "default"

_URL = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")


def open_store(path_or_url: str | os.PathLike[str], campaign: str | None = None, **options: Any) -> Store:
    """Open (or create) the store of ``campaign`` at ``path_or_url``.

    A ``postgresql://`` (or ``postgres://``) URL selects PostgreSQL; anything
    else without a URL scheme is a SQLite file path. ``campaign`` defaults to
    the file's campaign (SQLite) or ``"default"`` (PostgreSQL).
    """
    if not isinstance(path_or_url, (str, os.PathLike)):
        raise StoreError(t("store.unknown_scheme", where=repr(path_or_url)))
    target = os.fspath(path_or_url)
    match = _URL.match(target) if isinstance(target, str) else None
    if match is None:
        from .sqlite import SQLiteStore
        return SQLiteStore(target, campaign, **options)
    if match.group(1).lower() in ("postgresql", "postgres"):
        from .postgres import PostgresStore
        return PostgresStore(target, campaign, **options)
    from .postgres import redact_url
    raise StoreError(t("store.unknown_scheme", where=redact_url(target)))


class Store(ABC):
    """The journal of one campaign. Use as a context manager or call ``close()``."""

    #: where the store lives, for messages (a path, or a URL without password)
    where: str
    campaign: str

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._closed = False

    # -- public interface -------------------------------------------------

    def append(self, events: Iterable[Event], after: int | None = None) -> list[Event]:
        """Write ``events`` in one transaction; return them with ``seq`` and ``at``.

        ``seq`` and ``at`` of the given events are ignored: the store assigns
        them. If any event is refused, none is written. With ``after``, the
        write happens only if the journal still ends at that seq; otherwise
        ``StoreConflict`` is raised and nothing is written (the caller read a
        state that another writer has since changed).
        """
        events = list(events)
        rows = encode_events(events)
        if not rows:
            return []
        at = now()
        with self._op("write"):
            seqs = self._append_rows(rows, at, after)
        return [e.with_position(s, at) for e, s in zip(events, seqs, strict=True)]

    def events(self, after: int = 0, kinds: str | Iterable[str] | None = None,
               limit: int | None = None) -> Iterator[Event]:
        """The events with ``seq > after`` in seq order, optionally of some ``kinds`` only.

        Rows are read in pages: events committed while iterating show up at
        the end, never in between.
        """
        after = _count("after", after)
        limit = None if limit is None else _count("limit", limit)
        kind_list = _kinds(kinds)
        self._check_open()
        return self._iter_events(after, kind_list, limit)

    def last_seq(self) -> int:
        """The seq of the newest event (0 for an empty journal)."""
        with self._op("read"):
            return self._last_seq()

    def save_snapshot(self, seq: int, state: dict[str, Any]) -> None:
        """Store ``state`` as the fold of the journal up to and including ``seq``."""
        if not isinstance(state, dict):
            raise StoreError(t("store.snapshot_not_object", type=type(state).__name__))
        problem = json_problem(state)
        if problem:
            raise StoreError(t("store.snapshot_not_json", problem=problem))
        text = _dumps(state)
        size = _utf8_size(text)
        if size is None:
            raise StoreError(t("store.snapshot_not_json", problem=t("store.bad_text")))
        if size > MAX_SNAPSHOT_BYTES:
            raise StoreError(t("store.snapshot_too_large", size=size, max=MAX_SNAPSHOT_BYTES))
        with self._op("write"):
            last = self._last_seq()
            if type(seq) is not int or not 0 <= seq <= last:
                raise StoreError(t("store.snapshot_seq", seq=seq, last=last))
            self._save_snapshot(seq, text, now())

    def latest_snapshot(self) -> tuple[int, dict[str, Any]] | None:
        """``(seq, state)`` of the newest snapshot, or None."""
        with self._op("read"):
            row = self._latest_snapshot()
        if row is None:
            return None
        return row[0], json.loads(row[1])

    def schema_version(self) -> int:
        with self._op("read"):
            return self._schema_version()

    def close(self) -> None:
        with self._lock:
            if not self._closed:
                self._closed = True
                self._close()

    @property
    def closed(self) -> bool:
        return self._closed

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "geschlossen" if self._closed else "offen"
        return f"<{type(self).__name__} {self.where} Kampagne={self.campaign!r} ({state})>"

    # -- backend hooks ----------------------------------------------------

    @abstractmethod
    def _append_rows(self, rows: list[tuple[str, str, str]], at: str, after: int | None) -> list[int]:
        """Insert ``(kind, tx, data_json)`` rows in one transaction; their seqs."""

    @abstractmethod
    def _read_page(self, after: int, kinds: tuple[str, ...] | None,
                   n: int) -> list[tuple[int, str, str, str, str]]:
        """Up to ``n`` rows ``(seq, at, tx, kind, data_json)`` with seq > after."""

    @abstractmethod
    def _last_seq(self) -> int: ...

    @abstractmethod
    def _save_snapshot(self, seq: int, state_json: str, at: str) -> None: ...

    @abstractmethod
    def _latest_snapshot(self) -> tuple[int, str] | None: ...

    @abstractmethod
    def _schema_version(self) -> int: ...

    @abstractmethod
    def _close(self) -> None: ...

    @abstractmethod
    def _wrap(self, err: Exception, action: str) -> StoreError | None:
        """A StoreError for a driver error, or None if ``err`` is not one."""

    # -- helpers ----------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError(t("store.closed", where=self.where))

    @contextmanager
    def _op(self, action: str) -> Iterator[None]:
        with self._lock:
            self._check_open()
            try:
                yield
            except StoreError:
                raise
            except Exception as err:
                wrapped = self._wrap(err, action)
                if wrapped is None:
                    raise
                raise wrapped from err

    def _iter_events(self, after: int, kinds: tuple[str, ...] | None,
                     limit: int | None) -> Iterator[Event]:
        if kinds == ():
            return
        remaining = limit
        while remaining is None or remaining > 0:
            n = READ_PAGE if remaining is None else min(READ_PAGE, remaining)
            with self._op("read"):
                rows = self._read_page(after, kinds, n)
            for seq, at, tx, kind, data in rows:
                yield Event(kind, json.loads(data), tx, seq, at)
            if len(rows) < n:
                return
            after = rows[-1][0]
            if remaining is not None:
                remaining -= len(rows)


# -- validation and encoding -------------------------------------------------

def check_after(last: int, after: int | None) -> None:
    """Refuse an append whose writer has not seen the journal's latest events."""
    if after is not None and last != after:
        raise StoreConflict(t("store.conflict", seen=after, last=last))


def now() -> str:
    """The current UTC time, ISO 8601 with microseconds."""
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


def check_name(what: str, value: object) -> str:
    """``value`` if it is a usable kind, tx or campaign name; else StoreError."""
    if (not isinstance(value, str) or not value or len(value) > MAX_NAME_CHARS
            or "\x00" in value or _utf8_size(value) is None):
        raise StoreError(t("store.bad_name", what=t(f"store.what_{what}"), max=MAX_NAME_CHARS,
                           value=_short(value)))
    return value


def encode_events(events: list[object]) -> list[tuple[str, str, str]]:
    """``(kind, tx, data_json)`` per event, or StoreError for the first refused one."""
    if len(events) > MAX_APPEND_EVENTS:
        raise StoreError(t("store.refused", reason=t("store.append_too_many", n=len(events),
                                                      max=MAX_APPEND_EVENTS)))
    rows = []
    total = 0
    for event in events:
        if not isinstance(event, Event):
            raise StoreError(t("store.refused", reason=t("store.not_event", type=type(event).__name__)))
        try:
            kind = check_name("kind", event.kind)
            tx = check_name("tx", event.tx)
        except StoreError as err:
            raise StoreError(t("store.refused", reason=str(err))) from None
        data = event.data
        if not isinstance(data, dict):
            raise StoreError(t("store.refused", reason=t("store.data_not_object", kind=kind,
                                                          type=type(data).__name__)))
        problem = json_problem(data)
        if problem:
            raise StoreError(t("store.refused", reason=t("store.not_json", kind=kind, problem=problem)))
        text = _dumps(data)
        size = _utf8_size(text)
        if size is None:
            raise StoreError(t("store.refused", reason=t("store.not_json", kind=kind,
                                                          problem=t("store.bad_text"))))
        size += _utf8_size(kind) + _utf8_size(tx)
        if size > MAX_EVENT_BYTES:
            raise StoreError(t("store.refused", reason=t("store.too_large", kind=kind, size=size,
                                                          max=MAX_EVENT_BYTES)))
        total += size
        if total > MAX_APPEND_BYTES:
            raise StoreError(t("store.refused", reason=t("store.append_too_large", n=len(events),
                                                          max=MAX_APPEND_BYTES)))
        rows.append((kind, tx, text))
    return rows


def json_problem(value: object, path: str = "data", depth: int = 0) -> str | None:
    """Why ``value`` does not round-trip through JSON unchanged (German), or None.

    Allowed: dict with str keys, list, str, int, finite float, bool, None
    (exact types, so that what is read back equals what was written).
    """
    if depth > MAX_DEPTH:
        return t("store.too_deep", max=MAX_DEPTH)
    kind = type(value)
    if kind is dict:
        for key, item in value.items():  # type: ignore[attr-defined]
            if type(key) is not str:
                return t("store.bad_key", path=path, key=_short(key), type=type(key).__name__)
            problem = json_problem(item, f"{path}[{key!r}]", depth + 1)
            if problem:
                return problem
        return None
    if kind is list:
        for i, item in enumerate(value):  # type: ignore[arg-type]
            problem = json_problem(item, f"{path}[{i}]", depth + 1)
            if problem:
                return problem
        return None
    if kind is float:
        return None if math.isfinite(value) else t("store.not_finite", path=path, value=value)  # type: ignore[arg-type]
    if kind in (str, int, bool) or value is None:
        return None
    return t("store.bad_type", path=path, type=kind.__name__)


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def _utf8_size(text: str) -> int | None:
    try:
        return len(text.encode("utf-8"))
    except UnicodeEncodeError:
        return None


def _short(value: object, n: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= n else text[:n] + "…"


def _count(name: str, value: object) -> int:
    if type(value) is not int or value < 0:
        raise StoreError(t("store.bad_count", name=name, value=_short(value)))
    return value


def _kinds(kinds: str | Iterable[str] | None) -> tuple[str, ...] | None:
    if kinds is None:
        return None
    items = (kinds,) if isinstance(kinds, str) else tuple(kinds)
    for k in items:
        if not isinstance(k, str):
            raise StoreError(t("store.bad_kinds", value=_short(k)))
    return tuple(dict.fromkeys(items))
