"""German numbers for users: the one place a number becomes text.

``integer(2512225)`` -> ``2.512.225``, ``number(10.5)`` -> ``10,50``,
``percent(0.125)`` -> ``12,50 %``, ``decimal(12.5)`` -> ``12,5``.
``fill`` (what ``t()`` calls) fills the catalogue's templates the same way: a float field is
always German, and a format spec with ``,``, ``.`` or ``%`` (``{n:,}``,
``{x:.1f}``, ``{p:.1%}``) gives German separators. Plain ints (``{seq}``,
``{wm:+d}``) stay as they are: numbers, seeds and modifiers a user types back.
No imports from the package, so engines, the catalogue and the renderers can
all use it.
"""

from __future__ import annotations

import string
from functools import lru_cache

MINUS = "−"   # the typographic minus of shown numbers
_SWAP = str.maketrans(",.", ".,")


def _german(text: str) -> str:
    """Python's ``2,512,225.5`` as ``2.512.225,5``."""
    return text.translate(_SWAP)


def integer(n: int) -> str:
    """``2512225`` -> ``"2.512.225"``; ``-3`` -> ``"−3"``."""
    return _german(f"{int(n):,}").replace("-", MINUS)


def number(x: float, digits: int = 2) -> str:
    """``10.5`` -> ``"10,50"``; ``3500.5`` -> ``"3.500,50"``."""
    return _german(f"{x:,.{digits}f}").replace("-", MINUS)


def decimal(x: float) -> str:
    """The shortest German form with up to six decimals: ``12.5`` -> ``"12,5"``, ``3.0`` -> ``"3"``."""
    text = f"{x:,.6f}".rstrip("0").rstrip(".")
    return _german("0" if text in ("-0", "") else text).replace("-", MINUS)


def percent(p: float) -> str:
    """A probability as ``"12,50 %"``; tiny and near-certain chances say so (``< 0,01 %``)."""
    p = 1.0 if abs(p - 1.0) < 1e-9 else 0.0 if abs(p) < 1e-15 else p
    if 0 < p < 0.00005:
        return "< 0,01 %"
    if 0.99995 < p < 1:
        return "> 99,99 %"
    return number(p * 100) + " %"


class _Formatter(string.Formatter):
    def format_field(self, value: object, format_spec: str) -> str:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return format(value, format_spec)
        if isinstance(value, float) and not format_spec:
            return decimal(value)
        text = format(value, format_spec)
        if isinstance(value, int) and not any(c in format_spec for c in ",.%"):
            return text
        text = _german(text).replace("-", MINUS)
        return text[:-1] + " %" if format_spec.endswith("%") else text


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
