"""A compact model of a fight: the kit slot ``Tactics.compact``.

A forecast (``rpgkernel.forecast``) plays a small fight exactly and a large one fast on it, beside
the procedure path. Each combatant stands in a small hashable state (Bastionland: GD, VIG and the
conditions the fight brought); ``hit`` gives the exact chance of each state the target of one turn's
action is left in, computed with the ruleset's own functions under the same tactics as the procedures.
A ruleset offers a model only for fights it covers wholly (``Tactics.compact`` returns None otherwise),
and tests check it against the procedure path statistically.

The model reaches the tactics' target picking through ``view``: a figure view of a combatant in a
state, as the procedures would show it.
"""

from __future__ import annotations

from typing import Hashable, Sequence

from .figure import Figure

State = Hashable


class Compact:
    """The compact model of one fight; ``figures`` are the combatants at the start, in the encounter's
    order (indices below are into it). A ruleset subclasses it and fills every method."""

    def __init__(self, figures: Sequence[Figure]) -> None:
        self.figures = tuple(figures)

    def start(self, i: int) -> State:
        """Combatant ``i``'s state at the start."""
        raise NotImplementedError

    def hit(self, actor: int, target: int, state: State) -> list[tuple[float, State]]:
        """The exact chances of the states ``target`` (in ``state``) is left in after ``actor``'s turn
        against it (the chances add up to 1). In the fights a model covers, a turn changes its target
        alone, and what an actor does depends on its sheet, never on its state."""
        raise NotImplementedError

    def view(self, i: int, state: State) -> Figure:
        """Combatant ``i`` in ``state`` as a figure view."""
        raise NotImplementedError

    def standing(self, i: int, state: State) -> bool:
        """Whether combatant ``i`` in ``state`` is still in the fight."""
        raise NotImplementedError

    def resources(self, i: int, state: State) -> dict[str, int]:
        """Each of combatant ``i``'s resources in ``state``."""
        return {k: r.value for k, r in self.view(i, state).resources.items()}
