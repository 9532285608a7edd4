"""The notebook widgets (anywidget): dice tray, distribution chart,
encounter panel, character sheet, hex map. Only this package and the magics import
IPython; the engines work without it.
"""

from __future__ import annotations

from .chart import DistributionChart
from .encounter import EncounterPanel
from .hexmap import HexMap
from .sheet import CharacterSheet
from .tray import DiceTray

__all__: list[str] = ["CharacterSheet", "DiceTray", "DistributionChart", "EncounterPanel", "HexMap"]
