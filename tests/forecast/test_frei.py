"""Without a ruleset there is no forecast: no attack to play, only damage and healing in the amounts the
GM names (docs/kampagne.md, „Ohne Regelwerk“)."""

from __future__ import annotations

import pytest

from rpgkernel import Campaign
from rpgkernel.forecast import ForecastError


def test_the_forecast_says_why_there_is_none(tmp_path):
    c = Campaign.open(tmp_path / "k.sqlite")
    enc = c.new_encounter("Hinterhalt")
    enc.add("Alrik", side="Spieler", sheet={"hp": 12})
    enc.add("Räuber", side="Räuber", sheet={"hp": 8})
    with pytest.raises(ForecastError, match="Ohne Regelwerk gibt es keine Prognose: Es kennt keinen Angriff"):
        enc.forecast(n=10, seed=1)
