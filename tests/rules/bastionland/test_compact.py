"""The compact model of a fight (``rules.bastionland.compact``) against the attack procedure itself: every
face of the attack dice and of the save, played through ``attack`` with given dice under the tactics'
Deny, gives the model's chances exactly."""

import itertools
import math

import pytest

from rpgkernel.dice import Roller
from rpgkernel.rules import bastionland as bl
from rpgkernel.rules.bastionland import Bastionland
from rpgkernel.rules.bastionland.compact import Stand, covers
from rpgkernel.rules.bastionland.sheet import weapon_dice
from rpgkernel.rules.figure import view

from .test_rules import RITTER, figure

TACTICS = Bastionland.tactics


def enumerated(attacker, target, state):
    """The target's states after ``attacker``'s attack, by playing every roll through the procedure."""
    me = target.changed({"GD": state.gd, "VIG": state.vig}, state.zustaende)
    pool = bl.attack_pool([attacker], me)
    armour = me.value("ruestung", 0)
    found: dict = {}
    for faces in itertools.product(*[range(1, int(d[1:]) + 1) for d in pool]):
        denies = TACTICS.denies(me, sorted(faces, reverse=True), armour)
        for save in range(1, 21) if denies else [None]:
            dice = [*faces, *([save] if denies else []), 1]   # the scar die last
            res = bl.attack([attacker], me, Roller(dice=dice), deny=[me.name] if denies else None)
            lost = {e.resource: -e.by for e in res.effects if e.figure == me.name and e.resource}
            added = {e.condition for e in res.effects if e.figure == me.name and e.condition and e.on} - {"Narbe"}
            nxt = Stand(state.gd - lost.get("GD", 0), state.vig - lost.get("VIG", 0), state.zustaende | added)
            found[nxt] = found.get(nxt, 0.0) + 1 / math.prod(int(d[1:]) for d in pool) / (20 if denies else 1)
    return found


KNIGHT = figure("Ritter", vig=6, spi=13, gd=3, armour=2, extra={"spielfigur": True}, **RITTER)
SÖLDNER = figure("Söldner", vig=5, spi=9, gd=2, armour=2, weapons=["Speer (W8)", "Schild (W4)"])


@pytest.mark.parametrize("attacker, target, state", [
    (SÖLDNER, KNIGHT, Stand(3, 6)),                                   # Deny and the SPI save
    (SÖLDNER, KNIGHT, Stand(0, 4, frozenset({"verwundet"}))),         # damage beyond GD: VIG, Todeswunde, tot
    (SÖLDNER, KNIGHT, Stand(1, 6, frozenset({"Fatigued"}))),          # Fatigued: no Deny
    (KNIGHT, SÖLDNER, Stand(2, 5)),                                   # no Knight: no Deny
    (figure("Bandit", weapons=["Knüppel (W6)"]), KNIGHT, Stand(3, 6)),   # one die: a Deny leaves nothing
    (figure("Bandit", spi=0, weapons=["Axt (W10)"]), SÖLDNER, Stand(2, 5)),   # SPI 0: impaired, a W4
    (KNIGHT, figure("Wache", cla=0, gd=4, vig=7, weapons=["Speer (W8)"]), Stand(4, 7)),   # CLA 0: exposed
])
def test_one_attack_as_the_procedure_plays_it(attacker, target, state):
    model = TACTICS.compact([attacker, target], {})
    got = dict((s, p) for p, s in model.hit(0, 1, state))
    expected = enumerated(attacker, target, state)
    assert set(got) == set(expected)
    assert all(got[s] == pytest.approx(p, abs=1e-12) for s, p in expected.items())
    assert sum(got.values()) == pytest.approx(1.0, abs=1e-12)


def test_states_views_and_who_stands():
    model = TACTICS.compact([KNIGHT, SÖLDNER], {})
    assert model.start(0) == Stand(3, 6) and model.start(1) == Stand(2, 5)
    hurt = model.view(0, Stand(0, 2, frozenset({"verwundet", "Todeswunde", "Fatigued"})))
    assert (hurt.current("GD"), hurt.current("VIG"), hurt.current("SPI")) == (0, 2, 13)
    assert hurt.has("Fatigued") and weapon_dice(hurt) == ["W8", "W4"]
    assert not model.standing(0, Stand(0, 2, frozenset({"Todeswunde"}))) and model.standing(0, Stand(0, 2))
    assert model.resources(1, Stand(1, 4)) == {"GD": 1, "VIG": 4, "CLA": 10, "SPI": 9}


def test_what_the_model_covers():
    assert covers([KNIGHT, SÖLDNER, figure("Wache", conditions=("schutzlos", "beeinträchtigt"))])
    assert not covers([KNIGHT, figure("Miliz", extra={"art": "Kriegsschar"})])   # warbands take other rules
    späher = figure("Späher")
    timed = view({"name": "Späher", "sheet": dict(späher.sheet), "resources": {k: {"value": r.value, "max": r.max}
                  for k, r in späher.resources.items()}, "conditions": {"setzt aus": {"remaining": 1}}})
    assert not covers([KNIGHT, timed])   # a condition that ends changes the fight mid-way
    assert TACTICS.compact([KNIGHT, timed], {}) is None
