"""How values show themselves without knowing the renderer.

The renderer registers a text and an HTML form (a Markdown one where a value has it) per type, named by
its import path; ``Shown`` gives a value ``repr``, ``_repr_html_`` and ``_repr_mimebundle_`` from them.
This module imports no other part: ``wiring`` hands it the renderer's loader (``shown_by``), called
when the first value is shown. A type without forms shows as any object."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple


class Forms(NamedTuple):
    text: Callable[[Any], str]
    html: Callable[[Any], str]
    markdown: Callable[[Any], str] | None = None


_forms: dict[str, Forms] = {}
#: what loads the renderer (``shown_by``), until it has run
_loader: list[Callable[[], None]] = []


def shown_by(load: Callable[[], None]) -> None:
    """Let ``load()`` import the renderer when the first value is shown (``wiring`` composes this)."""
    _loader[:] = [load]


def register(name: str, text: Callable[[Any], str], html: Callable[[Any], str],
             markdown: Callable[[Any], str] | None = None) -> None:
    """Show instances of the type ``name`` (``module.Class``) and of its subclasses with these forms."""
    _forms[name] = Forms(text, html, markdown)


def forms(value: object) -> Forms | None:
    """The forms registered for ``value``'s type or the nearest of its bases."""
    return forms_for(type(value))


def forms_for(kind: type) -> Forms | None:
    if _loader:
        _loader.pop()()
    for cls in kind.__mro__:
        found = _forms.get(f"{cls.__module__}.{cls.__qualname__}")
        if found is not None:
            return found
    return None


class Shown:
    """A value whose forms the renderer registers: its repr is the text form."""

    __slots__ = ()

    def __repr__(self) -> str:
        found = forms(self)
        return object.__repr__(self) if found is None else found.text(self)

    def _repr_html_(self) -> str | None:
        found = forms(self)
        return None if found is None else found.html(self)

    def _repr_markdown_(self) -> str | None:
        found = forms(self)
        return None if found is None or found.markdown is None else found.markdown(self)

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str] | None:
        found = forms(self)
        return None if found is None else {"text/plain": found.text(self), "text/html": found.html(self)}
