"""The dice check: echte Würfel as the journal records them (rolls, resolutions, initiative, a player's
page), counted per figure and die size and tested against fair dice (counts, statistic, degrees of
freedom and p-value against a hand computation and scipy); its filters, the message for too few
throws, a journal without echte Würfel, older journals, its German errors and its text and HTML."""

import json

import numpy as np
import pytest
from panel_driving import make_campaign
from resolve_campaigns import campaign as ruleset_campaign
from scipy import stats

import rpgkernel
from rpgkernel import Campaign, RpgError
from rpgkernel.dice import roll_many
from rpgkernel.server import actions
from rpgkernel.state import dicecheck

HOSTILE = '<img src=x onerror="alert(1)">&'


@pytest.fixture
def camp(tmp_path):
    with Campaign.open(tmp_path / "k.sqlite") as c:
        yield c


def real(event):
    return event.data.get("real_dice")


def by_hand(counts, sides):
    """The statistic of ``counts`` against a fair die, written out."""
    expected = sum(counts) / sides
    return sum((c - expected) ** 2 / expected for c in counts)


# -- what the journal records -----------------------------------------------------------------------
def test_rolls_record_their_real_dice_and_who_threw_them(camp):
    camp.log_roll(rpgkernel.roll("2W6+W8", dice=[3, 5, 8]))
    camp.log_rolls(roll_many("W20", 2, dice=[20, 1]), figure="Ritter")
    camp.log_roll(rpgkernel.roll("W6!+2WF", dice=[6, 2, 1, -1]))
    camp.log_roll(rpgkernel.roll("3W6", seed=4))
    first, *ritter, exploding, random = camp.journal(kind="wurf")
    assert real(first) == {"by": None, "faces": [[6, 3], [6, 5], [8, 8]]}
    assert [real(e) for e in ritter] == [{"by": "Ritter", "faces": [[20, 20]]}, {"by": "Ritter", "faces": [[20, 1]]}]
    assert real(exploding) == {"by": None, "faces": [[6, 6], [6, 2]]}   # both throws; no Fate dice
    assert real(random) is None


def test_a_resolution_records_each_throw_once_and_a_players_page_as_its_figure(tmp_path):
    with make_campaign(tmp_path / "f.sqlite") as camp:
        pid = rpgkernel.resolve("angriff Söldner -> Ritter", campaign=camp, dice=[6, 3]).id   # open: Deny
        answer = actions.act(camp, "Ritter", json.dumps({"type": "wahl", "aufloesung": pid, "key": "deny",
                                                         "optionen": {"würfel": 6}, "wuerfel": [14]}), "token",
                                 lambda *_: None)   # no limit
        assert answer["result"].startswith("Genommen: Deny")
        rpgkernel.resolve("angriff Söldner -> Knappe\ndeny Knappe würfel=5", campaign=camp, dice=[5, 2, 9])
        rpgkernel.resolve("angriff Ritter -> Söldner", campaign=camp, seed=3)
        opened, closed, both, random = camp.journal(kind="auflösung")
        assert (opened.data["open"], closed.data["pending"]) == (True, opened.data["pending"])
        # the attack dice when they were thrown, the SPI save with the page's figure; never a replayed face
        assert real(opened) == {"by": None, "faces": [[8, 6], [4, 3]]}
        assert real(closed) == {"by": "Ritter", "faces": [[20, 14]]}
        assert real(both) == {"by": None, "faces": [[8, 5], [4, 2], [20, 9]]}   # opened and closed in one cell
        assert real(random) is None
        check = camp.dice_check()
        assert [(x.who, x.sides, x.counts) for x in check.tests] == [
            ("Spielleitung", 4, (0, 1, 1, 0)), ("Spielleitung", 8, (0, 0, 0, 0, 1, 1, 0, 0)),
            ("Spielleitung", 20, (0,) * 8 + (1,) + (0,) * 11), ("Ritter", 20, (0,) * 13 + (1,) + (0,) * 6)]


def test_resolve_names_the_figure_that_threw_the_dice(tmp_path):
    with make_campaign(tmp_path / "f.sqlite") as camp:
        rpgkernel.resolve("angriff Knappe -> Wache", campaign=camp, dice=[4, 1], dice_by="Knappe")
        assert real(camp.journal(kind="auflösung")[-1])["by"] == "Knappe"
        with pytest.raises(RpgError, match="Ungültiger Name"):
            rpgkernel.resolve("angriff Knappe -> Wache", campaign=camp, dice=[4, 1], dice_by="\n")


