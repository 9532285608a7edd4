"""AdZ's compact model (``rules.adz.compact``): each turn as the procedure ``angriff`` plays it under the
tactics (every way its dice fall, with the luck pool as ``AdzTactics.decide`` spends it), and whole fights
exactly as icepool's ``map(..., repeat='inf')`` finds them (a duel written anew from the seed), within the
procedure path's intervals, sampled on the model."""

from __future__ import annotations

from fractions import Fraction

import pytest

from brute_force import leaves

from rpgkernel import Campaign
from rpgkernel.dice import Roller
from rpgkernel.forecast import ForecastError
from rpgkernel.rules import adz
from rpgkernel.rules.adz import AdZ
from rpgkernel.rules.adz import sheet as bogen
from rpgkernel.rules.adz import compact
from rpgkernel.rules.adz.compact import Stand, covers
from rpgkernel.rules.adz.exact import Enden, angriff_dist, erfolge_dist
from rpgkernel.rules.figure import view
from rpgkernel.rules.tactics import Fight

from .test_sampled import assert_agree

icepool = pytest.importorskip("icepool")

TACTICS = AdZ.tactics
#: a short damage track of the GM's: four steps, the injury malus 0, 1, 2, the last "X"
SHORT = [0, 1, 2, "X"]
ONES = {"KK": 1, "KO": 1, "GE": 1, "FF": 1, "KL": 1, "WK": 1, "IN": 1, "CH": 1, "GL": 1}


def figure(name, side, conditions=None, daten=None, **sheet):
    """A combatant's view: all attributes 1 but those given, unhurt (its tracks as long as the GM's
    ``daten`` have them), the luck pool at GL."""
    daten = daten or adz.EINSTELLUNGEN.defaults()
    checked = bogen.build(daten).validate({**ONES, **sheet})
    return view({"name": name, "side": side, "sheet": checked, "resources": bogen.ressourcen(checked, daten),
                 "conditions": conditions or {}})


#: three attack dice (KK 1 + Schwerter 2) with a short sword, GS 3
ALRIK = figure("Alrik", "Spieler", GL=2, fertigkeiten=["Schwerter 2"], waffen=["Kurzschwert (Schwerter, KK, GS 3)"])
#: Alrik having made a reaction this round already (a test, say), as the engine records it
REAGIERT = figure("Alrik", "Spieler", {"Reaktionen: 1": {"remaining": 1, "tick": "round_end"}}, GL=2,
                  fertigkeiten=["Schwerter 2"], waffen=["Kurzschwert (Schwerter, KK, GS 3)"])
#: two defence dice (GE 1 + Verteidigung 1), two resistance dice (KO 2), a club, GS 2
ORK = figure("Ork", "Orks", KO=2, fertigkeiten=["Verteidigung 1"], waffen=["Keule (Hiebwaffen, KK, GS 2)"])
#: two attack dice (WK 1 + Raufen 1) that hurt the mind, GS 2, two defence dice, armour RS 1, WB 1
GEIST = figure("Geist", "Orks", fertigkeiten=["Raufen 1", "Verteidigung 1"],
               waffen=["Spuk (Raufen, WK, GS 2, geistig)"], ausruestung=["Nebel (RS 1, WB 1)"])


def success_faces(sides):
    """A W6 of a pool counts only as a success (5, 6) or not (1 to 4)."""
    assert sides == 6
    return [(1, 2 / 3), (5, 1 / 3)]


def played(model, actor, target, mine, theirs):
    """The chances of both states after ``actor``'s attack on ``target``: ``angriff`` with every way its
    dice fall, its luck choice taken as the tactics decide and run again with the same dice (as the
    forecast's procedure path does), its effects applied to the states (the reactions up to the most a
    later defence of the round can read, ``AdzCompact.most``)."""
    a, v = model.view(actor, mine), model.view(target, theirs)
    fight = Fight({a.name: a, v.name: v}, {}, 1, {}, Roller(dice=[]))

    def run(dice):   # the target defends, as the tactics' line says (``verteidigt``)
        res = adz.combat.angriff(a, v, Roller(dice=dice), verteidigen=True)
        if res.open:
            taken = [{"figures": list(x.actors), **x.options} for x in TACTICS.decide(res, fight) if x.verb == "glück"]
            res = adz.combat.angriff(a, v, Roller(dice=dice), verteidigen=True, glueck=taken)
        states = {a.name: mine, v.name: theirs}
        for e in res.effects:
            s = states[e.figure]
            if e.resource is not None:
                field = {"körperlich": "koerperlich", "geistig": "geistig", "Glückspool": "glueck"}[e.resource]
                s = s._replace(**{field: getattr(s, field) + e.by})
            elif e.condition.startswith("Reaktionen: "):   # counted as far as a later defence can read it
                count = min(int(e.condition.split()[1]), model.most[(actor, target)[e.figure == v.name]])
                s = s._replace(reaktionen=count) if e.on else s
            else:
                s = s._replace(zustaende=s.zustaende | {e.condition})
            states[e.figure] = s
        return states[a.name], states[v.name]

    found: dict = {}
    for p, after in leaves(run, faces=success_faces):
        found[after] = found.get(after, 0.0) + p
    return found


