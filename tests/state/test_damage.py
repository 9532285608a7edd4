"""Damaged campaigns: every kind of damage gives a German message naming table and seq, and the intact
part can be read (``read_only=True``) and rescued (``export``), against SQLite and PostgreSQL alike."""

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from rpgkernel.errors import RpgError, StoreError
from rpgkernel.state import Campaign, CampaignDamaged, Damage, model, open_store
from rpgkernel.state import campaign as campaign_module
from rpgkernel.state.store import row_sum, snapshot_sum

ENGLISH = ("malformed", "database disk image", "Traceback", "JSONDecodeError", "KeyError", "AttributeError",
           "Expecting", "not a database", "readonly database", "unable to open")
LP = 1000


def build(target, n=20):
    """A campaign of ``n`` events: Ritter (LP 1000) created, then n - 1 hits of 1 LP; the LP after each seq."""
    with Campaign.open(target) as camp:
        camp.add_character("Ritter", resources={"LP": LP})
        for _ in range(n - 1):
            camp.change("Ritter", "LP", -1)
        assert camp.store.last_seq() == n
    return {seq: LP - (seq - 1) for seq in range(1, n + 1)}


def sql(backend, target, statement, params=()):
    if backend == "sqlite":
        conn = sqlite3.connect(target)
        conn.execute(statement, params)
        conn.commit()
        conn.close()
        return
    import psycopg
    with psycopg.connect(target, autocommit=True) as conn:
        conn.execute(statement.replace("?", "%s"), params)


def query(backend, target, statement, params=()):
    if backend == "sqlite":
        conn = sqlite3.connect(target)
        rows = conn.execute(statement, params).fetchall()
        conn.close()
        return rows
    import psycopg
    with psycopg.connect(target, autocommit=True) as conn:
        return conn.execute(statement.replace("?", "%s"), params).fetchall()


def set_data(backend, target, seq, data, keep_sum=True):
    """Replace the data of row ``seq``; with ``keep_sum=False`` its checksum is made to fit (an edit, not rot)."""
    sql(backend, target, "UPDATE rpg_events SET data = ? WHERE seq = ?", (data, seq))
    if not keep_sum:
        (tx, kind, at), = query(backend, target, "SELECT tx, kind, at FROM rpg_events WHERE seq = ?", (seq,))
        sql(backend, target, "UPDATE rpg_events SET sum = ? WHERE seq = ?", (row_sum(seq, tx, kind, at, data), seq))


def damaged(target) -> CampaignDamaged:
    with pytest.raises(CampaignDamaged) as err:
        Campaign.open(target)
    text = str(err.value)
    assert isinstance(err.value, RpgError) and not any(word in text for word in ENGLISH), text
    assert "--nur-lesen" in text and "--exportieren" in text and "Am Journal wurde nichts verändert" in text
    return err.value


def lp(camp):
    return camp.characters["Ritter"].resources["LP"]["value"]


def intact_part_is_readable_and_rescued(target, tmp_path, good_until, lp_after, total):
    """Read-only: the fold of 1..good_until; the journal lists every readable event; the rescue opens."""
    with Campaign.open(target, read_only=True) as camp:
        assert camp.read_only and camp.state["seq"] == good_until and lp(camp) == lp_after[good_until]
        assert camp.damage and all(isinstance(d, Damage) for d in camp.damage)
        readable = [e.seq for e in camp.journal()]
        assert readable[:good_until] == list(range(1, good_until + 1)) and readable[-1] == total
        with pytest.raises(StoreError, match="nur zum Lesen"):
            camp.change("Ritter", "LP", -1)
        report = camp.export(tmp_path / "gerettet.sqlite")
        assert report.left_out == (good_until + 1, total) and f"Nr. {good_until + 1} bis {total}" in str(report)
        camp.export(tmp_path / "alles.jsonl")
    with Campaign.open(tmp_path / "gerettet.sqlite") as rescued:  # a sound campaign of the intact part
        assert rescued.state["seq"] == good_until and lp(rescued) == lp_after[good_until]
        assert not rescued.damage
        rescued.change("Ritter", "LP", -5)  # and play goes on
        assert lp(rescued) == lp_after[good_until] - 5
    lines = [json.loads(line) for line in (tmp_path / "alles.jsonl").read_text(encoding="utf-8").splitlines()]
    assert {line["seq"] for line in lines if line["table"] == "rpg_events"} >= set(range(1, good_until + 1))
    return lines


