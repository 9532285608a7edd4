"""The server store: campaigns in a PostgreSQL database, through psycopg 3.

Several campaigns share one database (the ``campaign`` column). Appends of one
campaign are serialised by a transaction-scoped advisory lock on the campaign,
taken before the next ``seq`` is read: seq order is commit order, so a reader
polling ``events(after=last)`` never misses an event that commits late.
Migrations hold a second advisory lock, so concurrent openers migrate once.
A lock wait longer than ``timeout`` seconds (``lock_timeout``) is a StoreError.
Install the driver with ``pip install 'rpgkernel[postgres]'``.
"""

from __future__ import annotations

import re
import zlib
from typing import Any
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

from ..errors import StoreError
from ..messages import t
from .schema import CURRENT, MIGRATIONS
from .store import DEFAULT_CAMPAIGN, KEEP_SNAPSHOTS, Store, check_after, check_name

#: advisory lock namespaces (first key of the two-key form): appends, migrations
LOCK_APPEND = int.from_bytes(b"RPGk", "big")
LOCK_MIGRATE = LOCK_APPEND + 1


class PostgresStore(Store):
    """The journal of ``campaign`` (default ``"default"``) in the database at ``url``."""

    def __init__(self, url: str, campaign: str | None = None, *, timeout: float = 10.0,
                 connect_timeout: int = 10) -> None:
        super().__init__()
        self.timeout = timeout
        self.where = redact_url(url)
        self.campaign = check_name("campaign", DEFAULT_CAMPAIGN if campaign is None else campaign)
        self._key = zlib.crc32(self.campaign.encode("utf-8")) - 2**31
        secrets = _secrets(url)
        try:
            import psycopg
            import psycopg.conninfo
        except ImportError:
            raise StoreError(t("store.no_driver", where=self.where)) from None
        self._psycopg = psycopg
        try:
            urlsplit(url).port  # noqa: B018 - raises ValueError for a bad port
            info = psycopg.conninfo.conninfo_to_dict(url)
        except (ValueError, psycopg.Error) as err:
            raise StoreError(t("store.url_malformed", where=self.where,
                               reason=_scrub(err, secrets))) from None
        options: dict[str, Any] = {"autocommit": True}
        if "connect_timeout" not in info:
            options["connect_timeout"] = connect_timeout
        try:
            self._conn = psycopg.connect(url, **options)
        except psycopg.Error as err:
            raise StoreError(t("store.unreachable", where=self.where,
                               reason=_scrub(err, secrets))) from None
        try:
            # A lock held longer than this (a client stuck inside a transaction) gives a StoreError.
            self._conn.execute("SELECT set_config('lock_timeout', %s, false)", (f"{int(timeout * 1000)}ms",))
            self._migrate()
        except BaseException as err:
            self._conn.close()
            if isinstance(err, psycopg.Error):
                raise StoreError(t("store.open_failed", where=self.where,
                                   reason=_scrub(err, secrets))) from None
            raise

    # -- opening ----------------------------------------------------------

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

    def _append_rows(self, rows: list[tuple[str, str, str]], at: str, after: int | None) -> list[int]:
        conn = self._conn
        with conn.transaction(), conn.cursor() as cur:
            cur.execute("SELECT pg_advisory_xact_lock(%s::integer, %s::integer)", (LOCK_APPEND, self._key))
            cur.execute("SELECT coalesce(max(seq), 0) FROM rpg_events WHERE campaign = %s", (self.campaign,))
            (last,) = cur.fetchone()
            check_after(last, after)
            cur.executemany(
                "INSERT INTO rpg_events (campaign, seq, tx, kind, data, at) VALUES (%s, %s, %s, %s, %s, %s)",
                [(self.campaign, last + 1 + i, tx, kind, data, at) for i, (kind, tx, data) in enumerate(rows)])
        return list(range(last + 1, last + 1 + len(rows)))

    def _read_page(self, after: int, kinds: tuple[str, ...] | None,
                   n: int) -> list[tuple[int, str, str, str, str]]:
        if kinds is None:
            return self._conn.execute(
                "SELECT seq, at, tx, kind, data FROM rpg_events"
                " WHERE campaign = %s AND seq > %s ORDER BY seq LIMIT %s",
                (self.campaign, after, n)).fetchall()
        return self._conn.execute(
            "SELECT seq, at, tx, kind, data FROM rpg_events"
            " WHERE campaign = %s AND kind = ANY(%s) AND seq > %s ORDER BY seq LIMIT %s",
            (self.campaign, list(kinds), after, n)).fetchall()

    def _last_seq(self) -> int:
        return self._conn.execute("SELECT coalesce(max(seq), 0) FROM rpg_events WHERE campaign = %s",
                                  (self.campaign,)).fetchone()[0]

    def _save_snapshot(self, seq: int, state_json: str, at: str) -> None:
        with self._conn.transaction():
            self._conn.execute(
                "INSERT INTO rpg_snapshots (campaign, seq, at, state) VALUES (%s, %s, %s, %s)"
                " ON CONFLICT (campaign, seq) DO UPDATE SET at = excluded.at, state = excluded.state",
                (self.campaign, seq, at, state_json))
            self._conn.execute(
                "DELETE FROM rpg_snapshots WHERE campaign = %s AND seq NOT IN"
                " (SELECT seq FROM rpg_snapshots WHERE campaign = %s ORDER BY seq DESC LIMIT %s)",
                (self.campaign, self.campaign, KEEP_SNAPSHOTS))

    def _latest_snapshot(self) -> tuple[int, str] | None:
        return self._conn.execute(
            "SELECT seq, state FROM rpg_snapshots WHERE campaign = %s ORDER BY seq DESC LIMIT 1",
            (self.campaign,)).fetchone()

    def _schema_version(self) -> int:
        return self._version()

    def _close(self) -> None:
        self._conn.close()

    def _wrap(self, err: Exception, action: str) -> StoreError | None:
        if not isinstance(err, self._psycopg.Error):
            return None
        if isinstance(err, self._psycopg.errors.LockNotAvailable):
            return StoreError(t("store.locked", where=self.where, timeout=self.timeout))
        return StoreError(t(f"store.{action}_failed", where=self.where, reason=_one_line(err)))


def redact_url(url: str) -> str:
    """``url`` without its password (in the user part or a ``password=`` parameter)."""
    try:
        parts = urlsplit(url)
        netloc = parts.netloc
        if "@" in netloc:
            user, host = netloc.rsplit("@", 1)
            netloc = user.split(":", 1)[0] + "@" + host
        query = urlencode([(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
                           if k.lower() != "password"])
        return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))
    except ValueError:
        return re.sub(r"(://[^:/@]*):[^@]*@", r"\1@", url)


def _secrets(url: str) -> set[str]:
    """Every spelling of the password in ``url``, to keep out of messages."""
    found = set(re.findall(r"://[^:/@]*:([^@]*)@", url))
    found |= set(re.findall(r"[?&]password=([^&#]*)", url, flags=re.IGNORECASE))
    found |= {unquote(s) for s in found}
    return {s for s in found if s}


def _scrub(err: object, secrets: set[str]) -> str:
    text = _one_line(err)
    for secret in sorted(secrets, key=len, reverse=True):
        text = text.replace(secret, "***")
    return text


def _one_line(err: object) -> str:
    lines = [line.strip() for line in str(err).splitlines() if line.strip()]
    return " ".join(lines).rstrip(". ") if lines else type(err).__name__
