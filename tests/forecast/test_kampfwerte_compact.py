"""Kampfwerte's compact model: each turn against the engine's procedures over every die they roll
(``brute_force.leaves``), so the model is the engine's rule; whole fights below."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import product

import pytest

from rpgkernel import Campaign, rules
from rpgkernel.dice import Roller
from rpgkernel.forecast import MAX_ROUNDS, ForecastError
from rpgkernel.resolve.lines import line
from rpgkernel.resolve.run import carry_out
from rpgkernel.rules import limits
from rpgkernel.rules.figure import view
from rpgkernel.rules.tactics import Fight
from rpgkernel.state import model
from rpgkernel.state.transaction import Transaction

from brute_force import leaves

from .test_sampled import assert_agree, assert_within

icepool = pytest.importorskip("icepool")

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


def stand(record):
    """A combatant's record read as the model's state, written anew here: LP, AD, the level of a
    condition ``Finte +N``, ``niedergeworfen``."""
    conditions = record.get("conditions") or {}
    finte = [int(c[len("Finte +"):]) for c in conditions if c.startswith("Finte +")]
    return (record["resources"]["LP"]["value"], record["resources"]["AD"]["value"], sum(finte),
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
    assert any(kael[2] == 2 for kael, _ in first)
    assert_same(modelled(c, "Kael", "Ork"), first)
    c.add_condition("Kael", "Finte +2")
    then = played(c.state, "Kael", "Ork")
    assert {kael[2] for kael, _ in then} == {0} and len(then) == 5   # defended, or W4 + 2 + 4 - 2 LP
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
    assert down == (5, 6, 0, True) and compact.standing(1, down) and not compact.standing(1, (0, 6, 0, True))
    assert_same(modelled(c, "Kael", "Ork", kael, down), played(c.state, "Kael", "Ork"))
    [(p, after, same)] = compact.turn(1, 0, down, kael)
    enc.next_turn()
    assert (enc.round, enc.current) == (2, "Kael")   # the orc's turn passed
    assert (p, after, same) == (1.0, stand(model.seen_by_rules(c.state, "Ork", "Gefecht")), kael)


# -- a duel in icepool, written anew from the seed and the GM's rule data (regeln.yaml) -----------------
# Kael: Finte 2 while none is pending, else Gezielte Attacke 2 (+2 damage per level), each 2 AD, W6+2; the
# orc: Wuchtschlag 2 (2 AD), W6+3, its target knocked down unless it parries against 8. A state is (whose
# turn: 0 Kael, 1 the orc, -1 nobody can pay any more; Kael's LP, AD, pending Finte, knocked down; the orc's
# LP, AD).

DUEL_KAEL = {**TALENTE, "AD": 14, "LP": 8, "angriff": 3, "parade": 2, "ruestung": 1,
             "manoever": ["Finte 2", "Gezielte Attacke 2"]}
DUEL_ORK = {**TALENTE, "AD": 12, "LP": 9, "angriff": 3, "parade": 1, "ruestung": 2, "manoever": ["Wuchtschlag 2"]}
DUEL_DATA = {"alle": {"abwehr": "W10>=9", "schaden": "W6+2"},
             "figuren": {"Kael": {"manöver": ["Finte 2", "Gezielte Attacke 2"]},
                         "Ork": {"manöver": "Wuchtschlag", "schaden": "W6+3", "abwehr": 0.25}}}


def p_test(dice: int, sw: int = 7) -> Fraction:
    """P(a test of ``dice`` W10 against ``sw`` has 2 net successes): from ``sw`` one, the ten two, a 1
    takes one away, each throw counted."""
    hits = sum(sum(2 if f == 10 else -1 if f == 1 else int(f >= sw) for f in faces) >= 2
               for faces in product(range(1, 11), repeat=dice))
    return Fraction(hits, 10 ** dice)


KAEL_HITS = p_test(3) * Fraction(8, 10)     # Kael's test, not defended (W10>=9)
ORK_HITS = p_test(3) * Fraction(3, 4)       # the orc's, not defended (0.25)
STANDS = p_test(2, 8)                       # Kael parries the Wuchtschlag 2


def die(chances: dict) -> icepool.Die:
    """A die of the outcomes with their exact chances (whole weights over their common denominator)."""
    common = math.lcm(*(q.denominator for q in chances.values()))
    return icepool.Die({o: int(q * common) for o, q in chances.items() if q})


def duel_turn(state):
    whose, lk, adk, fk, nk, lo, ado = state
    if lk <= 0 or lo <= 0:
        return state
    if max(adk, ado) < 2 and not nk:                # nobody can pay a manoeuvre: nothing changes any more
        return -1, lk, adk, fk, nk, lo, ado
    out: dict = {}

    def add(q, *after):
        out[after] = out.get(after, 0) + q

    if whose == 0 and (nk or adk < 2):              # knocked down, the turn is lost and Kael stands up
        add(1, 1, lk, adk, fk, False, lo, ado)
    elif whose == 0 and not fk:                     # a Finte: the next attack has 6 successes
        add(KAEL_HITS, 1, lk, adk - 2, 2, nk, lo, ado)
        add(1 - KAEL_HITS, 1, lk, adk - 2, 0, nk, lo, ado)
    elif whose == 0:                                # with the Finte: no test, only the defence
        add(Fraction(2, 10), 1, lk, adk - 2, 0, nk, lo, ado)
        for w in range(1, 7):                       # W6 + 2, the Finte's +2, +4 for the level, armour 2
            add(Fraction(8, 10) / 6, 1, lk, adk - 2, 0, nk, max(0, lo - max(0, w + 2 + 2 + 4 - 2)), ado)
    elif ado < 2:
        add(1, 0, lk, adk, fk, nk, lo, ado)
    else:
        add(1 - ORK_HITS, 0, lk, adk, fk, nk, lo, ado - 2)
        for w in range(1, 7):                       # W6 + 3 against armour 1
            for down, q in ((nk, STANDS), (True, 1 - STANDS)):
                add(ORK_HITS / 6 * q, 0, max(0, lk - max(0, w + 3 - 1)), adk, fk, down, lo, ado - 2)
    return die(out)


def duel_end(turns):
    """The duel after ``turns`` turns: Kael first with 55 in 100 (both W10 + 9; a tie goes to him, the
    player character)."""
    start = die({(0, 8, 14, 0, False, 9, 12): Fraction(55, 100), (1, 8, 14, 0, False, 9, 12): Fraction(45, 100)})
    return icepool.map(duel_turn, start, repeat=turns)


def chance(end, test) -> float:
    return float(Fraction(sum(q for o, q in end.items() if test(o)), end.denominator()))


def duel(tmp_path):
    c = Campaign.open(tmp_path / "duell.sqlite")
    c.set_ruleset("kampfwerte")
    enc = c.new_encounter("Gefecht")
    enc.add("Kael", side="Spieler", sheet=DUEL_KAEL)
    enc.add("Ork", side="Feinde", sheet=DUEL_ORK)
    c.set_data("prognose", DUEL_DATA)
    return enc


def test_a_duel_exactly_as_icepool_finds_it(tmp_path):
    """Initiative still to roll, a Finte pending, AD spent until none is left, Kael knocked down and
    losing his turn: the exact chain against the duel written in icepool (200 turns: the forecast's 100
    rounds, long after nobody can pay a manoeuvre)."""
    f = duel(tmp_path).forecast()
    assert (f.method, f.weg) == ("exakt", "exakt")
    end = duel_end(2 * MAX_ROUNDS)
    won, lost = chance(end, lambda o: o[5] <= 0), chance(end, lambda o: o[1] <= 0)
    assert 0.2 < won < 0.8 and 0.2 < lost < 0.8
    assert f.win["Spieler"].p == pytest.approx(won, abs=1e-9)
    assert f.win["Feinde"].p == pytest.approx(lost, abs=1e-9)
    assert f.draw.p == pytest.approx(1 - won - lost, abs=1e-9) and f.draw.p > 0.01
    assert f.figures["Ork"].falls.p == pytest.approx(won, abs=1e-9)
    for name, key, slot in (("Kael", "LP", 1), ("Kael", "AD", 2), ("Ork", "LP", 5), ("Ork", "AD", 6)):
        assert f.figures[name].resources[key].value == pytest.approx(end.marginals[slot].mean(), abs=1e-9)
    for r in (1, 2, 3):   # a round is two turns
        assert f.rounds.p_at_most(r) == pytest.approx(chance(duel_end(2 * r), lambda o: min(o[1], o[5]) <= 0),
                                                      abs=1e-9)


@pytest.mark.slow
def test_exact_and_compact_within_the_procedure_paths_interval(tmp_path):
    enc = duel(tmp_path)
    exact, played = enc.forecast(), enc.forecast(n=300, seed=3, weg="prozeduren")
    fast = enc.forecast(n=20_000, seed=3)
    assert (exact.weg, played.weg, played.fights) == ("exakt", "prozeduren", 300)
    for side in exact.win:
        assert played.win[side].low <= exact.win[side].p <= played.win[side].high
        assert fast.win[side].low <= exact.win[side].p <= fast.win[side].high
    for name, fig in exact.figures.items():
        assert played.figures[name].falls.low <= fig.falls.p <= played.figures[name].falls.high
        for key in ("LP", "AD"):
            got = played.figures[name].resources[key]
            assert abs(got.value - fig.resources[key].value) <= got.margin, (name, key)
    assert_agree(played, fast)


@pytest.mark.slow
def test_two_against_one_as_the_procedures_play_it(tmp_path):
    """Kael feints and strikes, Mira stabs with Schattenhieb, the orc knocks down with Wuchtschlag 1; the
    orc attacks the most dangerous first (its threat reads the AD left and a pending Finte)."""
    c = Campaign.open(tmp_path / "k.sqlite")
    c.set_ruleset("kampfwerte")
    enc = c.new_encounter("Gefecht")
    enc.add("Kael", side="Spieler", sheet={**DUEL_KAEL, "AD": 14})
    enc.add("Mira", side="Spieler", sheet={**TALENTE, "AD": 10, "LP": 6, "angriff": 3, "parade": 1, "ruestung": 1,
                                            "waffen": ["Dolch"], "manoever": ["Schattenhieb 2"]})
    enc.add("Ork", side="Feinde", sheet={**DUEL_ORK, "AD": 12, "LP": 12, "angriff": 4, "manoever": ["Wuchtschlag 1"]})
    figuren = {**DUEL_DATA["figuren"], "Mira": {"manöver": "Schattenhieb"}}
    c.set_data("prognose", {**DUEL_DATA, "figuren": {**figuren, "Ork": {**figuren["Ork"], "manöver": "Wuchtschlag 1"}}})
    played = enc.forecast(n=250, seed=8, weg="prozeduren", zielwahl="gefährlichste")
    fast = enc.forecast(n=20_000, seed=8, zielwahl="gefährlichste")
    assert_agree(played, fast)
    assert all(0.2 < f.falls.p < 0.8 for f in fast.figures.values())


def test_a_fight_the_model_does_not_cover_plays_the_procedures(tmp_path):
    """A Finte the GM let lapse at the round's end; AD for many more states than ``MAX_PAARE_DUELL``
    (a duel's bound of pairs)."""
    enc = duel(tmp_path)
    enc.start(order=["Kael", "Ork"])
    enc.campaign.add_condition("Kael", "Finte +2", rounds=1)
    f = enc.forecast(n=3, seed=1)
    assert (f.method, f.weg, f.fights) == ("simuliert", "prozeduren", 3)
    with pytest.raises(ForecastError, match="kein kompaktes Modell"):
        enc.forecast(weg="kompakt")
    enc.campaign.remove_condition("Kael", "Finte +2")
    enc.campaign.add_condition("Kael", "Finte +2")   # pending until his next attack, as the engine sets it
    assert enc.forecast(n=3, seed=1).weg == "kompakt"
    enc.campaign.set_sheet("Kael", {**DUEL_KAEL, "AD": 999}, encounter="Gefecht")
    assert enc.forecast(n=3, seed=1).weg == "prozeduren"


#: the example notebook's Kael and orc, with the data a forecast of its fight takes (the forecast
#: benchmark's ``FOR_A_FORECAST``: Kael feints at level 3 and strikes with Wuchtschlag 2, so does the orc)
NOTEBOOK_KAEL = {"AUFMERKSAMKEIT": 4, "GEWANDTHEIT": 4, "INSTINKT": 3, "HEIMLICHKEIT": 3, "ruestungsbehinderung": 1,
                 "AD": 12, "LP": 20, "NK": 1, "angriffsstufe": 2, "angriff": 5, "parade": 4, "ruestung": 2,
                 "waffen": ["Langschwert"], "manoever": ["Finte 3", "Konterparade 2", "Wuchtschlag 2"]}
NOTEBOOK_ORK = {"AUFMERKSAMKEIT": 3, "GEWANDTHEIT": 3, "INSTINKT": 4, "HEIMLICHKEIT": 1, "AD": 10, "LP": 22, "NK": 1,
                "angriffsstufe": 2, "angriff": 5, "parade": 4, "ruestung": 3, "waffen": ["Axt"],
                "manoever": ["Riposte 2", "Wuchtschlag 2"]}
NOTEBOOK_DATA = {"alle": {"abwehr": "W10>=8", "schaden": "2W6+2"},
                 "figuren": {"Kael": {"manöver": ["Finte 3", "Wuchtschlag 2"]}, "Ork": {"manöver": "Wuchtschlag 2"}}}


def test_the_notebooks_duel_is_exact_on_the_model(tmp_path):
    """Its states bound some 600.000 pairs, more than ``MAX_PAARE``: before, no model and the procedure
    path (minutes); a duel is solved over the pairs it reaches (some 20.000), within the procedure
    path's 95 % intervals (seeded)."""
    c = Campaign.open(tmp_path / "k.sqlite")
    c.set_ruleset("kampfwerte")
    enc = c.new_encounter("Felsenbach")
    enc.add("Kael", side="Spieler", sheet=NOTEBOOK_KAEL)
    enc.add("Ork", side="Räuber", sheet=NOTEBOOK_ORK)
    c.set_data("prognose", NOTEBOOK_DATA)
    exact = enc.forecast()
    assert (exact.method, exact.weg) == ("exakt", "exakt")
    assert exact.win["Spieler"].p + exact.win["Räuber"].p + exact.draw.p == pytest.approx(1, abs=1e-12)
    assert 0.01 < exact.win["Räuber"].p < 0.9 and exact.draw.p > 0.1   # AD run out: nobody can strike any more
    played = enc.forecast(n=120, seed=4, weg="prozeduren")
    assert_within(exact, played, keys=("LP", "AD"))
