"""Midgard's compact model (``rules.midgard.compact``): each turn against the procedure path itself (every
face of every die of a turn, played through ``forecast.fight.Table`` with the tactics' divine grace),
what it covers, and whole fights against the procedure path."""

from __future__ import annotations

import pytest

from rpgkernel import Campaign, rules
from rpgkernel.dice import Roller
from rpgkernel.dice.roll import GivenDice
from rpgkernel.errors import GivenDiceError
from rpgkernel.forecast.fight import ForecastError, Table
from rpgkernel.rules.figure import view
from rpgkernel.rules.midgard.compact import Stand, covers
from rpgkernel.rules.midgard.kampf import abwehren
from rpgkernel.state import model
from rpgkernel.state.transaction import Transaction

from brute_force import leaves

TACTICS = rules.get("midgard").tactics
#: a GM's critical tables on a W20 (few faces for the brute force); their rows change nothing
KRITISCH = {situation: {"wuerfel": "W20", "zeilen": [{"von": 1, "bis": 19, "text": "Prellung"},
                                                      {"von": 20, "bis": 20, "text": "tödlich"}]}
            for situation in ("treffer", "fehler_angriff")}


def encounter(tmp_path, *figures, data=None):
    """An encounter of ``figures`` (name, side, sheet), begun; ``data``: the GM's Midgard data."""
    c = Campaign.open(tmp_path / "k.sqlite")
    c.set_ruleset("midgard")
    if data is not None:
        c.set_data("midgard", data)
    enc = c.new_encounter("Gasse")
    for name, side, sheet in figures:
        enc.add(name, side=side, sheet=sheet)
    enc.start()
    return c, enc


def opening(c):
    """The combatants as the forecast's opening sees them, and the GM's data."""
    names = list(c.state["encounters"]["Gasse"]["combatants"])
    return names, [view(model.seen_by_rules(c.state, n, "Gasse")) for n in names], model.data(c.state, "Gasse")


class Stream(GivenDice):
    """Given dice as one stream through a whole turn, as the forecast's own dice are: no line of the
    turn asks that they be used up (the test does at the turn's end)."""

    given = False

    def finish(self) -> None:
        pass


def played(c, actor: str) -> dict[tuple, float]:
    """Every way the procedure path plays ``actor``'s turn, brute force over its dice: the chance of
    each (resources, defences of the round) of every combatant after it."""
    names, _, _ = opening(c)
    table = Table(c.state, "Gasse", rules.get("midgard"), "schwächste")

    def run(dice):
        tx, stream = Transaction(table.state), Stream(dice)
        try:
            table._turn(tx, actor, {}, Roller.over(stream))
        except ForecastError as err:   # too few dice: the brute force tries each face of the next
            raise err.__context__ if isinstance(err.__context__, GivenDiceError) else err
        assert stream.used == len(dice)
        return tuple((table._resources(tx)[n], abwehren(view(model.seen_by_rules(tx.state, n, "Gasse"))))
                     for n in names)

    found: dict[tuple, float] = {}
    for p, after in leaves(run):
        key = tuple((tuple(sorted(r.items())), k) for r, k in after)
        found[key] = found.get(key, 0.0) + p
    return found


def modelled(c, actor: str, target: str) -> dict[tuple, float]:
    """The same from the model's ``turn`` (a combatant's defences of the round as far as the model keeps
    them)."""
    names, figures, data = opening(c)
    m = TACTICS.compact(figures, data)
    assert m is not None
    states = [m.start(i) for i in range(len(names))]
    a, t = names.index(actor), names.index(target)
    found: dict[tuple, float] = {}
    for p, mine, theirs in m.turn(a, t, states[a], states[t]):
        after = list(states)
        after[a], after[t] = mine, theirs
        key = tuple((tuple(sorted(m.resources(i, s).items())), s.abwehren) for i, s in enumerate(after))
        found[key] = found.get(key, 0.0) + p
    return found


def cut(found: dict[tuple, float], keep: list[int]) -> dict[tuple, float]:
    """The procedure path's defences of the round cut at ``keep`` (as far as the model keeps them: each
    combatant's foes less one, beyond those it had made before)."""
    out: dict[tuple, float] = {}
    for key, p in found.items():
        short = tuple((r, min(k, top)) for (r, k), top in zip(key, keep))
        out[short] = out.get(short, 0.0) + p
    return out


WOLFGANG = {"rw": 50, "waffen": ["Langschwert +10 (W3)"], "abwehr": 5, "rs": 1, "lp": 8, "ap": 20}
ORK = {"rw": 40, "waffen": ["Keule +9 (W3+1)"], "abwehr": 14, "rs": 1, "schild": "klein", "schild_ap": 1,
       "lp": 3, "ap": 2}


