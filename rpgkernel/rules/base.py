"""The interface through which a ruleset plugs into campaigns and encounters: ``Ruleset``, its slots.

A ruleset fills a few slots, each one object: its sheet (``Sheet``: the fields and what a sheet gives
a figure), a figure's state (``Status``), the order of a fight (``Initiative``), the GM's settings
(``Settings``), its verbs and the forecast's tactics. Nothing here knows a particular ruleset.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from ..messages import t
from .errors import RulesError
from .initiative import Initiative
from .settings import Keeper, Settings
from .sheet import Sheet
from .status import Status
from .tactics import Tactics

if TYPE_CHECKING:
    from .advice import Advice
    from .resolution import Request, Resolution, Verb


class Ruleset:
    """Base class of a ruleset engine; subclasses set the class attributes."""

    key: str = ""
    title: str = ""
    #: the fields of its sheet and what a sheet gives a figure: resources, their limits, stat blocks
    sheet: Sheet = Sheet()
    #: a figure's state: the conditions it knows, who is out of the fight and why, what players are told
    status: Status = Status()
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

    def advice(self, request: Request, resolution: Resolution) -> list[Advice]:
        """The options of ``resolution``'s open choices with their exact consequences (``rules.advice``),
        one ``Advice`` per choice and figure who may take it; ``request``: the request the procedure
        ran with (its dice already rolled). Nothing is taken: advice only describes. The default:
        no advice."""
        return []
