"""Plain-text, Markdown and HTML renderings of results.

One renderer per format; every piece of user text is escaped. Numbers are
written the German way (decimal comma) and nothing varies between runs, so
notebook outputs stay comparable.
"""

from __future__ import annotations

import html
import math
from typing import TYPE_CHECKING

from .assets import asset
from .errors import DiceSyntaxError, RpgError
from .messages import t

if TYPE_CHECKING:
    from .dice.dist import Dist
    from .dice.roll import DieRoll, Part, Roll, Rolls

_CHART_BARS = 100      # bars drawn at most; wider ranges are binned
_TABLE_ROWS = 40       # rows of a plain-text distribution table at most


# -- numbers -----------------------------------------------------------------
def number(x: float, digits: int = 2) -> str:
    """``10.5`` -> ``"10,50"``."""
    return f"{x:.{digits}f}".replace(".", ",").replace("-", "−")


def percent(p: float) -> str:
    p = 1.0 if abs(p - 1.0) < 1e-9 else 0.0 if abs(p) < 1e-15 else p
    if 0 < p < 0.00005:
        return "< 0,01 %"
    if 0.99995 < p < 1:
        return "> 99,99 %"
    return number(p * 100) + " %"


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


def _die_html(d: DieRoll) -> str:
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


def _parts(part: Part, die: callable, pool_open: str, pool_close: str, esc) -> str:
    from .dice.nodes import BinOp, Call, Const, Neg, Paren
    node = part.node
    if isinstance(node, Const):
        return str(node.value)
    if isinstance(node, Paren):
        return f"({_parts(part.children[0], die, pool_open, pool_close, esc)})"
    if isinstance(node, Neg):
        return f"−{_parts(part.children[0], die, pool_open, pool_close, esc)}"
    if isinstance(node, BinOp):
        a, b = (_parts(c, die, pool_open, pool_close, esc) for c in part.children)
        op = {"+": "+", "-": "−", "*": "×"}[node.op]
        return f"{a} {op} {b}"
    if isinstance(node, Call):
        inner = ", ".join(_parts(c, die, pool_open, pool_close, esc) for c in part.children)
        return f"{node.name}({inner})"
    return pool_open + ", ".join(die(d) for d in part.dice) + pool_close


def _result_word(roll: Roll) -> str:
    return f"{roll.total} {t('roll.successes')}" if roll.counts_successes else str(roll.total)


def _chance_text(roll: Roll) -> str | None:
    p = roll.p_at_least()
    return None if p is None else t("roll.chance", value=roll.total, p=percent(p))


def roll_text(roll: Roll) -> str:
    """``4W6kh3 = [6, 5, (2), 4] = 15  ·  P(≥ 15) = 35,49 %``"""
    detail = _parts(roll.tree, _die_text, "[", "]", str)
    line = f"{roll.expression} = {detail} = {_result_word(roll)}"
    chance = _chance_text(roll)
    return f"{line}  ·  {chance}" if chance else line


def roll_markdown(roll: Roll) -> str:
    detail = _parts(roll.tree, _die_markdown, "[", "]", str)
    chance = _chance_text(roll)
    md = f"`{roll.expression}` = {detail} = **{_result_word(roll)}**"
    return md + (f" · {chance}" if chance else "")


def style() -> str:
    """The cards' stylesheet as a <style> element."""
    return f"<style>{asset('card.css')}</style>"


def roll_html(roll: Roll, chart: bool = True) -> str:
    detail = _parts(roll.tree, _die_html, "[", "]", html.escape)
    given = f" · {t('roll.given')}" if roll.given else ""
    out = [style(), '<div class="rpgk-card rpgk-roll">',
           f'<div class="rpgk-head">{html.escape(roll.expression)}{given}</div>',
           f'<div class="rpgk-dice">{detail}</div>',
           f'<div class="rpgk-total">{html.escape(_result_word(roll))}</div>']
    try:
        d = roll.dist
    except DiceSyntaxError as err:
        out.append(f'<div class="rpgk-chance">{html.escape(t("roll.no_dist", reason=err.message))}</div>')
    else:
        out.append(f'<div class="rpgk-chance" title="{html.escape(t("roll.chance_title"))}">'
                   f'{html.escape(_chance_text(roll) or "")}</div>')
        if chart:
            out.append(chart_svg(d, marks=(roll.total,)))
    out.append("</div>")
    return "".join(out)


