"""German numbers for users: the one place a number becomes text, through Babel (CLDR's de_DE).

``integer(2512225)`` -> ``2.512.225``, ``number(10.5)`` -> ``10,50``,
``percent(0.125)`` -> ``12,50 %``, ``decimal(12.5)`` -> ``12,5``.
``fill`` (what ``t()`` calls) fills the catalogue's templates the same way: a float field is
always German, and a format spec with ``,``, ``.`` or ``%`` (``{n:,}``,
``{x:.1f}``, ``{p:.1%}``) gives German separators. Plain ints (``{seq}``,
``{wm:+d}``) stay as they are: numbers, seeds and modifiers a user types back.

Two marks differ from CLDR on purpose: a negative number has the typographic
minus ``−`` (the dice language's ``-`` is what a user types: ``W20-30 = [3] − 30 = −27``),
and a percentage has a plain space before ``%`` (``12,5 %``) as the docs
show it and a user types it. A float is rounded as ``format(x, ".2f")`` and
``format(p, ".2%")`` round it. No imports from the package, so engines, the
catalogue and the renderers can all use it.
"""

from __future__ import annotations

import copy
import math
import re
import string
from decimal import Decimal, localcontext
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from babel import Locale
    from babel.numbers import NumberPattern

LANGUAGE = "de_DE"
MINUS = "−"   # the typographic minus of shown numbers
_MARKS = str.maketrans({"-": MINUS, "\N{NO-BREAK SPACE}": " ", "\N{NARROW NO-BREAK SPACE}": " "})
_SPEC = re.compile(r"(?P<group>,?)(?:\.(?P<digits>\d+))?(?P<kind>[f%]?)")


@lru_cache(maxsize=1)
def locale() -> Locale:
    """Babel's locale of the shown numbers (``LANGUAGE``), with its CLDR data loaded.

    Loaded at the first number shown, or before by ``prepare()``: Babel with
    its locale data would add about a tenth to ``import rpgkernel``.
    """
    from babel import Locale
    loaded = Locale.parse(LANGUAGE)
    loaded.number_symbols   # noqa: B018 - the data loads on first access
    return loaded


def prepare() -> None:
    """Load the locale and the patterns of integer, number, decimal and percent now (``%load_ext
    rpgkernel`` does, so that the first card of a notebook does not wait for them)."""
    _pattern("", 0, 0), _pattern("", 2, 2), _pattern("", 0, 6), _pattern("%", 2, 2)


@lru_cache(maxsize=None)
def _pattern(kind: str, low: int, high: int) -> NumberPattern:
    """The locale's decimal (``kind`` "") or percent ("%") pattern with ``low`` to ``high`` decimals."""
    formats = locale().percent_formats if kind == "%" else locale().decimal_formats
    pattern = copy.copy(formats[None])
    pattern.frac_prec = (low, high)
    return pattern


def _shown(pattern: NumberPattern, x: float, grouped: bool = True) -> str:
    return _cached(pattern, x, math.copysign(1, x) < 0, grouped)


@lru_cache(maxsize=8192)
def _cached(pattern: NumberPattern, x: float, negative: bool, grouped: bool) -> str:
    """``x`` in ``pattern`` (``negative`` keeps −0.0 apart from 0.0 in the cache). A float
    percentage is ``x * 100`` in floating point, then rounded, as Python's "%" format does."""
    percentage = pattern.scale == 2 and isinstance(x, float)
    exact = Decimal(x * 100 if percentage else x)
    with localcontext() as context:   # every digit of a big number (10**30 has 31)
        context.prec = max(context.prec, exact.adjusted() + pattern.scale + pattern.frac_prec[1] + 2)
        value = exact.scaleb(-2) if percentage else exact   # the pattern multiplies by 100 again
        return pattern.apply(value, locale(), group_separator=grouped).translate(_MARKS)


def integer(n: int) -> str:
    """``2512225`` -> ``"2.512.225"``; ``-3`` -> ``"−3"``."""
    return _shown(_pattern("", 0, 0), int(n))


def number(x: float, digits: int = 2) -> str:
    """``10.5`` -> ``"10,50"``; ``3500.5`` -> ``"3.500,50"``."""
    return _shown(_pattern("", digits, digits), x)


def decimal(x: float) -> str:
    """The shortest German form with up to six decimals: ``12.5`` -> ``"12,5"``, ``3.0`` -> ``"3"``."""
    text = _shown(_pattern("", 0, 6), x)
    return "0" if text == MINUS + "0" else text


def percent(p: float) -> str:
    """A probability as ``"12,50 %"``; tiny and near-certain chances say so (``< 0,01 %``)."""
    p = 1.0 if abs(p - 1.0) < 1e-9 else 0.0 if abs(p) < 1e-15 else p
    if 0 < p < 0.00005:
        return "< " + _shown(_pattern("%", 2, 2), 0.0001)
    if 0.99995 < p < 1:
        return "> " + _shown(_pattern("%", 2, 2), 0.9999)
    return _shown(_pattern("%", 2, 2), p)


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
            return _shown(_pattern(spec["kind"], n, n), value, grouped=bool(spec["group"]))
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
    """``template`` filled with ``fields``, its numbers German (plain ``str.format`` where nothing is German)."""
    if _plain(template) and not any(isinstance(v, float) for v in fields.values()):
        return template.format(**fields)
    return FORMATTER.vformat(template, (), fields)
