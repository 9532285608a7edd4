"""Which rendering shows which value: registered with ``display`` when the renderer is imported."""

from __future__ import annotations

from ..display import register
from .campaign import (encounter_html, encounter_text, figure_html, figure_text, journal_html, journal_text,
                       loaded_html, loaded_text)
from .dicecheck import dicecheck_html, dicecheck_text
from .dice import (dist_html, dist_text, estimate_html, estimate_text, roll_html, roll_markdown, roll_text,
                   rolls_html, rolls_text)
from .forecast import forecast_html, forecast_text
from .resolution import resolution_html, resolution_text

register("rpgkernel.dice.roll.Roll", roll_text, roll_html, roll_markdown)
register("rpgkernel.dice.roll.Rolls", rolls_text, rolls_html)
register("rpgkernel.dice.dist.Dist", dist_text, dist_html)
register("rpgkernel.dice.estimate.Estimate", estimate_text, estimate_html)
register("rpgkernel.rules.resolution.Resolution", resolution_text, resolution_html)
register("rpgkernel.forecast.value.Forecast", forecast_text, forecast_html)
register("rpgkernel.state.journal.Journal", journal_text, journal_html)
register("rpgkernel.state.dicecheck.DiceCheck", dicecheck_text, dicecheck_html)
register("rpgkernel.statblocks.Loaded", loaded_text, loaded_html)
register("rpgkernel.state.views.Figure", lambda f: figure_text(f.record), lambda f: figure_html(f.record))
register("rpgkernel.state.views.Encounter", lambda e: encounter_text(e.record),
         lambda e: encounter_html(e.record, e.campaign.folded))
