"""Resolution cards: the steps with their rules, the preview, effects and open choices."""

from __future__ import annotations

import html

from ..messages import t
from ..rules.wording import effect_text, head, preview_lines
from .base import style
from .dice import die_html


# -- resolutions ---------------------------------------------------------------
def resolution_text(res) -> str:
    """A card in plain text: the steps with their rules, the preview, the effects, open choices."""
    lines = [head(res)]
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
