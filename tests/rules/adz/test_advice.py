"""The advice on the open choices of AdZ: the luck pool (Glückspool: no luck, or luck on each offered roll,
with the chance of the test, of winning an opposed test, of the hit, the damage or the mental damage and
the chance to fall, each way) and the defence (Verteidigungswurf: defend or not, with the chance of a hit,
the damage, the chance to fall and what it costs the next reactions); against brute force over every
face of every die still to roll (the luck dice, and what the changed result newly calls for), for small
pools."""

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


OUT = {"bewusstlos", "dem Tod nahe", "jenseits der letzten Stufe"}


def falls(res, name):
    """Whether the resolution leaves ``name`` out of the fight (a condition of the last steps)."""
    return any(e.on and e.figure == name and e.condition in OUT for e in res.effects)


def agrees(procedure, dice, feature, taken=luck_of):
    """Every option of every holder's advice against brute force: ``feature(resolution)`` -> (damage or
    None, {chance name: bool}); ``taken(option)``: what the procedure is given for it."""
    opened = procedure(Roller(dice=dice), None)
    assert opened.open and opened.advice
    for advice in opened.advice:
        for option in advice.options:
            damage, chances = {}, {}
            for p, res in leaves(lambda more: procedure(Roller(dice=[*dice, *more]), taken(option))):
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
    return res.outcome["schaden"], {"Ork getroffen": res.outcome["treffer"], "Ork fällt": falls(res, "Ork")}


def test_luck_on_a_missed_attack_calls_for_the_defence_and_the_resistance():
    advice = agrees(lambda roller, luck: adz.combat.angriff(angreifer(1), verteidiger(0), roller, glueck=luck), [1, 1], hit)
    [alrik] = advice
    assert alrik.objective == "Ork treffen, mit möglichst viel Schaden" and alrik.reads == ("Alrik",)
    none, lucky = alrik.options
    assert (none.label, lucky.label) == ("Kein Glück einsetzen", "Glück auf angriff (1 Würfel)")
    assert dict(none.chances) == {"Ork getroffen": 0.0, "Ork fällt": 0.0} and none.damage.pmf() == {0: 1.0}
    # one luck die: a success (1/3), then the Ork's one defence die fails (2/3): a hit
    assert dict(lucky.chances)["Ork getroffen"] == pytest.approx(1 / 3 * 2 / 3)
    assert lucky.notes == ("Glückspool Alrik: danach 0",)


