"""The journal store, against SQLite and PostgreSQL alike (fixtures in tests/conftest.py)."""

import contextlib
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import time
from collections import defaultdict
from datetime import datetime, timezone

import pytest

import rpgkernel.state.store as store_module
from rpgkernel.errors import RpgError
from rpgkernel.state import Event, PostgresStore, SQLiteStore, StoreError, open_store
from rpgkernel.state.schema import CURRENT

HOSTILE = [
    "<script>alert('x')</script>",
    "'); DROP TABLE rpg_events;--",
    "'); DROP TABLE events;--",
    'Robert"); DELETE FROM rpg_meta; --',
    "O'Brien \"der Kühne\" \\ %s %(x)s {0} ? :name $1",
    "Zwölf Äxte 🐉 𝔘 \u200b \n\t\r",
]


def tx_events(tx, n, kind="test", **extra):
    return [Event(kind, {"i": i, **extra}, tx) for i in range(n)]


def plain(events):
    return [(e.seq, e.tx, e.kind, e.data) for e in events]


# -- round trip, filtering, ordering --------------------------------------

def test_round_trip(target):
    data = {"wurf": "3W6+2", "würfel": [6, 2, 5], "summe": 15, "p": 0.375, "krit": False,
            "ziel": None, "tief": {"a": [{"b": -1}], "leer": {}}, "gross": 2**62, "klein": -1.5e-300}
    with open_store(target) as store:
        stored = store.append([Event("wurf", data, "tx-1"), Event("figur.angelegt", {"name": "Ritter"}, "tx-1")])
        assert [e.seq for e in stored] == [1, 2]
        assert stored[0].at == stored[1].at
        at = datetime.fromisoformat(stored[0].at)
        assert at.utcoffset().total_seconds() == 0 and abs(datetime.now(timezone.utc) - at).total_seconds() < 60
        assert store.last_seq() == 2
    with open_store(target) as store:
        back = list(store.events())
    assert back == stored
    assert back[0].data == data and list(back[0].data) == list(data)  # key order kept
    assert [Event.from_json(e.to_json()) for e in back] == back


def test_append_returns_new_events_and_ignores_given_positions(target):
    with open_store(target) as store:
        given = Event("x", {"a": 1}, "t", seq=99, at="gestern")
        [stored] = store.append([given])
        assert stored.seq == 1 and stored.at != "gestern"
        assert given.seq == 99  # immutable
        with pytest.raises(AttributeError):
            stored.kind = "y"
        assert store.append([]) == []
        assert store.last_seq() == 1


def test_seq_strictly_increasing_across_appends(target):
    with open_store(target) as store:
        for n in (1, 3, 2, 5):
            store.append(tx_events(f"tx{n}", n))
        seqs = [e.seq for e in store.events()]
        assert seqs == list(range(1, 12))
        assert store.last_seq() == 11
        assert [e.tx for e in store.events()] == ["tx1"] + ["tx3"] * 3 + ["tx2"] * 2 + ["tx5"] * 5


def test_filter_by_after_kinds_and_limit(target, monkeypatch):
    with open_store(target) as store:
        kinds = ["a", "b", "c"]
        store.append([Event(kinds[i % 3], {"i": i}, f"t{i}") for i in range(30)])
        assert [e.seq for e in store.events(after=25)] == [26, 27, 28, 29, 30]
        assert [e.data["i"] for e in store.events(kinds="a")] == list(range(0, 30, 3))
        assert [e.kind for e in store.events(kinds=["c", "a"], limit=4)] == ["a", "c", "a", "c"]
        assert [e.seq for e in store.events(after=10, kinds=("b",), limit=2)] == [11, 14]
        assert list(store.events(kinds=[])) == []
        assert list(store.events(kinds="unbekannt")) == []
        assert list(store.events(after=30)) == []
        assert list(store.events(limit=0)) == []
        monkeypatch.setattr(store_module, "READ_PAGE", 4)  # several pages per iteration
        assert [e.seq for e in store.events()] == list(range(1, 31))
        assert [e.seq for e in store.events(after=3, limit=9)] == list(range(4, 13))
        assert [e.data["i"] for e in store.events(kinds=["b"])] == list(range(1, 30, 3))
        for bad in ({"after": -1}, {"limit": -2}, {"after": "0"}, {"kinds": [1]}):
            with pytest.raises(StoreError):
                store.events(**bad)


