#!/usr/bin/env python3
"""rpgkernel side by side with icepool (exact distributions) and d20 (rolling).

Run ``benchmarks/run`` (see benchmarks/README.md). Only the standard library
is imported at module level, so this file imports without icepool or d20.
With ``--reference CHECKOUT`` the exact and rolling cases are also timed for
another checkout of rpgkernel (with its own ``.venv``), interleaved with this
one, and compared with the goal this / reference <= 1.10.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import math
import os
import platform
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
from contextlib import redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

EXACT_TARGET = 10.0  # exact distribution: at least 10x faster than icepool, first time
ROLL_TARGET = 1.0    # rolling: at least as fast as d20
GOAL = 1.10          # with --reference: this checkout at most 10 % slower than the reference
SUM_MS = 300.0       # every accepted sum of many dice under 300 ms CPU
ESTIMATE_FACTOR = 2.0  # the work estimate within 2x of the measured cost
STEP_SECONDS = 1e-7  # what one step of the work estimate stands for (rpgkernel/dice/work.py)
INTERRUPT_S = 0.5    # Ctrl-C answered within half a second


# -- cases ------------------------------------------------------------------

@dataclass(frozen=True)
class ExactCase:
    name: str
    expr: str  # rpgkernel notation
    # icepool formulations of the same distribution: label -> f(icepool) -> Die
    icepool: dict[str, Callable] = field(default_factory=dict)


def _successes(n: int) -> ExactCase:
    return ExactCase(f"successes {n}W6>=5", f"{n}W6>=5", {
        f"{n} @ (d6 >= 5)": lambda ip: n @ (ip.d6 >= 5),
        f"d6.pool({n}).keep_outcomes(>=5).size()":
            lambda ip: ip.d6.pool(n).keep_outcomes(lambda o: o >= 5).size(),
    })


def _mixed(ip):
    return [ip.d8, ip.d4, ip.d6, ip.d6]


def _ten(ip):
    return [ip.d12, ip.d10, ip.d10, ip.d8, ip.d8, ip.d8, ip.d6, ip.d6, ip.d4, ip.d4]


EXACT_CASES: list[ExactCase] = [
    *(_successes(n) for n in (5, 15, 30, 60)),
    ExactCase("max(0, {W8,W4,W6,W6}kh1-2)", "max(0, {W8,W4,W6,W6}kh1-2)", {
        "(highest(d8,d4,d6,d6) - 2).clip(0)": lambda ip: (ip.highest(*_mixed(ip)) - 2).clip(0),
        "(Pool([...]).highest(1).sum() - 2).clip(0)":
            lambda ip: (ip.Pool(_mixed(ip)).highest(1).sum() - 2).clip(0),
    }),
    ExactCase("kh1 of W12,2W10,3W8,2W6,2W4", "{W12,W10,W10,W8,W8,W8,W6,W6,W4,W4}kh1", {
        "highest(d12,d10,...,d4)": lambda ip: ip.highest(*_ten(ip)),
        "Pool([...]).highest(1).sum()": lambda ip: ip.Pool(_ten(ip)).highest(1).sum(),
    }),
    ExactCase("12W4+36", "12W4+36", {
        "12 @ d4 + 36": lambda ip: 12 @ ip.d4 + 36,
        "d4.pool(12).sum() + 36": lambda ip: ip.d4.pool(12).sum() + 36,
    }),
]

ROLL_CASES = ["3d6", "4d6kh3", "1d20+5", "20d6"]


# -- helpers ----------------------------------------------------------------

def fmt_time(seconds: float) -> str:
    if seconds >= 1.0:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.1f} µs"


def clear_rpgkernel_caches() -> None:
    from rpgkernel.dice import clear_caches
    clear_caches()


def icepool_pmf(die) -> dict[int, float]:
    """Outcome -> probability of an icepool Die (bool outcomes become 0/1)."""
    total = die.denominator()
    return {int(o): q / total for o, q in die.items() if q}


def max_abs_diff(a: dict[int, float], b: dict[int, float]) -> float:
    return max(abs(a.get(k, 0.0) - b.get(k, 0.0)) for k in set(a) | set(b))


def check_agreement(tol: float = 1e-12) -> list[tuple[str, str, float]]:
    """Every icepool formulation gives rpgkernel's distribution within ``tol``."""
    import icepool

    import rpgkernel
    rows = []
    for case in EXACT_CASES:
        ours = rpgkernel.dist(case.expr).pmf()
        for label, build in case.icepool.items():
            diff = max_abs_diff(ours, icepool_pmf(build(icepool)))
            assert diff <= tol, f"{case.expr} vs icepool {label}: max |Δp| = {diff:.3g} > {tol}"
            rows.append((case.expr, label, diff))
    return rows


