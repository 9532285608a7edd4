"""The journal store: an append-only event log per campaign, plus snapshots.

``open_store(path_or_url)`` gives a ``SQLiteStore`` for a file path or a
``PostgresStore`` for a ``postgresql://`` URL, with the same schema and
guarantees: ``append`` is atomic, ``seq`` strictly increasing without gaps,
data comes back verbatim, every row is checksummed (``CampaignDamaged``, or
listed in ``damage`` when ``read_only``). Snapshots are a cache.
"""

from __future__ import annotations

import json
import math
import threading
import zlib
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime, timezone
from typing import Any, cast

from ..errors import StoreConflict, StoreError
from ..messages import t
from .damage import EVENTS, FILE, HEADS, SNAPSHOTS, CampaignDamaged, Damage
from .events import Event

MAX_EVENT_BYTES = 1_000_000        # kind + tx + JSON of data, UTF-8
MAX_APPEND_EVENTS = 100_000        # events in one append
MAX_APPEND_BYTES = 64_000_000      # all events of one append
MAX_SNAPSHOT_BYTES = 256_000_000   # JSON of one snapshot
MAX_NAME_CHARS = 200               # kind, tx, campaign name
MAX_DEPTH = 100                    # nesting of data and snapshots
READ_PAGE = 5000                   # rows fetched per query while iterating
RESTORE_PAGE = 5000                # events checked at a time by restore
KEEP_SNAPSHOTS = 2                 # snapshots kept per campaign (the latest readable one is used)

DEFAULT_CAMPAIGN = "default"
NO_SUMS = 2**62                    # checked_from of a store without checksums (schema < 3)


