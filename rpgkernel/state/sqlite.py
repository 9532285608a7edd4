"""The embedded store: one campaign in one SQLite file.

WAL with ``synchronous=FULL`` by default (``"NORMAL"`` for bulk imports);
writers take the lock with ``BEGIN IMMEDIATE`` and retry a busy lock for up
to ``timeout`` seconds. A damaged or empty file is refused before SQLite
opens it. ``read_only=True`` opens a file in a read-only folder
(``immutable`` where -wal/-shm cannot be made).
"""

from __future__ import annotations

import os
import random
import secrets
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

from ..errors import StoreError
from ..messages import t
from .damage import FILE, CampaignDamaged, Damage
from .schema import CURRENT, MIGRATIONS, SQLITE_APPLICATION_ID
from .store import (DEFAULT_CAMPAIGN, KEEP_SNAPSHOTS, NO_SUMS, Store, Unreadable, check_after, check_name,
                    end_damage, row_sum)

_SYNCHRONOUS = ("NORMAL", "FULL", "EXTRA")
_BUSY_WAIT = 0.002  # seconds SQLite's busy handler waits before we retry ourselves
_MAGIC = b"SQLite format 3\x00"
_T = TypeVar("_T")

# SQLite's primary result codes (err.sqlite_errorcode & 0xFF) -> catalogue key of the German reason
_REASONS = {1: "schema", 3: "perm", 5: "busy", 6: "busy", 7: "nomem", 8: "readonly", 10: "ioerr", 11: "corrupt",
            13: "full", 14: "cantopen", 18: "toobig", 19: "constraint", 23: "perm", 26: "notadb"}
# Python 3.10 has no error codes: SQLite's own texts for the codes above
_TEXTS = {"database disk image is malformed": 11, "file is not a database": 26, "disk i/o error": 10,
          "attempt to write a readonly database": 8, "unable to open database file": 14,
          "database or disk is full": 13, "database is locked": 5, "database table is locked": 6}
_DAMAGE = (10, 11, 26)  # codes that mean the file cannot be read where it is damaged


