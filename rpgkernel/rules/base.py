"""The interface through which a ruleset plugs into campaigns and encounters: ``Ruleset``, its slots.

A ruleset fills a few slots, each one object: its sheet (``Sheet``: the fields and what a sheet gives
a figure), a figure's state (``Status``), the order of a fight (``Initiative``), the GM's settings
(``Settings``), its verbs and its tactics (``Tactics``: the forecast, the advice). Nothing here knows a particular ruleset.
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
    from .resolution import Verb


MOVED = {"resources": "sheet", "resources_for": "sheet", "sheet_for": "sheet", "templates": "sheet",
         "limits": "sheet", "within_limits": "sheet", "conditions": "status", "out_of_fight": "status",
         "player_state": "status", "advice": "tactics", "no_forecast": "tactics"}
"""slots an engine filled on ``Ruleset`` itself before they were grouped -> the object that holds them now"""


def moved(cls: type) -> list[str]:
    """The slots of ``MOVED`` a ``Ruleset`` subclass still fills on itself ("name -> slot")."""
    own = {name for klass in cls.__mro__ if klass not in (Ruleset, object) for name in vars(klass)}
    return [f"{name} -> {slot}" for name, slot in MOVED.items() if name in own]


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
    #: how a forecast plays its fights and the table's advice on open choices (``rules.tactics``); the
    #: default plays no fight
    tactics: Tactics = Tactics()

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
