"""Binding the magics to an IPython shell, light enough for ``%load_ext``.

Each magic is bound as a ``_Magic``: the function in ``magics`` (and with it the engines) is imported at
the magic's first call, and its help is looked up in the catalogue when it is shown, in the language of
that moment.
"""

from __future__ import annotations

import re
from importlib import import_module
from typing import Any

from .messages import t

#: (kind, name, function in ``magics``, help key)
_MAGICS = (
    ("line", "roll", "roll_line", "magic.help_roll"),
    ("line", "rpg", "rpg_line", "magic.help_rpg"),
    ("line", "begegnung", "begegnung_line", "magic.help_begegnung"),
    ("line", "encounter", "begegnung_line", "magic.help_begegnung"),
    ("cell", "figuren", "figuren_cell", "magic.help_figuren"),
    ("line", "figuren", "figuren_line", "magic.help_figuren"),
    ("cell", "resolve", "resolve_cell", "magic.help_resolve"),
)

#: the values a kernel shows with their widget too: (module, class)
_WIDGET_VIEWS = (("rpgkernel.dice.roll", "Roll"), ("rpgkernel.dice.roll", "Rolls"), ("rpgkernel.dice.dist", "Dist"))


class _Magic:
    """One magic of a shell: user errors become a German box, not a traceback."""

    _ipython_magic_no_var_expand = True   # braces belong to the dice language (IPython's no_var_expand)

    def __init__(self, shell: Any, function: str, help_key: str) -> None:
        self.shell, self.function, self.help_key = shell, function, help_key
        self.__name__ = function

    @property  # type: ignore[override]
    def __doc__(self) -> str:  # noqa: D105 - the help, in the language of the moment it is shown
        return t(self.help_key)

    def __call__(self, *arguments: str) -> object:
        magics = import_module("rpgkernel.magics")
        return magics.guarded(self.shell, self.function, *arguments)


def register(ipython: Any) -> None:
    """Bind ``%roll``, ``%rpg``, ``%begegnung``/``%encounter``, ``%%figuren``/``%figuren`` and ``%%resolve`` to a
    shell."""
    for kind, name, function, help_key in _MAGICS:
        ipython.register_magic_function(_Magic(ipython, function, help_key), kind, name)
    if empty_resolve_cell not in ipython.input_transformers_cleanup:
        ipython.input_transformers_cleanup.append(empty_resolve_cell)
    if getattr(ipython, "kernel", None) is not None:   # a terminal shell has no kernel: plain displays
        formatter = ipython.display_formatter.mimebundle_formatter
        for module, name in _WIDGET_VIEWS:
            formatter.for_type_by_name(module, name, widget_view)


def unregister(ipython: Any) -> None:
    """Remove the magics again."""
    for kind, name, _, _ in _MAGICS:
        ipython.magics_manager.magics[kind].pop(name, None)
    if empty_resolve_cell in ipython.input_transformers_cleanup:
        ipython.input_transformers_cleanup.remove(empty_resolve_cell)
    formatter = ipython.display_formatter.mimebundle_formatter
    for module, name in _WIDGET_VIEWS:
        if formatter.deferred_printers.get((module, name)) is widget_view:
            formatter.deferred_printers.pop((module, name))
        for cls, printer in list(formatter.type_printers.items()):
            if printer is widget_view and (cls.__module__, cls.__qualname__) == (module, name):
                formatter.type_printers.pop(cls)


def widget_view(value: Any) -> Any:
    """A roll's or a distribution's bundle with its widget view (``widgets.tray.view_bundle``)."""
    return import_module("rpgkernel.widgets.tray").view_bundle(value)


def empty_resolve_cell(lines: list[str]) -> list[str]:
    """A ``%%resolve`` cell without a body gets an empty line as its body.

    IPython refuses a cell magic whose body is empty with an English ``UsageError`` before the magic
    runs; this input transformer (run before IPython's own) lets ``resolve_cell`` say so in German.
    """
    if lines and re.match(r"%%resolve(\s|$)", lines[0]) and not "".join(lines[1:]).strip("\n"):
        return [lines[0].rstrip("\n") + "\n", "\n"]
    return lines
