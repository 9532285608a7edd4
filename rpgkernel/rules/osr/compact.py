"""The compact model of an OSR fight under the kit's tactics (``rules.compact``).

A combatant's state is its TP. A turn is the tactics' melee attack with the weapon in hand: the chance
and damage of its ``angriff.plan``, landing within the TP's limits, on a foe the seed picks at random
(docs/mitwirken.md).

Covered: figures of this ruleset without a missile weapon or a condition that counts down or that a
hit ends, where the rules allow every attack.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from rpgkernel.rules.kit import Compact, Figure, Ruleset
from ...errors import RpgError
from .angriff import Plan, angriff_plaene
from .ausser_gefecht import out_of_fight
from .settings import EINSTELLUNGEN, Einstellungen
from .sheet import waffe_von

TP = "TP"
#: conditions the fight itself ends: a hit breaks a spell being cast (Zaubersprüche)
ENDET_IM_KAMPF = ("zaubert",)


def covers(figures: Sequence[Figure]) -> bool:
    """Whether the model may cover a fight of ``figures`` (``OsrCompact.allowed`` checks the attacks):
    figures of this ruleset with TP, none holding a missile weapon, no condition that counts down
    or that a hit ends."""
    try:
        return all(f.ruleset in (None, "osr") and f.resource(TP) is not None and not waffe_von(f).fernkampf
                   and all(c.get("remaining") is None and n not in ENDET_IM_KAMPF for n, c in f.conditions.items())
                   for f in figures)
    except RpgError:   # a sheet the procedures refuse: they say why
        return False


class OsrCompact(Compact):
    random_target = True

    def __init__(self, figures: Sequence[Figure], data: Mapping[str, Any], engine: Ruleset) -> None:
        super().__init__(figures)
        self.data, self.engine = data, engine
        self.settings: Einstellungen = EINSTELLUNGEN.of(data)

    def allowed(self) -> bool:
        """Whether every standing combatant may attack every standing foe as the tactics do (an attack
        the rules refuse stops the procedure path with the reason)."""
        up = [i for i, f in enumerate(self.figures) if self.standing(i, self.start(i))]
        try:
            for a in up:
                for t in up:
                    if self.figures[t].side != self.figures[a].side:
                        self.plan(a, t, self.start(t))
        except RpgError:
            return False
        return True

    def start(self, i: int) -> int:
        return self.figures[i].current(TP)

    def view(self, i: int, state: int) -> Figure:  # type: ignore[override]
        return self.figures[i].changed({TP: state})

    def standing(self, i: int, state: int) -> bool:  # type: ignore[override]
        return out_of_fight(self.view(i, state), self.settings) is None

    def resources(self, i: int, state: int) -> dict[str, int]:
        return {**{k: r.value for k, r in self.figures[i].resources.items()}, TP: state}

    def plan(self, actor: int, target: int, state: int) -> Plan:
        """The attack of ``actor`` with the weapon in hand on ``target`` at ``state`` (``angriff``)."""
        [found] = angriff_plaene(self.figures[actor], self.view(target, state), {}, self.settings)
        return found

    def hit(self, actor: int, target: int, state: int) -> list[tuple[float, int]]:  # type: ignore[override]
        """The target's TP after the attack: a miss (or no damage) leaves them, a hit's damage lands
        within their limits."""
        attack = self.plan(actor, target, state)
        me = self.view(target, state)
        out = {state: 1 - attack.p}
        for amount, q in attack.schaden.pmf().items():
            landed = self.engine.sheet.within_limits(me, TP, -amount, self.data) if amount > 0 else []
            nxt = state + sum(s.by for s in landed if s.resource == TP)
            out[nxt] = out.get(nxt, 0.0) + attack.p * q
        return [(q, s) for s, q in out.items() if q]
