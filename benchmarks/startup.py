"""Start-up: ``import rpgkernel`` and the first ``%%resolve`` cell of a fresh kernel, side by side
with another checkout of rpgkernel (the reference), in one run.

    python benchmarks/startup.py --reference ../alter-stand [--runs 21]

Each sample is a fresh process of the checkout's own ``.venv/bin/python`` (the reference's too,
so each runs with its own installed entry points and compiled catalogues). "import" is the
wall and CPU time of ``import rpgkernel``; "erste Zelle" is an IPython shell that loads the
extension, sets up a Bastionland figure pair, and times its first ``%%resolve`` cell with given
dice and its rich output (the card a notebook shows). Printed: the medians and the ratio
this / reference (goal: at most 1.10, the issue's "no more than 10 % slower").
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
GOAL = 1.10

IMPORT = """
import json, time
w, c = time.perf_counter(), time.process_time()
import rpgkernel
print(json.dumps({"wall": time.perf_counter() - w, "cpu": time.process_time() - c}))
"""

FIRST_CELL = """
import json, os, tempfile, time
from IPython.core.interactiveshell import InteractiveShell
shell = InteractiveShell.instance()
os.chdir(tempfile.mkdtemp())
for setup in ("%load_ext rpgkernel", "%rpg bastionland --kampagne start.sqlite",
              "%%figuren\\nfiguren:\\n  - name: Ritter\\n    werte: {vig: 14, cla: 12, spi: 13, gd: 5, "
              "waffen: ['Streitkolben (W8, wuchtig)']}\\n  - name: Söldner\\n    werte: {vig: 10, cla: 10, "
              "spi: 8, gd: 4, waffen: ['Speer (W8)']}\\nbegegnung:\\n  name: Furt\\n  teilnehmer:\\n"
              "    - figur: Ritter\\n    - figur: Söldner\\n"):
    assert shell.run_cell(setup, silent=True).success, setup
w, c = time.perf_counter(), time.process_time()
result = shell.run_cell("%%resolve --würfel 5\\nangriff Ritter -> Söldner")
assert result.success and result.result is not None
result.result._repr_mimebundle_()
print(json.dumps({"wall": time.perf_counter() - w, "cpu": time.process_time() - c}))
"""


def sample(tree: Path, code: str) -> dict[str, float]:
    python = tree / ".venv" / "bin" / "python"
    out = subprocess.run([str(python), "-c", code], capture_output=True, text=True, cwd=tree, timeout=120)
    if out.returncode:
        raise SystemExit(f"{tree}: {out.stderr.strip().splitlines()[-1]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def medians(trees: tuple[Path, Path], code: str, runs: int) -> list[dict[str, float]]:
    """The median of ``runs`` samples per tree, the trees' samples taken in turn (a load that
    comes and goes on the machine falls on both)."""
    got: list[list[dict[str, float]]] = [[], []]
    for _ in range(runs):
        for i, tree in enumerate(trees):
            got[i].append(sample(tree, code))
    return [{k: statistics.median(s[k] for s in samples) for k in ("wall", "cpu")} for samples in got]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--reference", type=Path, required=True, help="another checkout with its .venv")
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    print(f"{'Fall':<13}{'Zeit':>9}{'Referenz':>11}{'Verhältnis':>12}  Ziel ≤ {GOAL:.2f}".replace(".", ","))
    for name, code in (("import", IMPORT), ("erste Zelle", FIRST_CELL)):
        ours, ref = medians((HERE, args.reference.resolve()), code, args.runs)
        for kind in ("wall", "cpu"):
            ratio = ours[kind] / ref[kind]
            row = (f"{name + ' ' + kind:<13}{ours[kind] * 1e3:>7.1f}ms{ref[kind] * 1e3:>9.1f}ms{ratio:>12.3f}  "
                   f"{'ja' if ratio <= GOAL else 'NEIN'}")
            print(row.replace(".", ","))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
