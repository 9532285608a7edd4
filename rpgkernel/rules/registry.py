"""The ruleset registry: every ruleset, built in or from another package, is an entry point.

A distribution declares its rulesets in the entry-point group ``rpgkernel.rulesets``, one line
``key = package.module:RulesetClass`` each. Finding them reads package metadata only; an engine
module is imported when ``get(key)`` first asks for it. Packages installed while the kernel runs
are found.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from ..errors import RpgError
from ..messages import t
from .base import Ruleset
from .resolution import listing

GROUP = "rpgkernel.rulesets"


class RulesetError(RpgError, KeyError):
    """An unknown ruleset key."""

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True)
class Entry:
    """One distribution's claim on a ruleset key."""

    key: str
    target: str      # "package.module:RulesetClass"
    dist: str        # the distribution's name (what pip install and pip uninstall take)
    folder: str      # the sys.path entry the distribution was found in
    point: Any = field(compare=False)   # its importlib.metadata.EntryPoint

    def load(self) -> Ruleset:
        """The ruleset, or a German RpgError naming key and distribution: no traceback from inside."""
        try:
            cls = self.point.load()
        except Exception as err:  # a module of another package: whatever its import raises
            raise self._broken(t("rpg.ruleset_import", error=f"{type(err).__name__}: {err}")) from err
        if not (isinstance(cls, type) and issubclass(cls, Ruleset)):
            raise self._broken(t("rpg.ruleset_not_ruleset", target=self.target))
        if cls.key != self.key:
            raise self._broken(t("rpg.ruleset_other_key", own=cls.key))
        try:
            engine = cls()
            if engine.settings is not None:
                engine.settings.defaults()   # the shipped defaults are read and checked as it loads
            return engine
        except Exception as err:  # its constructor or shipped data, likewise
            raise self._broken(t("rpg.ruleset_import", error=f"{type(err).__name__}: {err}")) from err

    def _broken(self, reason: str) -> RpgError:
        return RpgError(t("rpg.ruleset_broken", key=self.key, dist=self.dist, target=self.target,
                          reason=reason.rstrip(".")))


FREE = "rpgkernel.rules.frei:Frei"
"""the free mode (``get(None)``): loaded by its target like every engine, at its first use"""

_folders: dict[str, tuple[int | None, bool, tuple[tuple[str, tuple[Entry, ...]], ...]]] = {}
"""sys.path entry -> (its mtime, whether it holds distributions, (distribution, its entries) found)"""
_read_from: tuple[list[str], tuple[tuple[str, int | None], ...]] | None = None
"""the sys.path the claims were merged from, and the folders holding distributions with their mtimes"""
_claims: dict[str, tuple[Entry, ...]] = {}
_loaded: dict[Entry, Ruleset] = {}
_ready: dict[str, Ruleset] = {}
"""key -> its loaded engine under the current claims: the quick way for get (called often)"""


def rulesets() -> list[str]:
    """The ruleset keys, sorted (no engine is imported)."""
    return sorted(_current())


def get(key: str | None) -> Ruleset:
    """The engine for ``key`` (imported at its first use); for None the free mode (``rules.frei``)."""
    if key is None:
        return _free()
    if key in _ready and _read_from is not None and sys.path == _read_from[0]:
        return _ready[key]
    claims = _current(modified=False).get(key) or _current().get(key)   # or installed meanwhile
    if not claims:
        raise RulesetError(t("rpg.unknown_ruleset", key=key, known=", ".join(rulesets()) or "–"))
    if len(claims) > 1:
        raise RpgError(t("rpg.ruleset_twice", key=key, dists=listing([c.dist for c in claims])))
    entry = claims[0]
    if entry not in _loaded:
        _loaded[entry] = entry.load()
    _ready[key] = _loaded[entry]
    return _ready[key]


@cache
def _free() -> Ruleset:
    from importlib.metadata import EntryPoint  # here: see _read

    return Entry("", FREE, "rpgkernel", "", EntryPoint("", FREE, GROUP)).load()


def title(key: str | None) -> str:
    """``key``'s title for messages; ``key`` itself where it is not installed or does not load (a
    campaign from elsewhere), so the message is about what it says; "" for no ruleset."""
    if key is None:
        return ""
    try:
        return get(key).title or key
    except RpgError:
        return key


def source(key: str) -> str:
    """The distribution that provides ``key``; several if more than one claims it."""
    return listing([c.dist for c in _current().get(key, ())])


def _current(modified: bool = True) -> dict[str, tuple[Entry, ...]]:
    """key -> the distributions claiming it, read again for a changed sys.path and, with
    ``modified``, for folders holding distributions that were modified since."""
    global _read_from, _claims
    path = list(sys.path)
    if (_read_from is not None and _read_from[0] == path
            and not (modified and any(_mtime(f) != m for f, m in _read_from[1]))):
        return _claims
    claims: dict[str, list[Entry]] = {}
    names: set[str] = set()
    watched = []
    for folder in dict.fromkeys(path):
        mtime = _mtime(folder)
        if folder not in _folders or _folders[folder][0] != mtime:
            _folders[folder] = (mtime, *_read(folder))
        _, holds, dists = _folders[folder]
        if holds:
            watched.append((folder, mtime))
        for name, entries in dists:
            if name not in names:
                names.add(name)
                for entry in entries:
                    claims.setdefault(entry.key, []).append(entry)
    _claims = {key: tuple(found) for key, found in claims.items()}
    _read_from = (path, tuple(watched))
    _ready.clear()
    return _claims


def _read(folder: str) -> tuple[bool, tuple[tuple[str, tuple[Entry, ...]], ...]]:
    """Whether ``folder`` holds distributions, and those declaring rulesets with their entries."""
    from importlib.metadata import distributions  # here: importing it would slow down import rpgkernel

    holds, found = False, []
    for dist in distributions(path=[folder]):
        holds = True
        points = dist.entry_points.select(group=GROUP)
        if points:
            name = dist.metadata["Name"] or "?"
            found.append((re.sub(r"[-_.]+", "-", name).lower(),
                          tuple(Entry(p.name, p.value, name, folder, p) for p in points)))
    return holds, tuple(found)


def _mtime(folder: str) -> int | None:
    try:
        return os.stat(folder or ".").st_mtime_ns
    except OSError:
        return None
