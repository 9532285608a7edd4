"""The encounter panel's forecast: the same numbers as Encounter.forecast, the progress while the fights
are played, German errors, nothing written."""

import json

import pytest
from panel_driving import make_campaign, send

from rpgkernel.forecast.value import Forecast
from rpgkernel.render.forecast import chance_text, headline
from rpgkernel.widgets import EncounterPanel


@pytest.fixture(autouse=True)
def fights_unshown(resolutions_speak_german):
    yield
    resolutions_speak_german.clear()   # the forecast's fights are never shown


@pytest.fixture
def camp(tmp_path):
    c = make_campaign(tmp_path / "k.sqlite")
    yield c
    c.close()


def test_the_panel_forecasts_as_the_encounter_does(camp):
    panel = EncounterPanel(camp.encounter)
    seen = []
    panel.observe(lambda change: seen.append(dict(change["new"])), "forecast")
    before = (len(camp.journal()), json.dumps(camp.state, sort_keys=True))
    send(panel, "forecast", zielwahl="verteilen", n=120, seed=9)
    assert not panel.error
    f: Forecast = camp.encounter.forecast(n=120, seed=9, zielwahl="verteilen")
    r = panel.forecast["result"]
    assert r["headline"] == headline(f)
    assert [w["text"] for w in r["win"]] == [chance_text(c) for c in [*f.win.values(), f.draw]]
    assert sum(w["p"] for w in r["win"]) == pytest.approx(1)
    assert [x["name"] for x in r["figures"]] == list(f.figures)
    assert [x["falls"] for x in r["figures"]] == [fig.falls.p for fig in f.figures.values()]
    assert r["chart"]["bars"] and r["columns"][:3] == ["Teilnehmer", "Seite", "fällt"]
    running = [s for s in seen if s.get("running")]
    assert running and [s["done"] for s in running] == sorted(s["done"] for s in running)
    assert running[-1]["done"] == 120 and seen[-1].get("result")
    assert (len(camp.journal()), json.dumps(camp.state, sort_keys=True)) == before
    panel.close()


def test_a_bad_target_picking_in_german(camp):
    panel = EncounterPanel(camp.encounter)
    send(panel, "forecast", zielwahl="<b>zufällig</b>", n=5)
    assert panel.error.startswith("Unbekannte Zielwahl") and not panel.forecast.get("running")
    panel.close()
