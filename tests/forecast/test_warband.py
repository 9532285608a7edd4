"""A Mythic Bastionland fight with warbands (Kriegsscharen) on the compact model: its Blast on every
individual of the foes, their attacks leaving it unhurt; checked against the procedure path, at the
example notebook's moments with a decision open and in a fight of warbands on both sides."""

from __future__ import annotations

import copy
import math
import runpy
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from rpgkernel import Campaign, rules
from rpgkernel.forecast import forecast_state, mixture, sample
from rpgkernel.forecast.chain import solve
from rpgkernel.forecast.fight import Table
from rpgkernel.forecast.value import Z95

ROOT = Path(__file__).resolve().parents[2]
RITTER = {"vig": 14, "cla": 12, "spi": 13, "gd": 5, "ruestung": 2, "spielfigur": True,
          "waffen": ["Streitkolben (W8, wuchtig)", "Schild (W4)"]}
KNAPPE = {"vig": 10, "cla": 9, "spi": 11, "gd": 3, "ruestung": 1, "waffen": ["Dolch (W6)", "Dolch (W6)"]}
SÖLDNER = {"vig": 12, "cla": 10, "spi": 9, "gd": 3, "ruestung": 2, "waffen": ["Speer (W8, wuchtig)", "Schild (W4)"]}
MILIZ = {"art": "Kriegsschar", "vig": 10, "cla": 10, "spi": 7, "gd": 3, "waffen": ["Rohe Stangenwaffe (W8, lang)"]}
LANDWEHR = {"art": "Kriegsschar", "vig": 8, "cla": 10, "spi": 7, "gd": 2, "waffen": ["Speer (W8)"]}


def both_sides(path):
    """Ritter, Knappe and their Landwehr (a warband) against two Söldner and the Miliz."""
    c = Campaign.open(path)
    c.set_ruleset("bastionland")
    enc = c.new_encounter("Furt")
    for name, sheet in (("Ritter", RITTER), ("Knappe", KNAPPE), ("Landwehr", LANDWEHR)):
        enc.add(name, side="Spieler", sheet=sheet)
    for name, sheet in (("Söldner 1", SÖLDNER), ("Söldner 2", SÖLDNER), ("Miliz", MILIZ)):
        enc.add(name, side="Söldner", sheet=sheet)
    return c


def agree(fast, slow) -> None:
    """Every side's chance, the draw and every combatant's chance to fall: the two paths differ by less
    than three standard errors of their difference (each margin is 1.96 of its own)."""
    pairs = [(fast.win[s], slow.win[s], s) for s in fast.win] + [(fast.draw, slow.draw, "draw")] + [
        (fast.figures[n].falls, slow.figures[n].falls, n) for n in fast.figures]
    for a, b, what in pairs:
        assert abs(a.p - b.p) <= 3 * math.hypot(a.margin, b.margin) / Z95 + 1e-12, what


def test_a_warbands_turn_hits_every_individual_on_the_sampler(tmp_path, monkeypatch):
    """The Miliz alone against Ritter and Knappe, one round played: its Blast hits both, each rolled for
    on its own (how often each is hurt, and both, are the model's ``hit`` chances and their product);
    their attacks leave it unhurt; the exact chain plays the same fight."""
    c = Campaign.open(tmp_path / "k.sqlite")
    c.set_ruleset("bastionland")
    enc = c.new_encounter("Furt")
    enc.add("Ritter", side="Spieler", sheet=RITTER)
    enc.add("Knappe", side="Spieler", sheet=KNAPPE)
    enc.add("Miliz", side="Söldner", sheet=MILIZ)
    rng = np.random.default_rng(5)
    b = mixture.board(Table(c.state, "Furt", rules.get("bastionland"), "schwächste"), rng)
    assert b is not None and b.spread == {(2, 0): (1,), (2, 1): (0,)}
    n = 40_000
    exact = solve(b)   # the chain plays the Blast too: the fights' lengths agree with the sampler's
    assert exact is not None and exact.win[b.side_names.index("Söldner")] == pytest.approx(1.0, abs=1e-12)
    mean = sum(r * p for r, p in exact.rounds.items())
    spread = math.sqrt(sum((r - mean) ** 2 * p for r, p in exact.rounds.items()))
    assert abs(sample.Sampler(b).play(n, rng).rounds.mean() - mean) <= 4 * spread / math.sqrt(n)
    monkeypatch.setattr(sample, "MAX_ROUNDS", 1)
    batch = sample.Sampler(b).play(n, rng)
    start = b.start()
    hurt = [1 - sum(p for p, s in b.model.hit(2, i, start[i]) if s == start[i]) for i in (0, 1)]
    ritter, knappe = (batch.states[:, i] != 0 for i in (0, 1))   # state 0: the start
    assert (batch.states[:, 2] == 0).all()
    for seen, p in ((ritter, hurt[0]), (knappe, hurt[1]), (ritter & knappe, hurt[0] * hurt[1])):
        assert abs(seen.mean() - p) <= 4 * math.sqrt(p * (1 - p) / n)
    assert 0.3 < hurt[0] * hurt[1] < 0.99


