"""A resolution in plain German: its head, effects, outcome, preview and the journal's line.

The cards (``render``), the journal (``resolve``) and the panel word a resolution the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..dice import Dist
from ..messages import known, t
from ..numerals import decimal, integer, percent

if TYPE_CHECKING:
    from ..state.effects import Effect
    from .resolution import Resolution


def preview_lines(preview: Any) -> list[str]:
    """A preview (a Dist, a probability or a dict of them, and of lists of German lines) as German lines."""
    if preview is None:
        return []
    if isinstance(preview, float):
        return [t("resolution.chance", p=percent(preview))]
    items = preview.items() if isinstance(preview, dict) else [("", preview)]
    out: list[str] = []
    for key, value in items:
        if isinstance(value, Dist):
            out.append(value.summary())
        elif isinstance(value, float):
            out.append(f"{_preview_label(key)}: {percent(value)}")
        elif isinstance(value, list) and all(isinstance(x, str) for x in value):
            out.extend(value)
    return out


def head(res: Resolution) -> str:
    """The head of a card: ``angriff: Ritter → Söldner``."""
    return f"{res.action}: {', '.join(res.actors)}" + (f" → {', '.join(res.targets)}" if res.targets else "")


def effect_text(e: Effect) -> str:
    """An effect without its figure: "GD -4", "verwundet", "Bogen: ST 12"."""
    if e.sheet is not None:
        def shown(v: Any) -> str:
            if isinstance(v, bool):
                return t("resolution.yes" if v else "resolution.no")
            return ", ".join(map(str, v)) if isinstance(v, list) else integer(v) if isinstance(v, int) else str(v)
        return t("resolution.sheet", changes="; ".join(f"{k} {shown(v)}" for k, v in e.sheet.items()))
    if e.resource:
        return f"{e.resource} {e.by:+d}"
    return (e.condition or "") if e.on else t("resolution.ends", condition=e.condition)


def outcome_text(res: Resolution) -> str:
    """The outcome's values on one line: ``key value · key value``."""
    def value(v: Any) -> str:
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


def journal_line(res: Resolution) -> str:
    """One line for the journal: ``angriff: Ritter → Söldner – GD −4, VIG −2, verwundet``."""
    if res.open:
        return f"{head(res)} – {t('resolution.pending')}"
    what = ", ".join(f"{e.figure} {effect_text(e)}" for e in res.effects) or res.summary or outcome_text(res)
    return head(res) + (f" – {what}" if what else "")


def _preview_label(key: str) -> str:
    """The German label of a preview entry; "p_gambit (Knappe)" keeps its figure."""
    base, sep, rest = key.partition(" (")
    if not known(f"preview.{base}"):
        return key
    return t(f"preview.{base}") + (f" ({rest}" if sep else "")
