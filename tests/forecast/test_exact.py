"""The exact forecast: an absorbing Markov chain on the compact model, against icepool's
``map(..., repeat='inf')`` (the duel written anew from the seed text, with and without morale) and
against the procedure path."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from rpgkernel import Campaign, messages, numerals
from rpgkernel.forecast import MAX_STATES, ForecastError

from .test_sampled import assert_within

icepool = pytest.importorskip("icepool")

RITTER = {"vig": 6, "cla": 12, "spi": 13, "gd": 3, "ruestung": 2, "spielfigur": True,
          "waffen": ["Streitkolben (W8, wuchtig)", "Schild (W4)"]}
SÖLDNER = {"vig": 5, "cla": 10, "spi": 9, "gd": 2, "ruestung": 2, "waffen": ["Speer (W8, wuchtig)", "Schild (W4)"]}


def fight(tmp_path, players, foes, name="Furt"):
    c = Campaign.open(tmp_path / "k.sqlite")
    c.set_ruleset("bastionland")
    enc = c.new_encounter(name)
    for who, sheet in players:
        enc.add(who, side="Spieler", sheet=sheet)
    for who, sheet in foes:
        enc.add(who, side="Söldner", sheet=sheet)
    return c, enc


# -- the duel in icepool: a state is (Ritter's GD, VIG, Fatigued; Söldner's GD, VIG; whose turn; over) --

def harm(gd, vig, amount):
    """GD, VIG and whether the figure is out of the fight after ``amount`` damage (Schaden): GD takes
    it first; beyond GD the rest comes off VIG; losing half the VIG left is a Todeswunde, 0 VIG death."""
    if amount <= 0 or amount <= gd:
        return gd - max(amount, 0), vig, False
    lost = min(amount - gd, vig)
    return 0, vig - lost, vig - lost == 0 or 2 * lost >= vig


def turns(moral=True):
    """One turn: the players act first (Überraschung); the Ritter denies the highest die when it lowers
    the damage and is not Fatigued, then saves with SPI 13 or is Fatigued (Deny; Feats). With ``moral``
    the Söldner, wounded for the first time (its VIG below its maximum) and still in the fight, saves
    with SPI 9 or flees, which ends the fight (Wankender Kampfeswille); the Ritter, a player character,
    never does."""
    def turn(state):
        gr, vr, tired, gs, vs, whose, over = state
        if over:
            return state
        if whose == 0:
            def hit(a, b):
                g, v, out = harm(gs, vs, max(a, b) - SÖLDNER["ruestung"])
                if moral and not out and v < vs == SÖLDNER["vig"]:
                    return icepool.Die({(gr, vr, tired, g, v, 1, False): SÖLDNER["spi"],
                                        (gr, vr, tired, g, v, 1, True): 20 - SÖLDNER["spi"]})
                return gr, vr, tired, g, v, 1, out
            return icepool.map(hit, icepool.d8, icepool.d4)

        def hit(a, b):
            top, second = max(a, b), min(a, b)
            if not tired and top > max(second, RITTER["ruestung"]):
                g, v, out = harm(gr, vr, second - RITTER["ruestung"])
                return icepool.Die({(g, v, False, gs, vs, 0, out): RITTER["spi"],
                                    (g, v, True, gs, vs, 0, out): 20 - RITTER["spi"]})
            g, v, out = harm(gr, vr, top - RITTER["ruestung"])
            return g, v, tired, gs, vs, 0, out
        return icepool.map(hit, icepool.d8, icepool.d4)
    return turn


START = (RITTER["gd"], RITTER["vig"], False, SÖLDNER["gd"], SÖLDNER["vig"], 0, False)


def chance(die, test) -> float:
    return float(Fraction(sum(q for o, q in die.items() if test(o)), die.denominator()))


@pytest.fixture(scope="module", params=[True, False], ids=["moral", "ohne_moral"])
def icepool_end(request):
    return request.param, icepool.map(turns(request.param), START, repeat="inf")


def test_a_duel_exactly_as_icepool_finds_it(tmp_path, icepool_end):
    moral, icepool_end = icepool_end
    turn = turns(moral)
    _, enc = fight(tmp_path, [("Ritter", RITTER)], [("Söldner", SÖLDNER)])
    f = enc.forecast(moral=moral)
    assert (f.method, f.weg, f.fights, f.moral) == ("exakt", "exakt", 0, moral) and f.precision == 0
    assert "Markow-Kette" in f.notes[0]
    won = chance(icepool_end, lambda o: o[6] and o[5] == 1)   # over after the Ritter's turn
    assert 0.5 < won < 0.99
    assert f.win["Spieler"].p == pytest.approx(won, abs=1e-12)
    assert f.win["Söldner"].p == pytest.approx(1 - won, abs=1e-12)
    assert f.draw.p == pytest.approx(0, abs=1e-12)
    assert f.figures["Söldner"].falls.p == pytest.approx(won, abs=1e-12)
    assert f.figures["Ritter"].falls.p == pytest.approx(1 - won, abs=1e-12)
    for key, slot in (("GD", 0), ("VIG", 1)):
        assert f.figures["Ritter"].resources[key].value == pytest.approx(icepool_end.marginals[slot].mean(), abs=1e-9)
        assert f.figures["Söldner"].resources[key].value == \
            pytest.approx(icepool_end.marginals[slot + 3].mean(), abs=1e-9)
    spi = f.figures["Ritter"].resources["SPI"]
    assert spi.value == pytest.approx(13) and spi.margin == 0
    # a round is two turns: the fight is over by round r as often as after 2r turns
    for r in (1, 2, 3, 5):
        after = icepool.map(turn, START, repeat=2 * r)
        assert f.rounds.p_at_most(r) == pytest.approx(chance(after, lambda o: o[6]), abs=1e-12)


def test_the_paths_note_is_read_in_the_language_it_is_shown_in(tmp_path):
    """A forecast formats no number of its notes as it is made (the locale's number data need not load
    for it): the path's note with its number of states is looked up as the notes are read."""
    _, enc = fight(tmp_path, [("Ritter", RITTER)], [("Söldner", SÖLDNER)])
    numerals._cached.cache_clear()
    f = enc.forecast()
    assert numerals._cached.cache_info().misses == 0
    german = f.notes[0]
    assert "Markow-Kette" in german and numerals._cached.cache_info().misses == 1
    with messages.using("en"):
        english = f.notes[0]
        assert f.to_dict()["notes"][0] == english
    assert english.startswith("Exact: an absorbing Markov chain over ") and german != english == english.strip()
    assert f.notes[0] == german


