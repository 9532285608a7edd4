"""The compact kit beyond turns that change the target alone: a model whose turns change the actor
too (a shot spent, a reload), whose rounds reset a state (``new_round``), whose seed picks targets
at random, in a ruleset that rolls initiative every round. The exact chain and the compact sampler
are held against an icepool formulation of the same fight, written anew."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from typing import NamedTuple

import pytest

from rpgkernel import Campaign, rules
from rpgkernel.rules.frei.compact import FreiCompact
from rpgkernel.rules.kit import Initiative

icepool = pytest.importorskip("icepool")

HP = {"Alrik": 2, "Bork": 1, "Cedric": 1}
NAMES = list(HP)


class Stand(NamedTuple):
    hp: int
    shot: bool = True     # loaded: a turn without it reloads
    guard: bool = False   # hit this round: a hit on it this round only with 1/4


class Model(FreiCompact):
    random_target = True

    def start(self, i):
        return Stand(self.figures[i].current("HP"))

    def view(self, i, state):
        return self.figures[i].changed({"HP": state.hp})

    def standing(self, i, state):
        return state.hp > 0

    def resources(self, i, state):
        return {"HP": state.hp}

    def turn(self, actor, target, mine, theirs):
        if not mine.shot:
            return [(1.0, mine._replace(shot=True), theirs)]
        p = 0.25 if theirs.guard else 0.5
        spent = mine._replace(shot=False)
        return [(p, spent, theirs._replace(hp=theirs.hp - 1, guard=True)), (1 - p, spent, theirs)]

    def new_round(self, i, state):
        return state._replace(guard=False)


class EachRound(Initiative):
    each_round = True


@pytest.fixture
def fight(tmp_path, monkeypatch):
    engine = rules.get(None)
    monkeypatch.setattr(engine, "initiative", EachRound())
    monkeypatch.setattr(type(engine.tactics), "compact",
                        lambda self, figures, data: Model(figures, data, [(0.5, "1")] * len(figures)))
    c = Campaign.open(tmp_path / "k.sqlite")
    enc = c.new_encounter("Turm")
    enc.add("Alrik", side="Spieler", sheet={"hp": HP["Alrik"]})
    for n in NAMES[1:]:
        enc.add(n, side="Wache", sheet={"hp": HP[n]})
    c.set_data("prognose", {"alle": {"treffer": 0.5, "schaden": "1"}})
    return enc


def orders():
    """Every order three W20 give (the highest first, ties by name), with its chance."""
    found = Counter()
    for rolls in itertools.product(range(1, 21), repeat=3):
        found[tuple(sorted(NAMES, key=lambda n: (-rolls[NAMES.index(n)], n)))] += 1
    return found


def reference():
    """The fight in icepool, one step a round: a state is every figure's (hp, shot) as a round begins (no
    guard yet); a round plays the three turns in each order its W20 give (the guards drop at its end)."""
    by_order = orders()

    def standing(fig, i):
        return fig[3 * i] > 0

    def over(fig):
        return not standing(fig, 0) or not (standing(fig, 1) or standing(fig, 2))

    def turn(fig, actor):
        """The figures after ``actor``'s turn, with weights over 8."""
        if over(fig) or not standing(fig, actor):
            return {fig: 8}
        if not fig[3 * actor + 1]:
            after = list(fig)
            after[3 * actor + 1] = True
            return {tuple(after): 8}
        outcomes: Counter = Counter()
        foes = [j for j in ((1, 2) if actor == 0 else (0,)) if standing(fig, j)]
        for j in foes:
            share = 8 // len(foes)
            hit = share // 4 if fig[3 * j + 2] else share // 2
            after = list(fig)
            after[3 * actor + 1] = False
            outcomes[tuple(after)] += share - hit
            after[3 * j] -= 1
            after[3 * j + 2] = True
            outcomes[tuple(after)] += hit
        return outcomes

    def round_(fig):
        if over(fig):
            return fig
        result: Counter = Counter()
        for order, q in by_order.items():
            now = {fig: q}
            for name in order:   # every turn's weights over 8, each step
                step: Counter = Counter()
                for f, w in now.items():
                    for after, v in turn(f, NAMES.index(name)).items():
                        step[after] += w * v
                now = step
            for f, w in now.items():   # the guards drop
                result[tuple(False if k % 3 == 2 else v for k, v in enumerate(f))] += w
        return icepool.Die(result)

    start = tuple(v for n in NAMES for v in (HP[n], True, False))
    return icepool.Die([start]).map(round_, repeat="inf")


def chance(die, test) -> float:
    return float(Fraction(sum(q for o, q in die.items() if test(o)), die.denominator()))


def test_exact_as_icepool_finds_it(fight):
    end = reference()
    f = fight.forecast()
    assert f.weg == "exakt"
    won = chance(end, lambda s: s[0] > 0)
    assert 0.2 < won < 0.8
    assert f.win["Spieler"].p == pytest.approx(won, abs=1e-9)
    for i, n in enumerate(NAMES):
        assert f.figures[n].falls.p == pytest.approx(chance(end, lambda s: s[3 * i] <= 0), abs=1e-9)
        assert f.figures[n].resources["HP"].value == pytest.approx(end.marginals[3 * i].mean(), abs=1e-9)


def test_sampled_on_the_model_within_its_interval(fight):
    won = fight.forecast().win["Spieler"].p
    fast = fight.forecast(n=20_000, seed=3)
    assert fast.weg == "kompakt"
    assert fast.win["Spieler"].low <= won <= fast.win["Spieler"].high