@pytest.mark.parametrize("attacker, target, mine, theirs", [
    (ALRIK, ORK, Stand(12, 12, 2), Stand(12, 12, 1)),          # both spend luck where it goes wrong for them
    (ALRIK, ORK, Stand(12, 12, 0), Stand(12, 12, 1)),          # the attacker has no luck left
    (ORK, REAGIERT, Stand(12, 12, 1), Stand(9, 12, 2, 1)),     # a second reaction: the defence halved, the malus
    (ALRIK, ORK, Stand(8, 12, 1), Stand(2, 12, 1)),            # the last step and beyond: out of the fight
    (GEIST, ALRIK, Stand(12, 12, 1), Stand(12, 3, 1)),         # the mind's track, beyond it onto the body's
    (GEIST, ALRIK, Stand(12, 12, 0), Stand(12, 12, 0)),        # nobody has luck: nothing to decide
])
def test_one_turn_as_the_procedure_plays_it(attacker, target, mine, theirs):
    model = TACTICS.compact([attacker, target], {})
    got = {(me, it): p for p, me, it in model.turn(0, 1, mine, theirs)}
    expected = played(model, 0, 1, mine, theirs)
    assert set(got) == set(expected)
    assert all(got[s] == pytest.approx(p, abs=1e-12) for s, p in expected.items())
    assert sum(got.values()) == pytest.approx(1.0, abs=1e-12)
    assert len({me for me, _ in got}) == (2 if mine.glueck else 1)   # the attacker's pool, spent or not


def test_states_views_and_a_new_round():
    model = TACTICS.compact([ALRIK, ORK], {})
    assert model.start(0) == Stand(12, 12, 2) and model.start(1) == Stand(12, 12, 1)
    hurt = model.view(1, Stand(3, 12, 0, 2, frozenset()))
    assert (hurt.current("körperlich"), hurt.current("Glückspool")) == (3, 0)
    assert adz.core.reaktionen(hurt) == 2 and adz.damage.verletzungsmalus(hurt) == 4
    assert model.new_round(1, Stand(3, 12, 0, 2)) == Stand(3, 12, 0, 0)
    assert not model.standing(1, Stand(0, 12, 0, 0, frozenset({"bewusstlos", "dem Tod nahe"})))
    assert not model.standing(1, Stand(5, 0, 0)) and model.standing(1, Stand(1, 1, 0))
    assert model.resources(0, Stand(7, 12, 1)) == {"körperlich": 7, "geistig": 12, "Glückspool": 1}
    # a figure out of the fight threatens nothing (the forecast ranks every state it can come to)
    assert TACTICS.threat(model.view(0, Stand(0, 12, 1, 0, frozenset({"bewusstlos", "dem Tod nahe"}))),
                          model.fight) == 0 < TACTICS.threat(model.view(0, Stand(12, 12, 1)), model.fight)
    # a reaction this round, as the engine records it: the count is the state's, cleared at the round's end
    reacted = figure("Ork", "Orks", {"Reaktionen: 1": {"remaining": 1, "tick": "round_end"}}, KO=2,
                     fertigkeiten=["Verteidigung 1"], waffen=["Keule (Hiebwaffen, KK, GS 2)"])
    model = TACTICS.compact([ALRIK, reacted], {})
    assert model.start(1) == Stand(12, 12, 1, 1)
    assert adz.core.reaktionen(model.view(1, model.new_round(1, model.start(1)))) == 0