def per_call(fns: list[Callable[[], object]], repeat: int) -> list[float]:
    """Best of ``repeat`` rounds of the time per call of each function.

    Each round times every function in turn (timeit loops of >= 0.2 s), so
    background load falls on all of them alike.
    """
    timers = [timeit.Timer(fn) for fn in fns]
    numbers = [t.autorange()[0] for t in timers]
    best = [math.inf] * len(fns)
    for _ in range(repeat):
        for i, (t, n) in enumerate(zip(timers, numbers)):
            best[i] = min(best[i], t.timeit(n) / n)
    return best


@dataclass
class Row:
    section: str
    case: str
    ours: float
    ref: float
    ref_name: str
    target: float | None  # minimum ratio ref/ours, or None for information only

    @property
    def ratio(self) -> float:
        return self.ref / self.ours

    @property
    def met(self) -> str:
        if self.target is None:
            return "-"
        return "yes" if self.ratio >= self.target else "NO"


@dataclass
class Against:
    """One case timed for this checkout and for the reference checkout (``--reference``)."""
    section: str
    case: str
    ours: float
    ref: float

    @property
    def ratio(self) -> float:
        return self.ours / self.ref

    @property
    def met(self) -> str:
        return "yes" if self.ratio <= GOAL else "NO"


# -- (A) exact distributions, first time ------------------------------------

# The warmed mode is a session in use: before timing, both libraries compute
# distributions of the same kinds on other dice (W2, W3, W5, W7 and other
# counts, never a case's own dice), each from scratch, so the one-time costs
# of a fresh process (first calls into numpy, interpreter warm-up, lazy
# set-up) are paid while no cached result can serve the timed case. This is
# how a GM meets a new expression in a running notebook; the fresh-process
# row is the stricter bound.
WARMUP_SIDES = (2, 3, 5, 7)


def _warm_rpgkernel(rk) -> None:
    for s in WARMUP_SIDES:
        for expr in (f"{s}W3>=2", f"max(0, {{W{s},W3,W2}}kh1-1)", f"{{W{s},W3,W3,W2}}kh1",
                     f"{s}W3+{s}"):
            clear_rpgkernel_caches()
            rk.dist(expr)


def _warm_icepool(ip) -> None:
    for s in WARMUP_SIDES:
        s @ (ip.d3 >= 2)
        ip.d3.pool(s).keep_outcomes(lambda o: o >= 2).size()
        (ip.highest(ip.d(s), ip.d3, ip.d2) - 1).clip(0)
        (ip.Pool([ip.d(s), ip.d3, ip.d2]).highest(1).sum() - 1).clip(0)
        ip.highest(ip.d(s), ip.d3, ip.d3, ip.d2)
        ip.Pool([ip.d(s), ip.d3, ip.d3, ip.d2]).highest(1).sum()
        s @ ip.d3 + s
        ip.d3.pool(s).sum() + s


MODES = {"cold": "A first time, fresh process", "warm": "A first time, warmed session"}


def _exact_child(lib: str, case_i: int, variant_i: int, mode: str) -> None:
    """One first-time sample in this fresh process: import, maybe warm up, time one computation."""
    case = EXACT_CASES[case_i]
    if lib == "rpgkernel":
        import rpgkernel
        if mode == "warm":
            _warm_rpgkernel(rpgkernel)
        clear_rpgkernel_caches()
        def fn():
            return rpgkernel.dist(case.expr)
    else:
        import icepool
        if mode == "warm":
            _warm_icepool(icepool)
        build = list(case.icepool.values())[variant_i]
        def fn():
            return build(icepool)
    time_first_call(fn)


def time_first_call(fn: Callable[[], object]) -> None:
    """Time one call of ``fn`` in this (child) process and print the seconds as JSON."""
    gc.disable()  # none during the timed call; no gc.collect() before it (it chills the caches)
    t0 = time.perf_counter()
    fn()
    dt = time.perf_counter() - t0
    gc.enable()
    print(json.dumps(dt))


def fresh_sample(script: str, *args: object, python: str = sys.executable) -> float:
    """Run ``script --child ARGS`` in a fresh process of ``python``; the seconds its timed call took."""
    out = subprocess.run([python, os.path.abspath(script), "--child", *map(str, args)],
                         check=True, capture_output=True, text=True)
    return float(out.stdout.strip().splitlines()[-1])


def _sample(lib: str, case_i: int, variant_i: int, mode: str, reference: str | None = None) -> float:
    """One first-time sample; ``lib`` "reference" is rpgkernel in the reference's interpreter."""
    if lib == "reference":
        return fresh_sample(__file__, "rpgkernel", case_i, variant_i, mode, python=reference)
    return fresh_sample(__file__, lib, case_i, variant_i, mode)


