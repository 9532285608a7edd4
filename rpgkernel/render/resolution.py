"""Resolution cards: the steps with their rules, the preview, effects and open choices."""

from __future__ import annotations

import html

from ..messages import t
from .base import decimal, integer, percent, style
from .dice import die_html, dist_summary


# -- resolutions ---------------------------------------------------------------
def preview_lines(preview) -> list[str]:
    from ..dice import Dist
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


def effect_text(e) -> str:
    if e.sheet is not None:
        def shown(v) -> str:
            if isinstance(v, bool):
                return t("resolution.yes" if v else "resolution.no")
            return ", ".join(map(str, v)) if isinstance(v, list) else integer(v) if isinstance(v, int) else str(v)
        return t("resolution.sheet", changes="; ".join(f"{k} {shown(v)}" for k, v in e.sheet.items()))
    if e.resource:
        return f"{e.resource} {e.by:+d}"
    return e.condition if e.on else t("resolution.ends", condition=e.condition)


def outcome_text(res) -> str:
    def value(v) -> str:
        if isinstance(v, bool):
            return t("resolution.yes" if v else "resolution.no")
        if v is None:
            return "–"
        if isinstance(v, dict):
            return "(" + ", ".join(f"{k} {value(x)}" for k, x in v.items()) + ")"
        if isinstance(v, (list, tuple)):
            return ", ".join(value(x) for x in v)
        return integer(v) if isinstance(v, int) else decimal(v) if isinstance(v, float) else str(v)
    return " · ".join(f"{k} {value(v)}" for k, v in res.outcome.items())


def resolution_summary(res) -> str:
    """One line for the journal: ``angriff: Ritter → Söldner – GD −4, VIG −2, verwundet``."""
    if res.open:
        return f"{_head(res)} – {t('resolution.pending')}"
    what = ", ".join(f"{e.figure} {effect_text(e)}" for e in res.effects) or res.summary or outcome_text(res)
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
    if res.summary:
        lines.append(f"  {res.summary}")
    lines += [f"  {t('resolution.preview')}: {p}" for p in preview_lines(res.preview)]
    for s in res.steps:
        lines.append(f"  • {s.text}" + (f"  [{s.rule}]" if s.rule else ""))
    for e in res.effects:
        lines.append(f"  → {e.figure}: {effect_text(e)}")
    for c in res.choices:
        lines.append(f"  ? {c.label}" + (f" ({', '.join(c.options)})" if c.options else ""))
    return "\n".join(lines)


def resolution_html(res) -> str:
    esc = html.escape
    head = esc(res.action) + ": " + esc(", ".join(res.actors)) + (
        " → " + esc(", ".join(res.targets)) if res.targets else "")
    parts = [style(), '<div class="rpgk-card rpgk-resolution">', f'<div class="rpgk-head">{head}</div>']
    if res.summary:
        parts.append(f'<div class="rpgk-total">{esc(res.summary)}</div>')
    for p in preview_lines(res.preview):
        parts.append(f'<div class="rpgk-chance">{esc(t("resolution.preview"))}: {esc(p)}</div>')
    steps = "".join(
        f"<li>{esc(s.text)}" + (" " + "".join(die_html(d) for r in s.rolls for d in r.dice) if s.rolls else "")
        + (f' <span class="rpgk-chance">[{esc(s.rule)}]</span>' if s.rule else "") + "</li>" for s in res.steps)
    parts.append(f"<ol>{steps}</ol>")
    if res.effects:
        items = "".join(f"<li>{esc(e.figure)}: {esc(effect_text(e))}</li>" for e in res.effects)
        parts.append(f"<ul>{items}</ul>")
    if res.choices:
        items = "".join(f"<li>{esc(c.label)}" + (f" ({esc(', '.join(c.options))})" if c.options else "")
                        + "</li>" for c in res.choices)
        parts.append(f'<div class="rpgk-head">{esc(t("resolution.open"))}</div><ul>{items}</ul>')
    parts.append("</div>")
    return "".join(parts)
