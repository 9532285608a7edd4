#!/usr/bin/env python3
"""The one-second goal: the heaviest dice expressions the parser accepts, rolled and shown.

Every accepted expression must roll and display in well under a second: exact
where the real cost fits the budget, else a labelled estimate or a clear
refusal. Each case runs in a fresh process (imports done, nothing computed),
and each path of it starts with empty caches:

- roll:    ``%roll EXPR``: the Roll, its text, Markdown and HTML, and the widget view (view_bundle);
- many:    ``%roll -n N EXPR`` with the most rolls it accepts (at most 1000): the Rolls, the same;
- preview: ``%roll --vorschau EXPR``: the Dist or Estimate, text and HTML (and the chart widget of a Dist);
- dist:    ``rpgkernel.dist(EXPR)``: the exact distribution, or its refusal.

The table gives the median and the slowest of ``--samples`` processes per
path against the goal, what the card showed (exact, estimated from n rolls,
or refused) and the process's peak memory. Run: ``python benchmarks/dice_limits.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import fmt_time  # noqa: E402

GOAL = 1.0  # seconds

_DEPTH = 64  # limits.MAX_DEPTH, written out: this module imports only the standard library
CASES = [
    # the hangs
    "4W10000dh1", "3W10000kh2", "{W10000,W10000,W10000}kh2", "50W20!20kh25", "4W10000kh3",
    # the exact budget's edges: the keep programme, a wide exploding die, products, the highest die
    "4W250kh3", "20W20kh10", "W10000!20", "3W10000!20kh1", "W300*W300", "{W10000!20,W6}kh1", "1000W6>=5",
    "100W100",
    # estimates with the most die rolls per sample
    "1000W10000", "1000W6r1kh500", "1000W10000r<5000!20kh500>=5000", "1000W2!20kh999", "W10000*W10000*W10",
    # rerolls until on the largest pool, values at the bound
    "1000W10000rr<10000!20", "1000000000*1000000",
    # length and depth
    "+".join(["1"] * 1000), "-".join(["W6"] * 600), "*".join(["W2"] * 600),
    "(" * _DEPTH + "W6" + ")" * _DEPTH, "max(" * _DEPTH + "W6" + ",1)" * _DEPTH, "(1+" * _DEPTH + "W6" + ")*1" * _DEPTH,
    # everyday expressions, as many at once as allowed
    "19W6", "4W6kh3", "3W6+2",
]
PATHS = ("roll", "many", "preview", "dist")


def _child(case_i: int) -> None:
    """Time every path of one case in this fresh process; print the results as JSON."""
    import resource

    import rpgkernel
    from rpgkernel.dice import Estimate, Rolls, clear_caches
    from rpgkernel.magics import roll_line
    from rpgkernel.dice.roll import shown_rerolls
    from rpgkernel.widgets.tray import view_bundle
    expr = CASES[case_i]
    n = most_rolls(expr, shown_rerolls)

    def show(obj) -> str:
        obj._repr_mimebundle_()
        if hasattr(obj, "_repr_markdown_"):
            obj._repr_markdown_()
        str(obj)
        if isinstance(obj, (rpgkernel.Roll, Rolls, rpgkernel.Dist)):
            view_bundle(obj)
        return shown(obj)

    def shown(obj) -> str:
        if isinstance(obj, Estimate):
            return f"estimate {obj.samples}"
        if isinstance(obj, rpgkernel.Dist):
            return "exact"
        first = obj[0] if isinstance(obj, Rolls) else obj
        try:
            return shown(first.preview)
        except rpgkernel.DiceLimitError:
            return "no distribution"

    calls = {
        "roll": lambda: show(roll_line(f"--seed 1 {expr}")),
        "many": lambda: show(roll_line(f"--seed 1 -n {n} {expr}")),
        "preview": lambda: show(roll_line(f"--vorschau {expr}")),
        "dist": lambda: shown(rpgkernel.dist(expr)),
    }
    out = {}
    for path, call in calls.items():
        clear_caches()
        t0 = time.perf_counter()
        try:
            what = call()
        except rpgkernel.RpgError as err:
            what = "refused: " + str(err).splitlines()[0][:60]
        out[path] = [time.perf_counter() - t0, what]
    out["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out["n"] = n
    print(json.dumps(out))


def most_rolls(expr: str, shown_rerolls) -> int:
    """The most rolls of ``expr`` that ``%roll -n`` accepts (at most 1000; 1 if it is not accepted)."""
    import rpgkernel
    from rpgkernel.dice import parse
    try:
        node = parse(expr)
    except rpgkernel.RpgError:
        return 1
    lo, hi = 1, 1000
    while lo < hi:
        mid = (lo + hi + 1) // 2
        try:
            shown_rerolls(node, mid)
            lo = mid
        except rpgkernel.DiceLimitError:
            hi = mid - 1
    return lo


def _sample(case_i: int) -> dict:
    done = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", str(case_i)],
                          check=True, capture_output=True, text=True, timeout=600)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--samples", type=int, default=3, help="fresh processes per case (default 3)")
    p.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child is not None:
        _child(args.child)
        return 0
    rows, missed = [], 0
    for i, expr in enumerate(CASES):
        print(f"  case {i + 1}/{len(CASES)}", file=sys.stderr)
        samples = [_sample(i) for _ in range(args.samples)]
        label = expr if len(expr) <= 34 else f"{expr[:20]}… ({len(expr)} chars)"
        rss = max(s["rss_mb"] for s in samples)
        for path in PATHS:
            times = [s[path][0] for s in samples]
            worst = max(times)
            met = worst < GOAL
            missed += not met
            what = samples[0][path][1]
            rows.append([label, path + (f" -n {samples[0]['n']}" if path == "many" else ""), what[:44],
                         fmt_time(statistics.median(times)), fmt_time(worst), "yes" if met else "NO",
                         f"{rss:.0f} MB"])
            label = ""
    head = ["expression", "path", "shown", "median", "slowest", f"< {GOAL:g} s", "peak RSS"]
    widths = [max(len(r[c]) for r in [head, *rows]) for c in range(len(head))]
    for r in [head, ["-" * w for w in widths], *rows]:
        print(" | ".join(c.rjust(w) if k in (3, 4, 6) else c.ljust(w) for k, (c, w) in enumerate(zip(r, widths))))
    print(f"\ngoal: every path of every case under {GOAL:g} s in each of {args.samples} fresh processes; "
          f"{len(rows) - missed} met, {missed} missed")
    return 0 if not missed else 1


if __name__ == "__main__":
    sys.exit(main())
