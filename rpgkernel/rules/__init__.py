"""Rulesets: the base class engines build on, and the registry that finds them.

Every ruleset, the five built in ones too, is registered through the entry-point group
``rpgkernel.rulesets`` (see ``registry``); nothing here imports an engine.
"""

from .base import Ruleset
from .registry import GROUP, RulesetError, get, rulesets, source, title

__all__ = ["GROUP", "Ruleset", "RulesetError", "get", "rulesets", "source", "title"]
