"""The interface through which a ruleset plugs into campaigns and encounters.

A ruleset declares its character sheet (fields, validation), the resources a
sheet gives a figure (GD/VIG, LP/AP, damage tracks, HP), the conditions it
knows, and how initiative is determined. Procedures (attacks, saves, …) are
added by the engines; nothing here knows a particular ruleset.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence

from ..dice.roll import Roller
from . import limits as _limits
from .figure import Figure, view
from .limits import Limits
from .settings import Settings
from .sheet import Sheet
from .tactics import Tactics

if TYPE_CHECKING:
    from ..state.resources import Landed
    from .advice import Advice
    from .resolution import Request, Resolution, Verb


class Ruleset:
    """Base class of a ruleset engine; subclasses set the class attributes."""

    key: str = ""
    title: str = ""
    sheet: Sheet = Sheet()
    #: condition name -> German description
    conditions: Mapping[str, str] = {}
    #: whether rounds are split into segments (e.g. ten per round)
    segments: int | None = None
    #: the %%resolve verbs: German name -> Verb (see rules.resolution)
    verbs: Mapping[str, Verb] = {}
    #: whether initiative is determined anew at the start of every round
    initiative_each_round: bool = False
    #: whether the rules roll an initiative at all; False: the order follows from the rules alone, and
    #: the tables speak of the order ("Reihenfolge"), not of an initiative
    initiative_rolled: bool = True
    #: the GM's settings (``rules.settings``), None for a ruleset without any
    settings: Settings[Any] | None = None
    #: how a forecast plays this ruleset's fights (``rules.tactics``); None: the ruleset has no forecast
    tactics: Tactics | None = None
    #: why a ruleset without ``tactics`` has no forecast (German, a catalogue's text); "": the kit's words
    no_forecast: str = ""

    def resources(self, sheet: Mapping[str, Any]) -> dict[str, dict[str, int]]:
        """The resources a validated sheet starts with: name -> {"value", "max"}."""
        return {}

    def sheet_for(self, data: Mapping[str, Any]) -> Sheet:
        """The sheet as the GM's ``data`` shapes it: the data a figure's encounter sees
        (``state.model.data``), from which ``settings`` are built. The default is ``sheet``;
        a ruleset whose fields follow its settings (AdZ's techniques) builds it from them."""
        return self.sheet

    def resources_for(self, sheet: Mapping[str, Any], data: Mapping[str, Any]) -> dict[str, dict[str, int]]:
        """The resources a sheet checked by ``sheet_for(data)`` starts with; the default is
        ``resources(sheet)``, a ruleset whose resources follow its settings builds them from them."""
        return self.resources(sheet)

    def templates(self) -> dict[str, dict[str, Any]]:
        """The stat blocks the seed text itself contains, the starter entries of the GM's library of
        figures (``rpgkernel.library``): name -> sheet (``werte:``). Only what the text gives, never
        invented numbers; the default: none."""
        return {}

    def limits(self, figure: Figure, resource: str, data: Mapping[str, Any]) -> Limits:
        """The range ``figure``'s ``resource`` stays within (``rules.limits``), as the GM's ``data``
        the figure's encounter sees shapes it. The default: from the GM's lower bound (0 unless kept,
        ``limits.untergrenze``) to the resource's maximum; a ruleset whose seed says otherwise
        overrides this."""
        return _limits.vorgabe(figure, resource, data)

    def within_limits(self, figure: Mapping[str, Any] | Figure, resource: str, by: int,
                      data: Mapping[str, Any]) -> list[Landed]:
        """How a change of ``resource`` by ``by`` lands within ``limits``: the campaign applies every
        change of a resource this way (``state.resources``)."""
        fig = view(figure)
        return _limits.spread(fig, resource, by, lambda name: self.limits(fig, name, data))

    def initiative_rolls(self, combatants: Mapping[str, Mapping[str, Any]], roller: Roller,
                         data: Mapping[str, Any] | None = None) -> tuple[dict[str, int], dict[str, Any]]:
        """Each combatant's initiative value, rolled through ``roller`` (a ``dice.Roller``),
        and the rolls for the journal (name -> ``Roll.to_dict()``). ``data``: the GM's data
        the encounter sees (``Campaign.data``), for rulesets with settings.

        The default rolls ``initiative_expression`` per combatant (0 where it is None);
        a ruleset overrides this for shared rolls (a leader's, a side's).
        """
        values: dict[str, int] = {}
        rolled: dict[str, Any] = {}
        for name, combatant in combatants.items():
            expr = self.initiative_expression(combatant)
            if expr is None:
                values[name] = 0
                continue
            r = roller.roll(expr)
            values[name], rolled[name] = r.total, r.to_dict()
        return values, rolled

    def initiative_order(self, combatants: Mapping[str, Mapping[str, Any]],
                         rolls: Mapping[str, int], roller: Roller | None = None) -> list[str]:
        """The turn order from each combatant's initiative roll (highest first, ties by name).

        ``roller`` (a ``dice.Roller``, given or random dice) serves rulesets that roll off ties.
        """
        return sorted(combatants, key=lambda name: (-rolls[name], name))

    def initiative_alone(self, combatants: Mapping[str, Mapping[str, Any]]) -> bool:
        """Whether ``initiative_rolls`` rolls each of ``combatants`` for itself alone (nothing shared),
        as the default does: a forecast then tries each one's dice apart. A ruleset sharing rolls (a
        side's, a leader's) says where it does."""
        return True

    def initiative_value_chances(self, combatants: Mapping[str, Mapping[str, Any]],
                                 data: Mapping[str, Any] | None = None
                                 ) -> list[tuple[float, dict[str, int]]] | None:
        """The chance of every set of values ``initiative_rolls`` gives, for a forecast, where trying its
        dice would take long (ties rolled again); an empty list where there are too many to list (the
        forecast plays the procedures); the default: None, the forecast tries the dice."""
        return None

    def initiative_chances(self, combatants: Mapping[str, Mapping[str, Any]],
                           rolls: Mapping[str, int]) -> list[tuple[float, Sequence[str]]] | None:
        """The chance of each turn order ``initiative_order`` gives from ``rolls``, for a forecast,
        where its roll-offs are repeated while tied (trying their dice would not end); the default:
        None, the forecast tries the dice of the roll-offs (or there are none)."""
        return None

    def acting_together(self, combatants: Mapping[str, Mapping[str, Any]],
                        rolls: Mapping[str, int]) -> list[frozenset[str]]:
        """The sets of ``combatants`` that act at the same time by their initiative values ``rolls``
        (a tie the seed plays as simultaneous: a blow that fells one of them does not stop its own), for
        a forecast; the default: none, everybody acts in turn."""
        return []

    def initiative_expression(self, combatant: Mapping[str, Any]) -> str | None:
        """The dice expression a combatant rolls for initiative; None: no roll."""
        return "W20"

    # -- slots the table reads (the encounter tracker, the player view) -------------------
    def out_of_fight(self, figure: Figure | Mapping[str, Any], data: Mapping[str, Any] | None = None) -> str | None:
        """Why ``figure`` (a view, or the record the campaign keeps) can no longer act, in the seed's
        words (a state such as "tot"), or None while it can; read from its state as it stands, so it
        ends by itself with the state (healing, undo). ``data``: the GM's data its encounter sees, for
        what the seed leaves to the GM's settings. The default: a figure never leaves the fight by
        the rules."""
        return None

    def player_state(self, figure: Figure | Mapping[str, Any], data: Mapping[str, Any] | None = None) -> str | None:
        """What players are told of ``figure``'s state where the GM shows no exact values: a
        description in the seed's terms ("verwundet"), never a number, or None for nothing; ``data``
        as for ``out_of_fight``. The default: nothing."""
        return None

    def advice(self, request: Request, resolution: Resolution) -> list[Advice]:
        """The options of ``resolution``'s open choices with their exact consequences (``rules.advice``),
        one ``Advice`` per choice and figure who may take it; ``request``: the request the procedure
        ran with (its dice already rolled). Nothing is taken: advice only describes. The default:
        no advice."""
        return []

    # -- slots the encounter's order reads (joining, delaying, moving, groups) -------------
    def join_initiative(self, name: str, combatants: Mapping[str, Mapping[str, Any]], rolls: Mapping[str, int],
                        roller: Roller, data: Mapping[str, Any] | None = None
                        ) -> tuple[int, dict[str, Any], str | None]:
        """The initiative of ``name`` (one of ``combatants``, as records) that joins a running fight or
        has its initiative rolled anew alone: its value, the rolls for the journal and a German note of
        where the value comes from (None for a plain roll). ``rolls``: the values the others hold this
        round. The default rolls for it alone (``initiative_rolls``); a ruleset whose initiative is
        shared (a side's die, a leader's roll) takes it from the others."""
        values, rolled = self.initiative_rolls({name: combatants[name]}, roller, data)
        return values[name], rolled, None

    def order_refusal(self, change: str, figure: Mapping[str, Any], overtaken: Sequence[Mapping[str, Any]],
                      rolls: Mapping[str, int]) -> str | None:
        """Why the rules forbid a change of the turn order, in German naming the seed's rule; None where
        they allow it. ``change``: "vor" (``figure`` moves before others), "jetzt" (it acts now, out of
        turn), "neu" (its initiative is rolled again alone), "gruppe" (one roll for the group it heads);
        ``overtaken``: the figures (records) it would now act before that stood ahead of it; ``rolls``:
        this round's values. The default allows every change."""
        return None

    def delay_after(self, figure: Mapping[str, Any], still_to_act: Sequence[Mapping[str, Any]]) -> str | None:
        """Whom a delaying ``figure`` waits for: the name of one of ``still_to_act`` (the records of this
        round's figures after the current turn, in order) after whom it acts; None: it holds until the
        GM has it act (``Encounter.act_now``). The default holds."""
        return None


def higher_initiative(figure: Mapping[str, Any], others: Sequence[Mapping[str, Any]],
                      rolls: Mapping[str, int]) -> tuple[list[str], list[str]]:
    """The names of ``others`` whose initiative this round is higher than ``figure``'s, and of those with
    the same value (a record without a value counts as neither): what a rule of acting in descending
    order of initiative reads."""
    mine = rolls.get(view(figure).name)
    if mine is None:
        return [], []
    known = [(n, rolls[n]) for n in (view(o).name for o in others) if n in rolls]
    return [n for n, v in known if v > mine], [n for n, v in known if v == mine]
