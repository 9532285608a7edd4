"""A notebook run in a real Python kernel (nbclient), as a user's notebook runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def executed(cells: list[str], folder: Path | None = None, timeout: int = 60, **client: Any) -> Any:
    """The notebook of ``cells`` after a real kernel ran it (in ``folder``, if given); ``client``:
    further NotebookClient options (``store_widget_state``)."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.v4.new_notebook(metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                           "language": "python"}})
    nb.cells = [nbformat.v4.new_code_cell(c) for c in cells]
    resources = {"metadata": {"path": str(folder)}} if folder is not None else {}
    NotebookClient(nb, timeout=timeout, kernel_name="python3", resources=resources, **client).execute()
    return nb
