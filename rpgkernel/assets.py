"""Front-end files (CSS, ES modules) kept in the repository's ``widgets/``.

The wheel carries them as ``rpgkernel/frontend/``; a source checkout
(editable install) reads them from ``widgets/`` beside the package.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

_HERE = Path(__file__).resolve().parent


@cache
def asset_path(name: str) -> Path:
    """Where ``widgets/<name>`` is: inside the installed package or in the source tree."""
    for folder in (_HERE / "frontend", _HERE.parent / "widgets"):
        path = folder / name
        if path.is_file():
            return path
    raise FileNotFoundError(f"widgets/{name}")


@cache
def asset(name: str) -> str:
    """The text of ``widgets/<name>``."""
    return asset_path(name).read_text(encoding="utf-8")
