"""A duel solved without the joint chain's nodes (``forecast.duel``): the same result as the joint
chain (``forecast.chain``) on the same board in every ruleset, whether a turn changes its target alone
(one vector per combatant) or its actor too (the pairs of states: AdZ's luck pool, Kampfwerte's AD and
Finte, Midgard's grace), and a Midgard duel too large for the chain now exact."""

from __future__ import annotations

import numpy as np
import pytest

from rpgkernel import Campaign, rules
from rpgkernel.forecast import chain, duel
from rpgkernel.forecast.fight import Table
from rpgkernel.forecast.mixture import board as compact_board
from rpgkernel.rules.tactics import zielwahl

from . import test_adz_compact, test_kampfwerte_compact, test_midgard_compact
from .test_sampled import assert_within

BASTIONLAND = {"Ritter": {"vig": 6, "cla": 12, "spi": 13, "gd": 3, "ruestung": 2, "spielfigur": True,
                          "waffen": ["Streitkolben (W8, wuchtig)", "Schild (W4)"]},
               "Söldner": {"vig": 5, "cla": 10, "spi": 9, "gd": 2, "ruestung": 2,
                           "waffen": ["Speer (W8, wuchtig)", "Schild (W4)"]}}
OSR = {"Hauptmann": {"stufe": 3, "rk": 4, "tp": 10, "angriffsbonus": 1, "schadensbonus": 1,
                     "waffen": ["Langschwert (W8)"]},
       "Ork": {"tw": "1+1", "rk": 6, "tp": 9, "waffen": ["Krummsäbel (W8)"]}}
MIDGARD = {"Alrik": {"rw": 50, "waffen": ["Breitschwert +12 (W6+1)"], "abwehr": 13, "rs": 1, "lp": 7, "ap": 9},
           "Bork": {"rw": 40, "waffen": ["Keule +11 (W6)"], "abwehr": 14, "rs": 0, "schild": "klein",
                    "schild_ap": 1, "lp": 6, "ap": 8}}
#: the example notebook's Midgard duel (LP/AP 16/30 against 14/25): about 400,000 nodes of the chain
GROSS = {"Alrik": {**MIDGARD["Alrik"], "lp": 16, "ap": 30}, "Bork": {**MIDGARD["Bork"], "lp": 14, "ap": 25}}


def encounter(tmp_path, ruleset, sheets, data=None, started=False):
    c = Campaign.open(tmp_path / "k.sqlite")
    c.set_ruleset(ruleset)
    for field, value in (data or {}).items():
        c.set_data(field, value)
    enc = c.new_encounter("Gasse")
    for (name, sheet), side in zip(sheets.items(), ("Helden", "Feinde")):
        enc.add(name, side=side, sheet=sheet)
    if started:
        enc.start(seed=3)
    return c, enc


def board(c, name="Gasse"):
    state = c.state
    record = state["encounters"][name]
    table = Table(state, name, rules.get(record["ruleset"] or None), zielwahl("schwächste"), True)
    return compact_board(table, np.random.default_rng(1))


def assert_same(got, want):
    """Two exact solutions alike to rounding: each side's chance, the draw, who falls, the rounds, the
    resources."""
    assert got.win == pytest.approx(want.win, abs=1e-12)
    assert got.draw == pytest.approx(want.draw, abs=1e-12)
    assert got.falls == pytest.approx(want.falls, abs=1e-12)
    assert set(got.rounds) <= set(want.rounds)
    for r, p in want.rounds.items():
        assert got.rounds.get(r, 0.0) == pytest.approx(p, abs=1e-12), r
    for mine, theirs in zip(got.resources, want.resources):
        assert mine.keys() == theirs.keys()
        for k in mine:
            assert mine[k] == pytest.approx(theirs[k], abs=1e-9), k


CASES = [
    ("bastionland", BASTIONLAND, None),
    ("midgard", MIDGARD, None),
    (None, {"Alrik": {"hp": 12}, "Räuber": {"hp": 8}},
     {"prognose": {"alle": {"treffer": "W20>=11"}, "figuren": {"Alrik": {"schaden": "W6"}},
                   "seiten": {"Feinde": {"schaden": "W4+1", "treffer": 0.4}}}}),
]


@pytest.mark.parametrize("started", [False, True], ids=["davor", "begonnen"])
@pytest.mark.parametrize("ruleset, sheets, data", CASES, ids=["bastionland", "midgard", "frei"])
def test_the_duel_as_the_joint_chain_finds_it(tmp_path, ruleset, sheets, data, started):
    c, _ = encounter(tmp_path, ruleset, sheets, data, started)
    b = board(c)
    assert duel.fits(b) and not b.pair
    got, want = duel.solve(b), chain.solve(b, 10**6)
    assert want is not None and 0.01 < want.win[0] < 0.99
    assert_same(got, want)


def adz_duel(tmp_path, started):
    return test_adz_compact.duel(tmp_path, begun=started)


def kampfwerte_duel(tmp_path, started):
    enc = test_kampfwerte_compact.duel(tmp_path)
    if started:
        enc.start(seed=3)
    return enc


def midgard_duel(tmp_path, started):
    m = test_midgard_compact
    return m.encounter(tmp_path, ("Alrik", "Helden", m.ALRIK), ("Bork", "Feinde", m.BORK), begun=started)[1]


