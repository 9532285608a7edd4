"""Plain-text, Markdown and HTML renderings of results.

One renderer per format; every piece of user text is escaped. Numbers are
written the German way (``rpgkernel.numerals``: ``2.512.225``, ``12,5 %``) and
nothing varies between runs, so notebook outputs stay comparable. Importing
it registers how each value shows itself (``forms``, ``rpgkernel.display``).
"""

from .base import ErrorBox, Notice, integer, number, percent, style
from .campaign import (encounter_html, encounter_text, figure_html, figure_text, journal_html, journal_text,
                       loaded_html, loaded_text, shown_time, status_html, status_text, suggestions_html,
                       suggestions_text)
from .dicecheck import dicecheck_html, dicecheck_text
from .dice import (chart_svg, dist_html, dist_text, estimate_html, estimate_summary, estimate_text,
                   roll_html, roll_markdown, roll_text, rolls_html, rolls_text)
from .resolution import resolution_html, resolution_text
from . import forms  # noqa: F401  (imported for its effect: it registers the forms above with display)

__all__ = ["ErrorBox", "Notice", "chart_svg", "dicecheck_html", "dicecheck_text", "dist_html", "dist_text", "encounter_html",
           "encounter_text", "estimate_html", "estimate_summary", "estimate_text", "figure_html", "figure_text",
           "integer", "journal_html", "journal_text", "loaded_html",
           "loaded_text", "number", "percent", "resolution_html", "resolution_text",
           "roll_html", "roll_markdown", "roll_text", "rolls_html", "rolls_text", "shown_time", "status_html",
           "status_text", "style", "suggestions_html", "suggestions_text"]
