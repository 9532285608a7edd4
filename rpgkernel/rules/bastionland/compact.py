"""The compact model of a Mythic Bastionland fight under the kit's tactics (``rules.compact``).

A combatant's state: GD, VIG and the fight's conditions. A turn is the tactics' melee attack with its
exact damage and Deny, the SPI saves and morale; a warband's Blast hits everyone of its ``area``, each
target rolled for on its own. Why scars are left out: docs/mitwirken.md.

Covered: persons and warbands of this ruleset without conditions that count down."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, Sequence

from rpgkernel.rules.kit import Compact, Figure
from .attack import attack_pool, deny_outcomes
from .core import FLIEHT, einzelne, gruppen, save_chance, wankt
from .damage import exposed, folge, out_of_fight
from .sheet import kind, virtue

if TYPE_CHECKING:
    from .tactics import BastionlandTactics


class Stand(NamedTuple):
    """A combatant's state: GD, VIG, the conditions the fight brought."""

    gd: int
    vig: int
    zustaende: frozenset[str] = frozenset()


def covers(figures: Sequence[Figure]) -> bool:
    """Whether the model covers a fight of ``figures``: persons and warbands of this ruleset, no
    condition that counts down."""
    return all(f.ruleset in (None, "bastionland") and kind(f) in ("Person", "Kriegsschar")
               and all(c.get("remaining") is None for c in f.conditions.values()) for f in figures)


class BastionlandCompact(Compact):
    def __init__(self, figures: Sequence[Figure], tactics: BastionlandTactics) -> None:
        super().__init__(figures)
        self.tactics = tactics
        alone = {f.name for f in einzelne(self.figures)} if tactics.moral else set()
        self.alone = {i for i, f in enumerate(self.figures) if f.name in alone}

    def start(self, i: int) -> Stand:
        return Stand(virtue(self.figures[i], "GD"), virtue(self.figures[i], "VIG"))

    def view(self, i: int, state: Stand) -> Figure:  # type: ignore[override]
        return self.figures[i].changed({"GD": state.gd, "VIG": state.vig}, state.zustaende)

    def standing(self, i: int, state: Stand) -> bool:  # type: ignore[override]
        return out_of_fight(self.view(i, state)) is None

    def hit(self, actor: int, target: int, state: Stand) -> list[tuple[float, Stand]]:  # type: ignore[override]
        """The target's states after a melee attack (Angriffe; Deny; Schaden; Kriegsscharen: a warband's
        attack on an individual adds its W12, an individual's leaves a warband unhurt)."""
        me = self.view(target, state)
        armour = me.value("ruestung", 0)
        unhurt = not self.tactics.hurts(self.figures[actor], me)
        kept = save_chance(virtue(me, "SPI"))   # the SPI save after a Deny (Feats)
        out: dict[Stand, float] = {}
        for (amount, denied), p in deny_outcomes(attack_pool([self.figures[actor]], me), armour,
                                                 lambda faces: self.tactics.denies(me, faces, armour)).items():
            f = folge(0 if unhurt else amount, state.gd, state.vig, art=kind(me), schutzlos=exposed(me))
            after = state.zustaende | set(f.zustaende)
            for q, zustaende in ((kept, after), (1 - kept, after | {"Fatigued"})) if denied else ((1.0, after),):
                if q:
                    nxt = Stand(state.gd - f.gd, state.vig - f.vig, frozenset(zustaende))
                    for r, last in self.morale(target, state, nxt):
                        out[last] = out.get(last, 0.0) + p * q * r
        return list((p, s) for s, p in out.items())

    def area(self, actor: int, target: int, foes: Sequence[int]) -> tuple[int, ...]:
        """Whom ``actor``'s turn on ``target`` hits, of ``foes``: the tactics' area (a warband's Blast
        on individuals: every individual among them)."""
        hit = {f.name for f in self.tactics.area(self.figures[actor], self.figures[target],
                                                 [self.figures[j] for j in foes])}
        return tuple(j for j in foes if self.figures[j].name in hit)

    def groups(self) -> list[tuple[int, ...]]:
        """The groups whose morale wavers together (``core.gruppen``), where morale is played."""
        index = {f.name: i for i, f in enumerate(self.figures)}
        return [tuple(index[f.name] for f in g) for g in gruppen(self.figures)] if self.tactics.moral else []

    def holds(self, leader: int, state: Stand) -> float:
        """An organised group holds where its leader's SPI save succeeds (Wankender Kampfeswille)."""
        return save_chance(virtue(self.figures[leader], "SPI"))

    def flees(self, i: int, state: Stand) -> Stand:
        return state._replace(zustaende=state.zustaende | {FLIEHT})

    def morale(self, i: int, before: Stand, after: Stand) -> list[tuple[float, Stand]]:
        """Wankender Kampfeswille: an individual (``core.einzelne``) who became wounded (``core.wankt``)
        and still stands saves with SPI or flees; anyone else stays as ``after``."""
        if i not in self.alone or not self.standing(i, after) or wankt(self.view(i, before)) \
                or not wankt(self.view(i, after)):
            return [(1.0, after)]
        kept = save_chance(virtue(self.figures[i], "SPI"))
        fled = after._replace(zustaende=after.zustaende | {FLIEHT})
        return [(q, s) for q, s in ((kept, after), (1 - kept, fled)) if q]
