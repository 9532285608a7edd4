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
from rpgkernel.forecast import ForecastError
from rpgkernel.resolve.run import carry_out
from rpgkernel.rules import limits
from rpgkernel.rules.figure import view
from rpgkernel.rules.osr import einrichten
from rpgkernel.state import model
from rpgkernel.state.transaction import Transaction

from .test_sampled import assert_agree, assert_within

icepool = pytest.importorskip("icepool")

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


# -- a duel in icepool: a state is (the Hauptmann's TP, the Ork's TP) at the end of a round ---------

# The example fighter matrix (data/angriffsmatrix.yaml): level 3-4 needs 12 against AC 6, the 1+1-HD
# orc (level 3, Angriffs- und Rettungswurfmatrizen für Monster) 14 against AC 4. The Hauptmann adds
# his strength bonus +1 to the W20 and his damage bonus +1 to the W8.
HIT_HAUPTMANN, HIT_ORK = 21 - (12 - 1), 21 - 14       # faces of the W20 that hit


def attack(hp, hits, damage, low):
    """The target's TP after one attack, with weights: ``hits`` faces of 20 hit for each of ``damage``
    (equally likely); the TP stop at ``low`` (a value already below stays)."""
    out: dict[int, int] = {hp: (20 - hits) * len(damage)}
    for x in damage:
        after = max(hp - x, min(hp, low))
        out[after] = out.get(after, 0) + hits
    return out


def duel_ends(low, first_round):
    """The end of the duel, a state being (the Hauptmann's TP, the Ork's TP, round 1 over): round 1 as
    ``first_round`` says ("Hauptmann", "Ork" first, or "beide" at once), then every round the sides
    roll 1W6 each: the higher side strikes first, and a figure at 0 TP or below is out and does not
    strike back; a tie (15 + 15 + 6 of 36) and both strike at once, each at the TP the round found
    (seed, Kampf; the engine's ``gleichzeitig``): both blows land, both may fall. Each attack's weights
    add up to 160, so every way through a round weighs 160 * 160."""
    def hauptmann_hits(ha, hb):
        return {(ha, b): w for b, w in attack(hb, HIT_HAUPTMANN, range(2, 10), low).items()}

    def ork_hits(ha, hb):
        return {(a, hb): w for a, w in attack(ha, HIT_ORK, range(1, 9), low).items()}

    def then(first, second, ha, hb):
        out: dict[tuple[int, int], int] = {}
        for s, w in first(ha, hb).items():
            for s2, w2 in (second(*s) if min(s) > 0 else {s: 160}).items():
                out[s2] = out.get(s2, 0) + w * w2
        return out

    def at_once(ha, hb):
        return {(a, b): wa * wb for a, wa in attack(ha, HIT_ORK, range(1, 9), low).items()
                for b, wb in attack(hb, HIT_HAUPTMANN, range(2, 10), low).items()}

    def rnd(state):
        ha, hb, begun = state
        if ha <= 0 or hb <= 0:
            return state
        if not begun:
            ways = [({"Hauptmann": then(hauptmann_hits, ork_hits, ha, hb), "Ork": then(ork_hits, hauptmann_hits, ha, hb),
                      "beide": at_once(ha, hb)}[first_round], 1)]
        else:
            ways = [(then(hauptmann_hits, ork_hits, ha, hb), 15), (then(ork_hits, hauptmann_hits, ha, hb), 15),
                    (at_once(ha, hb), 6)]
        out: dict[tuple, int] = {}
        for way, times in ways:
            for (a, b), w in way.items():
                out[a, b, True] = out.get((a, b, True), 0) + times * w
        return icepool.Die(out)
    return icepool.map(rnd, (HAUPTMANN["tp"], ORK["tp"], False), repeat="inf")


def chance(die, test) -> float:
    return float(Fraction(sum(q for o, q in die.items() if test(o)), die.denominator()))


