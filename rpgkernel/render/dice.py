"""Rolls and distributions: text, Markdown, HTML and the inline SVG chart."""

from __future__ import annotations

import bisect
import html
import math
from typing import TYPE_CHECKING, Callable, NamedTuple

import numpy as np

from ..dice.nodes import Call, Chain, Compare, Const, Fate, Label, Neg, Paren, Pool, Set
from ..errors import DiceSyntaxError
from ..messages import t
from .base import integer, number, pad, percent, style

if TYPE_CHECKING:
    from ..dice.dist import Dist
    from ..dice.estimate import Estimate
    from ..dice.roll import DieRoll, Part, Roll, Rolls

_CHART_BARS = 100      # bars drawn at most; wider ranges are binned
_TABLE_ROWS = 40       # rows of a plain-text distribution table at most
_SYMBOLS = {"+": "+", "-": "−", "*": "×", "/": "/", "/^": "/", "/~": "/", "%": "%",  # as a rolled expression shows them
            "=": "==", "!=": "≠", "<": "<", "<=": "≤", ">": ">", ">=": "≥"}
_FATE_FACES = {-1: "−", 0: "0", 1: "+"}  # a Fate die's faces


# -- dice --------------------------------------------------------------------
def _die_text(d: DieRoll) -> str:
    if len(d.faces) == 1:  # no reroll, no explosion: the common case
        text = str(d.faces[0])
    else:
        pieces, prev_rerolled = [], False
        for face, rerolled in zip(d.faces, d.rerolled):
            sep = "" if not pieces else ("→" if prev_rerolled else "+")
            pieces.append(f"{sep}{face}")
            prev_rerolled = rerolled
        text = "".join(pieces)
    if not d.kept:
        return f"({text})"
    return text + "*" if d.success else text


def die_html(d: DieRoll) -> str:
    pieces, prev_rerolled = [], False
    for face, rerolled in zip(d.faces, d.rerolled):
        if pieces:
            pieces.append("→" if prev_rerolled else "+")
        pieces.append(f"<s>{face}</s>" if rerolled else str(face))
        prev_rerolled = rerolled
    title = f"W{d.sides}" + ("" if d.kept else f" – {t('roll.dropped')}")
    cls = "rpgk-die" + ("" if d.kept else " rpgk-dropped") + (" rpgk-success" if d.success else "")
    body = "".join(pieces)
    if not d.kept:
        body = f"<s>{body}</s>"
    return f'<span class="{cls}" title="{html.escape(title)}">{body}</span>'


def _die_markdown(d: DieRoll) -> str:
    text = _die_text(d) if d.kept else _die_text(d)[1:-1]
    if not d.kept:
        return f"~~{text}~~"
    return f"**{text[:-1]}**" if d.success else text


def roll_parts(part: Part, die: Callable[[DieRoll], str]) -> str:
    """The rolled expression with each pool's dice, written by ``die``, in brackets."""
    return _PARTS.get(type(part.node), _dice_part)(part, die)


def _dice_part(part: Part, die: Callable[[DieRoll], str]) -> str:
    return "[" + ", ".join([die(d) for d in part.dice]) + "]"


def _chain_part(part: Part, die: Callable[[DieRoll], str]) -> str:
    first, *rest = (roll_parts(c, die) for c in part.children)
    return first + "".join(f" {_SYMBOLS[op]} {text}" for op, text in zip(part.node.ops, rest))


def _label_part(part: Part, die: Callable[[DieRoll], str]) -> str:
    inner = roll_parts(part.children[0], die)
    return inner if part.node.comment else f"{inner} [{part.node.text}]"


def _compare_part(part: Part, die: Callable[[DieRoll], str]) -> str:
    left, right = (roll_parts(c, die) for c in part.children)
    return f"{left} {_SYMBOLS[part.node.op]} {right}"


def _set_part(part: Part, die: Callable[[DieRoll], str]) -> str:
    items = [roll_parts(c, die) for c in part.children]
    return "(" + ", ".join(_struck(text, die) if i in part.dropped else text for i, text in enumerate(items)) + ")"


