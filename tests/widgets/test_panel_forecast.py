"""The encounter panel's forecast: the same numbers as Encounter.forecast, the progress while the fights
are played, in a thread of its own that a message stops, German errors, nothing written."""

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


def kernel_loop(panel):
    """The panel's background thread hands what it shows to the kernel's event loop, which runs it in
    the main thread after the message at hand: here a queue, run by ``done``."""
    queued = []
    panel.background.show = queued.append
    return queued


def done(panel, queued):
    """Wait until the forecast's thread has ended, then run what it handed to the kernel's loop."""
    panel.background.join(120)
    assert not panel.background.thread.is_alive()
    while queued:
        queued.pop(0)()


def forecast(panel, **content):
    """A click on "Prognose berechnen", and what the kernel does until the forecast has ended."""
    queued = kernel_loop(panel)
    send(panel, "forecast", **content)
    done(panel, queued)


@pytest.mark.slow
def test_the_panel_forecasts_as_the_encounter_does(camp):
    panel = EncounterPanel(camp.encounter)
    seen = []
    panel.observe(lambda change: seen.append(dict(change["new"])), "forecast")
    before = (len(camp.journal()), json.dumps(camp.state, sort_keys=True))
    forecast(panel, zielwahl="verteilen", n=120, seed=9)
    assert not panel.error
    f: Forecast = camp.encounter.forecast(n=120, seed=9, zielwahl="verteilen")
    r = panel.forecast["result"]
    assert r["headline"] == headline(f) and not r["stopped"]
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


def test_stopped_it_shows_the_fights_played(camp):
    """"Abbrechen" while the fights are played: the forecast ends between two batches, and the panel
    shows what the fights played so far give, marked as stopped, with its intervals."""
    panel = EncounterPanel(camp.encounter)
    queued = kernel_loop(panel)
    send(panel, "forecast", zielwahl="schwächste", precision=0.005, seed=4)   # thousands of fights
    send(panel, "stop_forecast")
    assert panel.forecast["running"] and panel.forecast["stopping"]
    done(panel, queued)
    r = panel.forecast["result"]
    assert not panel.error and not panel.forecast.get("running") and r["stopped"]
    played = int(r["head"].split("abgebrochen nach ")[1].split(" ")[0].replace(".", ""))
    assert played % 50 == 0 and 0 < played < 2000
    assert r["notes"][0].startswith(f"Abgebrochen nach {played} Kämpfen")
    same = camp.encounter.forecast(n=played, seed=4)   # the fights it played, played to their number
    assert [w["text"] for w in r["win"]] == [chance_text(c) for c in [*same.win.values(), same.draw]]
    assert "(" in r["win"][0]["text"]   # with its interval
    panel.close()


def test_one_forecast_at_a_time_and_closing_stops_it(camp):
    panel = EncounterPanel(camp.encounter)
    queued = kernel_loop(panel)
    send(panel, "forecast", precision=0.005, seed=4)
    send(panel, "forecast", precision=0.05, seed=4)
    assert panel.error.startswith("Eine Prognose läuft schon") and panel.forecast["running"]
    panel.close()
    done(panel, queued)
    assert panel.background.stopped()


def test_stop_without_a_forecast_changes_nothing(camp):
    panel = EncounterPanel(camp.encounter)
    send(panel, "stop_forecast")
    assert panel.forecast == {} and not panel.error and not panel.background.stopped()
    panel.close()


def test_a_bad_target_picking_in_german(camp):
    panel = EncounterPanel(camp.encounter)
    forecast(panel, zielwahl="<b>zufällig</b>", n=5)
    assert panel.error.startswith("Unbekannte Zielwahl") and not panel.forecast.get("running")
    panel.close()


def test_a_fight_no_model_covers_tells_the_panel_why_while_it_runs(camp):
    """The ford's Wache has a condition that counts down: no compact model. While the fights are played
    the panel carries the notice (why, about how long), and the card keeps it among its notes."""
    panel = EncounterPanel(camp.encounter)
    seen = []
    panel.observe(lambda change: seen.append(dict(change["new"])), "forecast")
    forecast(panel, zielwahl="schwächste", n=2, seed=1)
    noticed = [s["notice"] for s in seen if s.get("running") and s.get("notice")]
    assert noticed and noticed[0].startswith("Langsam: ") and "Kämpfe je Sekunde" in noticed[0]
    assert noticed[0] in panel.forecast["result"]["notes"]
    panel.close()