@pytest.mark.parametrize("case", ["leicht und schwer", "zweite Abwehr", "Gnade des Angreifers",
                                  "Gnade des Verteidigers", "kritische Tabellen"])
def test_one_turn_as_the_procedure_path_plays_it(tmp_path, case):
    """Light hits (AP less half the difference and the shield, none after a critical defence, no more
    than are left), heavy hits (LP and AP less the RS), the WM of a second defence in a round, divine
    grace on one's own failed EW: Angriff and WW: Abwehr (once a roll, however many points are left),
    the GM's critical tables (rolled, open to grace that nobody takes, changing nothing)."""
    data, extra, sheets = None, [], {"Wolfgang": WOLFGANG, "Ork": ORK}
    if case == "zweite Abwehr":
        extra = [("Goblin", "Feinde", {**ORK, "lp": 5})]
    elif case == "Gnade des Angreifers":   # misses on a 1 alone: grace on it
        sheets["Wolfgang"] = {**WOLFGANG, "waffen": ["Langschwert +19 (2)"], "gg": 1}
    elif case == "Gnade des Verteidigers":   # hit on a 20 alone, defended from a 5 on
        sheets = {"Wolfgang": {**WOLFGANG, "waffen": ["Langschwert +0 (2)"]}, "Ork": {**ORK, "abwehr": 15, "gg": 2}}
    elif case == "kritische Tabellen":   # a hit is critical, a 1 a fumble; the Ork has a point left for them
        sheets = {"Wolfgang": {**WOLFGANG, "waffen": ["Langschwert +0 (2)"]}, "Ork": {**ORK, "abwehr": 15, "gg": 2}}
        data = {"tabellen": {"kritisch": KRITISCH}}
    c, enc = encounter(tmp_path, ("Wolfgang", "Helden", sheets["Wolfgang"]), ("Ork", "Feinde", sheets["Ork"]),
                       *extra, data=data)
    if case == "zweite Abwehr":   # the Ork defended once this round already
        c.add_condition("Ork", "1. Abwehr", rounds=1, ends="rundenende")
    names, figures, _ = opening(c)
    keep = [abwehren(f) + max(0, sum(g.side != f.side for g in figures) - 1) for f in figures]
    expected = cut(played(c, "Wolfgang"), keep)
    got = modelled(c, "Wolfgang", "Ork")
    assert set(got) == set(expected)
    assert all(got[k] == pytest.approx(p, abs=1e-12) for k, p in expected.items())
    assert len(expected) > 4


def test_states_views_and_who_stands(tmp_path):
    c, enc = encounter(tmp_path, ("Wolfgang", "Helden", {**WOLFGANG, "gg": 2}), ("Ork", "Feinde", ORK),
                       ("Goblin", "Feinde", ORK), data={"grundregeln": {"kampfunfaehig_lp": 2}})
    c.add_condition("Wolfgang", "1. Abwehr", rounds=1, ends="rundenende")
    c.add_condition("Wolfgang", "volle Abwehr", rounds=1, ends="rundenende")
    _, figures, data = opening(c)
    m = TACTICS.compact(figures, data)
    assert m.start(0) == Stand(8, 20, 2, 1, True) and m.start(1) == Stand(3, 2, 0, 0, False)
    tired = m.view(0, Stand(4, 0, 1, 0, False))
    assert (tired.current("LP"), tired.current("AP"), tired.current("GG")) == (4, 0, 1)
    assert not tired.has("1. Abwehr") and not tired.has("volle Abwehr") and m.view(0, m.start(0)).has("1. Abwehr")
    assert m.new_round(0, m.start(0)) == Stand(8, 20, 2, 0, False)
    assert m.standing(1, Stand(3, 2, 0)) and not m.standing(1, Stand(2, 2, 0))   # the GM's kampfunfaehig_lp
    assert m.resources(1, Stand(1, 0, 0)) == {"LP": 1, "AP": 0}


def test_what_the_model_covers(tmp_path):
    c, enc = encounter(tmp_path, ("Wolfgang", "Helden", WOLFGANG), ("Ork", "Feinde", ORK))
    _, figures, data = opening(c)
    assert covers(figures, data)
    c.add_condition("Ork", "volle Abwehr")   # full defence for good: a new round would not end it
    _, figures, data = opening(c)
    assert not covers(figures, data) and TACTICS.compact(figures, data) is None
    c.remove_condition("Ork", "volle Abwehr")
    c.set_sheet("Wolfgang", {**WOLFGANG, "schb": 2}, encounter="Gasse")   # the GM's bonus dice are missing
    _, figures, data = opening(c)
    assert not covers(figures, data)
    c.set_sheet("Wolfgang", {**WOLFGANG, "waffen": ["Riesenhammer +5 (200W100)"]}, encounter="Gasse")
    _, figures, data = opening(c)
    assert not covers(figures, data)   # a damage roll too large for an exact preview
