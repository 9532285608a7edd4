"""How a forecast plays an OSR fight (the kit's ``Tactics``; the rules stay the engine's).

Every figure attacks with the weapon in hand (``angriff``, no options), all in one melee; the seed
picks the target at random, so the GM's ``zielwahl`` has no say. Told in ``docs/osr.md``
("Prognose: die Taktik"); ``compact`` plays melee fights exactly or fast.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...errors import RpgError
from ...messages import Text
from rpgkernel.rules.kit import Action, Fight, Figure, Tactics, ruleset as get
from .angriff import darf_angreifen
from .compact import OsrCompact, covers
from .settings import OsrError
from .sheet import waffe_von


class OsrTactics(Tactics):
    target_rule = Text("osr.forecast_target_rule")

    def action(self, actor: Figure, target: Figure, fight: Fight) -> Action | None:
        try:
            darf_angreifen(actor, target)
        except OsrError:
            return None
        return Action("angriff", (actor.name,), (target.name,))

    def target(self, actor: Figure, foes: Sequence[Figure], fight: Fight) -> Figure:
        """A foe at random (melee); with a missile weapon in hand, anyone else in the melee at random."""
        pool = list(foes)
        if waffe_von(actor).fernkampf:
            pool = [f for f in fight.standing() if f.name != actor.name]
        if len(pool) == 1:
            return pool[0]
        return pool[fight.roller.roll(f"W{len(pool)}").total - 1]

    def compact(self, figures: Sequence[Figure], data: Mapping[str, Any]) -> OsrCompact | None:
        """Melee fights (``compact``: no missile weapon in hand, no condition that counts down or that a
        hit ends, every attack allowed), with the GM's data."""
        if not covers(figures):
            return None
        try:   # the engine the campaign changes the TP through (``state.resources``)
            model = OsrCompact(figures, data, get("osr"))
        except RpgError:   # the GM's settings the procedures refuse: they say why
            return None
        return model if model.allowed() else None
