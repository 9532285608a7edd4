"""AdZ: tests, opposed tests and the luck pool, with given dice (seed 004)."""

import math

import icepool
import pytest
from hypothesis import given, strategies as st

from rpgkernel.dice import Roller
from rpgkernel.rules import adz
from rpgkernel.rules.adz import AdZ
from rpgkernel.rules.adz.core import Seite
from rpgkernel.rules.adz import sheet as bogen
from rpgkernel.rules.figure import view
from rpgkernel.rules.sheet import SheetError

BASE = {"KK": 5, "KO": 4, "GE": 6, "FF": 3, "KL": 3, "WK": 4, "IN": 5, "CH": 2, "GL": 3}


def figure(name="Alrik", conditions=(), physical=None, mental=None, luck=None, daten=None, **sheet):
    """A campaign-like record's view; ``physical``/``mental``: free steps left, ``luck``: the pool now;
    the sheet checked as the GM's ``daten`` (default: the defaults) have it."""
    checked = bogen.build(daten or adz.EINSTELLUNGEN.defaults()).validate({**BASE, **sheet})
    res = AdZ().sheet.resources(checked, {})
    for key, value in (("körperlich", physical), ("geistig", mental), ("Glückspool", luck)):
        if value is not None:
            res[key]["value"] = value
    return view({"name": name, "sheet": checked, "resources": res, "conditions": {c: {} for c in conditions}})


def successes(n, mw):
    """icepool: P(at least mw successes on n W6, success on 5 or 6)."""
    die = n @ (icepool.d6 >= 5)
    return sum(q for o, q in die.items() if o >= mw) / die.denominator()


# -- tests ------------------------------------------------------------------------------
@given(st.integers(0, 40), st.integers(1, 15))
def test_p_success_equals_icepool(n, mw):
    expected = successes(n, mw) if mw <= n else 0.0
    assert adz.core.p_gelingt(n, mw) == pytest.approx(expected, abs=1e-12)


@given(st.integers(1, 12), st.integers(1, 20))
def test_an_allowed_impossible_test_needs_every_die(n, mw):
    expected = successes(n, n) if mw > n else successes(n, mw)
    assert adz.core.p_gelingt(n, mw, zulassen=True) == pytest.approx(expected, abs=1e-12)


def test_a_skill_test_pools_attribute_skill_and_specialisation():
    alrik = figure(fertigkeiten=["Klettern 4"], spezialisierungen=["Felswände 2"])
    res = adz.probe(alrik, Roller(dice=[5, 6, 1, 2, 3, 4, 5, 1, 1, 2, 3, 4]), attribut="GE", fertigkeit="Klettern",
                    spezialisierung="Felswände", mw=3)
    assert res.outcome == {"gelungen": True, "erfolge": 3, "würfel": 12, "mindestwurf": 3}
    assert "GE 6 + Klettern 4 + Felswände 2 = 12 W6" in res.steps[0].text
    assert res.preview["p_gelingt"] == pytest.approx(successes(12, 3), abs=1e-12)
    assert not res.open


def test_an_attribute_test_takes_the_guideline_mindestwurf():
    res = adz.probe(figure(), Roller(dice=[5, 5, 1, 1, 1]), attribut="KK", schwierigkeit="schwierig")
    assert res.outcome["mindestwurf"] == 3 and res.outcome["erfolge"] == 2 and not res.outcome["gelungen"]
    with pytest.raises(adz.AdzError, match="keinen Mindestwurf bei einer Attributsprobe"):
        adz.probe(figure(), Roller(dice=[]), attribut="KK", schwierigkeit="Herausforderung")
    res = adz.probe(figure(fertigkeiten=["Reiten 1"]), Roller(dice=[1] * 7), attribut="GE", fertigkeit="Reiten",
                    schwierigkeit="extrem schwierig")
    assert res.outcome["mindestwurf"] == 5


def test_a_related_skill_raises_the_mindestwurf():
    res = adz.probe(figure(fertigkeiten=["Reiten 3"]), Roller(dice=[5] * 9), attribut="GE", fertigkeit="Reiten",
                    mw=2, verwandt=2)
    assert res.outcome["mindestwurf"] == 4
    with pytest.raises(adz.AdzError, match="mindestens 1"):
        adz.probe(figure(fertigkeiten=["Reiten 3"]), Roller(dice=[]), attribut="GE", fertigkeit="Reiten", mw=2,
                  verwandt=-1)


def test_supporting_skills_and_areas_give_a_third_rounded_up():
    f = figure(fertigkeiten=["Klettern 2", "Akrobatik 4"], magiebereiche=["Luft 7"])
    res = adz.probe(f, Roller(dice=[1] * 13), attribut="GE", fertigkeit="Klettern",
                    unterstuetzung=["Akrobatik", "Luft"], mw=1)
    assert res.outcome["würfel"] == 6 + 2 + math.ceil(4 / 3) + math.ceil(7 / 3)
    for bad in ("GE", "erschaffen"):
        with pytest.raises(SheetError, match="nur Fertigkeiten und Magiebereiche"):
            adz.probe(f, Roller(dice=[]), attribut="GE", fertigkeit="Klettern", unterstuetzung=[bad], mw=1)
    with pytest.raises(adz.AdzError, match="nicht bei Attributsproben"):
        adz.probe(f, Roller(dice=[]), attribut="GE", unterstuetzung=["Akrobatik"], mw=1)


