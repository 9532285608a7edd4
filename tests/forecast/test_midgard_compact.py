"""Midgard's compact model (``rules.midgard.compact``): each turn against the procedure path itself (every
face of every die of a turn, played through ``forecast.fight.Table`` with the tactics' divine grace),
what it covers, and whole fights against the procedure path."""

from __future__ import annotations

import copy
from fractions import Fraction

import numpy as np
import pytest

from rpgkernel import Campaign, rules
from rpgkernel.dice import Roller
from rpgkernel.dice.roll import GivenDice
from rpgkernel.errors import GivenDiceError
from rpgkernel.forecast import chain, mixture
from rpgkernel.forecast.fight import ForecastError, Table
from rpgkernel.forecast.mixture import Mixture, board
from rpgkernel.forecast.sample import Sampler
from rpgkernel.rules.figure import view
from rpgkernel.rules.midgard.compact import MidgardGnade, Stand, covers
from rpgkernel.rules.midgard.kampf import abwehren, angriffslage, folgen
from rpgkernel.rules.midgard.settings import EINSTELLUNGEN
from rpgkernel.rules.midgard.tactics import eigener_wurf
from rpgkernel.state import model
from rpgkernel.state.transaction import Transaction

from brute_force import leaves

from .test_sampled import assert_agree, assert_within

icepool = pytest.importorskip("icepool")

TACTICS = rules.get("midgard").tactics
#: a GM's critical tables on a W20 (few faces for the brute force); their rows change nothing
KRITISCH = {situation: {"wuerfel": "W20", "zeilen": [{"von": 1, "bis": 19, "text": "Prellung"},
                                                      {"von": 20, "bis": 20, "text": "tödlich"}]}
            for situation in ("treffer", "fehler_angriff")}


def encounter(tmp_path, *figures, data=None, begun=True):
    """An encounter of ``figures`` (name, side, sheet), begun (its first order rolled with a seed) or
    not; ``data``: the GM's Midgard data."""
    c = Campaign.open(tmp_path / "k.sqlite")
    c.set_ruleset("midgard")
    if data is not None:
        c.set_data("midgard", data)
    enc = c.new_encounter("Gasse")
    for name, side, sheet in figures:
        enc.add(name, side=side, sheet=sheet)
    if begun:
        enc.start(seed=1)
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


@pytest.mark.parametrize("case", ["leicht und schwer", "zweite Abwehr", "Abwehr gezählt", "Gnade des Angreifers",
                                  "Gnade des Verteidigers", "kritische Tabellen"])
def test_one_turn_as_the_procedure_path_plays_it(tmp_path, case):
    """Light hits (AP less half the difference and the shield, none after a critical defence, no more
    than are left), heavy hits (LP and AP less the RS), a defence counted and the WM of a second one in
    a round, divine grace on one's own failed EW: Angriff and WW: Abwehr (once a roll, however many
    points are left), the GM's critical tables (rolled, open to grace that nobody takes, changing
    nothing)."""
    data, extra, sheets = None, [], {"Wolfgang": WOLFGANG, "Ork": ORK}
    actor, target = "Wolfgang", "Ork"
    if case in ("zweite Abwehr", "Abwehr gezählt"):
        extra = [("Goblin", "Feinde", {**ORK, "lp": 5})]
    if case == "Abwehr gezählt":   # Wolfgang's first defence of the round: the Goblin's attack will read it
        actor, target = "Ork", "Wolfgang"
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
    expected = cut(played(c, actor), keep)
    got = modelled(c, actor, target)
    assert set(got) == set(expected)
    assert all(got[k] == pytest.approx(p, abs=1e-12) for k, p in expected.items())
    assert len(expected) > 4


def test_states_views_and_who_stands(tmp_path):
    c, enc = encounter(tmp_path, ("Wolfgang", "Helden", {**WOLFGANG, "gg": 2, "ap": 4}), ("Ork", "Feinde", ORK),
                       ("Goblin", "Feinde", ORK), data={"grundregeln": {"kampfunfaehig_lp": 2}})
    c.add_condition("Wolfgang", "1. Abwehr", rounds=1, ends="rundenende")
    c.add_condition("Wolfgang", "volle Abwehr", rounds=1, ends="rundenende")
    _, figures, data = opening(c)
    m = TACTICS.compact(figures, data)
    assert m.start(0) == Stand(8, 4, 2, 1, True) and m.start(1) == Stand(3, 2, 0, 0, False)
    tired = m.view(0, Stand(4, 0, 1, 0, False))
    assert (tired.current("LP"), tired.current("AP"), tired.current("GG")) == (4, 0, 1)
    assert not tired.has("1. Abwehr") and not tired.has("volle Abwehr") and m.view(0, m.start(0)).has("1. Abwehr")
    assert m.new_round(0, m.start(0)) == Stand(8, 4, 2, 0, False)
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
    c.set_sheet("Wolfgang", {**WOLFGANG, "waffen": ["Riesenhammer +5 (1000W1000)"]}, encounter="Gasse")
    _, figures, data = opening(c)
    assert not covers(figures, data)   # a damage roll too large for an exact preview


