"""Morale in the forecast (Wankender Kampfeswille, Mythic Bastionland): played after every turn on the
procedure path as the GM would play it, with given dice; player characters exempt; switched off by the
GM (the exact path against icepool with and without morale: test_exact.py)."""

from __future__ import annotations

import pytest

from rpgkernel import Campaign, rules
from rpgkernel.dice import Roller
from rpgkernel.forecast.fight import Table
from rpgkernel.state import fighting
from rpgkernel.state.transaction import Transaction

RITTER = {"vig": 14, "cla": 12, "spi": 13, "gd": 3, "ruestung": 2, "spielfigur": True,
          "waffen": ["Streitkolben (W8, wuchtig)", "Schild (W4)"]}
SÖLDNER = {"vig": 5, "cla": 10, "spi": 9, "gd": 2, "ruestung": 2, "waffen": ["Speer (W8)", "Schild (W4)"]}
FLIEHT = "flieht oder ergibt sich"


def encounter(tmp_path, foes, **add):
    c = Campaign.open(tmp_path / "k.sqlite")
    c.set_ruleset("bastionland")
    enc = c.new_encounter("Furt")
    enc.add("Ritter", side="Spieler", sheet=RITTER)
    for name in foes:
        enc.add(name, side="Söldner", sheet=SÖLDNER, **add)
    return c, enc


class Faces:
    """The faces a forecast's fight rolls, given in order (as its random dice: one stream through every
    line of the turn)."""

    given = False
    thrown = ()

    def __init__(self, faces):
        self.left = list(faces)

    def face(self, sides):
        assert self.left, f"a W{sides} more than given"
        face = self.left.pop(0)
        assert 1 <= face <= sides
        return face

    def faces(self, sides, n):
        return [self.face(sides) for _ in range(n)]

    def finish(self):
        pass


def turn(c, actor, dice, moral=True):
    """``actor``'s turn on the procedure path with ``dice``, every one of them used: each figure's
    conditions after it."""
    table = Table(c.state, "Furt", rules.get("bastionland"), "schwächste", moral)
    tx, faces = Transaction(c.state), Faces(dice)
    table._turn(tx, actor, table._down(fighting.reasons(c.state, "Furt")), Roller.over(faces))
    assert faces.left == []
    return {n: set(c["conditions"]) for n, c in tx.state["encounters"]["Furt"]["combatants"].items()}


@pytest.mark.parametrize("save, flees", [(15, True), (9, False)])
def test_a_wounded_individual_saves_or_flees(tmp_path, save, flees):
    """The Ritter's 6 against armour 2 is 4 damage: 2 past the Söldner's GD, wounded (VIG 3 of 5), and
    a SPI save (9) after the turn."""
    c, _ = encounter(tmp_path, ["Söldner"])
    after = turn(c, "Ritter", [6, 1, save])
    assert after["Söldner"] == {"verwundet", FLIEHT} if flees else {"verwundet"}
    assert turn(c, "Ritter", [6, 1], moral=False)["Söldner"] == {"verwundet"}   # the GM switched it off


def test_once_wounded_no_second_save(tmp_path):
    c, _ = encounter(tmp_path, ["Söldner"])
    c.add_condition("Söldner", "verwundet")
    c.change("Söldner", "GD", -2)
    assert turn(c, "Ritter", [3, 1])["Söldner"] == {"verwundet"}   # 1 VIG more, no W20


def test_a_player_character_never_wavers(tmp_path):
    """The Söldner's 8 against the Fatigued Ritter (no Deny) is 6 damage, 3 past his GD: wounded, and no
    save follows."""
    c, _ = encounter(tmp_path, ["Söldner"])
    c.add_condition("Ritter", "Fatigued")
    assert turn(c, "Söldner", [8, 4])["Ritter"] == {"verwundet", "Fatigued"}


@pytest.mark.parametrize("save, flees", [(15, True), (9, False)])
def test_a_group_that_lost_half_saves_once_with_its_leader(tmp_path, save, flees):
    """Two Söldner on one side are a group: the Ritter's 7 gives the first a Todeswunde (5 damage, 3 of
    5 VIG), half the group is lost, and the second saves once as its leader; it flees on a failure."""
    c, _ = encounter(tmp_path, ["Söldner 1", "Söldner 2"])
    after = turn(c, "Ritter", [7, 1, save])
    assert {"Todeswunde", "verwundet"} <= after["Söldner 1"]
    assert after["Söldner 2"] == ({FLIEHT} if flees else set())


def test_the_encounters_groups(tmp_path):
    """Where the encounter has groups, they are the groups: the Söldner added as one group of two, and
    a Hauptmann of their side on his own, who saves when wounded; a member of the group does not."""
    c, enc = encounter(tmp_path, ["Söldner"], count=2, group=True)
    enc.add("Hauptmann", side="Söldner", sheet={**SÖLDNER, "vig": 3})
    assert turn(c, "Ritter", [5, 1, 15])["Hauptmann"] == {"verwundet", FLIEHT}
    c.add_condition("Hauptmann", "tot")
    assert turn(c, "Ritter", [5, 1])["Söldner 1"] == {"verwundet"}
    assert turn(c, "Ritter", [7, 1, 15])["Söldner 2"] == {FLIEHT}
