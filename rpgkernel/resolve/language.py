"""The ``%%resolve`` language: one action per line, read into ``Command``s.

    # comments run to the end of the line
    angriff Ritter, Knappe -> Söldner bonus=W8 smite
    probe "Sir Aldric" vig

A line is a verb, the acting figures, optionally ``->`` and the targets, then options
(``key=value``, a bare flag, or a pair ``nach=3,2``); names with spaces are quoted. Only the
text is read here (``resolve.run`` checks it); a cell is bounded by ``MAX_CHARS``,
``MAX_LINE`` and ``MAX_ACTIONS``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import ResolveError
from ..messages import t
from ..numerals import integer

MAX_CHARS = 100_000     # characters of a cell
MAX_LINE = 4_000        # characters of one line (a dice expression may have 2,000)
MAX_ACTIONS = 100       # action lines of a cell

_TOKEN = re.compile(r"""
    (?P<sp>[ \t]+)
  | (?P<comment>\#.*)
  | (?P<arrow>->|→)
  | (?P<comma>,)
  | (?P<quoted>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')
  | (?P<option>[^\W\d][\w-]*=(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|-?\d+,-?\d+(?![^\s\#])
                              |(?:\{[^}]*\}|\([^)]*\)|[^\s,\#{}()])+))
  | (?P<word>\w[\w.-]*)
  | (?P<bad>\S)
""", re.X)


@dataclass(frozen=True)
class Word:
    """A piece of a line with its place (1-based line and column) for messages."""

    text: str
    line: int
    col: int


@dataclass(frozen=True)
class Command:
    """One parsed line: ``verb actors -> targets options``."""

    verb: Word
    actors: tuple[Word, ...]
    targets: tuple[Word, ...] = ()
    options: dict[str, Word] = field(default_factory=dict)
    flags: tuple[Word, ...] = ()
    source: str = ""
    line: int = 0


def error(message: str, source: str, at: Word | None, suggestion: str | None = None,
          line: int = 0, col: int = 1) -> ResolveError:
    return ResolveError(message, source, at.line if at else line, at.col if at else col, suggestion)


def parse(text: str) -> list[Command]:
    """Read every action line of ``text`` (blank lines and comments are skipped)."""
    commands = []
    size = 0
    for number, line in enumerate(text.splitlines(), 1):
        size += len(line) + 1
        if size > MAX_CHARS:
            raise error(t("resolve.cell_too_long", max=integer(MAX_CHARS)), line[:80], None, line=number)
        if len(line) > MAX_LINE:
            raise error(t("resolve.line_too_long", n=integer(len(line)), max=integer(MAX_LINE)), line[:80], None,
                        line=number)
        words = _words(line, number)
        if words:
            if len(commands) == MAX_ACTIONS:
                raise error(t("resolve.too_many_actions", max=MAX_ACTIONS), line, words[0][1])
            commands.append(_command(words, line, number))
    return commands


def _words(line: str, number: int) -> list[tuple[str, Word]]:
    out = []
    for m in _TOKEN.finditer(line):
        kind = m.lastgroup
        if kind in ("sp", "comment"):
            continue
        text = m.group()
        word = Word(_unquote(text) if kind == "quoted" else text, number, m.start() + 1)
        if kind == "bad":
            raise error(t("resolve.unexpected", char=text), line, word)
        if kind == "quoted" and not word.text.strip():
            raise error(t("resolve.empty_name"), line, word)
        out.append((kind, word))
    return out


def _unquote(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text[1:-1])


_BARE_NAME = re.compile(r"\w[\w.-]*")
_BARE_VALUE = re.compile(r"-?\d+,-?\d+|(?:\{[^}]*\}|\([^)]*\)|[^\s,#{}()\"'])+")
_INT = re.compile(r"-?\d+")


def quote(text: str, value: bool = False) -> str:
    """``text`` as a line writes it: bare when it reads back as one name
    (or, with ``value``, one option value), else in double quotes."""
    bare = _BARE_VALUE if value else _BARE_NAME
    if bare.fullmatch(text):
        return text
    return '"' + re.sub(r'(["\\])', r"\\\1", text) + '"'


def _command(words: list[tuple[str, Word]], line: str, number: int) -> Command:
    kind, verb = words[0]
    if kind != "word":
        raise error(t("resolve.expected_verb", found=verb.text), line, verb)
    i = 1
    actors, i = _names(words, i, line, number, "resolve.expected_actor")
    targets: tuple[Word, ...] = ()
    if i < len(words) and words[i][0] == "arrow":
        targets, i = _names(words, i + 1, line, number, "resolve.expected_target")
    options: dict[str, Word] = {}
    flags = []
    for at, (kind, word) in enumerate(words[i:], i):
        if kind == "option":
            key, _, value = word.text.partition("=")
            if key.lower() in options:
                raise error(t("resolve.option_twice", option=key), line, word)
            value_col = word.col + len(key) + 1
            options[key.lower()] = Word(_unquote(value) if value[:1] in "\"'" else value, number, value_col)
        elif kind == "word":
            flags.append(Word(word.text.lower(), word.line, word.col))
        elif kind == "comma" and _pair_half(words[at - 1], word):
            key, _, value = words[at - 1][1].text.partition("=")
            raise error(t("resolve.bad_pair", option=key, value=(value + line[word.col - 1:].split()[0])[:40]),
                        line, word)
        elif kind == "quoted" and at == i:
            # a name right after the figures: the arrow (or, after the targets, a comma) is missing
            joined = "," if targets else " ->"
            raise error(t("resolve.misplaced", found=word.text), line, word,
                        t("resolve.missing_join", join=joined.strip(), line=insert(line, word.col, joined)))
        else:
            raise error(t("resolve.misplaced", found=word.text), line, word)
    return Command(verb, actors, targets, options, tuple(flags), line, number)


def insert(line: str, col: int, text: str) -> str:
    """``line`` (stripped) with ``text`` and a space put in before column ``col``."""
    return (line[:col - 1].rstrip() + text + " " + line[col - 1:]).strip()


def _pair_half(before: tuple[str, Word], comma: Word) -> bool:
    """A comma right after an integer option value: a pair of integers (``nach=3,2``) written wrong."""
    kind, word = before
    return (kind == "option" and word.col + len(word.text) == comma.col
            and bool(_INT.fullmatch(word.text.partition("=")[2])))


def _names(words: list[tuple[str, Word]], i: int, line: str, number: int,
           expected: str) -> tuple[tuple[Word, ...], int]:
    """A comma-separated list of names from ``words[i]`` on."""
    names = []
    while True:
        if i >= len(words) or words[i][0] not in ("word", "quoted"):
            at = words[i][1] if i < len(words) else None
            col = len(line.rstrip()) + 2
            raise error(t(expected), line, at, line=number, col=col)
        names.append(words[i][1])
        i += 1
        if i < len(words) and words[i][0] == "comma":
            i += 1
            continue
        return tuple(names), i
