"""Advice never delays a roll: carrying out an action weighs nothing; the chances of winning after each
option follow in the background, equal to the synchronous weighing, kept per state."""

from __future__ import annotations

import copy

import pytest
from panel_driving import FIRST_ATTACK, make_two_mercenaries

import rpgkernel
from rpgkernel.forecast import options, weighing
from rpgkernel.messages import t
from rpgkernel.numerals import percent
from rpgkernel.rules import get

from .test_options import duel

WAIT = 120   # seconds a weighing may take on a loaded machine before the test gives up


@pytest.fixture
def weighed_calls(monkeypatch):
    """Every call of the weighing (``options.weigh``), as (pending id, option count)."""
    for earlier in list(weighing._running.values()):   # other tests' weighings, still in the background
        earlier._stop.set()                               # thread, would otherwise be counted here
        earlier.wait(WAIT)
    calls = []
    real = options.weigh

    def counted(state, pending, record, *args, **kwargs):
        calls.append((pending, len(options.weighed_options(record))))
        return real(state, pending, record, *args, **kwargs)

    monkeypatch.setattr(options, "weigh", counted)
    monkeypatch.setattr(weighing, "weigh", counted)
    return calls


def _deny(c):
    pid, record = next(iter(c.state["pending"].items()))
    return pid, next(a for a in record["advice"] if a["key"] == "deny")


def test_the_ford_attack_is_carried_out_without_weighing(tmp_path, weighed_calls):
    c = make_two_mercenaries(tmp_path / "furt.sqlite")
    res = rpgkernel.resolve(FIRST_ATTACK, campaign=c, dice=[7, 3, 6, 5, 8])
    assert res.open and res.advice and weighed_calls == []
    c.close()


def test_the_card_and_the_record_have_no_chances_yet(tmp_path, weighed_calls):
    cards = []
    c = duel(tmp_path / "k.sqlite", cards)
    _pid, deny = _deny(c)
    assert weighed_calls == []
    win, waiting = t("advice.win", p="").rstrip(), t("advice.win_waiting")
    assert deny["options"] and not any(win in x or waiting in x for o in deny["options"] for x in o["said"])
    assert win not in cards[0] and waiting not in cards[0]


def test_the_chances_arrive_later_as_the_old_weighing_had_them(tmp_path, weighed_calls):
    c = duel(tmp_path / "k.sqlite")
    pid, deny = _deny(c)
    heard = []
    w = weighing.ask(c.state, pid, heard=lambda x: heard.append(x.progress))
    assert w is not None and w.wait(WAIT) and w.finished
    wins = options.option_wins(c.state, "Furt", {o["label"]: "\n".join(o["lines"]) for o in deny["options"]})
    for o in deny["options"]:
        assert w.wins[("deny", "Ritter", o["label"])] == pytest.approx(wins[o["label"]]["Spieler"], abs=1e-12)
    assert w.progress == (len(w.options), len(w.options)) and heard[-1] == w.progress
    assert [done for done, _ in heard] == sorted(done for done, _ in heard)   # option by option
    # the advice as the card and the panel show it then
    record = c.state["pending"][pid]
    [shown] = [a for a in weighing.shown_dicts(record["advice"], w) if a["key"] == "deny"]
    for o in shown["options"]:
        assert o["win"] == w.wins[("deny", "Ritter", o["label"])] and not o["waiting"]
        assert o["said"][-1] == t("advice.win", p=percent(o["win"]))


def test_asking_again_for_the_same_state_costs_nothing(tmp_path, weighed_calls):
    c = duel(tmp_path / "k.sqlite")
    pid, _deny_advice = _deny(c)
    first = weighing.ask(c.state, pid)
    assert first is not None and first.wait(WAIT)
    again = weighing.ask(copy.deepcopy(c.state), pid)
    assert again is first and weighed_calls == [(pid, len(first.options))]
    # another state (the Ritter hurt): weighed anew
    c.change("Söldner", "VIG", -2)
    other = weighing.ask(c.state, pid)
    assert other is not first and other.wait(WAIT) and len(weighed_calls) == 2
    assert other.wins != first.wins