def test_reader_sees_events_appended_later(target):
    with open_store(target) as writer, open_store(target) as reader:
        seen = 0
        for n in range(5):
            writer.append(tx_events(f"t{n}", 2))
            new = list(reader.events(after=seen))
            assert [e.seq for e in new] == [seen + 1, seen + 2]
            seen = new[-1].seq


def test_snapshot_save_and_load(target):
    with open_store(target) as store:
        assert store.latest_snapshot() is None
        store.append(tx_events("t", 6))
        store.save_snapshot(0, {"format": 1, "leer": True})
        store.save_snapshot(5, {"format": 1, "figuren": {"Ritter": {"gd": 4}}})
        store.save_snapshot(3, {"format": 1, "älter": True})
        assert store.latest_snapshot() == (5, {"format": 1, "figuren": {"Ritter": {"gd": 4}}})
        store.save_snapshot(5, {"format": 1, "neu": True})  # replaces the one at 5
        for seq in (7, -1, "5", 2.0):
            with pytest.raises(StoreError):
                store.save_snapshot(seq, {})
        with pytest.raises(StoreError):
            store.save_snapshot(6, ["kein", "dict"])
        with pytest.raises(StoreError):
            store.save_snapshot(6, {"menge": {1, 2}})
    with open_store(target) as store:
        assert store.latest_snapshot() == (5, {"format": 1, "neu": True})
        assert [e.seq for e in store.events(after=5)] == [6]


def test_two_stores_on_one_target_see_each_other(target):
    with open_store(target) as a, open_store(target) as b:
        a.append(tx_events("von-a", 2))
        assert [e.tx for e in b.events()] == ["von-a", "von-a"]
        b.append(tx_events("von-b", 1))
        assert plain(a.events()) == plain(b.events())
        assert [e.seq for e in a.events()] == [1, 2, 3]
        assert a.last_seq() == b.last_seq() == 3


def test_two_campaigns_in_one_postgres_database_stay_separate(pg_cluster):
    url = pg_cluster.new_database()
    with open_store(url, "Nordmark") as nord, open_store(url, "Südlande") as sued:
        nord.append(tx_events("n", 3, kind="nord"))
        sued.append(tx_events("s", 2, kind="süd"))
        nord.append(tx_events("n2", 1, kind="nord"))
        nord.save_snapshot(4, {"land": "Nordmark"})
        assert [(e.seq, e.kind) for e in nord.events()] == [(1, "nord"), (2, "nord"), (3, "nord"), (4, "nord")]
        assert [(e.seq, e.kind) for e in sued.events()] == [(1, "süd"), (2, "süd")]
        assert (nord.last_seq(), sued.last_seq()) == (4, 2)
        assert sued.latest_snapshot() is None
    with open_store(url) as default:
        assert default.campaign == "default" and list(default.events()) == []


def test_sqlite_file_holds_one_campaign(tmp_path):
    path = tmp_path / "k.sqlite"
    with open_store(path, "Nordmark") as store:
        store.append(tx_events("t", 1))
    with open_store(path) as store:
        assert store.campaign == "Nordmark" and store.last_seq() == 1
    with pytest.raises(StoreError, match="Nordmark"):
        open_store(path, "Südlande")


def test_a_path_opens_sqlite_in_wal_mode_with_full_sync(tmp_path):
    with open_store(tmp_path / "k.sqlite") as store:
        assert isinstance(store, SQLiteStore) and store.journal_mode == "wal"
        assert store._conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    with open_store(str(tmp_path / "n.sqlite"), synchronous="normal") as store:
        assert store._conn.execute("PRAGMA synchronous").fetchone()[0] == 1
    with pytest.raises(StoreError, match="synchronous"):
        open_store(tmp_path / "x.sqlite", synchronous="OFF")


