"""The compact model of a Kampfwerte fight under the kit's tactics (``rules.compact``, ``tactics``).

A combatant's state (``Stand``) is its LP, its AD, its pending Finte's level and whether it is knocked
down; one turn is the tactics' manoeuvre, worked out by the engine's steps. What it covers and why:
docs/kampfwerte.md ("Das kompakte Modell").
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from ...dice import dist
from rpgkernel.rules.kit import Compact, Figure, spread
from .ausser_gefecht import out_of_fight
from .manoever import (FINTE, FINTE_ERFOLGE, eintrag, finte_bonus, finte_gilt, kosten, lp_verlust, p_pariert,
                       pruefen, ruestung_gegen, schaden_ausdruck, schaden_summe)
from .probe import ausgaenge
from .prognose import Angriff, abwehr_von, angriff, gewaehlt, schaden_von
from .settings import EINSTELLUNGEN, Einstellungen, KampfwerteError
from .sheet import bereich

if TYPE_CHECKING:
    from .tactics import KampfwerteTactics

NIEDERGEWORFEN = "niedergeworfen"
#: the engine's own countdown of a knock-down (``manoever.ausfuehren``): one turn end of the figure's
ENGINE_KNOCKDOWN = ("turn_end", 1)
#: the most pairs of states (an attacker's and its target's, over every pair of foes) a covered fight's
#: states may give: the forecast works out every turn for each pair (``forecast.board``,
#: ``forecast.sample``), some 20.000 pairs a second; a larger fight plays through the procedures
MAX_PAARE = 250_000
#: the same for a duel: it is solved exactly over the pairs it reaches (``forecast.duel``; the example
#: notebook's Kael and orc reach some 20.000 of a bound of 600.000 to 1.100.000, by the GM's data), and
#: sampled over all of them only where those pass the exact path's limit (some 75 s at most, where the
#: procedures take many minutes to the same precision)
MAX_PAARE_DUELL = 1_500_000

#: a combatant's state: (LP, AD, the level of its pending Finte (0: none), knocked down); a plain tuple,
#: since a fight's model makes millions of them
Stand = tuple[int, int, int, bool]
#: what one turn does, as the model keeps it: the actor's AD and Finte after it, the target's LP (or the
#: LP it loses, ``KampfwerteCompact._effects``) and whether the turn knocked it down
Folge = tuple[int, int, int, bool]
#: a turn's change to a combatant (``KampfwerteCompact.moves``): the positions of its ``Stand`` it sets,
#: with their new values
Setzt = tuple[tuple[int, Any], ...]


def _own_conditions(figure: Figure) -> list[str]:
    """The conditions the state holds (a pending Finte, a knock-down), as the figure has them."""
    return [c for c in figure.conditions if c == NIEDERGEWORFEN or (c.startswith(FINTE) and c[len(FINTE):].isdigit())]


def _counts_down_otherwise(figure: Figure) -> bool:
    """Whether a pending Finte counts down, or a knock-down otherwise than the engine's."""
    for c in _own_conditions(figure):
        rec = figure.conditions[c]
        if c == NIEDERGEWORFEN:
            if (rec.get("tick"), rec.get("remaining")) != ENGINE_KNOCKDOWN or rec.get("of", figure.name) != figure.name:
                return True
        elif rec.get("remaining") is not None:
            return True
    return False


def covers(figures: Sequence[Figure], data: Mapping[str, Any]) -> bool:
    """Whether the model covers a fight of ``figures`` (the module's docstring) under the GM's ``data``."""
    daten = EINSTELLUNGEN.of(data)
    angriffe = [angriff(f, daten, data) for f in figures]
    for f, a in zip(figures, angriffe):
        if f.ruleset not in (None, "kampfwerte") or _counts_down_otherwise(f):
            return False
        for name, stufe in a.wahl:
            m = eintrag(name, daten)
            schaden = schaden_von(m, a)
            paying = f.changed({"AD": kosten(name, stufe, 1, daten=daten)})
            for foe in figures:
                if foe.side == f.side:
                    continue
                try:
                    pruefen(paying, [foe], name, stufe, None, schaden and schaden.expression, daten)
                except KampfwerteError:
                    return False
    knocks = {f.side for f, a in zip(figures, angriffe)
              if any(eintrag(n, daten).get("niederwerfen") for n, _ in a.wahl)}
    sizes = [_states(f, a, bool(knocks - {f.side}), daten, data) for f, a in zip(figures, angriffe)]
    return sum(sizes[i] * sizes[j] for i, f in enumerate(figures) for j, foe in enumerate(figures)
               if foe.side != f.side) <= (MAX_PAARE_DUELL if len(figures) == 2 else MAX_PAARE)


