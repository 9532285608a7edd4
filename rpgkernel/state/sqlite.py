"""The embedded store: one campaign in one SQLite file.

Durability: WAL mode with ``synchronous=FULL`` by default. WAL with NORMAL
already keeps every committed event across a crash or SIGKILL of the process
(the WAL frames are in the operating system's cache once ``append`` returns),
but a power cut or an OS crash can lose the last commits. FULL syncs the WAL
on every commit, so a committed event also survives those; it costs one fsync
per ``append`` (well under a millisecond to a few milliseconds on an SSD),
which nobody notices at the pace of a game. ``synchronous="NORMAL"`` is there
for bulk imports.

Concurrency: readers never block (WAL); writers take the write lock at the
start of their transaction (``BEGIN IMMEDIATE``), so ``seq`` (the INTEGER
PRIMARY KEY) follows commit order. A busy lock is retried every few
milliseconds (with jitter) for up to ``timeout`` seconds: SQLite's own busy
handler backs off to 100 ms sleeps, so a waiting notebook could starve behind
a writer in a loop; short polls let two writers interleave.
Journal mode WAL needs shared memory; where the platform cannot provide it
(e.g. some network or in-browser file systems) SQLite keeps its rollback
journal, which is just as atomic; ``journal_mode`` tells which is in use.
"""

from __future__ import annotations

import os
import random
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from ..errors import StoreError
from ..messages import t
from .schema import CURRENT, MIGRATIONS, SQLITE_APPLICATION_ID
from .store import DEFAULT_CAMPAIGN, KEEP_SNAPSHOTS, Store, check_after, check_name

_SYNCHRONOUS = ("NORMAL", "FULL", "EXTRA")
_BUSY_WAIT = 0.002  # seconds SQLite's busy handler waits before we retry ourselves
_T = TypeVar("_T")


