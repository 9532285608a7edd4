"""Forecast cards: who wins (a bar split by side), how long it lasts (a chart), who falls and what is left.

Every number of a sampled forecast comes with its 95 % interval; an exact one says so once.
"""

from __future__ import annotations

import html
from typing import Any

from ..assets import asset
from ..messages import t
from ..numerals import decimal, integer, number, percent
from .base import pad, style, width
from .dice import chart_svg

#: a colour per side in the win bar (cycled), the draw in grey; legible on light and dark themes
SIDE_COLOURS = ("#1e88e5", "#e53935", "#43a047", "#fb8c00", "#8e24aa", "#00897b")
DRAW_COLOUR = "#9e9e9e"


def chance_text(c: Any) -> str:
    """``57,14 %`` when exact, ``57,10 % (54,90–59,30 %)`` with its interval when sampled."""
    if c.low == c.high:
        return percent(c.p)
    return t("forecast.interval", p=percent(c.p), low=percent(c.low).replace(" %", ""), high=percent(c.high))


def mean_text(m: Any) -> str:
    return number(m.value, 1) if not m.margin else t("forecast.mean", value=number(m.value, 1),
                                                      margin=number(m.margin, 1))


def headline(f: Any) -> str:
    """The outcome in one sentence: the likeliest winner and its chance (or the draw)."""
    side, c = max(f.win.items(), key=lambda kv: kv[1].p)
    if f.draw.p > c.p:
        return t("forecast.headline_draw", p=chance_text(f.draw))
    return t("forecast.headline", side=side, p=chance_text(c))


def method_line(f: Any) -> str:
    """How the forecast was made: exact, or sampled with how many fights (or stopped after them); the
    target picking; from when."""
    how = (t("forecast.method_exakt") if f.method == "exakt" else
           t("forecast.method_stopped" if f.stopped else "forecast.method_simuliert", n=f.fights))
    since = t("forecast.from_start") if not f.start_round else t("forecast.from_round", round=f.start_round)
    seed = "" if f.seed is None else " " + t("forecast.seed", seed=f.seed)
    key = "forecast.head_rule" if f.target_rule else "forecast.head"   # a rule of the seed picks the targets
    return t(key, encounter=f.encounter, since=since, how=how, zielwahl=f.zielwahl) + seed


def notes(f: Any) -> list[str]:
    """The card's notes: that it was stopped first (its numbers count the fights played), then the
    forecast's own notes and the rule that picks the targets."""
    stopped = [t("forecast.stopped", fights=f.fights)] if f.stopped else []
    return [*stopped, *f.notes, *([str(f.target_rule)] if f.target_rule else [])]


def rounds_line(f: Any) -> str:
    return t("forecast.rounds", mean=decimal(round(f.rounds.mean, 1)), low=integer(f.rounds.min),
             high=integer(f.rounds.max))


def resource_names(f: Any) -> list[str]:
    return list(dict.fromkeys(k for fig in f.figures.values() for k in fig.resources))


def forecast_text(f: Any) -> str:
    lines = [method_line(f), headline(f)]
    lines += [f"  {t('forecast.wins', side=side)}: {chance_text(c)}" for side, c in f.win.items()]
    lines.append(f"  {t('forecast.draw')}: {chance_text(f.draw)}")
    lines.append(rounds_line(f))
    names = resource_names(f)
    rows = [[t("forecast.col_figure"), t("forecast.col_side"), t("forecast.col_falls"), *names]]
    rows += [[name, fig.side, chance_text(fig.falls), *(mean_text(fig.resources[k]) if k in fig.resources else "–"
                                                    for k in names)] for name, fig in f.figures.items()]
    widths = [max(width(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines += ["  ".join(pad(cell, w, right=i >= 2) for i, (cell, w) in enumerate(zip(row, widths))).rstrip()
              for row in rows]
    lines += notes(f)
    return "\n".join(lines)


def win_parts(f: Any) -> list[tuple[str, Any, str]]:
    """Each side's chance of winning and the draw's, with the colour of its part of the win bar."""
    parts = [(side, c, SIDE_COLOURS[i % len(SIDE_COLOURS)]) for i, (side, c) in enumerate(f.win.items())]
    return parts + [(t("forecast.draw"), f.draw, DRAW_COLOUR)]


def _win_bar(f: Any) -> str:
    """The chances of each side and of a draw as one bar split in proportion, labelled below."""
    parts = win_parts(f)
    segments = "".join(f'<div title="{html.escape(name)}: {html.escape(chance_text(c))}" '
                       f'style="width:{100 * c.p:.3f}%;background:{colour}"></div>'
                       for name, c, colour in parts if c.p > 0)
    # inline: the notebook's own stylesheet for rendered HTML lists wins over a class of ours
    legend = "".join(f'<li style="list-style:none"><span class="rpgk-swatch" style="background:{colour}"></span>'
                     f"{html.escape(t('forecast.wins', side=name) if name in f.win else name)}: "
                     f"<b>{html.escape(chance_text(c))}</b></li>" for name, c, colour in parts)
    return (f'<div class="rpgk-winbar" role="img" aria-label="{html.escape(headline(f))}">{segments}</div>'
            f'<ul class="rpgk-legend" style="list-style:none;padding-left:0">{legend}</ul>')


def _fall_cell(c: Any) -> str:
    return (f'<td><span class="rpgk-fallbar"><span style="width:{100 * c.p:.2f}%"></span></span> '
            f"{html.escape(chance_text(c))}</td>")


def forecast_html(f: Any) -> str:
    esc = html.escape
    names = resource_names(f)
    head = "".join(f"<th>{esc(x)}</th>" for x in (t("forecast.col_figure"), t("forecast.col_side"),
                                                     t("forecast.col_falls"), *names))
    rows = "".join(
        f'<tr><td style="text-align:left">{esc(name)}</td><td style="text-align:left">{esc(fig.side)}</td>'
        + _fall_cell(fig.falls)
        + "".join(f"<td>{esc(mean_text(fig.resources[k]) if k in fig.resources else '–')}</td>" for k in names)
        + "</tr>" for name, fig in f.figures.items())
    said = "".join(f'<div class="rpgk-chance">{esc(n)}</div>' for n in notes(f))
    return "".join([
        style(), f"<style>{asset('forecast.css')}</style>", '<div class="rpgk-card rpgk-forecast">',
        f'<div class="rpgk-head">{esc(method_line(f))}</div>',
        f'<div class="rpgk-total">{esc(headline(f))}</div>',
        _win_bar(f),
        f'<div class="rpgk-head">{esc(rounds_line(f))}</div>', chart_svg(f.rounds),
        f'<table class="rpgk-table"><tr>{head}</tr>{rows}</table>', said, "</div>"])
