"""The parts of a state a turn reads (``Compact.reads``, ``moves``, ``moved``): a turn the board works out
once per pair of parts and makes states for every pair alike in them equals the turn a fresh model
works out from the two whole states, over every pair of standing states a small fight of each ruleset
reaches; the states reached over parts are those reached over every pair of whole states."""

from __future__ import annotations

import numpy as np
import pytest

from rpgkernel import rules
from rpgkernel.forecast.board import Board
from rpgkernel.forecast.fight import Table
from rpgkernel.forecast.mixture import board

from .test_sampler import FIGHTS, ONES, fight

#: AdZ two against one: the target's reactions of the round are a part (a later defence is halved)
FIGHTS_HERE = {**FIGHTS, "adz_zwei_gegen_einen": (
    "adz", {}, [("Alrik", {**ONES, "KK": 2, "GL": 2, "fertigkeiten": ["Schwerter 2", "Verteidigung 1"],
                           "waffen": ["Kurzschwert (Schwerter, KK, GS 3)"]}),
                ("Bela", {**ONES, "GL": 2, "fertigkeiten": ["Schwerter 1", "Verteidigung 1"],
                          "waffen": ["Kurzschwert (Schwerter, KK, GS 3)"]})],
    [("Ork", {**ONES, "KO": 2, "GL": 2, "fertigkeiten": ["Hiebwaffen 2", "Verteidigung 2"],
              "waffen": ["Keule (Hiebwaffen, KK, GS 2)"]})])}


def _board(tmp_path, case: str) -> tuple[Board, Table]:
    FIGHTS.setdefault(case, FIGHTS_HERE[case])
    enc = fight(tmp_path, case)
    ruleset = FIGHTS_HERE[case][0]
    table = Table(enc.campaign.state, "Gefecht", rules.get(ruleset), "schwächste")
    found = board(table, np.random.default_rng(0))
    assert found is not None
    return found, table


def _merged(turn) -> dict:
    out: dict = {}
    for p, mine, theirs in turn:
        out[mine, theirs] = out.get((mine, theirs), 0.0) + p
    return out


def _pairs(b: Board):
    """Every turn of a foe on a foe in standing states the fight reaches (the actor's start alone where
    turns leave it as it is)."""
    reach = b.reach()
    for a in range(b.size):
        for t in b.foes[a]:
            for mine in reach[a] if b.pair else reach[a][:1]:
                for theirs in reach[t]:
                    if b.standing(a, mine) and b.standing(t, theirs):
                        yield a, t, mine, theirs


@pytest.mark.parametrize("case", [pytest.param(c, marks=pytest.mark.slow) if c == "adz_zwei_gegen_einen" else c
                                  for c in FIGHTS_HERE])   # a fresh model for each of its pairs: minutes
def test_turns_by_parts_equal_turns_of_whole_states(tmp_path, case):
    b, table = _board(tmp_path, case)
    opening = b.opening
    checked = 0
    for a, t, mine, theirs in _pairs(b):
        fresh = table.tactics.compact(opening.figures, opening.fight.data)   # nothing cached
        whole = _merged(fresh.turn(a, t, mine, theirs))
        parted = _merged(b.turn(a, t, mine, theirs))
        assert whole.keys() == parted.keys(), (a, t, mine, theirs)
        assert all(abs(whole[k] - parted[k]) < 1e-12 for k in whole), (a, t, mine, theirs)
        checked += 1
    assert checked > 10


def _whole_closure(b: Board) -> list[set]:
    """The states reached as before parts: every turn of every pair of standing states of two foes (the
    actor's start where turns leave it as it is), new rounds and flight."""
    found = [{s} for s in b.start()]
    todo = list(enumerate(b.start()))
    fleeing = {i for g in b.groups for i in g}

    def add(i, s):
        if s not in found[i]:
            found[i].add(s)
            todo.append((i, s))
    while todo:
        i, s = todo.pop()
        add(i, b.new_round(i, s))
        if not b.standing(i, s):
            continue
        if i in fleeing:
            add(i, b.model.flees(i, s))
        for j in b.foes[i]:
            for other in list(found[j]):
                if b.pair and b.standing(j, other):
                    for _, after, mine in b.model.turn(j, i, other, s):
                        add(j, after)
                        add(i, mine)
                    for _, mine, after in b.model.turn(i, j, s, other):
                        add(i, mine)
                        add(j, after)
            if not b.pair:
                for _, _, mine in b.model.turn(j, i, b.start()[j], s):
                    add(i, mine)
    return found


@pytest.mark.parametrize("case", list(FIGHTS_HERE))
def test_the_reach_over_parts_is_the_reach_over_whole_states(tmp_path, case):
    b, _ = _board(tmp_path, case)
    assert [set(r) for r in b.reach()] == _whole_closure(b)
    assert all(r[0] == s for r, s in zip(b.reach(), b.start()))


def test_adz_parts_share_turns_and_read_the_reactions(tmp_path):
    """AdZ: the actor's part leaves out its tracks but for the injury malus, so states share turns;
    the target's part holds its reactions this round (a second defence of the round is halved)."""
    b, _ = _board(tmp_path, "adz_zwei_gegen_einen")
    reach = b.reach()
    actors = {b.parts(0, s)[0] for s in reach[0] if b.standing(0, s)}
    assert len(actors) < sum(b.standing(0, s) for s in reach[0])
    ork = [s for s in reach[2] if b.standing(2, s)]
    assert {s.reaktionen for s in ork} == {0, 1}
    one = next(s for s in ork if s.reaktionen == 0)
    two = one._replace(reaktionen=1)
    assert two in ork and b.parts(2, one)[1] != b.parts(2, two)[1]

    def unhurt(state) -> float:
        return sum(p for p, _, v in b.turn(0, 2, reach[0][0], state) if v.koerperlich == state.koerperlich)
    assert unhurt(one) > unhurt(two) > 0   # the second defence of the round with half the dice