def test_morale_changes_the_duel(tmp_path):
    """The Söldner that may flee when first wounded loses more often, and the card says where morale was
    left out."""
    _, enc = fight(tmp_path, [("Ritter", RITTER)], [("Söldner", SÖLDNER)])
    played, left_out = enc.forecast(), enc.forecast(moral=False)
    assert played.win["Spieler"].p > left_out.win["Spieler"].p + 0.01
    assert played.to_dict()["moral"] is True and left_out.to_dict()["moral"] is False
    assert "Ohne Moral" in left_out.notes[-1] and not any("Moral" in n for n in played.notes)


def test_exact_within_the_procedure_paths_interval(tmp_path):
    """The same duel played 600 times through the procedures (seeded), morale and all."""
    _, enc = fight(tmp_path, [("Ritter", RITTER)], [("Söldner", SÖLDNER)])
    exact, played = enc.forecast(), enc.forecast(n=600, seed=11, weg="prozeduren")
    assert played.weg == "prozeduren" and played.fights == 600 and "Prozeduren" in played.notes[0]
    assert_within(exact, played, ["GD", "VIG"])


def test_from_a_round_under_way(tmp_path):
    """In round 3, the Söldner's turn, a wounded Söldner and a Fatigued Ritter: exact and sampled agree,
    and the rounds count from round 3."""
    c, enc = fight(tmp_path, [("Ritter", RITTER)], [("Söldner", SÖLDNER)])
    enc.start()
    for _ in range(5):
        enc.next_turn()
    c.change("Söldner", "GD", -2)
    c.change("Söldner", "VIG", -1)
    c.add_condition("Ritter", "Fatigued")
    assert (enc.round, enc.current) == (3, "Söldner")
    exact, sampled = enc.forecast(), enc.forecast(n=20_000, seed=5)
    assert (exact.weg, sampled.weg, exact.start_round) == ("exakt", "kompakt", 3)
    assert exact.win["Spieler"].p != pytest.approx(enc.forecast(weg="exakt", zielwahl="verteilen").win["Söldner"].p)
    for side in exact.win:
        assert sampled.win[side].low <= exact.win[side].p <= sampled.win[side].high
    assert exact.rounds.min == 1 and abs(exact.rounds.mean - sampled.rounds.mean) < 0.05
    assert exact.figures["Ritter"].resources["VIG"].value < RITTER["vig"]