def test_what_the_model_covers():
    assert covers([ALRIK, ORK, GEIST], {})
    spell = figure("Ilsa", "Spieler", {"Konzentration: Licht": {}}, waffen=["Dolch (Dolche, GE, GS 2)"])
    timed = figure("Ork", "Orks", {"betäubt": {"remaining": 2, "tick": "round_end"}})
    long_reaction = figure("Ork", "Orks", {"Reaktionen: 1": {"remaining": 3, "tick": "round_end"}})
    for other in (spell, timed, long_reaction):   # a maintained spell, conditions that end mid-fight
        assert not covers([ALRIK, other], {}) and TACTICS.compact([ALRIK, other], {}) is None
    bow = figure("Schütze", "Orks", waffen=["Kurzbogen (Bögen, GS 3, RK C)"])
    assert covers([ALRIK, bow], {}) and TACTICS.compact([ALRIK, bow], {}) is None   # no distance in a forecast
    # the GM's track shorter than the figures' (kept before it changed): they would stand without dice
    short = {"adz": {"dateien": [{"schadensleiste": {"malus": SHORT}}]}}
    assert not covers([ALRIK, ORK], short) and covers([figure("Alrik", "Spieler", daten=adz.EINSTELLUNGEN.of(short)),
                                                      figure("Ork", "Orks", daten=adz.EINSTELLUNGEN.of(short))], short)


# -- a duel on a short track, in icepool: a state is (Alrik's free steps, his luck pool, the Ork's free
# steps, its luck pool, whose turn: 0 Alrik) -------------------------------------------------------------

SUCCESS = icepool.Die([0, 0, 0, 0, 1, 1])   # Erfolge: a W6 showing 5 or 6
#: (attack dice, defence dice, resistance dice, Grundschaden, RS, GL)
DUELLANTEN = {"Alrik": (3, 2, 1, 3, 0, 2), "Ork": (3, 1, 2, 2, 1, 1)}
SHEETS = {"Alrik": {**ONES, "KK": 2, "GL": 2, "fertigkeiten": ["Schwerter 1", "Verteidigung 1"],
                    "waffen": ["Kurzschwert (Schwerter, KK, GS 3)"]},
          "Ork": {**ONES, "KK": 2, "KO": 2, "fertigkeiten": ["Hiebwaffen 1"],
                  "waffen": ["Keule (Hiebwaffen, KK, GS 2)"], "ausruestung": ["Lederwams (RS 1)"]}}


def successes(n):
    return n @ SUCCESS if n > 0 else icepool.Die([0])


def duel_turn(state):
    """One attack by the seed: attack successes (attack dice less the injury malus); with one, the target
    defends (each of its successes cancels one; its first reaction of the round: all its dice); one left
    is a hit for Grundschaden + the rest − RS, each resistance success takes one off; the last step marked
    takes a figure out. The luck pool (its dice, then one less): the attacker's on its attack after a miss
    or a parry, the target's on its defence after a hit that left damage."""
    ka, la, ko, lo, whose = state
    if ka <= 0 or ko <= 0:
        return state
    me, it = (DUELLANTEN["Alrik"], DUELLANTEN["Ork"])[::1 if whose == 0 else -1]
    (kx, lx), (ky, ly) = ((ka, la), (ko, lo))[::1 if whose == 0 else -1]
    steps = len(SHORT)
    malus = lambda free: SHORT[steps - free - 1] if free < steps else 0   # noqa: E731
    att, dfn, res, gs, rs = max(0, me[0] - malus(kx)), max(0, it[1] - malus(ky)), it[2], me[3], it[4]

    def end(final, lx2, ly2):
        ky2 = max(0, ky - final)
        return (kx, lx2, ky2, ly2, 1) if whose == 0 else (ky2, ly2, kx, lx2, 0)

    def before(left):
        return max(0, gs + left - rs) if left >= 1 else 0

    def resisted(left, then):
        return icepool.map(then, successes(res)) if before(left) > 0 else then(0)

    def lucky_attack(a, d):
        def more(k):
            if d is None and a + k >= 1:
                return icepool.map(lambda d2: resisted(a + k - d2, lambda r: end(max(0, before(a + k - d2) - r),
                                                                                  lx - 1, ly)), successes(dfn))
            return resisted(a + k - (d or 0), lambda r: end(max(0, before(a + k - (d or 0)) - r), lx - 1, ly))
        return icepool.map(more, successes(lx))

    def after(a, d):
        left = a - (d or 0)
        if left < 1:
            return lucky_attack(a, d) if lx > 0 else end(0, lx, ly)

        def then(r):
            if before(left) - r > 0 and ly > 0:
                return icepool.map(lambda k: end(max(0, before(left - k) - r), lx, ly - 1), successes(ly))
            return end(max(0, before(left) - r), lx, ly)
        return resisted(left, then)

    return icepool.map(lambda a: icepool.map(lambda d: after(a, d), successes(dfn)) if a >= 1 else after(a, None),
                       successes(att))