# -- one damaged row ---------------------------------------------------------------

@pytest.mark.parametrize("data, reason", [
    ('{"text": "kaputt', "die Daten sind kein gültiges JSON"),
    ('[1, 2]', "die Daten sind kein JSON-Objekt, sondern eine Liste"),
    ('"nur Text"', "die Daten sind kein JSON-Objekt, sondern ein Text"),
])
def test_event_data_that_is_not_a_json_object(backend, target, tmp_path, data, reason):
    lp_after = build(target)
    set_data(backend, target, 8, data)
    err = damaged(target)
    assert f"Eintrag Nr. 8 (Tabelle rpg_events): {reason}" in str(err)
    assert [(d.table, d.seq) for d in err.damage] == [("rpg_events", 8)]
    lines = intact_part_is_readable_and_rescued(target, tmp_path, 7, lp_after, 20)
    [bad] = [line for line in lines if line["seq"] == 8]
    assert bad["raw"]["data"] == data and reason in bad["damage"]


@pytest.mark.parametrize("changes, reason", [
    ([{"op": "add"}], "Änderung 1 des Eintrags lässt sich nicht ausführen: sie ist kein vollständiger"),
    ([{"op": "schieb", "path": ["characters", "Ritter"], "value": 1}], "Änderung 1"),
    ([{"op": "add", "path": "characters", "by": 1}], "Änderung 1"),
    ([{"op": "add", "path": ["characters", "Ritter", "resources", "LP", "value"], "by": -1},
      {"op": "add", "path": ["characters", "Ritter", "name", "x"], "by": 1}],
     "Änderung 2 des Eintrags lässt sich nicht ausführen: sie passt nicht zum Stand der Kampagne"),
    ({"op": "add"}, "seine Änderungen sind keine Liste"),
])
def test_a_broken_change_record(backend, target, tmp_path, changes, reason):
    """A change record that passes its checksum (edited, not rotten) but cannot fold."""
    lp_after = build(target)
    set_data(backend, target, 8, json.dumps({"text": "verbogen", "changes": changes}), keep_sum=False)
    err = damaged(target)
    assert "Eintrag Nr. 8 (Tabelle rpg_events)" in str(err) and reason in str(err)
    # the first change of a half-applied event is not in the state: the fold is rebuilt before it
    intact_part_is_readable_and_rescued(target, tmp_path, 7, lp_after, 20)


def test_an_undo_that_names_no_transaction(backend, target, tmp_path):
    lp_after = build(target)
    set_data(backend, target, 8, json.dumps({"text": "rückgängig"}), keep_sum=False)
    sql(backend, target, "UPDATE rpg_events SET kind = ?, sum = NULL WHERE seq = ?", (model.UNDO, 8))
    (tx, kind, at, data), = query(backend, target, "SELECT tx, kind, at, data FROM rpg_events WHERE seq = 8")
    sql(backend, target, "UPDATE rpg_events SET sum = ? WHERE seq = 8", (row_sum(8, tx, kind, at, data),))
    assert "ihm fehlt, welche Transaktion er zurücknimmt" in str(damaged(target))
    intact_part_is_readable_and_rescued(target, tmp_path, 7, lp_after, 20)


def test_a_changed_number_fails_its_checksum(backend, target, tmp_path):
    """Valid JSON with one digit changed: only the checksum tells, and it does."""
    lp_after = build(target)
    (data,), = query(backend, target, "SELECT data FROM rpg_events WHERE seq = 8")
    set_data(backend, target, 8, data.replace('"by":-1', '"by":-9'))
    assert "Eintrag Nr. 8 (Tabelle rpg_events): die Prüfsumme passt nicht" in str(damaged(target))
    intact_part_is_readable_and_rescued(target, tmp_path, 7, lp_after, 20)


def test_a_row_without_its_checksum(backend, target):
    build(target)
    sql(backend, target, "UPDATE rpg_events SET sum = NULL WHERE seq = 3")
    assert "Eintrag Nr. 3 (Tabelle rpg_events): die Prüfsumme fehlt" in str(damaged(target))


# -- missing rows ------------------------------------------------------------------

