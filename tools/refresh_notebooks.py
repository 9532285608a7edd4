"""Run the example notebooks and store them with fresh outputs, as the tests expect them.

    .venv/bin/python tools/refresh_notebooks.py [NAME.ipynb ...]

Each notebook runs in a real kernel in its own folder (seeded, so its outputs are the same on
every run). Stored: text/plain and text/html of every output, no live-widget views (a widget
needs its kernel; stored, the notebook shows the text and HTML forms), no timing metadata.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

FOLDER = Path(__file__).resolve().parent.parent / "example_notebooks"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def refresh(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        for out in cell.get("outputs", []):
            out.get("data", {}).pop(WIDGET_VIEW, None)
            out.get("metadata", {}).pop(WIDGET_VIEW, None)
    nbformat.write(nb, path)


def main(names: list[str]) -> None:
    paths = [FOLDER / n for n in names] if names else sorted(FOLDER.glob("*.ipynb"))
    for path in paths:
        print(f"{path.name} ...", flush=True)
        refresh(path)


if __name__ == "__main__":
    main(sys.argv[1:])
