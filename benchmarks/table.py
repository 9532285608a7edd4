"""Table latency: every action at the table against the goal of 100 ms CPU at the 95th percentile.

    python benchmarks/table.py [--reference CHECKOUT] [--repeat N]

The actions: every ``%%resolve`` example of the docs (``docs/*.md``, their code blocks read as the docs
tests read them: a ``%%resolve`` block is one cell with its ``--würfel``/``--vorschau``/``--seed``, each
line of a plain block of ``%%resolve`` lines is one action), each page gone down in order in its ruleset's
campaign of the resolve tests (``tests/resolve_campaigns.py``) with the page's stat blocks loaded, as a
GM going down the page (a choice line answers the action above it; a cell the campaign refuses, e.g. a
figure the page never introduces, is counted, not timed), the card made as a notebook shows it (text and HTML); a click on the encounter panel's action
button (the ford's first attack, ``tests/panel_driving.py``); and a player's choice on their page (the
Ritter's Deny, with the page's view after it). Each checkout runs in a worker process of its own
interpreter, one after the other in the same run: this one in the running interpreter, the reference in
its ``.venv`` (``bench.reference_python``). Printed per checkout and kind of action: how many, p50, p95
and max of the CPU time (``time.process_time``, every thread of the process) and of the wall time, and
whether the p95 CPU meets the goal; the load average before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
GOAL = 0.100   # seconds of CPU, 95th percentile
KINDS = ("docs", "panel", "player")
_HEADER = re.compile(r"^%%resolve\b(?P<args>[^\n]*)\n")


# -- the actions: read in the driver from this checkout's docs -----------------------------------------
#: the ruleset a page's examples play in (other pages: tried in each)
PAGE_RULESETS = {"adz.md": "adz", "bastionland.md": "bastionland", "kampfwerte.md": "kampfwerte",
                 "midgard.md": "midgard", "osr.md": "osr", "resolve.md": "bastionland"}


def doc_actions() -> list[dict]:
    """Every page of the docs with ``%%resolve`` examples, as a GM would go down it: ``{"page", "ruleset",
    "steps"}``, each step a stat block of the page (``{"figuren": text}``, loaded untimed) or an example
    (``{"where", "ruleset", "cells": [{"source", "dice", "seed", "preview"}]}``; a ``%%resolve`` block is
    one cell, a plain block of ``%%resolve`` lines one cell per line)."""
    sys.path.insert(0, str(ROOT / "tests"))
    from doc_blocks import DOCS, blocks_of

    from rpgkernel import rules
    from rpgkernel.resolve.run import verbs as verbs_of
    verbs = {n.lower() for key in rules.rulesets() for v in verbs_of(rules.get(key)).values()
             for n in (v.name, *v.aliases)}   # every spelling, as a cell reads it
    pages = []
    for path in sorted(DOCS.glob("*.md")):
        steps: list[dict] = []
        for block in blocks_of(path.read_text(encoding="utf-8"), path.name):
            header = _HEADER.match(block.text)
            if block.text.startswith(("figuren:", "begegnung:")) or block.text.startswith("%%figuren\n"):
                steps.append({"figuren": block.text.removeprefix("%%figuren\n")})
            elif header:
                steps.append({"where": str(block), **_cell(header["args"], block.text[header.end():])})
            elif block.lang in ("", "text") and block.lines and all(
                    line.startswith("#") or line.split()[0].lower() in verbs for line in block.lines):
                lines = [line for line in block.lines if not line.startswith("#")]
                steps.append({"where": str(block), "ruleset": None,
                              "cells": [{"source": line, "dice": None, "seed": i, "preview": False}
                                        for i, line in enumerate(lines)]})
        if any("cells" in step for step in steps):
            pages.append({"page": path.name, "ruleset": PAGE_RULESETS.get(path.name), "steps": steps})
    return pages


def _cell(args: str, body: str) -> dict:
    words = shlex.split(args)
    cell = {"source": body, "dice": None, "seed": 1, "preview": False}
    ruleset = None
    i = 0
    while i < len(words):
        word = words[i]
        if word in ("--würfel", "--wuerfel", "--dice"):
            cell["dice"] = [int(x) for x in re.split(r"[,\s]+", words[i + 1].strip()) if x]
            i += 1
        elif word == "--seed":
            cell["seed"] = int(words[i + 1])
            i += 1
        elif word in ("--vorschau", "--preview"):
            cell["preview"] = True
        elif not word.startswith("-"):
            ruleset = word.lower()
        i += 1
    return {"ruleset": ruleset, "cells": [cell]}


# -- the worker: one checkout's rpgkernel, timing ----------------------------------------------------------
def _timed(action) -> tuple[float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    action()
    return time.process_time() - cpu, time.perf_counter() - wall


def _settle() -> None:
    """Wait until the advice's weighings in the background have ended (a checkout that has them), so
    that no sample pays for the one before it."""
    try:
        from rpgkernel.forecast import weighing
    except ImportError:
        return
    for w in list(weighing._cache.values()):
        w.wait(300)


def gone_down(pages: list[dict], folder: Path) -> Iterator[tuple[Any, str, dict]]:
    """Each page gone down in its ruleset's campaign of the resolve tests (a fresh copy per page and
    ruleset): its stat blocks loaded, then ``(campaign, ruleset, cell)`` for each example cell, in order."""
    import shutil

    from resolve_campaigns import RULESETS, campaign

    from rpgkernel import Campaign, RpgError, statblocks
    pristine = {}
    for key in RULESETS:
        c = campaign(key, folder / f"{key}.sqlite")
        c.close()
        pristine[key] = folder / f"{key}.sqlite"
    for page in pages:
        for key in [page["ruleset"]] if page["ruleset"] else RULESETS:
            target = folder / "lauf.sqlite"
            shutil.copy(pristine[key], target)
            camp = Campaign.open(target)
            try:
                for step in page["steps"]:
                    if "figuren" in step:
                        try:
                            statblocks.load(camp, step["figuren"])
                        except RpgError:
                            pass   # figures the campaign has already
                        continue
                    if step["ruleset"] not in (None, key):
                        continue
                    for cell in step["cells"]:
                        yield camp, key, cell
            finally:
                camp.close()
                for side in folder.glob("lauf.sqlite*"):
                    side.unlink()


def card(camp: Any, key: str, cell: dict) -> Any:
    """The card of an example ``cell`` played in ``camp``, made as a notebook shows it (text and HTML)."""
    import rpgkernel
    res = rpgkernel.resolve(cell["source"], ruleset=key, campaign=camp, dice=cell["dice"], seed=cell["seed"],
                            preview=cell["preview"])
    repr(res)
    res._repr_html_()
    return res


def work_docs(pages: list[dict], repeat: int, folder: Path) -> tuple[list[list[float]], int]:
    """Every example cell of the pages (``gone_down``) timed with its card (``card``); a cell the campaign
    refuses is counted, not timed."""
    from rpgkernel import RpgError
    samples, refused = [], 0
    for k in range(repeat):   # each round's campaigns fresh, in a folder of their own
        (folder / f"runde{k}").mkdir()
        for camp, key, cell in gone_down(pages, folder / f"runde{k}"):
            try:
                samples.append(list(_timed(lambda: card(camp, key, cell))))
            except RpgError:
                refused += 1
            _settle()
    return samples, refused


def work_panel(repeat: int, folder: Path) -> list[list[float]]:
    from panel_driving import FIRST_ATTACK, make_two_mercenaries, send, set_form

    from rpgkernel.widgets import EncounterPanel
    camp = make_two_mercenaries(folder / "panel.sqlite")
    panel = EncounterPanel(camp)
    samples = []
    for i in range(repeat):
        set_form(panel, verb="angriff", actors=["Ritter", "Knappe"], targets=["Söldner 1"],
                 options={"bonus": "W8"}, dice="7, 3, 6, 5, 8")
        samples.append(list(_timed(lambda: send(panel, "act"))))
        assert "angriff" in json.dumps(panel.result, ensure_ascii=False), (FIRST_ATTACK, panel.error)
        _settle()
        camp.undo()
    panel.close()
    camp.close()
    return samples


def work_player(repeat: int, folder: Path) -> list[list[float]]:
    import inspect

    from panel_driving import make_two_mercenaries

    import rpgkernel
    from rpgkernel.server import actions, live
    camp = make_two_mercenaries(folder / "spieler.sqlite")
    spend = [lambda count, work: None] if len(inspect.signature(actions.act).parameters) > 4 else []
    samples = []
    for i in range(repeat):
        rpgkernel.resolve('angriff "Söldner 1" -> Ritter', campaign=camp, dice=[8, 4])
        _settle()
        [pid] = camp.state["pending"]   # an older reference takes the newest open one and reads no id
        message = json.dumps({"type": "wahl", "aufloesung": pid, "key": "deny", "optionen": {"würfel": 8},
                              "wuerfel": [5]})

        def choose(message: str = message) -> None:
            answer = actions.act(camp, "Ritter", message, "token", *spend)
            assert "result" in answer, answer
            live.view(camp, "Ritter", [])
        samples.append(list(_timed(choose)))
        _settle()
        camp.undo()
        camp.undo()
    camp.close()
    return samples


def worker(root: str, job: str) -> None:
    """Run the job (JSON: kind, repeat, actions) with ``root``'s rpgkernel; print the samples as JSON."""
    sys.path.insert(0, root)
    sys.path.append(str(ROOT / "tests"))   # the fixtures of this checkout, for both
    spec = json.loads(Path(job).read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if spec["kind"] == "docs":
            samples, refused = work_docs(spec["actions"], spec["repeat"], folder)
        elif spec["kind"] == "panel":
            samples, refused = work_panel(spec["repeat"], folder), 0
        else:
            samples, refused = work_player(spec["repeat"], folder), 0
    import rpgkernel
    print(json.dumps({"samples": samples, "refused": refused, "rpgkernel": rpgkernel.__file__}))


# -- the driver ----------------------------------------------------------------------------------------
def run_worker(python: str, root: Path, kind: str, repeat: int, actions: list[dict]) -> dict:
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8") as f:
        json.dump({"kind": kind, "repeat": repeat, "actions": actions}, f, ensure_ascii=False)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    try:
        out = subprocess.run([python, __file__, "--worker", str(root), f.name], capture_output=True, text=True,
                             env=env, cwd=tempfile.gettempdir(), check=False)
    finally:
        os.unlink(f.name)
    if out.returncode:
        raise SystemExit(f"{root}: the {kind} worker failed:\n{out.stderr[-3000:]}")
    found = json.loads(out.stdout.strip().splitlines()[-1])
    if not Path(found["rpgkernel"]).resolve().is_relative_to(root.resolve()):
        raise SystemExit(f"{root}: the worker imported rpgkernel from {found['rpgkernel']}")
    return found


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def row(checkout: str, kind: str, found: dict) -> list[str]:
    cpu = [s[0] for s in found["samples"]]
    wall = [s[1] for s in found["samples"]]

    def ms(x: float) -> str:
        return f"{x * 1000:,.1f}"
    p95 = percentile(cpu, 0.95)
    return [checkout, kind, str(len(cpu)), str(found["refused"]), ms(statistics.median(cpu)), ms(p95), ms(max(cpu)),
            ms(statistics.median(wall)), ms(percentile(wall, 0.95)), ms(max(wall)), "yes" if p95 <= GOAL else "NO"]


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f} ({os.cpu_count()} cores)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", type=Path, help="an older checkout with its own .venv, timed beside this one")
    parser.add_argument("--repeat", type=int, default=3, help="rounds over the docs' actions (clicks: ten times)")
    parser.add_argument("--only", default=",".join(KINDS), help=f"kinds, comma-separated: {','.join(KINDS)}")
    parser.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    opts = parser.parse_args()
    if opts.worker:
        return worker(*opts.worker)
    checkouts = [("this", sys.executable, ROOT)]
    if opts.reference is not None:
        sys.path.insert(0, str(HERE))
        from bench import reference_python
        python, said = reference_python(opts.reference)
        print(said)
        checkouts.append(("reference", python, opts.reference.resolve()))
    sys.path.insert(0, str(ROOT))
    actions = doc_actions()
    cells = sum(len(step["cells"]) for page in actions for step in page["steps"] if "cells" in step)
    print(f"goal: p95 CPU <= {GOAL * 1000:.0f} ms per action; {cells} example cells of {len(actions)} docs pages, "
          "each page gone down in its ruleset (pages of no ruleset: in each)")
    print(f"load average before: {load()}")
    rows = []
    for kind in opts.only.split(","):
        repeat = opts.repeat if kind == "docs" else 10 * opts.repeat
        for name, python, root in checkouts:
            rows.append(row(name, kind, run_worker(python, root, kind, repeat, actions if kind == "docs" else [])))
    print(f"load average after:  {load()}")
    head = ["checkout", "actions", "n", "refused", "CPU p50 ms", "CPU p95 ms", "CPU max ms",
            "wall p50 ms", "wall p95 ms", "wall max ms", "p95 CPU <= goal"]
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    for r in [head, *rows]:
        print("  ".join(c.rjust(w) if i >= 2 else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))))


if __name__ == "__main__":
    main()
