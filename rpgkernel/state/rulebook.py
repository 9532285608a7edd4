"""What the campaign state asks of a ruleset, and where it finds one.

The state never imports the rules: it finds a ruleset through ``wiring.ruleset``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Protocol, Sequence

from .. import wiring

if TYPE_CHECKING:
    from .resources import Landed


class SheetCheck(Protocol):
    open: bool
    fields: Mapping[str, Any]

    def label(self, name: str) -> str: ...

    def validate(self, sheet: Mapping[str, Any]) -> dict[str, Any]: ...


class Rulebook(Protocol):
    """The part of a ruleset the state uses: sheets, resources and their limits, segments, initiative
    and the order's rules, who is out of the fight and what players are told of a figure's state (``figure``: the record the ruleset reads,
    ``model.seen_by_rules``).

    ``data`` is the GM's data the figure's encounter sees (``model.data``): a ruleset's sheet and
    resources may follow its settings there.
    """

    key: str
    segments: int | None
    initiative_each_round: bool

    def sheet_for(self, data: Mapping[str, Any]) -> SheetCheck: ...

    def resources_for(self, sheet: Mapping[str, Any], data: Mapping[str, Any]) -> dict[str, dict[str, int]]: ...

    def within_limits(self, figure: Mapping[str, Any], resource: str, by: int,
                      data: Mapping[str, Any]) -> list[Landed]: ...

    def initiative_rolls(self, combatants: Mapping[str, Mapping[str, Any]], roller: Any,
                         data: Mapping[str, Any] | None = None) -> tuple[dict[str, int], dict[str, Any]]: ...

    def initiative_order(self, combatants: Mapping[str, Mapping[str, Any]],
                         rolls: Mapping[str, int], roller: Any = None) -> list[str]: ...

    def out_of_fight(self, figure: Mapping[str, Any], data: Mapping[str, Any] | None = None) -> str | None: ...

    def player_state(self, figure: Mapping[str, Any], data: Mapping[str, Any] | None = None) -> str | None: ...

    def join_initiative(self, name: str, combatants: Mapping[str, Mapping[str, Any]], rolls: Mapping[str, int],
                        roller: Any, data: Mapping[str, Any] | None = None
                        ) -> tuple[int, dict[str, Any], str | None]: ...

    def order_refusal(self, change: str, figure: Mapping[str, Any], overtaken: Sequence[Mapping[str, Any]],
                      rolls: Mapping[str, int]) -> str | None: ...

    def delay_after(self, figure: Mapping[str, Any], still_to_act: Sequence[Mapping[str, Any]]) -> str | None: ...


def rulebook(key: str | None) -> Rulebook:
    """The ruleset for ``key`` (None: play without one); raises for an unknown key."""
    found: Rulebook = wiring.ruleset(key)
    return found
