"""Kampfwerte's compact model: each turn against the engine's procedures over every die they roll
(``brute_force.leaves``), so the model is the engine's rule; whole fights below."""

from __future__ import annotations

import pytest

from rpgkernel import Campaign, rules
from rpgkernel.dice import Roller
from rpgkernel.resolve.lines import line
from rpgkernel.resolve.run import carry_out
from rpgkernel.rules import limits
from rpgkernel.rules.figure import view
from rpgkernel.rules.kampfwerte.compact import Stand
from rpgkernel.rules.tactics import Fight
from rpgkernel.state import model
from rpgkernel.state.transaction import Transaction

from brute_force import leaves

ENGINE = rules.get("kampfwerte")
TACTICS = ENGINE.tactics
VERBS = {v.name: v for v in ENGINE.verbs.values()}
TALENTE = {"AUFMERKSAMKEIT": 3, "GEWANDTHEIT": 3, "INSTINKT": 3, "HEIMLICHKEIT": 3}
#: small pools, so that every die of a turn can be tried
KAEL = {**TALENTE, "AD": 9, "LP": 14, "NK": 1, "angriffsstufe": 2, "angriff": 2, "parade": 1, "ruestung": 1,
        "waffen": ["Dolch"], "manoever": ["Finte 2", "Gezielte Attacke 2", "Schattenhieb 2", "Schattensprung 1",
                                          "Entwaffnen 2", "Schadenserhöhung 1", "Mehrfach-Angriff 2"]}
ORK = {**TALENTE, "AD": 6, "LP": 5, "NK": 1, "angriffsstufe": 1, "angriff": 2, "parade": 1, "ruestung": 2,
       "manoever": ["Wuchtschlag 3", "Schadenserhöhung 1"]}


def encounter(tmp_path, data, kael=None, ork=None, low=None):
    """Kael against an orc in the orc's turn (a given order), with the GM's data ``prognose``."""
    c = Campaign.open(tmp_path / "k.sqlite")
    c.set_ruleset("kampfwerte")
    if low is not None:
        limits.einrichten({"LP": low}, kampagne=c)
    enc = c.new_encounter("Gefecht")
    enc.add("Kael", side="Spieler", sheet={**KAEL, **(kael or {})})
    enc.add("Ork", side="Feinde", sheet={**ORK, **(ork or {})})
    c.set_data("prognose", data)
    enc.start(order=["Kael", "Ork"])
    return c, enc


def stand(record) -> Stand:
    """A combatant's record read as the model's state, written anew here: LP, AD, the level of a
    condition ``Finte +N``, ``niedergeworfen``."""
    conditions = record.get("conditions") or {}
    finte = [int(c[len("Finte +"):]) for c in conditions if c.startswith("Finte +")]
    return Stand(record["resources"]["LP"]["value"], record["resources"]["AD"]["value"], sum(finte),
                 "niedergeworfen" in conditions)


def played(state, actor, target):
    """The chance of each (actor's, target's) state after the actor's turn through the procedures: the
    tactics' line carried out over every die the defence, the test, the damage and a parry roll."""
    def run(dice):
        tx = Transaction(state)
        roller = Roller(dice=dice)
        figures = {n: view(model.seen_by_rules(tx.state, n, "Gefecht")) for n in (actor, target)}
        action = TACTICS.action(figures[actor], figures[target], Fight(figures, {}, 1, model.data(tx.state), roller))
        if action is not None:
            carry_out(tx, ENGINE, line(VERBS[action.verb], action.actors, action.targets, dict(action.options)),
                      roller)
        return tuple(stand(model.seen_by_rules(tx.state, n, "Gefecht")) for n in (actor, target))
    found: dict = {}
    for p, states in leaves(run):
        found[states] = found.get(states, 0.0) + p
    return found


def modelled(c, actor, target, mine=None, theirs=None):
    names = list(c.encounter.record["combatants"])
    figures = [view(model.seen_by_rules(c.state, n, "Gefecht")) for n in names]
    compact = TACTICS.compact(figures, model.data(c.state, "Gefecht"))
    a, t = names.index(actor), names.index(target)
    found: dict = {}
    for p, one, other in compact.turn(a, t, mine or compact.start(a), theirs or compact.start(t)):
        found[one, other] = found.get((one, other), 0.0) + p
    return found


