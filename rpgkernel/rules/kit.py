"""The ruleset kit: everything an engine is built from, in one place.

A ruleset (built in, or from another package through the entry-point group
``rpgkernel.rulesets``) subclasses ``Ruleset`` and fills its slots: the sheet,
the resources a sheet gives and their ``Limits``, the conditions, the
``%%resolve`` verbs and their procedures, the GM's settings, initiative, the tactics a forecast plays by.
Procedures read ``Figure`` views, roll through ``Request.roller``, record
``Step``s with the seed's section and return a ``Resolution`` with ``Effect``s
and open ``Choice``s, whose options the ``advice`` slot describes (``Advice``); user errors are a ``RulesError``. See
``docs/regelwerk-schreiben.md``.
"""

from .advice import Advice, Option, Take
from .base import Ruleset, higher_initiative
from .errors import RulesError, read_yaml
from .figure import Figure, Resource
from .limits import Limits, spread
from .resolution import INT_RANGE, Choice, Effect, Request, Resolution, Step, Verb, clauses, counted, listing, sentence
from .settings import Settings, as_json
from .sheet import Field, Sheet, SheetError
from .tactics import ZIELWAHL, Action, Fight, Tactics

__all__ = ["INT_RANGE", "ZIELWAHL", "Action", "Advice", "Choice", "Effect", "Field", "Fight", "Figure", "Limits",
           "Option", "Request", "Resolution", "Resource", "RulesError", "Ruleset", "Settings", "Sheet", "SheetError",
           "Step", "Tactics", "Take", "Verb", "as_json", "clauses", "counted", "higher_initiative", "listing",
           "read_yaml", "sentence", "spread"]
