"""Numbers for users: the one place a number becomes text, through Babel, by the locale of the
language of the moment (``LANGUAGE``).

German: ``integer(2512225)`` -> ``2.512.225``, ``number(10.5)`` -> ``10,50``, ``percent(0.125)`` ->
``12,50 %``; ``fill`` (what ``t()`` calls) fills templates the same way. No imports from the package.
Where it differs from CLDR, and why: docs/mitwirken.md, "Texte und Zahlen"."""

from __future__ import annotations

import copy
import math
import re
import string
from contextvars import ContextVar
from decimal import Decimal, localcontext
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from babel import Locale
    from babel.numbers import NumberPattern

#: a context's own language (``messages.using``: a server's page has its reader's); None: the session's
LANGUAGE: ContextVar[str | None] = ContextVar("rpgkernel_language", default=None)
#: the session's language (``messages.set_language``), for every thread of the process
SESSION = ["de"]
_LOCALES = {"de": "de_DE"}   # a language -> its CLDR locale where the two names differ
MINUS = "−"   # the typographic minus of shown numbers
_MARKS = str.maketrans({"-": MINUS, "\N{NO-BREAK SPACE}": " ", "\N{NARROW NO-BREAK SPACE}": " "})
_SPEC = re.compile(r"(?P<group>,?)(?:\.(?P<digits>\d+))?(?P<kind>[f%]?)")


def current() -> str:
    """The language of the moment, of texts and numbers alike: the context's own, else the session's."""
    return LANGUAGE.get() or SESSION[0]


def locale() -> Locale:
    """Babel's locale of the shown numbers in the language of the moment."""
    return _locale(current())


@lru_cache(maxsize=None)
def _locale(language: str) -> Locale:
    """Babel's locale of ``language`` with its CLDR data loaded (German's where CLDR has none).

    Loaded at the first number shown, or before by ``prepare()``: Babel with
    its locale data would add about a tenth to ``import rpgkernel``.
    """
    from babel import Locale, UnknownLocaleError
    try:
        loaded = Locale.parse(_LOCALES.get(language, language), sep="_" if "_" in language else "-")
    except (UnknownLocaleError, ValueError):
        loaded = Locale.parse(_LOCALES["de"])
    loaded.number_symbols   # noqa: B018 - the data loads on first access
    return loaded


def prepare() -> None:
    """Load the locale and the patterns of integer, number, decimal and percent now (``%load_ext
    rpgkernel`` does, so that the first card of a notebook does not wait for them)."""
    language = current()
    _pattern(language, 0, 0), _pattern(language, 2, 2), _pattern(language, 0, 6)


@lru_cache(maxsize=None)
def _pattern(language: str, low: int, high: int) -> NumberPattern:
    """The decimal pattern of ``language``'s locale with ``low`` to ``high`` decimals."""
    pattern = copy.copy(_locale(language).decimal_formats[None])
    pattern.frac_prec = (low, high)
    return pattern


def _shown(kind: str, low: int, high: int, x: float, grouped: bool = True) -> str:
    """``x`` with ``low`` to ``high`` decimals, a number (``kind`` "") or a percentage ("%")."""
    return _cached(current(), kind, low, high, x, math.copysign(1, x) < 0, grouped)


@lru_cache(maxsize=8192)
def _cached(language: str, kind: str, low: int, high: int, x: float, negative: bool, grouped: bool) -> str:
    """``x`` in ``language``'s pattern (``negative`` keeps −0.0 apart from 0.0 in the cache). A float
    percentage is ``x * 100`` in floating point, then rounded, as Python's "%" format does; the
    ``%`` follows after a plain space."""
    exact = Decimal(x * 100 if isinstance(x, float) else x) if kind == "%" else Decimal(x)
    if kind == "%" and not isinstance(x, float):
        exact = exact.scaleb(2)
    with localcontext() as context:   # every digit of a big number (10**30 has 31)
        context.prec = max(context.prec, exact.adjusted() + high + 2)
        text = _pattern(language, low, high).apply(exact, _locale(language), group_separator=grouped)
    return text.translate(_MARKS) + (" %" if kind == "%" else "")


def integer(n: int) -> str:
    """``2512225`` -> ``"2.512.225"`` (English ``"2,512,225"``); ``-3`` -> ``"−3"``."""
    return _shown("", 0, 0, int(n))


def number(x: float, digits: int = 2) -> str:
    """``10.5`` -> ``"10,50"``; ``3500.5`` -> ``"3.500,50"``."""
    return _shown("", digits, digits, x)


def decimal(x: float) -> str:
    """The shortest form with up to six decimals: ``12.5`` -> ``"12,5"``, ``3.0`` -> ``"3"``."""
    text = _shown("", 0, 6, x)
    return "0" if text == MINUS + "0" else text


def percent(p: float) -> str:
    """A probability as ``"12,50 %"``; tiny and near-certain chances say so (``< 0,01 %``)."""
    p = 1.0 if abs(p - 1.0) < 1e-9 else 0.0 if abs(p) < 1e-15 else p
    if 0 < p < 0.00005:
        return "< " + _shown("%", 2, 2, 0.0001)
    if 0.99995 < p < 1:
        return "> " + _shown("%", 2, 2, 0.9999)
    return _shown("%", 2, 2, p)


class _Formatter(string.Formatter):
    def format_field(self, value: object, format_spec: str) -> str:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return format(value, format_spec)
        if isinstance(value, float) and not format_spec:
            return decimal(value)
        if isinstance(value, int) and not any(c in format_spec for c in ",.%"):
            return format(value, format_spec)
        spec = _SPEC.fullmatch(format_spec)
        if spec is None:
            raise ValueError(f"{format_spec!r}: a shown number takes ',', '.Nf' or '.N%' (and ',' before them)")
        digits = spec["digits"]
        if spec["kind"]:   # fixed decimals: .Nf, .N% (Python's default: six)
            n = 6 if digits is None else int(digits)
            return _shown(spec["kind"], n, n, value, grouped=bool(spec["group"]))
        if digits is not None:
            raise ValueError(f"{format_spec!r}: a shown number takes ',', '.Nf' or '.N%' (and ',' before them)")
        return integer(value) if isinstance(value, int) else decimal(value)


FORMATTER = _Formatter()


@lru_cache(maxsize=4096)
def _plain(template: str) -> bool:
    """True when no field of ``template`` asks for separators (``,``, ``.`` or ``%`` in its spec)."""
    return not any(spec and any(c in spec for c in ",.%") for _, name, spec, _ in FORMATTER.parse(template)
                   if name is not None)


def fill(template: str, fields: dict[str, object]) -> str:
    """``template`` filled with ``fields``, its numbers by the locale (plain ``str.format`` where no number is)."""
    if _plain(template) and not any(isinstance(v, float) for v in fields.values()):
        return template.format(**fields)
    return FORMATTER.vformat(template, (), fields)
