"""Rolls and distributions: text, Markdown, HTML and the inline SVG chart."""

from __future__ import annotations

import html
import math
from typing import TYPE_CHECKING, Callable

from ..errors import DiceSyntaxError
from ..messages import t
from .base import integer, number, pad, percent, style

if TYPE_CHECKING:
    from ..dice.dist import Dist
    from ..dice.roll import DieRoll, Part, Roll, Rolls

_CHART_BARS = 100      # bars drawn at most; wider ranges are binned
_TABLE_ROWS = 40       # rows of a plain-text distribution table at most
_SYMBOLS = {"+": "+", "-": "−", "*": "×"}  # the operators as a rolled expression shows them


# -- dice --------------------------------------------------------------------
def _die_text(d: DieRoll) -> str:
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
    from ..dice.nodes import Call, Chain, Const, Neg, Paren
    node = part.node
    if isinstance(node, Const):
        return integer(node.value)
    if isinstance(node, Paren):
        return f"({roll_parts(part.children[0], die)})"
    if isinstance(node, Neg):
        return f"−{roll_parts(part.children[0], die)}"
    if isinstance(node, Chain):
        first, *rest = (roll_parts(c, die) for c in part.children)
        return first + "".join(f" {_SYMBOLS[op]} {text}" for op, text in zip(node.ops, rest))
    if isinstance(node, Call):
        inner = ", ".join(roll_parts(c, die) for c in part.children)
        return f"{node.name}({inner})"
    return "[" + ", ".join(die(d) for d in part.dice) + "]"


def result_word(roll: Roll) -> str:
    return f"{integer(roll.total)} {t('roll.successes')}" if roll.counts_successes else integer(roll.total)


def chance_text(roll: Roll) -> str | None:
    p = roll.p_at_least()
    return None if p is None else t("roll.chance", value=integer(roll.total), p=percent(p))


def roll_text(roll: Roll) -> str:
    """``4W6kh3 = [6, 5, (2), 4] = 15  ·  P(≥ 15) = 35,49 %``"""
    detail = roll_parts(roll.tree, _die_text)
    line = f"{roll.expression} = {detail} = {result_word(roll)}"
    chance = chance_text(roll)
    return f"{line}  ·  {chance}" if chance else line


def roll_markdown(roll: Roll) -> str:
    detail = roll_parts(roll.tree, _die_markdown)
    chance = chance_text(roll)
    md = f"`{roll.expression}` = {detail} = **{result_word(roll)}**"
    return md + (f" · {chance}" if chance else "")


def roll_html(roll: Roll, chart: bool = True) -> str:
    detail = roll_parts(roll.tree, die_html)
    given = f" · {t('roll.given')}" if roll.given else ""
    out = [style(), '<div class="rpgk-card rpgk-roll">',
           f'<div class="rpgk-head">{html.escape(roll.expression)}{given}</div>',
           f'<div class="rpgk-dice">{detail}</div>',
           f'<div class="rpgk-total">{html.escape(result_word(roll))}</div>']
    try:
        d = roll.dist
    except DiceSyntaxError as err:
        out.append(f'<div class="rpgk-chance">{html.escape(t("roll.no_dist", reason=err.message))}</div>')
    else:
        out.append(f'<div class="rpgk-chance" title="{html.escape(t("roll.chance_title"))}">'
                   f'{html.escape(chance_text(roll) or "")}</div>')
        if chart:
            out.append(chart_svg(d, marks=(roll.total,)))
    out.append("</div>")
    return "".join(out)


def rolls_frame(rolls: Rolls) -> tuple[str, str]:
    """The header and the summary line of several rolls."""
    totals = [r.total for r in rolls]
    return (t("rolls.header", n=len(rolls), expr=rolls[0].expression),
            t("rolls.summary", sum=integer(sum(totals)), mean=number(sum(totals) / len(totals))))