# Seed, Kampf: "Die Partei mit der Initiative handelt zuerst"; a tie: the engine's rule (``gleichstand``
# "gleichzeitig", docs/osr.md "Auslegungen"): "beide Seiten handeln gleichzeitig".
@pytest.mark.parametrize("settings, orcs_first, dice", [
    ({}, False, [5, 2]), ({"untergrenzen": {"TP": -3}}, True, [3, 3]), ({}, False, [4, 4]), ({}, True, [1, 6]),
])
def test_a_duel_exactly_as_icepool_finds_it(tmp_path, settings, orcs_first, dice):
    """Side initiative every round (Kampf): 1W6 each, the higher side first, a tie at once; round 1 as
    rolled. Both falling together is an end of its own: a draw, and each figure falls in it."""
    figures = [("Hauptmann", "Gruppe", HAUPTMANN), ("Ork", "Orks", ORK)]
    c, enc = encounter(tmp_path, *figures[::-1] if orcs_first else figures, started=False, **settings)
    enc.start(dice=dice)
    f = enc.forecast()
    assert (f.method, f.weg) == ("exakt", "exakt")
    first = "beide" if dice[0] == dice[1] else enc.record["order"][0]
    end = duel_ends(settings.get("untergrenzen", {}).get("TP", 0), first)
    won, lost = chance(end, lambda o: o[1] <= 0 < o[0]), chance(end, lambda o: o[0] <= 0 < o[1])
    both = chance(end, lambda o: o[0] <= 0 and o[1] <= 0)
    assert 0.5 < won < 0.99 and 0.005 < both
    assert f.win["Gruppe"].p == pytest.approx(won, abs=1e-9)
    assert f.win["Orks"].p == pytest.approx(lost, abs=1e-9) and f.draw.p == pytest.approx(both, abs=1e-9)
    assert f.figures["Ork"].falls.p == pytest.approx(won + both, abs=1e-9)
    assert f.figures["Hauptmann"].falls.p == pytest.approx(lost + both, abs=1e-9)
    assert f.figures["Hauptmann"].resources["TP"].value == pytest.approx(end.marginals[0].mean(), abs=1e-9)
    assert f.figures["Ork"].resources["TP"].value == pytest.approx(end.marginals[1].mean(), abs=1e-9)
    fast = enc.forecast(n=20_000, seed=5, weg="kompakt")
    for side in f.win:
        assert fast.win[side].low <= f.win[side].p <= fast.win[side].high, side
    assert fast.draw.low <= both <= fast.draw.high and fast.draw.p > 0
    if "untergrenzen" in settings:
        assert min(o[1] for o in end.outcomes()) == -3


# -- whole fights against the procedure path ------------------------------------------------------

def test_exact_within_the_procedure_paths_interval(tmp_path):
    _, enc = encounter(tmp_path, ("Hauptmann", "Gruppe", HAUPTMANN), ("Ork", "Orks", ORK))
    exact, played = enc.forecast(), enc.forecast(n=400, seed=11, weg="prozeduren")
    assert (exact.weg, played.weg, played.fights) == ("exakt", "prozeduren", 400)
    assert_within(exact, played, ["TP"])


@pytest.mark.slow
def test_two_against_three_as_the_procedures_play_it(tmp_path):
    """Targets at random among the standing foes: the goblins' chances to fall are the model's."""
    _, enc = encounter(tmp_path, ("Hauptmann", "Gruppe", HAUPTMANN),
                       ("Wachmann", "Gruppe", {"stufe": 1, "rk": 5, "schild": 1, "tp": 8,
                                               "waffen": ["Speer (W6, Länge 8, Sturm)"]}),
                       *((f"Goblin {i}", "Goblins", {"tw": "1-1", "rk": 6, "tp": 4, "waffen": ["Speer (W6)"]})
                         for i in (1, 2, 3)))
    played = enc.forecast(n=200, seed=21, weg="prozeduren")
    fast = enc.forecast(n=20_000, seed=21, weg="kompakt")
    assert_agree(played, fast)
    assert 0.1 < fast.figures["Wachmann"].falls.p < 0.9


# -- what the model does not cover ----------------------------------------------------------------

BOGEN = {"stufe": 1, "rk": 7, "tp": 6, "fernkampfbonus": 2, "waffen": ["Kurzbogen (W6, Fernkampf)", "Dolch (W4)"]}


@pytest.mark.parametrize("figure", [
    ("Schütze", "Gruppe", BOGEN),                                  # a missile into the melee: friends too
    ("Magier", "Gruppe", {"stufe": 1, "rk": 9, "tp": 4, "waffen": ["Dolch (W4)"]}, ["zaubert"]),   # a hit ends it
    ("Knecht", "Gruppe", {"stufe": 1, "rk": 8, "tp": 4}, ["festgehalten"]),   # may not attack: its turns pass
    ("Speerträger", "Gruppe", {"stufe": 1, "rk": 8, "tp": 4, "waffen": ["Speer (W6)"]}, ["gegen Sturm gestemmt"]),
])
def test_a_fight_the_model_does_not_cover_plays_the_procedures(tmp_path, figure):
    c, enc = encounter(tmp_path, ("Hauptmann", "Gruppe", HAUPTMANN), figure, ("Ork", "Orks", ORK))
    assert compact(c)[0] is None
    f = enc.forecast(n=3, seed=1)
    assert (f.method, f.weg, f.fights) == ("simuliert", "prozeduren", 3)
    with pytest.raises(ForecastError, match="kein kompaktes Modell"):
        enc.forecast(weg="kompakt")


def test_a_condition_that_counts_down_is_not_covered(tmp_path):
    c, _ = encounter(tmp_path, ("Hauptmann", "Gruppe", HAUPTMANN), ("Ork", "Orks", ORK))
    assert compact(c)[0] is not None
    c.add_condition("Ork", "liegend", rounds=2)
    assert compact(c)[0] is None