def rolls_text(rolls: Rolls) -> str:
    if not rolls:
        return ""
    totals = [r.total for r in rolls]
    head = t("rolls.header", n=len(rolls), expr=rolls[0].expression)
    summary = t("rolls.summary", sum=sum(totals), mean=number(sum(totals) / len(totals)))
    return "\n".join([head] + [f"{i}. {roll_text(r)}" for i, r in enumerate(rolls, 1)] + [summary])


def rolls_html(rolls: Rolls) -> str:
    if not rolls:
        return ""
    totals = [r.total for r in rolls]
    head = t("rolls.header", n=len(rolls), expr=rolls[0].expression)
    summary = t("rolls.summary", sum=sum(totals), mean=number(sum(totals) / len(totals)))
    rows = "".join(
        f'<tr><td>{i}.</td><td style="text-align:left">{_parts(r.tree, _die_html, "[", "]", html.escape)}</td>'
        f"<td><b>{html.escape(_result_word(r))}</b></td></tr>" for i, r in enumerate(rolls, 1))
    out = [style(), '<div class="rpgk-card rpgk-rolls">', f'<div class="rpgk-head">{html.escape(head)}</div>',
           f'<table class="rpgk-table">{rows}</table>', f"<div>{html.escape(summary)}</div>"]
    try:
        out.append(chart_svg(rolls[0].dist, marks=tuple(sorted(set(totals)))))
    except DiceSyntaxError as err:
        out.append(f'<div class="rpgk-chance">{html.escape(t("roll.no_dist", reason=err.message))}</div>')
    out.append("</div>")
    return "".join(out)


# -- distributions ------------------------------------------------------------
def dist_summary(d: Dist) -> str:
    return t("dist.summary", expr=d.label or "Dist", low=d.min, high=d.max,
             mean=number(d.mean), sd=number(d.sd))


def dist_text(d: Dist) -> str:
    """Summary line plus a table of P(=), P(≥), P(≤) for short distributions."""
    lines = [dist_summary(d)]
    if d.max - d.min < _TABLE_ROWS:
        lines.append(f"{t('dist.value'):>6} {t('dist.p_eq'):>9} {t('dist.p_ge'):>9} {t('dist.p_le'):>9}")
        for v, eq, ge, le in zip(range(d.min, d.max + 1), d.probabilities.tolist(), d.sf(), d.cdf()):
            lines.append(f"{v:>6} {percent(eq):>9} {percent(ge):>9} {percent(le):>9}")
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
    title = html.escape(t("dist.chart_title", expr=d.label or "Dist"))
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
        label = str(lo_v) if step == 1 else f"{lo_v}–{hi_v}"
        tip = f"{label}: P(=) {percent(h)}, P(≥) {percent(ge[lo_v - d.min])}"
        out.append(f'<rect x="{x:.2f}" y="{y:.2f}" width="{max(bw - 1, 0.5):.2f}" height="{bh:.2f}" '
                   f'fill="{fill}"><title>{html.escape(tip)}</title></rect>')
    for v in _axis_ticks(d.min, d.max):
        x = pad_l + ((v - d.min) // step + 0.5) * bw
        out.append(f'<text x="{x:.2f}" y="{height - 3}" font-size="10" text-anchor="middle" '
                   f'fill="currentColor">{v}</text>')
    out.append("</svg>")
    return "".join(out)


def _axis_ticks(lo: int, hi: int) -> list[int]:
    span = hi - lo
    if span <= 12:
        return list(range(lo, hi + 1))
    raw = span / 8
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)
    first = -(-lo // step) * step
    return list(range(first, hi + 1, step))


# -- errors ------------------------------------------------------------------
class ErrorBox:
    """A short German error box shown instead of a traceback."""

    def __init__(self, error: RpgError | str) -> None:
        self.text = str(error)

    def __repr__(self) -> str:
        return f"{t('error.title')}: {self.text}"

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, str]:
        first, _, rest = self.text.partition("\n")
        body = f"<b>{html.escape(t('error.title'))}:</b> {html.escape(first)}"
        if rest:
            body += f"<pre>{html.escape(rest)}</pre>"
        return {"text/plain": repr(self),
                "text/html": f'{style()}<div class="rpgk-card rpgk-error">{body}</div>'}


