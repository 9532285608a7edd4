"""The moments of the example notebooks where a decision stands open in a fight.

Each notebook's code cells run in order in an IPython shell with rpgkernel loaded, in a folder of
their own; after every cell whose campaign has an open resolution of its active encounter's ruleset,
a copy of the campaign's state is kept with the notebook's name and the cell's first line. The
forecast benchmark plays these moments on both paths, and the tests check the compact path against
the procedure path on them.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ("00_Start", "adz", "bastionland", "kampfwerte", "midgard", "osr")


@dataclass(frozen=True)
class Point:
    """One open moment: the notebook, the number of the code cell after which it stands, the cell's
    first line, the encounter and the campaign's state then (a copy)."""

    notebook: str
    cell: int
    line: str
    encounter: str
    state: dict[str, Any]

    @property
    def label(self) -> str:
        return f"{self.notebook}[{self.cell}] {self.line}"


def open_points(name: str) -> list[Point]:
    """Every moment of ``example_notebooks/<name>.ipynb`` after a cell with a decision still open."""
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.utils.capture import capture_output

    from rpgkernel import session
    cells = json.loads((ROOT / "example_notebooks" / f"{name}.ipynb").read_text(encoding="utf-8"))["cells"]
    shell = InteractiveShell.instance()
    if "rpgkernel" not in shell.extension_manager.loaded:
        shell.run_line_magic("load_ext", "rpgkernel")
    found: list[Point] = []
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)
        session._current = None
        try:
            number = 0
            for cell in cells:
                if cell["cell_type"] != "code":
                    continue
                number += 1
                source = "".join(cell["source"])
                with capture_output():
                    shell.run_cell(source)
                campaign = session.current().campaign
                state = campaign.state if campaign is not None else None
                encounter = state and state.get("active_encounter")
                if not encounter or encounter not in state["encounters"]:
                    continue
                ruleset = state["encounters"][encounter]["ruleset"]
                if any(r.get("ruleset") == ruleset for r in state.get("pending", {}).values()):
                    line = next((x for x in source.splitlines() if x and not x.startswith("%%")), source)
                    found.append(Point(name, number, line.strip(), encounter, copy.deepcopy(state)))
        finally:
            with contextlib.suppress(Exception):
                session.current().close_campaign()
            session._current = None
            os.chdir(here)
    return found
