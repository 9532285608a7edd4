"""The order of a fight, one slot of a ruleset (``Ruleset.initiative``): whether and when initiative is
rolled, how it orders the combatants, and what the order's rules allow (joining, moving, delaying).

The default rolls ``W20`` per combatant once per fight, highest first; a ruleset subclasses
``Initiative`` where its seed says otherwise. Every part reads the combatants as views (``Figure``),
never the records the campaign keeps.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..dice.roll import Roller
from .figure import Figure

#: the combatants by name, as views
Figures = Mapping[str, Figure]


class Initiative:
    """How a ruleset orders a fight; the encounter, the panel and the forecast read it."""

    #: whether the rules roll an initiative at all; False: the order follows from the rules alone, and
    #: the tables speak of the order ("Reihenfolge"), not of an initiative
    rolled: bool = True
    #: whether initiative is determined anew at the start of every round
    each_round: bool = False
    #: whether rounds are split into segments (e.g. ten per round)
    segments: int | None = None

    def expression(self, combatant: Figure) -> str | None:
        """The dice expression a combatant rolls for initiative; None: no roll."""
        return "W20"

    def rolls(self, combatants: Figures, roller: Roller,
              data: Mapping[str, Any] | None = None) -> tuple[dict[str, int], dict[str, Any]]:
        """Each combatant's initiative value, rolled through ``roller``, and the rolls for the journal
        (name -> ``Roll.to_dict()``); ``data``: the GM's data the encounter sees. The default rolls
        ``expression`` per combatant (0 where it is None)."""
        values: dict[str, int] = {}
        rolled: dict[str, Any] = {}
        for name, combatant in combatants.items():
            expr = self.expression(combatant)
            if expr is None:
                values[name] = 0
                continue
            r = roller.roll(expr)
            values[name], rolled[name] = r.total, r.to_dict()
        return values, rolled

    def order(self, combatants: Figures, rolls: Mapping[str, int], roller: Roller | None = None) -> list[str]:
        """The turn order from each combatant's value (highest first, ties by name); ``roller`` serves
        rulesets that roll off ties."""
        return sorted(combatants, key=lambda name: (-rolls[name], name))

    def alone(self, combatants: Figures) -> bool:
        """Whether ``rolls`` rolls each of ``combatants`` for itself alone (nothing shared): a forecast
        then tries each one's dice apart."""
        return True

    def value_chances(self, combatants: Figures,
                      data: Mapping[str, Any] | None = None) -> list[tuple[float, dict[str, int]]] | None:
        """The chance of every set of values ``rolls`` gives, for a forecast where trying its dice would
        take long; an empty list where there are too many; None (the default): the forecast tries the dice."""
        return None

    def chances(self, combatants: Figures, rolls: Mapping[str, int]) -> list[tuple[float, list[str]]] | None:
        """The chance of each turn order ``order`` gives from ``rolls``, for a forecast, where its
        roll-offs repeat while tied; None (the default): the forecast tries the roll-offs' dice."""
        return None

    def together(self, combatants: Figures, rolls: Mapping[str, int]) -> list[frozenset[str]]:
        """The sets of ``combatants`` that act at the same time by their values (a tie the seed plays as
        simultaneous), for a forecast; the default: none, everybody acts in turn."""
        return []

    def join(self, name: str, combatants: Figures, rolls: Mapping[str, int], roller: Roller,
             data: Mapping[str, Any] | None = None) -> tuple[int, dict[str, Any], str | None]:
        """The value of ``name`` (one of ``combatants``) joining a running fight or rolled anew alone, the
        rolls for the journal and a German note of where it comes from (None: a plain roll); ``rolls``:
        the others' values this round. The default rolls for it alone."""
        values, rolled = self.rolls({name: combatants[name]}, roller, data)
        return values[name], rolled, None

    def refusal(self, change: str, figure: Figure, overtaken: Sequence[Figure],
                rolls: Mapping[str, int]) -> str | None:
        """Why the rules forbid a change of the order (German, naming the rule), None where they allow
        it. ``change``: "vor" (moves before others), "jetzt" (acts now), "neu" (rolled again alone),
        "gruppe" (one roll for its group); ``overtaken``: those it would now pass. Default: allowed."""
        return None

    def delay_after(self, figure: Figure, still_to_act: Sequence[Figure]) -> str | None:
        """Whom a delaying ``figure`` waits for: the name of one of ``still_to_act`` (this round's
        combatants after the current turn), or None: it holds until the GM has it act (the default)."""
        return None


def higher_initiative(figure: Figure, others: Sequence[Figure], rolls: Mapping[str, int]) -> tuple[list[str], list[str]]:
    """The names of ``others`` whose value this round is higher than ``figure``'s, and of those with the
    same value (one without a value counts as neither): what a rule of descending order reads."""
    mine = rolls.get(figure.name)
    if mine is None:
        return [], []
    known = [(o.name, rolls[o.name]) for o in others if o.name in rolls]
    return [n for n, v in known if v > mine], [n for n, v in known if v == mine]