def chance(die, test) -> float:
    return float(Fraction(sum(q for o, q in die.items() if test(o)), die.denominator()))


def campaign(tmp_path):
    """A campaign on the GM's short track."""
    c = Campaign.open(tmp_path / "k.sqlite")
    c.set_ruleset("adz")
    (tmp_path / "kurz.yaml").write_text("schadensleiste:\n  malus: [0, 1, 2, X]\n", encoding="utf-8")
    adz.einrichten(tmp_path / "kurz.yaml", kampagne=c)
    return c


def duel(tmp_path, begun=True):
    """Alrik against an orc on the GM's short track (initiative 2W6 + 2 each: either first alike)."""
    enc = campaign(tmp_path).new_encounter("Hohlweg")
    enc.add("Alrik", side="Spieler", sheet=SHEETS["Alrik"])
    enc.add("Ork", side="Orks", sheet=SHEETS["Ork"])
    if begun:
        enc.start(seed=3)
    return enc


def ends(alrik_first):
    steps = len(SHORT)
    return icepool.map(duel_turn, (steps, DUELLANTEN["Alrik"][5], steps, DUELLANTEN["Ork"][5], 0 if alrik_first else 1),
                       repeat="inf")


def test_a_duel_exactly_as_icepool_finds_it(tmp_path):
    enc = duel(tmp_path)
    f = enc.forecast()
    assert (f.method, f.weg) == ("exakt", "exakt") and "Markow-Kette" in f.notes[0]
    alrik_first = enc.record["order"][0] == "Alrik"
    end = ends(alrik_first)
    won = chance(end, lambda o: o[2] <= 0)
    assert 0.3 < won < 0.95
    assert f.win["Spieler"].p == pytest.approx(won, abs=1e-9)
    assert f.win["Orks"].p == pytest.approx(1 - won, abs=1e-9) and f.draw.p == pytest.approx(0, abs=1e-9)
    assert f.figures["Ork"].falls.p == pytest.approx(won, abs=1e-9)
    for name, (track, luck) in (("Alrik", (0, 1)), ("Ork", (2, 3))):
        got = f.figures[name].resources
        assert got["körperlich"].value == pytest.approx(end.marginals[track].mean(), abs=1e-9)
        assert got["Glückspool"].value == pytest.approx(end.marginals[luck].mean(), abs=1e-9)
        assert got["geistig"].value == pytest.approx(len(SHORT), abs=1e-9)
    start = (len(SHORT), DUELLANTEN["Alrik"][5], len(SHORT), DUELLANTEN["Ork"][5], 0 if alrik_first else 1)
    for r in (1, 2, 4):   # a round is two turns
        after = icepool.map(duel_turn, start, repeat=2 * r)
        assert f.rounds.p_at_most(r) == pytest.approx(chance(after, lambda o: o[0] <= 0 or o[2] <= 0), abs=1e-9)