def test_a_deleted_row_is_a_gap(backend, target, tmp_path):
    lp_after = build(target)
    sql(backend, target, "DELETE FROM rpg_events WHERE seq IN (8, 9)")
    err = damaged(target)
    assert "Einträge Nr. 8 bis 9 (Tabelle rpg_events): nicht vorhanden (gelöscht oder verloren)" in str(err)
    intact_part_is_readable_and_rescued(target, tmp_path, 7, lp_after, 20)


def test_the_deleted_last_row(backend, target, tmp_path):
    lp_after = build(target)
    sql(backend, target, "DELETE FROM rpg_events WHERE seq = 20")
    err = damaged(target)
    assert "Eintrag Nr. 20 (Tabelle rpg_events): nicht vorhanden: Das Journal reicht laut seinem Ende bis Nr. 20" \
        in str(err)
    with Campaign.open(target, read_only=True) as camp:
        assert camp.state["seq"] == 19 and lp(camp) == lp_after[19]
        report = camp.export(tmp_path / "gerettet.sqlite")
        assert report.left_out == (20, 20) and report.rows == 19


def test_rows_behind_the_end(backend, target):
    """A row inserted behind the head's end (not by rpgkernel) is damage too."""
    build(target)
    (tx, kind, at, data), = query(backend, target, "SELECT tx, kind, at, data FROM rpg_events WHERE seq = 20")
    campaign = query(backend, target, "SELECT campaign FROM rpg_events WHERE seq = 20")[0][0]
    sql(backend, target, "INSERT INTO rpg_events (campaign, seq, tx, kind, data, at, sum) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (campaign, 21, tx, kind, data, at, row_sum(21, tx, kind, at, data)))
    assert "Eintrag Nr. 21 (Tabelle rpg_events): stehen hinter dem Ende des Journals (Nr. 20)" in str(damaged(target))


def test_nothing_is_written_onto_a_journal_that_lost_its_end(backend, target):
    build(target)
    with Campaign.open(target) as camp:
        sql(backend, target, "DELETE FROM rpg_events WHERE seq = 20")
        with pytest.raises(CampaignDamaged, match="Nr. 20"):
            camp.store.append(camp.store.events(after=19 - 1, limit=1))
        with pytest.raises(CampaignDamaged):
            camp.change("Ritter", "LP", -1)
    assert query(backend, target, "SELECT max(seq) FROM rpg_events") == [(19,)]


def test_a_gap_bridged_by_a_snapshot_is_rescued_with_a_stand_in(backend, target, tmp_path, monkeypatch):
    """Entry 3 is lost, but a snapshot at 10 kept the state: the rescue keeps all of it and numbers."""
    monkeypatch.setattr(campaign_module, "SNAPSHOT_EVERY", 10)
    lp_after = build(target, 15)
    with Campaign.open(target) as camp:
        camp.undo()  # the last hit, undone: seq 16
        want = camp.state
    sql(backend, target, "DELETE FROM rpg_events WHERE seq = 3")
    assert "Eintrag Nr. 3 (Tabelle rpg_events): nicht vorhanden" in str(damaged(target))
    with Campaign.open(target, read_only=True) as camp:
        assert camp.state == want and lp(camp) == lp_after[14]
        report = camp.export(tmp_path / "gerettet.sqlite")
    assert report.stand_ins == (3,) and report.repaired and report.left_out is None
    assert "Nr. 3" in str(report) and "reparatur" in str(report)
    with Campaign.open(tmp_path / "gerettet.sqlite") as rescued:
        got = rescued.state
        assert {k: v for k, v in got.items() if k != "seq"} == {k: v for k, v in want.items() if k != "seq"}
        kinds = [(e.seq, e.kind) for e in rescued.journal()]
        assert kinds[2] == (3, model.DAMAGED) and kinds[-1] == (17, model.REPAIR) and len(kinds) == 17
        assert "Eintrag Nr. 3 war beschädigt" in rescued.journal()[2].data["text"]
        assert rescued.redo() == ["Ritter: LP 987 → 986"]  # the history of the source survives
        rescued.undo()
        assert lp(rescued) == lp_after[14]


def test_an_old_row_is_checked_when_it_is_read(backend, target, tmp_path, monkeypatch):
    """A damaged row before the snapshot: the campaign opens (its state is the snapshot's), and
    reading that row (journal, undo, export) names it; the rescue keeps the state."""
    monkeypatch.setattr(campaign_module, "SNAPSHOT_EVERY", 10)
    lp_after = build(target, 15)
    set_data(backend, target, 4, '{"text": "zerbissen')
    with Campaign.open(target) as camp:
        assert lp(camp) == lp_after[15] and not camp.damage
        with pytest.raises(CampaignDamaged, match=r"Eintrag Nr. 4 \(Tabelle rpg_events\): die Daten sind kein"):
            camp.journal()
    with Campaign.open(target, read_only=True) as camp:
        assert [e.seq for e in camp.journal()] == [s for s in range(1, 16) if s != 4]
        report = camp.export(tmp_path / "gerettet.sqlite")
    assert report.stand_ins == (4,) and report.repaired and report.left_out is None
    with Campaign.open(tmp_path / "gerettet.sqlite") as rescued:
        assert lp(rescued) == lp_after[15] and [e.kind for e in rescued.journal()][3] == model.DAMAGED


def test_an_entry_that_needed_the_lost_one_becomes_a_stand_in_too(backend, target, tmp_path, monkeypatch):
    """Entry 2 turned a text into a table that entry 3 writes into: without 2, 3 cannot fold."""
    from rpgkernel.state import Event
    monkeypatch.setattr(campaign_module, "SNAPSHOT_EVERY", 5)
    with Campaign.open(target) as camp:
        for i, change in enumerate([{"op": "set", "path": ["data", "karte"], "value": "Skizze"},
                                    {"op": "set", "path": ["data", "karte"], "value": {}, "old": "Skizze"},
                                    {"op": "set", "path": ["data", "karte", "feld"], "value": 7}], 1):
            camp.store.append([Event("daten", {"text": f"Karte {i}", "changes": [change]}, f"t{i}")])
        camp.set_ruleset(None)
        camp.add_character("Ritter", resources={"LP": LP})
        for _ in range(3):
            camp.change("Ritter", "LP", -1)
        want = camp.state
        assert want["data"] == {"karte": {"feld": 7}} and camp.store.latest_snapshot()[0] == 5
    sql(backend, target, "DELETE FROM rpg_events WHERE seq = 2")
    with Campaign.open(target, read_only=True) as camp:
        assert camp.state == want
        report = camp.export(tmp_path / "gerettet.sqlite")
    assert report.stand_ins == (2, 3) and report.repaired
    with Campaign.open(tmp_path / "gerettet.sqlite") as rescued:
        assert rescued.data("karte") == {"feld": 7} and lp(rescued) == LP - 3
        journal = rescued.journal()
        assert [e.kind for e in journal][1:3] == [model.DAMAGED, model.DAMAGED]
        assert "passt nicht zum Stand" in journal[2].data["text"]


# -- snapshots (a cache: ignored when unreadable, the state comes from the journal) --

@pytest.mark.parametrize("damage", ["not json", "a list", "changed number", "not a state"])
def test_a_damaged_snapshot_is_ignored_and_replaced(backend, target, monkeypatch, damage):
    monkeypatch.setattr(campaign_module, "SNAPSHOT_EVERY", 10)
    lp_after = build(target, 25)
    (seq, at, state), = query(backend, target, "SELECT seq, at, state FROM rpg_snapshots ORDER BY seq DESC LIMIT 1")
    assert seq == 20
    bad = {"not json": state[:-3], "a list": "[1, 2]", "changed number": state.replace('"value":981', '"value":5'),
           "not a state": json.dumps({"format": model.FORMAT, "seq": 20})}[damage]
    assert bad != state
    sql(backend, target, "UPDATE rpg_snapshots SET state = ? WHERE seq = 20", (bad,))
    if damage == "not a state":  # an edit that fits its checksum, but is no campaign state
        sql(backend, target, "UPDATE rpg_snapshots SET sum = ? WHERE seq = 20", (snapshot_sum(20, at, bad),))
    with Campaign.open(target) as camp:
        assert lp(camp) == lp_after[25] and camp.state == model.fold(model.initial(), camp.store.events())
        [note] = camp.damage
        assert note.table == "rpg_snapshots" and note.seq == 20 and not note.fatal
        assert str(note).startswith("Schnappschuss bei Nr. 20 (Tabelle rpg_snapshots): ")
        assert camp.store.latest_snapshot()[0] == 25  # replaced by a readable one
    with Campaign.open(target) as camp:
        assert lp(camp) == lp_after[25] and not camp.damage


# -- the file itself (SQLite) ---------------------------------------------------

def checkpointed(path):
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def test_a_file_cut_by_one_byte(tmp_path):
    """SQLite reads the missing byte as zero and its quick_check says ok: the campaign still notices."""
    path = tmp_path / "kampagne.sqlite"
    lp_after = build(path, 202)
    checkpointed(path)
    data = path.read_bytes()
    path.write_bytes(data[:-1])
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA quick_check").fetchall() == [("ok",)]  # SQLite alone sees nothing wrong
    conn.close()
    err = damaged(path)
    assert "Die Datei ist abgeschnitten: Ihrer letzten Seite fehlen 1 von 4096 Bytes" in str(err)
    assert path.read_bytes() == data[:-1]  # not touched
    with Campaign.open(path, read_only=True) as camp:
        files = [d for d in camp.damage if d.table == ""]
        rows = [d for d in camp.damage if d.table == "rpg_events"]
        assert len(files) == 1 and len(rows) == 1  # the one row the lost byte belonged to
        good = rows[0].seq - 1
        assert camp.state["seq"] == good and lp(camp) == lp_after[good]
        camp.export(tmp_path / "gerettet.sqlite")
    with Campaign.open(tmp_path / "gerettet.sqlite") as rescued:
        assert lp(rescued) == lp_after[good] and not rescued.damage


def test_a_file_cut_by_whole_pages(tmp_path):
    path = tmp_path / "kampagne.sqlite"
    build(path, 202)
    checkpointed(path)
    data = path.read_bytes()
    path.write_bytes(data[:-8192])
    assert "Die Datei ist abgeschnitten: Ihr fehlen 2 ihrer" in str(damaged(path))


def test_an_empty_file_is_no_new_campaign(tmp_path):
    path = tmp_path / "kampagne.sqlite"
    path.write_bytes(b"")
    for read_only in (False, True):
        with pytest.raises(StoreError, match=r"ist leer \(0 Bytes\)"):
            Campaign.open(path, read_only=read_only)
    assert path.read_bytes() == b"" and sorted(p.name for p in tmp_path.iterdir()) == ["kampagne.sqlite"]


def test_a_new_campaign_file_is_never_found_half_made(tmp_path):
    path = tmp_path / "neu.sqlite"
    with Campaign.open(path) as camp:
        assert camp.state["seq"] == 0
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".neu") or p.name.startswith(".")] == []
    with open_store(path) as store:  # complete: schema, campaign name, head
        assert store.schema_version() == 3 and store.check() == []


