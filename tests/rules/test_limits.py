"""The kit's resource limits (rpgkernel.rules.limits): how a change lands, the default and the GM's lower bounds."""

import pytest

from rpgkernel.rules import limits
from rpgkernel.rules.base import Ruleset
from rpgkernel.rules.figure import view
from rpgkernel.rules.kit import Limits, RulesError, spread

WITHIN = Limits(0, 5, "Untergrenze")


def figure(**resources):
    return view({"name": "A", "resources": {k: {"value": v, "max": m} for k, (v, m) in resources.items()}})


def landed(fig, resource, by, table):
    return [(s.resource, s.old, s.by, s.asked, s.note, s.rule) for s in spread(fig, resource, by, table.get)]


def test_a_change_stops_at_the_bounds_and_says_what_held_it_back():
    fig = figure(LP=(2, 5))
    assert landed(fig, "LP", -1, {"LP": WITHIN}) == [("LP", 2, -1, -1, "", "")]
    assert landed(fig, "LP", -15, {"LP": WITHIN}) == [("LP", 2, -2, -15, "mindestens 0: Untergrenze", "Untergrenze")]
    assert landed(fig, "LP", 20, {"LP": WITHIN}) == [("LP", 2, 3, 20, "höchstens 5", "")]
    assert landed(fig, "LP", 20, {"LP": Limits(0, 19, "Virtues", "Virtues")}) == \
        [("LP", 2, 17, 20, "höchstens 19: Virtues", "Virtues")]
    assert landed(fig, "LP", 10**6, {"LP": Limits(0, None, "Glückspool")}) == [("LP", 2, 10**6, 10**6, "", "")]


def test_a_value_beyond_a_bound_stays_there_and_never_moves_against_the_change():
    below, above = figure(LP=(-3, 5)), figure(LP=(8, 5))
    assert landed(below, "LP", -2, {"LP": WITHIN})[0][2] == 0     # no further down, not up to 0
    assert landed(below, "LP", 2, {"LP": WITHIN})[0][2] == 2      # healing from below the bound
    assert landed(above, "LP", 3, {"LP": WITHIN})[0][2] == 0      # no further up, not down to 5
    assert landed(above, "LP", -1, {"LP": WITHIN})[0][2] == -1


def test_a_loss_beyond_the_lower_bound_goes_on_to_the_overflow_resource_once():
    fig = figure(geistig=(2, 12), körperlich=(4, 12))
    table = {"geistig": Limits(0, 12, "Geistiger Schaden", overflow="körperlich"),
             "körperlich": Limits(0, 12, "Körperlicher Schaden")}
    assert landed(fig, "geistig", -5, table) == [
        ("geistig", 2, -2, -5, "mindestens 0: Geistiger Schaden; 3 weiter auf körperlich", "Geistiger Schaden"),
        ("körperlich", 4, -3, -3, "", "")]
    assert landed(fig, "geistig", -9, table)[1] == \
        ("körperlich", 4, -4, -7, "mindestens 0: Körperlicher Schaden", "Körperlicher Schaden")
    assert len(landed(fig, "geistig", 5, table)) == 1                      # a gain carries nothing on
    circle = {"geistig": Limits(0, 12, overflow="körperlich"), "körperlich": Limits(0, 12, overflow="geistig")}
    assert [s[0] for s in landed(fig, "geistig", -50, circle)] == ["geistig", "körperlich"]
    assert len(landed(figure(geistig=(2, 12)), "geistig", -5, table)) == 1   # no physical track: cut off
    assert spread(figure(), "LP", -1, table.get) == []                      # no such resource: nothing lands


def test_a_change_landed_without_notes_lands_alike_and_says_nothing():
    fig = figure(geistig=(2, 12), körperlich=(4, 12), LP=(2, 5))
    table = {"geistig": Limits(0, 12, "Geistiger Schaden", overflow="körperlich"),
             "körperlich": Limits(0, 12, "Körperlicher Schaden"), "LP": WITHIN}
    for resource, by in (("geistig", -9), ("geistig", -1), ("LP", -15), ("LP", 20), ("LP", -1)):
        noted, bare = spread(fig, resource, by, table.get), spread(fig, resource, by, table.get, noted=False)
        assert [(s.resource, s.old, s.by, s.asked, s.rule) for s in bare] == \
            [(s.resource, s.old, s.by, s.asked, s.rule) for s in noted]
        assert all(s.note == "" for s in bare)
    assert any(s.note for s in spread(fig, "geistig", -9, table.get))


def test_the_default_runs_from_the_gms_lower_bound_to_the_maximum():
    fig = figure(TP=(3, 8))
    assert Ruleset().sheet.limits(fig, "TP", {}) == Limits(0, 8, "Vorgabe, einstellbar mit untergrenzen")
    kept = {"untergrenzen": limits.einrichten({"TP": -10})}
    assert Ruleset().sheet.limits(fig, "TP", kept) == Limits(-10, 8, "Einstellung untergrenzen")
    assert Ruleset().sheet.limits(fig, "LP", kept).low == 0
    assert [(s.by, s.note) for s in Ruleset().sheet.within_limits(fig, "TP", -20, kept)] == \
        [(-13, "mindestens −10: Einstellung untergrenzen")]


@pytest.mark.parametrize("bad", [{"TP": 1.5}, {"TP": True}, {"TP": 10**10}, {"": -1}, ["TP"], {"TP": "-10"}])
def test_lower_bounds_that_are_no_whole_numbers_are_refused_and_nothing_is_kept(bad, tmp_path):
    from rpgkernel import Campaign
    with Campaign.open(tmp_path / "k.sqlite") as camp:
        with pytest.raises(RulesError, match="Untergrenzen \\(untergrenzen\\): erlaubt ist je Ressource"):
            limits.einrichten(bad, kampagne=camp)
        assert camp.data("untergrenzen") is None
        limits.einrichten({"TP": -10}, kampagne=camp)
        assert limits.UNTERGRENZEN.kept_in(camp) == {"TP": -10}
        limits.einrichten(None, kampagne=camp)
        assert camp.data("untergrenzen") is None
