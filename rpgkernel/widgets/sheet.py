"""``CharacterSheet``: a figure's sheet as a form, saved through the campaign.

One editor per field of the ruleset's ``Sheet``; ``draft`` holds what the user typed, and
"Speichern" writes it with ``Campaign.set_sheet``. A refused draft stays, ``error_field`` naming
the field. Changes from elsewhere show at once unless the form holds unsaved edits: then
``stale`` says so, and "Neu laden" discards them.
"""

from __future__ import annotations

from typing import Any

import traitlets

from .. import rules
from ..errors import RpgError
from ..messages import t
from ..rules.sheet import Field, Sheet, SheetError
from ..state import Campaign, Figure, model
from ..state.transaction import check_name
from .base import Widget

#: the value of an empty editor, per field kind
EMPTY: dict[str, Any] = {"int": None, "text": "", "bool": False, "list": []}
SHOWN_IN_TEXT = 4   # number fields the plain-text form names


def _field(sheet: Sheet, name: str, spec: Field, own: bool = False) -> dict[str, Any]:
    """What the front end needs to draw one field of ``sheet`` (``own``: an open sheet's field, removable):
    its label as ``Sheet.label`` gives it, its hint (an example) under the editor."""
    return {"name": name, "kind": spec.kind, "label": sheet.label(name), "hint": spec.hint, "min": spec.minimum,
            "max": spec.maximum, "choices": list(spec.choices), "required": spec.required, "own": own}


def _kind(value: Any) -> str:
    """The editor for a value of an open sheet's own field."""
    if isinstance(value, bool):
        return "bool"
    return "int" if isinstance(value, int) else "list" if isinstance(value, list) else "text"


