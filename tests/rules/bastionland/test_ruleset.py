"""Mythic Bastionland: saves, attacks and damage, with given dice (seed 003)."""

import pytest

import rpgkernel
from rpgkernel.dice import Roller
from rpgkernel.rules import bastionland as bl
from rpgkernel.rules.bastionland import Bastionland
from rpgkernel.rules.figure import view


def figure(name, vig=12, cla=10, spi=10, gd=5, armour=0, weapons=(), conditions=(), side="", **current):
    sheet = Bastionland.sheet.validate({"vig": vig, "cla": cla, "spi": spi, "gd": gd, "ruestung": armour,
                                        "waffen": list(weapons)})
    res = Bastionland().sheet.resources(sheet, {})
    for k, v in current.items():
        res[k.upper()]["value"] = v
    return view({"name": name, "sheet": sheet, "resources": res, "conditions": {c: {} for c in conditions},
                 "side": side})


def test_the_seed_example():
    """W8, W4, 2W6 show 7, 3, 1, 5; the 5 is spent on Bolster; armour 2 -> 6 damage."""
    ritter = figure("Ritter", weapons=["Streitkolben (W8, wuchtig)", "Schild (W4)"])
    verbuendeter = figure("Verbündeter", weapons=["Dolch (W6)", "Dolch (W6)"])
    ziel = figure("Söldner", gd=4, vig=13, armour=2)
    res = bl.attack.attack([ritter, verbuendeter], ziel, Roller(dice=[7, 3, 1, 5]), bolster=[5])
    assert res.outcome["schaden"] == 6 and res.outcome["höchster"] == 7
    assert "Höchster Würfel 7 + Bolster 1 − Armour 2 = 6 Schaden" in [s.text for s in res.steps]
    # 6 against 4 GD: 2 over, VIG 13 -> 11, wounded
    assert res.outcome["folge"] == "verwundet"
    assert {(e.resource, e.by) for e in res.effects if e.resource} == {("GD", -4), ("VIG", -2)}


def test_saves_roll_under_the_virtue():
    ritter = figure("Ritter", vig=12)
    assert bl.core.probe(ritter, "vig", Roller(dice=[12])).outcome["erfolg"] is True
    res = bl.core.probe(ritter, "VIG", Roller(dice=[13]))
    assert res.outcome == {"erfolg": False, "wurf": 13, "wert": 12} and res.preview == pytest.approx(0.6)
    with pytest.raises(rpgkernel.RpgError, match="Unbekannte Virtue 'STR'"):
        bl.core.probe(ritter, "str", Roller(dice=[1]))


@pytest.mark.parametrize("amount, gd, vig, folge", [
    (0, 5, 12, "kein Schaden"),
    (3, 5, 12, "entgangen"),
    (5, 5, 12, "Narbe"),
    (7, 5, 12, "verwundet"),        # lose 2 of 12
    (11, 5, 12, "Todeswunde"),      # lose 6 of 12: at least half
    (17, 5, 12, "tot"),
])
def test_damage_against_guard_then_vigour(amount, gd, vig, folge):
    res = rpgkernel.rules.resolution.Resolution("bastionland", "schaden")
    bl.damage.damage(figure("Ziel", gd=gd, vig=vig), amount, res)
    assert res.outcome["folge"] == folge


def test_exposed_counts_as_zero_guard():
    res = rpgkernel.rules.resolution.Resolution("bastionland", "schaden")
    bl.damage.damage(figure("Ziel", gd=5, vig=12, conditions=["schutzlos"]), 2, res)
    assert res.outcome["folge"] == "verwundet"
    res = rpgkernel.rules.resolution.Resolution("bastionland", "schaden")
    bl.damage.damage(figure("Ziel", gd=5, vig=12, cla=0), 2, res)  # CLA 0: exposed
    assert res.outcome["folge"] == "verwundet"