def test_a_newer_state_stops_the_older_weighing(tmp_path, weighed_calls, monkeypatch):
    """The older weighing is stopped after its first option; the newer one weighs them all."""
    c = duel(tmp_path / "k.sqlite")
    pid, _deny_advice = _deny(c)
    older_state = c.state
    c.change("Söldner", "VIG", -2)
    newer_state = c.state
    started = {}

    def first_option(w):
        if w.key not in started:
            started[w.key] = True
            weighing.ask(newer_state, pid)
    older = weighing.ask(older_state, pid, heard=first_option)
    assert older is not None and older.wait(WAIT)
    newer = weighing.ask(newer_state, pid)
    assert newer is not None and newer.wait(WAIT)
    assert len(older.weighed) < len(older.options) and len(newer.weighed) == len(newer.options)
    assert weighing.ask(older_state, pid) is not older   # a stopped weighing is started again when asked


def test_the_panel_shows_the_chances_once_weighed(tmp_path):
    from rpgkernel.widgets import EncounterPanel
    c = duel(tmp_path / "k.sqlite")
    pid, _deny_advice = _deny(c)
    panel = EncounterPanel(c)
    w = weighing.ask(c.state, pid)
    assert w is not None and w.wait(WAIT)
    [entry] = [p for p in panel.pending if p["id"] == pid]
    [advice] = [a for ch in entry["choices"] for a in ch["advice"] if a["key"] == "deny"]
    for o in advice["options"]:
        assert o["win"] == w.wins[("deny", "Ritter", o["label"])]
        assert t("advice.win", p=percent(o["win"])) in o["said"]
    panel.close()


def test_the_panel_says_while_the_chances_are_weighed(tmp_path, monkeypatch):
    """Before the weighing has weighed an option, the form says it is being computed."""
    from rpgkernel.widgets import panel_data
    c = duel(tmp_path / "k.sqlite")
    pid, _deny_advice = _deny(c)
    w = weighing.Weighing("nie", "", c.state, pid, c.state["pending"][pid])   # never started
    listed = panel_data.pending_list(c.state, get("bastionland"), lambda _pid: w)
    said = [o["said"] for p in listed for ch in p["choices"] for a in ch["advice"] for o in a["options"] if o["lines"]]
    assert said and all(s[-1] == t("advice.win_waiting") for s in said)


def test_a_decided_action_stops_its_weighing(tmp_path):
    """The weighing is held after its first option until the GM has decided the resolution: it weighs
    nothing more, its work stops growing, and it is started anew when that state is asked for again."""
    import threading
    c = duel(tmp_path / "k.sqlite")
    pid, deny = _deny(c)
    first, decided = threading.Event(), threading.Event()

    def hold(w):
        if w.weighed and not first.is_set():
            first.set()
            decided.wait(WAIT)
    state = c.state
    w = weighing.ask(state, pid, heard=hold, current=lambda: c.folded)
    assert w is not None and len(w.options) > 1 and first.wait(WAIT)
    choice = next(o for o in deny["options"] if o["lines"])
    rpgkernel.resolve("\n".join(choice["lines"]), campaign=c, seed=1)
    assert pid not in c.folded["pending"]
    changes = weighing.changes()
    decided.set()
    assert w.wait(WAIT) and w.stopped
    assert len(w.weighed) == 1 < len(w.options)
    assert weighing.changes() == changes + 1   # its end told once, no option after the choice
    again = weighing.ask(state, pid, current=lambda: c.folded)   # started anew, and stopped at once
    assert again is not None and again is not w and again.wait(WAIT) and again.stopped and not again.weighed
    c.close()


def test_a_weighing_asked_after_its_action_was_decided_weighs_nothing(tmp_path, weighed_calls):
    c = duel(tmp_path / "k.sqlite")
    pid, deny = _deny(c)
    state = c.state
    choice = next(o for o in deny["options"] if o["lines"])
    rpgkernel.resolve("\n".join(choice["lines"]), campaign=c, seed=1)
    w = weighing.ask(state, pid, current=lambda: c.folded)
    assert w is not None and w.wait(WAIT) and w.stopped
    assert weighed_calls == [] and not w.weighed
    c.close()