def test_after_a_hit_each_side_may_spend_luck_where_it_helps_it():
    # attack 5, 6: two successes; defence 1: none; resistance 1: none; damage 3 + 2 = 5
    advice = agrees(lambda roller, luck: adz.combat.angriff(angreifer(1), verteidiger(1), roller, glueck=luck),
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


def hauer():   # 2 attack dice (KK 1 + Schwerter 1), Zweihänder GS 10: two successes take a fresh Ork out
    return figure("Alrik", KK=1, fertigkeiten=["Schwerter 1"], waffen=["Zweihänder (Schwerter, KK, GS 10)"], luck=0)


def test_luck_after_a_hit_that_takes_the_target_out():
    # attack 5, 6: two successes; defence 1, resistance 1: damage 10 + 2 = 12, the Ork's twelve free steps
    advice = agrees(lambda roller, luck: adz.combat.angriff(hauer(), verteidiger(1), roller, glueck=luck), [5, 6, 1, 1],
                    hit)
    [none, defence, resist] = advice[0].options
    assert dict(none.chances)["Ork fällt"] == 1.0
    assert dict(resist.chances)["Ork fällt"] == pytest.approx(2 / 3)    # the luck die fails
    assert dict(defence.chances)["Ork fällt"] == pytest.approx(2 / 3)


def betty(luck):   # 1 die (KK 1), Mindestwurf 1
    return figure("Betty", KK=1, luck=luck)


def opposed(gleichwertig):
    def run(roller, luck):
        return adz.core.vergleich(figure("Alrik", GE=2, luck=2), betty(1), roller, adz.core.Seite(attribut="GE"),
                             adz.core.Seite(attribut="KK"), gleichwertig=gleichwertig, glueck=luck)
    return run


@pytest.mark.parametrize("gleichwertig", [False, True])
def test_luck_on_an_opposed_test(gleichwertig):
    """Alrik (2 dice) against Betty (1 die), Mindestwurf 1 each: whoever did not win may add luck dice."""
    def feature(res):
        won = {f"{n} gewinnt": res.outcome["sieger"] == n for n in ("Alrik", "Betty")}
        if gleichwertig:
            won["unentschieden"] = res.outcome["ergebnis"] == "unentschieden"
        return None, {**won, "keine Probe gelingt": res.outcome["ergebnis"] == "keiner"}
    # Alrik 5, 1: one success; Betty 6: one; a tie: the initiator wins, or nobody between equal actions
    advice = agrees(opposed(gleichwertig), [5, 1, 6], feature)
    assert {a.who for a in advice} == ({"Alrik", "Betty"} if gleichwertig else {"Betty"})
    betty_s = next(a for a in advice if a.who == "Betty")
    assert betty_s.objective == "Die vergleichende Probe gewinnen"
    assert dict(betty_s.options[1].chances)["Betty gewinnt"] == pytest.approx(1 / 3)   # her luck die
    assert [name for name, _ in betty_s.options[0].chances] == (
        ["Alrik gewinnt", "Betty gewinnt"] + (["unentschieden"] if gleichwertig else []) + ["keine Probe gelingt"])


def magierin(luck, **kw):   # Feuer 1 + erschaffen 1: 2 dice; WK 1: one drain die
    return figure("Magierin", WK=1, magiebereiche=["Feuer 1"], erschaffen=1, luck=luck, **kw)


def spell(caster, target=None, kp=3):
    def run(roller, luck):
        return adz.zaubern(caster, roller, glueck=luck, bereich="Feuer", technik="erschaffen", mw=1, kp=kp,
                           ziel=target)
    return run


def drained(res):
    name = res.actors[0]
    key = "zauber wirkt" if res.targets else "zauber gelingt"
    return res.outcome["geistiger_schaden"], {key: res.outcome["wirkt"], f"{name} fällt": falls(res, name)}


def test_luck_on_a_failed_spell_counts_the_drain_its_surplus_brings():
    """The test fails (1, 1) and the drain die fails: luck on the test (two dice) may make it succeed, and
    each surplus success is one more drain die (Krafteinsatz); luck on the drain roll lowers the damage."""
    advice = agrees(spell(magierin(2)), [1, 1, 1], drained)
    [mine] = advice
    assert mine.objective == "Feuer erschaffen wirkt, mit möglichst wenig geistigem Schaden"
    none, on_test, on_drain = mine.options
    assert none.damage.pmf() == {3: 1.0} and dict(none.chances)["zauber gelingt"] == 0.0
    assert dict(on_test.chances)["zauber gelingt"] == pytest.approx(1 - (2 / 3) ** 2)
    # two luck successes (1/9) leave one surplus success: one more drain die, a success with 1/3
    assert on_test.damage.pmf() == pytest.approx({3: 1 - 1 / 27, 2: 1 / 27})
    assert on_drain.damage.pmf() == pytest.approx({3: 4 / 9, 2: 4 / 9, 1: 1 / 9})


def test_luck_on_the_saving_throw_and_on_a_drain_that_takes_the_caster_out():
    # the test 5, 1 succeeds (1 success, none surplus); the save 6 ties it (Ork WK 1: one die): the caster
    # initiated, the spell works; the drain die 1 fails: 12 KP, all twelve mental steps
    advice = agrees(spell(magierin(1), figure("Ork", WK=1, luck=1), kp=12), [5, 1, 6, 1], drained)
    assert [(a.who, a.objective) for a in advice] == [
        ("Ork", "Feuer erschaffen widerstehen"),
        ("Magierin", "Feuer erschaffen wirkt, mit möglichst wenig geistigem Schaden")]
    orks, hers = advice
    assert [o.label for o in orks.options] == ["Kein Glück einsetzen", "Glück auf rettungswurf (1 Würfel)"]
    assert dict(orks.options[1].chances)["zauber wirkt"] == pytest.approx(2 / 3)
    assert dict(hers.options[0].chances) == {"zauber wirkt": 1.0, "Magierin fällt": 1.0}
    assert dict(hers.options[1].chances)["Magierin fällt"] == pytest.approx(2 / 3)


def test_luck_on_the_drain_of_a_renewed_spell():
    def renew(roller, luck):   # 12 KP against one drain die: all twelve mental steps unless luck helps
        return adz.magic.erneuern(magierin(1), roller, kp=12, name="Licht", glueck=luck)
    advice = agrees(renew, [1], lambda res: (res.outcome["geistiger_schaden"],
                                             {"Magierin fällt": falls(res, "Magierin")}))
    [none, lucky] = advice[0].options
    assert advice[0].objective == "Möglichst wenig geistiger Schaden"
    assert none.damage.pmf() == {12: 1.0} and dict(none.chances) == {"Magierin fällt": 1.0}
    assert lucky.damage.pmf() == pytest.approx({12: 2 / 3, 11: 1 / 3})


# -- the defence: a reaction the target decides after the attack roll ------------------------------------
def defended(option):
    """What the procedure is given for an option of the defence advice: whether it defends, and how."""
    [take] = option.takes
    return take.key != DECLINE, dict(take.options)


def defence(attacker, ork):
    def run(roller, taken):
        defends, how = taken if taken is not None else (None, {})
        return adz.combat.angriff(attacker, ork, roller, verteidigen=defends, glueck=[] if taken else None, **how)
    return run


def test_the_defence_is_asked_after_the_attack_roll_with_its_consequences():
    ork = figure("Ork", GE=1, KO=1, luck=0, spezialisierungen=["Parade 1"])
    advice = agrees(defence(hauer(), ork), [5, 6], hit, defended)          # two attack successes
    [asked] = advice
    assert asked.key == "verteidigen" and asked.who == "Ork" and asked.reads == ("Alrik", "Ork")
    assert asked.objective == "Nicht getroffen werden, sonst möglichst wenig Schaden"
    [plain, parade, none] = asked.options
    assert [o.label for o in asked.options] == ["Verteidigen (1 W6)", "Verteidigen mit Parade (2 W6)",
                                                 "Nicht verteidigen"]
    assert [x.options for o in asked.options for x in o.takes] == [{}, {"verteidigung": "parade"}, {}]
    # without a defence: 10 + 2 = 12, the Ork falls unless its resistance die succeeds
    assert dict(none.chances) == pytest.approx({"Ork getroffen": 1.0, "Ork fällt": 2 / 3})
    # one die cannot cancel both successes, two may (1/9)
    assert dict(plain.chances)["Ork getroffen"] == 1.0
    assert dict(parade.chances)["Ork getroffen"] == pytest.approx(1 - 1 / 9)
    assert dict(plain.chances)["Ork fällt"] == pytest.approx(2 / 3 * 2 / 3)
    assert plain.notes == ("Ork: 1. Reaktion dieser Runde, jede weitere nur noch mit 1/2 der Würfel",)
    assert none.notes == ("Ork: keine Reaktion, die nächste dieser Runde mit allen Würfeln",)


def test_the_defence_after_a_reaction_is_halved_and_says_what_is_left():
    ork = figure("Ork", ["Reaktionen: 1"], GE=3, KO=1, luck=0)        # 3 defence dice, halved: 2
    [asked] = agrees(defence(angreifer(0), ork), [5, 1], hit, defended)
    plain, none = asked.options
    assert plain.label == "Verteidigen (2 W6)"
    assert plain.notes == ("Ork: 2. Reaktion dieser Runde, jede weitere nur noch mit 1/4 der Würfel",)
    assert none.notes == ("Ork: keine Reaktion, die nächste dieser Runde mit 1/2 der Würfel",)


def test_no_question_where_the_attack_missed_or_the_line_decided():
    ork = figure("Ork", GE=1, KO=1, luck=0)
    assert not adz.combat.angriff(angreifer(0), ork, Roller(dice=[1, 1]), verteidigen=None).open   # a miss
    opened = adz.combat.angriff(angreifer(0), ork, Roller(dice=[5, 1]), verteidigen=None)
    assert [c.key for c in opened.choices] == ["verteidigen"] and opened.outcome == {"angriff": 1}
    assert opened.summary == "Alrik greift Ork mit 1 Erfolg an; Ork kann sich verteidigen."
    assert not opened.effects
    declined = adz.combat.angriff(angreifer(0), ork, Roller(dice=[5, 1, 1]), verteidigen=False, glueck=[])
    assert declined.outcome["verteidigung"] is None and not any(e.condition for e in declined.effects)
    assert any(s.text == "Ork verteidigt sich nicht (keine Reaktion)." for s in declined.steps)


def test_the_lines_of_the_defence_and_the_luck_that_calls_for_it(tmp_path):
    with Campaign.open(tmp_path / "k.sqlite") as camp:
        camp.set_ruleset("adz")
        camp.add_character("Alrik", dict(angreifer(1).sheet))
        camp.add_character("Ork", dict(verteidiger(1).sheet))
        for decided in ("verteidigt", "verteidigung=ausweichen", "entschieden"):   # the line decides
            res = rpgkernel.resolve(f"angriff Alrik -> Ork {decided}", campaign=camp, dice=[5, 1, 6])
            assert "verteidigen" not in [c.key for c in res.choices] and res.outcome["verteidigung"] == 1
        opened = rpgkernel.resolve("angriff Alrik -> Ork", campaign=camp, dice=[5, 1])
        [advice] = opened.advice
        assert [o.lines for o in advice.options] == [("verteidigen Ork",), ("verzicht Ork",)]
        closed = rpgkernel.resolve("verzicht Ork", campaign=camp, dice=[1])    # the resistance die
        assert closed.open and closed.outcome["verteidigung"] is None and closed.outcome["schaden"] == 3 + 1
        done = rpgkernel.resolve("verzicht Alrik", campaign=camp)
        assert not done.open and not [e for e in done.effects if e.condition]    # no reaction
        assert camp.figure("Ork").resources["körperlich"]["value"] == 12 - 4


def test_the_line_of_an_option_is_the_glueck_line(tmp_path):
    with Campaign.open(tmp_path / "k.sqlite") as camp:
        camp.set_ruleset("adz")
        camp.add_character("Alrik", dict(angreifer(1).sheet))
        camp.add_character("Ork", dict(verteidiger(1).sheet))
        opened = rpgkernel.resolve("angriff Alrik -> Ork", campaign=camp, dice=[1, 1])
        [advice] = opened.advice
        assert [o.lines for o in advice.options] == [("verzicht Alrik",), ("glück Alrik wurf=angriff",)]
        assert advice.note.endswith("Wird ein Verteidigungswurf neu nötig, ist angenommen, dass Ork sich verteidigt.")
        # the pool is GL 3: three luck dice, one success: a hit the Ork is now asked to defend against
        asked = rpgkernel.resolve(advice.options[1].lines[0], campaign=camp, dice=[6, 1, 1])
        assert [c.key for c in asked.choices] == ["verteidigen"]
        # its defence and resistance die fail
        closed = rpgkernel.resolve("verteidigen Ork", campaign=camp, dice=[1, 1])
        assert not closed.open and closed.outcome["treffer"] and closed.outcome["schaden"] == 3 + 1


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
