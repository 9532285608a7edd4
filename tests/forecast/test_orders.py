"""Every turn order the initiative can give, with its chance (``forecast.orders``): the engine's
own initiative procedures with every way their dice fall, against counting by hand."""

from __future__ import annotations

import copy
import itertools
from collections import Counter

import pytest

from rpgkernel import Campaign, rules
from rpgkernel.dice import Roller
from rpgkernel.forecast.orders import Kept, order_chances
from rpgkernel.rules.adz.combat import reihenfolge, reihenfolge_chancen


def encounter(tmp_path, ruleset, figures, file="k.sqlite"):
    c = Campaign.open(tmp_path / file)
    if ruleset:
        c.set_ruleset(ruleset)
    enc = c.new_encounter("Lager")
    for name, side, sheet in figures:
        enc.add(name, side=side, sheet=sheet)
    return c.state, rules.get(ruleset or None)


def as_dict(chances):
    """{order: chance}, whoever acts at once in it (checked apart where a test reads it)."""
    out = {}
    for p, o, _ in chances:
        out[o] = out.get(o, 0.0) + p
    return out


def test_each_rolls_alone_w20_ties_by_name(tmp_path):
    state, engine = encounter(tmp_path, None, [("Bo", "A", {"hp": 3}), ("Al", "B", {"hp": 3}),
                                               ("Cy", "B", {"hp": 3})])
    found = as_dict(order_chances(state, "Lager", engine))
    counted = Counter()
    for rolls in itertools.product(range(1, 21), repeat=3):
        values = dict(zip(("Bo", "Al", "Cy"), rolls))
        counted[tuple(sorted(values, key=lambda n: (-values[n], n)))] += 1
    assert found == pytest.approx({o: k / 8000 for o, k in counted.items()}, abs=1e-12)


def test_a_side_rolls_for_all_its_members(tmp_path):
    """OSR: one W6 per side each round, the higher side first; a tie keeps the sides' order, and both
    sides act at the same time (``gleichzeitig``), the whole of each side."""
    ork = {"tw": "1", "rk": 6, "tp": 6, "waffen": ["Krummsäbel (W6)"]}
    state, engine = encounter(tmp_path, "osr", [("Hauptmann", "Gruppe", {"stufe": 1, "rk": 6, "tp": 8,
                                                                          "waffen": ["Langschwert (W8)"]}),
                                                ("Ork", "Orks", ork), ("Ork 2", "Orks", ork)])
    found = as_dict(order_chances(state, "Lager", engine))
    assert found == pytest.approx({("Hauptmann", "Ork", "Ork 2"): 21 / 36, ("Ork", "Ork 2", "Hauptmann"): 15 / 36},
                                  abs=1e-12)
    at_once = {(o, t): p for p, o, t in order_chances(state, "Lager", engine)}
    assert at_once == pytest.approx({(("Hauptmann", "Ork", "Ork 2"), (False, False, False)): 15 / 36,
                                     (("Hauptmann", "Ork", "Ork 2"), (False, True, True)): 6 / 36,
                                     (("Ork", "Ork 2", "Hauptmann"), (False, False, False)): 15 / 36}, abs=1e-12)


def test_sides_tied_roll_again_as_the_ruleset_lists_it(tmp_path):
    """OSR with ``gleichstand="neu"``: tied sides roll again, so each of two sides acts first with 1/2;
    the ruleset lists the final dice itself (trying the rerolls' dice would not end in time)."""
    ork = {"tw": "1", "rk": 6, "tp": 6, "waffen": ["Krummsäbel (W6)"]}
    c = Campaign.open(tmp_path / "neu.sqlite")
    c.set_ruleset("osr")
    c.set_data("osr", {"gleichstand": "neu"})
    enc = c.new_encounter("Lager")
    enc.add("Hauptmann", side="Gruppe", sheet={"stufe": 1, "rk": 6, "tp": 8, "waffen": ["Langschwert (W8)"]})
    enc.add("Ork", side="Orks", sheet=ork)
    found = as_dict(order_chances(c.state, "Lager", rules.get("osr"), most=100))
    assert found == pytest.approx({("Hauptmann", "Ork"): 0.5, ("Ork", "Hauptmann"): 0.5}, abs=1e-12)


def test_roll_offs_repeated_while_tied_are_fair():
    """AdZ rolls W6 among the tied, again while tied: each order of the tied alike, as rolling finds."""
    werte = {"A": 9, "B": 7, "C": 9, "D": 9, "E": 7}
    exact = {tuple(o): p for p, o in reihenfolge_chancen(werte)}
    assert len(exact) == 6 * 2 and sum(exact.values()) == pytest.approx(1)
    roller = Roller(seed=4)
    counted = Counter(tuple(reihenfolge(werte, roller)) for _ in range(24_000))
    assert set(counted) == set(exact)
    for order, p in exact.items():   # 4.5 standard errors of 2,000 expected
        assert abs(counted[order] / 24_000 - p) <= 4.5 * (p * (1 - p) / 24_000) ** 0.5


def test_too_many_ways_is_none(tmp_path):
    """Three W20 give 8,000 sets of values (each die tried apart: 60 runs); five give 3.2 million."""
    state, engine = encounter(tmp_path, None, [(f"F{i}", "AB"[i % 2], {"hp": 3}) for i in range(3)])
    assert order_chances(state, "Lager", engine, most=1000) is None
    assert len(order_chances(state, "Lager", engine)) == 6
    state, engine = encounter(tmp_path, None, [(f"F{i}", "AB"[i % 2], {"hp": 3}) for i in range(5)], "fünf.sqlite")
    assert order_chances(state, "Lager", engine) is None


def test_a_fights_lists_are_taken_again_where_what_the_initiative_read_is_alike(tmp_path, monkeypatch):
    """Midgard's initiative reads the sheets and the conditions, never the resources: a state with other
    LP takes the fight's kept list (the initiative not run), one with another RW works it out anew;
    each as the list worked out without a kept one."""
    state, engine = encounter(tmp_path, "midgard", [
        ("Wolfgang", "Helden", {"rw": 50, "waffen": ["Langschwert +10 (W6+2)"], "abwehr": 5, "lp": 8, "ap": 20}),
        ("Ork", "Feinde", {"rw": 40, "waffen": ["Keule +9 (W6+1)"], "abwehr": 4, "lp": 9, "ap": 20}),
        ("Ork 2", "Feinde", {"rw": 70, "waffen": ["Keule +9 (W6+1)"], "abwehr": 4, "lp": 9, "ap": 20})])
    kept = Kept()
    first = order_chances(state, "Lager", engine, kept=kept)
    assert first == order_chances(state, "Lager", engine) and len(first) > 3
    assert {"sheet", "conditions"} <= kept.parts and "resources" not in kept.parts
    hurt = copy.deepcopy(state)
    hurt["encounters"]["Lager"]["combatants"]["Ork"]["resources"]["LP"]["value"] = 2
    quicker = copy.deepcopy(state)
    quicker["encounters"]["Lager"]["combatants"]["Ork"]["sheet"]["rw"] = 90
    fresh = {"hurt": order_chances(hurt, "Lager", engine), "quicker": order_chances(quicker, "Lager", engine)}
    ran = []
    rolls = type(engine.initiative).rolls
    monkeypatch.setattr(type(engine.initiative), "rolls", lambda self, *a, **k: ran.append(1) or rolls(self, *a, **k))
    assert order_chances(hurt, "Lager", engine, kept=kept) == fresh["hurt"] == first and not ran
    assert order_chances(quicker, "Lager", engine, kept=kept) == fresh["quicker"] != first and ran