# -- campaign ------------------------------------------------------------------
def _resources_text(data: dict) -> str:
    res = data.get("resources", {})
    return ", ".join(f"{k} {v['value']}/{v['max']}" for k, v in res.items())


def _conditions_text(data: dict) -> str:
    parts = []
    for name, cond in data.get("conditions", {}).items():
        left = cond.get("remaining")
        parts.append(name if left is None else f"{name} ({t('condition.left', n=left)})")
    return ", ".join(parts)


def figure_text(data: dict) -> str:
    line = data["name"]
    if data.get("resources"):
        line += " – " + _resources_text(data)
    if data.get("conditions"):
        line += " – " + _conditions_text(data)
    return line


def figure_html(data: dict) -> str:
    rows = "".join(f"<tr><th>{html.escape(k)}</th><td>{v['value']}</td><td>/ {v['max']}</td></tr>"
                   for k, v in data.get("resources", {}).items())
    conds = html.escape(_conditions_text(data))
    return (style() + f'<div class="rpgk-card rpgk-figure"><div class="rpgk-total">{html.escape(data["name"])}</div>'
            f'<table class="rpgk-table">{rows}</table>'
            + (f'<div class="rpgk-chance">{conds}</div>' if conds else "") + "</div>")


def encounter_text(data: dict) -> str:
    """``Hinterhalt – Runde 2 – am Zug: Ritter``"""
    head = data["name"]
    if not data["round"]:
        return f"{head} – {t('encounter.not_started', n=len(data['combatants']))}"
    return f"{head} – " + t("encounter.turn", round=data["round"], figure=data["order"][data["turn"]])


def encounter_html(data: dict, state: dict) -> str:
    from .state.model import figure, figure_path
    order = data["order"] or list(data["combatants"])
    left = ' style="text-align:left"'
    rows = []
    for i, name in enumerate(order):
        fig = figure(state, figure_path(state, name, data["name"]))
        current = bool(data["round"]) and i == data["turn"]
        cells = ["▶" if current else "", html.escape(name),
                 html.escape(data["combatants"][name].get("side", "")),
                 html.escape(_resources_text(fig)), html.escape(_conditions_text(fig))]
        cls = ' class="rpgk-current"' if current else ""
        rows.append(f"<tr{cls}>" + "".join(f"<td{left}>{c}</td>" for c in cells) + "</tr>")
    head = html.escape(encounter_text(data))
    return (style() + f'<div class="rpgk-card rpgk-encounter"><div class="rpgk-head">{head}</div>'
            f'<table class="rpgk-table">{"".join(rows)}</table></div>')


def journal_text(entries) -> str:
    if not entries:
        return t("journal.empty")
    return "\n".join(f"{e.seq:>5}  {e.kind:<16} {e.data.get('text', '')}" for e in entries)


def journal_html(entries) -> str:
    if not entries:
        return html.escape(t("journal.empty"))
    head = "".join(f"<th>{html.escape(t(k))}</th>" for k in
                   ("journal.col_seq", "journal.col_kind", "journal.col_text", "journal.col_encounter"))
    left = ' style="text-align:left"'
    rows = "".join(f"<tr><td>{e.seq}</td><td{left}>{html.escape(e.kind)}</td>"
                   f"<td{left}>{html.escape(str(e.data.get('text', '')))}</td>"
                   f"<td{left}>{html.escape(str(e.data.get('encounter') or ''))}</td></tr>"
                   for e in entries)
    return style() + f'<div class="rpgk-card"><table class="rpgk-table"><tr>{head}</tr>{rows}</table></div>'