def rolls_text(rolls: Rolls) -> str:
    if not rolls:
        return ""
    head, summary = rolls_frame(rolls)
    return "\n".join([head] + [f"{i}. {roll_text(r)}" for i, r in enumerate(rolls, 1)] + [summary])


def rolls_html(rolls: Rolls) -> str:
    if not rolls:
        return ""
    head, summary = rolls_frame(rolls)
    rows = "".join(
        f'<tr><td>{i}.</td><td style="text-align:left">{roll_parts(r.tree, die_html)}</td>'
        f"<td><b>{html.escape(result_word(r))}</b></td></tr>" for i, r in enumerate(rolls, 1))
    out = [style(), '<div class="rpgk-card rpgk-rolls">', f'<div class="rpgk-head">{html.escape(head)}</div>',
           f'<table class="rpgk-table">{rows}</table>', f"<div>{html.escape(summary)}</div>"]
    try:
        out.append(chart_svg(rolls[0].dist, marks=tuple(sorted({r.total for r in rolls}))))
    except DiceSyntaxError as err:
        out.append(f'<div class="rpgk-chance">{html.escape(t("roll.no_dist", reason=err.message))}</div>')
    out.append("</div>")
    return "".join(out)


# -- distributions ------------------------------------------------------------
def dist_summary(d: Dist) -> str:
    return t("dist.summary", expr=d.label or t("dist.unnamed"), low=integer(d.min), high=integer(d.max),
             mean=number(d.mean), sd=number(d.sd))


def dist_text(d: Dist) -> str:
    """Summary line plus a table of P(=), P(≥), P(≤) for short distributions."""
    lines = [dist_summary(d)]
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
            f'<div class="rpgk-head">{html.escape(dist_summary(d))}</div>'
            + chart_svg(d) + "</div>")


def chart_svg(d: Dist, marks: tuple[int, ...] = (), width: int = 420, height: int = 140) -> str:
    """A bar chart of ``d`` as inline SVG; bars holding a value in ``marks`` are highlighted.

    Each bar has a hover title with P(=) and P(≥). Ranges wider than 100
    values are drawn in equal bins.
    """
    p = d.probabilities.tolist()
    n = len(p)
    step = -(-n // _CHART_BARS)
    bins = -(-n // step)
    heights = [math.fsum(p[i:i + step]) for i in range(0, n, step)]
    ge = d.sf()
    top = max(heights)
    pad_l, pad_b, pad_t = 4, 16, 4
    bw = (width - 2 * pad_l) / bins
    title = html.escape(t("dist.chart_title", expr=d.label) if d.label else t("dist.unnamed"))
    out = [f'<svg class="rpgk-chart" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
           f'role="img" aria-label="{title}" xmlns="http://www.w3.org/2000/svg">',
           f"<title>{title}</title>"]
    mark_bins = {(m - d.min) // step for m in marks if d.min <= m <= d.max}
    for i, h in enumerate(heights):
        lo_v = d.min + i * step
        hi_v = min(d.max, lo_v + step - 1)
        bh = (height - pad_b - pad_t) * (h / top if top else 0)
        x = pad_l + i * bw
        y = height - pad_b - bh
        fill = "#e65100" if i in mark_bins else "#5c7cfa"
        label = integer(lo_v) if step == 1 else f"{integer(lo_v)}–{integer(hi_v)}"
        tip = f"{label}: P(=) {percent(h)}, P(≥) {percent(ge[lo_v - d.min])}"
        out.append(f'<rect x="{x:.2f}" y="{y:.2f}" width="{max(bw - 1, 0.5):.2f}" height="{bh:.2f}" '
                   f'fill="{fill}"><title>{html.escape(tip)}</title></rect>')
    for v in axis_ticks(d.min, d.max):
        x = pad_l + ((v - d.min) // step + 0.5) * bw
        out.append(f'<text x="{x:.2f}" y="{height - 3}" font-size="10" text-anchor="middle" '
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
