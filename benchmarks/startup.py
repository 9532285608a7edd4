"""Start-up and cards: ``import rpgkernel``, ``%load_ext``, a roll card in a kernel and the first
``%%resolve`` cell, side by side with another checkout of rpgkernel (the reference), in one run.

    python benchmarks/startup.py --reference ../alter-stand [--runs 21]

Each sample is a fresh process of the checkout's own ``.venv/bin/python`` (the reference's too,
so each runs with its own installed entry points and compiled catalogues):

- "import": ``import rpgkernel`` (goal: with the extension below, at most 150 ms CPU);
- "load_ext": ``import rpgkernel`` and ``%load_ext rpgkernel`` in an IPython shell made before;
- "Wurfkarte": in a real kernel (ipykernel, so the roll's widget view is sent too), the median over 20
  cards of ``%roll W20+5>=15`` shown, after a first one (goal: at most 10 ms CPU, measured in the kernel);
- "erste Karte": from ``%load_ext`` to the card of the first ``%%resolve`` cell (a campaign opened, a
  Bastionland figure pair loaded, the card's rich output), the engines' imports included wherever
  they happen (goal: this / reference at most 1.10).

Printed: the medians, the ratio this / reference, the goal and whether it is met, and the load.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

IMPORT = """
import json, time
w, c = time.perf_counter(), time.process_time()
import rpgkernel
print(json.dumps({"wall": time.perf_counter() - w, "cpu": time.process_time() - c}))
"""

LOAD_EXT = """
import json, time
from IPython.core.interactiveshell import InteractiveShell
shell = InteractiveShell.instance()
w, c = time.perf_counter(), time.process_time()
import rpgkernel
shell.run_line_magic("load_ext", "rpgkernel")
print(json.dumps({"wall": time.perf_counter() - w, "cpu": time.process_time() - c}))
"""

# run in the kernel; the kernel's own clock, so the client's waiting is not counted
CARD_IN_KERNEL = """
import json, statistics, time
from IPython.display import display
get_ipython().run_line_magic("load_ext", "rpgkernel")
display(get_ipython().run_line_magic("roll", "W20+5>=15"))
walls, cpus = [], []
for _ in range(20):
    w, c = time.perf_counter(), time.process_time()
    display(get_ipython().run_line_magic("roll", "W20+5>=15"))
    walls.append(time.perf_counter() - w); cpus.append(time.process_time() - c)
print("RESULT", json.dumps({"wall": statistics.median(walls), "cpu": statistics.median(cpus)}))
"""

CARD = """
import json, sys
from jupyter_client.manager import start_new_kernel
km, kc = start_new_kernel(kernel_name="python3", extra_arguments=[], cwd=".")
try:
    msg = kc.execute(sys.argv[1])
    out = ""
    while True:
        m = kc.get_iopub_msg(timeout=120)
        if m["parent_header"].get("msg_id") != msg:
            continue
        if m["msg_type"] == "stream":
            out += m["content"]["text"]
        if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
            break
finally:
    kc.stop_channels(); km.shutdown_kernel(now=True)
print(out.split("RESULT", 1)[1].strip())
"""

FIRST_CELL = """
import json, os, tempfile, time
from IPython.core.interactiveshell import InteractiveShell
shell = InteractiveShell.instance()
os.chdir(tempfile.mkdtemp())
w, c = time.perf_counter(), time.process_time()
for setup in ("%load_ext rpgkernel", "%rpg bastionland --kampagne start.sqlite",
              "%%figuren\\nfiguren:\\n  - name: Ritter\\n    werte: {vig: 14, cla: 12, spi: 13, gd: 5, "
              "waffen: ['Streitkolben (W8, wuchtig)']}\\n  - name: Söldner\\n    werte: {vig: 10, cla: 10, "
              "spi: 8, gd: 4, waffen: ['Speer (W8)']}\\nbegegnung:\\n  name: Furt\\n  teilnehmer:\\n"
              "    - figur: Ritter\\n    - figur: Söldner\\n"):
    assert shell.run_cell(setup, silent=True).success, setup
result = shell.run_cell("%%resolve --würfel 5\\nangriff Ritter -> Söldner")
assert result.success and result.result is not None
result.result._repr_mimebundle_()
print(json.dumps({"wall": time.perf_counter() - w, "cpu": time.process_time() - c}))
"""


def sample(tree: Path, code: str | tuple[str, str]) -> dict[str, float]:
    python = tree / ".venv" / "bin" / "python"
    command = [str(python), "-c", *([code] if isinstance(code, str) else code)]
    out = subprocess.run(command, capture_output=True, text=True, cwd=tree, timeout=300)
    if out.returncode:
        raise SystemExit(f"{tree}: {out.stderr.strip().splitlines()[-1]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def medians(trees: tuple[Path, Path], code: str | tuple[str, str], runs: int) -> list[dict[str, float]]:
    """The median of ``runs`` samples per tree, the trees' samples taken in turn (a load that
    comes and goes on the machine falls on both)."""
    got: list[list[dict[str, float]]] = [[], []]
    for _ in range(runs):
        for i, tree in enumerate(trees):
            got[i].append(sample(tree, code))
    return [{k: statistics.median(s[k] for s in samples) for k in ("wall", "cpu")} for samples in got]


#: (name, code, goal): the goal a ratio this / reference (at most) or an absolute CPU time in seconds
CASES = (("import", IMPORT, ("cpu", 0.150)), ("load_ext", LOAD_EXT, ("cpu", 0.150)),
         ("Wurfkarte", (CARD, CARD_IN_KERNEL), ("cpu", 0.010)), ("erste Karte", FIRST_CELL, ("ratio", 1.10)))


def main() -> None:
    import os
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--reference", type=Path, required=True, help="another checkout with its .venv")
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    print(f"Last (1/5/15 min): {'/'.join(f'{x:.2f}' for x in os.getloadavg())} auf {os.cpu_count()} Kernen")
    print(f"{'Fall':<17}{'Zeit':>9}{'Referenz':>11}{'Verhältnis':>12}  Ziel")
    for name, code, (kind_of_goal, goal) in CASES:
        runs = max(3, args.runs // 5) if name == "Wurfkarte" else args.runs   # a kernel start each
        ours, ref = medians((HERE, args.reference.resolve()), code, runs)
        for kind in ("wall", "cpu"):
            ratio = ours[kind] / ref[kind]
            if kind_of_goal == "ratio":
                target, met = f"Verhältnis ≤ {goal:.2f}", ratio <= goal
            else:
                target, met = f"CPU ≤ {goal * 1e3:.0f} ms", ours["cpu"] <= goal
            row = (f"{name + ' ' + kind:<17}{ours[kind] * 1e3:>7.1f}ms{ref[kind] * 1e3:>9.1f}ms{ratio:>12.3f}  "
                   f"{target} {'ja' if met else 'NEIN'}")
            print(row.replace(".", ","))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
