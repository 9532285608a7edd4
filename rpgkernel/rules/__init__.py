"""The ruleset registry: the five rulesets and which of them are implemented."""

from __future__ import annotations

# key -> German title; an engine registers itself in IMPLEMENTED when it lands
RULESETS: dict[str, str] = {
    "adz": "AdZ – Aera der Zauberey",
    "bastionland": "Mythic Bastionland",
    "kampfwerte": "Kampfwerte (Hexfeld-Taktik)",
    "midgard": "Midgard – Hausregeln",
    "osr": "OSR – Kampf",
}
IMPLEMENTED: set[str] = set()


def rulesets() -> list[str]:
    """The ruleset keys, sorted."""
    return sorted(RULESETS)
