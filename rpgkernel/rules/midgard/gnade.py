"""Divine grace as rerolls (seed 000, "Neue Regelung der Göttlichen Gnade").

A procedure rolls through a ``Wurfkette``: after each roll that a figure with points left may
have repeated, the resolution stays open (choice ``gnade``); ``verzicht`` lets the roll stand,
and the offer lapses with the next roll (``Choice.lapses``). A re-run replays the recorded dice
and reads the answers from the ``weiter:J.C`` keys of the decisions.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from ...dice import Dist, Roll, Roller, dist
from ...messages import t
from rpgkernel.rules.kit import DECLINE, Advice, Choice, Effect, Figure, Option, Resolution, Take, clauses, sentence
from .core import MidgardError
from .sheet import GNADE

RESOURCE = "GG"
CHOICE = "gnade"
_MARK = "weiter"


def _wort(name: str) -> str:
    """A figure's name as a %%resolve line writes it (quoted when it has spaces or commas)."""
    return f'"{name}"' if any(c.isspace() or c == "," for c in name) else name


#: a named event of a roll's total and the totals it follows ("Elf wird kampfunfähig")
Chance = tuple[str, Callable[[int], bool]]


@dataclass(frozen=True)
class Folgen:
    """What a roll open to grace leads to by its total, as the advice weighs it (``advice``): the
    objective of its thrower ``werfer`` (``ziele[0]``) and of everyone else (``ziele[1]``); whether the
    total is damage (``schaden``: each option's distribution); named events and the totals they
    follow (``chancen``). ``zeilen``: the events are the rows of a table, one of them follows every
    total; an option names only the rows that may come."""

    ziele: tuple[str, str]
    werfer: str | None = None
    schaden: bool = False
    chancen: tuple[Chance, ...] = ()
    zeilen: bool = False


def gelingen(label: str, werfer: str, gelingt: Callable[[int], bool]) -> Folgen:
    """A roll of ``werfer`` that succeeds by its total (``gelingt``): he wants it to, the others not."""
    return Folgen((t("midgard.advice.ziel_gelingt", wurf=label), t("midgard.advice.ziel_misslingt", wurf=label)),
                  werfer, chancen=((t("midgard.advice.gelingt", wurf=label), gelingt),))


def schadenswurf(label: str, werfer: str, chancen: Sequence[Chance] = ()) -> Folgen:
    """A damage roll of ``werfer``: he wants much, the others little; ``chancen``: what follows from it."""
    return Folgen((t("midgard.advice.ziel_mehr", wurf=label), t("midgard.advice.ziel_weniger", wurf=label)),
                  werfer, True, tuple(chancen))


class Offen(Exception):
    """The roll waits for a grace decision: the procedure stops, the resolution stays open."""


class Wurfkette:
    """The rolls of one procedure in order, each open to divine grace until the next one falls."""

    def __init__(self, res: Resolution, roller: Roller, decisions: Mapping[str, Sequence[Mapping[str, Any]]],
                 figures: Mapping[str, Figure], ohne_gnade: bool = False) -> None:
        self.res, self.roller, self.ohne = res, roller, ohne_gnade
        self.taken = list(decisions.get(CHOICE, ()))
        self.keys = set(decisions)
        self.points = {n: f.current(RESOURCE) for n, f in figures.items()}
        self.spent: Counter[str] = Counter()
        self.pause = 0

    def left(self, who: str) -> int:
        return self.points.get(who, 0) - self.spent[who]

    def wurf(self, expr: str, label: str, beteiligte: Sequence[str], rule: str,
             text: Callable[[Roll], str], said: Callable[[Roll], str], folgen: Folgen) -> Roll:
        """Roll ``expr`` for ``label`` (a step ``text(roll)`` per roll); offer grace to ``beteiligte``.

        Raises ``Offen`` while a grace decision is still to be taken; the card's sentence then says
        the roll (the clause ``said(roll)``) and who may have it repeated, and the advice gives each
        holder both ways with what the total leads to (``advice`` of ``folgen``).
        """
        roll = self._roll(expr, rule, text)
        while True:
            holders = tuple(n for n in dict.fromkeys(beteiligte) if self.left(n) > 0)
            if self.ohne or not holders:
                return roll
            answer = self._answer()
            if answer is None:
                return roll
            if answer is Offen:
                self.res.choices.append(Choice(CHOICE, t("midgard.choice_grace", roll=label, total=roll.total,
                                                         lines=" / ".join(f"gnade {_wort(n)}" for n in holders),
                                                         who=", ".join(f"{n} ({self.left(n)})" for n in holders)),
                                               holders, lapses=True))
                self.res.choices.append(Choice(f"{_MARK}:{self.pause}.{sum(self.spent.values())}",
                                               t("midgard.choice_go_on", line=f"verzicht {_wort(holders[0])}"),
                                               lapses=True))
                self.res.summary = clauses([said(roll), sentence("midgard.satz.gnade", holders)])
                self.res.advice += [advice(expr, roll.total, h, self.left(h), folgen, tuple(beteiligte))
                                    for h in holders]
                raise Offen()
            who = (answer.get("figures") or [""])[0]
            if who not in holders:
                raise MidgardError(t("midgard.grace_not_allowed", figure=who, roll=label,
                                     allowed=", ".join(holders)))
            self.spent[who] += 1
            self.res.step(t("midgard.grace_spent", figure=who, roll=label, left=self.left(who)), GNADE)
            roll = self._roll(expr, rule, text)

    def _roll(self, expr: str, rule: str, text: Callable[[Roll], str]) -> Roll:
        roll = self.roller.roll(expr)
        self.res.step(text(roll), rule, roll, value=roll.total)
        return roll

    def _answer(self) -> Mapping[str, Any] | None | type[Offen]:
        """At the next pause: the grace decision taken there, None (it stood), or Offen (undecided)."""
        j, c = self.pause, sum(self.spent.values())
        unused = len(self.taken) > c
        if f"{_MARK}:{j}.{c}" in self.keys:
            took = f"{_MARK}:{j + 1}.{c + 1}" in self.keys or (f"{_MARK}:{j + 1}.{c}" not in self.keys and unused)
        elif unused:
            took = True   # several grace lines in one cell: each repeats the roll again
        else:
            return Offen
        self.pause += 1
        return self.taken[c] if took else None

    def effekte(self) -> list[Effect]:
        """The spent points (only when the resolution closes)."""
        return [Effect(n, RESOURCE, -k) for n, k in self.spent.items() if k]


def advice(expr: str, total: int, holder: str, left: int, folgen: Folgen, reads: tuple[str, ...]) -> Advice:
    """Let the roll stand or have it repeated with a point of grace, for ``holder``: what each way
    leads to (``folgen``), exact over the repeated roll's faces."""
    def option(label: str, take: Take, faces: Dist, *notes: str) -> Option:
        pmf = faces.pmf()
        chances = tuple((name, sum((p for k, p in pmf.items() if follows(k)), 0.0))
                        for name, follows in folgen.chancen)
        return Option(label, (take,), faces if folgen.schaden else None,
                      tuple(c for c in chances if c[1]) if folgen.zeilen else chances, notes)

    kept = option(t("midgard.advice.stehen", total=total), Take(DECLINE, holder), Dist.const(total))
    repeated = option(t("midgard.advice.wiederholen"), Take(CHOICE, holder), dist(expr),
                      t("midgard.advice.kostet", figure=holder, left=left - 1))
    return Advice(CHOICE, holder, folgen.ziele[holder != folgen.werfer], (kept, repeated), reads,
                  t("midgard.advice.hinweis"))
