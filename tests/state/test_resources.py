"""Every change of a resource lands within its ruleset's limits (rpgkernel.state.resources): the GM's
Campaign.change, a resolution's effects and a sheet whose maximum moves, journalled and undoable."""

import pytest

import rpgkernel
from rpgkernel import Campaign
from rpgkernel.rules import limits
from rpgkernel.rules.base import Ruleset
from rpgkernel.rules.kit import Effect, Field, Limits, Resolution, Sheet, Verb
from rpgkernel.state import effects


def _treffer(req):
    res = Resolution("grenze", "treffer", tuple(f.name for f in req.actors), tuple(f.name for f in req.targets))
    res.effects = [Effect(f.name, "LP", -req.options["schaden"]) for f in req.targets]
    res.effects.append(Effect(req.targets[0].name, condition="getroffen"))
    return res


class GrenzeBogen(Sheet):
    def resources(self, sheet, data):
        return {"LP": {"value": sheet["lp"], "max": sheet["lp"]}, "Mut": {"value": 1, "max": 9}}

    def limits(self, figure, resource, data):
        return Limits(0, 3, "Mutregel", "Mutregel") if resource == "Mut" else super().limits(figure, resource, data)


class Grenze(Ruleset):
    """A toy ruleset: LP from the sheet, Mut between 0 and 3 whatever its maximum; a verb that hits."""

    key = "grenze"
    title = "Grenze"
    sheet = GrenzeBogen({"lp": Field("int", "LP", 1, 100, required=True)})
    verbs = {"treffer": Verb("treffer", _treffer, "Treffer", targets="required", options={"schaden": "int"})}


@pytest.fixture
def camp(tmp_path, add_ruleset):
    add_ruleset(Grenze)
    with Campaign.open(tmp_path / "k.sqlite") as c:
        yield c


def lp(camp, name="Goblin"):
    return camp.figure(name).resources["LP"]


def texts(camp, n):
    return [e.data["text"] for e in camp.journal(last=n)]


def test_without_a_ruleset_no_combatant_falls_to_minus_15_and_no_healing_passes_the_maximum(camp):
    """The issue's two numbers: a goblin of 5 LP hit for 20 stands at 0, not -15; healed by 25 at 5, not 25 of 5."""
    camp.new_encounter("Hinterhalt").add("Goblin", resources={"LP": 5})
    camp.change("Goblin", "LP", -20, "Keule")
    assert lp(camp) == {"value": 0, "max": 5}
    camp.change("Goblin", "LP", 25)
    assert lp(camp) == {"value": 5, "max": 5}
    camp.change("Goblin", "LP", 3)
    assert texts(camp, 3) == ["Goblin: LP 5 → 0 (mindestens 0: Vorgabe, einstellbar mit untergrenzen) (Keule)",
                              "Goblin: LP 0 → 5 (höchstens 5)", "Goblin: LP 5 → 5 (höchstens 5)"]
    assert camp.undo() == ["Goblin: LP 5 → 5 (höchstens 5)"]    # held back to nothing: still the last step
    assert camp.undo() == ["Goblin: LP 0 → 5 (höchstens 5)"] and lp(camp)["value"] == 0
    camp.change("Goblin", "LP", -2)
    assert lp(camp)["value"] == 0 and texts(camp, 1) == \
        ["Goblin: LP 0 → 0 (mindestens 0: Vorgabe, einstellbar mit untergrenzen)"]


def test_the_gms_lower_bound_holds_where_the_rules_name_none(camp):
    camp.add_character("Goblin", resources={"LP": 5})
    limits.einrichten({"LP": -3}, kampagne=camp)
    camp.change("Goblin", "LP", -7)
    assert lp(camp)["value"] == -2
    camp.change("Goblin", "LP", -7)
    assert lp(camp)["value"] == -3 and texts(camp, 1) == ["Goblin: LP −2 → −3 (mindestens −3: Einstellung untergrenzen)"]
    for _ in range(3):                # both changes, then the GM's setting: back to 0 as the bound
        camp.undo()
    camp.change("Goblin", "LP", -7)
    assert lp(camp)["value"] == 0


def test_a_rulesets_own_limits_hold_for_each_of_its_figures(camp):
    camp.add_character("Held", {"lp": 8}, ruleset="grenze")
    camp.change("Held", "Mut", 5)
    assert camp.figure("Held").resources["Mut"] == {"value": 3, "max": 9}
    assert texts(camp, 1) == ["Held: Mut 1 → 3 (höchstens 3: Mutregel)"]
    camp.add_character("Frei", resources={"Mut": 1})   # the free mode's limits for a figure of no ruleset
    camp.change("Frei", "Mut", 5)
    assert camp.figure("Frei").resources["Mut"]["value"] == 1


