"""Campaign views: figures, encounters, the journal, stat-block results, the session status, the
players' suggestions."""

from __future__ import annotations

import html
import re

from ..messages import t
from ..state.journal import kind_label
from ..state.marks import marked
from .base import integer, pad, style, width


# -- campaign ------------------------------------------------------------------
def _resources_text(data: dict) -> str:
    res = data.get("resources", {})
    return ", ".join(f"{k} {integer(v['value'])}/{integer(v['max'])}" for k, v in res.items())


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
    rows = "".join(f"<tr><th>{html.escape(k)}</th><td>{integer(v['value'])}</td><td>/ {integer(v['max'])}</td></tr>"
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
    from ..state.model import figure, figure_path
    held = list(data.get("held", ())) if data["round"] else []
    order = (data["order"] or list(data["combatants"])) + held
    shown = dict(zip(order, marked(state, data["name"], order)))
    left = ' style="text-align:left"'
    rows = []
    for i, name in enumerate(order):
        fig = figure(state, figure_path(state, name, data["name"]))
        current = bool(data["round"]) and i == data["turn"]
        label = shown[name] + (" " + t("encounter.held") if name in held else "")
        cells = ["▶" if current else "", html.escape(label),
                 html.escape(data["combatants"][name].get("side", "")),
                 html.escape(_resources_text(fig)), html.escape(_conditions_text(fig))]
        cls = ' class="rpgk-current"' if current else ""
        rows.append(f"<tr{cls}>" + "".join(f"<td{left}>{c}</td>" for c in cells) + "</tr>")
    head = html.escape(encounter_text(data))
    return (style() + f'<div class="rpgk-card rpgk-encounter"><div class="rpgk-head">{head}</div>'
            f'<table class="rpgk-table">{"".join(rows)}</table></div>')


_JOURNAL_COLUMNS = ("journal.col_seq", "journal.col_kind", "journal.col_encounter", "journal.col_text")


def _journal_rows(entries) -> list[tuple[str, str, str, str]]:
    """(number, kind, encounter, text) of each entry, each cell on one line."""
    def line(value: object) -> str:
        return re.sub(r"[\r\n\t\v\f]+", " ", str(value or ""))
    return [(str(e.seq), kind_label(e.kind, e.data), line(e.data.get("encounter")), line(e.data.get("text")))
            for e in entries]


def journal_text(entries) -> str:
    """The journal as a table: number (right-aligned), kind, encounter, entry, padded by display width."""
    if not entries:
        return t("journal.empty")
    table = [tuple(t(k) for k in _JOURNAL_COLUMNS), *_journal_rows(entries)]
    widths = [max(width(row[i]) for row in table) for i in range(3)]
    return "\n".join("  ".join([pad(row[0], widths[0], right=True), pad(row[1], widths[1]),
                                pad(row[2], widths[2]), row[3]]).rstrip() for row in table)


def journal_html(entries) -> str:
    if not entries:
        return html.escape(t("journal.empty"))
    left = ' style="text-align:left"'
    aligns = ("", left, left, left)   # the number column stays right-aligned, header and cells alike
    head = "".join(f"<th{a}>{html.escape(t(k))}</th>" for a, k in zip(aligns, _JOURNAL_COLUMNS))
    rows = "".join("<tr>" + "".join(f"<td{a}>{html.escape(c)}</td>" for a, c in zip(aligns, row)) + "</tr>"
                   for row in _journal_rows(entries))
    return style() + f'<div class="rpgk-card"><table class="rpgk-table"><tr>{head}</tr>{rows}</table></div>'


# -- confirmations and stat blocks -------------------------------------------------
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
    head = f"<th{left}></th>" + "".join(f"<th{left}>{html.escape(t(k))}</th>" for k in
                                        ("statblock.col_name", "statblock.col_side",
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


# -- the players' suggestions (%rpg vorschläge) ---------------------------------------------------------
def shown_time(created: str) -> str:
    """A stored time (ISO, UTC) as a German reads it (``01.12.2026, 23:22 UTC``)."""
    from datetime import datetime, timezone
    try:
        when = datetime.fromisoformat(created).astimezone(timezone.utc)
    except (TypeError, ValueError):
        return str(created)
    return when.strftime("%d.%m.%Y, %H:%M UTC")


def _suggestion_rows(entries) -> list[tuple[str, str, str, str, str]]:
    return [(s["id"], s["figure"], shown_time(s["created"]), s["answer"] or t("suggestions.open"),
             " ".join(s["text"].splitlines())) for s in entries]


_SUGGESTION_COLUMNS = ("suggestions.col_id", "suggestions.col_figure", "suggestions.col_created",
                       "suggestions.col_answer", "suggestions.col_text")


def suggestions_text(entries) -> str:
    if not entries:
        return t("suggestions.none")
    rows = [tuple(t(k) for k in _SUGGESTION_COLUMNS), *_suggestion_rows(entries)]
    widths = [max(width(r[i]) for r in rows) for i in range(4)]
    return "\n".join("  ".join(pad(c, widths[i]) for i, c in enumerate(r[:4])) + "  " + r[4] for r in rows)


def suggestions_html(entries) -> str:
    if not entries:
        return style() + f'<div class="rpgk-card rpgk-muted">{html.escape(t("suggestions.none"))}</div>'
    left = ' style="text-align:left"'
    head = "".join(f"<th{left}>{html.escape(t(k))}</th>" for k in _SUGGESTION_COLUMNS)
    body = "".join("<tr>" + "".join(f"<td{left}>{html.escape(c)}</td>" for c in row) + "</tr>"
                   for row in _suggestion_rows(entries))
    return (style() + f'<div class="rpgk-card"><div class="rpgk-head">{html.escape(t("suggestions.title"))}</div>'
            f'<table class="rpgk-table"><tr>{head}</tr>{body}</table></div>')