class SQLiteStore(Store):
    """The journal of the one campaign in the SQLite file ``path`` (created if missing).

    ``campaign`` names the campaign of a new file; for an existing file it
    must match (None accepts the file's campaign).
    """

    def __init__(self, path: str | os.PathLike[str], campaign: str | None = None, *,
                 timeout: float = 10.0, synchronous: str = "FULL") -> None:
        super().__init__()
        self.path = Path(path)
        self.where = os.fspath(path)
        self.timeout = timeout
        if campaign is not None:
            check_name("campaign", campaign)
        if str(synchronous).upper() not in _SYNCHRONOUS:
            raise StoreError(t("store.bad_option", name="synchronous", value=synchronous,
                               allowed=", ".join(_SYNCHRONOUS)))
        if self.path.is_dir():
            raise StoreError(t("store.is_directory", where=self.where))
        folder = self.path.parent
        if not folder.is_dir():
            raise StoreError(t("store.no_folder", where=self.where, folder=str(folder)))
        try:
            self._conn = sqlite3.connect(self.where, timeout=_BUSY_WAIT, isolation_level=None,
                                         check_same_thread=False)
        except sqlite3.Error as err:
            raise StoreError(t("store.open_failed", where=self.where, reason=err)) from err
        try:
            self._prepare(campaign, str(synchronous).upper())
        except sqlite3.Error as err:
            self._conn.close()
            raise self._open_error(err) from err
        except BaseException:
            self._conn.close()
            raise

    # -- opening ----------------------------------------------------------

    def _prepare(self, campaign: str | None, synchronous: str) -> None:
        c = self._conn
        version = self._retry(self._check_identity)
        if version > CURRENT:
            raise StoreError(t("store.newer_schema", where=self.where, found=version, known=CURRENT))
        self.journal_mode = self._retry(lambda: c.execute("PRAGMA journal_mode = WAL").fetchone()[0])
        c.execute(f"PRAGMA synchronous = {synchronous}")
        self._migrate(campaign or DEFAULT_CAMPAIGN)
        (found,) = self._retry(
            lambda: c.execute("SELECT value FROM rpg_meta WHERE key = 'campaign'").fetchone())
        if campaign is not None and campaign != found:
            raise StoreError(t("store.other_campaign", where=self.where, found=found, wanted=campaign))
        self.campaign = found

    def _check_identity(self) -> int:
        """The schema version of a campaign file (0: empty file); StoreError for anything else."""
        c = self._conn
        app_id = c.execute("PRAGMA application_id").fetchone()[0]
        version = c.execute("PRAGMA user_version").fetchone()[0]
        if app_id == SQLITE_APPLICATION_ID:
            return version
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
        if isinstance(err, sqlite3.DatabaseError) and "not a database" in str(err):
            return StoreError(t("store.not_campaign", where=self.where))
        if _is_busy(err):
            return StoreError(t("store.locked", where=self.where, timeout=self.timeout))
        return StoreError(t("store.open_failed", where=self.where, reason=err))

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

    # -- backend hooks ----------------------------------------------------

    def _append_rows(self, rows: list[tuple[str, str, str]], at: str, after: int | None) -> list[int]:
        c = self._conn
        self._begin()
        try:
            (last,) = c.execute("SELECT coalesce(max(seq), 0) FROM rpg_events").fetchone()
            check_after(last, after)
            c.executemany(
                "INSERT INTO rpg_events (seq, campaign, tx, kind, data, at) VALUES (?, ?, ?, ?, ?, ?)",
                [(last + 1 + i, self.campaign, tx, kind, data, at) for i, (kind, tx, data) in enumerate(rows)])
            c.execute("COMMIT")
        except BaseException:
            if c.in_transaction:
                c.execute("ROLLBACK")
            raise
        return list(range(last + 1, last + 1 + len(rows)))

    def _read_page(self, after: int, kinds: tuple[str, ...] | None,
                   n: int) -> list[tuple[int, str, str, str, str]]:
        return self._retry(lambda: self._read(after, kinds, n))

    def _read(self, after: int, kinds: tuple[str, ...] | None,
              n: int) -> list[tuple[int, str, str, str, str]]:
        if kinds is None:
            # seq is the rowid: a range scan, in order (the file holds one campaign).
            return self._conn.execute(
                "SELECT seq, at, tx, kind, data FROM rpg_events"
                " WHERE seq > ? AND +campaign = ? ORDER BY seq LIMIT ?",
                (after, self.campaign, n)).fetchall()
        marks = ", ".join("?" * len(kinds))
        return self._conn.execute(
            "SELECT seq, at, tx, kind, data FROM rpg_events"
            f" WHERE campaign = ? AND kind IN ({marks}) AND seq > ? ORDER BY seq LIMIT ?",
            (self.campaign, *kinds, after, n)).fetchall()

    def _last_seq(self) -> int:
        return self._retry(
            lambda: self._conn.execute("SELECT coalesce(max(seq), 0) FROM rpg_events").fetchone()[0])

    def _save_snapshot(self, seq: int, state_json: str, at: str) -> None:
        c = self._conn
        self._begin()
        try:
            c.execute("INSERT INTO rpg_snapshots (campaign, seq, at, state) VALUES (?, ?, ?, ?)"
                      " ON CONFLICT (campaign, seq) DO UPDATE SET at = excluded.at, state = excluded.state",
                      (self.campaign, seq, at, state_json))
            c.execute("DELETE FROM rpg_snapshots WHERE campaign = ? AND seq NOT IN"
                      " (SELECT seq FROM rpg_snapshots WHERE campaign = ? ORDER BY seq DESC LIMIT ?)",
                      (self.campaign, self.campaign, KEEP_SNAPSHOTS))
            c.execute("COMMIT")
        except BaseException:
            if c.in_transaction:
                c.execute("ROLLBACK")
            raise

    def _latest_snapshot(self) -> tuple[int, str] | None:
        return self._retry(lambda: self._conn.execute(
            "SELECT seq, state FROM rpg_snapshots WHERE campaign = ? ORDER BY seq DESC LIMIT 1",
            (self.campaign,)).fetchone())

    def _schema_version(self) -> int:
        return self._retry(lambda: self._conn.execute("PRAGMA user_version").fetchone()[0])

    def _close(self) -> None:
        self._conn.close()

    def _wrap(self, err: Exception, action: str) -> StoreError | None:
        if not isinstance(err, sqlite3.Error):
            return None
        if _is_busy(err):
            return StoreError(t("store.locked", where=self.where, timeout=self.timeout))
        return StoreError(t(f"store.{action}_failed", where=self.where, reason=err))


def _is_busy(err: sqlite3.Error) -> bool:
    text = str(err).lower()
    return isinstance(err, sqlite3.OperationalError) and ("locked" in text or "busy" in text)