def test_initiative_rolls_record_their_real_dice(tmp_path):
    with ruleset_campaign("midgard", tmp_path / "m.sqlite") as camp:
        camp.encounter.start(dice=[3, 4, 5])
        [event] = camp.journal(kind="initiative")
        assert real(event) == {"by": None, "faces": [[6, 3], [6, 4], [6, 5]]}
        assert camp.dice_check(encounter="Gasse").tests[0].counts == (0, 0, 1, 1, 1, 0)


# -- the test -------------------------------------------------------------------------------------------
def test_a_die_counted_by_hand(camp):
    """30 throws of a W6, 3 7 5 5 4 6 times: expected 5 each, χ² = (4 + 4 + 0 + 0 + 1 + 1) / 5 = 2."""
    faces = [1] * 3 + [2] * 7 + [3] * 5 + [4] * 5 + [5] * 4 + [6] * 6
    camp.log_rolls(roll_many("W6", 30, dice=faces))
    [test] = camp.dice_check().tests
    assert (test.figure, test.who, test.sides, test.counts, test.throws) == (None, "Spielleitung", 6,
                                                                           (3, 7, 5, 5, 4, 6), 30)
    assert test.statistic == pytest.approx(2.0, rel=1e-15) and test.df == 5 and test.expected == 5
    assert test.p == pytest.approx(stats.chi2.sf(2.0, 5), rel=1e-10) and test.reliable and not test.notable
    assert test.verdict == "kein Hinweis auf einen unfairen Würfel (p = 84,91 %)"


def test_a_fair_and_a_loaded_die(camp):
    rng = np.random.default_rng(2024)
    fair = rng.integers(1, 7, 300)
    loaded = rng.choice(np.arange(1, 7), 300, p=[0.13, 0.15, 0.15, 0.15, 0.15, 0.27])
    camp.log_rolls(roll_many("W6", 300, dice=fair.tolist()))
    camp.log_rolls(roll_many("W6", 100, dice=loaded[:100].tolist()), figure="Ritter")
    camp.log_roll(rpgkernel.roll("200W6", dice=loaded[100:].tolist()), figure="Ritter")
    gm, ritter = camp.dice_check().tests
    for test, thrown in ((gm, fair), (ritter, loaded)):
        counts = np.bincount(thrown, minlength=7)[1:]
        assert test.counts == tuple(counts) and test.throws == 300 and test.df == 5
        assert test.statistic == pytest.approx(by_hand(counts, 6), rel=1e-12)
        want = stats.chisquare(counts)
        assert test.statistic == pytest.approx(want.statistic, rel=1e-12)
        assert test.p == pytest.approx(want.pvalue, rel=1e-10)
    assert gm.p > 0.05 and gm.verdict.startswith("kein Hinweis auf einen unfairen Würfel (p = ")
    assert ritter.notable and ritter.verdict == f"auffällig: {dicecheck.p_value(ritter.p)}"
    assert ritter.p < 0.01 and ritter.verdict.startswith("auffällig: p ")


@pytest.mark.parametrize("p, shown", [(0.8491, "p = 84,91 %"), (0.003, "p = 0,30 %"), (1e-9, "p < 0,01 %"),
                                      (0.999999, "p > 99,99 %")])
def test_the_p_value_in_words(p, shown):
    assert dicecheck.p_value(p) == shown


def test_too_few_throws_say_so_instead_of_a_verdict_and_still_count(camp):
    camp.log_rolls(roll_many("W6", 10, dice=[6] * 10), figure="Knappe")
    [test] = camp.dice_check().tests
    assert test.counts == (0, 0, 0, 0, 0, 10) and not test.reliable and not test.notable and test.p < 1e-6
    assert test.verdict == ("zu wenige Würfe für einen verlässlichen Test: je Augenzahl erwartet 1,7, "
                            "nötig sind 5 (ab 30 Würfen eines W6)")
    assert "  gezählt  0  0  0  0  0  10" in repr(camp.dice_check())