@pytest.mark.parametrize("started", [False, True], ids=["davor", "begonnen"])
@pytest.mark.parametrize("make", [adz_duel, kampfwerte_duel, midgard_duel], ids=["adz", "kampfwerte", "midgard_gnade"])
def test_a_duel_whose_turns_change_the_actor_too_as_the_joint_chain_finds_it(tmp_path, make, started):
    """The pairs of states, each actor's turn once per pair, against the chain's nodes of every order and
    place: AdZ's luck pool, Kampfwerte's AD and Finte (nobody can pay any more: the rounds repeat to the
    end), Midgard's grace spent."""
    enc = make(tmp_path, started)
    b = board(enc.campaign, enc.name)
    assert duel.fits(b) and b.pair
    got, want = duel.solve(b), chain.solve(b, 10**6)
    assert want is not None and got is not None and 0.01 < want.win[0] < 0.99
    assert_same(got, want)


def test_a_duel_of_pairs_gives_up_at_its_node_limit(tmp_path):
    b = board(*(lambda e: (e.campaign, e.name))(kampfwerte_duel(tmp_path, False)))
    whole = duel.solve(b)
    assert whole is not None and duel.solve(b, whole.nodes - 1) is None and duel.solve(b, whole.nodes) is not None


@pytest.mark.parametrize("started", [False, True], ids=["davor", "begonnen"])
def test_a_tie_that_strikes_together_is_left_to_the_chain(tmp_path, started):
    """OSR rolls initiative each round, and a tie strikes at the same time (both may fall): the duel of
    one vector per figure cannot play that, the chain does."""
    c, _ = encounter(tmp_path, "osr", OSR, None, started)
    b = board(c)
    assert any(any(at_once) for at_once in b.opening.together)
    assert not duel.fits(b)


def test_two_against_one_is_left_to_the_chain(tmp_path):
    sheets = {**OSR, "Ork 2": OSR["Ork"]}
    c = Campaign.open(tmp_path / "k.sqlite")
    c.set_ruleset("osr")
    enc = c.new_encounter("Gasse")
    for name, side in zip(sheets, ("Helden", "Feinde", "Feinde")):
        enc.add(name, side=side, sheet=sheets[name])
    assert not duel.fits(board(c))


def test_a_midgard_duel_too_large_for_the_chain_is_exact(tmp_path):
    """Before: sampled (the chain's bound passed ``MAX_STATES``); the exact result lies within the
    compact sampler's 95 % intervals (seeded)."""
    c, enc = encounter(tmp_path, "midgard", GROSS)
    b = board(c)
    assert chain.solve(b) is None   # the joint chain refuses it
    f = enc.forecast()
    assert (f.method, f.weg) == ("exakt", "exakt")
    assert f.win["Helden"].p + f.win["Feinde"].p + f.draw.p == pytest.approx(1, abs=1e-12)
    sampled = enc.forecast(weg="kompakt", n=4000, seed=5)
    assert_within(f, sampled, keys=("LP", "AP"))


def _pairs_and_moves(found):
    """The pairs a walk found (as states), the pair a new round makes of each, and each actor's moves
    summed by (from pair, to pair), all by states (their numbers differ from walk to walk)."""
    pair = [(found.states[0][x0], found.states[1][x1]) for x0, x1 in zip(*found.at)]
    moves = []
    for src, dst, p in found.moves:
        summed: dict = {}
        for s, d, q in zip(src.tolist(), dst.tolist(), p.tolist()):
            summed[pair[s], pair[d]] = summed.get((pair[s], pair[d]), 0.0) + q
        moves.append(summed)
    return pair[found.start], set(pair), {pair[k]: pair[r] for k, r in enumerate(found.fresh.tolist())}, moves


@pytest.mark.parametrize("started", [False, True], ids=["davor", "begonnen"])
def test_a_duel_walked_by_the_parts_a_turn_reads_as_pair_by_pair(tmp_path, monkeypatch, started):
    """Kampfwerte names the parts a turn reads (``Compact.reads``): the pairs found batch by batch, each
    turn once per pair of parts as changes (``Compact.moves``, ``moved``), from the start or going on from
    the pairs found pair by pair so far, are the pairs found pair by pair, with the same moves, and the
    duel's result is the same (the icepool duel above goes this way)."""
    enc = kampfwerte_duel(tmp_path, started)
    b = board(enc.campaign, enc.name)
    pairs = duel._Pairs(b, 10**6)
    assert pairs.split
    whole = pairs._walk()
    want = _pairs_and_moves(whole)
    for upto in (0, 37):
        split = duel._Pairs(b, 10**6)._walk(upto)
        got = _pairs_and_moves(split)
        assert got[:3] == want[:3] and len(got[1]) == len(split.fresh) > 100
        for mine, theirs in zip(got[3], want[3]):
            assert mine.keys() == theirs.keys()
            assert all(mine[k] == pytest.approx(theirs[k], abs=1e-15) for k in mine)
    solved = duel.solve(b)
    by_pairs = duel._Pairs(b, 10**6)
    by_pairs.split = False
    walked = by_pairs.solve()
    assert solved.nodes == walked.nodes == len(got[1])
    assert_same(solved, walked)
