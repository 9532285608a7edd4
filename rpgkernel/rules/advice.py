"""Advice on open choices: each option of a choice after the roll with its exact consequences.

A ruleset's ``advice`` slot describes, for an open resolution, every choice a figure may take:
the ``objective`` (German) and per option its choice lines (``takes``, ``lines``), the damage it
leads to (a ``Dist``), named probabilities, German notes, and ``win``, the chance of winning
the fight, filled in after the card (None until then; ``waiting`` meanwhile). Nothing is
taken without its choice line.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping, Sequence

from ..dice import Dist
from ..messages import t
from ..numerals import percent

DECLINE = "*"   # the key of a take that declines every open choice (the built-in ``verzicht`` line)


@dataclass(frozen=True)
class Take:
    """One choice line of an option: the choice ``key`` (a ``Choice.key``; ``DECLINE``: decline all),
    the figure who writes it and the line's options (``{"würfel": 5}``)."""

    key: str
    who: str
    options: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "who": self.who, "options": dict(self.options)}


@dataclass(frozen=True)
class Option:
    """One option of a choice: its German ``label``, the lines that take it together (one cell;
    every other open choice of the resolution is then declined) and their exact consequences."""

    label: str
    takes: tuple[Take, ...]
    damage: Dist | None = None
    chances: tuple[tuple[str, float], ...] = ()
    notes: tuple[str, ...] = ()
    win: float | None = None
    lines: tuple[str, ...] = ()
    waiting: bool = False

    def said(self) -> list[str]:
        """The consequences as German lines: the damage, each named probability, the notes."""
        out = []
        if self.damage is not None:
            d = self.damage
            out.append(t("advice.damage_point", value=d.min) if d.min == d.max else
                       t("advice.damage", low=d.min, high=d.max, mean=d.mean))
        out += [t("advice.chance", name=name, p=percent(p)) for name, p in self.chances]
        out += list(self.notes)
        won = win_said(self.win, self.waiting)
        return out + ([won] if won else [])

    def to_dict(self) -> dict[str, Any]:
        """The option as it is kept with its open resolution and shown: its consequences as their lines."""
        return {"label": self.label, "takes": [x.to_dict() for x in self.takes], "lines": list(self.lines),
                "said": self.said()}


def win_said(win: float | None, waiting: bool = False) -> str | None:
    """An option's chance of winning the fight as its line of the advice (``waiting``: still being
    computed); None where there is none."""
    if win is not None:
        return t("advice.win", p=percent(win))
    return t("advice.win_waiting") if waiting else None


@dataclass(frozen=True)
class Advice:
    """The options of the open choice ``key`` for the figure ``who`` who may take it.

    ``objective``: what the options are weighed by (German, "Möglichst wenig Schaden für Söldner");
    ``reads``: the figures whose values the consequences rest on (a player sees the advice only
    where those values are shown to them); ``note``: what the consequences assume."""

    key: str
    who: str
    objective: str
    options: tuple[Option, ...]
    reads: tuple[str, ...] = ()
    note: str = ""

    def written(self, line: Callable[[Take], str]) -> Advice:
        """The advice with each option's ``lines`` written by ``line`` (the resolve layer's writer)."""
        return replace(self, options=tuple(replace(o, lines=tuple(line(x) for x in o.takes)) for o in self.options))

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "who": self.who, "objective": self.objective, "note": self.note,
                "reads": list(self.reads), "options": [o.to_dict() for o in self.options]}


def mixture(parts: Sequence[tuple[float, Dist]]) -> Dist:
    """The distribution of an outcome that follows ``dist`` with probability ``p`` for each ``(p, dist)``
    of ``parts`` (the probabilities summing to 1): a damage that depends on a save still to roll."""
    pmf: dict[int, float] = {}
    for p, d in parts:
        for k, q in d.pmf().items():
            pmf[k] = pmf.get(k, 0.0) + p * q
    return Dist.from_pmf(pmf)
