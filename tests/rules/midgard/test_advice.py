"""The advice on divine grace (seed 000, "Neue Regelung der Göttlichen Gnade"): let the roll stand or have
it repeated, with the exact chance it succeeds (or its damage) each way, checked against brute force: the
option's line carried out through %%resolve for every face of the repeated roll."""

from __future__ import annotations

from pathlib import Path

import pytest
from brute_force import next_sides
from doc_blocks import page

import rpgkernel
from rpgkernel import Campaign
from rpgkernel.dice import dist
from rpgkernel.errors import GivenDiceError
from rpgkernel.numerals import percent
from rpgkernel.rules import midgard
from rpgkernel.rules.midgard.tabellen import laden

TABELLEN = Path(midgard.__file__).with_name("data") / "beispiel_spielleitung.yaml"


def campaign(path, lp=14, **grace):
    """Wolfgang and the Elf (with ``lp``), each with the points of grace given, in an encounter, with the
    GM's example tables."""
    c = Campaign.open(path)
    c.set_ruleset("midgard")
    c.add_character("Wolfgang", {"waffen": ["Langschwert +10 (W6+2)"], "rw": 62, "lp": 16, "ap": 30, "abwehr": 14,
                                 "gg": grace.get("Wolfgang", 0)})
    c.add_character("Elf", {"abwehr": 17, "lp": lp, "ap": 25, "rw": 81, "gg": grace.get("Elf", 0),
                            "waffen": ["Kurzschwert +9 (W6)"], "ko": 60})
    enc = c.new_encounter("Lichtung")
    enc.add("Wolfgang", side="Helden", character="Wolfgang")
    enc.add("Elf", side="Elfen", character="Elf")
    midgard.einrichten(TABELLEN, kampagne=c)
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
    """The distribution of ``feature`` of the closed resolution after ``line`` (read before the cells are
    taken back), over every face of the next die to roll (the repeated one); every later roll shows a 1
    and every later pause lets the roll stand (``verzicht``): all decided after the roll in question.
    Each cell is taken back again."""
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
        value = feature(res)
        for _ in range(cells):
            camp.undo()
        out[value] = out.get(value, 0.0) + p
    run([], 1.0)
    return out


def check(camp, line, dice, who, feature, *chances):
    """Open ``line`` with ``dice``; both options' chance (or damage) against their lines carried out, over
    every face of the repeated roll; ``chances``: further features (name, feature) each named chance
    of an option is checked against, true in the share of the outcomes it gives."""
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
            [(name, p), *_] = option.chances
            assert p == pytest.approx(found.get(True, 0.0), abs=1e-12), (name, option.label)
        for name, more in chances:
            said = dict(option.chances)[name]
            assert said == pytest.approx(counted(camp, option.lines[0], who, more).get(True, 0.0), abs=1e-12)
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
        # the next attack: the open one lapses first (its defence 4, its damage 3), then EW 15 hits
        rpgkernel.resolve("angriff Wolfgang -> Elf", campaign=camp, dice=[4, 3, 15])
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


def falls(camp, who):
    """Whether ``who`` is out of the fight now (the encounter's own judgement)."""
    return lambda r: who in camp.encounter.out_of_fight()


@pytest.mark.parametrize("lp, schwelle, ww, kept, repeated", [
    (8, 0, 2, 0.0, 1 / 6),      # a heavy hit: 3 LP lost, kept; W6+2 of 8 fells the Elf
    (8, 3, 2, 0.0, 4 / 6),      # out at 3 LP or fewer (the GM's basic roll): 5 of W6+2 will do
    (4, 0, 9, 0.0, 0.0),        # defended (9 + 17 = 26 against 25): a light hit costs AP alone
])
def test_the_damage_roll_says_the_chance_the_defender_falls(tmp_path, lp, schwelle, ww, kept, repeated):
    (tmp_path / "regeln.yaml").write_text(f"kampfunfaehig_lp: {schwelle}\n", encoding="utf-8")
    with campaign(tmp_path / "k.sqlite", lp=lp, Wolfgang=1) as camp:
        midgard.einrichten(grundregeln=tmp_path / "regeln.yaml", kampagne=camp)
        for line, face in (("angriff Wolfgang -> Elf", 15), ("verzicht Wolfgang", ww)):
            rpgkernel.resolve(line, campaign=camp, dice=[face])
        advice = check(camp, "verzicht Wolfgang", [1], "Wolfgang", lambda r: r.outcome["schaden"],
                       ("Elf wird kampfunfähig", falls(camp, "Elf")))
    assert [dict(o.chances)["Elf wird kampfunfähig"] for o in advice.options] == pytest.approx([kept, repeated])


