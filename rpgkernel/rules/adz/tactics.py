"""How a forecast plays an AdZ fight (the kit's ``Tactics``; the rules stay the engine's).

- Every figure attacks its target in melee with its first melee weapon (``angriff``, ``waffe=`` only
  where another weapon comes first); the forecast knows no distances, so no ranged attack. Every
  attacked figure defends (``verteidigt`` on the line; an open choice ``verteidigen`` it takes; a
  reaction: the engine halves the next one's dice, Runden); no manoeuvres, two weapons, specialisations
  or spells.
- The luck pool (Glückspool), offered once per attack after its rolls: the attacker spends it on its
  attack roll when the attack did not hit; the target, when the hit left damage, on its defence roll
  (its resistance roll if it did not defend). Nobody else, and never on a roll that went their way.
- The weakest has the fewest free steps on either damage track (the last step of either takes a
  figure out); the most dangerous does the most damage with its attack on average (``kampfplan``'s
  exact preview, against each foe it has).
"""

from __future__ import annotations

from ..figure import Figure
from ..resolution import Resolution
from ..tactics import Action, Fight, Tactics
from .combat import kampfplan
from .settings import EINSTELLUNGEN
from .sheet import GEISTIG, KOERPERLICH, waffen

LUCK = "glück"
DEFEND = "verteidigen"


class AdzTactics(Tactics):
    def action(self, actor: Figure, target: Figure, fight: Fight) -> Action | None:
        return Action("angriff", (actor.name,), (target.name,), {**_weapon(actor, fight), "verteidigt": True})

    def decide(self, resolution: Resolution, fight: Fight) -> list[Action]:
        """The target defends; the luck pool where an attack did not go one's way, else nobody spends it."""
        defend = next((c for c in resolution.choices if c.key == DEFEND), None)
        if defend is not None:
            return [Action(DEFEND, defend.who[:1])]
        luck = next((c for c in resolution.choices if c.key == LUCK), None)
        o = resolution.outcome
        if luck is None or resolution.action != "angriff" or "treffer" not in o:
            return super().decide(resolution, fight)
        a, v = resolution.actors[0], resolution.targets[0]
        if not o["treffer"]:
            who, roll = a, "angriff"
        elif o["schaden"]:
            who, roll = v, "widerstand" if o["verteidigung"] is None else "verteidigung"
        else:
            who, roll = "", ""
        if who in luck.who and roll in luck.options:
            return [Action(LUCK, (who,), (), {"wurf": roll})]
        return super().decide(resolution, fight)

    def vitality(self, figure: Figure) -> float:
        return float(min(figure.current(KOERPERLICH), figure.current(GEISTIG)))

    def threat(self, figure: Figure, fight: Fight) -> float:
        """The mean damage its attack does to a foe (averaged over its standing foes)."""
        foes = fight.standing(foes_of=figure.side)
        daten = EINSTELLUNGEN.of(fight.data)
        means = [kampfplan(figure, f, daten=daten, **_weapon(figure, fight)).res.preview["schaden"].mean for f in foes]
        return sum(means) / len(means) if means else 0.0


def _weapon(figure: Figure, fight: Fight) -> dict[str, str]:
    """The option naming the first melee weapon where a ranged one comes first ({} otherwise)."""
    listed = waffen(figure, EINSTELLUNGEN.of(fight.data))
    melee = next((w for w in listed if not w.fernkampf), None)
    return {"waffe": melee.name} if melee is not None and melee is not listed[0] else {}
