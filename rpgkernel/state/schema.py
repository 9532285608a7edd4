"""The store schema and its migrations, for SQLite and PostgreSQL side by side.

Migration ``i`` takes a store from version ``i`` to ``i + 1``, each step in
one transaction; a store is brought to ``CURRENT`` on open. Never edit a
released step: append a new one. Tables: ``rpg_meta``, ``rpg_events``,
``rpg_snapshots``, ``rpg_heads``; ``sum`` (schema 3) is each row's CRC-32.
"""

from __future__ import annotations

from dataclasses import dataclass

#: PRAGMA application_id of a campaign file: b"RPGk"
SQLITE_APPLICATION_ID = int.from_bytes(b"RPGk", "big")


@dataclass(frozen=True)
class Migration:
    version: int  # the version this step produces
    note: str
    sqlite: tuple[str, ...]
    postgres: tuple[str, ...]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1, "journal of a single campaign",
        sqlite=(
            "CREATE TABLE rpg_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
            "INSERT INTO rpg_meta (key, value) VALUES ('campaign', :campaign)",
            "CREATE TABLE rpg_events (seq INTEGER PRIMARY KEY, tx TEXT NOT NULL, kind TEXT NOT NULL,"
            " data TEXT NOT NULL, at TEXT NOT NULL)",
            f"PRAGMA application_id = {SQLITE_APPLICATION_ID}",
        ),
        postgres=(
            "CREATE TABLE rpg_meta (key text PRIMARY KEY, value text NOT NULL)",
            "INSERT INTO rpg_meta (key, value) VALUES ('campaign', %(campaign)s)",
            "CREATE TABLE rpg_events (seq bigint PRIMARY KEY, tx text NOT NULL, kind text NOT NULL,"
            " data text NOT NULL, at text NOT NULL)",
        ),
    ),
    Migration(
        2, "campaign column, index by kind, snapshots",
        sqlite=(
            "ALTER TABLE rpg_events ADD COLUMN campaign TEXT NOT NULL DEFAULT ''",
            "UPDATE rpg_events SET campaign = (SELECT value FROM rpg_meta WHERE key = 'campaign')",
            "CREATE INDEX rpg_events_kind ON rpg_events (campaign, kind, seq)",
            "CREATE TABLE rpg_snapshots (campaign TEXT NOT NULL, seq INTEGER NOT NULL,"
            " at TEXT NOT NULL, state TEXT NOT NULL, PRIMARY KEY (campaign, seq))",
        ),
        postgres=(
            "ALTER TABLE rpg_events ADD COLUMN campaign text NOT NULL DEFAULT ''",
            "UPDATE rpg_events SET campaign ="
            " coalesce((SELECT value FROM rpg_meta WHERE key = 'campaign'), 'default')",
            "ALTER TABLE rpg_events DROP CONSTRAINT rpg_events_pkey",
            "ALTER TABLE rpg_events ADD PRIMARY KEY (campaign, seq)",
            "CREATE INDEX rpg_events_kind ON rpg_events (campaign, kind, seq)",
            "CREATE TABLE rpg_snapshots (campaign text NOT NULL, seq bigint NOT NULL,"
            " at text NOT NULL, state text NOT NULL, PRIMARY KEY (campaign, seq))",
        ),
    ),
    Migration(
        3, "checksums, the head of each journal",
        sqlite=(
            "ALTER TABLE rpg_events ADD COLUMN sum INTEGER",
            "ALTER TABLE rpg_snapshots ADD COLUMN sum INTEGER",
            "CREATE TABLE rpg_heads (campaign TEXT PRIMARY KEY, seq INTEGER NOT NULL,"
            " checked_from INTEGER NOT NULL)",
            "INSERT INTO rpg_heads (campaign, seq, checked_from)"
            " SELECT value, (SELECT coalesce(max(seq), 0) FROM rpg_events),"
            " (SELECT coalesce(max(seq), 0) + 1 FROM rpg_events) FROM rpg_meta WHERE key = 'campaign'",
        ),
        postgres=(
            "ALTER TABLE rpg_events ADD COLUMN sum bigint",
            "ALTER TABLE rpg_snapshots ADD COLUMN sum bigint",
            "CREATE TABLE rpg_heads (campaign text PRIMARY KEY, seq bigint NOT NULL,"
            " checked_from bigint NOT NULL)",
            "INSERT INTO rpg_heads (campaign, seq, checked_from)"
            " SELECT campaign, max(seq), max(seq) + 1 FROM rpg_events GROUP BY campaign",
        ),
    ),
)

CURRENT = len(MIGRATIONS)
assert all(m.version == i + 1 for i, m in enumerate(MIGRATIONS))
