"""Exceptions whose message is meant for the user (German by default)."""

from __future__ import annotations


class RpgError(Exception):
    """Base of every error caused by user input; its text is user-facing."""


class DiceSyntaxError(RpgError, ValueError):
    """A dice expression that cannot be read, with the position of the fault.

    ``str(err)`` gives the message, the expression and a caret under the
    position; ``err.message``, ``err.source``, ``err.position`` and
    ``err.suggestion`` give the parts.
    """

    def __init__(self, message: str, source: str = "", position: int | None = None,
                 suggestion: str | None = None) -> None:
        self.message = message
        self.source = source
        self.position = position
        self.suggestion = suggestion
        super().__init__(self._format())

    def _format(self) -> str:
        lines = [self.message]
        if self.source and self.position is not None:
            lines += ["  " + self.source, "  " + " " * self.position + "^"]
        if self.suggestion:
            lines.append(self.suggestion)
        return "\n".join(lines)


class DiceLimitError(DiceSyntaxError):
    """A request beyond the limits (too many dice, sides, states)."""


class GivenDiceError(RpgError, ValueError):
    """Given die results that do not fit the roll."""


class StoreError(RpgError):
    """A campaign store that cannot be opened, read or written, or input it refuses."""


class StoreConflict(StoreError):
    """An append refused because another writer changed the journal first."""


class ResolveError(RpgError, ValueError):
    """A ``%%resolve`` line that cannot be carried out, with line and column.

    ``str(err)`` gives "Zeile L, Spalte C: message", the line and a caret
    under the column, and a suggestion where one exists.
    """

    def __init__(self, message: str, source: str = "", line: int = 0, column: int = 1,
                 suggestion: str | None = None) -> None:
        self.message, self.source, self.line, self.column = message, source, line, column
        self.suggestion = suggestion
        super().__init__(self._format())

    def _format(self) -> str:
        from .messages import t
        lines = [t("resolve.where", line=self.line, col=self.column) + " " + self.message]
        if self.source:
            lines += ["  " + self.source, "  " + " " * (self.column - 1) + "^"]
        if self.suggestion:
            lines.append(self.suggestion)
        return "\n".join(lines)
