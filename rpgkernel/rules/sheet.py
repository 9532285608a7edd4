"""A ruleset's sheet, one slot of it (``Ruleset.sheet``): the fields ``Sheet`` validates, and what a
sheet gives a figure (its resources and their limits, the seed's stat blocks), which a ruleset fills
by subclassing ``Sheet``. A validation error names the field and what is allowed, in German; input is
never executed or stored unchecked.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping

from ..errors import RpgError
from ..messages import ReadsTexts, Text, t
from . import limits as _limits
from .aliases import canonical
from .figure import Figure, view

if TYPE_CHECKING:
    from ..state.resources import Landed

MAX_TEXT = 500          # characters in a text field
MAX_ITEMS = 100         # entries in a list field
MAX_NUMBER = 10**9      # absolute value of a number field


class SheetError(RpgError, ValueError):
    """A character sheet or stat block that does not fit the ruleset."""


@dataclass(frozen=True)
class Field(ReadsTexts):
    """One field of a sheet: ``kind`` is "int", "text", "bool" or "list" (of text); ``label`` its short
    name (a catalogue's ``Text``, read as its text; or a name of the GM's), ``hint`` what helps to fill
    it in (an example, the format: the editor shows it under the field, an error message quotes it)."""

    kind: str
    label: str | Text
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    required: bool = False
    default: Any = None
    hint: str | Text = ""

    def described(self) -> str:
        """The label with its hint, as an error message quotes the field."""
        return t("sheet.label_hint", label=self.label, hint=self.hint) if self.hint else str(self.label)

    def allowed(self) -> str:
        if self.choices:
            return t("sheet.allowed_choices", choices=", ".join(self.choices))
        if self.kind == "int":
            lo = -MAX_NUMBER if self.minimum is None else self.minimum
            hi = MAX_NUMBER if self.maximum is None else self.maximum
            return t("sheet.allowed_int", low=lo, high=hi)
        return t(f"sheet.allowed_{self.kind}", max=MAX_ITEMS if self.kind == "list" else MAX_TEXT)

    def check(self, name: str, value: Any) -> Any:
        """The value in canonical form, or a SheetError naming the field."""
        ok = {
            "int": isinstance(value, int) and not isinstance(value, bool),
            "text": isinstance(value, str) and len(value) <= MAX_TEXT,
            "bool": isinstance(value, bool),
            "list": isinstance(value, list) and len(value) <= MAX_ITEMS
            and all(isinstance(v, str) and len(v) <= MAX_TEXT for v in value),
        }[self.kind]
        if ok and self.kind == "int":
            lo = -MAX_NUMBER if self.minimum is None else self.minimum
            hi = MAX_NUMBER if self.maximum is None else self.maximum
            ok = lo <= value <= hi
        if ok and self.choices:
            ok = value in self.choices
        if not ok:
            raise SheetError(t("sheet.bad_value", field=name, label=self.described(), allowed=self.allowed(),
                               value=_short(value)))
        return list(value) if self.kind == "list" else value


@dataclass(frozen=True)
class Sheet:
    """The fields of a ruleset's character sheet, and what a sheet gives a figure (the methods below,
    which a ruleset's subclass overrides where its seed says so)."""

    fields: Mapping[str, Field] = field(default_factory=dict)
    #: accept fields not declared (numbers, texts, flags, lists of texts)
    open: bool = False
    #: other names of fields (English: ``"guard": "gd"``), the ruleset's table beside its sheet; a field's
    #: name and an alias are read in any case (``VIG``, ``Guard``)
    aliases: Mapping[str, str] = field(default_factory=dict)

    def canonical(self, name: str) -> str:
        """The field ``name`` stands for: itself, the field of that name in another case, or the field
        of that alias; an unknown name stays as it is."""
        return canonical(name, self.aliases, self.fields)

    def label(self, name: str) -> str:
        """The German label of the field ``name`` as the sheet shows it (an open sheet's own field:
        its name)."""
        spec = self.fields.get(name)
        return str(spec.label) if spec is not None and spec.label else name

    def validate(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """A complete, checked copy of ``data`` with defaults filled in."""
        if not isinstance(data, Mapping):
            raise SheetError(t("sheet.not_mapping", type=type(data).__name__))
        out: dict[str, Any] = {}
        for key, value in data.items():
            name = self.canonical(str(key))
            if name in out:
                raise SheetError(t("sheet.field_twice", field=name, key=_short(key)))
            spec = self.fields.get(name)
            if spec is None and self.open:
                spec = _ANY_FIELD
            if spec is None:
                close = difflib.get_close_matches(name, [*self.fields, *self.aliases], n=1)
                hint = " " + t("suggest.die", suggestion=close[0]) if close else ""
                raise SheetError(t("sheet.unknown_field", field=_short(name),
                                   known=", ".join(self.fields) or "–") + hint)
            out[name] = spec.check(name, value)
        for name, spec in self.fields.items():
            if name not in out:
                if spec.required:
                    raise SheetError(t("sheet.missing_field", field=name, label=spec.described(),
                                       allowed=spec.allowed()))
                if spec.default is not None:
                    out[name] = spec.default
        return out

    def for_data(self, data: Mapping[str, Any]) -> Sheet:
        """This sheet as the GM's ``data`` a figure's encounter sees (``state.model.data``) shapes it;
        the default: itself. A ruleset whose fields follow its settings (AdZ's techniques) builds it."""
        return self

    def resources(self, values: Mapping[str, Any], data: Mapping[str, Any]) -> dict[str, dict[str, int]]:
        """The resources a sheet's checked ``values`` start with (name -> {"value", "max"}), as the GM's
        ``data`` shapes them; the default: none."""
        return {}

    def limits(self, figure: Figure, resource: str, data: Mapping[str, Any]) -> _limits.Limits:
        """The range ``figure``'s ``resource`` stays within (``rules.limits``) under the GM's ``data``.
        The default: from the GM's lower bound (0 unless kept, ``limits.untergrenze``) to its maximum."""
        return _limits.vorgabe(figure, resource, data)

    def within_limits(self, figure: Mapping[str, Any] | Figure, resource: str, by: int,
                      data: Mapping[str, Any]) -> list[Landed]:
        """How a change of ``resource`` by ``by`` lands within ``limits``: the campaign applies every
        change of a resource this way (``state.resources``)."""
        fig = view(figure)
        return _limits.spread(fig, resource, by, lambda name: self.limits(fig, name, data))

    def templates(self) -> dict[str, dict[str, Any]]:
        """The stat blocks the seed text itself contains, the starter entries of the GM's library of
        figures (``rpgkernel.library``): name -> values (``werte:``); only what the text gives. The
        default: none."""
        return {}


class _AnyField(Field):
    def check(self, name: str, value: Any) -> Any:
        for kind in ("int", "text", "bool", "list"):
            try:
                return Field(kind, name).check(name, value)
            except SheetError:
                pass
        raise SheetError(t("sheet.bad_value", field=name, label=name, allowed=t("sheet.allowed_any"),
                           value=_short(value)))


_ANY_FIELD = _AnyField("any", "")


def _short(value: Any, n: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= n else text[:n - 1] + "…"