def test_a_url_opens_postgres(pg_cluster):
    url = pg_cluster.new_database()
    for spelled in (url, url.replace("postgresql://", "postgres://", 1)):
        with open_store(spelled) as store:
            assert isinstance(store, PostgresStore)
            assert pg_cluster.password not in repr(store) and "127.0.0.1" in repr(store)


def test_closed_store_refuses(target):
    store = open_store(target)
    store.close()
    store.close()  # twice is fine
    for call in (lambda: store.append(tx_events("t", 1)), store.last_seq, lambda: store.events(),
                 store.latest_snapshot):
        with pytest.raises(StoreError, match="geschlossen"):
            call()


def test_a_held_write_lock_gives_up_after_the_timeout(backend, target):
    open_store(target).close()
    if backend == "sqlite":
        holder = sqlite3.connect(target, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
    else:
        import psycopg

        from rpgkernel.state.postgres import LOCK_APPEND
        with open_store(target) as probe:
            key = probe._key
        holder = psycopg.connect(target)  # not autocommit: the lock lasts until rollback
        holder.execute("SELECT pg_advisory_xact_lock(%s::integer, %s::integer)", (LOCK_APPEND, key))
    try:
        with open_store(target, timeout=0.3) as store:
            started = time.monotonic()
            with pytest.raises(StoreError, match="gesperrt"):
                store.append(tx_events("wartet", 1))
            assert time.monotonic() - started > 0.25   # it waited (a loaded machine only waits longer)
            holder.execute("ROLLBACK")
            store.append(tx_events("danach", 1))
            assert [e.tx for e in store.events()] == ["danach"]
    finally:
        holder.close()


# -- schema versions --------------------------------------------------------

V1_SQLITE = [
    "CREATE TABLE rpg_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "INSERT INTO rpg_meta (key, value) VALUES ('campaign', 'Altland')",
    "CREATE TABLE rpg_events (seq INTEGER PRIMARY KEY, tx TEXT NOT NULL, kind TEXT NOT NULL,"
    " data TEXT NOT NULL, at TEXT NOT NULL)",
    "PRAGMA application_id = 1380992875",
    "PRAGMA user_version = 1",
]
V1_POSTGRES = [
    "CREATE TABLE rpg_meta (key text PRIMARY KEY, value text NOT NULL)",
    "INSERT INTO rpg_meta (key, value) VALUES ('campaign', 'Altland'), ('schema_version', '1')",
    "CREATE TABLE rpg_events (seq bigint PRIMARY KEY, tx text NOT NULL, kind text NOT NULL,"
    " data text NOT NULL, at text NOT NULL)",
]
V1_ROWS = [(1, "alt-1", "wurf", '{"w":"W20","ergebnis":17}', "2024-01-01T10:00:00.000000+00:00"),
           (2, "alt-1", "figur.angelegt", '{"name":"Ritter"}', "2024-01-01T10:00:00.000000+00:00"),
           (3, "alt-2", "wurf", '{"w":"W6","ergebnis":3}', "2024-01-01T10:05:00.000000+00:00")]


def raw_execute(backend, target, statements, rows=()):
    insert = "INSERT INTO rpg_events (seq, tx, kind, data, at) VALUES ({0}, {0}, {0}, {0}, {0})"
    if backend == "sqlite":
        conn = sqlite3.connect(target)
        for sql in statements:
            conn.execute(sql)
        conn.executemany(insert.format("?"), rows)
        conn.commit()
        conn.close()
    else:
        import psycopg
        with psycopg.connect(target, autocommit=True) as conn:
            for sql in statements:
                conn.execute(sql)
            conn.cursor().executemany(insert.format("%s"), rows)


def test_old_schema_is_migrated_and_keeps_its_events(backend, target):
    raw_execute(backend, target, V1_SQLITE if backend == "sqlite" else V1_POSTGRES, V1_ROWS)
    with open_store(target, "Altland") as store:
        assert store.schema_version() == CURRENT == 3
        old = list(store.events())
        assert [(e.seq, e.tx, e.kind, json.dumps(e.data, separators=(",", ":")), e.at) for e in old] == V1_ROWS
        store.append(tx_events("neu", 2))
        store.save_snapshot(4, {"format": 1})
        assert [e.seq for e in store.events()] == [1, 2, 3, 4, 5]
        assert [e.seq for e in store.events(kinds="wurf")] == [1, 3]
        assert store.check() == [] and store.damage == ()
    with open_store(target, "Altland") as store:  # opening again migrates nothing
        assert store.schema_version() == 3 and store.last_seq() == 5
    # rows written before schema 3 carry no checksum; every later one does
    assert raw_query(backend, target, "SELECT seq, sum IS NULL FROM rpg_events ORDER BY seq") == \
        [(1, True), (2, True), (3, True), (4, False), (5, False)]


def raw_query(backend, target, sql):
    if backend == "sqlite":
        conn = sqlite3.connect(target)
        rows = [tuple(bool(v) if i else v for i, v in enumerate(row)) for row in conn.execute(sql).fetchall()]
        conn.close()
        return rows
    import psycopg
    with psycopg.connect(target, autocommit=True) as conn:
        return [tuple(row) for row in conn.execute(sql).fetchall()]


def test_newer_schema_is_refused(backend, target):
    open_store(target).close()
    if backend == "sqlite":
        raw_execute(backend, target, ["PRAGMA user_version = 99"])
    else:
        raw_execute(backend, target, ["UPDATE rpg_meta SET value = '99' WHERE key = 'schema_version'"])
    with pytest.raises(StoreError, match="Schema 99"):
        open_store(target)


# -- errors naming the place ------------------------------------------------

def test_file_that_is_not_a_campaign(tmp_path):
    junk = tmp_path / "notizen.sqlite"
    junk.write_bytes(b"Keine Datenbank, nur Notizen.\n" * 200)
    with pytest.raises(StoreError, match="keine rpgkernel-Kampagne") as err:
        open_store(junk)
    assert str(junk) in str(err.value) and isinstance(err.value, RpgError)
    assert junk.read_bytes() == b"Keine Datenbank, nur Notizen.\n" * 200

    other = tmp_path / "fremd.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE kunden (name TEXT)")
    conn.commit()
    conn.close()
    before = other.read_bytes()
    with pytest.raises(StoreError, match="keine rpgkernel-Kampagne"):
        open_store(other)
    assert other.read_bytes() == before and not (tmp_path / "fremd.db-wal").exists()


