"""The compact model of a fight without a ruleset under the free mode's tactics (``rules.compact``).

A combatant's state is the value of the resource that counts for it (``sheet.ressource_von``). A turn is
the tactics' attack: a hit with the chance ``treffer`` of the GM's data ``prognose`` is the verb
``schaden`` within the resource's limits.

Covered: every fight of figures that have the resource that counts.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from rpgkernel.rules.kit import Compact, Figure
from .schaden import betrag, nach, out_of_fight
from .sheet import ressource_von


def covers(figures: Sequence[Figure], data: Mapping[str, Any]) -> bool:
    """Whether the model covers a fight of ``figures``: figures of the free mode, each with the
    resource that counts."""
    return all(f.ruleset in (None, "") and ressource_von(f, data) is not None for f in figures)


class FreiCompact(Compact):
    def __init__(self, figures: Sequence[Figure], data: Mapping[str, Any],
                 attacks: Sequence[tuple[float, str]]) -> None:
        """``attacks``: each combatant's chance to hit and its damage (a dice expression)."""
        super().__init__(figures)
        self.data = data
        self.names = [ressource_von(f, data) or "" for f in figures]
        self.attacks = list(attacks)

    def start(self, i: int) -> int:
        return self.figures[i].current(self.names[i])

    def view(self, i: int, state: int) -> Figure:  # type: ignore[override]
        return self.figures[i].changed({self.names[i]: state})

    def standing(self, i: int, state: int) -> bool:  # type: ignore[override]
        return out_of_fight(self.view(i, state), self.data) is None

    def hit(self, actor: int, target: int, state: int) -> list[tuple[float, int]]:  # type: ignore[override]
        """The target's values after the actor's attack: a miss leaves it, a hit takes the amount off."""
        p, schaden = self.attacks[actor]
        me = self.view(target, state)
        out = {state: 1 - p}
        for amount, q in betrag(schaden).pmf().items():
            nxt = nach(me, self.names[target], -amount, self.data)
            out[nxt] = out.get(nxt, 0.0) + p * q
        return [(q, s) for s, q in out.items() if q]