class Unreadable(Exception):
    """Raised by a backend hook when the database cannot read a page or row (damage)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Store(ABC):
    """The journal of one campaign. Use as a context manager or call ``close()``."""

    #: where the store lives, for messages (a path, or a URL without password)
    where: str
    campaign: str

    def __init__(self, read_only: bool = False) -> None:
        self._lock = threading.RLock()
        self._closed = False
        self.read_only = read_only
        #: the first seq whose rows must carry a checksum (rows before schema 3 have none)
        self._checked_from = 1
        self._found: dict[tuple[str, int | None], Damage] = {}

    # -- public interface -------------------------------------------------

    def append(self, events: Iterable[Event], after: int | None = None) -> list[Event]:
        """Write ``events`` in one transaction; return them with ``seq`` and ``at``.

        ``seq`` and ``at`` of the given events are ignored: the store assigns
        them. If any event is refused, none is written. With ``after``, the
        write happens only if the journal still ends at that seq; otherwise
        ``StoreConflict`` is raised and nothing is written (the caller read a
        state that another writer has since changed). A journal whose end
        does not match its head row is not written to (``CampaignDamaged``).
        """
        self._check_writable()
        events = list(events)
        rows = encode_events(events)
        if not rows:
            return []
        at = now()
        with self._op("write"):
            seqs = self._append_rows([(kind, tx, data, at) for kind, tx, data in rows], after)
        return [e.with_position(s, at) for e, s in zip(events, seqs, strict=True)]

    def restore(self, events: Iterable[Event]) -> int:
        """Write ``events`` with their own ``seq`` (1, 2, …) and ``at`` into this empty store.

        For exports: a copy keeps the journal's numbering and times. One
        transaction (all or nothing); returns how many.
        """
        self._check_writable()
        events = list(events)
        last = self.last_seq()
        if last:
            raise StoreError(t("store.restore_not_empty", where=self.where, n=last))
        for i, event in enumerate(events, 1):
            if not isinstance(event, Event) or event.seq != i or not isinstance(event.at, str):
                raise StoreError(t("store.restore_order", n=i))
        rows: list[tuple[str, str, str, str]] = []
        for start in range(0, len(events), RESTORE_PAGE):  # checked in pages, written at once
            chunk = events[start:start + RESTORE_PAGE]
            rows += [(kind, tx, data, cast(str, e.at)) for (kind, tx, data), e in zip(encode_events(chunk), chunk)]
        if rows:
            with self._op("write"):
                self._append_rows(rows, 0)
        return len(events)

    def events(self, after: int = 0, kinds: str | Iterable[str] | None = None,
               limit: int | None = None) -> Iterator[Event]:
        """The events with ``seq > after`` in seq order, optionally of some ``kinds`` only.

        Rows are read in pages: events committed while iterating show up at
        the end, never in between. A damaged row (or, without ``kinds``, a gap)
        raises ``CampaignDamaged``; a read-only store skips it and lists it in
        ``damage``.
        """
        after = _count("after", after)
        limit = None if limit is None else _count("limit", limit)
        kind_list = _kinds(kinds)
        self._check_open()
        return self._rows(after, kind_list, limit, "skip" if self.read_only else "raise")

    def scan(self, after: int = 0) -> Iterator[Event | Damage]:
        """Every seq after ``after`` in order: its event, or the ``Damage`` that stands in its place.

        A run of missing rows is one ``Damage``; damage is listed in
        ``damage`` and never raised. The end of the journal is ``check``'s.
        """
        after = _count("after", after)
        self._check_open()
        return self._rows(after, None, None)

    def check(self) -> list[Damage]:
        """What is wrong with the journal as a whole: its end against the head row, missing rows.

        Cheap (no row is read): a count and the last seq; gaps are looked up
        only when the count says there are some.
        """
        found: list[Damage] = []
        try:
            with self._op("read"):
                head, last, count = self._end()
                gaps = self._gaps() if count < last else []
        except Unreadable as err:
            found.append(Damage(FILE, None, t("store.damage_unreadable_all", reason=err.reason)))
        else:
            found += [Damage(EVENTS, a, t("store.damage_missing"), last=b) for a, b in gaps]
            found += end_damage(head, last)
        for damage in found:
            self.note(damage)
        return found

    @property
    def damage(self) -> tuple[Damage, ...]:
        """Everything found damaged so far (by ``check``, reading, and ``note``), in order."""
        return tuple(sorted(self._found.values()))

    def note(self, damage: Damage) -> None:
        """Add a finding to ``damage`` (a campaign adds what does not fold)."""
        self._found.setdefault((damage.table, damage.seq), damage)

    def last_seq(self) -> int:
        """The seq of the newest event (0 for an empty journal)."""
        with self._op("read"):
            return self._last_seq()

    def save_snapshot(self, seq: int, state: dict[str, Any]) -> None:
        """Store ``state`` as the fold of the journal up to and including ``seq``."""
        self._check_writable()
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
            at = now()
            self._save_snapshot(seq, text, at, snapshot_sum(seq, at, text))

    def snapshots(self) -> Iterator[tuple[int, dict[str, Any]] | Damage]:
        """The stored snapshots, newest first: ``(seq, state)``, or the ``Damage`` of an unreadable one."""
        with self._op("read"):
            seqs = self._snapshot_seqs()
        for seq in seqs:
            try:
                with self._op("read"):
                    row = self._snapshot_row(seq)
            except Unreadable as err:
                item: tuple[int, dict[str, Any]] | Damage = Damage(SNAPSHOTS, seq, err.reason)
            else:
                if row is None:
                    continue  # replaced meanwhile
                item = decode_snapshot(seq, *row, checked_from=self._checked_from)
            if isinstance(item, Damage):
                self.note(item)
            yield item

    def latest_snapshot(self) -> tuple[int, dict[str, Any]] | None:
        """``(seq, state)`` of the newest readable snapshot, or None (unreadable ones are ignored)."""
        return next((s for s in self.snapshots() if not isinstance(s, Damage)), None)

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
        state = t("store.repr_closed" if self._closed else
                  "store.repr_read_only" if self.read_only else "store.repr_open")
        return f"<{type(self).__name__} {self.where} Kampagne={self.campaign!r} ({state})>"

    # -- backend hooks ----------------------------------------------------

    @abstractmethod
    def _append_rows(self, rows: list[tuple[str, str, str, str]], after: int | None) -> list[int]:
        """Insert ``(kind, tx, data_json, at)`` rows with their ``row_sum`` in one transaction,
        moving the head row along; their seqs. A head that is not the last seq is damage."""

    @abstractmethod
    def _read_page(self, after: int, kinds: tuple[str, ...] | None,
                   n: int) -> list[tuple[int, Any, Any, Any, Any, Any]]:
        """Up to ``n`` rows ``(seq, at, tx, kind, data_json, sum)`` with seq > after (``Unreadable``
        if the database cannot read them)."""

    @abstractmethod
    def _read_row(self, seq: int) -> tuple[int, Any, Any, Any, Any, Any] | None:
        """The row ``seq`` as ``_read_page`` gives it, None if there is none (``Unreadable``)."""

    @abstractmethod
    def _end(self) -> tuple[int | None, int, int]:
        """``(head, last, count)``: the head row's seq (None if missing; the last seq for a
        schema without head rows), the last seq, the number of rows."""

    @abstractmethod
    def _gaps(self) -> list[tuple[int, int]]:
        """The runs ``(first, last)`` of seqs missing below the last seq."""

    @abstractmethod
    def _last_seq(self) -> int: ...

    @abstractmethod
    def _save_snapshot(self, seq: int, state_json: str, at: str, total: int) -> None: ...

    @abstractmethod
    def _snapshot_seqs(self) -> list[int]:
        """The seqs of the stored snapshots, newest first."""

    @abstractmethod
    def _snapshot_row(self, seq: int) -> tuple[Any, Any, Any] | None:
        """``(at, state_json, sum)`` of the snapshot at ``seq`` (``Unreadable``)."""

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

    def _check_writable(self) -> None:
        self._check_open()
        if self.read_only:
            raise StoreError(t("store.read_only", where=self.where))

    @contextmanager
    def _op(self, action: str) -> Iterator[None]:
        with self._lock:
            self._check_open()
            try:
                yield
            except (StoreError, Unreadable):
                raise
            except Exception as err:
                wrapped = self._wrap(err, action)
                if wrapped is None:
                    raise
                raise wrapped from err

    def _damaged(self, damage: list[Damage]) -> CampaignDamaged:
        for d in damage:
            self.note(d)
        return CampaignDamaged(self.where, damage)

    def _damage(self, damage: Damage, damaged: str) -> Damage | None:
        """Note ``damage``; then it is yielded, skipped (None) or raised, as ``damaged`` says."""
        self.note(damage)
        if damaged == "raise":
            raise CampaignDamaged(self.where, [damage])
        return None if damaged == "skip" else damage

    def _rows(self, after: int, kinds: tuple[str, ...] | None, limit: int | None,
              damaged: str = "yield") -> Iterator[Any]:
        """Decoded rows after ``after``; without ``kinds`` also the gaps between them.

        Damage is noted, then (``damaged``) yielded, skipped, or raised as ``CampaignDamaged``.
        """
        if kinds == ():
            return
        expect = after + 1
        remaining = limit
        checked_from = self._checked_from
        while remaining is None or remaining > 0:
            n = READ_PAGE if remaining is None else min(READ_PAGE, remaining)
            try:
                with self._op("read"):
                    rows = self._read_page(after, kinds, n)
            except Unreadable as err:
                yield from self._rows_one_by_one(after, kinds, remaining, err, damaged)
                return
            for row in rows:
                seq = row[0]
                if seq > expect and kinds is None:
                    gap = self._damage(Damage(EVENTS, expect, t("store.damage_missing"), last=seq - 1), damaged)
                    if gap is not None:
                        yield gap
                expect = seq + 1
                item = decode_row(row, checked_from)
                if type(item) is Damage and self._damage(item, damaged) is None:
                    continue
                yield item
            if len(rows) < n:
                return
            after = rows[-1][0]
            if remaining is not None:
                remaining -= len(rows)

    def _rows_one_by_one(self, after: int, kinds: tuple[str, ...] | None, remaining: int | None,
                         err: Unreadable, damaged: str) -> Iterator[Event | Damage]:
        """Past a page the database cannot read: row by row, up to the last seq it knows of."""
        try:
            with self._op("read"):
                last = self._end()[1]
        except Unreadable:
            item = self._damage(Damage(EVENTS, after + 1, t("store.damage_unreadable_from", reason=err.reason)),
                                damaged)
            if item is not None:
                yield item
            return
        run: Damage | None = None
        for seq in range(after + 1, last + 1):
            if remaining is not None and remaining <= 0:
                break
            try:
                with self._op("read"):
                    row = self._read_row(seq)
            except Unreadable as bad:
                run, ended = _unreadable_run(run, seq, bad.reason)
                if ended is not None and self._damage(ended, damaged) is not None:
                    yield ended
                continue
            if run is not None and self._damage(run, damaged) is not None:
                yield run
            run = None
            counted, found = self._row_item(seq, row, kinds, damaged)
            if counted and remaining is not None:
                remaining -= 1
            if found is not None:
                yield found
        if run is not None and self._damage(run, damaged) is not None:
            yield run

    def _row_item(self, seq: int, row: tuple[Any, ...] | None, kinds: tuple[str, ...] | None,
                  damaged: str) -> tuple[bool, Event | Damage | None]:
        """Whether the row ``seq`` counts as one read (it is of ``kinds``), and what it yields: its event, its
        damage, a missing row's gap (when every kind is read), or nothing."""
        if row is None:
            return False, None if kinds is not None else self._damage(
                Damage(EVENTS, seq, t("store.damage_missing"), last=seq), damaged)
        if kinds is not None and row[3] not in kinds:
            return False, None
        decoded = decode_row(row, self._checked_from)
        if type(decoded) is Damage and self._damage(decoded, damaged) is None:
            return True, None
        return True, decoded


