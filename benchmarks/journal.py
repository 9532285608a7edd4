#!/usr/bin/env python3
"""How long a SQLite campaign takes to open, as its journal grows.

Plays a seeded campaign through the public ``Campaign`` API until the journal
holds 100,000 events: four characters; sessions of skill checks, exhaustion
and lasting conditions between fights; encounters with the party and a monster
group (initiative from given rolls, attack and damage rolls, damage,
conditions that count down, turns); a rest after each session; now and then
an undo, sometimes followed by a redo. Every API call writes one event;
``Campaign`` saves its own snapshots (one every ``SNAPSHOT_EVERY`` events).

At each size N (10k, 30k, 100k) and at N - 1 (999 events after the latest
snapshot, the worst case) it prints the database size, the space of all
stored snapshots and the size of the latest, and times, in the same process
(warm file cache, best of ``--repeat``, a fresh ``Campaign`` or store each
time, after a ``gc.collect()``):

- ``Campaign.open(path)`` until ``.encounter`` and ``.characters`` are read:
  load the latest snapshot, fold the events after it;
- a full fold from scratch: open the store, ``model.fold(model.initial(),
  store.events())``;

and asserts that both equal the state of the campaign that wrote the journal.
Run with ``python benchmarks/journal.py`` (``--help`` for options).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import pstats
import random
import sqlite3
import tempfile
import time
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import numpy as np

import rpgkernel
from rpgkernel.state import Campaign, open_store
from rpgkernel.state import campaign as campaign_module
from rpgkernel.state import model

PARTY = {"Ritter Aldric": (16, 12), "Knappe Jorin": (11, 9), "Söldnerin Wenke": (13, 10),
         "Hexe Ysolde": (9, 14)}  # name: (GD, VIG)
MONSTERS = [("Räuber", 6, 4), ("Wolf", 5, 6), ("Ork", 9, 5), ("Skelett", 7, 3), ("Bandit", 6, 5)]
PLACES = ["Hohlweg", "Mühle", "Grenzwald", "Ruine", "Furt", "Wirtshaus", "Stollen"]
SKILLS = ["Klettern", "Schleichen", "Spurenlesen", "Überreden", "Wahrnehmung", "Heilkunde"]
CONDITIONS = ["betäubt", "liegend", "geblendet", "blutend", "erschöpft"]
LASTING = ["verflucht", "vergiftet", "erkältet"]
ENDS = ["rundenende", "rundenbeginn", "zugende", "zugbeginn"]
MAX_ROUNDS = 10
DURABLE_EVENTS = 500  # events written with synchronous=FULL, for comparison


def play(camp: Campaign, seed: int) -> Iterator[None]:
    """Session after session; yields after every API call (each writes one event)."""
    rng = random.Random(seed)
    dice = np.random.default_rng(seed)
    for name, (gd, vig) in PARTY.items():
        camp.add_character(name, resources={"GD": gd, "VIG": vig})
        yield
    fights = 0
    while True:
        for _ in range(rng.randint(50, 150)):  # between fights
            yield from explore(camp, rng, dice)
        for _ in range(rng.randint(1, 2)):
            fights += 1
            yield from fight(camp, f"{fights}. {rng.choice(PLACES)}", rng, dice)
        for name in PARTY:  # rest: full resources, conditions end
            fig = camp.figure(name)
            for res, value in fig.resources.items():
                if value["value"] < value["max"]:
                    camp.change(name, res, value["max"] - value["value"], reason="Rast")
                    yield
            for cond in fig.conditions:
                camp.remove_condition(name, cond)
                yield


def explore(camp: Campaign, rng: random.Random, dice: np.random.Generator) -> Iterator[None]:
    who = rng.choice(list(PARTY))
    check = rpgkernel.roll("W20+3", rng=dice)
    camp.log_roll(check, figure=who)
    yield
    if check.total < 10 and rng.random() < 0.3:
        camp.change(who, "VIG", -1, reason=rng.choice(SKILLS))
        yield
        yield from maybe_undo(camp, rng)
    if rng.random() < 0.02:
        camp.add_condition(who, rng.choice(LASTING))
        yield


def fight(camp: Campaign, name: str, rng: random.Random, dice: np.random.Generator) -> Iterator[None]:
    enc = camp.new_encounter(name)
    yield
    for hero in PARTY:
        enc.add(hero, side="Gruppe", character=hero)
        yield
    kind, gd, vig = rng.choice(MONSTERS)
    foes = enc.add(kind, side="Gegner", resources={"GD": gd, "VIG": vig}, count=rng.randint(2, 5))
    yield
    current = enc.start(rolls={n: rpgkernel.roll("W20", rng=dice).total for n in list(PARTY) + foes})[0]
    yield
    while enc.round <= MAX_ROUNDS:
        alive = [f for f in foes if camp.figure(f).resources["GD"]["value"] > 0]
        if not alive:
            return
        if current in PARTY or current in alive:
            target = rng.choice(alive if current in PARTY else list(PARTY))
            attack = rpgkernel.roll("W20+4", rng=dice)
            camp.log_roll(attack, figure=current)
            yield
            if attack.total >= 14:
                damage = rpgkernel.roll("W8+1", rng=dice)
                camp.log_roll(damage, figure=current)
                yield
                camp.change(target, "GD", -damage.total, reason=f"Treffer von {current}")
                yield
                yield from maybe_undo(camp, rng)
                if rng.random() < 0.25:
                    camp.add_condition(target, rng.choice(CONDITIONS), rounds=rng.randint(1, 3),
                                       ends=rng.choice(ENDS), of=rng.choice([None, current]))
                    yield
                    yield from maybe_undo(camp, rng)
            if rng.random() < 0.1:
                camp.change(current, "VIG", -1, reason="Anstrengung")
                yield
        conditions = camp.figure(current).conditions
        if conditions and rng.random() < 0.2:
            camp.remove_condition(current, rng.choice(sorted(conditions)))
            yield
        current = enc.next_turn()
        yield
        if (yield from maybe_undo(camp, rng)):
            current = enc.current


def maybe_undo(camp: Campaign, rng: random.Random) -> Iterator[None]:
    """Now and then undo the last change, sometimes redo it; returns whether it undid."""
    if rng.random() >= 0.03:
        return False
    camp.undo()
    yield
    if rng.random() < 0.5:
        camp.redo()
        yield
    return True


def fresh(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def advance(camp: Campaign, steps: Iterator[None], total: int) -> None:
    while camp.store.last_seq() < total:
        next(steps)


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def best(fn, repeat: int) -> tuple[float, object]:
    fn()  # warm-up: file cache, first queries
    times, result = [], None
    for _ in range(repeat):
        gc.collect()  # every timing starts from the same heap
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


def open_campaign(path: Path) -> dict:
    with Campaign.open(path) as camp:
        camp.encounter, camp.characters  # noqa: B018 - readable
        return camp._state  # not .state: its deep copy is not part of opening


def full_fold(path: Path) -> dict:
    with open_store(path) as store:
        return model.fold(model.initial(), store.events())


def profile(fn, top: int = 15) -> str:
    prof = cProfile.Profile()
    prof.runcall(fn)
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(top)
    return "\n".join(line for line in out.getvalue().splitlines() if line.strip())


def measure(camp: Campaign, path: Path, repeat: int) -> tuple:
    """One table row for the journal as it is now (the writer stays open, idle)."""
    total = camp.store.last_seq()
    state = camp.state
    snap_seq, snap = camp.store.latest_snapshot() or (0, {})
    snap_kb = len(json.dumps(snap, ensure_ascii=False, separators=(",", ":")).encode()) / 1e3
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:  # sizes: not in the Store API
        mb = db.execute("SELECT page_count * page_size / 1e6 FROM pragma_page_count, pragma_page_size").fetchone()[0]
        n_snaps, snaps_mb = db.execute("SELECT count(*), coalesce(sum(length(CAST(state AS BLOB))), 0) / 1e6"
                                       " FROM rpg_snapshots").fetchone()
    t_open, opened = best(lambda: open_campaign(path), repeat)
    t_fold, folded = best(lambda: full_fold(path), repeat)
    assert opened == folded == state, "snapshot + rest, full fold and the writer must agree"
    print(f"{total:>8,} {mb:>6.1f} {snaps_mb:>6.1f} ({n_snaps:>3}) {snap_kb:>6.0f} KB {total - snap_seq:>15,}"
          f" {t_open * 1e3:>19.1f} ms {t_fold * 1e3:>7.0f} ms", flush=True)
    return total, t_open, t_fold


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,30000,100000", help="journal sizes to measure")
    parser.add_argument("--repeat", type=int, default=5, help="best of this many timings")
    parser.add_argument("--seed", type=int, default=1, help="seed of the played campaign")
    parser.add_argument("--dir", help="where to build the journal (default: a temp dir)")
    parser.add_argument("--profile", action="store_true",
                        help="also a cProfile of 200 API calls, the open and the full fold at the largest size")
    args = parser.parse_args()
    sizes = sorted(int(s) for s in args.sizes.split(","))
    every = campaign_module.SNAPSHOT_EVERY
    folder = Path(args.dir or tempfile.mkdtemp(prefix="rpgkernel-journal-"))
    path = folder / "journal.sqlite"
    fresh(path)

    print(f"Campaign journal in SQLite (MB: database pages; snapshots: all stored, their count; latest: the one "
          f"Campaign.open loads), best of {args.repeat}, warm file cache, seed {args.seed}; "
          f"snapshot every {every} events", flush=True)
    head = ("events", "MB", "snapshots MB", "latest", "after snapshot", "open (snapshot + rest)", "full fold")
    print(f"{head[0]:>8} {head[1]:>6} {head[2]:>12} {head[3]:>9} {head[4]:>15} {head[5]:>22} {head[6]:>10}",
          flush=True)
    rows, costs, profiles = [], [], []
    build = 0.0
    # Bulk building with synchronous=NORMAL; durable appends are compared below.
    with Campaign(open_store(path, synchronous="NORMAL")) as camp:
        steps = play(camp, args.seed)
        for size in sizes:
            first = max(size - every, camp.store.last_seq())
            build += timed(lambda: advance(camp, steps, first))
            last = timed(lambda: advance(camp, steps, size - 1))
            rows.append(measure(camp, path, args.repeat))
            last += timed(lambda: advance(camp, steps, size))
            rows.append(measure(camp, path, args.repeat))
            build += last
            costs.append(last / (size - first) * 1e3)
        encounters = len(camp.encounters)
        if args.profile:
            last = camp.store.last_seq()
            profiles.append(("200 API calls", profile(lambda: advance(camp, steps, last + 200))))
            profiles.append(("Campaign.open", profile(lambda: open_campaign(path))))
            profiles.append(("full fold", profile(lambda: full_fold(path))))

    durable = {}
    for sync in ("FULL", "NORMAL"):  # FULL: the default of Campaign.open
        other = folder / f"{sync.lower()}.sqlite"
        fresh(other)
        with Campaign(open_store(other, synchronous=sync)) as camp:
            steps = play(camp, args.seed)
            durable[sync] = timed(lambda: advance(camp, steps, DURABLE_EVENTS)) / DURABLE_EVENTS * 1e3

    if len(sizes) > 1:
        (n0, o0, f0), (n1, o1, f1) = rows[1], rows[-1]
        print(f"growth from {n0:,} to {n1:,} events, per 10k events: full fold +{(f1 - f0) / (n1 - n0) * 1e7:.0f} ms,"
              f" open at 0 after snapshot +{(o1 - o0) / (n1 - n0) * 1e7:.1f} ms")
    print(f"building through the API with synchronous=NORMAL: {build:.0f} s for {sizes[-1]:,} events, "
          f"{encounters:,} encounters; ms per API call over the {every} events before "
          + ", ".join(f"{n:,}: {c:.1f}" for n, c in zip(sizes, costs)))
    print(f"first {DURABLE_EVENTS} events: {durable['FULL']:.2f} ms per API call with synchronous=FULL "
          f"(the default), {durable['NORMAL']:.2f} ms with NORMAL")
    for title, text in profiles:
        print(f"\n--- cProfile: {title} ---\n{text}")
    if not args.dir:
        for p in folder.iterdir():
            p.unlink()
        folder.rmdir()


if __name__ == "__main__":
    main()