def test_deny_removes_the_highest_die_and_previews_are_exact():
    ritter = figure("Ritter", weapons=["Streitkolben (W8)", "Schild (W4)"])
    ziel = figure("Wolf", gd=3, armour=1)
    res = bl.attack.attack([ritter], ziel, Roller(dice=[8, 2, 15]), deny="Wolf")  # SPI save 15 > 10
    assert res.outcome["schaden"] == 1 and res.outcome["folge"] == "entgangen"
    assert any(e.figure == "Wolf" and e.condition == "Fatigued" for e in res.effects)
    preview = res.preview
    expected = rpgkernel.dist("max(0, {W8,W4}kh1-1)")
    assert preview["schaden"].isclose(expected)
    assert preview["schaden_mit_deny"].isclose(rpgkernel.dist("max(0, {W8,W4}kl1-1)"))
    assert preview["p_gambit"] == pytest.approx(1 - (3 / 8) * (3 / 4))


def test_undecided_attacks_stay_open_and_apply_nothing():
    ritter = figure("Ritter", weapons=["Streitkolben (W8)", "Schild (W4)"])
    res = bl.attack.attack([ritter], figure("Wolf"), Roller(dice=[6, 4]), decided=False)
    assert res.open and res.effects == []
    assert [c.key for c in res.choices] == ["deny", "gambit", "focus"] and res.choices[1].options == ("6", "4")


def test_the_targets_allies_may_deny_too_in_turn_order_per_target_of_a_blast():
    """Angriffe, Schritt 2: das Ziel oder ein Verbündeter in Armreichweite darf Deny einsetzen."""
    ritter, knappe, spaeherin = (figure(n, side="Spieler") for n in ("Ritter", "Knappe", "Späherin"))
    soeldner, wache = figure("Söldner", weapons=["Speer (W8)"], side="Feinde"), figure("Wache", side="Feinde")
    tot, ohne = figure("Gefallener", conditions=["tot"], side="Spieler"), figure("Wanderer")
    order = [spaeherin, soeldner, ohne, ritter, tot, wache, knappe]
    res = bl.attack.attack([soeldner], ritter, Roller(dice=[6]), decided=False, combatants=order)
    (deny,) = [c for c in res.choices if c.key == "deny"]
    assert deny.who == ("Ritter",) and deny.also == ("Späherin", "Knappe")
    assert deny.also_label == "Deny für Ritter, wenn in Armreichweite: einen Würfel entfernen"
    assert deny.to_dict()["also"] == ["Späherin", "Knappe"]
    assert res.summary == "Söldner greift Ritter an; noch offen: Ritter kann Deny einsetzen, Söldner kann Gambits und Focus einsetzen."
    # the attacker's own side: Wache may deny for the Söldner, never the attackers themselves
    back = bl.attack.attack([ritter, knappe], soeldner, Roller(dice=[3, 2]), decided=False, combatants=order)
    assert next(c for c in back.choices if c.key == "deny").also == ("Wache",)
    # a sideless target has no allies; no combatants: as before (who alone, nothing stored beside it)
    alone = bl.attack.attack([soeldner], ohne, Roller(dice=[6]), decided=False, combatants=order)
    assert next(c for c in alone.choices if c.key == "deny").also == ()
    plain = bl.attack.attack([soeldner], ritter, Roller(dice=[6]), decided=False)
    assert "also" not in plain.choices[0].to_dict() and plain.choices[0].also_label == ""
    # Blast: per target, each target's own allies (the other target among them)
    blast = bl.attack.attack([soeldner], [ritter, knappe], Roller(dice=[6, 5]), decided=False, blast=True,
                      combatants=order)
    denies = {c.key: c for c in blast.choices if c.key.startswith("deny")}
    assert denies["deny:Ritter"].who == ("Ritter",) and denies["deny:Ritter"].also == ("Späherin", "Knappe")
    assert denies["deny:Knappe"].who == ("Knappe",) and denies["deny:Knappe"].also == ("Späherin", "Ritter")
    assert denies["deny:Knappe"].also_label == "Deny für Knappe, wenn in Armreichweite: einen Würfel entfernen"
    # the ally's Deny works as the target's: one die less, the ally's SPI save
    taken = bl.attack.attack([soeldner], ritter, Roller(dice=[6, 15]), deny={"by": "Knappe", "würfel": 6},
                      figures={"Knappe": knappe}, combatants=order)
    assert taken.outcome["schaden"] == 0 and any(e.figure == "Knappe" and e.condition == "Fatigued"
                                                 for e in taken.effects)


