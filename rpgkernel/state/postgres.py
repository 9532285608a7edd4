"""The server store: campaigns in a PostgreSQL database, through psycopg 3.

Several campaigns share one database (the ``campaign`` column); an advisory lock per campaign
keeps seq order equal to commit order. A lock wait longer than ``timeout`` seconds is a
StoreError. Install the driver with ``pip install 'rpgkernel[postgres]'``.
"""

from __future__ import annotations

import os
import zlib
from typing import Any, Callable, cast

from ..errors import StoreError
from ..messages import t
from . import address
from .schema import CURRENT, MIGRATIONS
from .store import (DEFAULT_CAMPAIGN, KEEP_SNAPSHOTS, NO_SUMS, Store, check_after, check_name, end_damage,
                    row_sum)

#: advisory lock namespaces (first key of the two-key form): appends, migrations
LOCK_APPEND = int.from_bytes(b"RPGk", "big")
LOCK_MIGRATE = LOCK_APPEND + 1


class PostgresStore(Store):
    """The journal of ``campaign`` (default ``"default"``) in the database at ``url``.

    ``read_only=True`` runs every transaction read-only and migrates nothing.
    """

    def __init__(self, url: str, campaign: str | None = None, *, timeout: float = 10.0,
                 connect_timeout: int = 10, read_only: bool = False) -> None:
        super().__init__(read_only)
        self.timeout = timeout
        self.where = address.shown(url)
        self.campaign = check_name("campaign", DEFAULT_CAMPAIGN if campaign is None else campaign)
        self._key = zlib.crc32(self.campaign.encode("utf-8")) - 2**31
        hidden = address.secrets(url)
        if address.ambiguous(url):  # libpq would read part of the password as host or database
            raise StoreError(t("store.url_special", where=self.where))
        psycopg = _driver(self.where)
        self._psycopg = psycopg
        # Errors are raised outside the except blocks: libpq's own exception (which may quote the
        # URL) must not even hang on as the context of the error a notebook shows.
        reason = None
        try:
            info = psycopg.conninfo.conninfo_to_dict(url)
        except psycopg.Error as err:
            reason = _parse_reason(err, hidden)
        if reason is not None:
            raise StoreError(t("store.url_malformed", where=self.where, reason=reason))
        if info.get("password"):
            hidden.add(str(info["password"]))
        self._hidden = frozenset(hidden)
        for port in str(info.get("port") or "").split(","):
            if port.strip() and not port.strip().isdigit():
                raise StoreError(t("store.url_malformed", where=self.where,
                                   reason=t("store.pg_bad_port", port=address.scrub(port.strip(), hidden))))
        options: dict[str, Any] = {"autocommit": True}
        if "connect_timeout" not in info:
            options["connect_timeout"] = connect_timeout
        try:
            self._conn = psycopg.connect(url, **options)
        except psycopg.Error as err:
            reason = _connect_reason(err, {"connect_timeout": connect_timeout, **info}, self._hidden)
        if reason is not None:
            raise StoreError(t("store.unreachable", where=self.where, reason=reason))
        try:
            # A lock held longer than this (a client stuck inside a transaction) gives a StoreError.
            self._conn.execute("SELECT set_config('lock_timeout', %s, false)", (f"{int(timeout * 1000)}ms",))
            if read_only:
                self._conn.execute("SET default_transaction_read_only = on")
            self._open()
        except psycopg.Error as err:
            reason = address.scrub(_one_line(err), self._hidden)
        except BaseException:
            self._conn.close()
            raise
        if reason is not None:
            self._conn.close()
            raise StoreError(t("store.open_failed", where=self.where, reason=reason))

    # -- opening ----------------------------------------------------------

    def _open(self) -> None:
        if self.read_only:
            version = self._version()
            if version > CURRENT:
                raise StoreError(t("store.newer_schema", where=self.where, found=version, known=CURRENT))
            if version == 0:
                raise StoreError(t("store.missing", where=self.where))
        else:
            self._migrate()
            version = CURRENT
        self._schema = version
        self._sum = "sum" if version >= 3 else "NULL"
        self._checked_from = NO_SUMS
        if version >= 3:
            row = self._conn.execute("SELECT checked_from FROM rpg_heads WHERE campaign = %s",
                                     (self.campaign,)).fetchone()
            self._checked_from = row[0] if row is not None else 1
        if self.read_only and self._last_seq() == 0:  # reading creates nothing: a campaign not there is an error
            raise StoreError(t("store.missing", where=f"{self.where} ({self.campaign})"))

    def _version(self) -> int:
        cur = self._conn.execute("SELECT to_regclass('rpg_meta') IS NOT NULL")
        if not cur.fetchone()[0]:
            return 0
        row = self._conn.execute("SELECT value FROM rpg_meta WHERE key = 'schema_version'").fetchone()
        if row is None or not row[0].isdigit():
            raise StoreError(t("store.not_campaign", where=self.where))
        return int(row[0])

    def _migrate(self) -> None:
        while True:
            version = self._version()
            if version >= CURRENT:
                if version > CURRENT:
                    raise StoreError(t("store.newer_schema", where=self.where, found=version, known=CURRENT))
                return
            with self._conn.transaction():
                self._conn.execute("SELECT pg_advisory_xact_lock(%s::integer, 0)", (LOCK_MIGRATE,))
                version = self._version()  # another client may have migrated meanwhile
                if version >= CURRENT:
                    continue
                for sql in MIGRATIONS[version].postgres:
                    self._conn.execute(sql, {"campaign": self.campaign} if "%(campaign)s" in sql else None)
                self._conn.execute(
                    "INSERT INTO rpg_meta (key, value) VALUES ('schema_version', %s)"
                    " ON CONFLICT (key) DO UPDATE SET value = excluded.value", (str(version + 1),))

    # -- backend hooks ----------------------------------------------------

    def _append_rows(self, rows: list[tuple[str, str, str, str]], after: int | None) -> list[int]:
        conn, campaign = self._conn, self.campaign
        with conn.transaction(), conn.cursor() as cur:
            cur.execute("SELECT pg_advisory_xact_lock(%s::integer, %s::integer)", (LOCK_APPEND, self._key))
            cur.execute("SELECT (SELECT coalesce(max(seq), 0) FROM rpg_events WHERE campaign = %s),"
                        " (SELECT seq FROM rpg_heads WHERE campaign = %s)", (campaign, campaign))
            last, head = cur.fetchone()
            damage = end_damage(head, last)
            if damage:
                raise self._damaged(damage)
            check_after(last, after)
            seqs = list(range(last + 1, last + 1 + len(rows)))
            cur.executemany(
                "INSERT INTO rpg_events (campaign, seq, tx, kind, data, at, sum) VALUES (%s, %s, %s, %s, %s, %s, %s)",
                [(campaign, seq, tx, kind, data, at, row_sum(seq, tx, kind, at, data))
                 for seq, (kind, tx, data, at) in zip(seqs, rows)])
            cur.execute("INSERT INTO rpg_heads (campaign, seq, checked_from) VALUES (%s, %s, 1)"
                        " ON CONFLICT (campaign) DO UPDATE SET seq = excluded.seq", (campaign, seqs[-1]))
        return seqs

    def _read_page(self, after: int, kinds: tuple[str, ...] | None, n: int) -> list[tuple[Any, ...]]:
        columns = f"seq, at, tx, kind, data, {self._sum}"
        if kinds is None:
            return cast("list[tuple[Any, ...]]", self._conn.execute(
                f"SELECT {columns} FROM rpg_events WHERE campaign = %s AND seq > %s ORDER BY seq LIMIT %s",
                (self.campaign, after, n)).fetchall())
        return cast("list[tuple[Any, ...]]", self._conn.execute(
            f"SELECT {columns} FROM rpg_events"
            " WHERE campaign = %s AND kind = ANY(%s) AND seq > %s ORDER BY seq LIMIT %s",
            (self.campaign, list(kinds), after, n)).fetchall())

    def _read_row(self, seq: int) -> tuple[Any, ...] | None:
        return cast("tuple[Any, ...] | None", self._conn.execute(
            f"SELECT seq, at, tx, kind, data, {self._sum} FROM rpg_events WHERE campaign = %s AND seq = %s",
            (self.campaign, seq)).fetchone())

    def _end(self) -> tuple[int | None, int, int]:
        # one statement, one snapshot: another writer may commit in between two
        head = "(SELECT seq FROM rpg_heads WHERE campaign = %(c)s)" if self._schema >= 3 else "NULL"
        last, count, seq = self._conn.execute(
            f"SELECT coalesce(max(seq), 0), count(*), {head} FROM rpg_events WHERE campaign = %(c)s",
            {"c": self.campaign}).fetchone()
        if self._schema < 3:
            return last, last, count
        return seq, last, count

    def _gaps(self) -> list[tuple[int, int]]:
        return cast("list[tuple[int, int]]", self._conn.execute(
            "SELECT prev + 1, seq - 1 FROM (SELECT seq, lag(seq, 1, 0::bigint) OVER (ORDER BY seq) AS prev"
            " FROM rpg_events WHERE campaign = %s AND seq >= 1) AS runs WHERE seq > prev + 1",
            (self.campaign,)).fetchall())

    def _last_seq(self) -> int:
        return cast("int", self._conn.execute("SELECT coalesce(max(seq), 0) FROM rpg_events WHERE campaign = %s",
                                  (self.campaign,)).fetchone()[0])

    def _save_snapshot(self, seq: int, state_json: str, at: str, total: int) -> None:
        with self._conn.transaction():
            self._conn.execute(
                "INSERT INTO rpg_snapshots (campaign, seq, at, state, sum) VALUES (%s, %s, %s, %s, %s)"
                " ON CONFLICT (campaign, seq) DO UPDATE SET at = excluded.at, state = excluded.state,"
                " sum = excluded.sum", (self.campaign, seq, at, state_json, total))
            self._conn.execute(
                "DELETE FROM rpg_snapshots WHERE campaign = %s AND seq NOT IN"
                " (SELECT seq FROM rpg_snapshots WHERE campaign = %s ORDER BY seq DESC LIMIT %s)",
                (self.campaign, self.campaign, KEEP_SNAPSHOTS))

    def _snapshot_seqs(self) -> list[int]:
        return [row[0] for row in self._conn.execute(
            "SELECT seq FROM rpg_snapshots WHERE campaign = %s ORDER BY seq DESC", (self.campaign,)).fetchall()]

    def _snapshot_row(self, seq: int) -> tuple[Any, Any, Any] | None:
        return cast("tuple[Any, Any, Any] | None", self._conn.execute(
            f"SELECT at, state, {self._sum} FROM rpg_snapshots WHERE campaign = %s AND seq = %s",
            (self.campaign, seq)).fetchone())

    def _schema_version(self) -> int:
        return self._version()

    def _close(self) -> None:
        self._conn.close()

    def _wrap(self, err: Exception, action: str) -> StoreError | None:
        if not isinstance(err, self._psycopg.Error):
            return None
        if isinstance(err, self._psycopg.errors.LockNotAvailable):
            return StoreError(t("store.locked", where=self.where, timeout=self.timeout))
        if isinstance(err, self._psycopg.errors.ReadOnlySqlTransaction):
            return StoreError(t("store.read_only", where=self.where))
        return StoreError(t(f"store.{action}_failed", where=self.where,
                            reason=address.scrub(_one_line(err), self._hidden)))


