"""Kampfwerte has no forecast: the seed has no ordinary attack, and a manoeuvre's damage and defence are
the GM's (docs/kampfwerte.md, „Prognose“)."""

from __future__ import annotations

import pytest

from rpgkernel import Campaign
from rpgkernel.forecast import ForecastError

KAEL = {"AUFMERKSAMKEIT": 3, "GEWANDTHEIT": 3, "INSTINKT": 3, "HEIMLICHKEIT": 3, "AD": 40, "LP": 30, "angriff": 5,
        "manoever": ["Finte 3", "Schadenserhöhung 1"]}
ORK = {"AUFMERKSAMKEIT": 3, "GEWANDTHEIT": 4, "INSTINKT": 3, "HEIMLICHKEIT": 2, "AD": 10, "LP": 30, "angriff": 4,
       "parade": 3, "ruestung": 2, "manoever": ["Riposte 3"]}


def test_the_forecast_says_why_there_is_none(tmp_path):
    c = Campaign.open(tmp_path / "k.sqlite")
    c.set_ruleset("kampfwerte")
    enc = c.new_encounter("Gefecht")
    enc.add("Kael", side="Spieler", sheet=KAEL)
    enc.add("Ork", side="Feinde", sheet=ORK)
    with pytest.raises(ForecastError, match="Für Kampfwerte gibt es keine Prognose: Der Text kennt keinen gewöhnlichen "
                                            "Angriff.*müsste beides erfinden"):
        enc.forecast(n=10, seed=1)