def test_bad_gambits_and_weapons_are_refused():
    ritter = figure("Ritter", weapons=["Streitkolben (W8)"])
    with pytest.raises(rpgkernel.RpgError, match="4 oder mehr"):
        bl.attack.attack([ritter], figure("Wolf"), Roller(dice=[3]), bolster=[3])
    with pytest.raises(rpgkernel.RpgError, match="erwartet wird 'Name \\(W8\\)'"):
        bl.sheet.weapon_dice(figure("X", weapons=["Keule W6"]))


def test_players_act_first(tmp_path):
    camp = rpgkernel.Campaign.open(tmp_path / "k.sqlite")
    camp.set_ruleset("bastionland")
    enc = camp.new_encounter("Brücke")
    enc.add("Söldner", side="Feinde", sheet={"vig": 13, "cla": 10, "spi": 10, "gd": 4})
    enc.add("Ritter", side="Spieler", sheet={"vig": 13, "cla": 10, "spi": 13, "gd": 5})
    assert enc.start() == ["Ritter", "Söldner"]
    assert enc.combatants["Söldner"].resources["GD"] == {"value": 4, "max": 4}


def test_the_card_shows_steps_rules_effects_and_escapes():
    ritter = figure("<b>Ritter</b>", weapons=["Streitkolben (W8)", "Schild (W4)"])
    res = bl.attack.attack([ritter], figure("Wolf", gd=3), Roller(dice=[7, 3]))
    text = repr(res)
    assert text.splitlines()[0] == "angriff: <b>Ritter</b> → Wolf"
    assert "  • Höchster Würfel 7 + Bolster 0 − Armour 0 = 7 Schaden  [Angriffe, Schritte 4-7]" in text
    assert "  → Wolf: VIG -4" in text and "Vorschau: Schaden nach Armour: 1 bis 8" in text
    html = res._repr_mimebundle_()["text/html"]
    assert "<b>Ritter" not in html and "&lt;b&gt;Ritter" in html
    import json
    assert json.loads(json.dumps(res.to_dict()))["outcome"]["schaden"] == 7


def test_virtues_stay_within_0_and_19_and_guard_within_0_and_its_maximum(tmp_path):
    """Virtues never above 19 or below 0, and may rise above the value they are restored to (Virtues);
    GD between 0 and its maximum (Schaden; Erholung): for every change, the GM's own too."""
    with rpgkernel.Campaign.open(tmp_path / "k.sqlite") as camp:
        camp.set_ruleset("bastionland")
        camp.add_character("Ritter", {"vig": 13, "cla": 10, "spi": 13, "gd": 5})
        camp.change("Ritter", "VIG", 9)
        camp.change("Ritter", "SPI", -20)
        camp.change("Ritter", "GD", 3)
        camp.change("Ritter", "GD", -8)
        res = camp.figure("Ritter").resources
        assert (res["VIG"], res["SPI"]["value"], res["GD"]["value"]) == ({"value": 19, "max": 13}, 0, 0)
        assert [e.data["text"] for e in camp.journal(kind="ressource")] == [
            "Ritter: VIG 13 → 19 (höchstens 19: Virtues)", "Ritter: SPI 13 → 0 (mindestens 0: Virtues)",
            "Ritter: GD 5 → 5 (höchstens 5)", "Ritter: GD 5 → 0 (mindestens 0: Schaden)"]
        # the procedures keep to the same bounds: a virtue gain stops at 19 as the GM's change does
        gain = bl.virtue_gain(figure("Knappe", spi=18), "SPI", 4)
        assert [(e.resource, e.by) for e in gain.effects] == [("SPI", 1)]
