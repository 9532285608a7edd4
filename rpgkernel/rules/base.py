"""The interface through which a ruleset plugs into campaigns and encounters.

A ruleset declares its character sheet (fields, validation), the resources a
sheet gives a figure (GD/VIG, LP/AP, damage tracks, HP), the conditions it
knows, and how initiative is determined. Procedures (attacks, saves, …) are
added by the engines; nothing here knows a particular ruleset.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from ..messages import t
from . import limits as _limits
from .errors import RulesError
from .figure import Figure, view
from .initiative import Initiative
from .limits import Limits
from .settings import Keeper, Settings
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
    #: the %%resolve verbs: German name -> Verb (see rules.resolution)
    verbs: Mapping[str, Verb] = {}
    #: the order of a fight: whether and when initiative is rolled, the order, joining, moving, delaying
    initiative: Initiative = Initiative()
    #: the GM's settings (``rules.settings``), None for a ruleset without any
    settings: Settings[Any] | None = None
    #: how a forecast plays this ruleset's fights (``rules.tactics``); None: the ruleset has no forecast
    tactics: Tactics | None = None
    #: why a ruleset without ``tactics`` has no forecast (German, a catalogue's text); "": the kit's words
    no_forecast: str = ""

    def einrichten(self, daten: Mapping[str, Any] | None = None, *, kampagne: Keeper | None = None,
                   begegnung: str | None = None) -> Any:
        """Check the GM's settings ``daten`` (as the campaign keeps them; None: back to the defaults) and
        keep them in ``kampagne`` (for ``begegnung`` only, if given): ``settings.keep``. Without
        ``kampagne`` only checked and returned; a ruleset's own ``einrichten`` reads files into ``daten``."""
        if self.settings is None:
            if daten:
                raise RulesError(t("rules.no_settings", ruleset=str(self.title or self.key)))
            return None
        return self.settings.keep(daten, kampagne, begegnung)

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