def _driver(where: str) -> Any:
    """psycopg, or a German error that says what is missing and what to do."""
    try:
        import psycopg
        import psycopg.conninfo
        return psycopg
    except ModuleNotFoundError as err:
        if err.name == "psycopg":
            raise StoreError(t("store.no_driver", where=where)) from None
        raise StoreError(t("store.driver_broken", where=where, reason=_one_line(err))) from None
    except ImportError as err:
        text = str(err)
        impl = os.environ.get("PSYCOPG_IMPL")
        if impl and "implementation" in text:
            raise StoreError(t("store.driver_impl", where=where, impl=impl)) from None
        if "pq wrapper" in text or "libpq" in text:
            raise StoreError(t("store.no_libpq", where=where)) from None
        raise StoreError(t("store.driver_broken", where=where, reason=_one_line(err))) from None


def _parse_reason(err: Exception, hidden: set[str]) -> str:
    """Why libpq cannot read the URL, in German (its own text names parts of it)."""
    text = address.scrub(_one_line(err), hidden)
    if "percent-encoded" in text:
        return t("store.pg_percent")
    if "missing key/value separator" in text or "extra key/value separator" in text:
        return t("store.pg_parameter_value")
    if "invalid URI query parameter" in text:
        return t("store.pg_unknown_parameter", name=text.rsplit(":", 1)[-1].strip().strip('"'))
    if "IPv6" in text:
        return t("store.pg_ipv6")
    return t("store.pg_other", text=text)