def test_paths_that_cannot_hold_a_campaign(tmp_path):
    with pytest.raises(StoreError, match="Ordner") as err:
        open_store(tmp_path)
    assert str(tmp_path) in str(err.value)
    missing = tmp_path / "gibt-es-nicht" / "k.sqlite"
    with pytest.raises(StoreError, match="gibt-es-nicht"):
        open_store(missing)
    with pytest.raises(StoreError, match="Unbekannte Adresse"):
        open_store("mysql://rpg:geheim@localhost/rpg")
    assert "geheim" not in _message(lambda: open_store("mysql://rpg:geheim@localhost/rpg"))


def _message(call):
    with pytest.raises(StoreError) as err:
        call()
    return str(err.value)


def test_bad_postgres_urls_name_the_place_without_password():
    pytest.importorskip("psycopg")
    text = _message(lambda: open_store("postgresql://rpg:geheim@127.0.0.1:keinport/rpg"))
    assert "keine gültige PostgreSQL-URL" in text and "127.0.0.1" in text and "geheim" not in text
    text = _message(lambda: open_store("postgresql://rpg@127.0.0.1/rpg?password=geheim&sslmode=bogus"))
    assert "geheim" not in text and "127.0.0.1" in text


def test_unreachable_server_names_the_place_without_password():
    pytest.importorskip("psycopg")
    import socket
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    text = _message(lambda: open_store(f"postgresql://rpg:Ge%2Fheim@127.0.0.1:{port}/rpg"))
    assert "Keine Verbindung" in text and f"127.0.0.1:{port}" in text
    assert "Ge%2Fheim" not in text and "Ge/heim" not in text