@pytest.mark.parametrize("moral", [True, False], ids=["moral", "ohne_moral"])
def test_two_against_one_with_every_target_picking(tmp_path, moral):
    """A fight of three is still small: exact for each target picking, within the compact path's interval
    (with morale: the two Söldner are a group, whose leader saves for both once one is out)."""
    _, enc = fight(tmp_path, [("Ritter", RITTER)], [("Söldner 1", SÖLDNER), ("Söldner 2", {**SÖLDNER, "vig": 3})])
    seen = set()
    for picking in ("schwächste", "verteilen", "gefährlichste"):
        exact = enc.forecast(zielwahl=picking, moral=moral)
        sampled = enc.forecast(n=20_000, seed=3, zielwahl=picking, moral=moral)
        assert exact.weg == "exakt" and exact.zielwahl == picking
        for name, fig in exact.figures.items():   # nine numbers at once: within three standard errors
            se = (fig.falls.p * (1 - fig.falls.p) / sampled.fights) ** 0.5
            assert abs(sampled.figures[name].falls.p - fig.falls.p) <= 3 * se, (picking, name)
        seen.add(round(exact.figures["Söldner 2"].falls.p, 9))
    assert len(seen) > 1   # the target picking matters


@pytest.mark.slow
def test_a_groups_morale_exactly_as_the_procedures_play_it(tmp_path):
    """The two Söldner are a group: once one is out, the first still standing saves with SPI for both
    or flees. Exact, within the procedure path's interval, and it matters."""
    _, enc = fight(tmp_path, [("Ritter", {**RITTER, "vig": 6})],
                   [("Söldner 1", SÖLDNER), ("Söldner 2", {**SÖLDNER, "spi": 4})])
    exact, played = enc.forecast(), enc.forecast(n=600, seed=13, weg="prozeduren")
    assert exact.weg == "exakt" and played.weg == "prozeduren"
    assert_within(exact, played)
    assert exact.win["Spieler"].p > enc.forecast(moral=False).win["Spieler"].p + 0.05


def test_which_path_and_why(tmp_path):
    _, enc = fight(tmp_path, [("Ritter", RITTER), ("Ritterin", RITTER)],
                   [(f"Söldner {i}", SÖLDNER) for i in range(1, 5)])
    f = enc.forecast(seed=1, precision=0.05, moral=False)
    assert (f.method, f.weg) == ("simuliert", "kompakt") and "kompakten Modell" in f.notes[0]
    assert f"mehr als {MAX_STATES:,}".replace(",", ".") in f.notes[1] and "Ohne Moral" in f.notes[2]
    with pytest.raises(ForecastError, match="zu viele Zustände"):
        enc.forecast(weg="exakt", moral=False)
    assert enc.forecast(weg="kompakt", n=200, seed=2).moral is True   # the Söldner's group morale on the model
    with pytest.raises(ForecastError, match="ja .True. oder nein"):
        enc.forecast(moral="nein")
    with pytest.raises(ForecastError, match="Unbekannter Weg"):
        enc.forecast(weg="schnell")
    with pytest.raises(ForecastError, match="keine Kämpfe"):
        enc.forecast(weg="exakt", n=10)


def test_a_fight_the_model_does_not_cover_plays_the_procedures(tmp_path):
    c, enc = fight(tmp_path, [("Ritter", RITTER)], [("Söldner", SÖLDNER)])
    c.add_condition("Söldner", "beeinträchtigt", rounds=2)   # a condition that counts down
    f = enc.forecast(n=3, seed=1)
    assert (f.method, f.weg, f.fights) == ("simuliert", "prozeduren", 3)
    with pytest.raises(ForecastError, match="kein kompaktes Modell"):
        enc.forecast(weg="kompakt")
    assert math.isclose(sum(c.p for c in f.win.values()) + f.draw.p, 1)
