"""How a forecast plays a Midgard fight (the kit's ``Tactics``; the rules stay the engine's).

Every figure attacks its target with its first weapon; a figure with divine grace has its own
failed attack or defence roll repeated, one point per roll. Told in ``docs/midgard.md``
("Prognose: die Taktik"); ``compact`` (each own roll as ``eigener_wurf`` plays it) plays a fight
exactly or fast.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Callable, Mapping, Sequence

from ...dice import dist
from rpgkernel.rules.kit import Action, Advice, Fight, Figure, Request, Resolution, Tactics
from .compact import MidgardCompact, modell
from .core import ew_gelingt, ww_gelingt
from .gnade import CHOICE
from .kampf import W20, Wurf, angriffslage
from .settings import EINSTELLUNGEN
from .sheet import GNADE


class MidgardTactics(Tactics):
    def action(self, actor: Figure, target: Figure, fight: Fight) -> Action | None:
        return Action("angriff", (actor.name,), (target.name,))

    def decide(self, resolution: Resolution, fight: Fight) -> list[Action]:
        """Divine grace on the figure's own failed roll of an attack, else the roll stands."""
        grace = next((c for c in resolution.choices if c.key == CHOICE), None)
        who = _failed_own_roll(resolution, fight) if grace is not None else None
        return [Action(CHOICE, (who,))] if who is not None and who in grace.who else super().decide(resolution, fight)

    def advice(self, request: Request, resolution: Resolution) -> list[Advice]:
        """At a pause for divine grace, each holder's two ways (the roll stands or is repeated) with what
        each leads to, recorded by the roll chain as it pauses (``gnade.advice``); at a free choice of an
        innate ability, each ability with what it writes into the sheet (``angeboren``)."""
        return list(resolution.advice)

    def vitality(self, figure: Figure) -> float:
        return float(figure.current("LP"))

    def threat(self, figure: Figure, fight: Fight) -> float:
        """The mean LP its attack takes from a foe (averaged over its standing foes)."""
        cfg = EINSTELLUNGEN.of(fight.data)
        foes = fight.standing(foes_of=figure.side)
        return sum(angriffslage(figure, f, cfg=cfg).vorschau()["lp"].mean for f in foes) / len(foes) if foes else 0.0

    def compact(self, figures: Sequence[Figure], data: Mapping[str, Any]) -> MidgardCompact | None:
        """The fights ``compact.modell`` takes, each roll of an attack as ``eigener_wurf`` plays it."""
        return modell(figures, data, eigener_wurf)


def eigener_wurf(punkte: int) -> Wurf:
    """A figure's own roll of an attack (its EW: Angriff or WW: Abwehr) as these tactics play it
    (``decide``), for a figure with ``punkte`` of divine grace: one that fails is repeated with a point
    where the figure has one, and the repeat stands."""
    def wurf(gelingt: Callable[[int], bool]) -> dict[tuple[int, int], float]:
        faces = dist(W20).pmf()
        out: dict[tuple[int, int], float] = defaultdict(float)
        for face, p in faces.items():
            if punkte > 0 and not gelingt(face):
                for again, q in faces.items():
                    out[again, 1] += p * q
            else:
                out[face, 0] += p
        return dict(out)
    return wurf


def _standing_rolls(resolution: Resolution) -> list[tuple[int, bool]]:
    """The rolls of a resolution that stand, in order, as (value, whether it repeats a roll): a step
    with dice is a roll, a step of divine grace takes back the roll before it."""
    rolls: list[tuple[int, bool]] = []
    repeated = False
    for step in resolution.steps:
        if step.rule == GNADE:
            rolls.pop()
            repeated = True
        elif step.rolls:
            rolls.append((int(step.value or 0), repeated))
            repeated = False
    return rolls


def _failed_own_roll(resolution: Resolution, fight: Fight) -> str | None:
    """Who may want the roll an attack waits on repeated: the attacker after a failed EW: Angriff, the
    defender after a failed WW: Abwehr (the attack's rolls: EW, WW, damage, tables); None otherwise."""
    rolls = _standing_rolls(resolution)
    if resolution.action != "angriff" or not rolls or rolls[-1][1]:
        return None
    attacker = fight.combatants.get(resolution.actors[0]) if resolution.actors else None
    defender = fight.combatants.get(resolution.targets[0]) if resolution.targets else None
    if attacker is None or defender is None:
        return None
    cfg = EINSTELLUNGEN.of(fight.data)
    lage = angriffslage(attacker, defender, cfg=cfg)
    face = rolls[-1][0]
    if len(rolls) == 1:
        return None if ew_gelingt(face, face + lage.ew_wert, cfg.regeln) else attacker.name
    if len(rolls) == 2 and "treffer" not in resolution.outcome:
        defended = ww_gelingt(face, face + lage.abwehr + lage.ww_wm, resolution.outcome["angriff"], cfg.regeln)
        return None if defended else defender.name
    return None
