"""The compact sampler (``forecast.sample``) against the exact chain: small fights of every ruleset with a
compact model (duels, two against one, a group whose morale wavers, OSR's side initiative every round
with its ties at once), seeded; every side's chance, the draws, each figure's chance to fall and the
mean rounds within their intervals. A seed gives the same fights; every turn of a batch draws its
numbers in one pass, whatever the number of combatants."""

from __future__ import annotations

import numpy as np
import pytest

from rpgkernel import Campaign, rules
from rpgkernel.forecast.fight import Table
from rpgkernel.forecast.mixture import board
from rpgkernel.forecast.sample import Sampler

ONES = {"KK": 1, "KO": 1, "GE": 1, "FF": 1, "KL": 1, "WK": 1, "IN": 1, "CH": 1, "GL": 1}
KW = {"AUFMERKSAMKEIT": 3, "GEWANDTHEIT": 3, "INSTINKT": 3, "HEIMLICHKEIT": 3}
RITTER = {"vig": 14, "cla": 12, "spi": 13, "gd": 5, "ruestung": 2, "spielfigur": True,
          "waffen": ["Streitkolben (W8, wuchtig)", "Schild (W4)"]}
SÖLDNER = {"vig": 8, "cla": 10, "spi": 9, "gd": 2, "ruestung": 1, "waffen": ["Speer (W8)"]}

#: per case: the ruleset, the GM's data, the players' and the foes' figures (name, sheet), an order
FIGHTS = {
    "frei": (None, {"prognose": {"alle": {"treffer": "W20>=11", "schaden": "W6"}}},
             [("Alrik", {"hp": 12})], [("Räuber", {"hp": 8})]),
    "frei_zwei_gegen_einen": (None, {"prognose": {"alle": {"treffer": "W20>=11", "schaden": "W6"}}},
                              [("Alrik", {"hp": 8}), ("Bela", {"hp": 6})], [("Oger", {"hp": 16})]),
    "bastionland": ("bastionland", {}, [("Ritter", {**RITTER, "vig": 8, "gd": 2})],
                    [("Söldner", {**SÖLDNER, "vig": 12, "gd": 3, "ruestung": 2, "waffen": ["Speer (W10)", "Schild (W4)"]})]),
    "bastionland_gruppe": ("bastionland", {}, [("Ritter", {**RITTER, "vig": 8})],
                           [("Söldner 1", SÖLDNER), ("Söldner 2", SÖLDNER)]),
    "osr": ("osr", {}, [("Hauptmann", {"stufe": 3, "rk": 4, "tp": 10, "angriffsbonus": 1, "schadensbonus": 1,
                                       "waffen": ["Langschwert (W8)"]})],
            [("Ork", {"tw": "1+1", "rk": 6, "tp": 9, "waffen": ["Krummsäbel (W8)"]})]),
    "osr_zwei_gegen_einen": ("osr", {}, [("Ork 1", {"tw": "1", "rk": 6, "tp": 5, "waffen": ["Keule (W6)"]}),
                                         ("Ork 2", {"tw": "1", "rk": 6, "tp": 5, "waffen": ["Keule (W6)"]})],
                             [("Oger", {"tw": "4", "rk": 5, "tp": 14, "waffen": ["Keule (W10)"]})]),
    "adz": ("adz", {}, [("Alrik", {**ONES, "KK": 2, "GL": 2, "fertigkeiten": ["Schwerter 2", "Verteidigung 1"],
                                   "waffen": ["Kurzschwert (Schwerter, KK, GS 3)"]})],
            [("Ork", {**ONES, "KO": 2, "fertigkeiten": ["Hiebwaffen 2", "Verteidigung 1"],
                      "waffen": ["Keule (Hiebwaffen, KK, GS 2)"]})]),
    "midgard": ("midgard", {}, [("Wolfgang", {"rw": 50, "waffen": ["Langschwert +10 (W6+2)"], "abwehr": 5, "rs": 1,
                                              "lp": 8, "ap": 12})],
                [("Ork", {"rw": 40, "waffen": ["Keule +9 (W6+1)"], "abwehr": 4, "rs": 0, "lp": 9, "ap": 12})]),
    "kampfwerte": ("kampfwerte", {"prognose": {"alle": {"abwehr": "W10>=9", "schaden": "W6+2"},
                                               "figuren": {"Kael": {"manöver": ["Finte 2", "Gezielte Attacke 2"]},
                                                           "Ork": {"manöver": "Wuchtschlag", "schaden": "W6+3",
                                                                   "abwehr": 0.25}}}},
                   [("Kael", {**KW, "AD": 14, "LP": 8, "angriff": 3, "parade": 2, "ruestung": 1,
                              "manoever": ["Finte 2", "Gezielte Attacke 2"]})],
                   [("Ork", {**KW, "AD": 12, "LP": 9, "angriff": 3, "parade": 1, "ruestung": 2,
                             "manoever": ["Wuchtschlag 2"]})]),
}


