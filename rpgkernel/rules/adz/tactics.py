"""How a forecast plays an AdZ fight (the kit's ``Tactics``; the rules stay the engine's).

Every figure attacks its target in melee with its first melee weapon, every attacked figure
defends, and the luck pool goes on the own roll that went wrong. The tactics are told on the
ruleset's page (``docs/adz.md``, "Prognose: die Taktik"); ``compact.AdzCompact`` plays the same
tactics exactly or fast.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from rpgkernel.rules.kit import Action, Compact, Fight, Figure, Resolution, Tactics
from .combat import VERTEIDIGEN, kampfplan
from .compact import AdzCompact, covers
from .damage import out_of_fight
from .settings import EINSTELLUNGEN
from .sheet import GEISTIG, KOERPERLICH, waffen

LUCK = "glück"


class AdzTactics(Tactics):
    def action(self, actor: Figure, target: Figure, fight: Fight) -> Action | None:
        return Action("angriff", (actor.name,), (target.name,), {**_weapon(actor, fight), "verteidigt": True})

    def decide(self, resolution: Resolution, fight: Fight) -> list[Action]:
        """The target defends; the luck pool where an attack did not go one's way (``glueck_wurf``), else
        nobody spends it."""
        defend = next((c for c in resolution.choices if c.key == VERTEIDIGEN), None)
        if defend is not None:
            return [Action(VERTEIDIGEN, defend.who[:1])]
        luck = next((c for c in resolution.choices if c.key == LUCK), None)
        o = resolution.outcome
        if luck is None or resolution.action != "angriff" or "treffer" not in o:
            return super().decide(resolution, fight)
        roll = self.glueck_wurf(o["treffer"], o["schaden"], o["verteidigung"] is not None)
        who = resolution.actors[0] if roll == "angriff" else resolution.targets[0]
        if roll is not None and who in luck.who and roll in luck.options:
            return [Action(LUCK, (who,), (), {"wurf": roll})]
        return super().decide(resolution, fight)

    def glueck_wurf(self, treffer: bool, schaden: int, verteidigt: bool) -> str | None:
        """The roll of an attack the luck pool goes on (its figure's), from whether it hit, its final
        damage and whether the target defended: the attack after a miss or a parry; the target's
        defence (else its resistance) after a hit that left damage; None after a hit without damage."""
        if not treffer:
            return "angriff"
        if schaden:
            return "verteidigung" if verteidigt else "widerstand"
        return None

    def compact(self, figures: Sequence[Figure], data: Mapping[str, Any]) -> Compact | None:
        """The compact model (``compact.AdzCompact``) of a fight it covers: figures of this ruleset with
        both damage tracks and the luck pool, each able to attack every foe in melee, an injury malus
        that leaves a standing figure its dice, no maintained spell and no condition that counts down but
        the reactions of this round (``compact.covers``)."""
        if not covers(figures, data):
            return None
        model = AdzCompact(figures, data, self)
        return model if model.attacks() else None

    def vitality(self, figure: Figure) -> float:
        return float(min(figure.current(KOERPERLICH), figure.current(GEISTIG)))

    def threat(self, figure: Figure, fight: Fight) -> float:
        """The mean damage its attack does to a foe (averaged over its standing foes); none from a
        figure out of the fight."""
        if out_of_fight(figure) is not None:
            return 0.0
        foes = fight.standing(foes_of=figure.side)
        daten = EINSTELLUNGEN.of(fight.data)
        means = [kampfplan(figure, f, daten=daten, **_weapon(figure, fight)).res.preview["schaden"].mean for f in foes]
        return sum(means) / len(means) if means else 0.0


def _weapon(figure: Figure, fight: Fight) -> dict[str, str]:
    """The option naming the first melee weapon where a ranged one comes first ({} otherwise)."""
    listed = waffen(figure, EINSTELLUNGEN.of(fight.data))
    melee = next((w for w in listed if not w.fernkampf), None)
    return {"waffe": melee.name} if melee is not None and melee is not listed[0] else {}
