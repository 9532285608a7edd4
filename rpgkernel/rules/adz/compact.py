"""The compact model of an AdZ fight under the kit's tactics (``rules.compact``).

A combatant's state is the free steps of both damage tracks, its luck pool, this round's reactions and
the conditions damage gave it; one turn is the tactics' attack through ``combat.kampfplan``,
``exact.Ausgaenge`` and ``damage.wirkung``. What it covers and why: docs/adz.md ("Das kompakte Modell").
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, Mapping, NamedTuple, Sequence

from ...dice import Dist, Roller
from ...errors import RpgError
from rpgkernel.rules.kit import Action, Compact, Fight, Figure, Resolution
from .combat import VERTEIDIGEN, Kampfplan, kampfplan
from .core import KONZENTRATION, REAKTION, reaktionen
from .damage import BEWUSSTLOS, JENSEITS, LEISTEN, TOD_NAHE, out_of_fight, verletzungsmalus, wirkung
from .exact import Ausgaenge, Glueck, Rest, angriff_dist, erfolge_dist
from .settings import EINSTELLUNGEN, Daten
from .sheet import GEISTIG, GLUECK, KOERPERLICH
from .verbs import angriff_args

if TYPE_CHECKING:
    from .tactics import AdzTactics

#: the conditions damage gives (``damage.schaden``)
FOLGEN = frozenset({BEWUSSTLOS, TOD_NAHE, JENSEITS})
#: whose luck pool each roll of an attack spends: the attacker's (0) or the target's (1)
EIGNER = {"angriff": 0, "verteidigung": 1, "widerstand": 1}


class Folge(NamedTuple):
    """What a turn changes of a combatant (``AdzCompact.moves``): the damage on a track (None: none),
    whether its luck pool was spent, whether it reacted (a defence rolled)."""

    leiste: str | None
    menge: int
    glueck: bool
    reaktion: bool


class Stand(NamedTuple):
    """A combatant's state: the free steps of each track, its luck pool, its reactions this round and
    the conditions damage gave it."""

    koerperlich: int
    geistig: int
    glueck: int
    reaktionen: int = 0
    zustaende: frozenset[str] = frozenset()


def covers(figures: Sequence[Figure], data: Mapping[str, Any]) -> bool:
    """Whether the model's states hold everything of ``figures`` a fight changes: figures of this
    ruleset with both tracks and the luck pool, an injury malus (the GM's in ``data``) that leaves a
    standing figure its dice, no maintained spell, no condition that counts down but the reactions of
    this round (as ``core.reaktion`` sets them). Whether each can attack its foes the model tells
    (``AdzCompact.attacks``)."""
    daten = EINSTELLUNGEN.of(data)
    return all(f.ruleset in (None, "adz") and all(f.resource(r) is not None for r in (*LEISTEN, GLUECK))
               and all(_steady(name, c) for name, c in f.conditions.items()) and _keeps_dice(f, daten)
               for f in figures)


def _steady(name: str, record: Mapping[str, Any]) -> bool:
    if name.startswith(KONZENTRATION):
        return False
    if name.startswith(REAKTION):
        return record.get("remaining") == 1 and record.get("tick") == "round_end"
    return record.get("remaining") is None


def _keeps_dice(figure: Figure, daten: Daten) -> bool:
    """Whether no step of either track short of the last leaves ``figure`` without dice (an "X" of the
    GM's injury malus, ``damage.verletzungsmalus``)."""
    return all(verletzungsmalus(figure.changed({track: free}), daten) is not None
               for track in LEISTEN for free in range(1, figure.resource(track).max + 1))


class AdzCompact(Compact):
    def __init__(self, figures: Sequence[Figure], data: Mapping[str, Any], tactics: AdzTactics) -> None:
        super().__init__(figures)
        self.daten = EINSTELLUNGEN.of(data)
        self.tactics = tactics
        self.fight = Fight({f.name: f for f in figures}, {}, 0, data, Roller(dice=[]))
        self.base = [f.changed({}, without=[c for c in f.conditions if c.startswith(REAKTION)]) for f in figures]
        #: the most reactions of a combatant a later defence in the same round can read: those it made
        #: already and one in each foe's turn but the last (a count above is never read, and the bound
        #: keeps the states a forecast enumerates finite and few: none in a duel)
        self.most = [self._most(i) for i in range(len(figures))]
        self._plans: dict[tuple, Kampfplan] = {}
        self._mali: dict[tuple[int, int, int], int | None] = {}
        self._turns: dict[tuple, list[tuple[float, Folge, Folge]]] = {}
        self._ends: dict[tuple, list[tuple[float, Folge, Folge]]] = {}
        self._damage: dict[tuple, dict[int, tuple[int, int, frozenset[str]]]] = {}
        #: by combatant and state: the state after each change made of it so far (``moved``)
        self._after: dict[tuple[int, Stand], dict[Folge, Stand]] = {}

    def _most(self, i: int) -> int:
        f = self.figures[i]
        return reaktionen(f) + sum(1 for g in self.figures if g.side != f.side) - 1

    def attacks(self) -> bool:
        """Whether every combatant can attack each foe as the tactics have it: a plain attack whose
        options ``kampfplan`` takes (a ranged weapon alone needs a distance the forecast does not know)."""
        try:
            for a, me in enumerate(self.figures):
                for v, foe in enumerate(self.figures):
                    if foe.side != me.side:
                        self._plan(a, v, self.start(a), self.start(v))
        except (RpgError, _NotCovered):
            return False
        return True

    def start(self, i: int) -> Stand:
        f = self.figures[i]
        return Stand(f.current(KOERPERLICH), f.current(GEISTIG), f.current(GLUECK), reaktionen(f),
                     frozenset(c for c in f.conditions if c in FOLGEN))

    def view(self, i: int, state: Stand) -> Figure:  # type: ignore[override]
        shown = state.zustaende | ({f"{REAKTION}{state.reaktionen}"} if state.reaktionen else set())
        return self.base[i].changed({KOERPERLICH: state.koerperlich, GEISTIG: state.geistig, GLUECK: state.glueck},
                                    shown)

    def standing(self, i: int, state: Stand) -> bool:  # type: ignore[override]
        return out_of_fight(self.view(i, state)) is None

    def new_round(self, i: int, state: Stand) -> Stand:  # type: ignore[override]
        """Runden: a reaction's dice are whole again at the start of the next round."""
        return state._replace(reaktionen=0)

    def reads(self, i: int, state: Stand) -> tuple[tuple, tuple]:  # type: ignore[override]
        """Of the actor a turn reads the injury malus and the luck pool (an action's dice are not halved,
        Runden); of the target also its reactions this round (``_plan``, ``_chain``). What the damage
        does with the tracks and conditions is read when a change is made a state (``moved``)."""
        malus = self._malus(i, state)
        return (malus, state.glueck), (malus, state.reaktionen, state.glueck)

    def turn(self, actor: int, target: int, mine: Stand, theirs: Stand  # type: ignore[override]
             ) -> list[tuple[float, Stand, Stand]]:
        """The tactics' attack of ``actor`` on ``target``: its ``moves`` made states, alike ones merged."""
        return self.turn_of_moves(actor, target, mine, theirs)

    def moves(self, actor: int, target: int, mine: Stand, theirs: Stand  # type: ignore[override]
              ) -> list[tuple[float, Folge, Folge]]:
        """The tactics' attack as changes: every end of the chain, the luck pool spent by the tactics'
        rule (``exact.Ausgaenge``), a defence rolled counted as a reaction, the damage on the plan's track;
        worked out once for each pair of parts (``reads``)."""
        key = (actor, target, self.reads(actor, mine)[0], self.reads(target, theirs)[1])
        if key in self._turns:
            return self._turns[key]
        plan = self._plan(actor, target, mine, theirs)
        self._turns[key] = found = self._chain(plan, mine.glueck, theirs.glueck)
        return found

    def carries(self, pending: Sequence[tuple[Resolution, Mapping[str, Any]]]) -> bool:  # type: ignore[override]
        """An attack alone open, its target still to decide whether to defend (``combat.VERTEIDIGEN``), the
        tactics defending (``AdzTactics.decide``) and its line's plan valid."""
        return self._opened(pending) is not None

    def closings(self, pending: Sequence[tuple[Resolution, Mapping[str, Any]]]  # type: ignore[override]
                 ) -> list[tuple[float, tuple[Stand, ...]]] | None:
        """The attack ``carries`` closes: the rest of its chain from the attack's successes (``_chain``:
        the defence, a reaction, the resistance, the luck pools by the tactics' rule) on the plan of its
        line, as a turn changes the two; the target's reaction counted in ``most``. None for anything else."""
        opened = self._opened(pending)
        if opened is None:
            return None
        res, actor, target, plan = opened
        start = tuple(self.start(i) for i in range(len(self.figures)))
        mine, theirs = start[actor], start[target]
        self.most[target] = self._most(target) + 1
        out: dict[tuple[Stand, ...], float] = {}
        for p, change, hit in self._chain(plan, mine.glueck, theirs.glueck, res.outcome["angriff"]):
            after = list(start)
            after[actor], after[target] = self.moved(actor, mine, change), self.moved(target, theirs, hit)
            out[tuple(after)] = out.get(tuple(after), 0.0) + p
        return [(p, states) for states, p in out.items()]

    def _opened(self, pending: Sequence[tuple[Resolution, Mapping[str, Any]]]
                ) -> tuple[Resolution, int, int, Kampfplan] | None:
        """The one open attack the model carries, its actor and target and its plan (``kampfplan`` from its
        line's options), or None."""
        names = [f.name for f in self.figures]
        if len(pending) != 1:
            return None
        res, options = pending[0]
        if res.action != "angriff" or set(res.outcome) != {"angriff"} or [c.key for c in res.choices] != [VERTEIDIGEN] \
                or len(res.actors) != 1 or len(res.targets) != 1 or not {*res.actors, *res.targets} <= set(names) \
                or self.tactics.decide(res, self.fight) != [Action(VERTEIDIGEN, res.targets)]:
            return None
        actor, target = names.index(res.actors[0]), names.index(res.targets[0])
        try:
            plan = kampfplan(self.view(actor, self.start(actor)), self.view(target, self.start(target)),
                             **angriff_args(options, self.daten), vorschau=False)
        except RpgError:
            return None
        return res, actor, target, plan

    def moved(self, i: int, state: Stand, change: Folge) -> Stand:  # type: ignore[override]
        """``state`` after ``change``: the damage's effects (``_damaged``), the luck pool spent, a reaction
        counted (as far as ``most``); each change of a combatant's state worked out once."""
        after = self._after.setdefault((i, state), {})
        if change not in after:
            after[change] = self._moved(i, state, change)
        return after[change]

    def _moved(self, i: int, state: Stand, change: Folge) -> Stand:
        k, g, zustaende = state.koerperlich, state.geistig, state.zustaende
        if change.leiste is not None:
            hurt = self._hurt(i, state, change.leiste)
            if change.menge not in hurt:
                hurt[change.menge] = self._damaged(i, state, change.menge, change.leiste)
            k, g, zustaende = hurt[change.menge]
        return Stand(k, g, state.glueck - change.glueck, min(state.reaktionen + change.reaktion, self.most[i]),
                     zustaende)

    def _plan(self, actor: int, target: int, mine: Stand, theirs: Stand) -> Kampfplan:
        """The pools of ``actor``'s attack on ``target`` as they stand: both standing (no condition of
        damage), by their injury malus (the tracks are read through it alone, ``core.handlungsmali``)
        and the target's reactions (the luck pools are not read, nor the actor's reactions: an action's
        dice are not halved, Runden)."""
        key = (actor, target, self._malus(actor, mine), self._malus(target, theirs), theirs.reaktionen)
        if key not in self._plans:
            a, v = self.view(actor, mine), self.view(target, theirs)
            action = self.tactics.action(a, v, self.fight)
            if action is None or action.verb != "angriff" or set(action.options) - {"waffe", "verteidigt"} \
                    or not action.options.get("verteidigt"):
                raise _NotCovered
            weapon = {k: w for k, w in action.options.items() if k == "waffe"}
            self._plans[key] = kampfplan(a, v, daten=self.daten, vorschau=False, **weapon)
        return self._plans[key]

    def _malus(self, i: int, state: Stand) -> int | None:
        """The injury malus of ``i`` in ``state`` (``damage.verletzungsmalus``)."""
        key = (i, state.koerperlich, state.geistig)
        if key not in self._mali:
            self._mali[key] = verletzungsmalus(self.view(i, state), self.daten)
        return self._mali[key]

    def _chain(self, plan: Kampfplan, glueck_a: int, glueck_v: int, erfolge: int | None = None
               ) -> list[tuple[float, Folge, Folge]]:
        """The ends of the chain of ``plan`` with these luck pools (``exact.Ausgaenge``), from the attack
        roll or from its ``erfolge`` where it is rolled, as the changes to the actor and the target
        (``_folgen``)."""
        key = (_Zahlen(plan.angriff, plan.angriff2, plan.verteidigt, plan.verteidigung, plan.verteidigung2,
                       plan.waffe.grundschaden, plan.rs, plan.widerstand, plan.mw, erfolge), glueck_a, glueck_v,
               plan.leiste)
        if key not in self._ends:
            self._ends[key] = _folgen(*key, self.tactics.glueck_wurf)
        return self._ends[key]

    def _hurt(self, i: int, state: Stand, track: str) -> dict[int, tuple[int, int, frozenset[str]]]:
        """What each amount of damage on ``track`` left ``i`` in ``state`` so far (``_damaged``), by amount."""
        return self._damage.setdefault((i, state.koerperlich, state.geistig, state.zustaende, track), {})

    def _damaged(self, i: int, state: Stand, menge: int, track: str) -> tuple[int, int, frozenset[str]]:
        """Both tracks and the conditions of ``i`` in ``state`` after ``menge`` steps of damage on ``track``
        (``damage.wirkung``, the numbers of ``damage.schaden``)."""
        values = {KOERPERLICH: state.koerperlich, GEISTIG: state.geistig}
        zustaende = set(state.zustaende)
        for e in (wirkung(self.view(i, state), menge, track).effekte if menge else ()):
            if e.resource is not None:
                values[e.resource] += e.by
            elif e.condition is not None and e.on:
                zustaende.add(e.condition)
        return values[KOERPERLICH], values[GEISTIG], frozenset(zustaende)


class _Zahlen(NamedTuple):
    """The numbers of a plan its chain is made of (``Kampfplan``'s pools, the weapon's base damage, armour,
    resistance and Mindestwurf) and the attack's successes where it is rolled already."""

    angriff: int
    angriff2: int | None
    verteidigt: bool
    verteidigung: int
    verteidigung2: int | None
    grundschaden: int
    rs: int
    widerstand: int
    mw: int
    erfolge: int | None = None


@lru_cache(maxsize=4096)
def _folgen(zahlen: _Zahlen, glueck_a: int, glueck_v: int, leiste: str, glueck: Glueck
            ) -> list[tuple[float, Folge, Folge]]:
    """The ends of a plan's chain with these luck pools (``_kette``) as the changes to the actor and the
    target (``Folge``): the luck pool of whom it spent (``EIGNER``), the damage on ``leiste``, whether the
    target reacted; by the numbers of the plan, for every fight of the process (the advice's forecasts
    ask the same again and again)."""
    pools = {roll: (glueck_a, glueck_v)[who] for roll, who in EIGNER.items()}
    merged: dict[tuple[int | None, int, bool], float] = {}
    for (final, reacted, roll), p in _kette(zahlen, glueck).mit(pools).items():
        key = (EIGNER.get(roll or ""), final, reacted)
        merged[key] = merged.get(key, 0.0) + p
    return [(p, *_paar(leiste, *key)) for key, p in merged.items()]


@lru_cache(maxsize=None)
def _paar(leiste: str, who: int | None, final: int, reacted: bool) -> tuple[Folge, Folge]:
    """The changes to the actor and the target of an end (``_folgen``), each made once (``moved`` finds
    them the faster)."""
    return Folge(None, 0, who == 0, False), Folge(leiste, final, who == 1, reacted)


@lru_cache(maxsize=1024)
def _kette(z: _Zahlen, glueck: Glueck) -> Ausgaenge:
    """The ends of a plan's chain (``exact.Ausgaenge``), whatever the luck pools; what follows its defence
    shared by the plans of every malus (``_rest``)."""
    defence = angriff_dist(z.verteidigung, z.verteidigung2) if z.verteidigt else None
    attack = angriff_dist(z.angriff, z.angriff2) if z.erfolge is None else Dist.const(z.erfolge)
    return _rest(z.grundschaden, z.rs, z.widerstand, z.mw, glueck).angriff(attack, defence)


@lru_cache(maxsize=256)
def _rest(grundschaden: int, rs: int, widerstand: int, mw: int, glueck: Glueck) -> Rest:
    """What follows the defence of every plan with these numbers (``exact.Rest``), whatever its malus."""
    return Rest(grundschaden, rs, erfolge_dist(widerstand), mw, glueck)


class _NotCovered(Exception):
    """The tactics do what the model does not play: another verb or option than a plain attack whose
    target defends where it can (``verteidigt``)."""
