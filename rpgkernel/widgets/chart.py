"""The distribution chart: a ``Dist`` as bars, for its own widget and for every widget that shows odds."""

from __future__ import annotations

import operator
from collections.abc import Iterable
from typing import Any

import numpy as np
import traitlets

from ..dice import Dist
from ..messages import t
from ..render.base import integer, number, percent
from ..render.dice import axis_ticks
from .base import Widget

#: bars drawn at most; wider supports are drawn in equal bins
MAX_BARS = 400
#: the chart's two views: P(= value) and P(>= value)
VIEWS = ("verteilung", "mindestens")


def _marks(marked: Any) -> list[int]:
    """``None``, one value or several values (a ``Roll`` counts as its total), as a sorted list."""
    if marked is None:
        return []
    if isinstance(marked, Iterable) and not isinstance(marked, (str, bytes)):
        return sorted({operator.index(m) for m in marked})
    return [operator.index(marked)]


def chart_data(dist: Dist, marked: Any = None) -> dict[str, Any]:
    """What the front end's ``drawChart(model, data)`` draws (JSON-able).

    ``marked``: None, a value or several values to highlight (values outside
    the support are left out). Keys: ``label``, ``min``, ``max``, ``step``
    (values per bar), ``bars`` (each ``low``, ``high``, ``label``,
    ``low_text``, ``p``, ``ge``, ``p_text``, ``ge_text``; ascending, no gaps),
    ``ticks``, ``marked``, ``marked_bars``, ``mean``, ``sd``, ``mean_text``,
    ``sd_text``. Every text is plain text, German.
    """
    p = dist.probabilities
    n = len(p)
    step = -(-n // MAX_BARS)
    starts = list(range(0, n, step))
    heights = (np.add.reduceat(p, starts) if step > 1 else p).tolist()
    at_least = dist.sf()
    bars = []
    for start, q in zip(starts, heights):
        low = dist.min + start
        high = min(dist.max, low + step - 1)
        ge = at_least[start]
        bars.append({"low": low, "high": high,
                     "label": integer(low) if low == high else f"{integer(low)}–{integer(high)}",
                     "low_text": integer(low), "p": q, "ge": ge, "p_text": percent(q), "ge_text": percent(ge)})
    shown = [m for m in _marks(marked) if dist.min <= m <= dist.max]
    mean, sd = dist.mean, dist.sd
    return {"label": dist.label or "", "min": dist.min, "max": dist.max, "step": step, "bars": bars,
            "ticks": [{"value": v, "text": integer(v), "bar": (v - dist.min) // step}
                      for v in axis_ticks(dist.min, dist.max)],
            "marked": shown, "marked_bars": sorted({(m - dist.min) // step for m in shown}),
            "mean": mean, "sd": sd, "mean_text": number(mean), "sd_text": number(sd)}


class DistributionChart(Widget):
    """A bar chart of ``dist``: P(=) or P(≥) per value, hover and keyboard readout, ``marked`` highlighted.

    ``dist`` and ``marked`` can be changed from Python; ``chart_view``
    (``"verteilung"`` or ``"mindestens"``) is the view the front end toggles;
    ``hints`` are the dist's (those of a previewed expression, ``Dist.hints``),
    shown under the title.
    """

    parts = ("chart.js", "chart_main.js")
    styles = ("chart.css",)

    dist = traitlets.Instance(Dist)
    marked = traitlets.Any(None)
    title = traitlets.Unicode("").tag(sync=True)
    data = traitlets.Dict().tag(sync=True)
    hints = traitlets.List(traitlets.Unicode()).tag(sync=True)
    chart_view = traitlets.Enum(VIEWS, default_value=VIEWS[0]).tag(sync=True)

    def __init__(self, dist: Dist, marked: Any = None, title: str = "", **kwargs: Any) -> None:
        super().__init__(dist=dist, marked=marked, title=title, **kwargs)

    @traitlets.observe("dist", "marked")
    def _update(self, _change: Any) -> None:
        self._texts()

    def _texts(self) -> None:
        self.data = chart_data(self.dist, self.marked)
        self.hints = list(self.dist.hints)

    def text(self) -> str:
        d = self.dist
        line = (t("widget.chart.text", expr=d.label, mean=number(d.mean), sd=number(d.sd)) if d.label
                else t("widget.chart.text_unnamed", mean=number(d.mean), sd=number(d.sd)))
        shown = self.data.get("marked")
        line += t("widget.chart.text_marked", marked=", ".join(map(integer, shown))) if shown else ""
        return "\n".join((line, *self.hints))
