"""Resolution cards: the steps with their dice and rules, effects and open choices with the advice on them,
and the preview: first on a card that is only a preview, folded away below a card that rolled."""

from __future__ import annotations

import html

from ..messages import t
from ..rules.wording import effect_text, head, preview_lines
from .base import style
from .dice import die_html


# -- resolutions ---------------------------------------------------------------
def resolution_text(res) -> str:
    """A card in plain text: the steps with their rules, the effects, open choices; the preview a line each
    above the steps of a card that is only a preview, one compact line at the end of a card that rolled."""
    lines = [head(res)]
    if res.summary:
        lines.append(f"  {res.summary}")
    preview = preview_lines(res.preview)
    if not _rolled(res):
        lines += [f"  {t('resolution.preview')}: {p}" for p in preview]
    for s in res.steps:
        lines.append(f"  • {s.text}" + (f"  [{s.rule}]" if s.rule else ""))
    for e in res.effects:
        lines.append(f"  → {e.figure}: {effect_text(e)}")
    for c in res.choices:
        lines.append(f"  ? {c.label}" + (f" ({', '.join(c.options)})" if c.options else ""))
        for a in _advice_of(res, c.key):
            lines.append(f"    {t('resolution.advice_for', who=a.who, objective=a.objective)}")
            lines += [f"      – {o.label}: {'; '.join(o.said())} → {' / '.join(o.lines)}" for o in a.options]
    lines += [f"  ({note})" for note in _notes(res)]
    if preview and _rolled(res):
        lines.append(f"  {t('resolution.preview')}: {' · '.join(preview)}")
    return "\n".join(lines)


def _rolled(res) -> bool:
    """Whether the card rolled dice: its dice and steps come first, the preview is background."""
    return any(s.rolls for s in res.steps)


def _advice_of(res, key: str) -> list:
    """The advice on the open choice ``key``, one per figure who may take it."""
    return [a for a in res.advice if a.key == key]


def _notes(res) -> list[str]:
    """What the card's advice assumes, each once."""
    return list(dict.fromkeys(a.note for a in res.advice if a.note))


def advice_html(a) -> str:
    """One figure's advice on a choice: a foldable table of the options, their consequences and lines."""
    esc = html.escape
    head = "".join(f"<th>{esc(t(k))}</th>" for k in ("resolution.advice_option", "resolution.advice_said",
                                                     "resolution.advice_lines"))
    rows = "".join(f"<tr><td>{esc(o.label)}</td><td>{'<br>'.join(esc(x) for x in o.said())}</td>"
                   f"<td>{'<br>'.join(f'<code>{esc(x)}</code>' for x in o.lines)}</td></tr>" for o in a.options)
    return (f'<details class="rpgk-advice"><summary>{esc(t("resolution.advice_for", who=a.who, objective=a.objective))}'
            f'</summary><table class="rpgk-table">{head}{rows}</table></details>')


def resolution_html(res) -> str:
    esc = html.escape
    head = esc(res.action) + ": " + esc(", ".join(res.actors)) + (
        " → " + esc(", ".join(res.targets)) if res.targets else "")
    parts = [style(), '<div class="rpgk-card rpgk-resolution">', f'<div class="rpgk-head">{head}</div>']
    if res.summary:
        parts.append(f'<div class="rpgk-total">{esc(res.summary)}</div>')
    preview = preview_lines(res.preview)
    if not _rolled(res):
        parts += [f'<div class="rpgk-chance">{esc(t("resolution.preview"))}: {esc(p)}</div>' for p in preview]
    steps = "".join(
        f"<li>{esc(s.text)}" + (" " + "".join(die_html(d) for r in s.rolls for d in r.dice) if s.rolls else "")
        + (f' <span class="rpgk-chance">[{esc(s.rule)}]</span>' if s.rule else "") + "</li>" for s in res.steps)
    parts.append(f"<ol>{steps}</ol>")
    if res.effects:
        items = "".join(f"<li>{esc(e.figure)}: {esc(effect_text(e))}</li>" for e in res.effects)
        parts.append(f"<ul>{items}</ul>")
    if res.choices:
        items = "".join(f"<li>{esc(c.label)}" + (f" ({esc(', '.join(c.options))})" if c.options else "")
                        + "".join(advice_html(a) for a in _advice_of(res, c.key)) + "</li>" for c in res.choices)
        parts.append(f'<div class="rpgk-head">{esc(t("resolution.open"))}</div><ul>{items}</ul>')
        parts += [f'<div class="rpgk-chance">{esc(note)}</div>' for note in _notes(res)]
    if preview and _rolled(res):
        items = "".join(f"<li>{esc(p)}</li>" for p in preview)
        parts.append(f'<details class="rpgk-preview"><summary class="rpgk-chance">{esc(t("resolution.preview"))}'
                     f'</summary><ul class="rpgk-chance">{items}</ul></details>')
    parts.append("</div>")
    return "".join(parts)
