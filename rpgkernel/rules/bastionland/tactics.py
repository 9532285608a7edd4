"""How a forecast plays a Mythic Bastionland fight (the kit's ``Tactics``; the rules stay the engine's).

Melee attacks on the weakest foe the attack can hurt (``hurts``), a warband's Blast on every standing
individual, Deny where it lowers the damage, no gambits or Focus, morale after every turn. Told in
``docs/bastionland.md`` ("Prognose: die Taktik")."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from rpgkernel.rules.kit import PASS, Action, Advice, Fight, Figure, Request, Resolution, Tactics
from .advice import advise
from .attack import attack_pool, damage_dist
from .compact import BastionlandCompact, covers
from .core import einzelne, gruppen, wankt
from .damage import ignores
from .sheet import kind


class BastionlandTactics(Tactics):
    def action(self, actor: Figure, target: Figure, fight: Fight) -> Action | None:
        hit = self.area(actor, target, fight.standing(foes_of=actor.side))
        return Action("angriff", (actor.name,), tuple(f.name for f in hit))

    def advice(self, request: Request, resolution: Resolution) -> list[Advice]:
        """Deny, Gambits and Focus of an open attack, each option with its exact consequences (``advice``)."""
        return advise(request, resolution)

    @staticmethod
    def area(actor: Figure, target: Figure, foes: Sequence[Figure]) -> list[Figure]:
        """Whom ``actor``'s attack on ``target`` hits, of the standing ``foes`` (in order): a warband's
        attack on an individual causes Blast, which hits everyone in the area (Kriegsscharen;
        Besondere Angriffe): every individual among the foes; any other attack the target alone."""
        if kind(actor) == "Kriegsschar" and kind(target) == "Person":
            return [f for f in foes if kind(f) == "Person"]
        return [target]

    def hurts(self, actor: Figure, target: Figure) -> bool:
        """Whether ``actor``'s attack can hurt ``target``: a warband's attack (large scale, with Blast on an
        individual) can; an individual's leaves a warband unhurt (Kriegsscharen; ``damage.ignores``)."""
        warband = kind(actor) == "Kriegsschar"
        return ignores(target, blast=warband and kind(target) == "Person", large_scale=warband) is None

    def denies(self, who: Figure, faces: Sequence[int], armour: int) -> bool:
        """Whether ``who`` denies the highest of ``faces`` (highest first) of an attack against it with
        ``armour``: a Knight not Fatigued, where the next die or the armour leaves less damage."""
        return bool(who.value("spielfigur", False)) and not who.has("Fatigued") \
            and faces[0] > max(faces[1] if len(faces) > 1 else 0, armour)

    def decide(self, resolution: Resolution, fight: Fight) -> list[Action]:
        """A Deny by each target where it lowers its damage (a Blast offers one per target, ``deny:Name``;
        the lines decide the whole attack at once), else a pass."""
        taken = []
        for choice in resolution.choices:
            verb, _, aim = choice.key.partition(":")
            who = fight.combatants.get(choice.who[0]) if choice.who else None
            target = fight.combatants.get(aim or (resolution.targets[0] if resolution.targets else ""))
            if verb != "deny" or who is None or target is None:
                continue
            rolled = resolution.outcome.get("ziele", {}).get(aim, {}) if aim else resolution.outcome
            faces = sorted(rolled.get("würfel", ()), reverse=True) or [0]
            if self.denies(who, faces, target.value("ruestung", 0)):
                taken.append(Action("deny", (who.name,), (aim,) if aim else ()))
        return taken or [Action(PASS, (next(n for c in resolution.choices for n in c.who[:1]),))]

    def morale(self, before: Fight, after: Fight) -> list[Action]:
        """Wankender Kampfeswille after a turn: the individuals who became wounded and still stand,
        then each group that came to have lost at least half its members (see the module)."""
        everyone = list(after.combatants.values())
        alone = {f.name for f in einzelne(everyone)}
        wounded = tuple(f.name for f in after.standing() if f.name in alone and wankt(f)
                        and f.name in before.combatants and not wankt(before.combatants[f.name]))
        actions = [Action("moral", wounded)] if wounded else []
        for group in gruppen(everyone):
            names = [f.name for f in group]
            lost = sum(n in after.out for n in names)
            left = [n for n in names if n not in after.out]
            if left and 2 * sum(n in before.out for n in names) < len(names) <= 2 * lost:
                actions.append(Action("moral", tuple(left), options={"gruppe": True, "anführer": left[0],
                                                                     "verloren": lost, "größe": len(names)}))
        return actions

    def vitality(self, figure: Figure) -> float:
        """Guard and Vigour left (Schaden: damage takes GD first, then VIG)."""
        return float(figure.current("GD") + figure.current("VIG"))

    def threat(self, figure: Figure, fight: Fight) -> float:
        """The mean damage of its attack against no armour."""
        return damage_dist(attack_pool([figure], figure), 0).mean

    def compact(self, figures: Sequence[Figure], data: Mapping[str, Any]) -> BastionlandCompact | None:
        """Persons and warbands without conditions that count down (``compact.covers``)."""
        return BastionlandCompact(figures, self) if covers(figures) else None
