"""The tactics, one slot of a ruleset (``Ruleset.tactics``): how a forecast plays its fights and how
open choices are weighed at the table (``advice``).

The tactics say what a figure does on its turn, how it takes open choices and what the rules demand
after a turn, each an ``Action``, never how a rule works; targets follow the GM's ``ZIELWAHL`` unless
the seed fixes them; ``compact`` gives the compact model (``rules.compact``).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from ..messages import t
from .figure import Figure
from .resolution import PASS

if TYPE_CHECKING:
    from ..dice.roll import Roller
    from .advice import Advice
    from .compact import Compact
    from .resolution import Request, Resolution

#: how a figure picks its target: the weakest first, spread over the foes, the most dangerous first
ZIELWAHL = ("schwächste", "verteilen", "gefährlichste")


@dataclass(frozen=True)
class Action:
    """One ``%%resolve`` line: ``verb`` by ``actors`` on ``targets`` with ``options`` (as a line's)."""

    verb: str
    actors: tuple[str, ...]
    targets: tuple[str, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class Fight:
    """What tactics read of a fight in progress: every combatant still in the encounter as a view,
    who is out of the fight for good (name -> why; not who gets up by itself, ``Tactics.gets_up``),
    the round, the GM's data, how many attacks each figure has drawn so far, and the dice of this
    fight (for choices the rules leave to chance)."""

    combatants: Mapping[str, Figure]
    out: Mapping[str, str]
    round: int
    data: Mapping[str, Any]
    roller: Roller
    zielwahl: str = "schwächste"
    targeted: dict[str, int] = field(default_factory=dict)

    def standing(self, side: str | None = None, *, foes_of: str | None = None) -> list[Figure]:
        """The combatants in the fight (of ``side``, or the foes of the side ``foes_of``), in order."""
        return [f for n, f in self.combatants.items() if n not in self.out
                and (side is None or f.side == side) and (foes_of is None or f.side != foes_of)]


class Tactics:
    """The default tactics of a ruleset; a ruleset subclasses it and fills what its seed needs.

    ``action`` is the only slot without a default: without it the ruleset has no forecast (``plays``).
    """

    #: the seed's rule where it fixes whom a figure attacks (shown in the forecast), else ""
    target_rule: str = ""
    #: why tactics without ``action`` play no fight (German, a catalogue's text); "": the kit's words
    no_forecast: str = ""
    #: whether the forecast plays the morale the rules demand (``morale``; off: ``without_morale``)
    moral: bool = True

    def action(self, actor: Figure, target: Figure, fight: Fight) -> Action | None:
        """What ``actor`` does on its turn against ``target``; None: nothing."""
        return None

    def plays(self) -> bool:
        """Whether a forecast can play fights by these tactics: they fill ``action``."""
        return type(self).action is not Tactics.action

    def advice(self, request: Request, resolution: Resolution) -> list[Advice]:
        """The options of ``resolution``'s open choices with their exact consequences (``rules.advice``),
        one ``Advice`` per choice and figure who may take it; ``request``: the request the procedure
        ran with (its dice already rolled). Nothing is taken: advice only describes. The default: none."""
        return []

    def check(self, fight: Fight) -> None:
        """Before the first fight: raise a ``RulesError`` (German) where the GM's data the tactics read
        (``fight.data``) is missing or does not fit, naming what to add; the default reads none."""

    def gets_up(self, why: str) -> bool:
        """Whether a figure out of the fight for ``why`` (``Status.out_of_fight``) comes back by itself
        (knocked down: it stands up), so that its side still fights and its foes still attack it; the
        default: never."""
        return False

    def decide(self, resolution: Resolution, fight: Fight) -> list[Action]:
        """The choice lines that take the open choices of ``resolution``; the default: the first
        figure offered each choice passes (``verzicht``), so nothing is ever taken unasked."""
        who = dict.fromkeys(c.who[0] for c in resolution.choices if c.who)
        return [Action(PASS, (n,)) for n in who]

    def morale(self, before: Fight, after: Fight) -> list[Action]:
        """The actions the rules demand after a turn (morale: who flees or surrenders), from the fight
        ``before`` and ``after`` it; the default: none. Played only where ``moral``."""
        return []

    def without_morale(self) -> Tactics:
        """These tactics with no morale played (``moral`` off; the GM's choice for a forecast)."""
        other = copy.copy(self)
        other.moral = False
        return other

    def vitality(self, figure: Figure) -> float:
        """How much ``figure`` can still take (for "schwächste"): the sum of its resources' values."""
        return float(sum(r.value for r in figure.resources.values()))

    def threat(self, figure: Figure, fight: Fight) -> float:
        """How dangerous ``figure`` is (for "gefährlichste"): the default reads nothing (0)."""
        return 0.0

    def rank(self, figure: Figure, fight: Fight) -> float:
        """How soon ``figure`` is attacked by the GM's ``fight.zielwahl`` (the lowest first): its
        vitality, the attacks it has drawn (``fight.targeted``, read for "verteilen" alone:
        ``reads_targeted``), or its threat negated."""
        if reads_targeted(fight.zielwahl):
            return float(fight.targeted.get(figure.name, 0))
        if fight.zielwahl == "gefährlichste":
            return -self.threat(figure, fight)
        return self.vitality(figure)

    def hurts(self, actor: Figure, target: Figure) -> bool:
        """Whether ``actor``'s attack can hurt ``target`` at all, by what their sheets say (never by what
        the fight changed); the default: always."""
        return True

    def target(self, actor: Figure, foes: Sequence[Figure], fight: Fight) -> Figure:
        """Whom ``actor`` attacks among ``foes`` (standing, non-empty): the lowest ``rank`` among those its
        attack can hurt (``hurts``; among all where it can hurt none); ties go to the first in the turn
        order."""
        return min([f for f in foes if self.hurts(actor, f)] or foes, key=lambda f: self.rank(f, fight))

    def compact(self, figures: Sequence[Figure], data: Mapping[str, Any]) -> Compact | None:
        """The compact model of a fight of ``figures`` (all combatants at the start, in the encounter's
        order) under these tactics (``rules.compact``), with the GM's data the encounter sees, or None
        where the fight uses what no model of the ruleset covers; the default: None (the forecast plays
        the procedures)."""
        return None


def reads_targeted(zielwahl: str) -> bool:
    """Whether the target picking ``zielwahl`` reads the attacks each figure has drawn ("verteilen"):
    only their order counts, never their number."""
    return zielwahl == "verteilen"


def zielwahl(value: object) -> str:
    """The GM's choice of target picking, checked (German error otherwise)."""
    if value not in ZIELWAHL:
        raise ValueError(t("forecast.bad_zielwahl", value=repr(value)[:40], known=", ".join(ZIELWAHL)))
    return str(value)