def _unreadable_run(run: Damage | None, seq: int, reason: str) -> tuple[Damage, Damage | None]:
    """The run of unreadable rows with ``seq`` (unreadable for ``reason``) added, and the run it ended, if any."""
    if run is not None and run.reason == reason and run.last == seq - 1:
        return Damage(EVENTS, run.seq, run.reason, last=seq), None
    return Damage(EVENTS, seq, reason, last=seq), run


# -- checksums and decoding ----------------------------------------------------

def end_damage(head: int | None, last: int) -> list[Damage]:
    """What is wrong when the journal's last seq is ``last`` and its head row says ``head``."""
    if head is None:
        return [Damage(HEADS, None, t("store.damage_no_head", last=last))] if last else []
    if head > last:
        return [Damage(EVENTS, last + 1, t("store.damage_end", head=head), last=head)]
    if head < last:
        return [Damage(EVENTS, head + 1, t("store.damage_beyond", head=head), last=last)]
    return []


_loads, _crc32 = json.loads, zlib.crc32


def row_sum(seq: int, tx: str, kind: str, at: str, data: str) -> int:
    """The checksum of a journal row (CRC-32 of its columns; NUL cannot occur in tx, kind, at)."""
    return zlib.crc32(f"{seq}\x00{tx}\x00{kind}\x00{at}\x00{data}".encode("utf-8"))


