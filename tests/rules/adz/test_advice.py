"""The advice on the luck pool (Glückspool): no luck, or luck on each offered roll, with the chance of the
test, or of the hit and the damage, each way; against brute force over every face of every die still to
roll (the luck dice, and the defence and resistance the changed result newly calls for), for small pools."""

from __future__ import annotations


import pytest

from brute_force import leaves

import rpgkernel
from rpgkernel import Campaign
from rpgkernel.dice import Roller
from rpgkernel.rules import adz
from rpgkernel.rules.advice import DECLINE

from .test_core import figure



def angreifer(luck):   # 2 attack dice (KK 1 + Schwerter 1), Kurzschwert GS 3
    return figure("Alrik", KK=1, fertigkeiten=["Schwerter 1"], waffen=["Kurzschwert (Schwerter, KK, GS 3)"], luck=luck)


def verteidiger(luck):   # 1 defence die (GE 1), 1 resistance die (KO 1), no armour
    return figure("Ork", GE=1, KO=1, luck=luck)



def luck_of(option):
    return [{"figures": [x.who], "wurf": x.options["wurf"]} for x in option.takes if x.key != DECLINE]


def agrees(procedure, dice, feature):
    """Every option of every holder's advice against brute force: ``feature(resolution)`` -> (damage or
    None, {chance name: bool})."""
    opened = procedure(Roller(dice=dice), None)
    assert opened.open and opened.advice
    for advice in opened.advice:
        for option in advice.options:
            damage, chances = {}, {}
            for p, res in leaves(lambda more: procedure(Roller(dice=[*dice, *more]), luck_of(option))):
                dealt, named = feature(res)
                if dealt is not None:
                    damage[dealt] = damage.get(dealt, 0.0) + p
                for name, ok in named.items():
                    chances[name] = chances.get(name, 0.0) + p * ok
            if option.damage is not None:
                assert option.damage.pmf() == pytest.approx(damage, abs=1e-12), (advice.who, option.label)
            assert dict(option.chances) == pytest.approx(chances, abs=1e-12), (advice.who, option.label)
    return opened.advice


def hit(res):
    return res.outcome["schaden"], {"Ork getroffen": res.outcome["treffer"]}


def test_luck_on_a_missed_attack_calls_for_the_defence_and_the_resistance():
    advice = agrees(lambda roller, luck: adz.angriff(angreifer(1), verteidiger(0), roller, glueck=luck), [1, 1], hit)
    [alrik] = advice
    assert alrik.objective == "Ork treffen, mit möglichst viel Schaden" and alrik.reads == ("Alrik",)
    none, lucky = alrik.options
    assert (none.label, lucky.label) == ("Kein Glück einsetzen", "Glück auf angriff (1 Würfel)")
    assert dict(none.chances) == {"Ork getroffen": 0.0} and none.damage.pmf() == {0: 1.0}
    # one luck die: a success (1/3), then the Ork's one defence die fails (2/3): a hit
    assert dict(lucky.chances)["Ork getroffen"] == pytest.approx(1 / 3 * 2 / 3)
    assert lucky.notes == ("Glückspool Alrik: danach 0",)


def test_after_a_hit_each_side_may_spend_luck_where_it_helps_it():
    # attack 5, 6: two successes; defence 1: none; resistance 1: none; damage 3 + 2 = 5
    advice = agrees(lambda roller, luck: adz.angriff(angreifer(1), verteidiger(1), roller, glueck=luck),
                    [5, 6, 1, 1], hit)
    assert [(a.who, [o.label for o in a.options]) for a in advice] == [
        ("Alrik", ["Kein Glück einsetzen", "Glück auf angriff (1 Würfel)"]),
        ("Ork", ["Kein Glück einsetzen", "Glück auf verteidigung (1 Würfel)", "Glück auf widerstand (1 Würfel)"])]
    assert advice[1].objective == "Nicht getroffen werden, sonst möglichst wenig Schaden"
    resist = advice[1].options[2]
    assert resist.damage.pmf() == pytest.approx({5: 2 / 3, 4: 1 / 3})


def test_luck_on_a_failed_test():
    def probe(roller, luck):
        return adz.probe(figure("Alrik", GE=2, luck=3), roller, attribut="GE", mw=2, glueck=luck)
    [advice] = agrees(probe, [5, 1], lambda res: (None, {"probe gelingt": res.outcome["gelungen"]}))
    assert advice.objective == "Die Probe gelingt"
    assert [p for _, p in advice.options[1].chances] == [pytest.approx(1 - (2 / 3) ** 3)]


def test_no_advice_where_the_rolls_lead_further_than_their_success():
    opposed = adz.vergleich(figure("Alrik", luck=2), figure("Betty", luck=2), Roller(dice=[1] * 11),
                            adz.Seite(attribut="GE"), adz.Seite(attribut="KK"))
    assert opposed.open and opposed.advice == []


def test_the_line_of_an_option_is_the_glueck_line(tmp_path):
    with Campaign.open(tmp_path / "k.sqlite") as camp:
        camp.set_ruleset("adz")
        camp.add_character("Alrik", dict(angreifer(1).sheet))
        camp.add_character("Ork", dict(verteidiger(1).sheet))
        opened = rpgkernel.resolve("angriff Alrik -> Ork", campaign=camp, dice=[1, 1])
        [advice] = opened.advice
        assert [o.lines for o in advice.options] == [("verzicht Alrik",), ("glück Alrik wurf=angriff",)]
        # the pool is GL 3: three luck dice, one success; the Ork's defence and resistance die fail
        closed = rpgkernel.resolve(advice.options[1].lines[0], campaign=camp, dice=[6, 1, 1, 1, 1])
        assert closed.outcome["treffer"] and closed.outcome["schaden"] == 3 + 1


def test_the_preview_weighs_the_defence_a_reaction_against_none():
    """Before the roll, whether the defender should react: the chance of a hit and the damage without the
    defence (icepool: no defence dice), and what the reaction costs the next ones this round (Runden)."""
    from .test_combat import close, ice_chain
    a = figure("Alrik", fertigkeiten=["Schwerter 6"], waffen=["Langschwert (Schwerter, KK, GS 5)"])   # 11 dice
    ork = figure("Ork", ["Reaktionen: 1"], fertigkeiten=["Verteidigung 3"])                           # KO 4
    preview = adz.combat.kampfplan(a, ork).res.preview
    assert preview["p_trifft_ohne_verteidigung"] == pytest.approx(1 - (2 / 3) ** 11, abs=1e-12)
    assert close(preview["schaden_ohne_verteidigung"], ice_chain(11, 0, 5, 0, 4))
    assert preview["p_trifft"] < preview["p_trifft_ohne_verteidigung"]
    assert preview["reaktion"] == ["Verteidigt Ork, ist es die 2. Reaktion dieser Runde: jede weitere hat nur noch "
                                   "1/4 der Würfel."]
    assert "p_trifft_ohne_verteidigung" not in adz.combat.kampfplan(a, ork, keine_verteidigung=True).res.preview
