"""Where the campaign state finds a ruleset.

The state never imports the rules at run time: the top hands it the ruleset lookup (``parts.ruleset``). What it
asks of one (sheets, resources and their limits, the order of a fight, who is out of the fight, what
players are told) is the kit's ``Ruleset`` itself, its type read from the kit, never restated here; the
initiative reads the combatants as the kit's views (``figure``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from .. import parts

if TYPE_CHECKING:
    from ..rules.base import Ruleset
    from ..rules.figure import Figure

    Rulebook = Ruleset


def rulebook(key: str | None) -> Rulebook:
    """The ruleset for ``key`` (None: play without one); raises for an unknown key."""
    found: Rulebook = parts.ruleset(key)
    return found


def figure(record: Mapping[str, Any]) -> Figure:
    """``record`` (a combatant as ``model.seen_by_rules`` gives it) as the kit's view."""
    found: Figure = parts.figure(record)
    return found
