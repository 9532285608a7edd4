"""Front-end files (CSS, ES modules) kept in the repository's ``widgets/``.

The wheel carries them as ``rpgkernel/widgets/``; a source checkout
(editable install) reads them from ``widgets/`` beside the package.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

_HERE = Path(__file__).resolve().parent


@cache
def asset(name: str) -> str:
    """The text of ``widgets/<name>``."""
    for folder in (_HERE / "widgets", _HERE.parent / "widgets"):
        path = folder / name
        if path.is_file():
            return path.read_text(encoding="utf-8")
    raise FileNotFoundError(f"widgets/{name}")
