"""The free mode's compact model (``rules.frei.compact``) against the verb ``schaden`` itself: every face
of the damage, played through the verb with given dice, gives the model's chances exactly."""

import pytest

from rpgkernel import rules
from rpgkernel.dice import Roller
from rpgkernel.rules.figure import view
from rpgkernel.rules.forecast_data import odds
from rpgkernel.rules.frei.schaden import schaden

TACTICS = rules.get(None).tactics


def figure(name, side="Spieler", **resources):
    return view({"name": name, "side": side, "sheet": {},
                 "resources": {k: {"value": v, "max": v} for k, v in resources.items()}, "conditions": {}})


ALRIK, RÄUBER = figure("Alrik", HP=12), figure("Räuber", side="Räuber", HP=8, Mut=4)


@pytest.mark.parametrize("menge, treffer, faces, state, data", [
    ("W6", "W20>=11", 6, 8, {}),
    ("W6", 0.4, 6, 3, {}),                                   # the HP stop at 0
    ("W4-2", "W20>=11", 4, 3, {}),                           # below 0 counts as 0
    ("W6", "W20>=11", 6, 2, {"untergrenzen": {"HP": -2}}),   # the GM's lower bound
    ("W6", 1, 6, -1, {"untergrenzen": {"HP": -2}}),          # beyond the bound already: it stays
])
def test_one_attack_as_the_verb_plays_it(menge, treffer, faces, state, data):
    data = {**data, "prognose": {"alle": {"schaden": menge, "treffer": treffer}}}
    model = TACTICS.compact([ALRIK, RÄUBER], data)
    got = {s: p for p, s in model.hit(0, 1, state)}
    hit = odds(treffer).p
    me = model.view(1, state)
    expected = {state: 1 - hit} if hit < 1 else {}
    for face in range(1, faces + 1):
        after = schaden([me], menge, Roller(dice=[face]), data).outcome["danach"]["Räuber"]
        expected[after] = expected.get(after, 0.0) + hit / faces
    assert set(got) == set(expected)
    assert all(got[s] == pytest.approx(p, abs=1e-12) for s, p in expected.items())


def test_states_views_and_who_stands():
    data = {"prognose": {"alle": {"schaden": "W6", "treffer": 0.5}}}
    model = TACTICS.compact([ALRIK, RÄUBER], data)
    assert (model.start(0), model.start(1)) == (12, 8)
    assert model.standing(1, 1) and not model.standing(1, 0) and not model.standing(1, -2)
    assert model.resources(1, 5) == {"HP": 5, "Mut": 4}
    lp = {**data, "frei": {"ressource": "Mut"}}   # the GM's resource counts
    assert TACTICS.compact([figure("Alrik", Mut=3), RÄUBER], lp).start(1) == 4


def test_what_the_model_covers():
    data = {"prognose": {"alle": {"schaden": "W6", "treffer": 0.5}}}
    assert TACTICS.compact([ALRIK, figure("Räuber", LP=5)], data) is not None   # HP, else LP
    assert TACTICS.compact([ALRIK, figure("Räuber", Stärke=5)], data) is None
    other = view({"name": "Söldner", "ruleset": "bastionland", "sheet": {}, "resources": {"HP": {"value": 5, "max": 5}}})
    assert TACTICS.compact([ALRIK, other], data) is None