class CharacterSheet(Widget):
    """The sheet of one figure: ``CharacterSheet(camp.characters["Ritter"])``,
    ``CharacterSheet(camp.figure("Söldner"))`` or ``CharacterSheet(camp, "Ritter")``."""

    parts = ("sheet.js",)
    styles = ("sheet.css",)
    carried = ("draft",)

    figure = traitlets.Unicode("").tag(sync=True)          # the figure's name
    ruleset = traitlets.Unicode("").tag(sync=True)         # the ruleset's title ("" for none)
    extensible = traitlets.Bool(False).tag(sync=True)      # an open sheet: fields can be added
    fields = traitlets.List().tag(sync=True)               # the form's fields, in order (see _field)
    draft = traitlets.Dict().tag(sync=True)                # field -> typed value (written by the front end)
    revision = traitlets.Int(0).tag(sync=True)             # counts the times Python refilled the form
    error_field = traitlets.Unicode("").tag(sync=True)     # the field the error is about ("" if none)
    stale = traitlets.Bool(False).tag(sync=True)           # the figure changed under unsaved edits
    resources = traitlets.List().tag(sync=True)            # [{name, value, max}]
    conditions = traitlets.List().tag(sync=True)           # [{name, left}] (left: None = until removed)

    def __init__(self, figure: Figure | Campaign, name: str | None = None, **kwargs: Any) -> None:
        if isinstance(figure, Campaign) and name is not None:
            figure = figure.figure(name)
        if not isinstance(figure, Figure):
            raise RpgError(t("widget.sheet.bad_input", type=type(figure).__name__))
        super().__init__(**kwargs)
        self.campaign = figure.campaign
        self._name = figure.name
        self._encounter = figure.path[1] if figure.path[0] == "encounters" else None
        self._saved: dict[str, Any] = {}
        self._spec = Sheet()
        self._gone = ""                                    # the error shown while the figure is gone
        self._update(reload=True)
        self._follow(self.campaign)

    # -- reading the campaign ---------------------------------------------------------
    def _changed(self, _campaign: Campaign) -> None:
        """The campaign changed: follow it. A figure that is gone (its creation undone) is
        an error shown until it is back; the form stays as it is."""
        try:
            self._update()
        except RpgError as err:
            self.error = self._gone = str(err)
            return
        if self._gone and self.error == self._gone:
            self.error = ""
        self._gone = ""

    def _update(self, *, reload: bool = False) -> None:
        """Show the figure as the campaign has it, with the fields the GM's data gives its sheet; the form
        follows unless it holds unsaved edits."""
        data = self.campaign.figure(self._name, self._encounter).record
        key = data.get("ruleset")
        engine = rules.get(key)
        spec = engine.sheet.for_data(model.data(self.campaign.folded, self._encounter))   # the GM's data may add fields
        sheet = data.get("sheet", {})
        with self.hold_sync():
            self.figure, self.extensible = data["name"], spec.open
            self.ruleset = engine.title
            self.resources = [{"name": k, "value": r["value"], "max": r["max"]}
                              for k, r in data.get("resources", {}).items()]
            self.conditions = [{"name": k, "left": c.get("remaining")} for k, c in data.get("conditions", {}).items()]
            if reload or ((sheet != self._saved or spec != self._spec) and self._edits() in (self._saved, sheet)):
                self._load(spec, sheet)
            elif sheet != self._saved:
                self._saved, self.stale = sheet, True

    def _load(self, spec: Sheet, sheet: dict[str, Any]) -> None:
        """Fill the form with the saved ``sheet``."""
        self._spec, self._saved = spec, sheet
        fields = [_field(spec, n, f) for n, f in spec.fields.items()]
        if spec.open:
            fields += [_field(spec, n, Field(_kind(v), n), own=True) for n, v in sheet.items() if n not in spec.fields]
        self.fields = fields
        self.draft = {f["name"]: sheet.get(f["name"], EMPTY[f["kind"]]) for f in fields}
        self.stale, self.error_field = False, ""
        self.revision += 1

    def _texts(self) -> None:
        """The ruleset's title and the fields' labels and hints anew; the draft stays as typed."""
        self._changed(self.campaign)
        spec = self._spec
        self.fields = [_field(spec, n, f) for n, f in spec.fields.items()] + [f for f in self.fields if f["own"]]

    def _typed(self) -> dict[str, Any]:
        """The draft as a sheet. Empty editors are left out: a number or text (also
        a list's entry) always; an unticked box or an empty list only where the
        saved sheet lacks the field (so an untouched form changes nothing)."""
        out: dict[str, Any] = {}
        for name, value in self.draft.items():
            if isinstance(value, list):
                value = [v for v in value if v != ""]
            if value is None or value == "" or ((value is False or value == []) and name not in self._saved):
                continue
            out[name] = value
        return out

    def _edits(self) -> dict[str, Any]:
        """The draft as the ruleset would save it (with defaults), or as typed if it would refuse it."""
        typed = self._typed()
        try:
            return self._spec.validate(typed)
        except SheetError:
            return typed

    def _blame(self, typed: dict[str, Any]) -> str:
        """The field a refused draft fails at first ("" if none): the same order as ``Sheet.validate``."""
        spec = self._spec
        for name in [*typed, *(n for n in spec.fields if n not in typed)]:
            alone = Sheet({name: spec.fields[name]} if name in spec.fields else {}, open=spec.open)
            try:
                alone.validate({name: typed[name]} if name in typed else {})
            except SheetError:
                return name
        return ""

    @traitlets.observe("error")
    def _error_changed(self, change: dict[str, Any]) -> None:
        if not change["new"]:
            self.error_field = ""

    # -- messages from the front end ----------------------------------------------------
    def on_save(self, _content: dict[str, Any]) -> None:
        """Validate the draft (carried by the message) with the ruleset and write it; refused, it stays in the form."""
        typed, revision = self._typed(), self.revision
        try:
            self.campaign.set_sheet(self._name, typed, self._encounter)
        except RpgError as err:
            self.error_field = self._blame(typed) if isinstance(err, SheetError) else ""
            raise
        if self.revision == revision:   # nothing was written: show the saved sheet all the same
            self._update(reload=True)

    def on_reload(self, _content: dict[str, Any]) -> None:
        """Discard the edits: the form shows the saved sheet again."""
        self._update(reload=True)

    def on_poll(self, _content: dict[str, Any]) -> None:
        """Fold in what other notebooks wrote (a cheap read when nothing is new)."""
        self.campaign.refresh()

    def on_add_field(self, content: dict[str, Any]) -> None:
        """Add a field of its own to an open sheet (saved with the next "Speichern")."""
        if not self._spec.open:
            raise SheetError(t("widget.sheet.closed"))
        name, kind = check_name(content.get("name"), "field"), content.get("kind")
        if kind not in EMPTY:
            raise SheetError(t("widget.sheet.bad_kind", known=", ".join(EMPTY), value=repr(kind)[:40]))
        if any(f["name"] == name for f in self.fields):
            raise SheetError(t("widget.sheet.field_exists", name=name))
        with self.hold_sync():
            self.fields = [*self.fields, _field(self._spec, name, Field(kind, name), own=True)]
            self.draft = {**self.draft, name: EMPTY[kind]}
            self.revision += 1

    def on_remove_field(self, content: dict[str, Any]) -> None:
        """Take an open sheet's own field out of the form (gone with the next "Speichern")."""
        name = content.get("name")
        if not any(f["name"] == name and f["own"] for f in self.fields):
            raise SheetError(t("widget.sheet.not_removable", name=str(name)[:100]))
        with self.hold_sync():
            self.fields = [f for f in self.fields if f["name"] != name]
            self.draft = {k: v for k, v in self.draft.items() if k != name}
            self.revision += 1

    # -- plain text -------------------------------------------------------------------
    def text(self) -> str:
        """``Bogen: Ritter (Mythic Bastionland), Vigour 12, Clarity 10, Spirit 8, Guard 4``: the first number
        fields under their labels, as the form shows them."""
        head = (t("widget.sheet.text", name=self.figure, ruleset=self.ruleset) if self.ruleset
                else t("widget.sheet.text_free", name=self.figure))
        numbers = [(f["label"], self._saved[f["name"]]) for f in self.fields if f["kind"] == "int"
                   and isinstance(self._saved.get(f["name"]), int)][:SHOWN_IN_TEXT]
        return ", ".join([head, *(f"{label} {v}" for label, v in numbers)])