#: how each kind of node shows, rolled (pools and what else holds dice: ``_dice_part``)
_PARTS: dict[type, Callable[[Part, Callable[[DieRoll], str]], str]] = {
    Pool: _dice_part,
    Fate: lambda part, die: "[" + ", ".join(_FATE_FACES[d.value] for d in part.dice) + "]",   # as printed
    Const: lambda part, die: integer(part.node.value),
    Paren: lambda part, die: f"({roll_parts(part.children[0], die)})",
    Neg: lambda part, die: f"−{roll_parts(part.children[0], die)}",
    Chain: _chain_part,
    Call: lambda part, die: f"{part.node.name}({', '.join(roll_parts(c, die) for c in part.children)})",
    Label: _label_part,
    Compare: _compare_part,
    Set: _set_part,
}


def _struck(text: str, die: Callable[[DieRoll], str]) -> str:
    """A set's item not kept, as ``die`` marks a dropped die."""
    if die is die_html:
        return f"<s>{text}</s>"
    return f"~~{text}~~" if die is _die_markdown else f"({text})"


def result_word(roll: Roll) -> str:
    check = roll.check
    if check is not None:
        return t("roll.success") if check else t("roll.failure")
    return f"{integer(roll.total)} {t('roll.successes')}" if roll.counts_successes else integer(roll.total)


class Odds(NamedTuple):
    """What the cards of one expression say about chances, computed once for all its rolls (``odds``).

    ``shown``: the distribution drawn (exact, or an estimate), None if there
    is none; ``line(total)``: the chance line of a result; ``note``: the
    hover text of that line, or why there is no distribution.
    """

    shown: Dist | Estimate | None
    line: Callable[[int], str] | None
    note: str


def odds(roll: Roll) -> Odds:
    """The odds of ``roll``'s expression: ``P(≥ 15) = 35,49 %``, or an estimate's ``P(≥ 16) ≈ 13 % (…)``."""
    from ..dice.estimate import Estimate
    try:
        shown = roll.preview
    except DiceSyntaxError as err:
        return Odds(None, None, t("roll.no_dist", reason=err.message))
    if isinstance(shown, Estimate):
        samples = integer(shown.samples)
        check = roll.check is not None

        def line(total: int) -> str:
            p = shown.p_at_least(1 if check else total)
            p_text, margin = estimated_percent(p, shown.margin(p))
            if check:
                return t("roll.chance_check_estimate", p=p_text, n=samples, margin=margin)
            return t("roll.chance_estimate", value=integer(total), p=p_text, n=samples, margin=margin)
        return Odds(shown, line, t("roll.chance_estimate_title"))
    if roll.check is not None:
        success = t("roll.chance_check", p=percent(shown.p_at_least(1)))
        return Odds(shown, lambda total: success, t("roll.chance_check_title"))
    at_least, lo = shown.survival, shown.min

    def line(total: int) -> str:
        i = total - lo
        p = float(at_least[i]) if 0 <= i < len(at_least) else 1.0 if i < 0 else 0.0
        return t("roll.chance", value=integer(total), p=percent(p))
    return Odds(shown, line, t("roll.chance_title"))


def estimated_percent(p: float, margin: float) -> tuple[str, str]:
    """An estimated share and its margin as percentages, to the precision the margin allows.

    The margin has one significant digit; the share one decimal less
    (``0.1302, 0.0047`` -> ``("13 %", "0,5 %")``).
    """
    m = max(margin * 100, 1e-9)
    digits = max(0, -math.floor(math.log10(m)))
    return number(p * 100, max(0, digits - 1)) + " %", number(round(m, digits), digits) + " %"


def chance_text(roll: Roll, shared: Odds | None = None) -> str | None:
    """The chance line of ``roll`` (``shared``: the odds of its expression, if known), None without odds."""
    o = odds(roll) if shared is None else shared
    return None if o.line is None else o.line(roll.total)


def roll_text(roll: Roll) -> str:
    """``4W6kh3 = [6, 5, (2), 4] = 15  ·  P(≥ 15) = 35,49 %``, and below it the expression's hints."""
    return "\n".join((_roll_line(roll), *roll.hints))


def roll_card(roll: Roll) -> dict[str, object]:
    """The parts of a roll a small card shows: the expression, its dice, the result, the chance line
    (None without odds) and the expression's hints."""
    return {"ausdruck": roll.expression, "wuerfel": roll_parts(roll.tree, _die_text),
            "ergebnis": result_word(roll), "chance": chance_text(roll), "hinweise": list(roll.hints)}


def _roll_line(roll: Roll, shared: Odds | None = None) -> str:
    detail = roll_parts(roll.tree, _die_text)
    line = f"{roll.expression} = {detail} = {result_word(roll)}"
    chance = chance_text(roll, shared)
    return f"{line}  ·  {chance}" if chance else line