class SQLiteStore(Store):
    """The journal of the one campaign in the SQLite file ``path`` (created if missing).

    ``campaign`` names the campaign of a new file; for an existing file it
    must match (None accepts the file's campaign). ``read_only=True`` opens an
    existing file without writing anything, not even its -wal or -shm file
    where the folder is read-only.
    """

    def __init__(self, path: str | os.PathLike[str], campaign: str | None = None, *,
                 timeout: float = 10.0, synchronous: str = "FULL", read_only: bool = False) -> None:
        super().__init__(read_only)
        self.path = Path(path)
        self.where = os.fspath(path)
        self.timeout = timeout
        self.immutable = False
        if campaign is not None:
            check_name("campaign", campaign)
        sync = str(synchronous).upper()
        if sync not in _SYNCHRONOUS:
            raise StoreError(t("store.bad_option", name="synchronous", value=synchronous,
                               allowed=", ".join(_SYNCHRONOUS)))
        if self.path.is_dir():
            raise StoreError(t("store.is_directory", where=self.where))
        folder = self.path.parent
        if not folder.is_dir():
            raise StoreError(t("store.no_folder", where=self.where, folder=str(folder)))
        if not self.path.exists():
            if read_only:
                raise StoreError(t("store.missing", where=self.where))
            self._create(campaign or DEFAULT_CAMPAIGN)
        elif not read_only:
            why = self._not_writable()
            if why:
                raise StoreError(t("store.read_only_place", where=self.where, why=why))
        for damage in self._inspect():
            if not read_only:
                raise self._damaged([damage])
            self.note(damage)
        self._conn = self._connect()
        try:
            self._prepare(campaign, sync)
        except sqlite3.Error as err:
            self._conn.close()
            raise self._open_error(err) from None
        except BaseException:
            self._conn.close()
            raise

    # -- opening ----------------------------------------------------------

    def _create(self, campaign: str) -> None:
        """Build the new campaign in a hidden file beside ``path`` and link it into place complete."""
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}-{secrets.token_hex(4)}.neu")
        try:
            reason = None
            try:
                self._conn = sqlite3.connect(tmp, timeout=_BUSY_WAIT, isolation_level=None)
                try:
                    self._prepare(campaign, "FULL")
                finally:
                    self._conn.close()
            except sqlite3.Error as err:
                reason = self._place(err) or sqlite_reason(err)
            if reason is not None:
                raise StoreError(t("store.create_failed", where=self.where, reason=reason))
            try:
                os.link(tmp, self.path)
            except FileExistsError:
                pass  # another notebook created it meanwhile: that one counts
            except OSError:  # no hard links on this file system
                if not self.path.exists():
                    os.replace(tmp, self.path)
        finally:
            for suffix in ("", "-wal", "-shm", "-journal"):
                Path(f"{tmp}{suffix}").unlink(missing_ok=True)

    def _inspect(self) -> list[Damage]:
        """Damage of the file as a whole: cut short (or empty), before SQLite reads it."""
        size = self.path.stat().st_size
        wal = _size(Path(f"{self.path}-wal"))
        if size == 0:
            if wal:
                return []
            raise StoreError(t("store.empty_file", where=self.where))
        try:
            with open(self.path, "rb") as f:
                header = f.read(100)
        except OSError:
            return []  # SQLite says why it cannot read it
        if len(header) < 100 or not header.startswith(_MAGIC):
            return []  # not SQLite: not a campaign
        page = int.from_bytes(header[16:18], "big")
        page = 65536 if page == 1 else page
        if page < 512 or page & (page - 1):
            return []
        if size % page:
            return [Damage(FILE, None, t("store.damage_cut", missing=page - size % page, page=page))]
        pages = int.from_bytes(header[28:32], "big")  # valid while the change counter matches
        if not wal and header[24:28] == header[92:96] and size < pages * page:
            return [Damage(FILE, None, t("store.damage_cut_pages", missing=pages - size // page, pages=pages))]
        return []

    def _connect(self) -> sqlite3.Connection:
        def connect(target: str, uri: bool) -> sqlite3.Connection:
            return sqlite3.connect(target, timeout=_BUSY_WAIT, isolation_level=None, check_same_thread=False,
                                   uri=uri)

        if not self.read_only:
            try:
                return connect(self.where, False)
            except sqlite3.Error as err:
                raise self._open_error(err) from None
        base = self.path.absolute().as_uri()
        try:
            self._conn = connect(base + "?mode=ro", True)
            self._retry(lambda: self._conn.execute("SELECT count(*) FROM sqlite_master").fetchone())
            return self._conn
        except sqlite3.Error as err:
            self._conn.close()
            if _primary(err) not in (8, 14):
                raise self._open_error(err) from None
        # no -wal/-shm here, and none can be created: only immutable reads work
        wal = Path(f"{self.path}-wal")
        if _size(wal):
            raise StoreError(t("store.wal_unreadable", where=self.where, wal=wal.name))
        self.immutable = True
        try:
            return connect(base + "?mode=ro&immutable=1", True)
        except sqlite3.Error as err:
            raise self._open_error(err) from None

    def _prepare(self, campaign: str | None, synchronous: str) -> None:
        c = self._conn
        version = self._retry(self._check_identity)
        if version > CURRENT:
            raise StoreError(t("store.newer_schema", where=self.where, found=version, known=CURRENT))
        if self.read_only:
            if version == 0:
                raise StoreError(t("store.not_campaign", where=self.where))
            self.journal_mode = self._retry(lambda: c.execute("PRAGMA journal_mode").fetchone()[0])
        else:
            self.journal_mode = self._retry(lambda: c.execute("PRAGMA journal_mode = WAL").fetchone()[0])
            c.execute(f"PRAGMA synchronous = {synchronous}")
            self._migrate(campaign or DEFAULT_CAMPAIGN)
            version = CURRENT
        self._schema = version
        self._sum = "sum" if version >= 3 else "NULL"
        row = self._retry(lambda: c.execute("SELECT value FROM rpg_meta WHERE key = 'campaign'").fetchone())
        if row is None or not isinstance(row[0], str):
            damage = Damage("rpg_meta", None, t("store.damage_no_name"))
            if not self.read_only:
                raise self._damaged([damage])
            self.note(damage)
            row = (campaign or DEFAULT_CAMPAIGN,)
        if campaign is not None and campaign != row[0]:
            raise StoreError(t("store.other_campaign", where=self.where, found=row[0], wanted=campaign))
        self.campaign = row[0]
        if version >= 3:
            head = self._retry(lambda: c.execute("SELECT checked_from FROM rpg_heads WHERE campaign = ?",
                                                 (self.campaign,)).fetchone())
            self._checked_from = head[0] if head is not None and type(head[0]) is int else 1
        else:
            self._checked_from = NO_SUMS

    def _check_identity(self) -> int:
        """The schema version of a campaign file (0: empty file); StoreError for anything else."""
        c = self._conn
        app_id = c.execute("PRAGMA application_id").fetchone()[0]
        version = c.execute("PRAGMA user_version").fetchone()[0]
        if app_id == SQLITE_APPLICATION_ID:
            return cast("int", version)
        (tables,) = c.execute("SELECT count(*) FROM sqlite_master").fetchone()
        if app_id == 0 and version == 0 and tables == 0:
            return 0
        raise StoreError(t("store.not_campaign", where=self.where))

    def _migrate(self, campaign: str) -> None:
        c = self._conn
        while True:
            version = self._schema_version()
            if version >= CURRENT:
                if version > CURRENT:
                    raise StoreError(t("store.newer_schema", where=self.where, found=version, known=CURRENT))
                return
            self._begin()
            try:
                version = self._check_identity()  # another process may have migrated meanwhile
                if version < CURRENT:
                    for sql in MIGRATIONS[version].sqlite:
                        c.execute(sql, {"campaign": campaign} if ":campaign" in sql else ())
                    c.execute(f"PRAGMA user_version = {version + 1}")
                c.execute("COMMIT")
            except BaseException:
                if c.in_transaction:
                    c.execute("ROLLBACK")
                raise

    def _open_error(self, err: sqlite3.Error) -> StoreError:
        code = _primary(err)
        if code == 26:
            return StoreError(t("store.not_campaign", where=self.where))
        if code == 11:
            damage = [Damage(FILE, None, t("store.damage_sqlite", reason=sqlite_reason(err)))]
            for d in damage:
                self.note(d)
            return CampaignDamaged(self.where, damage, hint=not self.read_only)
        if _is_busy(err):
            return StoreError(t("store.locked", where=self.where, timeout=self.timeout))
        place = self._place(err)
        if place and not self.read_only:
            return StoreError(t("store.read_only_place", where=self.where, why=place))
        return StoreError(t("store.open_failed", where=self.where, reason=place or sqlite_reason(err)))

    def _not_writable(self) -> str | None:
        """Why this file cannot be written here (German): a read-only file, or a read-only folder
        without the -wal and -shm files SQLite would have to create in it."""
        if not os.access(self.path, os.W_OK):
            return t("store.file_read_only")
        folder = self.path.parent
        beside = all(Path(f"{self.path}{suffix}").exists() for suffix in ("-wal", "-shm"))
        if not beside and not os.access(folder, os.W_OK):
            return t("store.folder_read_only", folder=str(folder))
        return None

    def _place(self, err: sqlite3.Error) -> str | None:
        """Why SQLite cannot write here (German), if the folder or the file is read-only."""
        if _primary(err) not in (8, 14):
            return None
        if getattr(err, "sqlite_errorname", "") == "SQLITE_READONLY_DIRECTORY" \
                or not os.access(self.path.parent, os.W_OK):
            return t("store.folder_read_only", folder=str(self.path.parent))
        if self.path.exists() and not os.access(self.path, os.W_OK):
            return t("store.file_read_only")
        return None

    # -- locking ----------------------------------------------------------

    def _retry(self, step: Callable[[], _T]) -> _T:
        """``step()``, repeated while the database is busy, for up to ``timeout`` seconds."""
        deadline = time.monotonic() + self.timeout
        pause = 0.0005
        while True:
            try:
                return step()
            except sqlite3.OperationalError as err:
                if not _is_busy(err) or time.monotonic() > deadline:
                    raise
            time.sleep(random.uniform(0.0, pause))
            pause = min(2 * pause, 0.005)

    def _begin(self) -> None:
        """Start a write transaction, holding the write lock from the start."""
        self._retry(lambda: self._conn.execute("BEGIN IMMEDIATE"))

    def _read(self, query: Callable[[], _T]) -> _T:
        """``query()`` with retries; ``Unreadable`` where the file is damaged."""
        try:
            try:
                return self._retry(query)
            except sqlite3.OperationalError as err:
                if "decode" not in str(err).lower():
                    raise
            # a text column that is not UTF-8 (damage): read again, the bytes kept as escapes
            self._conn.text_factory = _lenient
            try:
                return self._retry(query)
            finally:
                self._conn.text_factory = str
        except sqlite3.DatabaseError as err:
            if _primary(err) in _DAMAGE:
                raise Unreadable(sqlite_reason(err)) from None
            raise

    # -- backend hooks ----------------------------------------------------

    def _append_rows(self, rows: list[tuple[str, str, str, str]], after: int | None) -> list[int]:
        c = self._conn
        self._begin()
        try:
            last, head = c.execute("SELECT (SELECT coalesce(max(seq), 0) FROM rpg_events),"
                                   " (SELECT seq FROM rpg_heads WHERE campaign = ?)", (self.campaign,)).fetchone()
            damage = end_damage(head, last)
            if damage:
                raise self._damaged(damage)
            check_after(last, after)
            seqs = list(range(last + 1, last + 1 + len(rows)))
            c.executemany(
                "INSERT INTO rpg_events (seq, campaign, tx, kind, data, at, sum) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(seq, self.campaign, tx, kind, data, at, row_sum(seq, tx, kind, at, data))
                 for seq, (kind, tx, data, at) in zip(seqs, rows)])
            c.execute("INSERT INTO rpg_heads (campaign, seq, checked_from) VALUES (?, ?, 1)"
                      " ON CONFLICT (campaign) DO UPDATE SET seq = excluded.seq", (self.campaign, seqs[-1]))
            c.execute("COMMIT")
        except BaseException:
            if c.in_transaction:
                c.execute("ROLLBACK")
            raise
        return seqs

    def _read_page(self, after: int, kinds: tuple[str, ...] | None, n: int) -> list[tuple[Any, ...]]:
        columns = f"seq, at, tx, kind, data, {self._sum}"
        if kinds is None:
            # seq is the rowid: a range scan, in order (the file holds one campaign).
            return self._read(lambda: self._conn.execute(
                f"SELECT {columns} FROM rpg_events WHERE seq > ? ORDER BY seq LIMIT ?", (after, n)).fetchall())
        marks = ", ".join("?" * len(kinds))
        return self._read(lambda: self._conn.execute(
            f"SELECT {columns} FROM rpg_events"
            f" WHERE campaign = ? AND kind IN ({marks}) AND seq > ? ORDER BY seq LIMIT ?",
            (self.campaign, *kinds, after, n)).fetchall())

    def _read_row(self, seq: int) -> tuple[Any, ...] | None:
        return cast("tuple[Any, ...] | None", self._read(lambda: self._conn.execute(
            f"SELECT seq, at, tx, kind, data, {self._sum} FROM rpg_events WHERE seq = ?", (seq,)).fetchone()))

    def _end(self) -> tuple[int | None, int, int]:
        # one statement, one snapshot: another writer may commit in between two
        head = "(SELECT seq FROM rpg_heads WHERE campaign = ?)" if self._schema >= 3 else "?"
        last, count, seq = self._read(lambda: self._conn.execute(
            f"SELECT (SELECT coalesce(max(seq), 0) FROM rpg_events), (SELECT count(*) FROM rpg_events), {head}",
            (self.campaign if self._schema >= 3 else None,)).fetchone())
        if self._schema < 3:
            return last, last, count
        return (seq if type(seq) is int else None), last, count

    def _gaps(self) -> list[tuple[int, int]]:
        return self._read(lambda: self._conn.execute(
            "SELECT prev + 1, seq - 1 FROM (SELECT seq, lag(seq, 1, 0) OVER (ORDER BY seq) AS prev"
            " FROM rpg_events WHERE seq >= 1) WHERE seq > prev + 1").fetchall())

    def _last_seq(self) -> int:
        return cast("int", self._read(
            lambda: self._conn.execute("SELECT coalesce(max(seq), 0) FROM rpg_events").fetchone()[0]))

    def _save_snapshot(self, seq: int, state_json: str, at: str, total: int) -> None:
        c = self._conn
        self._begin()
        try:
            c.execute("INSERT INTO rpg_snapshots (campaign, seq, at, state, sum) VALUES (?, ?, ?, ?, ?)"
                      " ON CONFLICT (campaign, seq) DO UPDATE SET at = excluded.at, state = excluded.state,"
                      " sum = excluded.sum", (self.campaign, seq, at, state_json, total))
            c.execute("DELETE FROM rpg_snapshots WHERE campaign = ? AND seq NOT IN"
                      " (SELECT seq FROM rpg_snapshots WHERE campaign = ? ORDER BY seq DESC LIMIT ?)",
                      (self.campaign, self.campaign, KEEP_SNAPSHOTS))
            c.execute("COMMIT")
        except BaseException:
            if c.in_transaction:
                c.execute("ROLLBACK")
            raise

    def _snapshot_seqs(self) -> list[int]:
        return [row[0] for row in self._read(lambda: self._conn.execute(
            "SELECT seq FROM rpg_snapshots WHERE campaign = ? ORDER BY seq DESC", (self.campaign,)).fetchall())]

    def _snapshot_row(self, seq: int) -> tuple[Any, Any, Any] | None:
        return cast("tuple[Any, Any, Any] | None", self._read(lambda: self._conn.execute(
            f"SELECT at, state, {self._sum} FROM rpg_snapshots WHERE campaign = ? AND seq = ?",
            (self.campaign, seq)).fetchone()))

    def _schema_version(self) -> int:
        return cast("int", self._retry(lambda: self._conn.execute("PRAGMA user_version").fetchone()[0]))

    def _close(self) -> None:
        self._conn.close()

    def _wrap(self, err: Exception, action: str) -> StoreError | None:
        if not isinstance(err, sqlite3.Error):
            return None
        if _is_busy(err):
            return StoreError(t("store.locked", where=self.where, timeout=self.timeout))
        if _primary(err) == 11:
            return self._damaged([Damage(FILE, None, t("store.damage_sqlite", reason=sqlite_reason(err)))])
        return StoreError(t(f"store.{action}_failed", where=self.where,
                            reason=self._place(err) or sqlite_reason(err)))


def sqlite_reason(err: sqlite3.Error) -> str:
    """Why SQLite refused, in German, with its code name (``SQLITE_CORRUPT``) for looking it up."""
    key = _REASONS.get(_primary(err) or 0, "other")
    name = getattr(err, "sqlite_errorname", None)
    return t(f"store.sqlite_{key}") + (f" ({name})" if name else "")


def _primary(err: sqlite3.Error) -> int | None:
    code = getattr(err, "sqlite_errorcode", None)
    if code is not None:
        return cast("int | None", code & 0xFF)
    return _TEXTS.get(str(err).lower())


def _is_busy(err: sqlite3.Error) -> bool:
    if _primary(err) in (5, 6):
        return True
    text = str(err).lower()
    return isinstance(err, sqlite3.OperationalError) and ("locked" in text or "busy" in text)


def _lenient(value: bytes) -> str:
    return value.decode("utf-8", "surrogateescape")


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
