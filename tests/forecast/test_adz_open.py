"""AdZ's open attack on the compact model (``AdzCompact.closings``): the attack rolled, its target still to
decide whether to defend. The states the model closes it in, against the procedure path's closings over
every die after the decision (each W6 a success or not), and a forecast from the open attack against the
exact forecasts of the states the procedures close it in; what the model does not carry goes on as before."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import rpgkernel
from rpgkernel import Campaign, rules
from rpgkernel.dice import Roller
from rpgkernel.forecast import ForecastError, faces, forecast_state, mixture
from rpgkernel.forecast.fight import Table
from rpgkernel.messages import t
from rpgkernel.rules import adz
from rpgkernel.rules.adz.compact import AdzCompact
from rpgkernel.rules.adz.tactics import AdzTactics
from rpgkernel.rules.kit import PASS, Action

ONES = {"KK": 1, "KO": 1, "GE": 1, "FF": 1, "KL": 1, "WK": 1, "IN": 1, "CH": 1, "GL": 1}
#: three attack dice (KK 2 + Schwerter 1), two defence dice, GS 3, luck pool 2
ALRIK = {**ONES, "KK": 2, "GL": 2, "fertigkeiten": ["Schwerter 1", "Verteidigung 1"],
         "waffen": ["Kurzschwert (Schwerter, KK, GS 3)"]}
#: three attack dice, two defence dice, two resistance dice (KO 2), RS 1, luck pool 1
ORK = {**ONES, "KK": 2, "KO": 2, "fertigkeiten": ["Hiebwaffen 1", "Verteidigung 1"],
       "waffen": ["Keule (Hiebwaffen, KK, GS 2)"], "ausruestung": ["Lederwams (RS 1)"]}


def campaign(tmp_path, orcs=1):
    """Alrik against ``orcs`` orcs on the GM's short track (four steps: a hit can take one out), begun with
    Alrik first."""
    c = Campaign.open(tmp_path / "k.sqlite")
    c.set_ruleset("adz")
    (tmp_path / "kurz.yaml").write_text("schadensleiste:\n  malus: [0, 1, 2, X]\n", encoding="utf-8")
    adz.einrichten(tmp_path / "kurz.yaml", kampagne=c)
    enc = c.new_encounter("Hohlweg")
    enc.add("Alrik", side="Spieler", sheet=ALRIK)
    names = ["Ork"] if orcs == 1 else [f"Ork {i}" for i in range(1, orcs + 1)]
    for name in names:
        enc.add(name, side="Orks", sheet=ORK)
    enc.start(rolls={"Alrik": 10, **{n: 9 - k for k, n in enumerate(names)}})
    return c


def table(c) -> Table:
    return Table(copy.deepcopy(c.state), c.state["active_encounter"], rules.get("adz"), "schwächste")


def every_way(run):
    """(chance, result) of ``run(roller)`` for every way the dice after what is given fall, each W6 a
    success (5) or not (1)."""
    found, todo = [], [((), 1.0)]
    while todo:
        chosen, p = todo.pop()
        try:
            found.append((p, run(Roller.over(faces._Faces(chosen)))))
        except faces._Branch as split:
            assert split.sides == 6
            todo += [((*chosen, 5), p / 3), ((*chosen, 1), 2 * p / 3)]
    return found


def procedure_closings(c) -> list[tuple[float, dict]]:
    """The campaign's states once its open attack is closed through the procedures as the tactics decide,
    over every way the dice fall, alike ones merged."""
    tab = table(c)
    merged: dict[str, list] = {}
    for p, state in every_way(tab.closed):
        merged.setdefault(tab.key(state), [0.0, state])[0] += p
    return [(p, state) for p, state in merged.values()]


def compact(c, closings) -> dict:
    """The procedure path's closed states as the compact model's states (the start of a model of each
    closed state's figures, one taken out of the fight included), by their chances."""
    tab = table(c)
    found: dict = {}
    for p, state in closings:
        opening = tab.opening(np.random.default_rng(0), state)
        model = AdzCompact(opening.figures, opening.fight.data, tab.tactics)
        states = tuple(model.start(i) for i in range(len(opening.figures)))
        found[states] = found.get(states, 0.0) + p
    return found


def twin(state):
    """The exact forecast of a closed state; where the attack took its target out (no model covers a figure
    out of the fight), the fight is over: one fight through the procedures says how it ended."""
    try:
        return forecast_state(copy.deepcopy(state), "Hohlweg", weg="exakt")
    except ForecastError:
        ended = forecast_state(copy.deepcopy(state), "Hohlweg", weg="prozeduren", n=1)
        assert ended.rounds.pmf() == {1: 1.0} and any(fig.falls.p == 1.0 for fig in ended.figures.values())
        return ended


def opened(c, line, dice):
    rpgkernel.resolve(line, campaign=c, dice=dice)
    (record,) = c.state["pending"].values()
    assert [choice["key"] for choice in record["choices"]] == ["verteidigen"]
    return c


CASES = {
    "one success": (1, 'angriff Alrik -> Ork', [5, 1, 1]),
    "three successes": (1, 'angriff Alrik -> Ork', [6, 5, 5]),
    "the line's own dice": (1, 'angriff Alrik -> Ork bonus=1 v_malus=1', [6, 5, 2, 1]),
    "the orc's attack": (1, 'angriff Ork -> Alrik', [5, 5, 1]),
}


@pytest.mark.parametrize("case", CASES)
def test_the_model_closes_an_open_defence_as_the_procedures_do(tmp_path, case):
    orcs, line, dice = CASES[case]
    c = opened(campaign(tmp_path, orcs), line, dice)
    expected = compact(c, procedure_closings(c))
    board = mixture.closed_board(table(c), np.random.default_rng(0))
    assert board is not None
    got: dict = {}
    for p, states in board.starts:
        got[states] = got.get(states, 0.0) + p
    assert set(got) == set(expected)
    assert all(got[s] == pytest.approx(p, abs=1e-9) for s, p in expected.items())
    assert len(got) > 3 and sum(got.values()) == pytest.approx(1.0, abs=1e-12)
    assert c.state["pending"]   # the campaign itself still waits for the decision


def test_a_second_reaction_in_a_round_of_three(tmp_path):
    """Alrik defended against the first orc already: his defence against the second is his second reaction
    of the round (half his dice), and the closings count both."""
    c = campaign(tmp_path, orcs=2)
    rpgkernel.resolve('angriff "Ork 1" -> Alrik verteidigt entschieden', campaign=c, dice=[5, 1, 1, 5, 5])
    assert not c.state.get("pending")
    opened(c, 'angriff "Ork 2" -> Alrik', [6, 5, 1])
    expected = compact(c, procedure_closings(c))
    board = mixture.closed_board(table(c), np.random.default_rng(0))
    got = {states: p for p, states in board.starts}
    assert {s[0].reaktionen for s in got} == {2}
    assert set(got) == set(expected)
    assert all(got[s] == pytest.approx(p, abs=1e-9) for s, p in expected.items())


def test_a_forecast_from_the_open_defence_is_the_mixture_of_its_closings(tmp_path):
    """The exact forecast of the duel with the orc's defence open is the forecast of every state the
    procedures close it in (each exact), weighed by its chance."""
    c = opened(campaign(tmp_path), 'angriff Alrik -> Ork', [6, 5, 1])
    f = c.encounter.forecast()
    closings = procedure_closings(c)
    assert (f.method, f.weg) == ("exakt", "exakt")
    assert t("forecast.closings", ways=len(compact(c, closings))) in f.notes
    twins = [(p, twin(state)) for p, state in closings]
    for side, chance in f.win.items():
        assert chance.p == pytest.approx(sum(p * x.win[side].p for p, x in twins), abs=1e-9)
    assert f.draw.p == pytest.approx(sum(p * x.draw.p for p, x in twins), abs=1e-9)
    for name, fig in f.figures.items():
        assert fig.falls.p == pytest.approx(sum(p * x.figures[name].falls.p for p, x in twins), abs=1e-9)
        for key, mean in fig.resources.items():
            assert mean.value == pytest.approx(sum(p * x.figures[name].resources[key].value for p, x in twins),
                                               abs=1e-9)
    for r in (1, 2, 3, 5):
        assert f.rounds.p_at_most(r) == pytest.approx(sum(p * x.rounds.p_at_most(r) for p, x in twins), abs=1e-9)
    sampled = c.encounter.forecast(n=4000, seed=3)   # the sampler draws a closing per fight
    assert sampled.weg == "kompakt"
    for side, chance in sampled.win.items():
        assert chance.low <= f.win[side].p <= chance.high


def test_what_the_model_does_not_carry_closes_through_the_procedures(tmp_path):
    """The defence taken (the luck pool open after it), or tactics that would not defend: no closing on the
    model; the forecast closes them through the procedures, as before."""
    c = opened(campaign(tmp_path), 'angriff Alrik -> Ork', [6, 5, 1])

    class Declining(AdzTactics):
        def decide(self, resolution, fight):
            return [Action(PASS, ("Ork",))]

    tab = table(c)
    opening = tab.opening(np.random.default_rng(0))
    assert Declining().compact(opening.figures, opening.fight.data).closings(tab.open()) is None
    rpgkernel.resolve('verteidigen Ork', campaign=c, dice=[1, 1, 5, 1])
    (record,) = c.state["pending"].values()
    assert record["decisions"] and [choice["key"] for choice in record["choices"]] == ["glück"]
    assert mixture.closed_board(table(c), np.random.default_rng(0)) is None
    f = c.encounter.forecast()
    assert f.weg == "exakt" and t("forecast.closings", ways=len(procedure_closings(c))) in f.notes


def test_the_model_is_asked_whether_it_carries_then_closes_once(tmp_path, monkeypatch):
    """The forecast asks the model as the state shows it whether it carries the open attack
    (``Compact.carries``, cheap), and only the board's model closes it: one chain of closings per forecast."""
    c = opened(campaign(tmp_path), 'angriff Alrik -> Ork', [6, 5, 1])
    calls = []
    closings = AdzCompact.closings
    monkeypatch.setattr(AdzCompact, "closings", lambda self, pending: calls.append(self) or closings(self, pending))
    assert mixture.closed_board(table(c), np.random.default_rng(0)) is not None
    assert len(calls) == 1
    tab = table(c)
    opening = tab.opening(np.random.default_rng(0))
    model = tab.tactics.compact(opening.figures, opening.fight.data)
    before = copy.deepcopy(model.most)
    assert model.carries(tab.open()) and model.most == before   # asking changes nothing