def _connect_reason(err: Exception, info: dict[str, Any], hidden: frozenset[str]) -> str:
    """Why the server could not be reached or refused, in German; libpq's text only where unknown."""
    text = address.scrub(_one_line(err), set(hidden))
    low = text.lower()
    state = getattr(err, "sqlstate", None)
    for said, key, fields in _REASONS:
        if said(low, state):
            return t(key, **fields(info))
    return t("store.pg_other", text=text)


def _named(info: dict[str, Any], *keys: str) -> Any:
    """The first of ``keys`` the connection names, else a dash."""
    return next((info[k] for k in keys if info.get(k)), "–")


#: what the server or libpq says (its text in lower case, its SQLSTATE) -> the German reason and its fields;
#: the first that matches
_REASONS: tuple[tuple[Callable[[str, str | None], bool], str, Callable[[dict[str, Any]], dict[str, Any]]], ...] = (
    (lambda low, state: state == "28P01" or "password authentication failed" in low,
     "store.pg_auth", lambda info: {"user": _named(info, "user")}),
    (lambda low, state: "no password supplied" in low, "store.pg_no_password", lambda info: {}),
    (lambda low, state: state == "3D000" or ('database "' in low and "does not exist" in low),
     "store.pg_no_database", lambda info: {"name": _named(info, "dbname", "user")}),
    (lambda low, state: "role" in low and "does not exist" in low,
     "store.pg_no_role", lambda info: {"user": _named(info, "user")}),
    (lambda low, state: "no pg_hba.conf entry" in low, "store.pg_hba", lambda info: {}),
    (lambda low, state: "failed to resolve host" in low or "could not translate host name" in low,
     "store.pg_unknown_host", lambda info: {"host": _named(info, "host")}),
    (lambda low, state: "connection refused" in low, "store.pg_refused", lambda info: {}),
    (lambda low, state: "no such file or directory" in low and "socket" in low, "store.pg_no_socket", lambda info: {}),
    (lambda low, state: "timeout" in low or "timed out" in low,
     "store.pg_timeout", lambda info: {"seconds": _named(info, "connect_timeout")}),
)


def _one_line(err: object) -> str:
    lines = [line.strip() for line in str(err).splitlines() if line.strip()]
    return " ".join(lines).rstrip(". ") if lines else type(err).__name__
