"""How the GM's views mark a combatant after its name: hidden, and out of the fight with the reason.

One source for every GM view that names combatants (the journal's initiative line, ``%begegnung``'s
order line, the encounter's table); a player sees none of them (``sharing`` shares no hidden one).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..messages import t
from . import fighting


def marks(state: Mapping[str, Any], encounter: str) -> dict[str, list[str]]:
    """Each combatant of ``encounter`` with a mark -> its marks: "(verborgen)", then
    "(außer Gefecht: tot)" with its ruleset's reason; in the order they joined."""
    out = fighting.reasons(state, encounter)
    found: dict[str, list[str]] = {}
    for name, record in state["encounters"][encounter]["combatants"].items():
        shown = [t("encounter.hidden")] if record.get("hidden") else []
        if name in out:
            shown.append(t("encounter.out", reason=out[name]))
        if shown:
            found[name] = shown
    return found


def marked(state: Mapping[str, Any], encounter: str, names: Sequence[str]) -> list[str]:
    """``names`` as the GM sees them: ``Hauptmann (verborgen)``, ``Goblin 1 (außer Gefecht: tot)``."""
    found = marks(state, encounter)
    return [" ".join([name, *found.get(name, [])]) for name in names]
