"""The ruleset kit: everything an engine is built from, in one place.

Every ruleset, the built-in ones too, imports the kit from here alone. It subclasses ``Ruleset`` and
fills its slots, each one object (``Sheet``, ``Status``, ``Initiative``, ``Settings``, ``Tactics``);
procedures read ``Figure`` views, roll through ``Request.roller`` and return a ``Resolution``; the
parts of the dice and the store an engine needs come from here too (docs/regelwerk-schreiben.md).
"""

from ..dice.dist import convolve
from ..dice.exact import nth_highest, top_two
from ..dice.limits import MAX_SIDES
from ..state.effects import Effect
from ..state.resources import Landed
from ..state.transaction import TICKS, check_name
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
from .status import Status
from .tactics import ZIELWAHL, Action, Fight, Tactics
from .wording import effect_text

__all__ = ["DECLINE", "INT_RANGE", "MAX_NUMBER", "MAX_SIDES", "PASS", "TICKS", "ZIELWAHL", "Action",
           "Advice", "AttackData", "Choice", "Compact", "Dice", "Effect", "EntryField", "Field", "Fight",
           "Figure", "Initiative", "Landed", "Limits", "Odds", "Option", "Request", "Resolution",
           "Resource", "RulesError", "Ruleset", "Settings", "Sheet", "SheetError", "Status", "Step",
           "Tactics", "Take", "Verb", "as_json", "below_max", "check_name", "clauses", "convolve",
           "counted", "dice", "effect_text", "higher_initiative", "hurt", "listing", "mixture",
           "nth_highest", "odds", "read_yaml", "renamed", "renamed_in", "ruleset", "sentence", "spread",
           "top_two", "view", "vorgabe", "word"]
