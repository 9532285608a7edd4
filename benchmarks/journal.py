#!/usr/bin/env python3
"""How long a SQLite campaign journal takes to open and fold, as it grows.

Builds a journal of up to 100,000 events (payloads of 100-200 bytes, one to
five events per transaction) and, at 10k, 30k and 100k events, times in the
same process (warm file cache, best of ``--repeat``):

- open the store and read every event; the same plus folding them to a state;
- open, load the latest snapshot and read (and fold) only the events after it.

Snapshots follow a "one every 1000 events" policy, measured at its worst case,
just before the next one: about 999 events after the latest. Run with
``python benchmarks/journal.py`` (``--help`` for options).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import tempfile
import time
from pathlib import Path

from rpgkernel.state import Event, new_tx, open_store

NAMES = ["Ritter Aldric", "Knappe Jorin", "Söldnerin Wenke", "Hexe Ysolde", "Räuber 1", "Räuber 2",
         "Wolf", "Kapitän Brann"]
CONDITIONS = ["erschöpft", "verwundet", "betäubt", "geblendet", "liegend"]
SNAPSHOT_EVERY = 1000


def make_transaction(rng: random.Random, n: int) -> list[Event]:
    """One resolution: an attack roll, maybe damage and a condition, a turn marker."""
    tx = new_tx()
    actor, target = rng.sample(NAMES, 2)
    faces = [rng.randint(1, 6) for _ in range(3)]
    events = [Event("wurf", {"figur": actor, "ausdruck": "3W6+2", "würfel": faces,
                             "ergebnis": sum(faces) + 2, "ziel": target, "p": round(rng.random(), 6),
                             "schritt": f"Angriff von {actor} gegen {target}"}, tx)]
    if rng.random() < 0.6:
        events.append(Event("schaden", {"figur": target, "quelle": actor, "gd": -rng.randint(0, 6),
                                        "vig": -rng.randint(0, 3), "waffe": "Langschwert (W8)",
                                        "würfel": [rng.randint(1, 8)], "rüstung": rng.randint(0, 2)}, tx))
    if rng.random() < 0.2:
        events.append(Event("zustand", {"figur": target, "zustand": rng.choice(CONDITIONS),
                                        "dauer": {"bis": "rundenende", "runden": rng.randint(1, 3)}}, tx))
    if rng.random() < 0.3:
        events.append(Event("zug", {"runde": n // 20 + 1, "figur": actor,
                                    "reihenfolge": rng.sample(NAMES, 5)}, tx))
    return events


def fold(state: dict, event: Event) -> dict:
    """A stand-in for the campaign fold: resources, conditions, counters."""
    d = event.data
    if event.kind == "wurf":
        state["würfe"] += 1
    elif event.kind == "schaden":
        fig = state["figuren"].setdefault(d["figur"], {"gd": 10, "vig": 12, "zustände": []})
        fig["gd"] = max(0, fig["gd"] + d["gd"])
        fig["vig"] = max(0, fig["vig"] + d["vig"])
    elif event.kind == "zustand":
        fig = state["figuren"].setdefault(d["figur"], {"gd": 10, "vig": 12, "zustände": []})
        fig["zustände"] = (fig["zustände"] + [d["zustand"]])[-3:]
    elif event.kind == "zug":
        state["runde"] = d["runde"]
    state["seq"] = event.seq
    return state


def empty_state() -> dict:
    return {"format": 1, "seq": 0, "runde": 0, "würfe": 0, "figuren": {}}


def best(fn, repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


def read_all(path: Path, folding: bool) -> tuple[int, dict | None]:
    with open_store(path) as store:
        if not folding:
            return sum(1 for _ in store.events()), None
        state = empty_state()
        n = 0
        for event in store.events():
            fold(state, event)
            n += 1
        return n, state


def from_snapshot(path: Path, folding: bool) -> tuple[int, dict | None]:
    with open_store(path) as store:
        snap = store.latest_snapshot()
        seq, state = snap if snap else (0, empty_state())
        n = 0
        for event in store.events(after=seq):
            if folding:
                fold(state, event)
            n += 1
        return n, state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,30000,100000", help="journal sizes to measure")
    parser.add_argument("--repeat", type=int, default=5, help="best of this many timings")
    parser.add_argument("--dir", help="where to build the journal (default: a temp dir)")
    args = parser.parse_args()
    sizes = sorted(int(s) for s in args.sizes.split(","))
    folder = Path(args.dir or tempfile.mkdtemp(prefix="rpgkernel-journal-"))
    path = folder / "journal.sqlite"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)

    rng = random.Random(1)
    state = empty_state()
    rows = []
    payload = []
    build_time = 0.0
    # Bulk building uses synchronous=NORMAL; the durable default is timed separately below.
    with open_store(path, synchronous="NORMAL") as store:
        for size in sizes:
            start = time.perf_counter()
            while store.last_seq() < size:
                last = store.last_seq()
                stored = store.append(make_transaction(rng, last)[:size - last])
                for event in stored:
                    payload.append(len(json.dumps(event.data, ensure_ascii=False).encode()))
                    fold(state, event)
                    if event.seq % SNAPSHOT_EVERY == 1:  # worst case at the measured sizes
                        store.save_snapshot(event.seq, state)
            build_time += time.perf_counter() - start
            total = store.last_seq()
            store_size = sum(os.path.getsize(f"{path}{s}") for s in ("", "-wal") if os.path.exists(f"{path}{s}"))
            t_all, (n_all, _) = best(lambda: read_all(path, False), args.repeat)
            t_fold, (_, folded) = best(lambda: read_all(path, True), args.repeat)
            t_snap, (n_after, _) = best(lambda: from_snapshot(path, False), args.repeat)
            t_snap_fold, (_, snapped) = best(lambda: from_snapshot(path, True), args.repeat)
            assert n_all == total and folded == snapped == state, "snapshot + rest must equal the full fold"
            rows.append((total, store_size / 1e6, t_all, t_fold, n_after, t_snap, t_snap_fold))

    with open_store(folder / "durable.sqlite") as store:  # the default: synchronous=FULL
        txs = [make_transaction(rng, i) for i in range(200)]
        start = time.perf_counter()
        for events in txs:
            store.append(events)
        append_ms = (time.perf_counter() - start) / len(txs) * 1e3

    print(f"SQLite journal (MB: file + WAL), best of {args.repeat}, warm file cache; "
          f"payload {min(payload)}-{max(payload)} bytes (mean {sum(payload) / len(payload):.0f}); "
          f"snapshot every {SNAPSHOT_EVERY} events")
    head = ("events", "MB", "open+read all", "+fold", "after snap", "open+snap+rest", "+fold")
    print(f"{head[0]:>8} {head[1]:>8} {head[2]:>14} {head[3]:>9} {head[4]:>11} {head[5]:>15} {head[6]:>9}")
    for total, mb, t_all, t_fold, n_after, t_snap, t_snap_fold in rows:
        print(f"{total:>8,} {mb:>8.1f} {t_all * 1e3:>11.0f} ms {t_fold * 1e3:>6.0f} ms {n_after:>11,}"
              f" {t_snap * 1e3:>12.1f} ms {t_snap_fold * 1e3:>6.1f} ms")
    print(f"building: {build_time:.1f} s for {rows[-1][0]:,} events (synchronous=NORMAL); "
          f"append of one transaction with synchronous=FULL: {append_ms:.2f} ms")
    if not args.dir:
        for p in folder.iterdir():
            p.unlink()
        folder.rmdir()


if __name__ == "__main__":
    main()
