"""The advice on divine grace (seed 000, "Neue Regelung der Göttlichen Gnade"): let the roll stand or have
it repeated, with the exact chance it succeeds (or its damage) each way, checked against brute force: the
option's line carried out through %%resolve for every face of the repeated roll."""

from __future__ import annotations


import pytest

from brute_force import next_sides

import rpgkernel
from rpgkernel import Campaign
from rpgkernel.dice import dist
from rpgkernel.errors import GivenDiceError



def campaign(path, **grace):
    """Wolfgang and the Elf, each with the points of grace given."""
    c = Campaign.open(path)
    c.set_ruleset("midgard")
    c.add_character("Wolfgang", {"waffen": ["Langschwert +10 (W6+2)"], "rw": 62, "lp": 16, "ap": 30, "abwehr": 14,
                                 "gg": grace.get("Wolfgang", 0)})
    c.add_character("Elf", {"abwehr": 17, "lp": 14, "ap": 25, "rw": 81, "gg": grace.get("Elf", 0),
                            "waffen": ["Kurzschwert +9 (W6)"], "ko": 60})
    return c


def ones(camp, line):
    """``line`` run with as many dice as it needs, each a 1."""
    dice = []
    while True:
        try:
            return rpgkernel.resolve(line, campaign=camp, dice=dice)
        except GivenDiceError:
            dice.append(1)


def counted(camp, line, who, feature):
    """The distribution of ``feature`` of the closed resolution after ``line``, over every face of the
    next die to roll (the repeated one); every later roll shows a 1 and every later pause lets the roll
    stand (``verzicht``): all decided after the roll in question. Each cell is taken back again."""
    out = {}

    def run(more, p):
        try:
            res = rpgkernel.resolve(line, campaign=camp, dice=more)
        except GivenDiceError as err:
            sides = next_sides(err)
            for face in range(1, sides + 1) if not more else [1]:
                run([*more, face], p / sides if not more else p)
            return
        cells = 1
        while res.open:
            res, cells = ones(camp, f"verzicht {who}"), cells + 1
        for _ in range(cells):
            camp.undo()
        value = feature(res)
        out[value] = out.get(value, 0.0) + p
    run([], 1.0)
    return out


def check(camp, line, dice, who, feature):
    """Open ``line`` with ``dice``; both options' chance (or damage) against their lines carried out, over
    every face of the repeated roll."""
    res = rpgkernel.resolve(line, campaign=camp, dice=dice)
    assert res.open
    [advice] = [a for a in res.advice if a.who == who]
    kept, repeated = advice.options
    assert kept.lines == (f"verzicht {who}",) and repeated.lines == (f"gnade {who}",)
    for option in (kept, repeated):
        found = counted(camp, option.lines[0], who, feature)
        if option.damage is not None:
            assert option.damage.pmf() == pytest.approx(found, abs=1e-12)
        else:
            [(name, p)] = option.chances
            assert p == pytest.approx(found.get(True, 0.0), abs=1e-12), (name, option.label)
    return advice


def test_an_ew_let_stand_or_repeated(tmp_path):
    with campaign(tmp_path / "k.sqlite", Wolfgang=1) as camp:
        advice = check(camp, "ew Wolfgang wert=5", [3], "Wolfgang", lambda r: r.outcome["erfolg"])
    assert advice.objective.endswith("gelingt") and advice.reads == ("Wolfgang",)
    kept, repeated = advice.options
    assert kept.label == "Wurf stehen lassen (3)" and [p for _, p in kept.chances] == [0.0]
    assert [p for _, p in repeated.chances] == [pytest.approx(6 / 20)]   # 15 to 20 with +5 (a 20 is critical)
    assert repeated.notes == ("Wolfgang: noch 0 GG",)


def test_a_pw_with_percentile_dice(tmp_path):
    with campaign(tmp_path / "k.sqlite", Elf=1) as camp:
        check(camp, "pw Elf eigenschaft=ko", [75], "Elf", lambda r: r.outcome["erfolg"])


def test_in_an_attack_the_attacker_wants_the_ew_and_the_defender_does_not(tmp_path):
    hit = lambda r: r.outcome["treffer"] != "kein Treffer"   # noqa: E731
    with campaign(tmp_path / "a.sqlite", Wolfgang=1) as camp:
        advice = check(camp, "angriff Wolfgang -> Elf", [8], "Wolfgang", hit)
    assert advice.objective.endswith("gelingt") and advice.reads == ("Wolfgang", "Elf")
    with campaign(tmp_path / "v.sqlite", Elf=1) as camp:
        assert check(camp, "angriff Wolfgang -> Elf", [15], "Elf", hit).objective.endswith("misslingt")
        rpgkernel.resolve("angriff Wolfgang -> Elf", campaign=camp, dice=[15])
        # after the hit, the Elf's own defence: it wants it to succeed
        ww = check(camp, "verzicht Elf", [4], "Elf", lambda r: r.outcome["treffer"] == "leichter Treffer")
    assert ww.objective.endswith("gelingt")


def test_the_damage_roll_let_stand_or_repeated(tmp_path):
    with campaign(tmp_path / "k.sqlite", Wolfgang=1) as camp:
        for line, face in (("angriff Wolfgang -> Elf", 15), ("verzicht Wolfgang", 2)):
            rpgkernel.resolve(line, campaign=camp, dice=[face])
        advice = check(camp, "verzicht Wolfgang", [1], "Wolfgang", lambda r: r.outcome["schaden"])
    kept, repeated = advice.options
    assert kept.damage.pmf() == {3: 1.0} and repeated.damage.isclose(dist("W6+2"))
    assert advice.objective.endswith("möglichst viel")