def test_wrong_password_and_missing_database(pg_cluster):
    wrong = pg_cluster.url().replace(pg_cluster.password, "falsch-geraten")
    text = _message(lambda: open_store(wrong))
    assert "Keine Verbindung" in text and "falsch-geraten" not in text
    text = _message(lambda: open_store(pg_cluster.url("gibtesnicht")))
    assert "gibtesnicht" in text and pg_cluster.password not in text


# -- hostile input -----------------------------------------------------------

def test_hostile_names_round_trip_verbatim(target):
    events = [Event(name, {name: name, "liste": [name, {name: [name]}]}, name) for name in HOSTILE]
    events.append(Event("null", {"text": "a\x00b", "\x00": 0}, "nul"))
    with open_store(target) as store:
        for event in events:  # one transaction each: the tx ids differ
            store.append([event])
        store.save_snapshot(3, {name: name for name in HOSTILE})
    with open_store(target) as store:
        back = list(store.events())
        assert [(e.kind, e.data, e.tx) for e in back] == [(e.kind, e.data, e.tx) for e in events]
        assert [e.seq for e in back] == list(range(1, len(events) + 1))
        assert [e.kind for e in store.events(kinds=HOSTILE[1])] == [HOSTILE[1]]
        assert store.latest_snapshot() == (3, {name: name for name in HOSTILE})
        store.append(tx_events("danach", 1))  # the tables are all still there
        assert store.last_seq() == len(events) + 1


@pytest.mark.parametrize("campaign", HOSTILE[:4])
def test_hostile_campaign_names(backend, target, campaign):
    with open_store(target, campaign) as store:
        store.append(tx_events("t", 2))
    with open_store(target, campaign) as store:
        assert store.campaign == campaign and store.last_seq() == 2


class NotJson:
    pass


def deep(n):
    value = {}
    for _ in range(n):
        value = {"x": value}
    return value


BAD_EVENTS = {
    "set": Event("k", {"a": {1, 2}}, "t"),
    "object": Event("k", {"a": NotJson()}, "t"),
    "bytes": Event("k", {"a": b"\x00"}, "t"),
    "tuple": Event("k", {"a": (1, 2)}, "t"),
    "nan": Event("k", {"a": float("nan")}, "t"),
    "inf": Event("k", {"a": [1.0, float("-inf")]}, "t"),
    "int key": Event("k", {"a": {1: "eins"}}, "t"),
    "none key": Event("k", {None: 1}, "t"),
    "surrogate": Event("k", {"a": "\ud800"}, "t"),
    "surrogate key": Event("k", {"\udfff": 1}, "t"),
    "too deep": Event("k", deep(500), "t"),
    "too large": Event("k", {"a": "x" * 1_000_000}, "t"),
    "many small": Event("k", {"a": ["xxxxxxx"] * 120_000}, "t"),
    "data list": Event("k", ["a"], "t"),
    "data none": Event("k", None, "t"),
    "kind int": Event(3, {}, "t"),
    "kind empty": Event("", {}, "t"),
    "kind nul": Event("a\x00b", {}, "t"),
    "kind long": Event("k" * 201, {}, "t"),
    "tx none": Event("k", {}, None),
    "tx surrogate": Event("k", {}, "\ud83d"),
    "not an event": {"kind": "k", "data": {}, "tx": "t"},
}


@pytest.mark.parametrize("bad", BAD_EVENTS, ids=list(BAD_EVENTS))
def test_bad_event_is_refused_and_nothing_written(target, bad):
    with open_store(target) as store:
        store.append(tx_events("vorher", 1))
        batch = [*tx_events("mit-fehler", 2), BAD_EVENTS[bad], *tx_events("mit-fehler", 1)]
        with pytest.raises(StoreError, match="Nichts wurde gespeichert"):
            store.append(batch)
        assert store.last_seq() == 1
        store.append(tx_events("danach", 1))
        assert [e.tx for e in store.events()] == ["vorher", "danach"]


