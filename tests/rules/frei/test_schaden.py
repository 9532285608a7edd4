"""Damage and healing without a ruleset (rpgkernel/rules/frei/schaden.py, verbs.py): the verbs schaden
and heilung change the GM's resource within its limits, the clamp a step of the card, out of the fight
at 0 and back with healing or undo; the previews' distributions; German labels for the panel."""

import pytest

import rpgkernel
from rpgkernel import Campaign, rules
from rpgkernel.dice import dist
from rpgkernel.errors import RpgError
from rpgkernel.rules import frei
from rpgkernel.resolve.lines import option_text
from rpgkernel.widgets.panel_data import rules_info


@pytest.fixture
def camp(tmp_path):
    with Campaign.open(tmp_path / "k.sqlite") as c:
        enc = c.new_encounter("Wald")
        enc.add("Alrik", sheet={"hp": 12})
        enc.add("Goblin", count=2, sheet={"hp": 5})
        enc.start(order=["Alrik", "Goblin 1", "Goblin 2"])
        yield c


def hp(camp, name):
    return camp.figure(name).resources["HP"]["value"]


def test_damage_rolled_once_for_all_named_stops_at_0_and_puts_out_of_the_fight(camp):
    res = rpgkernel.resolve('schaden "Goblin 1", Alrik menge=2W6', campaign=camp, dice=[3, 4])
    assert (hp(camp, "Goblin 1"), hp(camp, "Alrik")) == (0, 5)            # 5 − 7 stops at 0
    assert [s.text for s in res.steps] == [
        "Schaden 2W6: 7", "Goblin 1: HP 5 − 7", "Goblin 1 ist außer Gefecht: kampfunfähig (HP 0).", "Alrik: HP 12 − 7",
        "HP von Goblin 1: 5 → 0 (mindestens 0: Vorgabe, einstellbar mit untergrenzen)."]   # the clamp, a step
    assert res.summary == ("Goblin 1 verliert 5 HP (5 → 0) und ist außer Gefecht: kampfunfähig (HP 0); "
                           "Alrik verliert 7 HP (12 → 5).")
    assert res.outcome == {"schaden": 7, "danach": {"Goblin 1": 0, "Alrik": 5}, "außer_gefecht": ["Goblin 1"]}
    enc = camp.encounter
    assert enc.out_of_fight() == {"Goblin 1": "kampfunfähig (HP 0)"}
    assert enc.next_turn() == "Goblin 2"                                   # Goblin 1 is skipped
    assert camp.journal(kind="auflösung")[-1].data["summary"] == res.summary
    camp.undo()                                                            # the turn
    camp.undo()                                                            # the damage: back in the fight
    assert (hp(camp, "Goblin 1"), hp(camp, "Alrik")) == (5, 12) and enc.out_of_fight() == {}


def test_healing_stops_at_the_maximum_and_brings_back_into_the_fight(camp):
    rpgkernel.resolve('schaden "Goblin 1" menge=9', campaign=camp)          # a number: nothing rolled
    res = rpgkernel.resolve('heal "Goblin 1", Alrik menge=W8+2', campaign=camp, dice=[6])
    assert (hp(camp, "Goblin 1"), hp(camp, "Alrik")) == (5, 12)
    assert res.summary == ("Goblin 1 erhält 5 HP zurück (0 → 5) und ist wieder im Kampf; "
                           "Alrik erhält keine HP zurück (12).")
    assert [s.text for s in res.steps[-2:]] == ["HP von Goblin 1: 0 → 5 (höchstens 5).",
                                                "HP von Alrik: 12 → 12 (höchstens 12)."]
    assert camp.encounter.out_of_fight() == {}
    res = rpgkernel.resolve("schaden Alrik menge=W4-3", campaign=camp, dice=[1])
    assert res.steps[0].text == "Schaden W4-3: -2 (unter 0 zählt als 0)" and hp(camp, "Alrik") == 12
    assert res.summary == "Alrik verliert keine HP (12)." and res.effects == []


def test_the_gms_resource_and_lower_bound_count(camp):
    frei.einrichten("LP", kampagne=camp)
    rules.limits.einrichten({"LP": -3}, kampagne=camp)
    camp.encounter.add("Troll", sheet={"lp": 4, "hp": 9})
    res = rpgkernel.resolve("schaden Troll menge=10", campaign=camp)
    assert camp.figure("Troll").resources == {"LP": {"value": -3, "max": 4}}   # the field hp is only a field now
    assert "kampfunfähig (LP -3)" in res.summary
    with pytest.raises(RpgError, match="'Alrik' hat keine LP: ohne Regelwerk ändern schaden und heilung diese "
                                       r"Ressource; eine andere benennt frei.einrichten\(ressource=…\)"):
        rpgkernel.resolve("schaden Alrik menge=1", campaign=camp)
    with pytest.raises(RpgError, match="brauchen menge="):
        rpgkernel.resolve("schaden Troll", campaign=camp)


def test_the_previews_are_the_exact_distributions_after_the_change(camp):
    camp.change("Alrik", "HP", -4)                                         # 8 of 12
    preview = rpgkernel.resolve('schaden "Goblin 1", Alrik menge=2W6', campaign=camp, preview=True).preview
    two = dist("2W6")
    assert preview["p_ausser_gefecht (Goblin 1)"] == pytest.approx(two.p_at_least(5))          # 30/36
    assert preview["p_ausser_gefecht (Alrik)"] == pytest.approx(two.p_at_least(8))
    after = preview["HP (Alrik)"]
    assert after.support == tuple(range(0, 7)) and after.p_exactly(0) == pytest.approx(two.p_at_least(8))
    assert after.p_exactly(6) == pytest.approx(two.p_exactly(2))
    healed = rpgkernel.resolve("heilung Alrik menge=W6", campaign=camp, preview=True).preview
    assert list(healed) == ["HP (Alrik)"] and healed["HP (Alrik)"].pmf() == pytest.approx(
        {9: 1 / 6, 10: 1 / 6, 11: 1 / 6, 12: 1 / 2})                       # 8 + W6, never above 12
    assert hp(camp, "Alrik") == 8                                          # a preview changes nothing


def test_every_option_has_a_german_label_and_help_for_the_panel():
    info = rules_info(rules.get(None))
    assert [v["name"] for v in info["verbs"]] == ["schaden", "heilung"] and all(v["preview"] for v in info["verbs"])
    for verb in rules.get(None).verbs.values():
        for name in verb.options:
            label, help_text = option_text("", verb.name, name)
            assert label != name and help_text, (verb.name, name)


def test_resolve_cells_in_a_notebook_without_a_ruleset(notebook):
    notebook.ok("%rpg --kampagne frei.sqlite")
    notebook.ok("%%figuren\nbegegnung:\n  name: Wald\n  teilnehmer:\n    - {name: Goblin, werte: {hp: 5}}\n")
    [card] = notebook.ok("%%resolve --würfel 6\nschaden Goblin menge=W6")
    assert "Goblin verliert 5 HP (5 → 0) und ist außer Gefecht" in card
    notebook.ok("%rpg rückgängig")
    assert rpgkernel.session.current().campaign.figure("Goblin").resources["HP"]["value"] == 5
