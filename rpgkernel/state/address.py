"""Where a campaign lives, as messages may show it: never with a password.

``shown`` gives a SQLite path as it is and a ``postgresql://`` URL without its password, however
written; an ``ambiguous`` URL (a raw ``@`` or ``/`` in the password) is refused before libpq
sees it. ``scrub`` removes every spelling of the password from a text (``secrets``).
"""

from __future__ import annotations

import re
from urllib.parse import unquote

_URL = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")
#: a libpq keyword/value connection string's password (``password=x`` or ``password = 'x y'``)
_WORD = re.compile(r"""(\bpassword\s*=\s*)('(?:[^'\\]|\\.)*'?|\S*)""", re.IGNORECASE)
HIDDEN = "***"


def is_url(target: str) -> bool:
    return _URL.match(target) is not None


def looks_like_conninfo(target: str) -> bool:
    """A libpq ``key=value`` connection string with a password (not a file name anyone uses)."""
    return not is_url(target) and _WORD.search(target) is not None


def ambiguous(url: str) -> bool:
    """Whether libpq would read part of ``url``'s user part as host, port or database."""
    found = _URL.match(url) if is_url(url) else None
    rest = url[found.end():] if found else url
    at, slash = rest.find("@"), rest.find("/")
    return rest.count("@") > 1 or (at >= 0 and 0 <= slash < at)


def shown(target: str) -> str:
    """``target`` as messages, reprs and outputs may show it."""
    match = _URL.match(target)
    if match is None:  # a path, or a key=value connection string: nothing after its password
        word = _WORD.search(target)
        if word is not None:
            return target[:word.start(2)] + HIDDEN
        user, at, tail = target.rpartition("@")  # an address without its scheme: user:password@host
        return user.split(":", 1)[0] + at + tail if at and ":" in user else target
    scheme, rest = match.group(0), _without_password(target[match.end():])
    if "@" not in rest:
        return scheme + rest
    if ambiguous(target):
        return scheme + "…@" + rest[rest.rfind("@") + 1:]
    user, _, tail = rest.partition("@")
    user = user.split(":", 1)[0]
    return scheme + (user + "@" if user else "") + tail


def secrets(target: str) -> set[str]:
    """Every spelling of a password in ``target`` (raw and percent-decoded), to keep out of messages."""
    found: set[str] = set()
    match = _URL.match(target)
    if match is not None:
        rest = target[match.end():]
        for at in (i for i, c in enumerate(rest) if c == "@"):  # each '@' might end the user part
            user = rest[:at]
            if ":" in user:
                found.add(user.split(":", 1)[1])
        for _, _, pieces in _password_params(rest):
            found.update(pieces)
    else:
        for m in _WORD.finditer(target):
            found.add(m.group(2))
            found.add(m.group(2).strip("'"))
    found |= {unquote(s) for s in found}
    return {s for s in found if s}


def scrub(text: str, hidden: set[str] | frozenset[str]) -> str:
    """``text`` with every string of ``hidden`` replaced (longest first)."""
    for secret in sorted(hidden, key=len, reverse=True):
        text = text.replace(secret, HIDDEN)
    return text


#: a ``key=value`` query parameter, after ``?`` or ``&``; the value runs to the next ``&``
_PARAM = re.compile(r"[?&]([^?&=]*)=([^&]*)")
_PIECE = re.compile(r"&([^&=]*)(?=&|$)")  # an item without '=': a piece of the value before it (a raw '&')


def _password_params(text: str) -> list[tuple[int, int, list[str]]]:
    """``(start, end, value and its pieces)`` of each ``password=`` parameter in ``text``.

    libpq decodes the key (``pass%77ord`` counts); an item without ``=``
    right after a password is a piece of it (a raw ``&``).
    """
    out = []
    for m in _PARAM.finditer(text):
        if unquote(m.group(1)).strip().lower() != "password":
            continue
        end, values = m.end(), [m.group(2)]
        for piece in iter(lambda: _PIECE.match(text, end), None):
            values.append(piece.group(1))
            values.append(text[m.start(2):piece.end()])
            end = piece.end()
        out.append((m.start(), end, values))
    return out


def _without_password(text: str) -> str:
    """``text`` without its ``password=`` parameters."""
    for start, end, _ in reversed(_password_params(text)):
        sep = text[start]
        text = text[:start] + (sep if sep == "?" else "") + text[end:]
    return re.sub(r"\?&", "?", text).rstrip("?&")
