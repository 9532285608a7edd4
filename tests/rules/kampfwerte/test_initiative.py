"""Kampfwerte initiative: the order and its ties, rolled once per fight, the exact chance to act before an
opponent (checked against icepool) and the verb vor (seed: Initiative)."""

import icepool
import pytest
from hypothesis import given, settings, strategies as st

import rpgkernel
from rpgkernel import Campaign
from rpgkernel.rules.figure import view
from rpgkernel.rules.kampfwerte.initiative import p_vor

from .test_sheet import ENGINE, KAEL, ORK


def _rec(sheet, side=""):
    return {"sheet": ENGINE.sheet.validate(sheet), "side": side}


def _named(combatants):
    """The combatants as the encounter hands them to the ruleset: each a view under its name."""
    return {name: view({**record, "name": name}) for name, record in combatants.items()}


def test_ties_player_first_then_aufmerksamkeit_gewandtheit_instinkt():
    npc = {**ORK, "AUFMERKSAMKEIT": 9}
    c = _named({"Kael": _rec(KAEL), "Ork": _rec(npc), "Goblin": _rec({**npc, "GEWANDTHEIT": 4}),
                "Wolf": _rec({**npc, "GEWANDTHEIT": 4, "INSTINKT": 5}), "Zorn": _rec(ORK)})
    rolls = {"Kael": 15, "Ork": 15, "Goblin": 15, "Wolf": 15, "Zorn": 16}
    assert ENGINE.initiative.order(c, rolls) == ["Zorn", "Kael", "Wolf", "Goblin", "Ork"]
    # side "Spieler" also marks a player character
    c2 = _named({"A": _rec(ORK), "B": _rec(ORK, "Spieler")})
    assert ENGINE.initiative.order(c2, {"A": 9, "B": 9}) == ["B", "A"]


def test_initiative_rolled_once_and_held(tmp_path):
    with Campaign.open(tmp_path / "k.sqlite") as camp:
        camp.set_ruleset("kampfwerte")
        enc = camp.new_encounter("Gefecht")
        enc.add("Kael", sheet=KAEL, side="Spieler")
        enc.add("Ork", sheet=ORK)
        # Kael: 13 + 2 = 15, Ork: 3+3+4-2 = 8, + 7 = 15 -> tie, the player character first
        assert enc.start(dice=[2, 7]) == ["Kael", "Ork"]
        enc.next_turn()
        enc.next_turn()
        assert enc.round == 2 and enc.order == ["Kael", "Ork"]


def _p_vor_icepool(a, b, a_wins_tie):
    diff = (icepool.d10 + a) - (icepool.d10 + b)
    total = diff.denominator()
    win = sum(diff.quantity(x) for x in diff.outcomes() if x > 0 or (x == 0 and a_wins_tie))
    return win / total


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 12), st.integers(0, 12), st.integers(0, 12), st.integers(0, 12), st.booleans(),
       st.integers(0, 4))
def test_p_vor_equals_icepool(auf_a, auf_b, gew, mod, pc, bonus):
    a = view({"name": "A", "sheet": {**KAEL, "AUFMERKSAMKEIT": auf_a, "GEWANDTHEIT": gew, "spielercharakter": pc},
              "conditions": {f"Initiative +{bonus}": {}} if bonus else {}})
    b = view({"name": "B", "sheet": {**ORK, "AUFMERKSAMKEIT": auf_b, "ini_mod": mod}, "conditions": {}})
    ini_a = auf_a + gew + KAEL["INSTINKT"] + KAEL.get("ini_mod", 0) - KAEL.get("ruestungsbehinderung", 0) + bonus
    ini_b = auf_b + ORK["GEWANDTHEIT"] + ORK["INSTINKT"] + mod - ORK.get("ruestungsbehinderung", 0)
    a_wins_tie = pc or (auf_a, gew, KAEL["INSTINKT"]) > (auf_b, ORK["GEWANDTHEIT"], ORK["INSTINKT"]) or (
        (auf_a, gew, KAEL["INSTINKT"]) == (auf_b, ORK["GEWANDTHEIT"], ORK["INSTINKT"]))  # then the name: "A"
    assert p_vor(a, b) == pytest.approx(_p_vor_icepool(ini_a, ini_b, a_wins_tie), abs=1e-12)
    assert p_vor(a, b) + p_vor(b, a) == pytest.approx(1.0, abs=1e-12)


def test_vor_verb_and_preview_by_enumeration():
    figs = {"Kael": {"sheet": KAEL, "side": "Spieler"}, "Ork": {"sheet": ORK}}
    wk, wo = 13, 8   # Kael 4+5+3+2-1, Ork 3+3+4-2
    # Kael acts first unless the Ork's W10 exceeds Kael's by more than 5 (a tie goes to the player character)
    p = sum(1 for x in range(1, 11) for y in range(1, 11) if x + wk >= y + wo) / 100
    assert p == 0.9
    pv = rpgkernel.resolve("vor Kael -> Ork", ruleset="kampfwerte", figures=figs, preview=True)
    assert pv.preview == pytest.approx(p, abs=1e-12)
    res = rpgkernel.resolve("vor Ork -> Kael", ruleset="kampfwerte", figures=figs)
    assert res.outcome["p_vor"] == pytest.approx(1 - p, abs=1e-12) and not res.effects
