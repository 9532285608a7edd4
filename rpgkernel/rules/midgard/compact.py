"""The compact model of a Midgard fight under the kit's tactics (``rules.compact``).

A combatant's state (``Stand``) is its LP, AP and divine grace, this round's defences and full defence;
one turn is the tactics' attack with the first weapon (``kampf.folgen``). ``MidgardCompact`` where
nobody has grace, ``MidgardGnade`` where someone has. What it covers and why: docs/midgard.md
("Das kompakte Modell").
"""

from __future__ import annotations

import json
from typing import Any, Callable, Mapping, NamedTuple, Sequence

from ...dice import dist
from ...errors import RpgError
from rpgkernel.rules.kit import TICKS, Compact, Figure, ruleset as get
from .initiative import EIGENE
from .kampf import PREVIEW_VALUES, VOLLE_ABWEHR, Wurf, abwehr_zustand, abwehren, angriffslage, folgen
from .schaden import out_of_fight
from .settings import EINSTELLUNGEN

RESSOURCEN = ("LP", "AP", "GG")
#: the most pairs of states (an attacker's and its target's, over every attacker and target) a model
#: with grace may have: a turn that changes its actor too is taken by the pair of states
MAX_PAIRS = 50_000


class Verlust(NamedTuple):
    """What an attack costs one combatant: LP, AP (0 where the states carry none), points of grace, and
    whether it made a defence."""

    lp: int
    ap: int
    gg: int
    abgewehrt: bool


class Stand(NamedTuple):
    """A combatant's state: LP, AP, GG (0 where it has none), the defences this round (see the module
    docstring), in full defence this round."""

    lp: int
    ap: int
    gg: int
    abwehren: int = 0
    volle: bool = False


def _der_runde(figure: Figure, condition: str) -> bool:
    """Whether ``condition`` ends with this round, as the attack and ``volle_abwehr`` set it."""
    found = figure.conditions[condition]
    return found.get("remaining") == 1 and found.get("tick") == TICKS["rundenende"]


def covers(figures: Sequence[Figure], data: Mapping[str, Any]) -> bool:
    """Whether the model covers a fight of ``figures`` with the GM's ``data`` (the module docstring)."""
    try:
        cfg = EINSTELLUNGEN.of(data)
        for f in figures:
            if f.ruleset not in (None, "midgard") or not all(
                    _der_runde(f, c) for c in f.conditions if c == VOLLE_ABWEHR or abwehr_zustand(c)) or (
                    f.has(EIGENE) and f.conditions[EIGENE].get("remaining") is not None):
                return False
            for foe in figures:
                if foe.side != f.side:
                    damage = dist(angriffslage(f, foe, cfg=cfg).schaden)
                    if damage.max - damage.min + 1 > PREVIEW_VALUES:
                        return False
    except RpgError:
        return False
    return True


def modell(figures: Sequence[Figure], data: Mapping[str, Any], wurf: Callable[[int], Wurf]) -> MidgardCompact | None:
    """The model of a fight it covers (``covers``): ``MidgardCompact`` where none has grace; where one
    has, ``MidgardGnade`` while the pairs of states stay within ``MAX_PAIRS``, with the AP where they
    do with them, else without (nothing in a fight reads the AP: neither EW: Angriff, WW: Abwehr nor
    who is out); else None."""
    if not covers(figures, data):
        return None
    if not any(f.current("GG") > 0 for f in figures):
        return MidgardCompact(figures, data, wurf)
    for ap in (True, False):
        model = MidgardGnade(figures, data, wurf, ap)
        sizes = [model.groesse(i) for i in range(len(figures))]
        if sum(sizes[a] * sizes[t] for a, f in enumerate(figures) for t, g in enumerate(figures)
               if f.side != g.side) <= MAX_PAIRS:
            return model
    return None