def test_filters_by_figure_encounter_and_die_size(camp):
    camp.add_character("Ritter")
    camp.log_roll(rpgkernel.roll("W6+W20", dice=[1, 20]))   # no encounter yet
    camp.new_encounter("Furt")
    camp.log_roll(rpgkernel.roll("2W6", dice=[2, 3]), figure="Ritter")
    camp.log_roll(rpgkernel.roll("W8", dice=[8]))
    camp.new_encounter("Turm")
    camp.log_roll(rpgkernel.roll("W6", dice=[4]), figure="Ritter")

    def shown(**filters):
        return [(x.who, x.sides, x.throws) for x in camp.dice_check(**filters).tests]

    assert shown() == [("Spielleitung", 6, 1), ("Spielleitung", 8, 1), ("Spielleitung", 20, 1), ("Ritter", 6, 3)]
    assert shown(figure="Ritter") == [("Ritter", 6, 3)]
    assert shown(figure="Spielleitung") == [("Spielleitung", 6, 1), ("Spielleitung", 8, 1), ("Spielleitung", 20, 1)]
    assert shown(encounter="Furt") == [("Spielleitung", 8, 1), ("Ritter", 6, 2)]
    assert shown(sides=6) == [("Spielleitung", 6, 1), ("Ritter", 6, 3)]
    assert shown(figure="Ritter", encounter="Turm", sides=6) == [("Ritter", 6, 1)]
    empty = camp.dice_check(figure="Ritter", encounter="Furt", sides=20)
    assert empty.tests == () and repr(empty) == ("Im Journal stehen keine passenden echten Würfel "
                                                 "(Figur Ritter, Begegnung Furt, W20).")


def test_a_journal_without_real_dice(camp):
    camp.log_roll(rpgkernel.roll("3W6", seed=1))
    camp.add_character("Ritter")
    check = camp.dice_check()
    assert check.tests == () and repr(check) == "Im Journal stehen keine echten Würfel."
    assert "Im Journal stehen keine echten Würfel." in check._repr_html_()
    assert camp.dice_check(figure="Ritter").tests == ()   # a figure without echte Würfel is no error


def test_older_rolls_are_read_from_their_dice_without_w3(camp):
    """Entries written before ``real_dice``: a given roll counts its dice (not a W3: a Fate die looked the
    same), a random one nothing."""
    def old(total, given, dice, figures=()):
        roll = {"expression": "…", "total": total, "successes": None, "given": given,
                "dice": [{"sides": s, "faces": f, "rerolled": [False] * len(f), "value": sum(f), "kept": True,
                          "success": None} for s, f in dice]}
        with camp.transaction() as tx:
            tx.event("wurf", "…", list(figures), None, roll=roll)

    old(9, True, [(6, [6, 3]), (3, [1]), (6, [2])], ["Ritter"])
    old(4, False, [(6, [4])])
    old(1, True, [(3, [1])])
    [test] = camp.dice_check().tests
    assert (test.who, test.sides, test.counts) == ("Ritter", 6, (0, 1, 1, 0, 0, 1))


def test_damaged_or_strange_entries_are_left_out(camp):
    with camp.transaction() as tx:
        tx.event("wurf", "…", [], None, real_dice={"by": 7, "faces": [[6, 7], [6, 2], "x", [1, 1], [6, True]]})
        tx.event("wurf", "…", [5], None, roll={"given": True, "dice": [{"sides": 6, "faces": 4}, "x", {"sides": 6}]})
        tx.event("wurf", "…", [], None, roll={"given": True, "dice": 7})
    [test] = camp.dice_check().tests
    assert (test.who, test.sides, test.counts) == ("Spielleitung", 6, (0, 1, 0, 0, 0, 0))


@pytest.mark.parametrize("filters, message", [
    ({"figure": "Ritte"}, "Unbekannte Figur 'Ritte'. Meinten Sie 'Ritter'?"),
    ({"figure": "Spielleitug"}, "Unbekannte Figur 'Spielleitug'. Meinten Sie 'Spielleitung'?"),
    ({"encounter": "Frt"}, "Unbekannte Begegnung 'Frt'. Meinten Sie 'Furt'?"),
    ({"sides": 1}, "Ungültige Würfelgröße 'W1': gemeint ist ein Würfel von W2 bis W10.000 (etwa W6 oder W20)."),
    ({"sides": 10_001}, "Ungültige Würfelgröße 'W10001'"),
    ({"sides": "6"}, "Ungültige Würfelgröße \"'6'\""),
    ({"sides": True}, "Ungültige Würfelgröße 'True'"),
])
def test_unknown_names_and_bad_sizes_are_german_errors(camp, filters, message):
    camp.add_character("Ritter")
    camp.new_encounter("Furt")
    with pytest.raises(RpgError) as info:
        camp.dice_check(**filters)
    assert str(info.value).startswith(message)


