"""Reversible changes to the campaign state, a JSON document.

Each change names a path and keeps what was there before: ``{"op": "set", "path", "value",
"old"}`` (``old`` absent for a new key), ``{"op": "del", "path", "old"}``, ``{"op": "add",
"path", "by"}`` (additions commute). Undo appends the inverse changes; redo the original ones.
"""

from __future__ import annotations

import copy
from typing import Any, Mapping

Change = dict[str, Any]
Path = list[str]


def set_(path: Path, value: Any, state: dict[str, Any]) -> Change:
    """A change that puts ``value`` at ``path`` (remembering what was there)."""
    change: Change = {"op": "set", "path": list(path), "value": copy.deepcopy(value)}
    found, old = lookup(state, path)
    if found:
        change["old"] = copy.deepcopy(old)
    return change


def delete(path: Path, state: dict[str, Any]) -> Change:
    found, old = lookup(state, path)
    if not found:
        raise KeyError("/".join(path))
    return {"op": "del", "path": list(path), "old": copy.deepcopy(old)}


def add(path: Path, by: int) -> Change:
    return {"op": "add", "path": list(path), "by": by}


def lookup(state: Mapping[str, Any], path: Path) -> tuple[bool, Any]:
    node: Any = state
    for key in path:
        if not isinstance(node, dict) or key not in node:
            return False, None
        node = node[key]
    return True, node


class BrokenChange(ValueError):
    """A change record that is not one (no op, an unknown op, a bad path, a missing value)."""


def apply(state: dict[str, Any], change: Change, copy_value: bool = False) -> None:
    """Carry out ``change`` on ``state`` in place (missing parents are created).

    The fold uses this on events just read from the store, so values are
    taken over, not copied: the state owns them from here on (``copy_value``
    copies them, for events still in use). A record that is no change raises
    ``BrokenChange``, ``KeyError`` or ``TypeError``, and a path through
    something that is not a dict ``AttributeError`` or ``TypeError``, each
    before this change alters anything (``problem`` tells which).
    """
    path = change["path"]
    if type(path) is not list:
        raise BrokenChange()
    *parents, last = path
    node = state
    for key in parents:
        if type(key) is not str:
            raise BrokenChange()
        node = node.setdefault(key, {})
    if type(last) is not str:
        raise BrokenChange()
    _carry_out(node, last, change, copy_value)


def problem(change: object) -> bool:
    """Whether ``change`` is no well-formed change record (rather than one that does not fit the state)."""
    if type(change) is not dict:
        return True
    path, op = change.get("path"), change.get("op")
    return (type(path) is not list or not path or any(type(k) is not str for k in path)
            or op not in ("set", "del", "add") or (op == "set" and "value" not in change)
            or (op == "add" and type(change.get("by")) not in (int, float)))


def applied(state: dict[str, Any], change: Change, copy_value: bool = True) -> dict[str, Any]:
    """A new state with ``change`` carried out; ``state`` stays as it was.

    Only the dictionaries on the change's path are copied; everything else
    is shared, so a transaction's working state costs what it touches
    (``copy_value=False``: the change's value too, for a change made here).
    """
    *parents, last = change["path"]
    root = dict(state)
    node = root
    for key in parents:
        child = node.get(key)
        node[key] = node = dict(child) if isinstance(child, dict) else {}
    _carry_out(node, last, change, copy_value)
    return root


def _carry_out(node: dict[str, Any], last: str, change: Change, copy_value: bool = True) -> None:
    op = change["op"]
    if op == "add":
        node[last] = node.get(last, 0) + change["by"]
    elif op == "set":
        node[last] = copy.deepcopy(change["value"]) if copy_value else change["value"]
    elif op == "del":
        node.pop(last, None)
    else:
        raise BrokenChange()


def diff(old: dict[str, Any], new: dict[str, Any], path: Path | None = None) -> list[Change]:
    """Changes that turn the document ``old`` into ``new`` (``set`` and ``del``, as deep as both are dicts)."""
    path = path or []
    out: list[Change] = [{"op": "del", "path": [*path, k], "old": copy.deepcopy(v)}
                         for k, v in old.items() if k not in new]
    for key, value in new.items():
        if key not in old:
            out.append({"op": "set", "path": [*path, key], "value": copy.deepcopy(value)})
        elif old[key] != value:
            if type(old[key]) is dict and type(value) is dict:
                out += diff(old[key], value, [*path, key])
            else:
                out.append({"op": "set", "path": [*path, key], "value": copy.deepcopy(value),
                            "old": copy.deepcopy(old[key])})
    return out


def invert(changes: list[Change]) -> list[Change]:
    """The changes that undo ``changes`` (in reverse order)."""
    out = []
    for c in reversed(changes):
        if c["op"] == "add":
            out.append({"op": "add", "path": c["path"], "by": -c["by"]})
        elif c["op"] == "del":
            out.append({"op": "set", "path": c["path"], "value": c["old"]})
        elif "old" in c:
            out.append({"op": "set", "path": c["path"], "value": c["old"], "old": c["value"]})
        else:
            out.append({"op": "del", "path": c["path"], "old": c["value"]})
    return out
