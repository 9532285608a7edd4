#!/usr/bin/env python3
"""Mythic Bastionland: the exact damage distribution of a six-die pool with Deny, against icepool.

W12, W10, W8, W8, W6, W4; Deny removes the highest die; minus armour 2,
floored at 0. Computed for the first time, in a fresh process and in a
warmed session (see bench.py). Run: ``python benchmarks/bastionland.py``.
"""

from __future__ import annotations

import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import (  # noqa: E402
    EXACT_TARGET, _warm_icepool, _warm_rpgkernel, clear_rpgkernel_caches, fmt_time, fresh_sample, time_first_call)

POOL = ["W12", "W10", "W8", "W8", "W6", "W4"]
ARMOUR = 2


def ours():
    from rpgkernel.rules.bastionland.attack import damage_dist
    return damage_dist(POOL, ARMOUR, denied=1)


def theirs(ip):
    dice = [ip.d12, ip.d10, ip.d8, ip.d8, ip.d6, ip.d4]
    return (ip.Pool(dice).highest(1, 1).sum() - ARMOUR).clip(0)


def _child(lib: str, mode: str) -> None:
    if lib == "rpgkernel":
        import rpgkernel
        if mode == "warm":
            _warm_rpgkernel(rpgkernel)
        clear_rpgkernel_caches()
        fn = ours
    else:
        import icepool
        if mode == "warm":
            _warm_icepool(icepool)
        fn = lambda: theirs(icepool)  # noqa: E731
    time_first_call(fn)


def _sample(lib: str, mode: str) -> float:
    return fresh_sample(__file__, lib, mode)


def main(samples: int = 7) -> int:
    import icepool
    ref = theirs(icepool)
    total = ref.denominator()
    diff = max(abs(ours().pmf().get(int(o), 0.0) - q / total) for o, q in ref.items())
    assert diff <= 1e-12, f"max |Δp| = {diff:.3g}"
    print(f"Deny on {','.join(POOL)} minus armour {ARMOUR}: agreement with icepool, max |Δp| = {diff:.2g}")
    print(f"{'mode':<8} {'rpgkernel':>12} {'icepool':>12} {'ratio':>8}  target >= {EXACT_TARGET:g}")
    ok = True
    for mode in ("cold", "warm"):
        t = {lib: [] for lib in ("rpgkernel", "icepool")}
        for _ in range(samples):
            for lib in t:
                t[lib].append(_sample(lib, mode))
        a, b = statistics.median(t["rpgkernel"]), statistics.median(t["icepool"])
        ok &= b / a >= EXACT_TARGET
        print(f"{mode:<8} {fmt_time(a):>12} {fmt_time(b):>12} {b / a:8.1f}  {'yes' if b / a >= EXACT_TARGET else 'NO'}")
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        _child(sys.argv[2], sys.argv[3])
    else:
        sys.exit(main())