def test_bonus_and_malus_dice():
    res = adz.probe(figure(), Roller(dice=[1] * 7), attribut="GE", bonus=3, malus=2, mw=1)
    assert res.outcome["würfel"] == 7


def test_an_impossible_test_is_not_rolled_unless_allowed():
    res = adz.probe(figure(), Roller(dice=[]), attribut="CH", mw=3)
    assert res.outcome == {"gelungen": False, "unmöglich": True, "würfel": 2, "mindestwurf": 3}
    assert res.preview["p_gelingt"] == 0.0 and not res.open
    res = adz.probe(figure(), Roller(dice=[5, 6]), attribut="CH", mw=3, zulassen=True)
    assert res.outcome["gelungen"] and res.preview["p_gelingt"] == pytest.approx(1 / 9)
    res = adz.probe(figure(luck=0), Roller(dice=[5, 4]), attribut="CH", mw=3, zulassen=True)
    assert not res.outcome["gelungen"]


def test_the_injury_malus_is_the_higher_of_both_tracks():
    # 3 physical steps marked: malus 1; 5 mental: malus 2 -> 2 dice less
    f = figure(physical=9, mental=7)
    assert adz.damage.verletzungsmalus(f) == 2
    res = adz.probe(f, Roller(dice=[1] * 4), attribut="GE", mw=1)
    assert res.outcome["würfel"] == 4 and "Verletzungsmalus 2" in res.steps[0].text
    assert adz.damage.verletzungsmalus(figure(physical=1)) == 6
    with pytest.raises(adz.AdzError, match="bewusstlos"):
        adz.probe(figure(mental=0), Roller(dice=[]), attribut="GE", mw=1)


def test_concentration_costs_a_die_per_maintained_spell():
    f = figure(conditions=["Konzentration: Licht", "Konzentration: Schild"])
    res = adz.probe(f, Roller(dice=[1] * 4), attribut="GE", mw=1)
    assert res.outcome["würfel"] == 4


@pytest.mark.parametrize("before, dice", [(0, 6), (1, 3), (2, 2), (3, 1), (5, 1)])
def test_reactions_halve_the_dice_rounded_up(before, dice):
    conditions = [f"Reaktionen: {before}"] if before else []
    res = adz.probe(figure(conditions=conditions), Roller(dice=[1] * dice), attribut="GE", mw=1, reaktion_=True)
    assert res.outcome["würfel"] == dice
    marks = {(e.condition, e.on, e.rounds) for e in res.effects}
    assert (f"Reaktionen: {before + 1}", True, 1) in marks
    assert (before == 0) or (f"Reaktionen: {before}", False, None) in marks


# -- the luck pool ----------------------------------------------------------------------
def test_a_failed_test_stays_open_for_the_luck_pool():
    res = adz.probe(figure(), Roller(dice=[5, 1, 1, 1, 1, 1]), attribut="GE", mw=2)
    assert res.open and res.choices[0].key == "glück" and res.choices[0].who == ("Alrik",)
    assert res.effects == []
    assert res.preview["p_gelingt_mit_glück"] == pytest.approx(successes(6 + 3, 2), abs=1e-12)
    closed = adz.probe(figure(), Roller(dice=[5, 1, 1, 1, 1, 1, 6, 1, 1]), attribut="GE", mw=2,
                       glueck=[{"figures": ["Alrik"]}])
    assert closed.outcome["gelungen"] and closed.outcome["erfolge"] == 2 and closed.outcome["würfel"] == 9
    assert [(e.resource, e.by) for e in closed.effects] == [("Glückspool", -1)]


def test_the_luck_pool_drops_by_one_per_use():
    decisions = [{"figures": ["Alrik"], "wurf": "probe"}] * 2
    res = adz.probe(figure(), Roller(dice=[1] * 6 + [1, 1, 1] + [6, 6]), attribut="GE", mw=2, glueck=decisions)
    assert res.outcome["würfel"] == 6 + 3 + 2 and res.outcome["erfolge"] == 2
    assert sum(e.by for e in res.effects if e.resource) == -2
    with pytest.raises(adz.AdzError, match="leer"):
        adz.probe(figure(luck=1), Roller(dice=[1] * 7), attribut="GE", mw=2, glueck=decisions)


def test_no_luck_offered_when_the_pool_is_empty_or_the_test_succeeded():
    assert not adz.probe(figure(luck=0), Roller(dice=[1] * 6), attribut="GE", mw=2).open
    assert not adz.probe(figure(), Roller(dice=[6, 6, 1, 1, 1, 1]), attribut="GE", mw=2).open


