"""The ruleset kit: everything an engine is built from, in one place.

Every ruleset, the built-in ones too, imports the kit from here alone. It subclasses ``Ruleset`` and
fills its slots (see ``docs/regelwerk-schreiben.md``): procedures read ``Figure`` views, roll through
``Request.roller``, record ``Step``s and return a ``Resolution`` with ``Effect``s and open ``Choice``s;
user errors are a ``RulesError``; a forecast plays by ``Tactics`` on a ``Compact`` model.
"""

from ..state.effects import Effect
from .aliases import renamed, renamed_in
from .advice import DECLINE, Advice, Option, Take, mixture
from .base import Ruleset
from .registry import get as ruleset
from .initiative import Initiative, higher_initiative
from .compact import Compact
from .errors import RulesError, read_yaml
from .figure import Figure, Resource, view
from .forecast_data import AttackData, Dice, EntryField, Odds, dice, odds
from .limits import Limits, spread, vorgabe
from .player_words import below_max, hurt, word
from .resolution import INT_RANGE, PASS, Choice, Request, Resolution, Step, Verb, clauses, counted, listing, sentence
from .settings import Settings, as_json
from .sheet import MAX_NUMBER, Field, Sheet, SheetError
from .tactics import ZIELWAHL, Action, Fight, Tactics
from .wording import effect_text

__all__ = ["DECLINE", "INT_RANGE", "MAX_NUMBER", "PASS", "ZIELWAHL", "Action", "Advice", "AttackData", "Choice",
           "Compact", "Dice", "Effect", "EntryField", "Field", "Fight", "Figure", "Limits", "Odds", "Option",
           "Request", "Resolution", "Resource", "RulesError", "Ruleset", "Settings", "Sheet", "SheetError", "Step",
           "Tactics", "Take", "Verb", "as_json", "below_max", "clauses", "counted", "dice", "effect_text",
           "Initiative", "higher_initiative", "hurt", "listing", "mixture", "odds", "read_yaml", "renamed", "renamed_in", "ruleset", "sentence", "spread",
           "view", "vorgabe", "word"]