def test_limits_are_messages_in_german(target, monkeypatch):
    with open_store(target) as store:
        text = _message(lambda: store.append([Event("riesig", {"a": "x" * 2_000_000}, "t")]))
        assert "zu groß" in text and "1.000.000" in text
        assert "data['a'][1]" in _message(lambda: store.append([Event("k", {"a": [0, {1}]}, "t")]))
        assert len(store.append([Event("k", {"a": "x" * 900_000}, "t")])) == 1  # under the limit
        monkeypatch.setattr(store_module, "MAX_APPEND_BYTES", 5_000)
        text = _message(lambda: store.append([Event("k", {"a": "x" * 1000}, "t")] * 6))
        assert "auf einmal" in text
        monkeypatch.setattr(store_module, "MAX_APPEND_EVENTS", 10)
        assert "auf einmal" in _message(lambda: store.append(tx_events("t", 11)))
        assert store.last_seq() == 1


# -- reliability: processes ---------------------------------------------------

WRITER = r"""
import sys
from rpgkernel.state import Event, open_store

mode, target, name, count = sys.argv[1:5]
store = open_store(target)
print("bereit", flush=True)
sys.stdin.readline()  # one event per append, after the start signal on stdin
for i in range(int(count)):
    store.append([Event("test.race", {"writer": name, "i": i}, f"{name}-{i}")])
store.close()
print("fertig", flush=True)
"""


