#!/usr/bin/env python3
"""AdZ: the exact distribution of the melee chain's final damage, against icepool.

Attack, defence and resistance pools of 12, 10 and 6 W6 (successes on 5 and
6); Grundschaden 4, RS 2, Mindestwurf 1: remaining successes = attack −
defence, a hit needs one; damage = 4 + remaining − 2 (at least 0), minus the
resistance successes (at least 0). Computed for the first time, in a fresh
process and in a warmed session (see bench.py; here both libraries have also
computed chains of other pool sizes); icepool's fastest formulation is the
reference. Run: ``python benchmarks/adz.py``.
"""

from __future__ import annotations

import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import (  # noqa: E402
    EXACT_TARGET, _warm_icepool, _warm_rpgkernel, clear_rpgkernel_caches, fmt_time, fresh_sample, time_first_call)

ANGRIFF, VERTEIDIGUNG, WIDERSTAND = 12, 10, 6
GRUNDSCHADEN, RS = 4, 2


def ours():
    from rpgkernel.rules.adz.exact import erfolge_dist, kette
    return kette(erfolge_dist(ANGRIFF), erfolge_dist(VERTEIDIGUNG), GRUNDSCHADEN, RS, erfolge_dist(WIDERSTAND))


def _pools(ip):
    return [n @ (ip.d6 >= 5) for n in (ANGRIFF, VERTEIDIGUNG, WIDERSTAND)]


def _final(a, d, r):
    return 0 if a - d < 1 else max(0, max(0, GRUNDSCHADEN + a - d - RS) - r)


def _stepwise(ip):
    a, d, r = _pools(ip)
    before = (a - d).map(lambda x: max(0, GRUNDSCHADEN + x - RS) if x >= 1 else 0)
    return (before - r).clip(0, None)


THEIRS = {
    "map(final, A, D, R)": lambda ip: ip.map(_final, *_pools(ip)),
    "((A - D).map(...) - R).clip(0)": _stepwise,
}


#: pools of other sizes for the warmed session (never the timed case's)
WARM_POOLS = ((5, 4, 3), (7, 3, 2), (9, 8, 5))


def _child(lib: str, mode: str, variant: int) -> None:
    if lib == "rpgkernel":
        import rpgkernel
        from rpgkernel.rules.adz.exact import erfolge_dist, kette
        if mode == "warm":
            _warm_rpgkernel(rpgkernel)
            for a, d, r in WARM_POOLS:
                erfolge_dist.cache_clear()
                kette(erfolge_dist(a), erfolge_dist(d), GRUNDSCHADEN, RS, erfolge_dist(r))
        clear_rpgkernel_caches()
        erfolge_dist.cache_clear()
        fn = ours
    else:
        import icepool
        build = list(THEIRS.values())[variant]
        if mode == "warm":
            _warm_icepool(icepool)
            for a, d, r in WARM_POOLS:
                pools = [n @ (icepool.d6 >= 5) for n in (a, d, r)]
                icepool.map(_final, *pools)
                ((pools[0] - pools[1]).map(lambda x: max(0, x) if x >= 1 else 0) - pools[2]).clip(0, None)
        fn = lambda: build(icepool)  # noqa: E731
    time_first_call(fn)


def _sample(lib: str, mode: str, variant: int = 0) -> float:
    return fresh_sample(__file__, lib, mode, variant)


def check_agreement() -> float:
    """The largest difference of any probability between rpgkernel and every icepool formulation."""
    import icepool
    mine = ours().pmf()
    worst = 0.0
    for build in THEIRS.values():
        ref = build(icepool)
        total = ref.denominator()
        theirs = {int(o): q / total for o, q in ref.items() if q}
        worst = max(worst, max(abs(mine.get(k, 0.0) - theirs.get(k, 0.0)) for k in set(mine) | set(theirs)))
    assert worst <= 1e-12, f"max |Δp| = {worst:.3g}"
    return worst


def main(samples: int = 7) -> int:
    diff = check_agreement()
    print(f"melee chain {ANGRIFF}/{VERTEIDIGUNG}/{WIDERSTAND} W6, Grundschaden {GRUNDSCHADEN}, RS {RS}: "
          f"agreement with icepool, max |Δp| = {diff:.2g}")
    print(f"{'mode':<8} {'rpgkernel':>12} {'icepool':>12} {'ratio':>8}  target >= {EXACT_TARGET:g}   (icepool variant)")
    ok = True
    for mode in ("cold", "warm"):
        t: dict[tuple[str, int], list[float]] = {("rpgkernel", 0): []}
        t.update({("icepool", i): [] for i in range(len(THEIRS))})
        for _ in range(samples):
            for lib, variant in t:
                t[(lib, variant)].append(_sample(lib, mode, variant))
        a = statistics.median(t[("rpgkernel", 0)])
        b, label = min((statistics.median(t[("icepool", i)]), name) for i, name in enumerate(THEIRS))
        ok &= b / a >= EXACT_TARGET
        print(f"{mode:<8} {fmt_time(a):>12} {fmt_time(b):>12} {b / a:8.1f}  "
              f"{'yes' if b / a >= EXACT_TARGET else 'NO':<5} ({label})")
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        _child(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    else:
        sys.exit(main())