def bench_exact(samples: int, reference: str | None = None,
                cases: list[int] | None = None) -> tuple[list[Row], list[str], list[Against]]:
    """Medians of first-time samples, each in a fresh process; samples are interleaved, in
    reverse order every other round (a process runs slower right after some others: each
    job follows each of its neighbours equally often).

    ``reference``: the interpreter of a reference checkout, whose rpgkernel is
    sampled in the same rounds (the third list, this against the reference);
    ``cases``: the indices in ``EXACT_CASES`` to time (default all).
    """
    picked = [(ci, EXACT_CASES[ci]) for ci in (range(len(EXACT_CASES)) if cases is None else cases)]
    others = [("reference", 0)] if reference else []
    jobs = [(lib, ci, vi, mode) for mode in MODES for ci, c in picked
            for lib, vi in [("rpgkernel", 0), *others, *(("icepool", v) for v in range(len(c.icepool)))]]
    times: dict[tuple, list[float]] = {j: [] for j in jobs}
    for s in range(samples):
        print(f"  exact: sample {s + 1}/{samples} ({len(jobs)} fresh processes)", file=sys.stderr)
        for job in jobs if s % 2 == 0 else reversed(jobs):  # each job after another kind of job in turn
            times[job].append(_sample(*job, reference=reference))
    rows, details, against = [], [], []
    for mode, section in MODES.items():
        for ci, case in picked:
            ours = statistics.median(times[("rpgkernel", ci, 0, mode)])
            if reference:
                against.append(Against(section, case.name, ours, statistics.median(times[("reference", ci, 0, mode)])))
            variants = [(statistics.median(times[("icepool", ci, vi, mode)]), label)
                        for vi, label in enumerate(case.icepool)]
            ref, label = min(variants)
            rows.append(Row(section, case.name, ours, ref, f"icepool {label}", EXACT_TARGET))
            for t, lab in variants:
                details.append(f"  {mode}  {case.expr:<40} icepool {lab:<44} {fmt_time(t):>10}"
                               f"   ratio {t / ours:6.1f}")
    return rows, details, against


# -- (B) rolling ------------------------------------------------------------

def load_d20():
    try:
        import d20
    except ImportError:
        return None
    return d20


def bench_roll(repeat: int, exprs: list[str] = ROLL_CASES) -> list[Row]:
    d20 = load_d20()
    if d20 is None:
        print("NOTE: d20 is not installed: skipping the rolling comparison (B). "
              "benchmarks/run installs it "
              "(pip install lark cachetools && pip install --no-deps d20).")
        return []
    import numpy as np

    import rpgkernel
    gen = np.random.default_rng()
    rows = []
    for expr in exprs:
        # the same notation means the same thing in both
        ours_v, ref_v = rpgkernel.roll(expr).total, d20.roll(expr).total
        assert isinstance(ours_v, int) and isinstance(ref_v, int)
        ref, ours, ours_rng = per_call([lambda: d20.roll(expr), lambda: rpgkernel.roll(expr),
                                        lambda: rpgkernel.roll(expr, rng=gen)], repeat)
        rows.append(Row("B roll", f"{expr}  (session rng)", ours, ref, "d20.roll", ROLL_TARGET))
        rows.append(Row("B roll", f"{expr}  (rng=generator)", ours_rng, ref, "d20.roll",
                        ROLL_TARGET))
    return rows


ROLL_MODES = {"session": "session rng", "rng": "rng=generator"}


def _roll_worker() -> None:
    """Serve timings of ``rpgkernel.roll`` in this process: a JSON line [expr, mode, number] in,
    [number, seconds per call] out; number 0 picks one with timeit's autorange (>= 0.2 s)."""
    import numpy as np

    import rpgkernel
    gen = np.random.default_rng()
    for line in sys.stdin:
        expr, mode, number = json.loads(line)
        if mode == "rng":
            timer = timeit.Timer(lambda: rpgkernel.roll(expr, rng=gen))
        else:
            timer = timeit.Timer(lambda: rpgkernel.roll(expr))
        if not number:
            number = timer.autorange()[0]
        print(json.dumps([number, timer.timeit(number) / number]), flush=True)