def snapshot_sum(seq: int, at: str, state: str) -> int:
    return zlib.crc32(f"{seq}\x00{at}\x00{state}".encode("utf-8"))


def decode_row(row: tuple[int, Any, Any, Any, Any, Any], checked_from: int) -> Event | Damage:
    """The event of a stored row, or the ``Damage`` that says what is wrong with it."""
    seq, at, tx, kind, data, total = row
    try:  # the sound row, quickly: a JSON object whose checksum (row_sum, inlined) fits
        parsed = _loads(data)
        if type(parsed) is dict and total == _crc32(f"{seq}\x00{tx}\x00{kind}\x00{at}\x00{data}".encode("utf-8")):
            return Event(kind, parsed, tx, seq, at)
    except (ValueError, TypeError, RecursionError, UnicodeEncodeError):
        pass
    if type(tx) is not str or type(kind) is not str or type(at) is not str or type(data) is not str:
        return _bad_row(row, "store.damage_text", column=_not_text(row))
    problem, parsed = _parse(data)
    if problem:
        return _bad_row(row, problem[0], **problem[1])
    try:
        if total is None:
            if seq >= checked_from:
                return _bad_row(row, "store.damage_no_sum")
            f"{tx}{kind}{at}{data}".encode("utf-8")  # text read back with escapes (not UTF-8)
        elif row_sum(seq, tx, kind, at, data) != total:
            return _bad_row(row, "store.damage_sum")
    except UnicodeEncodeError:
        return _bad_row(row, "store.damage_text", column=_not_text(row))
    return Event(kind, parsed, tx, seq, at)


def decode_snapshot(seq: int, at: Any, state: Any, total: Any, checked_from: int) -> tuple[int, dict[str, Any]] | Damage:
    raw = {"at": at, "state": state, "sum": total}
    if type(at) is not str or type(state) is not str:
        return Damage(SNAPSHOTS, seq, t("store.damage_text", column="state"), raw=raw)
    problem, parsed = _parse(state)
    if problem:
        return Damage(SNAPSHOTS, seq, t(problem[0], **problem[1]), raw=raw)
    try:
        if total is None:
            if seq >= checked_from:
                return Damage(SNAPSHOTS, seq, t("store.damage_no_sum"), raw=raw)
        elif snapshot_sum(seq, at, state) != total:
            return Damage(SNAPSHOTS, seq, t("store.damage_sum"), raw=raw)
    except UnicodeEncodeError:
        return Damage(SNAPSHOTS, seq, t("store.damage_text", column="state"), raw=raw)
    return seq, parsed


def _not_text(row: tuple[Any, ...]) -> str:
    """The first column of a row that is not text that can be stored as UTF-8."""
    for name, value in zip(("at", "tx", "kind", "data"), row[1:5]):
        if type(value) is not str or _utf8_size(value) is None:
            return name
    return "data"


def _parse(text: str) -> tuple[tuple[str, dict[str, Any]] | None, Any]:
    try:
        parsed = json.loads(text)
    except ValueError as err:
        pos = getattr(err, "pos", None)
        return ("store.damage_json", {"pos": "–" if pos is None else pos + 1}), None
    except RecursionError:
        return ("store.damage_json", {"pos": "–"}), None
    if type(parsed) is not dict:
        kind = "list" if type(parsed) is list else "str" if type(parsed) is str else "other"
        return ("store.damage_object", {"type": t(f"store.json_{kind}")}), None
    return None, parsed


def _bad_row(row: tuple[Any, ...], key: str, **fields: Any) -> Damage:
    seq, at, tx, kind, data, total = row
    return Damage(EVENTS, seq, t(key, **fields), raw={"at": at, "tx": tx, "kind": kind, "data": data, "sum": total})


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


def encode_events(events: Sequence[object]) -> list[tuple[str, str, str]]:
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
        size += cast(int, _utf8_size(kind)) + cast(int, _utf8_size(tx))
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