# -- a duel in icepool, written anew from the seed text and the documented basic rolls --------------------
# A state is (Alrik's LP, AP, GG, Bork's LP, AP, GG), one step a round: initiative W6 + RW/10 each (a tie
# by name: Alrik), the first attacks, the second if he still stands.
ALRIK = {"rw": 50, "waffen": ["Breitschwert +12 (W6+1)"], "abwehr": 3, "rs": 1, "lp": 4, "ap": 4, "gg": 1}
BORK = {"rw": 40, "waffen": ["Keule +11 (W6)"], "abwehr": 4, "rs": 0, "schild": "klein", "schild_ap": 1,
        "lp": 4, "ap": 3}


def roll(succeeds, grace: bool) -> dict[tuple[int, int], int]:
    """A W20 (natural 20 succeeds, 1 fails) as weights out of 400: a failed one repeated once with a point
    of grace (Neue Regelung der Göttlichen Gnade, a figure's own failed roll)."""
    out: dict[tuple[int, int], int] = {}
    for face in range(1, 21):
        if grace and not succeeds(face):
            for again in range(1, 21):
                out[again, 1] = out.get((again, 1), 0) + 1
        else:
            out[face, 0] = out.get((face, 0), 0) + 20
    return out


def attack(me: dict, foe: dict, my_grace: bool, foe_grace: bool) -> dict[tuple[int, int, int, int], int]:
    """(LP lost, AP lost, my grace spent, the foe's) with integer weights: EW W20 + weapon >= 20, then WW
    W20 + Abwehr >= the EW's total; a failed WW costs LP and AP = damage - RS, a successful one AP =
    damage - half the difference - the shield, none on a natural 20 (AP-Verluste bei gelungener Abwehr)."""
    wert = int(me["waffen"][0].split("+")[1].split()[0])
    sides, plus = (6, 1) if "W6+1" in me["waffen"][0] else (6, 0)
    out: dict[tuple[int, int, int, int], int] = {}

    def add(key, w):
        out[key] = out.get(key, 0) + w

    ew = lambda f: f == 20 or (f != 1 and f + wert >= 20)   # noqa: E731
    for (a, mine), wa in roll(ew, my_grace).items():
        if not ew(a):
            add((0, 0, mine, 0), wa * 400 * sides)
            continue
        total = a + wert
        ww = lambda f: f == 20 or (f != 1 and f + foe["abwehr"] >= total)   # noqa: E731
        for (d, theirs), wd in roll(ww, foe_grace).items():
            for x in range(1 + plus, sides + 1 + plus):
                if ww(d):
                    ap = 0 if d == 20 else max(0, x - (d + foe["abwehr"] - total) // 2 - foe.get("schild_ap", 0))
                    add((0, ap, mine, theirs), wa * wd)
                else:
                    lost = max(0, x - foe["rs"])
                    add((lost, lost, mine, theirs), wa * wd)
    return out


def after(state, first: int, attacks):
    """The states after ``first`` (0 Alrik, 1 Bork) attacks the other, with weights."""
    me, foe = (state[:3], state[3:]) if first == 0 else (state[3:], state[:3])
    out = {}
    for (lp, ap, mine, theirs), w in attacks[first][me[2] > 0, foe[2] > 0].items():
        me2 = (me[0], me[1], me[2] - mine)
        foe2 = (max(0, foe[0] - lp), max(0, foe[1] - ap), foe[2] - theirs)
        nxt = me2 + foe2 if first == 0 else foe2 + me2
        out[nxt] = out.get(nxt, 0) + w
    return out


@pytest.fixture(scope="module")
def icepool_duel():
    return rounds(ALRIK, BORK)


def rounds(alrik, bork):
    """One round as icepool plays it, on a state with a last slot for its order (set: 0 Alrik first, 1
    Bork first; -1: rolled), and the state at the start."""
    attacks = [{(g, h): attack(x, y, g, h) for g in (False, True) for h in (False, True)}
               for x, y in ((alrik, bork), (bork, alrik))]
    whole = sum(attacks[0][False, False].values())   # every attack's weights add up to the same
    alrik_first = sum(a + 5 >= b + 4 for a in range(1, 7) for b in range(1, 7))

    def in_order(state, first):
        out = {}
        for mid, w1 in after(state, first, attacks).items():
            if mid[0] <= 0 or mid[3] <= 0:
                out[mid] = out.get(mid, 0) + w1 * whole
                continue
            for end, w2 in after(mid, 1 - first, attacks).items():
                out[end] = out.get(end, 0) + w1 * w2
        return out

    def round_(state):
        *state, order = state
        if state[0] <= 0 or state[3] <= 0:
            return (*state, -1)
        out = {}
        for first, w0 in ((order, 1),) if order >= 0 else ((0, alrik_first), (1, 36 - alrik_first)):
            for end, w in in_order(tuple(state), first).items():
                out[(*end, -1)] = out.get((*end, -1), 0) + w0 * w
        return icepool.Die(out)

    return round_, (alrik["lp"], alrik["ap"], alrik.get("gg", 0), bork["lp"], bork["ap"], 0)


def chance(die, test) -> float:
    return float(Fraction(sum(q for o, q in die.items() if test(o)), die.denominator()))


@pytest.mark.parametrize("first", [None, "Alrik", "Bork"])
def test_a_duel_exactly_as_icepool_finds_it(tmp_path, icepool_duel, first):
    """Before the fight (initiative rolled every round, the first too) and in round 1 with its order
    set (``first`` first, then rolled every round)."""
    round_, start = icepool_duel
    c = Campaign.open(tmp_path / "k.sqlite")
    c.set_ruleset("midgard")
    enc = c.new_encounter("Gasse")
    enc.add("Alrik", side="Helden", sheet=ALRIK)
    enc.add("Bork", side="Feinde", sheet=BORK)
    if first is not None:
        enc.start(order=sorted(("Alrik", "Bork"), key=lambda n: n != first))
    f = enc.forecast()
    assert (f.method, f.weg) == ("exakt", "exakt")
    start = (*start, ("Alrik", "Bork").index(first) if first else -1)
    end = icepool.map(round_, start, repeat="inf")
    won = chance(end, lambda o: o[3] <= 0)
    assert 0.2 < won < 0.9
    assert f.win["Helden"].p == pytest.approx(won, abs=1e-9)
    assert f.win["Feinde"].p == pytest.approx(1 - won, abs=1e-9) and f.draw.p == pytest.approx(0, abs=1e-9)
    assert f.figures["Bork"].falls.p == pytest.approx(won, abs=1e-9)
    for name, slots in (("Alrik", (0, 1, 2)), ("Bork", (3, 4))):
        for key, slot in zip(("LP", "AP", "GG"), slots):
            assert f.figures[name].resources[key].value == pytest.approx(end.marginals[slot].mean(), abs=1e-9)
    assert 0.1 < f.figures["Alrik"].resources["GG"].value < 0.9   # grace spent in some fights
    for r in (1, 2, 4):   # over by round r as often as after r steps
        by = icepool.map(round_, start, repeat=r)
        assert f.rounds.p_at_most(r) == pytest.approx(chance(by, lambda o: o[0] <= 0 or o[3] <= 0), abs=1e-9)


def test_a_duel_with_grace_too_large_with_its_ap_is_exact_without_them(tmp_path):
    """Nothing in a fight reads the AP: where with them the pairs of states pass ``MAX_PAIRS`` (here some
    two million), the model leaves them out and the duel is exact, as icepool finds it with no AP to
    lose; the forecast gives no AP then. Before: played through the procedures."""
    alrik, bork = {**ALRIK, "lp": 8, "ap": 60, "gg": 2}, {**BORK, "lp": 11, "ap": 60}
    _, enc = encounter(tmp_path, ("Alrik", "Helden", alrik), ("Bork", "Feinde", bork), begun=False)
    f = enc.forecast()
    assert (f.method, f.weg) == ("exakt", "exakt")
    round_, start = rounds({**alrik, "ap": 0}, {**bork, "ap": 0})
    end = icepool.map(round_, (*start, -1), repeat="inf")
    won = chance(end, lambda o: o[3] <= 0)
    assert 0.2 < won < 0.9
    assert f.win["Helden"].p == pytest.approx(won, abs=1e-9)
    assert f.win["Feinde"].p == pytest.approx(1 - won, abs=1e-9) and f.draw.p == pytest.approx(0, abs=1e-9)
    for name, slots in (("Alrik", {"LP": 0, "GG": 2}), ("Bork", {"LP": 3})):
        assert set(f.figures[name].resources) == set(slots)
        for key, slot in slots.items():
            assert f.figures[name].resources[key].value == pytest.approx(end.marginals[slot].mean(), abs=1e-9)
    assert 0.1 < f.figures["Alrik"].resources["GG"].value < 1.9   # grace spent in some fights
    for r in (1, 2, 4):
        by = icepool.map(round_, (*start, -1), repeat=r)
        assert f.rounds.p_at_most(r) == pytest.approx(chance(by, lambda o: o[0] <= 0 or o[3] <= 0), abs=1e-9)


def test_exact_within_the_procedure_paths_interval(tmp_path):
    """The duel above before it begins, played 300 times through the procedures (seeded)."""
    c, enc = encounter(tmp_path, ("Alrik", "Helden", ALRIK), ("Bork", "Feinde", BORK), begun=False)
    exact, played = enc.forecast(), enc.forecast(n=300, seed=11, weg="prozeduren")
    assert (exact.weg, played.weg, played.fights) == ("exakt", "prozeduren", 300)
    assert_within(exact, played)
    for name, fig in exact.figures.items():
        for key, mean in fig.resources.items():   # about four standard errors: five compared at once
            got = played.figures[name].resources[key]
            assert abs(got.value - mean.value) <= max(2 * got.margin, 1e-12), (name, key)


@pytest.mark.slow
@pytest.mark.parametrize("zielwahl", ["schwächste", "gefährlichste"])
def test_one_against_two_as_the_procedures_play_it(tmp_path, zielwahl):
    """A second defence in a round costs WM -2: one against two, sampled on the model as the procedures
    play it (each with the other's intervals)."""
    c, enc = encounter(tmp_path, ("Wolfgang", "Helden", {**WOLFGANG, "waffen": ["Langschwert +10 (W6+2)"],
                                                          "abwehr": 12, "lp": 12, "ap": 12}),
                       ("Ork", "Feinde", {**ORK, "lp": 4}), ("Goblin", "Feinde", {**ORK, "lp": 5, "rw": 60,
                                                                                  "waffen": ["Dolch +8 (W3+1)"]}))
    played = enc.forecast(n=300, seed=7, weg="prozeduren", zielwahl=zielwahl)
    fast = enc.forecast(n=20_000, seed=7, zielwahl=zielwahl)
    assert_agree(played, fast)
    assert 0.2 < fast.win["Helden"].p < 0.8


def test_a_fight_the_model_does_not_cover_plays_the_procedures(tmp_path):
    c, enc = encounter(tmp_path, ("Alrik", "Helden", ALRIK), ("Bork", "Feinde", BORK))
    c.add_condition("Bork", "volle Abwehr")   # for good: no round ends it
    f = enc.forecast(n=3, seed=1)
    assert (f.weg, f.fights) == ("prozeduren", 3) and "Prozeduren" in f.notes[0]
    with pytest.raises(ForecastError, match="kein kompaktes Modell"):
        enc.forecast(weg="kompakt")


# -- what the model keeps of a turn, and what the exact chain merges --------------------------------------
def grace_fight(tmp_path, lp: int = 5):
    """Two against two, Wolfgang (``lp``) with two points of grace and his first defence of the round made,
    the Ork in full defence this round: every part an attack reads (grace, defences, full defence) varies."""
    c, enc = encounter(tmp_path, ("Wolfgang", "Helden", {**WOLFGANG, "lp": lp, "ap": 3, "gg": 2}),
                       ("Elanor", "Helden", {**ORK, "waffen": ["Dolch +8 (W3)"], "abwehr": 12, "lp": 3, "ap": 3}),
                       ("Ork", "Feinde", {**ORK, "lp": 4}), ("Goblin", "Feinde", {**ORK, "lp": 3, "rw": 60}))
    c.add_condition("Wolfgang", "1. Abwehr", rounds=1, ends="rundenende")
    c.add_condition("Ork", "volle Abwehr", rounds=1, ends="rundenende")
    return c, enc


def anew(figures, data, m, actor: int, target: int, mine: Stand, theirs: Stand, seen: dict) -> dict[tuple, float]:
    """The actor's attack on the target worked out from the rules alone: ``kampf.folgen`` on the two
    figures in their states (``seen``: folgen by everything it is given), each loss landing within the
    ruleset's limits (the AP where the model keeps them)."""
    engine, cfg = rules.get("midgard"), EINSTELLUNGEN.of(data)
    keep = abwehren(figures[target]) + sum(g.side != figures[target].side for g in figures) - 1

    def landed(i, state, resource, by):
        value = getattr(state, resource.lower())
        if not by or resource not in figures[i].resources:
            return value
        return next(s.new for s in engine.sheet.within_limits(m.view(i, state), resource, by, data) if s.resource == resource)

    found: dict[tuple, float] = {}
    lage = angriffslage(m.view(actor, mine), m.view(target, theirs), cfg=cfg)
    key = (repr(lage), mine.gg, theirs.gg)
    if key not in seen:
        seen[key] = folgen(lage, eigener_wurf(mine.gg), eigener_wurf(theirs.gg))
    for f, p in seen[key].items():
        me = mine._replace(gg=landed(actor, mine, "GG", -f.gnade_angreifer))
        them = Stand(landed(target, theirs, "LP", -f.lp), landed(target, theirs, "AP", -f.ap) if m.ap else theirs.ap,
                     landed(target, theirs, "GG", -f.gnade_verteidiger), min(theirs.abwehren + f.abgewehrt, keep),
                     theirs.volle)
        found[me, them] = found.get((me, them), 0.0) + p
    return found


@pytest.mark.parametrize("ap", [True, False])
def test_every_turn_as_worked_out_anew(tmp_path, ap):
    """The model keeps an attack's outcome once per part of the states it reads (the attacker's grace, the
    defender's defences, full defence and grace) and each loss once per value: every turn of every pair
    of states the fight reaches is the one worked out anew. Fails where a key leaves out what a turn
    reads."""
    c, _ = grace_fight(tmp_path)
    names, figures, data = opening(c)
    assert isinstance(TACTICS.compact(figures, data), MidgardGnade)
    m, seen = MidgardGnade(figures, data, eigener_wurf, ap), {}
    foes = [[j for j in range(len(names)) if figures[j].side != figures[i].side] for i in range(len(names))]
    reached = [{m.start(i)} for i in range(len(names))]
    todo, pairs = [(i, m.start(i)) for i in range(len(names))], 0
    while todo:   # every state reached, every turn between states reached (both ways) checked
        i, state = todo.pop()
        for s in [m.new_round(i, state), m.unread(i, state)]:
            if s not in reached[i]:
                reached[i].add(s)
                todo.append((i, s))
        if not m.standing(i, state):
            continue
        for j in foes[i]:
            for a, t, mine, theirs in [(i, j, state, s) for s in list(reached[j])] + \
                                      [(j, i, s, state) for s in list(reached[j])]:
                if not m.standing(a, mine) or not m.standing(t, theirs):
                    continue
                got: dict[tuple, float] = {}
                for p, me, them in m.turn(a, t, mine, theirs):
                    got[me, them] = got.get((me, them), 0.0) + p
                expected = anew(figures, data, m, a, t, mine, theirs, seen)
                assert set(got) == set(expected), (a, t, mine, theirs)
                assert all(got[k] == pytest.approx(p, abs=1e-12) for k, p in expected.items())
                pairs += 1
                for me, them in got:
                    for k, s in ((a, me), (t, them)):
                        if s not in reached[k]:
                            reached[k].add(s)
                            todo.append((k, s))
    assert pairs > 500
    assert len({s.gg for s in reached[0]}) == 3   # the parts a turn reads took more than one value each
    assert all(len({s.abwehren for s in r}) > 1 for r in reached) and {s.volle for s in reached[2]} == {True, False}
    assert len({s.ap for s in reached[2]}) == (3 if ap else 1)


def test_the_chain_merges_nothing_a_fight_reads(tmp_path):
    """The exact chain tells the round's order place by place (orders that begin alike share their nodes)
    and forgets the defences of the round where no foe acts again in it: the result is the one of the
    chain that keeps every order apart and forgets nothing, on far fewer nodes."""
    c, _ = grace_fight(tmp_path, lp=3)
    table = Table(copy.deepcopy(c.state), "Gasse", rules.get("midgard"), "schwächste")
    b = board(table, np.random.default_rng(1))
    assert b is not None and b.opening.each_round is not None and len(b.opening.orders) > 2
    merged = chain._Chain(b, 10**6)
    merged_solution = merged.run()
    kept = chain._Chain(b, 10**6)
    kept.singly = True   # every order alone, as where some act at the same time
    unread, b.model.unread = b.model.unread, lambda i, state: state
    try:
        kept_solution = kept.run()
    finally:
        b.model.unread = unread
    assert merged_solution.nodes < 0.7 * kept_solution.nodes
    assert merged_solution.win == pytest.approx(kept_solution.win, abs=1e-12)
    assert merged_solution.draw == pytest.approx(kept_solution.draw, abs=1e-12)
    assert merged_solution.falls == pytest.approx(kept_solution.falls, abs=1e-12)
    assert set(merged_solution.rounds) == set(kept_solution.rounds)
    assert all(merged_solution.rounds[r] == pytest.approx(p, abs=1e-12) for r, p in kept_solution.rounds.items())
    for got, expected in zip(merged_solution.resources, kept_solution.resources):
        assert got == pytest.approx(expected, abs=1e-12)
    assert 0.01 < merged_solution.win[0] < 0.99


def closing(c, name: str, change: dict) -> dict:
    """The campaign's state with combatant ``name``'s record changed: ``change`` maps a resource to its
    value, or "sheet" to values of its sheet (a closing of an open resolution, as the forecast draws it)."""
    state = copy.deepcopy(c.state)
    record = state["encounters"]["Gasse"]["combatants"][name]
    record["sheet"].update(change.pop("sheet", {}))
    for key, value in change.items():
        record["resources"][key]["value"] = value
    return state


@pytest.mark.parametrize("lp", [5, 30])
def test_closings_share_a_board_only_where_the_model_plays_them_alike(tmp_path, lp):
    """Closings of an open resolution share one board (and so one sampler) where the model plays the same
    fights from them: they differ in the AP alone and the model leaves the AP out (Wolfgang with 30 LP);
    a closing with other AP where the model keeps them, other LP or another sheet gets its own."""
    c, _ = grace_fight(tmp_path, lp=lp)
    table = Table(copy.deepcopy(c.state), "Gasse", rules.get("midgard"), "schwächste")
    mixed = Mixture(table, np.random.default_rng(1), None, None)
    first = mixed._board(closing(c, "Wolfgang", {}))
    assert first.model.ap == (lp == 5)
    for name in ("Wolfgang", "Ork"):
        fewer_ap = mixed._board(closing(c, name, {"AP": 1}))
        assert (fewer_ap is first) == (not first.model.ap), name
    for change in ({"LP": lp - 1}, {"GG": 1}, {"sheet": {"abwehr": 6}}):
        other = mixed._board(closing(c, "Wolfgang", change))
        assert other is not first and mixture.played(other) != mixture.played(first), change


def test_closings_of_kin_play_on_one_sampler_each_from_its_start(tmp_path):
    """Closings whose models differ in their starts alone (``Compact.kin``) play on one sampler, whose
    board begins in each of them: the fights from each start win as often as those on that closing's own
    board (4.5 standard errors of the difference); a closing with another sheet is no kin."""
    c, _ = grace_fight(tmp_path, lp=5)
    table = Table(copy.deepcopy(c.state), "Gasse", rules.get("midgard"), "schwächste")
    mixed = Mixture(table, np.random.default_rng(1), None, None)
    boards = [mixed._board(closing(c, "Wolfgang", change)) for change in ({"GG": 1, "LP": 3}, {}, {"LP": 2})]
    assert len({id(b) for b in boards}) == 3 and len({mixture.kin(b) for b in boards}) == 1
    assert mixture.kin(mixed._board(closing(c, "Wolfgang", {"sheet": {"abwehr": 6}}))) != mixture.kin(boards[0])
    host, starts = mixed._host(boards)
    assert mixed._host(boards[1:])[0] is host   # its board begins in them all already
    n = 20_000
    batch = host.play(3 * n, np.random.default_rng(2), np.repeat(starts, n))
    for k, b in enumerate(boards):
        assert host.board.starts[starts[k]][1] == b.start()
        won = float(np.mean(batch.winner[k * n:(k + 1) * n] == 0))
        own = float(np.mean(Sampler(b).play(n, np.random.default_rng(3 + k)).winner == 0))
        assert 0.01 < own < 0.99 and abs(won - own) <= 4.5 * (2 * own * (1 - own) / n) ** 0.5, (k, won, own)
