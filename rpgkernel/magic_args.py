"""Splitting a magic's line into options and words, with German errors.

No IPython here: the magics and their tests use these functions directly.
"""

from __future__ import annotations

import difflib
import re
import shlex
from collections.abc import Iterable, Mapping

from .errors import RpgError
from .messages import t


def split(line: str, quotes: bool = False) -> list[str]:
    """The words of ``line``; with ``quotes``, "two words" or 'two words' stay one.

    Backslashes are kept as they are (Windows paths).
    """
    if not quotes:
        return line.split()
    lexer = shlex.shlex(line, posix=True)
    lexer.whitespace_split = True
    lexer.commenters = ""
    lexer.escape = ""
    try:
        return list(lexer)
    except ValueError:
        raise RpgError(t("magic.open_quote")) from None


#: the keys of options whose value is a comma list (given dice: ``--würfel 9,15``)
LISTS = frozenset({"würfel"})
#: a word that continues such a list when it was split by a space ("15", "3,4", ",5")
_LIST_PART = re.compile(r"[,;]?\d+([,;]\d*)*")


def options(words: Iterable[str], known: Mapping[str, str], usage: str,
            flags: Iterable[str] = ()) -> tuple[dict[str, str | bool], list[str]]:
    """Options (``--name value``, ``--name=value``, flags) and the remaining words.

    ``known`` maps each spelling of an option to its key; keys in ``flags``
    take no value. A list option (``LISTS``) followed by bare numbers was split by spaces: refused,
    with the comma form.
    """
    flags = set(flags)
    words = list(words)
    opts: dict[str, str | bool] = {}
    rest: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        name, eq, value = word.partition("=")
        if name in known:
            key = known[name]
            if key in flags:
                opts[key] = True
            elif eq:
                opts[key] = value
            elif i + 1 < len(words):
                i += 1
                opts[key] = words[i]
            else:
                raise RpgError(t("magic.missing_value", option=name) + "\n" + t("magic.usage", usage=usage))
            if key in LISTS:
                _joined(name, str(opts[key]), words[i + 1:], usage)
        elif word.startswith("--"):
            close = difflib.get_close_matches(name, list(known), n=1)
            hint = "\n" + t("suggest.die", suggestion=close[0]) if close else ""
            raise RpgError(t("magic.bad_option", option=name) + hint + "\n" + t("magic.usage", usage=usage))
        else:
            rest.append(word)
        i += 1
    return opts, rest


def _joined(option: str, value: str, after: list[str], usage: str) -> None:
    """Refuse the bare numbers that follow a list option's ``value``, pointing at the comma form."""
    parts = [value]
    for word in after:
        if not _LIST_PART.fullmatch(word):
            break
        parts.append(word)
    if len(parts) > 1:
        joined = ",".join(p.strip(",;") for p in parts if p.strip(",;"))
        raise RpgError(t("magic.list_with_spaces", option=option, given=" ".join(parts), joined=joined)
                       + "\n" + t("magic.usage", usage=usage))


def integer(opts: Mapping[str, object], key: str, option: str, expected: str | None = None,
            low: int | None = None, high: int | None = None) -> int | None:
    """The option ``key`` as an int (None when absent), optionally within ``low``..``high``."""
    if key not in opts:
        return None
    try:
        value = int(str(opts[key]))
    except ValueError:
        value = None
    if value is None or (low is not None and value < low) or (high is not None and value > high):
        raise RpgError(t("magic.bad_value", option=option, value=opts[key],
                         expected=expected or t("magic.expected_int")))
    return value


_DIE = re.compile(r"[WwDd]?(\d{1,9}|%)")


def die_size(opts: Mapping[str, object], key: str, option: str) -> int | None:
    """The option ``key`` as a die's size (``W6``, ``w20``, ``d8``, ``6``, ``W%``: 100); None when absent."""
    if key not in opts:
        return None
    match = _DIE.fullmatch(str(opts[key]).strip())
    if match is None:
        raise RpgError(t("magic.bad_value", option=option, value=opts[key], expected=t("magic.expected_die")))
    return 100 if match[1] == "%" else int(match[1])


def given_dice(opts: Mapping[str, object]) -> list[int] | None:
    """The ``--würfel`` option (``7,3,1,5``) as ints; None when absent."""
    if "würfel" not in opts:
        return None
    try:
        return [int(v) for v in str(opts["würfel"]).replace(";", ",").split(",") if v.strip()]
    except ValueError:
        raise RpgError(t("magic.bad_value", option="--würfel", value=opts["würfel"],
                         expected=t("magic.expected_dice"))) from None