def assert_same(found, expected):
    assert set(found) == set(expected)
    for key, p in expected.items():
        assert found[key] == pytest.approx(p, abs=1e-12), key
    assert sum(found.values()) == pytest.approx(1, abs=1e-12)


DEFENCE = {"abwehr": 0.5, "schaden": "W4"}


def data(kael, ork="Wuchtschlag", **alle):
    """The GM's data: every attack defended half the time for W4, Kael's and the orc's manoeuvres."""
    return {"alle": {**DEFENCE, **alle}, "figuren": {"Kael": {"manöver": kael}, "Ork": {"manöver": ork}}}


@pytest.mark.parametrize("ork, manoeuvres", [
    ({}, "Wuchtschlag"),                                        # parried, or knocked down
    ({"AD": 2}, ["Wuchtschlag 3", "Schadenserhöhung"]),         # 3 AD for the first: the second
    ({"AD": 1}, ["Wuchtschlag 3", "Schadenserhöhung"]),         # none it can pay: nothing
])
def test_the_orcs_turn_as_the_procedures_play_it(tmp_path, ork, manoeuvres):
    c, _ = encounter(tmp_path, data("Gezielte Attacke", manoeuvres), ork=ork)
    expected = played(c.state, "Ork", "Kael")
    assert_same(modelled(c, "Ork", "Kael"), expected)
    assert len(expected) > 1 or ork["AD"] == 1


@pytest.mark.parametrize("manoeuvre, schaden", [
    ("Finte", "W4"), ("Gezielte Attacke", "W4-2"), ("Schattenhieb", "W4"), ("Schattensprung", "W2"),
    ("Entwaffnen", "W4"), ("Schadenserhöhung", "1"), ("Mehrfach-Angriff", "W3+1"),
])
def test_each_manoeuvre_as_the_procedures_play_it(tmp_path, manoeuvre, schaden):
    """Kael's manoeuvres against an orc of 5 LP and armour 2 (Schattenhieb ignores 2 of it from 3 successes,
    Schattensprung doubles the damage from 3 successes and is never defended), his LP's lower bound -3."""
    c, _ = encounter(tmp_path, data(manoeuvre, schaden=schaden, abwehr="W4<=1"), low=-3)
    assert_same(modelled(c, "Kael", "Ork"), played(c.state, "Kael", "Ork"))


def test_a_pending_finte(tmp_path):
    """A Finte hits: the next attack has 6 successes without a roll and uses it up, defended or not; a
    second Finte waits while one is pending."""
    c, _ = encounter(tmp_path, data(["Finte 2", "Gezielte Attacke 2"]), ork={"LP": 20})
    first = played(c.state, "Kael", "Ork")
    assert any(kael.finte == 2 for kael, _ in first)
    assert_same(modelled(c, "Kael", "Ork"), first)
    c.add_condition("Kael", "Finte +2")
    then = played(c.state, "Kael", "Ork")
    assert {kael.finte for kael, _ in then} == {0} and len(then) == 5   # defended, or W4 + 2 + 4 - 2 LP
    assert_same(modelled(c, "Kael", "Ork"), then)


def test_a_knocked_down_figure_loses_its_turn(tmp_path):
    """Knocked down, the orc's turn passes (the encounter skips it) and ends the knock-down; it still
    stands in the fight, and Kael attacks it."""
    c, enc = encounter(tmp_path, data("Gezielte Attacke"))
    c.add_condition("Ork", "niedergeworfen", rounds=1, ends="zugende")
    names = list(enc.record["combatants"])
    figures = [view(model.seen_by_rules(c.state, n, "Gefecht")) for n in names]
    compact = TACTICS.compact(figures, model.data(c.state, "Gefecht"))
    kael, down = compact.start(0), compact.start(1)
    assert down == Stand(5, 6, 0, True) and compact.standing(1, down) and not compact.standing(1, down._replace(lp=0))
    assert_same(modelled(c, "Kael", "Ork", kael, down), played(c.state, "Kael", "Ork"))
    [(p, after, same)] = compact.turn(1, 0, down, kael)
    enc.next_turn()
    assert (enc.round, enc.current) == (2, "Kael")   # the orc's turn passed
    assert (p, after, same) == (1.0, stand(model.seen_by_rules(c.state, "Ork", "Gefecht")), kael)
