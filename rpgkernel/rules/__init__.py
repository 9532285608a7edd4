"""The ruleset registry: the five rulesets and which of them are implemented."""

from __future__ import annotations

from ..errors import RpgError
from ..messages import t
from ..state import rulebook
from .base import Ruleset
from .sheet import Sheet


class RulesetError(RpgError, KeyError):
    """An unknown ruleset key."""

    def __str__(self) -> str:
        return str(self.args[0])


_FREE = Ruleset()
_FREE.sheet = Sheet(open=True)

# key -> German title; an engine that registers itself counts as implemented
RULESETS: dict[str, str] = {
    "adz": "AdZ – Aera der Zauberey",
    "bastionland": "Mythic Bastionland",
    "kampfwerte": "Kampfwerte (Hexfeld-Taktik)",
    "midgard": "Midgard – Hausregeln",
    "osr": "OSR – Kampf",
}
IMPLEMENTED: set[str] = set()
_ENGINES: dict[str, Ruleset] = {}


def rulesets() -> list[str]:
    """The ruleset keys, sorted."""
    return sorted(RULESETS)


def register(engine: Ruleset) -> None:
    """Make ``engine`` the ruleset for its key (engines call this on import)."""
    _ENGINES[engine.key] = engine
    IMPLEMENTED.add(engine.key)


def get(key: str | None) -> Ruleset:
    """The engine for ``key``; a plain ``Ruleset`` (no sheet fields) when none is registered."""
    if key is not None and key not in RULESETS and key not in _ENGINES:
        raise RulesetError(t("rpg.unknown_ruleset", key=key, known=", ".join(rulesets())))
    return _ENGINES.get(key or "", _FREE)


rulebook.use(get)  # the campaign state finds rulesets here

# engines register themselves on import
from . import bastionland  # noqa: E402,F401
from . import adz  # noqa: E402,F401
from . import midgard  # noqa: E402,F401
from . import kampfwerte  # noqa: E402,F401
from . import osr  # noqa: E402,F401