@pytest.mark.parametrize("short", [True, False], ids=["short_track", "whole_track"])
def test_the_plans_of_every_malus_share_what_follows_the_defence(tmp_path, monkeypatch, short):
    """Every plan's chain a duel's forecast asks for (``compact._folgen``), what follows its defence shared by
    the plans of every malus (``exact.Rest``), has the ends of the chain rolled for that plan alone from its
    attack roll (``exact.Enden``), with each pair of luck pools it was asked with."""
    asked: list = []
    real = compact._folgen
    monkeypatch.setattr(compact, "_folgen", lambda *key: asked.append(key) or real(*key))
    if short:
        enc = duel(tmp_path)
    else:
        c = Campaign.open(tmp_path / "k.sqlite")
        c.set_ruleset("adz")
        enc = c.new_encounter("Hohlweg")
        enc.add("Alrik", side="Spieler", sheet={**SHEETS["Alrik"], "KO": 2, "GL": 3})
        enc.add("Ork", side="Orks", sheet={**SHEETS["Ork"], "GL": 2, "fertigkeiten": ["Hiebwaffen 2", "Verteidigung 2"]})
        enc.start(seed=3)
    assert enc.forecast().weg == "exakt"
    plans = {z for z, *_ in asked}
    shared: dict = {}
    for z in plans:
        shared.setdefault((z.grundschaden, z.rs, z.widerstand, z.mw), set()).add((z.angriff, z.verteidigung))
    assert len(shared) == 2 and all(len(pools) >= (6 if short else 12) for pools in shared.values())   # malus
    for z, luck_a, luck_v, _, rule in asked:
        pools = {"angriff": luck_a, "verteidigung": luck_v, "widerstand": luck_v}
        attack, defence = angriff_dist(z.angriff), angriff_dist(z.verteidigung) if z.verteidigt else None
        alone = Enden({(a, None, None): p for a, p in attack.pmf().items()}, defence, z.grundschaden, z.rs,
                      erfolge_dist(z.widerstand), z.mw, rule).mit(pools)
        got = compact._kette(z, rule).mit(pools)
        assert got.keys() == alone.keys()
        assert all(got[k] == pytest.approx(q, rel=0, abs=1e-15) for k, q in alone.items()), (z, luck_a, luck_v)


@pytest.mark.slow
def test_before_the_fight_either_may_go_first(tmp_path):
    """Initiative still to roll, 2W6 + 2 each, a tie rolled off: either first alike, the exact forecast
    weighs both duels by it; within the procedure path's interval, and sampled on the model."""
    enc = duel(tmp_path, begun=False)
    f = enc.forecast()
    first, second = (chance(ends(x), lambda o: o[2] <= 0) for x in (True, False))
    assert (f.weg, f.start_round) == ("exakt", 0) and abs(first - second) > 0.02   # the order matters here
    assert f.win["Spieler"].p == pytest.approx((first + second) / 2, abs=1e-9)
    played = enc.forecast(n=300, seed=5, weg="prozeduren")
    sampled = enc.forecast(n=10_000, seed=5)
    assert (played.weg, sampled.weg) == ("prozeduren", "kompakt")
    for estimate in (played, sampled):
        assert estimate.win["Spieler"].low <= f.win["Spieler"].p <= estimate.win["Spieler"].high
        for name, fig in f.figures.items():
            got = estimate.figures[name]
            assert got.falls.low <= fig.falls.p <= got.falls.high
            for key, mean in fig.resources.items():   # six means at once: twice the 95 % margin (~4 sd)
                assert abs(got.resources[key].value - mean.value) <= 2 * got.resources[key].margin + 1e-9, (name, key)


@pytest.mark.slow
def test_two_against_two_as_the_procedures_play_it(tmp_path):
    """A fight where a figure defends twice in a round (the second time with half its dice) and the
    weakest is attacked first: sampled on the model as the procedures play it."""
    enc = campaign(tmp_path).new_encounter("Hohlweg")
    enc.add("Alrik", side="Spieler", sheet=SHEETS["Alrik"])
    enc.add("Ilsa", side="Spieler", sheet={**SHEETS["Alrik"], "GE": 3, "GL": 1, "fertigkeiten": ["Schwerter 1"]})
    enc.add("Ork", side="Orks", sheet={**SHEETS["Ork"], "fertigkeiten": ["Hiebwaffen 1", "Verteidigung 3"]}, count=2)
    enc.start(seed=1)
    played = enc.forecast(n=200, seed=21, weg="prozeduren")
    fast = enc.forecast(n=20_000, seed=21)
    assert_agree(played, fast)
    assert 0.1 < fast.win["Spieler"].p < 0.9


def test_a_fight_the_model_does_not_cover_plays_the_procedures(tmp_path):
    """A condition that runs out mid-fight (or a maintained spell): the procedures, and no compact path."""
    enc = duel(tmp_path)
    enc.campaign.add_condition("Ork", "betäubt", rounds=2)
    f = enc.forecast(n=3, seed=1)
    assert (f.method, f.weg, f.fights) == ("simuliert", "prozeduren", 3) and "Prozeduren" in f.notes[0]
    with pytest.raises(ForecastError, match="kein kompaktes Modell"):
        enc.forecast(weg="kompakt")
