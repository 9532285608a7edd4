"""Other names of the GM's keys (English: ``"guard": "gd"``), the one way every key takes them.

A table of aliases (other name -> German key) sits beside what reads the keys: ``%%figuren``'s block,
a ruleset's sheet, each section of the GM's data. Keys and aliases are read in any case; a key given
under two names is refused.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from ..messages import t
from .errors import RulesError


def canonical(name: str, aliases: Mapping[str, str], known: Collection[str] = ()) -> str:
    """The key ``name`` stands for: itself, a known key (``known`` or an alias's German key) in another
    case, or the German key of that alias; an unknown name stays as it is."""
    if name in known:
        return name
    folded = name.casefold()
    found = next((k for k in (*known, *aliases.values()) if k.casefold() == folded), None)
    return found or next((german for alias, german in aliases.items() if alias.casefold() == folded), name)


def renamed(block: Mapping[Any, Any], aliases: Mapping[str, str], error: type[Exception] = RulesError,
            message: str = "aliases.key_twice") -> dict[Any, Any]:
    """``block`` with each text key read as its ``canonical`` key (other keys as they are); a key given
    twice raises ``error`` with the catalogue text ``message`` (fields ``key``, ``german``)."""
    out: dict[Any, Any] = {}
    for key, value in block.items():
        name = canonical(key, aliases) if isinstance(key, str) else key
        if name in out:
            raise error(t(message, key=_short(key), german=name))
        out[name] = value
    return out


def renamed_in(value: Any, aliases: Mapping[str, str]) -> Any:
    """``value`` read through ``renamed`` where it is a mapping, else as it is (the section's own check
    says what fits)."""
    return renamed(value, aliases) if isinstance(value, Mapping) else value


def _short(value: Any, n: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= n else text[:n - 1] + "…"
