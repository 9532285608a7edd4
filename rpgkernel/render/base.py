"""Shared pieces of every rendering: German numbers, the stylesheet, message boxes."""

from __future__ import annotations

import html

from ..assets import asset
from ..errors import RpgError
from ..messages import t


# -- numbers -----------------------------------------------------------------
def number(x: float, digits: int = 2) -> str:
    """``10.5`` -> ``"10,50"``."""
    return f"{x:.{digits}f}".replace(".", ",").replace("-", "−")


def percent(p: float) -> str:
    p = 1.0 if abs(p - 1.0) < 1e-9 else 0.0 if abs(p) < 1e-15 else p
    if 0 < p < 0.00005:
        return "< 0,01 %"
    if 0.99995 < p < 1:
        return "> 99,99 %"
    return number(p * 100) + " %"


def style() -> str:
    """The cards' stylesheet as a <style> element."""
    return f"<style>{asset('card.css')}</style>"


# -- errors ------------------------------------------------------------------
class ErrorBox:
    """A short German error box shown instead of a traceback."""

    def __init__(self, error: RpgError | str) -> None:
        self.text = str(error)

    def __repr__(self) -> str:
        return f"{t('error.title')}: {self.text}"

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, str]:
        first, _, rest = self.text.partition("\n")
        body = f"<b>{html.escape(t('error.title'))}:</b> {html.escape(first)}"
        if rest:
            body += f"<pre>{html.escape(rest)}</pre>"
        return {"text/plain": repr(self),
                "text/html": f'{style()}<div class="rpgk-card rpgk-error">{body}</div>'}


class Notice:
    """A short German confirmation (undo, redo, …)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, str]:
        return {"text/plain": self.text,
                "text/html": f'{style()}<div class="rpgk-card">{html.escape(self.text)}</div>'}