def writer(target, name, count, **kw):
    return subprocess.Popen([sys.executable, "-c", WRITER, "race", str(target), name, str(count)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


# Forks a writer for each name read on stdin: Python and the store's modules (the PostgreSQL driver too)
# load once here, not in each of the hundred writers. A writer appends transactions of 5 events until
# killed, each line one write below PIPE_BUF (it arrives whole or not at all); after a writer has died,
# "tot <wait status>" on a line of its own.
FORKING_WRITER = r"""
import os, sys, traceback
from rpgkernel.state import Event, open_store
try:
    import psycopg, psycopg.conninfo  # noqa: F401
except ImportError:
    pass

target = sys.argv[1]
os.write(1, b"bereit\n")
for name in iter(sys.stdin.readline, ""):
    name = name.strip()
    pid = os.fork()
    if pid == 0:
        try:
            store = open_store(target)
            os.write(1, f"offen {os.getpid()}\n".encode())
            n = 0
            while True:
                tx = f"{name}-{n}"
                store.append([Event("test.tx", {"tx": tx, "i": i, "von": 5, "text": "x" * 200}, tx)
                              for i in range(5)])
                os.write(1, f"{tx}\n".encode())
                n += 1
        except BaseException:
            traceback.print_exc()
        finally:
            os._exit(1)
    os.write(1, f"tot {os.waitpid(pid, 0)[1]}\n".encode())
"""


@pytest.mark.slow
def test_writer_killed_at_random_points_loses_no_committed_transaction(backend, target):
    """100 writers killed by SIGKILL mid-append: nothing committed lost, nothing half written,
    the journal's end row still right (SQLite recovers its WAL; PostgreSQL rolls the dead client back)."""
    open_store(target).close()
    rng = random.Random(20240531)
    reported: set[str] = set()
    runs_with_commits = 0
    writers = subprocess.Popen([sys.executable, "-c", FORKING_WRITER, str(target)], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def line(expected: str) -> str:
        got = writers.stdout.readline()
        if not re.fullmatch(expected, got.rstrip("\n")):
            writers.kill()
            pytest.fail(f"expected {expected!r}, got {got!r}:\n{writers.communicate()[1]}")
        return got.rstrip("\n")
    seen, txs = 0, set()

    def whole(events: list[Event], after: int) -> None:
        """The events follow ``after`` in order without a gap, each transaction whole (adds them to ``txs``)."""
        assert [e.seq for e in events] == list(range(after + 1, after + 1 + len(events)))
        by_tx: dict[str, list[Event]] = defaultdict(list)
        for e in events:
            by_tx[e.tx].append(e)
        for tx, group in by_tx.items():  # no transaction half present
            assert [e.data["i"] for e in group] == [0, 1, 2, 3, 4], tx
            assert [e.seq for e in group] == list(range(group[0].seq, group[0].seq + 5)), tx
        txs.update(by_tx)
    pid = None
    try:
        line("bereit")
        for run in range(100):
            writers.stdin.write(f"r{run}\n")
            writers.stdin.flush()
            pid = int(line(r"offen \d+").split()[1])
            # a random number of commits first (however fast this machine is), then a random moment
            committed = [line(rf"r{run}-\d+") for _ in range(rng.randint(0, 12))]
            time.sleep(rng.uniform(0.0, 0.01))
            os.kill(pid, signal.SIGKILL)
            while not (shown := line(rf"r{run}-\d+|tot \d+")).startswith("tot "):
                committed.append(shown)
            status, pid = int(shown.split()[1]), None
            assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, status
            runs_with_commits += bool(committed)
            reported.update(committed)

            with open_store(target) as store:  # opens (recovering the WAL) after every kill
                # a COMMIT the killed PostgreSQL client had already sent may still land while we read: read
                # the journal's new part and its end row until no commit fell between them
                for _ in range(100):
                    end = store.last_seq()
                    new = list(store.events(after=seen))
                    if store.last_seq() == end:
                        break
                    time.sleep(0.05)
                assert store.check() == [] and end == seen + len(new)
            if backend == "sqlite":
                conn = sqlite3.connect(target)
                assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
                conn.close()
            # each run reads what was added since the last (the whole journal once more at the end): the
            # same checks without reading the journal a hundred times
            whole(new, seen)
            seen = end
            missing = reported - txs
            assert not missing, f"run {run}: committed but lost: {sorted(missing)[:5]}"
        with open_store(target) as store:
            assert store.check() == []
            everything = list(store.events())
        txs.clear()
        whole(everything, 0)
        assert not reported - txs, "committed but lost after a later kill"
    finally:
        if pid is not None:   # a writer still running when the test failed
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        writers.kill()
        writers.wait(timeout=30)
        for stream in (writers.stdin, writers.stdout, writers.stderr):
            stream.close()
    assert runs_with_commits >= 80 and len(reported) >= 500


@pytest.mark.slow
def test_two_processes_writing_at_once(target):
    open_store(target).close()
    procs = [writer(target, name, 1000, stdin=subprocess.PIPE) for name in ("A", "B")]
    try:
        for proc in procs:
            assert proc.stdout.readline() == "bereit\n", proc.stderr.read()
        for proc in procs:
            proc.stdin.write("los\n")
            proc.stdin.flush()
        polled = []  # a reader polling events(after=last) meanwhile never misses one
        with open_store(target) as reader:
            deadline = time.monotonic() + 300
            while any(proc.poll() is None for proc in procs) and time.monotonic() < deadline:
                polled += [e.seq for e in reader.events(after=polled[-1] if polled else 0)]
                assert reader.check() == []  # the end row and the last seq, read while both move
                time.sleep(0.001)
            polled += [e.seq for e in reader.events(after=polled[-1] if polled else 0)]
        for proc in procs:
            out, err = proc.communicate(timeout=30)
            assert proc.returncode == 0 and out == "fertig\n", err
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
    with open_store(target) as store:
        events = list(store.events())
    assert [e.seq for e in events] == list(range(1, 2001))
    assert polled == list(range(1, 2001))
    for name in ("A", "B"):
        assert [e.data["i"] for e in events if e.data["writer"] == name] == list(range(1000))
    seqs = {name: [e.seq for e in events if e.data["writer"] == name] for name in ("A", "B")}
    assert max(min(s) for s in seqs.values()) < min(max(s) for s in seqs.values()), "no overlap in time"