class RollWorker:
    """A process of ``python`` running ``_roll_worker`` (its own rpgkernel)."""

    def __init__(self, python: str) -> None:
        self.proc = subprocess.Popen([python, os.path.abspath(__file__), "--roll-worker"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def time(self, expr: str, mode: str, number: int = 0) -> tuple[int, float]:
        """The loop count and the seconds per call of one timeit loop."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps([expr, mode, number]) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"the rolling worker of {self.proc.args[0]} ended (exit {self.proc.wait()})")
        number, seconds = json.loads(line)
        return number, seconds

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


SHORT = 10  # rounds against the reference: a tenth of timeit's autorange, ten times as many


def bench_roll_against(reference: str, repeat: int, exprs: list[str] = ROLL_CASES) -> list[Against]:
    """Rolling in a worker of this checkout and one of the reference: the same loop count for both,
    their loops interleaved in each round (the first to run alternates), best of ``SHORT * repeat``
    short rounds (about 20 ms each: the best of many short rounds finds the quiet moments of a
    loaded machine)."""
    workers = [RollWorker(sys.executable), RollWorker(reference)]
    rows = []
    try:
        for expr in exprs:
            for mode, label in ROLL_MODES.items():
                number = max(1, max(w.time(expr, mode)[0] for w in workers) // SHORT)
                best = [math.inf, math.inf]
                for r in range(SHORT * repeat):
                    for i in (0, 1) if r % 2 == 0 else (1, 0):
                        best[i] = min(best[i], workers[i].time(expr, mode, number)[1])
                rows.append(Against("B roll", f"{expr}  ({label})", best[0], best[1]))
    finally:
        for w in workers:
            w.close()
    return rows


# -- (C) IPython magic latency ----------------------------------------------

def _shell():
    os.environ.setdefault("IPYTHONDIR", tempfile.mkdtemp(prefix="rpgk-bench-ipython-"))
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config
    cfg = Config()
    cfg.HistoryManager.enabled = False
    shell = InteractiveShell.instance(config=cfg)
    shell.extension_manager.load_extension("rpgkernel")
    shell.register_magic_function(lambda line: None, "line", "noop")
    return shell


def bench_magic(repeat: int) -> list[Row]:
    shell = _shell()
    ours, ref = per_call([lambda: shell.run_line_magic("roll", "3W6"),
                          lambda: shell.run_line_magic("noop", "3W6")], repeat)
    rows = [Row("C IPython", "%roll 3W6  (run_line_magic)", ours, ref, "no-op line magic", None)]
    # a whole cell, including display of the result (text and HTML)
    with open(os.devnull, "w") as null, redirect_stdout(null):
        ours, ref = per_call([lambda: shell.run_cell("%roll 3W6"),
                              lambda: shell.run_cell("%noop 3W6")], repeat)
    rows.append(Row("C IPython", "%roll 3W6  (run_cell, displayed)", ours, ref,
                    "no-op line magic", None))
    return rows


# -- (D) keep/drop of many dice, first time, CPU ---------------------------

KEEP_CASES = [(4, 6, 3), (20, 20, 10), (40, 6, 20), (80, 6, 40)]  # n W sides kh k


def _keep_child(lib: str, n: int, sides: int, k: int) -> None:
    """One first-time keep in this fresh process: CPU and wall seconds as JSON."""
    if lib == "rpgkernel":
        import rpgkernel
        clear_rpgkernel_caches()
        def fn():
            return rpgkernel.dist(f"{n}W{sides}kh{k}")
    else:
        import icepool
        def fn():
            return icepool.d(sides).highest(n, k)
    gc.disable()
    c0, w0 = time.process_time(), time.perf_counter()
    fn()
    c1, w1 = time.process_time(), time.perf_counter()
    gc.enable()
    print(json.dumps([c1 - c0, w1 - w0]))


def _fresh_cpu(*args: object) -> tuple[float, float]:
    out = subprocess.run([sys.executable, os.path.abspath(__file__), *map(str, args)],
                         check=True, capture_output=True, text=True)
    cpu, wall = json.loads(out.stdout.strip().splitlines()[-1])
    return cpu, wall


def bench_keep(samples: int) -> list[list[str]]:
    """Keep-highest of n dice against icepool's ``d.highest(n, k)``, each sample a fresh process
    (parse included): medians of CPU time, the quietest wall (best of the samples)."""
    import icepool

    import rpgkernel
    for n, sides, k in KEEP_CASES:  # the same distribution first
        theirs = icepool.d(sides).highest(n, k)
        ours = rpgkernel.dist(f"{n}W{sides}kh{k}").pmf()
        diff = max_abs_diff(ours, icepool_pmf(theirs))
        assert diff <= 1e-12, f"{n}W{sides}kh{k}: max |dp| = {diff:.3g}"
    times: dict[tuple, list[tuple[float, float]]] = {}
    for s in range(samples):
        print(f"  keep: sample {s + 1}/{samples}", file=sys.stderr)
        for case in KEEP_CASES:
            for lib in ("rpgkernel", "icepool") if s % 2 == 0 else ("icepool", "rpgkernel"):
                times.setdefault((lib, case), []).append(_fresh_cpu("--keep-child", lib, *case))
    rows = []
    for case in KEEP_CASES:
        ours, ref = times[("rpgkernel", case)], times[("icepool", case)]
        cpu_o, cpu_r = statistics.median(c for c, _ in ours), statistics.median(c for c, _ in ref)
        ratio = cpu_r / cpu_o
        rows.append([f"{case[0]}W{case[1]}kh{case[2]}", fmt_time(cpu_o), fmt_time(min(w for _, w in ours)),
                     fmt_time(cpu_r), fmt_time(min(w for _, w in ref)), f"{ratio:.1f}", f">= {EXACT_TARGET:g}",
                     "yes" if ratio >= EXACT_TARGET else "NO"])
    return rows


# -- (E) sums of many dice: the cost against the work estimate ---------------

SUM_POOLS = (10, 30, 100, 300, 1000)
SUM_SIDES = (6, 20, 100, 1000, 10000)


def _sums_child(repeat: int) -> None:
    """Every sum of the sweep in this process, caches cleared: steps, best CPU, best wall (JSON lines)."""
    import rpgkernel
    from rpgkernel.dice import work
    from rpgkernel.dice.exact import exact
    from rpgkernel.dice.parser import parse
    from rpgkernel.errors import DiceLimitError
    rpgkernel.dist("30W10")  # numpy's first calls, paid before
    for n in SUM_POOLS:
        for sides in SUM_SIDES:
            expr = f"{n}W{sides}"
            cpu = wall = math.inf
            for _ in range(repeat):
                clear_rpgkernel_caches()
                node = parse(expr)
                count = work.counter()
                count[0] = 0
                c0, w0 = time.process_time(), time.perf_counter()
                try:
                    exact(node)
                    refused = False
                except DiceLimitError:
                    refused = True
                c1, w1 = time.process_time(), time.perf_counter()
                steps, count[0] = count[0], work.IDLE
                if refused:
                    break
                cpu, wall = min(cpu, c1 - c0), min(wall, w1 - w0)
            print(json.dumps([expr, steps, refused, cpu, wall]), flush=True)


def bench_sums(repeat: int) -> list[list[str]]:
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--sums-child", str(repeat)],
                         check=True, capture_output=True, text=True)
    rows = []
    for line in out.stdout.splitlines():
        expr, steps, refused, cpu, wall = json.loads(line)
        estimate = steps * STEP_SECONDS
        if refused:
            rows.append([expr, f"{steps:,}", fmt_time(estimate), "refused", "-", "-", "-", "-"])
            continue
        fast = "yes" if cpu * 1e3 < SUM_MS else "NO"
        if not steps:  # a small pool counted in integers: bounded by the dice limit, not charged
            rows.append([expr, "0", "uncharged", fmt_time(cpu), fmt_time(wall), "-", "-", fast])
            continue
        ratio = cpu / estimate
        within = 1 / ESTIMATE_FACTOR <= ratio <= ESTIMATE_FACTOR
        rows.append([expr, f"{steps:,}", fmt_time(estimate), fmt_time(cpu), fmt_time(wall), f"{ratio:.2f}",
                     "yes" if within else "NO", fast])
    return rows


# -- (F) an interrupt during the heaviest accepted computations --------------

INTERRUPT_CASES = ["200W1000", "20W10000", "1000W100", "500W100+500W99", "100W20kh50", "200W6kh100"]


def _interrupt_child(expr: str, delay: float) -> None:
    """Compute ``expr`` over and over; SIGINT after ``delay`` s: how long until KeyboardInterrupt."""
    import signal

    import rpgkernel
    rpgkernel.dist("30W10")
    fired = []

    def handler(*_):
        fired.append(time.perf_counter())
        signal.default_int_handler(signal.SIGINT, None)
    signal.signal(signal.SIGALRM, handler)
    start = time.perf_counter()
    signal.setitimer(signal.ITIMER_REAL, delay)
    try:
        while True:
            clear_rpgkernel_caches()
            rpgkernel.dist(expr)
    except KeyboardInterrupt:
        caught = time.perf_counter()
    print(json.dumps(caught - (start + delay)))


def bench_interrupt(samples: int) -> list[list[str]]:
    rows = []
    for expr in INTERRUPT_CASES:
        lat = []
        for i in range(samples):
            out = subprocess.run([sys.executable, os.path.abspath(__file__), "--interrupt-child", expr,
                                  str(0.05 + 0.037 * i)], check=True, capture_output=True, text=True)
            lat.append(json.loads(out.stdout.strip().splitlines()[-1]))
        worst = max(lat)
        rows.append([expr, fmt_time(statistics.median(lat)), fmt_time(worst), f"<= {INTERRUPT_S:g} s",
                     "yes" if worst <= INTERRUPT_S else "NO"])
    return rows


# -- (G) the compact sampler against a vectorised numpy reference -----------

SAMPLER_GOAL = 2.0   # the sampler within 2x of the reference's fights per CPU-second


def bench_sampler(repeat: int) -> list[list[str]]:
    """Each fight of ``sampler_reference`` (every ruleset, 2, 6 and 20 combatants): the sampler's and
    the reference's batches of the forecast's size taken in turn (the first to play alternating),
    ``repeat`` each: fights per CPU-second from the median batch, the quietest wall of a batch, and
    the players' chance of winning on each side (the same fight within its 95 % intervals)."""
    import numpy as np
    import sampler_reference as ref

    from rpgkernel.forecast import BATCH
    size = BATCH["kompakt"]
    rows = []
    for ruleset in ref.RULESETS:
        for per_side in ref.SIZES:
            print(f"  sampler: {ruleset}, {2 * per_side} combatants", file=sys.stderr)
            if (ruleset, per_side) in ref.UNBUILT:
                rows.append([ruleset, str(2 * per_side), "—", "—", "—", f"<= {SAMPLER_GOAL:g}", "NO", "—", "—",
                             ref.UNBUILT[ruleset, per_side], "—"])
                continue
            sampler = ref.sampler(ref.encounter(ruleset, per_side))
            rules = ref.REFERENCE[ruleset](per_side)
            rng = np.random.default_rng(per_side)
            play = {"sampler": lambda s=sampler, g=rng: s.play(size, g).winner == 0,
                    "reference": lambda r=rules, g=rng: ref.reference(r, size, g)}
            for fn in play.values():   # numpy's first calls, paid before
                fn()
            times: dict[str, list[tuple[float, float]]] = {k: [] for k in play}
            wins = dict.fromkeys(play, 0)
            for r in range(repeat):
                for name in play if r % 2 == 0 else reversed(play):
                    c0, w0 = time.process_time(), time.perf_counter()
                    won = play[name]()
                    times[name].append((time.process_time() - c0, time.perf_counter() - w0))
                    wins[name] += int(won.sum())
            rate = {k: size / statistics.median(c for c, _ in v) for k, v in times.items()}
            ratio = rate["reference"] / rate["sampler"]
            n = repeat * size
            p = {k: w / n for k, w in wins.items()}
            margin = {k: 1.96 * math.sqrt(max(q * (1 - q), 1 / n) / n) for k, q in p.items()}
            same = abs(p["sampler"] - p["reference"]) <= margin["sampler"] + margin["reference"]
            rows.append([ruleset, str(2 * per_side), f"{rate['sampler']:,.0f}", f"{rate['reference']:,.0f}",
                         f"{ratio:.2f}", f"<= {SAMPLER_GOAL:g}", "yes" if ratio <= SAMPLER_GOAL else "NO",
                         fmt_time(min(w for _, w in times["sampler"])),
                         fmt_time(min(w for _, w in times["reference"])),
                         f"{p['sampler']:.3f} / {p['reference']:.3f}", "yes" if same else "NO"])
    return rows


# -- profiles ---------------------------------------------------------------

def _per_call_us(fn: Callable[[], object], n: int, rounds: int = 5) -> float:
    """Best of ``rounds`` loops of ``n`` calls, in µs per call."""
    best = math.inf
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, time.perf_counter() - t0)
    return best / n * 1e6


def profile_row(row: Row, top: int = 15) -> str:
    """cProfile of rpgkernel's side of a row that missed its target."""
    import numpy as np

    import rpgkernel
    out = io.StringIO()
    prof = cProfile.Profile()
    if row.section.startswith("A"):
        from rpgkernel.dice.exact import exact
        from rpgkernel.dice.parser import parse
        expr = next(c for c in EXACT_CASES if c.name == row.case).expr
        n = 500

        def call():
            clear_rpgkernel_caches()
            rpgkernel.dist(expr)

        def parse_only():
            clear_rpgkernel_caches()
            parse(expr)
        node = parse(expr)

        def exact_only():
            clear_rpgkernel_caches()
            exact(node)
        call()
        clear = _per_call_us(clear_rpgkernel_caches, n)
        out.write(f"--- profile: rpgkernel.dist({expr!r}), caches cleared before each of "
                  f"{n} calls\n")
        out.write(f"unprofiled, in a warm process: {_per_call_us(call, n) - clear:.1f} µs/call "
                  f"(parse {_per_call_us(parse_only, n) - clear:.1f} µs, "
                  f"exact {_per_call_us(exact_only, n) - clear:.1f} µs)\n")
    elif row.section.startswith("B"):
        expr = row.case.split()[0]
        gen = np.random.default_rng()
        n = 20000
        if "rng=" in row.case:
            def call():
                rpgkernel.roll(expr, rng=gen)
        else:
            def call():
                rpgkernel.roll(expr)
        args = f"{expr!r}, rng=gen" if "rng=" in row.case else repr(expr)
        out.write(f"--- profile: rpgkernel.roll({args}), "
                  f"{n} calls\n")
        out.write(f"unprofiled: {_per_call_us(call, n):.1f} µs per call\n")
    else:
        return ""
    prof.enable()
    for _ in range(n):
        call()
    prof.disable()
    stats = pstats.Stats(prof, stream=out).strip_dirs()
    stats.sort_stats("tottime").print_stats(top)
    return out.getvalue().rstrip()


# -- output -----------------------------------------------------------------

def environment() -> str:
    import numpy as np
    lines = [f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs; "
             f"numpy {np.__version__}"]
    try:
        import icepool
        lines.append(f"icepool {icepool.__version__}")
    except ImportError:
        lines.append("icepool not installed")
    d20 = load_d20()
    if d20 is not None:
        from importlib.metadata import version
        lines.append(f"d20 {version('d20')}")
    blas = {k: os.environ[k] for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE") if k in os.environ}
    lines.append(f"OPENBLAS_CORETYPE/L2_SIZE: {blas or 'unset'}")
    try:
        from threadpoolctl import threadpool_info
        for info in threadpool_info():
            if info.get("user_api") == "blas":
                lines.append(f"BLAS: {info.get('internal_api')} {info.get('version')}, "
                             f"core {info.get('architecture')}, {info.get('num_threads')} threads")
    except ImportError:
        pass
    return "; ".join(lines[:2]) + "\n" + "\n".join(lines[2:])


def reference_python(checkout: Path) -> tuple[str, str]:
    """The interpreter of a reference checkout (its ``.venv``) and a line saying what it runs;
    it must import the checkout's own rpgkernel, as the benchmark's child processes do."""
    tree = checkout.resolve()
    python = tree / ".venv" / "bin" / "python"
    if not python.exists():
        raise SystemExit(f"{checkout}: no .venv/bin/python "
                         "(in the checkout: python3 -m venv .venv && .venv/bin/pip install -e .)")
    probe = "import json, platform, numpy, rpgkernel; print(json.dumps([rpgkernel.__file__, " \
            "platform.python_version(), numpy.__version__]))"
    out = subprocess.run([str(python), "-I", "-c", probe], capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"{checkout}: {python} cannot import rpgkernel: {out.stderr.strip()}")
    where, py_version, np_version = json.loads(out.stdout)
    if not Path(where).resolve().is_relative_to(tree):
        raise SystemExit(f"{checkout}: its .venv imports rpgkernel from {where}, not from the checkout")
    commit = subprocess.run(["git", "-C", str(tree), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip() or "?"
    return str(python), (f"reference: {tree} at {commit} (Python {py_version}, numpy {np_version}); "
                         f"this: {Path(__file__).resolve().parent.parent}")


def table(rows: list[Row]) -> str:
    head = ["section", "case", "rpgkernel", "reference", "ratio", "target", "met", "reference is"]
    body = [[r.section, r.case, fmt_time(r.ours), fmt_time(r.ref), f"{r.ratio:.2f}",
             "-" if r.target is None else f">= {r.target:g}", r.met, r.ref_name] for r in rows]
    return _grid(head, body)


def against_table(rows: list[Against]) -> str:
    head = ["section", "case", "this", "reference", "this/ref", "goal", "met"]
    body = [[r.section, r.case, fmt_time(r.ours), fmt_time(r.ref), f"{r.ratio:.3f}", f"<= {GOAL:.2f}", r.met]
            for r in rows]
    return _grid(head, body)


def _grid(head: list[str], body: list[list[str]]) -> str:
    """Columns padded to their widest cell; the times and the ratio right-aligned."""
    widths = [max(len(x[i]) for x in [head, *body]) for i in range(len(head))]
    right = {2, 3, 4}

    def line(cells):
        return " | ".join(c.rjust(w) if i in right else c.ljust(w)
                          for i, (c, w) in enumerate(zip(cells, widths))).rstrip()
    sep = "-+-".join("-" * w for w in widths)
    return "\n".join([line(head), sep, *(line(b) for b in body)])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--samples", type=int, default=15,
                   help="fresh-process samples per exact case and library (median; default 15)")
    p.add_argument("--repeat", type=int, default=7,
                   help="timeit rounds for rolling and magics (best of; default 7)")
    p.add_argument("--only", default="exact,roll,magic,keep,sums,interrupt,sampler",
                   help="comma-separated sections: exact, roll, magic, keep, sums, interrupt, sampler")
    p.add_argument("--profile", action="store_true",
                   help="print a cProfile of rpgkernel for every row that misses its target")
    p.add_argument("--case", action="append", metavar="CASE",
                   help="time only this case, by its name or expression (repeatable; default all cases), "
                        "e.g. to rerun one that missed its goal")
    p.add_argument("--reference", type=Path, metavar="CHECKOUT",
                   help="another checkout of rpgkernel with its own .venv: its exact and rolling cases are "
                        f"timed in the same run, interleaved; goal this / reference <= {GOAL:.2f}")
    p.add_argument("--child", nargs=4, metavar=("LIB", "CASE", "VARIANT", "MODE"),
                   help=argparse.SUPPRESS)
    p.add_argument("--keep-child", nargs=4, help=argparse.SUPPRESS)
    p.add_argument("--sums-child", type=int, help=argparse.SUPPRESS)
    p.add_argument("--interrupt-child", nargs=2, help=argparse.SUPPRESS)
    p.add_argument("--roll-worker", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        _exact_child(args.child[0], int(args.child[1]), int(args.child[2]), args.child[3])
        return 0
    if args.roll_worker:
        _roll_worker()
        return 0
    if args.keep_child:
        _keep_child(args.keep_child[0], *map(int, args.keep_child[1:]))
        return 0
    if args.sums_child:
        _sums_child(args.sums_child)
        return 0
    if args.interrupt_child:
        _interrupt_child(args.interrupt_child[0], float(args.interrupt_child[1]))
        return 0

    sections = {s.strip() for s in args.only.split(",")}
    wanted = None if args.case is None else set(args.case)
    exact_cases = [i for i, c in enumerate(EXACT_CASES) if wanted is None or wanted & {c.name, c.expr}]
    roll_cases = [e for e in ROLL_CASES if wanted is None or e in wanted]
    print(environment())
    print("load average (1, 5, 15 min): %.2f %.2f %.2f" % os.getloadavg())
    reference = None
    if args.reference is not None:
        reference, said = reference_python(args.reference)
        print(said)
    rows: list[Row] = []
    details: list[str] = []
    against: list[Against] = []
    if "exact" in sections and exact_cases:
        agreed = check_agreement()
        print(f"agreement: {len(agreed)} icepool formulations match rpgkernel within 1e-12 "
              f"(largest |Δp| {max(d for *_, d in agreed):.1e})")
        exact_rows, details, against = bench_exact(args.samples, reference, exact_cases)
        rows += exact_rows
    if "roll" in sections and roll_cases:
        rows += bench_roll(args.repeat, roll_cases)
        if reference:
            against += bench_roll_against(reference, args.repeat, roll_cases)
    if "magic" in sections:
        rows += bench_magic(args.repeat)

    missed: list[Row | Against] = [r for r in rows if r.met == "NO"]
    if rows:
        print()
        print("ratio = reference time / rpgkernel time (> 1: rpgkernel is faster)")
        print(table(rows))
        if details:
            print("\nA: every icepool formulation (median of first-time samples; "
                  "the fastest is the reference)")
            print("\n".join(details))
        print(f"\ntargets: exact >= {EXACT_TARGET:g}x icepool first-time, "
              f"roll >= {ROLL_TARGET:g}x d20; "
              f"{sum(r.met == 'yes' for r in rows)} met, {len(missed)} missed")
    if against:
        slower = [r for r in against if r.met == "NO"]
        print(f"\nthis checkout against the reference {args.reference}: this / reference "
              f"(A: medians of fresh-process samples, B: best of interleaved timeit rounds)")
        print(against_table(against))
        print(f"\ngoal: this / reference <= {GOAL:.2f} (at most 10 % slower); "
              f"{len(against) - len(slower)} met, {len(slower)} missed")
        missed += slower
    if "keep" in sections:
        print("\nD keep-highest of many dice, first call in a fresh process (parse included): median CPU, "
              f"quietest wall of {args.samples} samples; ratio = icepool CPU / rpgkernel CPU")
        rows_d = bench_keep(args.samples)
        print(_grid(["case", "rpgkernel CPU", "wall", "icepool d.highest(n, k) CPU", "wall", "ratio", "goal", "met"],
                    rows_d))
        missed_extra = sum(r[-1] == "NO" for r in rows_d)
    else:
        missed_extra = 0
    if "sums" in sections:
        print(f"\nE sums of many dice: best of {args.repeat} in one process (caches cleared); the estimate is "
              f"steps x {STEP_SECONDS * 1e6:g} µs; goals: CPU / estimate within {ESTIMATE_FACTOR:g}x, "
              f"every accepted sum under {SUM_MS:g} ms CPU")
        rows_e = bench_sums(args.repeat)
        print(_grid(["sum", "steps", "estimate", "CPU", "quiet wall", "CPU/estimate", "within 2x",
                     f"< {SUM_MS:g} ms"], rows_e))
        missed_extra += sum("NO" in r[-2:] for r in rows_e)
    if "interrupt" in sections:
        print("\nF SIGINT during the heaviest accepted computations (computed over and over): seconds from the "
              "signal until KeyboardInterrupt reaches Python, over 5 delays")
        rows_f = bench_interrupt(5)
        print(_grid(["expression", "median", "slowest", "goal", "met"], rows_f))
        missed_extra += sum(r[-1] == "NO" for r in rows_f)
    if "sampler" in sections:
        print(f"\nG the compact sampler against a vectorised numpy reference (benchmarks/sampler_reference.py): "
              f"{args.repeat} batches of the forecast's size (1,000 fights) each, taken in turn; fights per CPU-second from "
              f"the median batch, ratio = reference / sampler, the quietest wall of a batch; P(Spieler) on both "
              f"sides, the same within their 95 % intervals")
        rows_g = bench_sampler(args.repeat)
        print(_grid(["ruleset", "combatants", "sampler fights/CPU-s", "reference", "ratio", "goal", "met",
                     "sampler quiet wall", "reference quiet wall", "P(Spieler) sampler / reference", "same"],
                    rows_g))
        missed_extra += sum(r[6] == "NO" or r[-1] == "NO" for r in rows_g)
    if sections & {"keep", "sums", "interrupt", "sampler"}:
        print(f"D-G: {missed_extra} goals missed")
    print("load average at the end (1, 5, 15 min): %.2f %.2f %.2f" % os.getloadavg())
    if args.profile:
        seen = set()
        for r in missed:
            key = (r.section[0], r.case)
            if key not in seen:
                seen.add(key)
                print()
                print(profile_row(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