def _states(f: Figure, a: Angriff, knocked: bool, daten: Einstellungen, data: Mapping[str, Any]) -> int:
    """At most the states ``f`` can come to: its LP down to their lower bound, its AD down by the
    costs of its manoeuvres, a pending Finte of each level it feints at, knocked down or not (where a
    foe can knock it down)."""
    low = bereich(f, "LP", data).low or 0   # the kit's lower bound of LP: always one
    lp = f.current("LP") - low + 1
    ad = f.current("AD") // math.gcd(*(kosten(n, s, 1, daten=daten) for n, s in a.wahl)) + 1
    finten = {s for n, s in a.wahl if eintrag(n, daten).get("finte")} | {finte_bonus(f)} | {0}
    return max(1, lp) * ad * len(finten) * (2 if knocked or f.has(NIEDERGEWORFEN) else 1)


class KampfwerteCompact(Compact):
    def __init__(self, figures: Sequence[Figure], data: Mapping[str, Any], tactics: KampfwerteTactics) -> None:
        super().__init__(figures)
        self.data, self.tactics = data, tactics
        self.daten = EINSTELLUNGEN.of(data)
        self.angriffe = [angriff(f, self.daten, data) for f in self.figures]
        self.bare = [f.changed({}, without=_own_conditions(f)) for f in self.figures]
        self._landed: dict[tuple[int, str, int, int], int] = {}
        self._moves: dict[tuple, list[tuple[float, Setzt, Setzt]]] = {}
        self._effekte: dict[tuple[int, int, int, int], dict[Folge, float]] = {}

    def start(self, i: int) -> Stand:
        f = self.figures[i]
        return f.current("LP"), f.current("AD"), finte_bonus(f), f.has(NIEDERGEWORFEN)

    def view(self, i: int, state: Stand) -> Figure:  # type: ignore[override]
        lp, ad, finte, nieder = state
        conditions = [f"{FINTE}{finte}"] * bool(finte) + [NIEDERGEWORFEN] * nieder
        return self.bare[i].changed({"LP": lp, "AD": ad}, conditions)

    def standing(self, i: int, state: Stand) -> bool:  # type: ignore[override]
        """In the fight: not out of it, or knocked down (it gets up)."""
        why = out_of_fight(self.view(i, state), self.daten)
        return why is None or self.tactics.gets_up(why)

    def reads(self, i: int, state: Stand) -> tuple[tuple[int, int, bool], tuple[int, bool]]:  # type: ignore[override]
        """A turn reads its actor's AD, Finte and knock-down and its target's LP and knock-down."""
        lp, ad, finte, nieder = state
        return (ad, finte, nieder), (lp, nieder)

    def turn(self, actor: int, target: int, mine: Stand,  # type: ignore[override]
             theirs: Stand) -> list[tuple[float, Stand, Stand]]:
        return self.turn_of_moves(actor, target, mine, theirs)

    def moves(self, actor: int, target: int, mine: Stand,  # type: ignore[override]
              theirs: Stand) -> list[tuple[float, Setzt, Setzt]]:
        """The actor's turn as the fields it sets of each: a knocked-down actor stands up; else the
        tactics' manoeuvre (``_turn``), a target knocked down before staying down. Once per pair of parts."""
        key = (actor, target, *self.reads(actor, mine)[0], *self.reads(target, theirs)[1])
        if key in self._moves:
            return self._moves[key]
        if mine[3]:
            found = [(1.0, ((3, False),), ())]
        else:
            out: dict[tuple[Setzt, Setzt], float] = {}
            for (a, f, l, n), p in self._turn(actor, target, mine, theirs).items():
                change = ((1, a), (2, f), (3, False)), ((0, l), (3, n or theirs[3]))
                out[change] = out.get(change, 0.0) + p
            found = [(p, me, it) for (me, it), p in out.items()]
        self._moves[key] = found
        return found

    def moved(self, i: int, state: Stand, change: Setzt) -> Stand:  # type: ignore[override]
        """``state`` with the fields ``change`` sets."""
        fields = list(state)
        for j, value in change:
            fields[j] = value
        return tuple(fields)  # type: ignore[return-value]

    def _turn(self, actor: int, target: int, mine: Stand, theirs: Stand) -> dict[Folge, float]:
        """The chances of what the actor's turn (standing) does: its effects (``_effects``) with the LP
        lost landing on the target's."""
        its_lp = theirs[0]
        out: dict[Folge, float] = {}
        for (ad, finte, lost, down), p in self._effects(actor, target, mine).items():
            folge = (ad, finte, self._lands(target, "LP", its_lp, -lost) if lost else its_lp, down)
            out[folge] = out.get(folge, 0.0) + p
        return out

    def _effects(self, actor: int, target: int, mine: Stand) -> dict[Folge, float]:
        """The chances of the actor's AD and Finte after its turn (standing), the LP it takes from the
        target and whether it knocks it down: they read the actor's AD and Finte and the target's sheet
        alone, so they are worked out once for each and shared by every state of the target."""
        _, ad, finte, _ = mine
        key = (actor, target, ad, finte)
        if key in self._effekte:
            return self._effekte[key]
        me, it = self.view(actor, mine), self.bare[target]
        a = self.angriffe[actor]
        out: dict[Folge, float] = {}
        chosen = gewaehlt(me, a, self.daten)
        if chosen is None:
            out[ad, finte, 0, False] = 1.0
            self._effekte[key] = out
            return out
        name, stufe = chosen
        m = eintrag(name, self.daten)
        ad = self._lands(actor, "AD", ad, -kosten(name, stufe, 1, daten=self.daten))
        bonus = finte_gilt(me, m)
        if bonus:   # a pending Finte: the attack has 6 successes without a roll, and the Finte is used
            tests = [(1.0, FINTE_ERFOLGE, True)]
        else:
            tests = [(p, w.erfolge, w.gelungen) for p, w in ausgaenge(me.value("angriff"), daten=self.daten)]
        finte = 0 if bonus else finte
        schaden, abwehr = schaden_von(m, a), abwehr_von(m, a)
        defended = 0.0 if abwehr is None else abwehr.p
        stays = p_pariert(it, stufe, self.daten) if m.get("niederwerfen") else 1.0

        def add(p: float, folge: Folge) -> None:
            if p:
                out[folge] = out.get(folge, 0.0) + p

        for p, erfolge, hit in tests:
            add(p * (defended if hit else 1.0), (ad, finte, 0, False))   # a miss, or defended
            if not hit:
                continue
            after = stufe if m.get("finte") else finte
            for q, lost in self._damage(it, name, stufe, schaden and schaden.expression, erfolge, bonus):
                add(p * (1 - defended) * q * stays, (ad, after, lost, False))
                add(p * (1 - defended) * q * (1 - stays), (ad, after, lost, True))
        self._effekte[key] = out
        return out

    def _damage(self, it: Figure, name: str, stufe: int, schaden: str | None, erfolge: int,
                finte: int) -> list[tuple[float, int]]:
        """The LP a hit with ``erfolge`` successes takes from ``it``, with their chances (``schaden``: the
        weapon's damage, None for a manoeuvre without)."""
        if not schaden:
            return [(1.0, 0)]
        armour = ruestung_gegen(it, name, stufe, erfolge, self.daten)
        out: dict[int, float] = {}
        for wurf, q in dist(schaden_ausdruck(schaden, name, stufe, self.daten)).pmf().items():
            lost = lp_verlust(schaden_summe(name, stufe, wurf, erfolge, finte, self.daten), armour)
            out[lost] = out.get(lost, 0.0) + q
        return [(q, lost) for lost, q in out.items()]

    def _lands(self, i: int, resource: str, value: int, by: int) -> int:
        """Combatant ``i``'s ``resource`` at ``value`` after a change by ``by``, within its limits
        (``Sheet.within_limits``, as the campaign applies a resolution's effects)."""
        key = (i, resource, value, by)
        if key not in self._landed:
            figure = self.bare[i].changed({resource: value})
            landed = spread(figure, resource, by, lambda r: bereich(figure, r, self.data))
            self._landed[key] = value + sum(s.by for s in landed if s.resource == resource)
        return self._landed[key]