def fight(tmp_path, case: str, begun: bool = True):
    """The encounter of ``case``, begun with its figures in the order given (OSR rolls again each round)."""
    ruleset, data, players, foes = FIGHTS[case]
    c = Campaign.open(tmp_path / f"{case}.sqlite")
    c.set_ruleset(ruleset)
    for key, value in data.items():
        c.set_data(key, value)
    enc = c.new_encounter("Gefecht")
    for side, figures in (("Spieler", players), ("Feinde", foes)):
        for name, sheet in figures:
            enc.add(name, side=side, sheet=sheet)
    if begun:
        enc.start(order=[n for n, _ in players + foes])
    return enc


def within(exact: float, sampled) -> bool:
    """An exact chance within twice the half-width of a sampled chance's 95 % interval (about four
    standard errors: a test compares some fifty numbers at once)."""
    return abs(sampled.p - exact) <= 2 * sampled.margin + 1e-12


@pytest.mark.parametrize("case", list(FIGHTS))
def test_the_sampler_as_the_exact_chain(tmp_path, case):
    enc = fight(tmp_path, case)
    exact = enc.forecast(weg="exakt")
    fast = enc.forecast(n=20_000, seed=11, weg="kompakt")
    assert (exact.weg, fast.weg, fast.fights) == ("exakt", "kompakt", 20_000)
    assert 0.02 < exact.win["Spieler"].p < 0.98   # no foregone conclusion
    for side, chance in exact.win.items():
        assert within(chance.p, fast.win[side]), side
    assert within(exact.draw.p, fast.draw)
    for name, figure in exact.figures.items():
        assert within(figure.falls.p, fast.figures[name].falls), name
    sd = fast.rounds.sd / np.sqrt(fast.fights)
    assert abs(exact.rounds.mean - fast.rounds.mean) <= 4 * sd + 1e-9


def test_osr_ties_strike_at_once_on_both_paths(tmp_path):
    """OSR rolls the sides' initiative every round, a tie strikes at once: the sampler plays the blocks
    of those acting together as the chain does (a duel where both may fall in one round: a draw)."""
    enc = fight(tmp_path, "osr_zwei_gegen_einen")
    sampler = Sampler(board(Table(enc.campaign.state, "Gefecht", rules.get("osr"), "schwächste"),
                             np.random.default_rng(0)))
    assert not sampler.begins.all() and sampler.board.opening.each_round is not None
    exact = enc.forecast(weg="exakt")
    fast = enc.forecast(n=20_000, seed=5, weg="kompakt")
    assert exact.draw.p > 0.005 and within(exact.draw.p, fast.draw)


def test_a_seed_plays_the_same_fights(tmp_path):
    enc = fight(tmp_path, "bastionland_gruppe")
    sampler = Sampler(board(Table(enc.campaign.state, "Gefecht", rules.get("bastionland"), "schwächste"),
                             np.random.default_rng(0)))
    one, again, other = (sampler.play(500, np.random.default_rng(seed)) for seed in (3, 3, 4))
    for field in ("winner", "rounds", "states"):
        assert np.array_equal(getattr(one, field), getattr(again, field))
    assert not np.array_equal(one.states, other.states)
    assert enc.forecast(n=3000, seed=9, weg="kompakt").win == enc.forecast(n=3000, seed=9, weg="kompakt").win


class Counting:
    """A generator that counts its calls of ``random``."""

    def __init__(self, seed: int) -> None:
        self.rng, self.calls = np.random.default_rng(seed), 0

    def random(self, *args):
        self.calls += 1
        return self.rng.random(*args)


@pytest.mark.parametrize("per_side", [1, 6])
def test_every_turn_of_a_batch_draws_in_one_pass(tmp_path, per_side):
    """The next states of every fight of a batch are drawn in one call per turn, however many foes the
    actors pick among: at most one call per place of the order and round played."""
    c = Campaign.open(tmp_path / "k.sqlite")
    c.set_data("prognose", {"alle": {"treffer": "W20>=9", "schaden": "W6+1"}})
    enc = c.new_encounter("Gefecht")
    for k in range(per_side):
        enc.add(f"Held {k}", side="Spieler", sheet={"hp": 14 + k})
        enc.add(f"Feind {k}", side="Feinde", sheet={"hp": 10 + k})
    enc.start(order=[f"{who} {k}" for k in range(per_side) for who in ("Held", "Feind")])
    sampler = Sampler(board(Table(c.state, "Gefecht", rules.get(None), "schwächste"), np.random.default_rng(0)))
    rng = Counting(2)
    batch = sampler.play(2000, rng)   # type: ignore[arg-type]
    assert len(np.unique(batch.rounds)) > 3   # the fights went their own ways
    assert rng.calls <= 2 * per_side * int(batch.rounds.max())
