"""The notebook widgets (anywidget): dice tray, distribution chart,
encounter panel, character sheet. Only this package and the magics import
IPython; the engines work without it.
"""

from __future__ import annotations

__all__: list[str] = []
