"""Who is out of the fight: read from the state as it stands, never stored.

Each combatant's ruleset says whether it can still act (``Ruleset.status.out_of_fight``: "tot",
"bewusstlos", …); the answer follows the state, so a figure healed, or brought back by an undo,
is in the fight again without anything written. An encounter skips the turns of those out of the
fight while its setting ``skip_out`` is on (the default); nothing is removed from its order.
"""

from __future__ import annotations

from typing import Any, Mapping, cast

from . import model
from .rulebook import rulebook

SKIP = "skip_out"   # the encounter record's key of the setting


def reason(state: Mapping[str, Any], name: str, encounter: str, data: Mapping[str, Any] | None = None) -> str | None:
    """Why the combatant ``name`` of ``encounter`` can no longer act (German), or None; ``data``: the
    GM's data the encounter sees (``model.data``), when the caller has it already."""
    record = model.seen_by_rules(state, name, encounter, copied=False)   # its ruleset reads it through a view
    if record is None:
        return None
    ruleset = record.get("ruleset", state["encounters"][encounter]["ruleset"])
    return rulebook(ruleset).status.out_of_fight(record, model.data(state, encounter) if data is None else data)


def reasons(state: Mapping[str, Any], encounter: str) -> dict[str, str]:
    """Each combatant of ``encounter`` out of the fight -> why, in the order they joined."""
    data = model.data(state, encounter)
    found = {}
    for name in state["encounters"][encounter]["combatants"]:
        why = reason(state, name, encounter, data)
        if why is not None:
            found[name] = why
    return found


def skips(enc: Mapping[str, Any]) -> bool:
    """Whether the encounter (its record) skips the turns of those out of the fight."""
    return cast("bool", enc.get(SKIP, True))
