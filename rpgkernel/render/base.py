"""Shared pieces of every rendering: German numbers, the stylesheet, message boxes."""

from __future__ import annotations

import html

from wcwidth import wcwidth

from ..assets import asset
from ..errors import RpgError
from ..messages import t
from ..numerals import decimal, integer, number, percent

__all__ = ["ErrorBox", "Notice", "decimal", "integer", "number", "pad", "percent", "style", "width"]


# -- plain-text columns ----------------------------------------------------------
def width(text: str) -> int:
    """The columns ``text`` takes in a terminal: wide (East Asian) characters two, combining marks none,
    control characters none."""
    return sum(max(wcwidth(c), 0) for c in text)


def pad(text: str, columns: int, right: bool = False) -> str:
    """``text`` filled with spaces to ``columns`` display columns (on the left when ``right``)."""
    fill = " " * max(columns - width(text), 0)
    return fill + text if right else text + fill


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