def row_taken(res):
    """The text of the last row taken on a critical table."""
    return (res.outcome.get("kritische_tabelle") or res.outcome["kritische_tabellen"][-1])["zeile"]


def check_rows(camp, line, dice, situation):
    """Open ``line`` with ``dice`` at a roll on the critical table ``situation``: each holder's options,
    their rows against the option's line carried out, over every face of the repeated roll."""
    res = rpgkernel.resolve(line, campaign=camp, dice=dice)
    assert res.open and res.advice
    rows = laden(TABELLEN).daten["kritisch"][situation]["zeilen"]
    named = {r["text"]: f"Zeile {r['von']}{'' if r['von'] == r['bis'] else '–%d' % r['bis']} ({r['text']})"
             for r in rows}
    for advice in res.advice:
        for option in advice.options:
            found = counted(camp, option.lines[0], advice.who, row_taken)
            assert dict(option.chances) == pytest.approx({named[k]: p for k, p in found.items()}, abs=1e-12)
    return res.advice


def test_a_critical_hit_table_let_stand_or_repeated(tmp_path):
    """A critical hit (EW 20) the Elf fails to defend: the W% of the GM's table, for either side."""
    with campaign(tmp_path / "k.sqlite", Wolfgang=1, Elf=1) as camp:
        rpgkernel.resolve("angriff Wolfgang -> Elf", campaign=camp, dice=[20])
        for face in (5, 3):   # the WW (5 + 17 = 22 against 30), the damage
            rpgkernel.resolve("verzicht Elf", campaign=camp, dice=[face])
        advised = check_rows(camp, "verzicht Elf", [100], "treffer")
    assert [a.who for a in advised] == ["Wolfgang", "Elf"]
    for advice in advised:
        assert advice.objective.startswith("Kritischer Treffer: die Zeilen und ihre Chancen")
        kept, repeated = advice.options
        assert kept.label == "Wurf stehen lassen (100)" and kept.chances == (
            ("Zeile 100 (BEISPIEL: tödlicher Treffer)", 1.0),)
        assert [p for _, p in repeated.chances] == pytest.approx([0.40, 0.30, 0.29, 0.01])
        row, p = repeated.chances[0]   # as docs/midgard.md quotes it: „Zeile 1–40 (Prellung …): 40,00 %“
        prose = " ".join(page("midgard.md").text.split())
        assert f"„{row.split('(')[0]}({row.split(': ')[1].split()[0]} …): {percent(p)}“" in prose
        assert repeated.damage is None and advice.reads == ("Wolfgang", "Elf")


def test_a_fumbled_defence_table_with_a_w20(tmp_path):
    with campaign(tmp_path / "k.sqlite", Elf=1) as camp:
        rpgkernel.resolve("ww Elf gegen=20 art=abwehr", campaign=camp, dice=[1])
        [advice] = check_rows(camp, "verzicht Elf", [16], "fehler_abwehr")
    assert [p for _, p in advice.options[1].chances] == pytest.approx([15 / 20, 5 / 20])


def test_a_free_choice_of_an_innate_ability_names_what_each_writes(tmp_path):
    """A 100 on the W% (then a 50): each ability of the GM's table, its line writing what its notes say."""
    with campaign(tmp_path / "k.sqlite") as camp:
        camp.add_character("Bilbo", {"rasse": "Halbling", "fertigkeiten": ["Sehen +8"]})
        res = rpgkernel.resolve("angeboren Bilbo", campaign=camp, dice=[100, 50])
        [advice] = res.advice
        assert (advice.key, advice.who, advice.reads) == ("wahl", "Bilbo", ("Bilbo",))
        rows = laden(TABELLEN).daten["angeboren"]
        assert [o.label for o in advice.options] == ["Nicht wählen", *(r["faehigkeit"] for r in rows)]
        short = next(o for o in advice.options if o.label == "Kurzsichtigkeit")
        assert short.lines == ("wahl Bilbo fähigkeit=Kurzsichtigkeit",)
        assert short.notes == ("Bilbo: angeboren Kurzsichtigkeit", "Bilbo: Sehen +4")
        rpgkernel.resolve(short.lines[0], campaign=camp)
        sheet = camp.figure("Bilbo").sheet
        assert sheet["angeboren"][-1] == "Kurzsichtigkeit" and "Sehen +4" in sheet["fertigkeiten"]
        camp.undo()
        rpgkernel.resolve(advice.options[0].lines[0], campaign=camp)
        assert camp.figure("Bilbo").sheet["angeboren"][-1] == "freie Wahl"
