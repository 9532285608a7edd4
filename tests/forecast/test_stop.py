"""The stop hook of a forecast: asked before each batch of fights but the first, it ends a sampled
forecast there; the result counts the fights played (the same numbers as a forecast of that many
fights with the same seed), with their intervals, and says that it was stopped."""

from __future__ import annotations

import pytest

from rpgkernel.forecast import BATCH

from .test_forecast import duel


def stop_after(batches: int):
    """A stop hook that says so when it is asked for the ``batches``-th time; it counts its questions."""
    def stop() -> bool:
        stop.asked += 1
        return stop.asked >= batches
    stop.asked = 0
    return stop


@pytest.mark.parametrize("weg", ["prozeduren", "kompakt"])
def test_stopped_between_batches_counts_the_fights_played(tmp_path, weg):
    _, enc = duel(tmp_path)
    seen = []
    stop = stop_after(2)
    f = enc.forecast(seed=8, precision=0.002, weg=weg, stop=stop, progress=lambda done, _: seen.append(done))
    played = 2 * BATCH[weg]
    assert f.stopped and f.fights == played and seen == [BATCH[weg], played] and stop.asked == 2
    same = enc.forecast(n=played, seed=8, weg=weg)
    assert not same.stopped
    assert {**f.to_dict(), "stopped": False} == same.to_dict()
    assert f.win["Spieler"].low < f.win["Spieler"].p < f.win["Spieler"].high   # its intervals


def test_the_card_says_it_was_stopped(tmp_path):
    _, enc = duel(tmp_path)
    f = enc.forecast(seed=8, weg="kompakt", stop=stop_after(1))
    lines = repr(f).splitlines()
    assert "simuliert, abgebrochen nach 1.000 Kämpfen, 95-%-Intervalle" in lines[0]
    assert "Abgebrochen nach 1.000 Kämpfen: Die Zahlen zählen nur die Kämpfe" in repr(f)
    page = f._repr_html_()
    assert "abgebrochen nach 1.000 Kämpfen" in page and "Abgebrochen nach 1.000 Kämpfen" in page
    assert f.to_dict()["stopped"] is True


def test_the_first_batch_is_always_played(tmp_path):
    """A stop asked for before the forecast began still leaves one batch to count."""
    _, enc = duel(tmp_path)
    f = enc.forecast(seed=8, weg="prozeduren", stop=lambda: True)
    assert f.stopped and f.fights == BATCH["prozeduren"]


@pytest.mark.parametrize("path", [{"weg": "prozeduren", "n": 50}, {"weg": "kompakt", "n": 700}, {"weg": "exakt"}],
                         ids=lambda p: p["weg"])
def test_not_asked_where_nothing_is_left_to_play(tmp_path, path):
    """One batch plays them all, and an exact forecast has no batches: never stopped."""
    _, enc = duel(tmp_path)
    stop = stop_after(1)
    f = enc.forecast(seed=8, stop=stop, **path)
    assert not f.stopped and stop.asked == 0 and "abgebrochen" not in repr(f).lower()


def test_a_forecast_that_ends_by_its_precision_is_not_stopped(tmp_path):
    """The hook is asked only while more fights are to come: a forecast that reached its precision is
    whole, whatever the hook would say next."""
    _, enc = duel(tmp_path)
    stop = stop_after(100)
    f = enc.forecast(seed=8, weg="prozeduren", precision=0.1, stop=stop)
    assert not f.stopped and f.precision <= 0.1 and stop.asked == f.fights // BATCH["prozeduren"] - 1