def test_refill_to_gl_or_a_value():
    res = adz.core.auffuellen([figure(luck=1), figure("Betty", luck=3)])
    assert [(e.figure, e.by) for e in res.effects] == [("Alrik", 2)]
    assert adz.core.auffuellen([figure(luck=1)], auf=5).effects[0].by == 4


# -- opposed tests ----------------------------------------------------------------------
def _opposed(a_dice, b_dice, a_mw=None, b_mw=None, gleichwertig=False, **kw):
    a, b = figure("Alrik", luck=0), figure("Ork", luck=0)
    dice = list(a_dice) + list(b_dice)
    return adz.core.vergleich(a, b, Roller(dice=dice), Seite("KK", bonus=len(a_dice) - 5, mw=a_mw),
                         Seite("KK", bonus=len(b_dice) - 5, mw=b_mw), gleichwertig=gleichwertig, **kw)


@pytest.mark.parametrize("a, b, a_mw, b_mw, same, result, winner", [
    ([5, 1, 1], [1, 1, 1], None, None, False, "sieg", "Alrik"),        # only Alrik succeeds
    ([1, 1, 1], [6, 1, 1], None, None, False, "sieg", "Ork"),
    ([5, 6, 1], [6, 1, 1], None, None, False, "sieg", "Alrik"),         # more successes
    ([5, 1, 1], [6, 5, 5], 1, 3, False, "sieg", "Ork"),
    ([5, 6, 1], [6, 6, 5], 1, 3, False, "sieg", "Ork"),                 # both succeed: 3 beat 2
    ([5, 6, 1], [6, 6, 1], 1, 3, False, "sieg", "Alrik"),               # Ork misses his Mindestwurf 3
    ([5, 1, 1], [6, 1, 1], None, None, False, "sieg", "Alrik"),         # equal: the initiator wins
    ([5, 1, 1], [6, 1, 1], None, None, True, "unentschieden", None),    # equal, symmetric: draw
    ([1, 1, 1], [1, 1, 1], None, None, False, "keiner", None),
    ([5, 1, 1], [6, 6, 1], 2, 1, False, "sieg", "Ork"),                 # Alrik misses his Mindestwurf 2
])
def test_opposed_tests(a, b, a_mw, b_mw, same, result, winner):
    res = _opposed(a, b, a_mw, b_mw, same)
    assert res.outcome["ergebnis"] == result and res.outcome["sieger"] == winner


def test_opposed_preview_is_exact():
    res = _opposed([1] * 4, [1] * 6, 1, 2)
    p = res.preview
    assert sum(p.values()) == pytest.approx(1.0, abs=1e-12)
    A, B = 4 @ (icepool.d6 >= 5), 6 @ (icepool.d6 >= 5)

    def outcome(x, y):
        ok_a, ok_b = x >= 1, y >= 2
        if ok_a != ok_b:
            return "sieg" if ok_a else "niederlage"
        if not ok_a:
            return "keiner"
        return "sieg" if x >= y else "niederlage"
    ref = icepool.map(outcome, A, B)
    total = ref.denominator()
    assert p["p_sieg"] == pytest.approx(ref.quantity("sieg") / total, abs=1e-12)
    assert p["p_niederlage"] == pytest.approx(ref.quantity("niederlage") / total, abs=1e-12)
    assert p["p_keiner_gelingt"] == pytest.approx(ref.quantity("keiner") / total, abs=1e-12)
    assert p["p_unentschieden"] == 0.0


def test_the_loser_may_spend_luck_in_an_opposed_test():
    a, b = figure("Alrik"), figure("Ork", luck=2)
    opened = adz.core.vergleich(a, b, Roller(dice=[5, 6, 1, 1, 1, 5, 1, 1, 1, 1]), Seite("KK"), Seite("KK"))
    assert opened.open and opened.choices[0].who == ("Ork",)
    res = adz.core.vergleich(a, b, Roller(dice=[5, 6, 1, 1, 1, 5, 1, 1, 1, 1, 6, 6]), Seite("KK"), Seite("KK"),
                        glueck=[{"figures": ["Ork"]}])
    assert res.outcome["sieger"] == "Ork" and res.outcome["erfolge"] == {"Alrik": 2, "Ork": 3}
    with pytest.raises(adz.AdzError, match="gegen sich selbst"):
        adz.core.vergleich(a, a, Roller(dice=[]), Seite("KK"), Seite("KK"))


SECTIONS = {"Probenart und Würfelanzahl", "Mindestwurf", "Erfolge", "Vergleichende Proben", "Glückspool", "Runden"}


def test_every_step_names_a_seed_section():
    steps = [*adz.probe(figure(fertigkeiten=["Reiten 3"]), Roller(dice=[1] * 9 + [1, 1, 1]), attribut="GE",
                        fertigkeit="Reiten", mw=2, verwandt=1, glueck=[{"figures": ["Alrik"]}]).steps,
             *_opposed([1] * 3, [1] * 3).steps]
    assert {s.rule for s in steps} <= SECTIONS
