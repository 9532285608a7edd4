"""The OSR compact model: each attack as the procedure ``angriff`` rolls it (every die brute-forced),
a duel exactly as icepool's ``map(..., repeat='inf')`` finds it (written anew from the seed: side
initiative every round, the roll needed, the damage), whole fights within the procedure path's
intervals, and the fights it does not cover played through the procedures."""

from __future__ import annotations

from fractions import Fraction

import pytest

from brute_force import leaves
from rpgkernel import Campaign, rules
from rpgkernel.dice import Roller
from rpgkernel.resolve.run import carry_out
from rpgkernel.rules import limits
from rpgkernel.rules.figure import view
from rpgkernel.rules.osr import einrichten
from rpgkernel.state import model
from rpgkernel.state.transaction import Transaction

ENGINE = rules.get("osr")
HAUPTMANN = {"stufe": 3, "rk": 4, "tp": 10, "angriffsbonus": 1, "schadensbonus": 1, "waffen": ["Langschwert (W8)"]}
ORK = {"tw": "1+1", "rk": 6, "tp": 9, "waffen": ["Krummsäbel (W8)"]}


def encounter(tmp_path, *figures, started=True, **settings):
    """An OSR encounter of ``figures`` (name, side, sheet[, conditions]); ``settings``: the GM's
    (``untergrenzen`` for the lower bounds, the rest ``osr.einrichten``)."""
    c = Campaign.open(tmp_path / "k.sqlite")
    c.set_ruleset("osr")
    low = settings.pop("untergrenzen", None)
    if low:
        limits.einrichten(low, kampagne=c)
    if settings:
        einrichten(**settings, kampagne=c)
    enc = c.new_encounter("Höhle")
    for name, side, sheet, *conditions in figures:
        enc.add(name, side=side, sheet=sheet, conditions=dict.fromkeys(conditions[0], {}) if conditions else None)
    if started:
        enc.start(seed=1)
    return c, enc


def compact(c):
    """The encounter's compact model as the forecast builds it (None: not covered)."""
    state = c.state
    names = list(state["encounters"]["Höhle"]["combatants"])
    figures = [view(model.seen_by_rules(state, n, "Höhle")) for n in names]
    return ENGINE.tactics.compact(figures, model.data(state, "Höhle")), names


# -- each attack against the procedure, every die brute-forced ------------------------------------

def procedure(c, attacker, target):
    """{the target's TP after the line ``angriff attacker -> target``: chance}, over every die, as the
    procedure path plays it (in a transaction on the campaign's state, the limits applied by it)."""
    def run(dice):
        tx = Transaction(c.state)
        [res] = carry_out(tx, ENGINE, f'angriff "{attacker}" -> "{target}"', Roller(dice=dice))
        return model.seen_by_rules(tx.state, target, "Höhle")["resources"]["TP"]["value"]
    out: dict[int, float] = {}
    for p, tp in leaves(run):
        out[tp] = out.get(tp, 0.0) + p
    return out


@pytest.mark.parametrize("settings", [{}, {"untergrenzen": {"TP": -3}}])
def test_each_attack_as_the_procedure_rolls_it(tmp_path, settings):
    """Strength and damage bonuses, shield and Dex, a prone and a stunned target, a monster's hit dice, damage held at the GM's lower bound: the model's chances of the target's TP
    are the procedure's."""
    c, _ = encounter(tmp_path, ("Hauptmann", "Gruppe", HAUPTMANN),
                     ("Wachmann", "Gruppe", {"stufe": 1, "rk": 5, "schild": 1, "ges_rk": 1, "tp": 3,
                                             "angriffsbonus": 2, "waffen": ["Speer (W6, Länge 8)"]}),
                     ("Ork", "Orks", ORK, ["liegend"]),
                     ("Goblin", "Orks", {"tw": "1-1", "rk": 6, "tp": 2, "schadensbonus": -1,
                                         "waffen": ["Keule (W4)"]}, ["betäubt"]), **settings)
    m, names = compact(c)
    assert m is not None and m.random_target
    checked = 0
    for a, attacker in enumerate(names):
        for t, target in enumerate(names):
            if m.figures[a].side == m.figures[t].side:
                continue
            got = dict((s, p) for p, s in m.hit(a, t, m.start(t)))
            want = procedure(c, attacker, target)
            assert got.keys() == want.keys(), (attacker, target)
            assert all(got[s] == pytest.approx(want[s], abs=1e-12) for s in want), (attacker, target)
            checked += 1
    assert checked == 8
    below = min(s for _, s in m.hit(0, 3, m.start(3)))   # the Hauptmann on the 2-TP Goblin
    assert below == (-3 if settings else 0)


def test_a_figure_out_of_the_fight_as_the_rules_say(tmp_path):
    c, _ = encounter(tmp_path, ("Hauptmann", "Gruppe", HAUPTMANN), ("Ork", "Orks", ORK),
                     todesschwelle=-2, bewusstlos_schwelle=0)
    m, _ = compact(c)
    assert [m.standing(1, tp) for tp in (1, 0, -2)] == [True, False, False]
    assert m.resources(1, 4) == {"TP": 4}
