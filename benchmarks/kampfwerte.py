"""Kampfwerte: the reachable set of a combatant on hex maps with mixed terrain.

The set (every field within the BP, with its exact cost) comes from
``HexKarte.erreichbar`` (Dijkstra on exact integer units). Measured for 20 BP
on maps of growing size, and for a budget that grows with the map, so that
both the cost on a given map and its growth with map size show. Terrain is
drawn per field from the GM data's terrain kinds, with 3 % obstacles, seeded.

    python benchmarks/kampfwerte.py [--repeat 7] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time


def mixed_map(side: int, seed: int):
    """A ``side`` × ``side`` map: a third of the fields with terrain, 3 % obstacles."""
    from rpgkernel.rules.kampfwerte import EINSTELLUNGEN, HexKarte
    rnd = random.Random(seed)
    kinds = [k for k in EINSTELLUNGEN.defaults().gelaende if k != "frei"]
    karte = HexKarte(side, side)
    terrain, obstacles = {}, set()
    for h in karte.felder():
        x = rnd.random()
        if x < 0.03:
            obstacles.add(h)
        elif x < 0.36:
            terrain[h] = rnd.choice(kinds)
    return HexKarte(side, side, terrain, obstacles)


def centre(karte):
    fields = karte.felder()
    return fields[len(fields) // 2 + karte.breite // 2]


def timed(karte, start, art, bp: int, repeat: int) -> tuple[float, int]:
    times, size = [], 0
    for _ in range(repeat):
        t0 = time.perf_counter()
        size = len(karte.erreichbar(start, art, bp))
        times.append(time.perf_counter() - t0)
    return statistics.median(times), size


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    from rpgkernel.rules.kampfwerte import EINSTELLUNGEN
    art = EINSTELLUNGEN.defaults().bewegungsarten["Gehen"]
    print("reachable set (HexKarte.erreichbar, Gehen), mixed terrain, median of", args.repeat)
    print(f"{'map':>9} {'BP':>4} {'fields reached':>15} {'time':>10}")
    rows = []
    for side, bp in [(25, 20), (50, 20), (100, 20), (200, 20), (25, 5), (50, 10), (100, 20), (200, 40),
                     (400, 80)]:
        karte = mixed_map(side, args.seed)
        t, n = timed(karte, centre(karte), art, bp, args.repeat)
        rows.append((side, bp, n, t))
        print(f"{side:>4}×{side:<4} {bp:>4} {n:>15,} {t * 1e3:>8.2f} ms")
    fixed = [r for r in rows[:4]]
    grown = rows[4:]
    print(f"20 BP: {fixed[0][3] * 1e3:.2f} ms on 25×25 and {fixed[-1][3] * 1e3:.2f} ms on 200×200 "
          "(the search never leaves the BP's reach)")
    per = [t / n * 1e6 for _, _, n, t in grown]
    print("BP growing with the map: " + ", ".join(f"{u:.1f} µs" for u in per) + " per field reached")
    return 0


if __name__ == "__main__":
    sys.exit(main())