def test_garbage_in_the_middle_of_the_file_is_reported_in_german(tmp_path):
    """Where SQLite itself cannot read a page: its reason in German, the readable rows still readable."""
    path = tmp_path / "kampagne.sqlite"
    lp_after = build(path, 300)
    checkpointed(path)
    conn = sqlite3.connect(path)
    pages = [p for (p,) in conn.execute("SELECT pageno FROM dbstat WHERE name = 'rpg_events' AND pagetype = 'leaf'"
                                        " ORDER BY pageno")]
    conn.close()
    data = bytearray(path.read_bytes())
    page = pages[len(pages) // 2]
    data[(page - 1) * 4096:page * 4096] = b"\xff" * 4096
    path.write_bytes(bytes(data))
    err = damaged(path)
    assert "beschädigt" in str(err) and "SQLITE_CORRUPT" in str(err)
    with Campaign.open(path, read_only=True) as camp:
        first = min(d.seq for d in camp.damage if d.table == "rpg_events")
        assert camp.state["seq"] == first - 1 and lp(camp) == lp_after[first - 1]
        assert all("SQLITE_CORRUPT" in d.reason for d in camp.damage if d.table == "rpg_events")
        readable = [e.seq for e in camp.journal()]
        assert readable[-1] == 300 and first not in readable  # the rows after the bad page are listed


def test_a_text_that_is_not_utf8(tmp_path):
    path = tmp_path / "kampagne.sqlite"
    lp_after = build(path)
    conn = sqlite3.connect(path)
    conn.execute("UPDATE rpg_events SET data = CAST(X'7B2274657874223A22FF227D' AS TEXT) WHERE seq = 8")
    conn.commit()
    conn.close()
    assert "Eintrag Nr. 8 (Tabelle rpg_events): die Spalte data ist kein lesbarer Text" in str(damaged(path))
    lines = intact_part_is_readable_and_rescued(path, tmp_path, 7, lp_after, 20)
    [bad] = [line for line in lines if line["seq"] == 8]
    assert bad["raw"]["data"] == '{"text":"\\xff"}'


def test_an_old_schema_2_file_opens_and_is_checked(tmp_path):
    """A file written before checksums: opened, migrated, its old rows accepted, gaps still found."""
    path = tmp_path / "alt.sqlite"
    from rpgkernel.state.schema import MIGRATIONS
    conn = sqlite3.connect(path)
    for migration in MIGRATIONS[:2]:
        for statement in migration.sqlite:
            conn.execute(statement, {"campaign": "Altland"} if ":campaign" in statement else ())
    conn.execute("PRAGMA user_version = 2")
    event = {"text": "Figur A angelegt", "changes": [{"op": "set", "path": ["characters", "A"],
                                                       "value": {"name": "A", "resources": {}, "conditions": {}}}]}
    conn.executemany("INSERT INTO rpg_events (seq, campaign, tx, kind, data, at) VALUES (?, 'Altland', ?, ?, ?, ?)",
                     [(seq, f"t{seq}", "figur" if seq == 1 else "wurf",
                       json.dumps(event if seq == 1 else {"text": "W6"}), "2024-01-01T00:00:00+00:00")
                      for seq in (1, 2, 3, 5)])
    conn.commit()
    conn.close()
    with Campaign.open(path, read_only=True) as camp:  # read-only: not migrated
        assert list(camp.characters) == ["A"] and camp.state["seq"] == 3
        assert [str(d) for d in camp.damage] == [
            "Eintrag Nr. 4 (Tabelle rpg_events): nicht vorhanden (gelöscht oder verloren)"]
    assert query("sqlite", path, "PRAGMA user_version") == [(2,)]
    assert "Eintrag Nr. 4" in str(damaged(path))
    sql("sqlite", path, "INSERT INTO rpg_events (seq, campaign, tx, kind, data, at) VALUES"
        " (4, 'Altland', 't4', 'wurf', '{}', '2024-01-01T00:00:00+00:00')")
    with Campaign.open(path) as camp:  # migrated to checksums; the old rows have none and need none
        assert camp.store.schema_version() == 3 and camp.state["seq"] == 5 and not camp.damage
        camp.log_roll(__import__("rpgkernel").roll("W6", seed=1))
    assert query("sqlite", path, "SELECT seq FROM rpg_events WHERE sum IS NOT NULL") == [(6,)]


def test_read_only_changes_nothing(tmp_path):
    path = tmp_path / "kampagne.sqlite"
    build(path)
    checkpointed(path)
    before = path.read_bytes()
    with Campaign.open(path, read_only=True) as camp:
        assert "(nur zum Lesen)" in repr(camp) and not camp.damage
        for write in (lambda: camp.add_character("Neu"), lambda: camp.undo(), lambda: camp.set_data("x", 1),
                      lambda: camp.store.save_snapshot(1, {"format": 1})):
            with pytest.raises(StoreError, match="nur zum Lesen geöffnet"):
                write()
    assert path.read_bytes() == before
    with pytest.raises(StoreError, match="gibt es nicht"):
        Campaign.open(tmp_path / "fehlt.sqlite", read_only=True)
    assert not (tmp_path / "fehlt.sqlite").exists()


def test_reading_creates_nothing(pg_cluster, tmp_path):
    url = pg_cluster.new_database()
    for target in (url, tmp_path / "fehlt.sqlite"):
        with pytest.raises(StoreError, match="gibt es nicht"):
            Campaign.open(target, read_only=True)
    build(url)
    with pytest.raises(StoreError, match=r"gibt es nicht"):
        Campaign.open(url, "Tippfehler", read_only=True)
    with Campaign.open(url, read_only=True) as camp:
        assert lp(camp) == LP - 19


def test_export_of_a_sound_campaign_is_a_copy(backend, target, tmp_path, other_backend):
    """The same export serves moving a sound campaign, e.g. from a file to a server."""
    lp_after = build(target, 30)
    other = other_backend() if backend == "sqlite" else str(tmp_path / "kopie.sqlite")
    with Campaign.open(target) as camp:
        events = [(e.seq, e.tx, e.kind, e.data, e.at) for e in camp.journal()]
        report = camp.export(other)
        assert report.rows == 30 and not report.stand_ins and not report.repaired and report.left_out is None
        with pytest.raises(StoreError, match="enthält schon eine Kampagne mit 30 Einträgen"):
            camp.export(other)
    with Campaign.open(other) as copy:
        assert [(e.seq, e.tx, e.kind, e.data, e.at) for e in copy.journal()] == events
        assert lp(copy) == lp_after[30]


@pytest.fixture
def other_backend(request):
    """A fresh PostgreSQL database URL (for the SQLite variant of a test)."""
    return lambda: request.getfixturevalue("pg_cluster").new_database()


# -- a read-only folder or file (SQLite needs -wal and -shm beside the file) ---------

READER = r"""
import sys
from rpgkernel.state import Campaign
from rpgkernel.errors import StoreError
path, read_only = sys.argv[1], sys.argv[2] == "1"
try:
    with Campaign.open(path, read_only=read_only) as camp:
        print("OK", camp.characters["Ritter"].resources["LP"]["value"], camp.state["seq"], camp.store.immutable)
except StoreError as err:
    print("FEHLER", err)
"""


def as_user(path, read_only):
    """Run READER without the right to ignore file permissions (root keeps it otherwise)."""
    command = [sys.executable, "-c", READER, str(path), "1" if read_only else "0"]
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("as root, this test needs setpriv (util-linux) to drop CAP_DAC_OVERRIDE")
        command = [setpriv, "--bounding-set=-dac_override,-dac_read_search", "--", *command]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.fixture
def read_only_folder(tmp_path):
    folder = tmp_path / "nur-lesen"
    folder.mkdir()
    yield folder
    folder.chmod(0o755)


def test_a_campaign_in_a_read_only_folder(read_only_folder):
    path = read_only_folder / "kampagne.sqlite"
    lp_after = build(path)
    assert not Path(f"{path}-wal").exists()  # closed cleanly: no -wal, no -shm
    read_only_folder.chmod(0o555)
    text = as_user(path, read_only=False)
    assert text.startswith("FEHLER") and "der Ordner" in text and "ist schreibgeschützt" in text
    assert "--nur-lesen" in text and not any(word in text for word in ENGLISH), text
    assert as_user(path, read_only=True) == f"OK {lp_after[20]} 20 True"
    text = as_user(read_only_folder / "neu.sqlite", read_only=False)
    assert text.startswith("FEHLER") and "lässt sich nicht anlegen: der Ordner" in text, text
    assert sorted(p.name for p in read_only_folder.iterdir()) == ["kampagne.sqlite"]


def test_a_read_only_folder_with_changes_still_in_the_wal(read_only_folder):
    """immutable would ignore them: refused, with what to do."""
    path = read_only_folder / "kampagne.sqlite"
    build(path)
    writer = sqlite3.connect(path)
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    writer.execute("INSERT INTO rpg_meta (key, value) VALUES ('notiz', 'noch im WAL')")
    writer.commit()
    shutil.copy(f"{path}-wal", read_only_folder / "wal.copy")
    writer.close()
    os.replace(read_only_folder / "wal.copy", f"{path}-wal")  # a -wal with content, no -shm
    Path(f"{path}-shm").unlink(missing_ok=True)
    assert Path(f"{path}-wal").stat().st_size > 0
    read_only_folder.chmod(0o555)
    text = as_user(path, read_only=True)
    assert text.startswith("FEHLER") and "kampagne.sqlite-wal" in text and "beschreibbaren Ordner" in text


def test_a_read_only_file(tmp_path):
    path = tmp_path / "kampagne.sqlite"
    lp_after = build(path)
    path.chmod(0o444)
    try:
        text = as_user(path, read_only=False)
        assert text.startswith("FEHLER") and "die Datei ist schreibgeschützt" in text and "--nur-lesen" in text
        assert as_user(path, read_only=True).startswith(f"OK {lp_after[20]} 20")
    finally:
        path.chmod(0o644)
