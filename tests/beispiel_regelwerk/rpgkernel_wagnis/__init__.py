"""Wagnis: a toy ruleset, the worked example of docs/regelwerk-schreiben.md.

A figure dares something: W6 + Mut against the GM's Schwelle. After a miss it may
spend a point of Glück to roll the W6 again (an open choice).
"""

from __future__ import annotations

from rpgkernel.messages import Text
from rpgkernel.rules.kit import Ruleset

from . import texts  # noqa: F401  (registers the catalogue before the texts below are read)
from .settings import EINSTELLUNGEN
from .sheet import BOGEN
from .verbs import VERBS


class Wagnis(Ruleset):
    key = "wagnis"
    title = Text("wagnis.titel")
    sheet = BOGEN
    verbs = VERBS
    settings = EINSTELLUNGEN
