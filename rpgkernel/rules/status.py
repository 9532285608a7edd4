"""A figure's state, one slot of a ruleset (``Ruleset.status``): the conditions the ruleset knows, when a
figure is out of the fight and why, and what players are told of it. A ruleset subclasses ``Status``
where its seed says so; the default knows no condition, keeps every figure in the fight and tells
players nothing.
"""

from __future__ import annotations

from typing import Any, Mapping

from .figure import Figure


class Status:
    """What a ruleset says of a figure's state; the encounter, the panel and the player view read it."""

    #: condition name -> German description
    conditions: Mapping[str, str] = {}

    def out_of_fight(self, figure: Figure | Mapping[str, Any], data: Mapping[str, Any] | None = None) -> str | None:
        """Why ``figure`` (a view, or the record the campaign keeps) can no longer act, in the seed's
        words (a state such as "tot"), or None while it can; read from its state as it stands, so it
        ends by itself with the state (healing, undo). ``data``: the GM's data its encounter sees."""
        return None

    def player_state(self, figure: Figure | Mapping[str, Any], data: Mapping[str, Any] | None = None) -> str | None:
        """What players are told of ``figure``'s state where the GM shows no exact values: a
        description in the seed's terms ("verwundet"), never a number, or None for nothing; ``data``
        as for ``out_of_fight``."""
        return None
