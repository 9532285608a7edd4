"""The dice check (``state.dicecheck.DiceCheck``): a block per figure and die size, as text and as HTML with
a chart of the counted throws per face against the expected count."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from ..messages import t
from ..state.dicecheck import NOTABLE
from .base import integer, number, pad, percent, style, width
from .dice import axis_ticks

if TYPE_CHECKING:
    from ..state.dicecheck import DiceCheck, DieTest

_ROW = 20   # faces per row of the counts table (a W100 takes five)
_NOTABLE = "font-weight:bold;border-left:4px solid #e53935;padding-left:6px"   # in the text colour: legible in both themes


def _title(check: DiceCheck) -> str:
    filters = ", ".join(check.filters)
    return t("dicecheck.title_filtered", filters=filters) if filters else t("dicecheck.title")


def _empty(check: DiceCheck) -> str:
    filters = ", ".join(check.filters)
    return t("dicecheck.none_filtered", filters=filters) if filters else t("dicecheck.none")


def _note() -> str:
    return t("dicecheck.note", notable=percent(NOTABLE), once=integer(round(1 / NOTABLE)))


def _head(test: DieTest) -> str:
    throws = t("dicecheck.throws_1") if test.throws == 1 else t("dicecheck.throws", n=integer(test.throws))
    return t("dicecheck.head", who=test.who, sides=test.sides, throws=throws, expected=_expected(test),
             statistic=number(test.statistic), df=test.df)


def _expected(test: DieTest) -> str:
    return number(test.expected, 0 if test.expected == int(test.expected) else 1)


def _rows(test: DieTest) -> list[tuple[list[str], list[str]]]:
    """The faces and their counts, ``_ROW`` faces a row."""
    faces = [integer(f) for f in range(1, test.sides + 1)]
    counts = [integer(c) for c in test.counts]
    return [(faces[i:i + _ROW], counts[i:i + _ROW]) for i in range(0, test.sides, _ROW)]


def dicecheck_text(check: DiceCheck) -> str:
    """A block per test: what was counted, the verdict, and the counts per face in columns."""
    if not check.tests:
        return _empty(check)
    labels = (t("dicecheck.row_faces"), t("dicecheck.row_counted"))
    label_width = max(map(width, labels))
    lines = [_title(check)]
    for test in check.tests:
        lines += ["", _head(test), "  " + test.verdict]
        for faces, counts in _rows(test):
            cells = [max(width(f), width(c)) for f, c in zip(faces, counts)]
            for label, row in zip(labels, (faces, counts)):
                lines.append("  " + pad(label, label_width) + "".join(
                    "  " + pad(v, w, right=True) for v, w in zip(row, cells)))
    return "\n".join(lines + ["", _note()])


def dicecheck_html(check: DiceCheck) -> str:
    if not check.tests:
        return style() + f'<div class="rpgk-card">{html.escape(_empty(check))}</div>'
    parts = [style(), '<div class="rpgk-card rpgk-dicecheck">',
             f'<div class="rpgk-head">{html.escape(_title(check))}</div>']
    for test in check.tests:
        verdict = (f'<div class="rpgk-verdict rpgk-notable" style="{_NOTABLE}">' if test.notable
                   else '<div class="rpgk-verdict">')
        parts += ['<div class="rpgk-dicetest" style="margin-top:8px">',
                  f'<div class="rpgk-head">{html.escape(_head(test))}</div>',
                  f"{verdict}{html.escape(test.verdict)}</div>", counts_svg(test), _table(test), "</div>"]
    parts += [f'<div class="rpgk-chance">{html.escape(_note())}</div>', "</div>"]
    return "".join(parts)


def _table(test: DieTest) -> str:
    left = ' style="text-align:left"'
    labels = (html.escape(t("dicecheck.row_faces")), html.escape(t("dicecheck.row_counted")))
    rows = "".join(f"<tr><th{left}>{label}</th>" + "".join(f"<td>{v}</td>" for v in row) + "</tr>"
                   for faces, counts in _rows(test) for label, row in zip(labels, (faces, counts)))
    return f'<table class="rpgk-table">{rows}</table>'


def counts_svg(test: DieTest, width: int = 420, height: int = 150) -> str:
    """The counted throws per face as bars, the count a fair die would show as a dashed line across
    them; each bar has a hover title with its count and the expected one."""
    expected = _expected(test)
    title = html.escape(t("dicecheck.chart_title", who=test.who, sides=test.sides, expected=expected))
    pad_l, pad_b, pad_t = 4, 16, 18
    plot = height - pad_b - pad_t
    top = max(*test.counts, test.expected) * 1.1
    bw = (width - 2 * pad_l) / test.sides
    out = [f'<svg class="rpgk-chart" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
           f'role="img" aria-label="{title}" xmlns="http://www.w3.org/2000/svg">', f"<title>{title}</title>"]
    for i, count in enumerate(test.counts):
        bh = plot * count / top
        tip = t("dicecheck.bar", face=integer(i + 1), count=integer(count), expected=expected)
        out.append(f'<rect x="{pad_l + i * bw:.2f}" y="{height - pad_b - bh:.2f}" width="{max(bw - 1, 0.5):.2f}" '
                   f'height="{bh:.2f}" fill="#5c7cfa"><title>{html.escape(tip)}</title></rect>')
    y = height - pad_b - plot * test.expected / top
    out.append(f'<line x1="{pad_l}" y1="{y:.2f}" x2="{width - pad_l}" y2="{y:.2f}" stroke="#e65100" '
               f'stroke-width="2" stroke-dasharray="6 4"/>')
    for face in axis_ticks(1, test.sides):
        out.append(f'<text x="{pad_l + (face - 0.5) * bw:.2f}" y="{height - 3}" font-size="10" '
                   f'text-anchor="middle" fill="currentColor">{integer(face)}</text>')
    out += [f'<rect x="{pad_l}" y="4" width="10" height="10" fill="#5c7cfa"/>',
            f'<text x="{pad_l + 14}" y="13" font-size="10" fill="currentColor">'
            f'{html.escape(t("dicecheck.legend_counted"))}</text>',
            f'<line x1="{pad_l + 80}" y1="9" x2="{pad_l + 100}" y2="9" stroke="#e65100" stroke-width="2" '
            f'stroke-dasharray="6 4"/>',
            f'<text x="{pad_l + 104}" y="13" font-size="10" fill="currentColor">'
            f'{html.escape(t("dicecheck.legend_expected", expected=expected))}</text>', "</svg>"]
    return "".join(out)