def test_the_model_picks_the_targets_the_tactics_pick(tmp_path):
    """Board and sampler pick as the tactics do on the model's views: the persons pass over the Miliz,
    which their attacks cannot hurt, while a Söldner stands, and attack it once none does; the
    warbands attack the weakest."""
    c = both_sides(tmp_path / "k.sqlite")
    b = mixture.board(Table(c.state, "Furt", rules.get("bastionland"), "schwächste"), np.random.default_rng(1))
    assert b is not None and b.opening.names == ["Ritter", "Knappe", "Landwehr", "Söldner 1", "Söldner 2", "Miliz"]
    sampler = sample.Sampler(b)
    start = b.start()
    felled = [next(s for s in sampler.reach[i] if not b.standing(i, s)) for i in (3, 4)]
    moments = [start, (*start[:3], *felled, start[5])]
    for states in moments:
        views = [b.model.view(i, s) for i, s in enumerate(states)]
        fight = replace(b.opening.fight, targeted={})
        for actor in range(b.size):
            foes = [views[j] for j in b.foes[actor] if b.standing(j, states[j])]
            picked = b.opening.names.index(b.tactics.target(views[actor], foes, fight).name)
            assert b.targets(actor, states, [0] * b.size) == [(1.0, picked)]
            row = np.array([[sampler.index[i][s] for i, s in enumerate(states)]])
            found, has = sampler._targets(np.array([actor]), row, np.zeros((1, b.size), dtype=np.int64), None)
            assert found[0] == picked and has[0]
    assert [b.targets(a, start, [0] * b.size)[0][1] for a in range(b.size)] == [3, 3, 5, 1, 1, 2]
    assert [b.targets(a, moments[1], [0] * b.size)[0][1] for a in (0, 1)] == [5, 5]


@pytest.mark.slow
def test_warbands_on_both_sides_lie_within_the_procedures_intervals(tmp_path):
    """Warband against warband (hurt without Blast), each side's warband blasting the other's persons."""
    fast = both_sides(tmp_path / "a.sqlite").encounter.forecast(seed=1)
    assert fast.weg == "kompakt" and fast.precision <= 0.01
    assert 0.2 < fast.win["Spieler"].p < 0.8
    agree(fast, both_sides(tmp_path / "b.sqlite").encounter.forecast(n=150, seed=2, weg="prozeduren"))


@pytest.fixture(scope="module")
def points():
    """The Bastionland example notebook's moments with a decision open (``benchmarks/notebook_points.py``)."""
    return runpy.run_path(str(ROOT / "benchmarks" / "notebook_points.py"))["open_points"]("bastionland")


@pytest.mark.slow
def test_the_notebooks_open_moments_lie_within_the_procedures_intervals(points):
    """The players' attack open and the Miliz's Blast open: the compact path to ±1 % and the procedure
    path agree."""
    assert [p.line.split()[:2] for p in points] == [["angriff", "Ritter,"], ["angriff", "Miliz"]]
    for point in points:
        fast = forecast_state(copy.deepcopy(point.state), point.encounter, seed=1)
        assert fast.weg == "kompakt" and fast.precision <= 0.01, point.label
        agree(fast, forecast_state(copy.deepcopy(point.state), point.encounter, seed=2, n=120, weg="prozeduren"))
