"""The dice tray and the roll card (what ``%roll`` shows in a kernel), with the distribution chart.

Rolls reach the front end as plain data (``roll_data``): strings, numbers
and die records, which the front end sets as text, never as HTML.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import traitlets

from ..dice import Dist, Estimate, Roll, Rolls
from ..dice.estimate import preview
from ..dice.roll import roll as roll_expr
from ..errors import GivenDiceError, RpgError
from ..messages import t
from ..render.base import integer
from ..render.dice import Odds, odds, result_word, roll_parts, rolls_frame
from ..session import Session, current
from .base import Widget
from .chart import VIEWS, DistributionChart, chart_data

#: rolls the tray's history shows at most (newest first)
HISTORY = 100
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def roll_data(roll: Roll, shared: Odds | None = None) -> dict[str, Any]:
    """A roll for the front end (``shared``: the odds of its expression, if known).

    ``parts`` is the rolled expression as the text form writes it, each die
    replaced by its ``DieRoll.to_dict()``: ``["[", {die}, ", ", {die}, "] + 2"]``.
    ``total``, ``chance`` and ``hints`` (``Roll.hints``) are the texts of the roll card.
    """
    dice: list[Any] = []

    def slot(die: Any) -> str:
        dice.append(die.to_dict())
        return "\0"

    texts = roll_parts(roll.tree, slot).split("\0")
    parts: list[Any] = []
    for i, text in enumerate(texts):
        parts += [text] if text else []
        parts += dice[i:i + 1]
    o = odds(roll) if shared is None else shared
    chance = o.note if o.line is None else o.line(roll.total)
    return {"expression": roll.expression, "given": roll.given, "parts": parts,
            "total": result_word(roll), "chance": chance, "hints": list(roll.hints)}


def _chart(shown: Dist | Estimate | None, marked: Any) -> dict[str, Any]:
    """The chart of a distribution or of an estimate's sampled frequencies ({} without either)."""
    if isinstance(shown, Estimate):
        d = shown.dist
        if d is None:
            return {}
        shown = d.labelled(t("estimate.label", expr=shown.label, n=integer(shown.samples)))
    return {} if shown is None else chart_data(shown, marked)


def _given(text: str) -> list[int] | None:
    """The given-dice field ("6, 2, 5", "6 2 5") as faces; None when empty (random dice)."""
    faces = []
    for word in text.replace(",", " ").replace(";", " ").split():
        try:
            faces.append(int(word))
        except ValueError:
            raise GivenDiceError(t("given.not_int", value=word)) from None
    return faces or None


def _variables() -> dict[str, Any]:
    """The notebook's variables for ``@name`` in expressions (none outside IPython)."""
    from IPython import get_ipython
    shell = get_ipython()
    return shell.user_ns if shell is not None else {}


class _RollsView(Widget):
    """Rolls as entries plus the chart of their expression (front end: ``tray.js``)."""

    parts = ("chart.js", "tray.js")
    styles = ("chart.css", "tray.css")
    label_prefixes = ("roll.",)

    controls = traitlets.Bool(False).tag(sync=True)
    entries = traitlets.List(traitlets.Dict()).tag(sync=True)
    chart = traitlets.Dict().tag(sync=True)
    chart_view = traitlets.Enum(VIEWS, default_value=VIEWS[0]).tag(sync=True)


class RollCard(_RollsView):
    """A roll (or the rolls of ``%roll -n``) with dice, result, chance and distribution; read-only."""

    head = traitlets.Unicode("").tag(sync=True)
    summary = traitlets.Unicode("").tag(sync=True)

    def __init__(self, result: Roll | Rolls, **kwargs: Any) -> None:
        self.result = result
        super().__init__(**self._shown(), **kwargs)

    def _shown(self) -> dict[str, Any]:
        """The traits that show the rolls: entries, chart, head and summary."""
        rolls = list(self.result) if isinstance(self.result, Rolls) else [self.result]
        head, summary = rolls_frame(self.result) if isinstance(self.result, Rolls) and rolls else ("", "")
        shared = odds(rolls[0]) if rolls else Odds(None, None, "")
        return {"entries": [roll_data(r, shared) for r in rolls],
                "chart": _chart(shared.shown, [r.total for r in rolls]), "head": head, "summary": summary}

    def _texts(self) -> None:
        for name, value in self._shown().items():
            setattr(self, name, value)

    def text(self) -> str:
        return str(self.result)