def hints_html(hints: tuple[str, ...]) -> str:
    """The hints of an expression (``Roll.hints``), a line each."""
    return "".join(f'<div class="rpgk-chance rpgk-hint">{html.escape(hint)}</div>' for hint in hints)


def roll_markdown(roll: Roll) -> str:
    detail = roll_parts(roll.tree, _die_markdown)
    chance = chance_text(roll)
    md = f"`{roll.expression}` = {detail} = **{result_word(roll)}**"
    md += f" · {chance}" if chance else ""
    return "  \n".join((md, *(f"*{hint}*" for hint in roll.hints)))


def _odds_html(o: Odds, marks: tuple[int, ...], chart: bool = True) -> str:
    """The chance line of ``marks`` (one result) or the reason there is none, and the chart."""
    if o.shown is None:
        return f'<div class="rpgk-chance">{html.escape(o.note)}</div>'
    out = ""
    if len(marks) == 1:
        out = f'<div class="rpgk-chance" title="{html.escape(o.note)}">{html.escape(o.line(marks[0]))}</div>'
    return out + (chart_svg(o.shown, marks=marks) if chart else "")


def roll_html(roll: Roll, chart: bool = True) -> str:
    detail = roll_parts(roll.tree, die_html)
    given = f" · {t('roll.given')}" if roll.given else ""
    return "".join([style(), '<div class="rpgk-card rpgk-roll">',
                    f'<div class="rpgk-head">{html.escape(roll.expression)}{given}</div>',
                    f'<div class="rpgk-dice">{detail}</div>',
                    f'<div class="rpgk-total">{html.escape(result_word(roll))}</div>',
                    _odds_html(odds(roll), (roll.total,), chart), hints_html(roll.hints), "</div>"])


def rolls_frame(rolls: Rolls) -> tuple[str, str]:
    """The header and the summary line of several rolls."""
    totals = [r.total for r in rolls]
    return (t("rolls.header", n=len(rolls), expr=rolls[0].expression),
            t("rolls.summary", sum=integer(sum(totals)), mean=number(sum(totals) / len(totals))))


def rolls_text(rolls: Rolls) -> str:
    if not rolls:
        return ""
    head, summary = rolls_frame(rolls)
    shared = odds(rolls[0])
    return "\n".join([head, *rolls[0].hints] + [f"{i}. {_roll_line(r, shared)}" for i, r in enumerate(rolls, 1)]
                     + [summary])


def rolls_html(rolls: Rolls) -> str:
    if not rolls:
        return ""
    head, summary = rolls_frame(rolls)
    rows = "".join(
        f'<tr><td>{i}.</td><td style="text-align:left">{roll_parts(r.tree, die_html)}</td>'
        f"<td><b>{html.escape(result_word(r))}</b></td></tr>" for i, r in enumerate(rolls, 1))
    return "".join([style(), '<div class="rpgk-card rpgk-rolls">', f'<div class="rpgk-head">{html.escape(head)}</div>',
                    hints_html(rolls[0].hints),
                    f'<table class="rpgk-table">{rows}</table>', f"<div>{html.escape(summary)}</div>",
                    _odds_html(odds(rolls[0]), tuple(sorted({r.total for r in rolls}))), "</div>"])


# -- distributions ------------------------------------------------------------
def dist_text(d: Dist) -> str:
    """Summary line, the hints of a preview (``Dist.hints``), and a table of P(=), P(≥), P(≤) for short ones."""
    lines = [d.summary(), *d.hints]
    if d.max - d.min < _TABLE_ROWS:
        values = [integer(v) for v in range(d.min, d.max + 1)]
        wide = max(6, *(len(v) for v in values))
        lines.append(" ".join([pad(t("dist.value"), wide, right=True)]
                              + [pad(t(k), 9, right=True) for k in ("dist.p_eq", "dist.p_ge", "dist.p_le")]))
        for v, eq, ge, le in zip(values, d.probabilities.tolist(), d.sf(), d.cdf()):
            lines.append(" ".join([pad(v, wide, right=True)] + [pad(percent(p), 9, right=True) for p in (eq, ge, le)]))
    return "\n".join(lines)


def dist_html(d: Dist) -> str:
    return (style() + '<div class="rpgk-card rpgk-dist">'
            f'<div class="rpgk-head">{html.escape(d.summary())}</div>'
            + hints_html(d.hints) + chart_svg(d) + "</div>")


