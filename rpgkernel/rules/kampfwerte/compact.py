"""The compact model of a Kampfwerte fight under the kit's tactics (``rules.compact``, ``tactics``).

A combatant's state (``Stand``) is its LP, its AD, the level of its pending Finte (0: none) and
whether it is knocked down; its sheet and its other conditions do not change what the fights covered
read (a disarmed figure fights on as before: nothing reads ``entwaffnet``; positions are not played).

One turn is the tactics': the first manoeuvre of the figure's list it can pay (``gewaehlt``), its AD
paid (``kosten``), the target's defence from the GM's data ``abwehr``, the attack test's exact
outcomes (``probe.ausgaenge``; a pending Finte instead gives 6 successes and is used up), a Finte
set by a hit, the damage of a hit (``schaden_ausdruck``, ``schaden_summe``, ``ruestung_gegen``,
``lp_verlust``) landing within the LP's limits, and a Wuchtschlag's parry (``p_pariert``) or the
target knocked down. A knocked-down figure still counts and is attacked (``Tactics.gets_up``); its
next turn is lost and ends the knock-down (the engine's condition ends at the end of its turn).
Nothing comes back at a new round (the seed names no AD regained in a fight).

Covered: figures of this ruleset whose every manoeuvre of the GM's data the engine carries out
against every foe (``pruefen``: ``[Stufe] > NK``, the weapon it needs, Entwaffnen's Angriffsstufe),
with no countdown on a pending Finte and none but the engine's own (to the end of the figure's next
turn) on a knock-down.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, NamedTuple, Sequence

from ...dice import dist
from ..compact import Compact
from ..figure import Figure
from . import Kampfwerte
from .ausser_gefecht import out_of_fight
from .manoever import (FINTE, FINTE_ERFOLGE, eintrag, finte_bonus, finte_gilt, kosten, lp_verlust, p_pariert,
                       pruefen, ruestung_gegen, schaden_ausdruck, schaden_summe)
from .probe import ausgaenge
from .settings import EINSTELLUNGEN, KampfwerteError
from .tactics import abwehr_von, angriff, gewaehlt, schaden_von

if TYPE_CHECKING:
    from .tactics import KampfwerteTactics

NIEDERGEWORFEN = "niedergeworfen"
#: the engine's own countdown of a knock-down (``manoever.ausfuehren``): one turn end of the figure's
ENGINE_KNOCKDOWN = ("turn_end", 1)
ENGINE = Kampfwerte()


class Stand(NamedTuple):
    """A combatant's state: LP, AD, the level of its pending Finte (0: none), knocked down."""

    lp: int
    ad: int
    finte: int = 0
    nieder: bool = False


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
    for f in figures:
        if f.ruleset not in (None, "kampfwerte") or _counts_down_otherwise(f):
            return False
        a = angriff(f, daten, data)
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
    return True


class KampfwerteCompact(Compact):
    def __init__(self, figures: Sequence[Figure], data: Mapping[str, Any], tactics: KampfwerteTactics) -> None:
        super().__init__(figures)
        self.data, self.tactics = data, tactics
        self.daten = EINSTELLUNGEN.of(data)
        self.angriffe = [angriff(f, self.daten, data) for f in self.figures]
        self.bare = [f.changed({}, without=_own_conditions(f)) for f in self.figures]

    def start(self, i: int) -> Stand:
        f = self.figures[i]
        return Stand(f.current("LP"), f.current("AD"), finte_bonus(f), f.has(NIEDERGEWORFEN))

    def view(self, i: int, state: Stand) -> Figure:  # type: ignore[override]
        conditions = [f"{FINTE}{state.finte}"] * bool(state.finte) + [NIEDERGEWORFEN] * state.nieder
        return self.bare[i].changed({"LP": state.lp, "AD": state.ad}, conditions)

    def standing(self, i: int, state: Stand) -> bool:  # type: ignore[override]
        """In the fight: not out of it, or knocked down (it gets up)."""
        why = out_of_fight(self.view(i, state), self.daten)
        return why is None or self.tactics.gets_up(why)

    def _lands(self, figure: Figure, resource: str, by: int) -> int:
        """``figure``'s ``resource`` after a change by ``by``, within its limits (as the campaign applies it)."""
        landed = ENGINE.within_limits(figure, resource, by, self.data)
        return figure.current(resource) + sum(s.by for s in landed if s.resource == resource)

    def turn(self, actor: int, target: int, mine: Stand,  # type: ignore[override]
             theirs: Stand) -> list[tuple[float, Stand, Stand]]:
        """The states of ``actor`` and ``target`` after the actor's turn: a knocked-down actor stands up;
        else the tactics' manoeuvre (none where it can pay for none)."""
        if mine.nieder:
            return [(1.0, mine._replace(nieder=False), theirs)]
        me, it = self.view(actor, mine), self.view(target, theirs)
        a = self.angriffe[actor]
        chosen = gewaehlt(me, a, self.daten)
        if chosen is None:
            return [(1.0, mine, theirs)]
        name, stufe = chosen
        m = eintrag(name, self.daten)
        paid = mine._replace(ad=self._lands(me, "AD", -kosten(name, stufe, 1, daten=self.daten)))
        bonus = finte_gilt(me, m)
        if bonus:   # a pending Finte: the attack has 6 successes without a roll, and the Finte is used
            paid = paid._replace(finte=0)
            tests = [(1.0, FINTE_ERFOLGE, True)]
        else:
            tests = [(p, w.erfolge, w.gelungen) for p, w in ausgaenge(me.value("angriff"), daten=self.daten)]
        schaden, abwehr = schaden_von(m, a), abwehr_von(m, a)
        defended = 0.0 if abwehr is None else abwehr.p
        out: dict[tuple[Stand, Stand], float] = {}

        def add(p: float, one: Stand, other: Stand) -> None:
            if p:
                out[one, other] = out.get((one, other), 0.0) + p

        for p, erfolge, hit in tests:
            add(p * (defended if hit else 1.0), paid, theirs)   # a miss, or a hit defended
            if not hit:
                continue
            p *= 1 - defended
            after = paid._replace(finte=stufe) if m.get("finte") else paid
            for q, lp in self._damage(it, name, stufe, schaden and schaden.expression, erfolge, bonus):
                hurt = theirs._replace(lp=lp)
                if m.get("niederwerfen"):
                    stays = p_pariert(it, stufe, self.daten)
                    add(p * q * stays, after, hurt)
                    add(p * q * (1 - stays), after, hurt._replace(nieder=True))
                else:
                    add(p * q, after, hurt)
        return [(p, one, other) for (one, other), p in out.items()]

    def _damage(self, it: Figure, name: str, stufe: int, schaden: str | None, erfolge: int,
                finte: int) -> list[tuple[float, int]]:
        """The target's LP after a hit with ``erfolge`` successes, with their chances (``schaden``: the
        weapon's damage, None for a manoeuvre without)."""
        if not schaden:
            return [(1.0, it.current("LP"))]
        armour = ruestung_gegen(it, name, stufe, erfolge, self.daten)
        out: dict[int, float] = {}
        for wurf, q in dist(schaden_ausdruck(schaden, name, stufe, self.daten)).pmf().items():
            lp = lp_verlust(schaden_summe(name, stufe, wurf, erfolge, finte, self.daten), armour)
            after = self._lands(it, "LP", -lp) if lp else it.current("LP")
            out[after] = out.get(after, 0.0) + q
        return list((q, lp) for lp, q in out.items())