class DiceTray(_RollsView):
    """Expression field, given dice, roll button, the session's history and the expression's chart.

    Rolls come from the session's generator (``rpgkernel.session.current()``
    unless ``session`` is given) and go into its open campaign's journal, as
    with ``%roll``. ``expression`` and ``given`` are the fields' texts; they
    keep what was typed when a roll is refused.
    """

    controls = traitlets.Bool(True).tag(sync=True)
    expression = traitlets.Unicode("").tag(sync=True)
    given = traitlets.Unicode("").tag(sync=True)

    def __init__(self, session: Session | None = None, **kwargs: Any) -> None:
        self.session = session
        self.rolls: list[Roll] = []
        super().__init__(**kwargs)

    def roll(self, expr: str, dice: Sequence[int] | None = None) -> Roll | None:
        """Roll as the button does (``dice``: faces of physical dice, in order).

        Returns the roll, or None when it was refused; the German error is then in ``error``.
        """
        before = len(self.rolls)
        given = "" if dice is None else ", ".join(str(v) for v in dice)
        self.handle(self.on_roll, {"type": "roll", "expression": expr, "given": given})
        return self.rolls[-1] if len(self.rolls) > before else None

    def on_roll(self, content: dict[str, Any]) -> None:
        """The front end's roll button (or Enter): ``{"type": "roll", "expression": …, "given": …}``."""
        self.expression = str(content.get("expression", ""))
        self.given = str(content.get("given", ""))
        s = current() if self.session is None else self.session
        stream = {} if self.session is None else {"rng": s.rng}
        result = roll_expr(self.expression, dice=_given(self.given), variables=_variables(), **stream)
        s.log(result)
        self.rolls.append(result)
        self.given = ""
        shared = odds(result)
        self.entries = [roll_data(result, shared), *self.entries][:HISTORY]
        self.chart = _chart(shared.shown, [result.total])

    def _texts(self) -> None:
        """The history and the last roll's chart anew (the expression field's chart follows it)."""
        if self.rolls:
            self.entries = [roll_data(r, odds(r)) for r in reversed(self.rolls[-HISTORY:])]
            self.chart = _chart(odds(self.rolls[-1]).shown, [self.rolls[-1].total])

    @traitlets.observe("expression")
    def _preview(self, change: Any) -> None:
        """The chart follows the expression field (estimated where the exact one is beyond the budget);
        the last result stays marked if it is the same expression."""
        try:
            d = preview(change["new"], _variables())
        except RpgError:
            self.chart = {}
            return
        last = self.rolls[-1] if self.rolls else None
        self.chart = _chart(d, last.total if last is not None and last.expression == d.label else None)

    def text(self) -> str:
        if not self.rolls:
            return t("widget.tray.text_empty")
        n, last = len(self.rolls), self.rolls[-1]
        count = t("widget.tray.count_one") if n == 1 else t("widget.tray.count", n=n)
        return t("widget.tray.text", count=count, expr=last.expression, total=result_word(last))


def view_bundle(obj: Roll | Rolls | Dist) -> tuple[dict[str, Any], dict[str, Any]]:
    """``obj``'s own display bundle plus the view of its widget (roll card or chart).

    Registered as IPython's mimebundle formatter for ``Roll``, ``Rolls`` and
    ``Dist`` in a kernel that shows widgets; the text/plain and text/html of
    the object stay exactly its own.
    """
    own = obj._repr_mimebundle_()
    data, meta = own if isinstance(own, tuple) else (own, {})
    # the chart's own title and summary line: the card's head would say its mean and spread twice
    widget = DistributionChart(obj) if isinstance(obj, Dist) else RollCard(obj)
    view, view_meta = widget._repr_mimebundle_()
    return ({**data, WIDGET_VIEW: view[WIDGET_VIEW]},
            {**meta, **{k: v for k, v in view_meta.items() if k == WIDGET_VIEW}})