def test_a_figure_known_only_from_the_journal_may_be_named(camp):
    camp.log_roll(rpgkernel.roll("W6", dice=[5]), figure="Gast")
    assert [x.who for x in camp.dice_check(figure="Gast").tests] == ["Gast"]


# -- text and HTML ----------------------------------------------------------------------------------
def test_the_text_form(camp):
    camp.log_rolls(roll_many("W6", 30, dice=[1] * 3 + [2] * 7 + [3] * 5 + [4] * 5 + [5] * 4 + [6] * 6))
    camp.log_roll(rpgkernel.roll("W20", dice=[17]), figure="Ritter")
    assert repr(camp.dice_check()) == "\n".join([
        "Würfelcheck: echte Würfel gegen faire Würfel",
        "",
        "Spielleitung, W6: 30 Würfe, je Augenzahl erwartet 5, χ² = 2,00, Freiheitsgrade: 5",
        "  kein Hinweis auf einen unfairen Würfel (p = 84,91 %)",
        "  Augen    1  2  3  4  5  6",
        "  gezählt  3  7  5  5  4  6",
        "",
        "Ritter, W20: 1 Wurf, je Augenzahl erwartet 0,1, χ² = 19,00, Freiheitsgrade: 19",
        "  zu wenige Würfe für einen verlässlichen Test: je Augenzahl erwartet 0,1, nötig sind 5 "
        "(ab 100 Würfen eines W20)",
        "  Augen    1  2  3  4  5  6  7  8  9  10  11  12  13  14  15  16  17  18  19  20",
        "  gezählt  0  0  0  0  0  0  0  0  0   0   0   0   0   0   0   0   1   0   0   0",
        "",
        "Gezählt ist jede Augenzahl eines echten Würfels, auch neu gewürfelte und explodierende Würfe "
        "(keine Fate-Würfel). Auffällig heißt: p unter 1,00 %; ein fairer Würfel ist es einmal in 100 Tests."])


def test_a_w100_shows_its_counts_twenty_faces_a_row(camp):
    camp.log_roll(rpgkernel.roll("W%", dice=[100]))
    text = repr(camp.dice_check())
    assert text.count("  Augen ") == 5 and "  Augen    81  82" in text
    html = camp.dice_check()._repr_html_()
    assert html.count("<rect ") == 100 + 1 and html.count("<tr>") == 10   # the bars and the legend's mark


def test_the_html_form_has_a_chart_per_figure_and_die(camp):
    camp.log_rolls(roll_many("W6", 12, dice=[1, 2, 3, 4, 5, 6] * 2))
    camp.log_roll(rpgkernel.roll("2W4", dice=[4, 4]), figure="Knappe")
    html = camp.dice_check()._repr_html_()
    assert html.count("<svg ") == 2 and html.count('class="rpgk-dicetest"') == 2
    assert "Spielleitung, W6: gezählte Würfe je Augenzahl (Balken) gegen die erwarteten 2 (Linie)" in html
    assert "<title>3: 2 gezählt, 2 erwartet</title>" in html and "<title>4: 2 gezählt, 0,5 erwartet</title>" in html
    assert 'stroke-dasharray="6 4"' in html and 'class="rpgk-verdict rpgk-notable"' not in html
    assert camp.dice_check()._repr_mimebundle_()["text/plain"] == repr(camp.dice_check())


def test_a_notable_die_is_marked(camp):
    camp.log_rolls(roll_many("W6", 60, dice=[6] * 40 + [1, 2, 3, 4, 5] * 4), figure="Knappe")
    html = camp.dice_check()._repr_html_()
    assert '<div class="rpgk-verdict rpgk-notable" style="font-weight:bold;border-left:4px solid #e53935;padding-left:6px">' \
           'auffällig: p &lt; 0,01 %</div>' in html


def test_the_html_escapes_a_hostile_figure_name(camp):
    camp.log_rolls(roll_many("W6", 3, dice=[1, 2, 3]), figure=HOSTILE)
    check = camp.dice_check(figure=HOSTILE)
    html = check._repr_html_()
    assert "<img" not in html and 'onerror="' not in html and "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;" in html
    assert [x.who for x in check.tests] == [HOSTILE] and HOSTILE in repr(check)
    empty = camp.dice_check(figure=HOSTILE, sides=20)._repr_html_()
    assert "<img" not in empty and "Figur &lt;img" in empty