class MidgardCompact(Compact):
    """The model where no combatant has grace: a turn changes its target alone (``hit``)."""

    #: whether the states carry the AP (``MidgardGnade`` may leave them out, ``modell``)
    ap = True

    def __init__(self, figures: Sequence[Figure], data: Mapping[str, Any], wurf: Callable[[int], Wurf]) -> None:
        """``wurf(punkte)``: how a figure with ``punkte`` of grace rolls its own roll of an attack."""
        super().__init__(figures)
        self.data, self.wurf = data, wurf
        self.cfg = EINSTELLUNGEN.of(data)
        self.engine = get("midgard")
        # the most defences of a round a later attack of the round can read: its foes less one, after
        # those it had made when the forecast began
        self.lesbar = [abwehren(f) + max(0, sum(g.side != f.side for g in figures) - 1) for f in figures]
        self.has = [set(f.resources) for f in figures]
        self.eigene = [[c for c in f.conditions if c == VOLLE_ABWEHR or abwehr_zustand(c)] for f in figures]
        self._views: dict[tuple[int, Stand], Figure] = {}
        self._moves: dict[tuple, list[tuple[float, Verlust, Verlust]]] = {}
        self._moved: dict[tuple[int, Stand, Verlust], Stand] = {}
        self._turns: dict[tuple[int, int, int, Stand], list[tuple[float, int, Stand]]] = {}
        self._nach: dict[tuple[int, str, int, int], int] = {}

    def groesse(self, i: int) -> int:
        """How many states combatant ``i`` can come to at most: its LP down to their lower bound, its
        AP and grace down to 0, its defences of the round, full defence or not."""
        f, start = self.figures[i], self.start(i)
        low = self.engine.sheet.limits(f, "LP", self.data).low if "LP" in f.resources else None
        lp = start.lp - low + 1 if low is not None and low <= start.lp else 1
        return lp * (start.ap + 1 if self.ap else 1) * (start.gg + 1) * (self.lesbar[i] + 1) * (start.volle + 1)

    def start(self, i: int) -> Stand:
        f = self.figures[i]
        return Stand(*(f.current(k) for k in RESSOURCEN), abwehren(f), f.has(VOLLE_ABWEHR))

    def played(self) -> tuple:
        """The fights it plays hang on: ``kin`` and each start (without the AP where the states leave them
        out: nothing reads them then)."""
        return self.kin(), tuple(s if self.ap else s._replace(ap=0) for s in map(self.start, range(len(self.figures))))

    def kin(self) -> str:
        """What its turns hang on besides the starts (``Compact.kin``): the model, the AP kept or not, all
        else a figure view shows (``view`` sets the rest) and the data."""
        rest = [[f.name, f.ruleset, f.side, f.group, dict(f.sheet),
                 {k: r.max if k in RESSOURCEN else tuple(r) for k, r in f.resources.items()},
                 {c: dict(r) for c, r in f.conditions.items() if c not in self.eigene[i]}]
                for i, f in enumerate(self.figures)]
        return json.dumps([type(self).__name__, self.ap, rest, self.data], sort_keys=True, default=str)

    def learn(self, other: Compact) -> None:
        """A model of kin (``kin``) shares its views, attacks and limits: they read no start."""
        if isinstance(other, MidgardCompact) and other.wurf is self.wurf and other.kin() == self.kin():
            self._views, self._moves, self._nach = other._views, other._moves, other._nach

    def view(self, i: int, state: Stand) -> Figure:  # type: ignore[override]
        key = (i, state)
        if key not in self._views:
            f = self.figures[i]
            values = {k: v for k, v in zip(RESSOURCEN, state) if k in f.resources}
            conditions = [f"{state.abwehren}. Abwehr"] * bool(state.abwehren) + [VOLLE_ABWEHR] * state.volle
            self._views[key] = f.changed(values, conditions, self.eigene[i])
        return self._views[key]

    def standing(self, i: int, state: Stand) -> bool:  # type: ignore[override]
        return out_of_fight(self.view(i, state), self.cfg.regeln) is None

    def resources(self, i: int, state: Stand) -> dict[str, int]:  # type: ignore[override]
        """Each resource in ``state``; the AP only where the states carry them."""
        found = super().resources(i, state)
        if not self.ap:
            found.pop("AP", None)
        return found

    def new_round(self, i: int, state: Stand) -> Stand:
        """The defences of the round and full defence end with it."""
        return state._replace(abwehren=0, volle=False)

    def unread(self, i: int, state: Stand) -> Stand:
        """The defences of the round and full defence: read by a foe's attack alone (its WW: Abwehr)."""
        return state._replace(abwehren=0, volle=False)

    def hit(self, actor: int, target: int, state: Stand) -> list[tuple[float, Stand]]:  # type: ignore[override]
        """The target's states after the actor's attack, where no combatant has grace (the attack then
        reads the actor's sheet alone and changes the target alone)."""
        return [(p, them) for p, _, them in self._turn(actor, target, self.start(actor), state)]

    def reads(self, i: int, state: Stand) -> tuple[bool, tuple[int, bool, bool]]:
        """What an attack reads of a combatant's state: as the attacker whether it has grace left, as the
        defender its defences this round, full defence and whether it has grace left."""
        return state.gg > 0, (state.abwehren, state.volle, state.gg > 0)

    def moves(self, actor: int, target: int, mine: Stand, theirs: Stand) -> list[tuple[float, Verlust, Verlust]]:
        """The actor's attack on the target as what it costs each (``Verlust``), once per pair of their
        parts (``reads``)."""
        key = (actor, target, *self.reads(actor, mine)[:1], *self.reads(target, theirs)[1])
        if key not in self._moves:
            out: dict[tuple[Verlust, Verlust], float] = {}
            for f, p in folgen(angriffslage(self.view(actor, mine), self.view(target, theirs), cfg=self.cfg),
                               self.wurf(mine.gg), self.wurf(theirs.gg)).items():
                change = (Verlust(0, 0, f.gnade_angreifer, False),
                          Verlust(f.lp, f.ap if self.ap else 0, f.gnade_verteidiger, f.abgewehrt))
                out[change] = out.get(change, 0.0) + p
            self._moves[key] = [(p, me, them) for (me, them), p in out.items()]
        return self._moves[key]

    def moved(self, i: int, state: Stand, change: Verlust) -> Stand:
        """Combatant ``i``'s state after ``change``: the LP, AP and grace it costs land within the
        ruleset's limits, a defence made counts for the round (as far as a later attack reads it)."""
        key = (i, state, change)
        if key not in self._moved:
            self._moved[key] = Stand(self._landed(i, state, "LP", -change.lp),
                                     self._landed(i, state, "AP", -change.ap) if self.ap else state.ap,
                                     self._landed(i, state, "GG", -change.gg),
                                     min(state.abwehren + change.abgewehrt, self.lesbar[i]), state.volle)
        return self._moved[key]

    def _turn(self, actor: int, target: int, mine: Stand, theirs: Stand) -> list[tuple[float, Stand, Stand]]:
        """The actor's attack on the target with its first weapon (``moves``, ``moved``): worked out once
        per grace of the actor and state of the target (an attack changes nothing of the actor but its
        grace)."""
        key = (actor, target, mine.gg, theirs)
        if key not in self._turns:
            out: dict[tuple[int, Stand], float] = {}
            for p, me, them in self.moves(actor, target, mine, theirs):
                after = (self._landed(actor, mine, "GG", -me.gg), self.moved(target, theirs, them))
                out[after] = out.get(after, 0.0) + p
            self._turns[key] = [(p, gg, them) for (gg, them), p in out.items()]
        return [(p, mine if gg == mine.gg else mine._replace(gg=gg), them) for p, gg, them in self._turns[key]]

    def _landed(self, i: int, state: Stand, resource: str, by: int) -> int:
        """Combatant ``i``'s ``resource`` after a change by ``by`` within the ruleset's limits (the
        value in ``state`` where it has none or nothing changes)."""
        value = state[RESSOURCEN.index(resource)]
        if not by or resource not in self.has[i]:
            return value
        key = (i, resource, value, by)
        if key not in self._nach:
            landed = self.engine.sheet.within_limits(self.view(i, state), resource, by, self.data)
            self._nach[key] = next((s.new for s in landed if s.resource == resource), value)
        return self._nach[key]


class MidgardGnade(MidgardCompact):
    """The model where a combatant has grace: a turn changes its actor too (the grace it spends on its
    own EW: Angriff). Without ``ap`` the states keep the AP each had at the start, and no resource of
    the forecast is AP."""

    def __init__(self, figures: Sequence[Figure], data: Mapping[str, Any], wurf: Callable[[int], Wurf],
                 ap: bool = True) -> None:
        super().__init__(figures, data, wurf)
        self.ap = ap

    def turn(self, actor: int, target: int, mine: Stand, theirs: Stand) -> list[tuple[float, Stand, Stand]]:
        return self._turn(actor, target, mine, theirs)