# -- estimated distributions --------------------------------------------------
def estimate_summary(e: Estimate) -> str:
    """The range, mean and spread of the samples; mean and spread to the digits their precision allows."""
    mean, sd = e.mean, e.sd
    error = 2 * sd / math.sqrt(e.samples)  # about the 95 % margin of the mean
    digits = 2 if error < 0.01 else 0 if error >= 1 else -math.floor(math.log10(error))
    return t("estimate.summary", expr=e.label, n=integer(e.samples), low=integer(e.min),
             high=integer(e.max), mean=number(mean, digits), sd=number(sd, digits))


def estimate_text(e: Estimate) -> str:
    return "\n".join((estimate_summary(e), *e.hints))


def estimate_html(e: Estimate) -> str:
    return (style() + '<div class="rpgk-card rpgk-dist">'
            f'<div class="rpgk-head">{html.escape(estimate_summary(e))}</div>'
            + hints_html(e.hints) + chart_svg(e) + "</div>")


# -- the chart ------------------------------------------------------------------
def _bars(x: Dist | Estimate) -> tuple[list[int], list[float], list[float]]:
    """At most ``_CHART_BARS`` equal ranges of values: their first values (and one past the last), P(=), P(≥)."""
    d = getattr(x, "dist", x)  # an estimate's sampled frequencies, if it keeps them
    if d is None:
        edges, heights = x.histogram(_CHART_BARS)
        return edges, heights, [x.p_at_least(v) for v in edges[:-1]]
    n = d.max - d.min + 1
    step = -(-n // _CHART_BARS)
    p = d.probabilities
    heights = np.add.reduceat(p, np.arange(0, n, step)) if step > 1 else p
    return list(range(d.min, d.max + 1, step)) + [d.max + 1], heights.tolist(), d.survival[::step].tolist()


def chart_svg(x: Dist | Estimate, marks: tuple[int, ...] = (), width: int = 420, height: int = 140) -> str:
    """A bar chart of a distribution (or an estimate) as inline SVG; bars holding a value in ``marks`` are highlighted.

    Each bar has a hover title with P(=) and P(≥). Ranges wider than 100
    values are drawn in equal bins.
    """
    edges, heights, ge = _bars(x)
    bins = len(heights)
    top = max(heights)
    pad_l, pad_b, pad_t = 4, 16, 4
    bw = (width - 2 * pad_l) / bins
    if hasattr(x, "samples"):
        title = html.escape(t("estimate.chart_title", expr=x.label, n=integer(x.samples)))
    else:
        title = html.escape(t("dist.chart_title", expr=x.label) if x.label else t("dist.unnamed"))
    out = [f'<svg class="rpgk-chart" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
           f'role="img" aria-label="{title}" xmlns="http://www.w3.org/2000/svg">',
           f"<title>{title}</title>"]
    lo, hi = edges[0], edges[-1] - 1

    def bar(v: int) -> int:
        return bisect.bisect_right(edges, v) - 1

    mark_bins = {bar(m) for m in marks if lo <= m <= hi}
    for i, h in enumerate(heights):
        lo_v, hi_v = edges[i], edges[i + 1] - 1
        bh = (height - pad_b - pad_t) * (h / top if top else 0)
        x_pos = pad_l + i * bw
        y = height - pad_b - bh
        fill = "#e65100" if i in mark_bins else "#5c7cfa"
        label = integer(lo_v) if lo_v == hi_v else f"{integer(lo_v)}–{integer(hi_v)}"
        tip = f"{label}: P(=) {percent(h)}, P(≥) {percent(ge[i])}"
        out.append(f'<rect x="{x_pos:.2f}" y="{y:.2f}" width="{max(bw - 1, 0.5):.2f}" height="{bh:.2f}" '
                   f'fill="{fill}"><title>{html.escape(tip)}</title></rect>')
    for v in axis_ticks(lo, hi):
        x_pos = pad_l + (bar(v) + 0.5) * bw
        out.append(f'<text x="{x_pos:.2f}" y="{height - 3}" font-size="10" text-anchor="middle" '
                   f'fill="currentColor">{integer(v)}</text>')
    out.append("</svg>")
    return "".join(out)


def axis_ticks(lo: int, hi: int) -> list[int]:
    span = hi - lo
    if span <= 12:
        return list(range(lo, hi + 1))
    raw = span / 8
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)
    first = -(-lo // step) * step
    return list(range(first, hi + 1, step))