def test_a_resolutions_effects_land_within_the_limits_and_its_card_says_where_they_were_held_back(camp):
    camp.set_ruleset("grenze")
    enc = camp.new_encounter("Kampf")
    enc.add("Held", sheet={"lp": 8})
    enc.add("Ork", sheet={"lp": 3})
    res = rpgkernel.resolve("treffer Held -> Ork, Held schaden=5", campaign=camp)
    assert lp(camp, "Ork")["value"] == 0 and lp(camp, "Held")["value"] == 3
    assert res.steps[-1].text == "LP von Ork: 3 → 0 (mindestens 0: Vorgabe, einstellbar mit untergrenzen)."
    assert res.steps[-1].rule == "Vorgabe, einstellbar mit untergrenzen" and len(res.steps) == 1
    assert [(e.figure, e.resource, e.by, e.condition) for e in res.effects] == [
        ("Ork", "LP", -3, None), ("Held", "LP", -5, None), ("Ork", None, 0, "getroffen")]
    assert "Ork LP -3, Held LP -5, Ork getroffen" in texts(camp, 1)[0]
    res = rpgkernel.resolve("treffer Held -> Ork schaden=2", campaign=camp)
    assert [(e.resource, e.condition) for e in res.effects] == [(None, "getroffen")]   # nothing landed on LP
    camp.undo(), camp.undo()
    assert lp(camp, "Ork")["value"] == 3 and lp(camp, "Held")["value"] == 8


def test_effects_apply_reports_how_each_resource_effect_landed(camp):
    camp.add_character("Goblin", resources={"LP": 5})
    with camp.transaction() as tx:
        landed = effects.apply(tx, [Effect("Goblin", "LP", -3), Effect("Goblin", condition="liegend"),
                                    Effect("Goblin", "LP", -3)])
        tx.event("auflösung", "zwei Treffer")
    assert [(e.by, [(s.old, s.by) for s in shares]) for e, shares in landed] == [(-3, [(5, -3)]), (-3, [(2, -2)])]


def test_a_sheet_whose_maximum_falls_keeps_its_value_within_the_limits(camp):
    camp.add_character("Held", {"lp": 8}, ruleset="grenze")
    camp.change("Held", "LP", -6)
    camp.set_sheet("Held", {"lp": 3})          # max -5: 2 - 5 stops at 0
    assert lp(camp, "Held") == {"value": 0, "max": 3}
    limits.einrichten({"LP": -10}, kampagne=camp)
    camp.set_sheet("Held", {"lp": 8})
    camp.set_sheet("Held", {"lp": 1})          # 5 - 7: the GM's lower bound lets it fall to -2
    assert lp(camp, "Held") == {"value": -2, "max": 1}


def test_an_edit_typed_into_a_row_changes_by_or_to_a_value_on_several_figures_in_one_step(camp):
    """The tracker's row edit from Python: -5, +3 and =7 (``resources.edit``) on one figure or several,
    within the limits (what landed is journalled), one undo for all of them."""
    from rpgkernel.state.resources import Edit, edit
    enc = camp.new_encounter("Furt")
    enc.add("Goblin", ruleset="grenze", sheet={"lp": 8}, count=2)
    assert [edit(x) for x in ("-5", " +3", "=7", "=-2", "−4")] == \
        [Edit(by=-5), Edit(by=3), Edit(to=7), Edit(to=-2), Edit(by=-4)]
    camp.change(["Goblin 1", "Goblin 2"], "LP", -5, "Pfeilhagel")
    assert [lp(camp, n)["value"] for n in ("Goblin 1", "Goblin 2")] == [3, 3]
    camp.change("Goblin 2", "LP", to=7)
    camp.change(["Goblin 1", "Goblin 2"], "Mut", to=9)               # the rule holds it at 3
    assert texts(camp, 2) == ["Goblin 1: Mut 1 → 3 (höchstens 3: Mutregel)", "Goblin 2: Mut 1 → 3 (höchstens 3: Mutregel)"]
    assert camp.undo() == texts(camp, 3)[:2] and camp.figure("Goblin 2").resources["Mut"]["value"] == 1
    assert lp(camp, "Goblin 2")["value"] == 7
    camp.undo()
    assert lp(camp, "Goblin 2")["value"] == 3


@pytest.mark.parametrize("call, message", [
    (lambda c: c.change("Goblin", "LP"), "entweder um einen Betrag ändern (by=-5) oder auf einen Wert setzen (to=7)"),
    (lambda c: c.change("Goblin", "LP", -1, to=3), "genau eins von beiden"),
    (lambda c: c.change(["Goblin", "Gobiln"], "LP", -1), "Unbekannte Figur 'Gobiln'. Meinten Sie 'Goblin'?"),
    (lambda c: c.change([], "LP", -1), "Wessen Ressource?"),
    (lambda c: c.change("Goblin", "LP", to="7"), "Ressource 'LP': erwartet wird eine ganze Zahl, nicht '7'."),
])
def test_a_bad_edit_changes_nothing_and_says_so_in_german(camp, call, message):
    camp.new_encounter("Furt").add("Goblin", resources={"LP": 5})
    seq = camp.store.last_seq()
    with pytest.raises(rpgkernel.state.CampaignError, match=None) as err:
        call(camp)
    assert message in str(err.value) and camp.store.last_seq() == seq and lp(camp)["value"] == 5
