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
    """The fight in icepool: a state is every figure's (hp, shot, guard), the order and whose turn."""
    by_order = orders()
    listed = list(by_order)
    total = sum(by_order.values())

    def standing(state, i):
        return state[3 * i] > 0

    def over(state):
        return not standing(state, 0) or not (standing(state, 1) or standing(state, 2))

    def turn(state):
        if over(state):
            return state
        *fig, o, pos = state
        actor = NAMES.index(listed[o][pos])
        outcomes = Counter()   # weights over 8 * total
        if not standing(state, actor):
            outcomes[tuple(fig)] += 8 * total
        elif not fig[3 * actor + 1]:
            after = list(fig)
            after[3 * actor + 1] = True
            outcomes[tuple(after)] += 8 * total
        else:
            foes = [j for j in ((1, 2) if actor == 0 else (0,)) if standing(state, j)]
            for j in foes:
                share = 8 * total // len(foes)
                guard = fig[3 * j + 2]
                hit = share // 4 if guard else share // 2
                after = list(fig)
                after[3 * actor + 1] = False
                outcomes[tuple(after)] += share - hit
                after[3 * j] -= 1
                after[3 * j + 2] = True
                outcomes[tuple(after)] += hit
        result = Counter()
        for fig_after, w in outcomes.items():
            if pos + 1 < 3 and not over((*fig_after, 0, 0)):
                result[(*fig_after, o, pos + 1)] += w * total
            elif over((*fig_after, 0, 0)):
                result[(*fig_after, o, pos)] += w * total
            else:   # a new round: the guards drop, the order is rolled anew
                fresh = tuple(False if k % 3 == 2 else v for k, v in enumerate(fig_after))
                for o2, q in enumerate(by_order.values()):
                    result[(*fresh, o2, 0)] += w * q
        return icepool.Die(result)

    start = tuple(v for n in NAMES for v in (HP[n], True, False))
    return icepool.Die({(*start, o, 0): q for o, q in enumerate(by_order.values())}).map(turn, repeat="inf")


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