# -- confirmations and stat blocks -------------------------------------------------
class Notice:
    """A short German confirmation (undo, redo, …)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, str]:
        return {"text/plain": self.text,
                "text/html": f'{style()}<div class="rpgk-card">{html.escape(self.text)}</div>'}


def _loaded_rows(loaded) -> list[tuple[str, str, str, str, str]]:
    """(what, name, side, resources, conditions) of each figure a stat block created."""
    out = []
    for i, (name, side, data) in enumerate(loaded.rows):
        what = t("statblock.row_character") if i < len(loaded.characters) else t("statblock.row_combatant")
        out.append((what, name, side, _resources_text(data), _conditions_text(data)))
    return out


def _loaded_head(loaded) -> list[str]:
    def counted(key: str, n: int, **fields: object) -> str:
        return t(key + "_1" if n == 1 else key, n=n, **fields)

    heads = []
    if loaded.characters:
        heads.append(counted("statblock.loaded_characters", len(loaded.characters)))
    if loaded.encounter is not None:
        key = "statblock.loaded_new_encounter" if loaded.new_encounter else "statblock.loaded_encounter"
        heads.append(counted(key, len(loaded.combatants), name=loaded.encounter))
    return heads


def loaded_text(loaded) -> str:
    """``Angelegt: 2 Figuren · Begegnung Hinterhalt (neu) mit 3 Teilnehmern`` and a line per figure."""
    lines = [t("statblock.loaded", what=" · ".join(_loaded_head(loaded)))]
    for what, name, side, res, conds in _loaded_rows(loaded):
        line = f"  {what} {name}" + (f" [{side}]" if side else "")
        lines.append(line + "".join(f" – {part}" for part in (res, conds) if part))
    return "\n".join(lines)


def loaded_html(loaded) -> str:
    left = ' style="text-align:left"'
    head = "".join(f"<th{left}>{html.escape(t(k))}</th>" for k in
                   ("statblock.col_what", "statblock.col_name", "statblock.col_side",
                    "statblock.col_resources", "statblock.col_conditions"))
    rows = "".join("<tr>" + "".join(f"<td{left}>{html.escape(c)}</td>" for c in row) + "</tr>"
                   for row in _loaded_rows(loaded))
    title = html.escape(t("statblock.loaded", what=" · ".join(_loaded_head(loaded))))
    return (style() + f'<div class="rpgk-card rpgk-loaded"><div class="rpgk-head">{title}</div>'
            f'<table class="rpgk-table"><tr>{head}</tr>{rows}</table></div>')


# -- session status ------------------------------------------------------------------
def status_text(rows: list[tuple[str, str]], rulesets: list[tuple[str, str, str]]) -> str:
    lines = [f"{k}: {v}" for k, v in rows]
    lines.append(t("rpg.rulesets") + ":")
    lines += [f"  {key:<12} {title} – {state}" for key, title, state in rulesets]
    return "\n".join(lines)


def status_html(rows: list[tuple[str, str]], rulesets: list[tuple[str, str, str]]) -> str:
    left = ' style="text-align:left"'
    body = "".join(f"<tr><th{left}>{html.escape(k)}</th><td{left}>{html.escape(v)}</td></tr>" for k, v in rows)
    rs = "".join(f"<tr><td{left}><code>{html.escape(key)}</code></td><td{left}>{html.escape(title)}</td>"
                 f"<td{left}>{html.escape(state)}</td></tr>" for key, title, state in rulesets)
    return (style() + f'<div class="rpgk-card"><div class="rpgk-head">{html.escape(t("rpg.status_title"))}</div>'
            f'<table class="rpgk-table">{body}</table>'
            f'<div class="rpgk-head">{html.escape(t("rpg.rulesets"))}</div>'
            f'<table class="rpgk-table">{rs}</table></div>')


# -- resolutions ---------------------------------------------------------------
def _preview_lines(preview) -> list[str]:
    from .dice import Dist
    if preview is None:
        return []
    if isinstance(preview, float):
        return [t("resolution.chance", p=percent(preview))]
    items = preview.items() if isinstance(preview, dict) else [("", preview)]
    out = []
    for key, value in items:
        if isinstance(value, Dist):
            out.append(dist_summary(value))
        elif isinstance(value, float):
            out.append(f"{_preview_label(key)}: {percent(value)}")
    return out


def _head(res) -> str:
    return f"{res.action}: {', '.join(res.actors)}" + (f" → {', '.join(res.targets)}" if res.targets else "")


def _effect_text(e) -> str:
    if e.resource:
        return f"{e.resource} {e.by:+d}"
    return e.condition if e.on else t("resolution.ends", condition=e.condition)


def _outcome_text(res) -> str:
    def value(v) -> str:
        if isinstance(v, bool):
            return t("resolution.yes" if v else "resolution.no")
        if v is None:
            return "–"
        if isinstance(v, dict):
            return "(" + ", ".join(f"{k} {value(x)}" for k, x in v.items()) + ")"
        if isinstance(v, (list, tuple)):
            return ", ".join(value(x) for x in v)
        return str(v)
    return " · ".join(f"{k} {value(v)}" for k, v in res.outcome.items())


def resolution_summary(res) -> str:
    """One line for the journal: ``angriff: Ritter → Söldner – GD −4, VIG −2, verwundet``."""
    if res.open:
        return f"{_head(res)} – {t('resolution.pending')}"
    what = ", ".join(f"{e.figure} {_effect_text(e)}" for e in res.effects) or _outcome_text(res)
    return _head(res) + (f" – {what}" if what else "")


def _preview_label(key: str) -> str:
    """The German label of a preview entry; "p_gambit (Knappe)" keeps its figure."""
    base, sep, rest = key.partition(" (")
    try:
        return t(f"preview.{base}") + (f" ({rest}" if sep else "")
    except KeyError:
        return key


def resolution_text(res) -> str:
    """A card in plain text: the steps with their rules, the preview, the effects, open choices."""
    lines = [_head(res)]
    lines += [f"  {t('resolution.preview')}: {p}" for p in _preview_lines(res.preview)]
    for s in res.steps:
        lines.append(f"  • {s.text}" + (f"  [{s.rule}]" if s.rule else ""))
    if res.outcome:
        lines.append(f"  {t('resolution.outcome')}: {_outcome_text(res)}")
    for e in res.effects:
        lines.append(f"  → {e.figure}: {_effect_text(e)}")
    for c in res.choices:
        lines.append(f"  ? {c.label}" + (f" ({', '.join(c.options)})" if c.options else ""))
    return "\n".join(lines)


def resolution_html(res) -> str:
    esc = html.escape
    head = esc(res.action) + ": " + esc(", ".join(res.actors)) + (
        " → " + esc(", ".join(res.targets)) if res.targets else "")
    parts = [style(), '<div class="rpgk-card rpgk-resolution">', f'<div class="rpgk-head">{head}</div>']
    for p in _preview_lines(res.preview):
        parts.append(f'<div class="rpgk-chance">{esc(t("resolution.preview"))}: {esc(p)}</div>')
    steps = "".join(
        f"<li>{esc(s.text)}" + (" " + "".join(_die_html(d) for r in s.rolls for d in r.dice) if s.rolls else "")
        + (f' <span class="rpgk-chance">[{esc(s.rule)}]</span>' if s.rule else "") + "</li>" for s in res.steps)
    parts.append(f"<ol>{steps}</ol>")
    if res.outcome:
        parts.append(f'<div class="rpgk-total">{esc(t("resolution.outcome"))}: {esc(_outcome_text(res))}</div>')
    if res.effects:
        items = "".join(f"<li>{esc(e.figure)}: {esc(_effect_text(e))}</li>" for e in res.effects)
        parts.append(f"<ul>{items}</ul>")
    if res.choices:
        items = "".join(f"<li>{esc(c.label)}" + (f" ({esc(', '.join(c.options))})" if c.options else "")
                        + "</li>" for c in res.choices)
        parts.append(f'<div class="rpgk-head">{esc(t("resolution.open"))}</div><ul>{items}</ul>')
    parts.append("</div>")
    return "".join(parts)
