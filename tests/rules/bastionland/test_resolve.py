"""Mythic Bastionland through %%resolve: a campaign, given dice, open choices."""

import pytest

import rpgkernel
from rpgkernel import Campaign
from rpgkernel.errors import ResolveError


@pytest.fixture
def camp(tmp_path):
    c = Campaign.open(tmp_path / "k.sqlite")
    c.set_ruleset("bastionland")
    c.add_character("Ritter", {"vig": 13, "cla": 10, "spi": 13, "gd": 5,
                               "waffen": ["Streitkolben (W8, wuchtig)", "Schild (W4)"]})
    c.add_character("Knappe", {"vig": 10, "cla": 10, "spi": 10, "gd": 3,
                               "waffen": ["Dolch (W6)", "Dolch (W6)"]})
    enc = c.new_encounter("Furt")
    enc.add("Ritter", side="Spieler", character="Ritter")
    enc.add("Knappe", side="Spieler", character="Knappe")
    enc.add("Söldner", side="Feinde", sheet={"vig": 13, "cla": 10, "spi": 10, "gd": 4, "ruestung": 2,
                                             "waffen": ["Speer (W8, wuchtig)", "Schild (W4)"]})
    enc.add("Wache", side="Feinde", sheet={"vig": 10, "cla": 10, "spi": 12, "gd": 3})
    yield c
    c.close()


def test_the_seed_example_as_a_cell(camp):
    """W8, W4, 2W6 show 7, 3, 1, 5; the 5 is spent on Bolster; armour 2 -> 6 damage."""
    opened = rpgkernel.resolve("angriff Ritter, Knappe -> Söldner", campaign=camp, dice=[7, 3, 1, 5])
    assert opened.open and camp.figure("Söldner").resources["GD"]["value"] == 4
    closed = rpgkernel.resolve("gambit Ritter bolster=5\nverzicht Söldner", campaign=camp)
    assert not closed.open and closed.outcome["schaden"] == 6
    söldner = camp.figure("Söldner")
    assert söldner.resources["GD"]["value"] == 0 and söldner.resources["VIG"]["value"] == 11
    assert "verwundet" in söldner.conditions
    camp.undo()  # the closing cell: the attack is open again, nothing applied
    assert camp.figure("Söldner").resources["VIG"]["value"] == 13


def test_deny_rolls_the_deniers_save_after_the_recorded_dice(camp):
    rpgkernel.resolve("angriff Ritter -> Söldner", campaign=camp, dice=[7, 3])
    res = rpgkernel.resolve("deny Söldner", campaign=camp, dice=[15])  # SPI 10: failed -> Fatigued
    assert res.outcome["höchster"] == 3 and res.outcome["schaden"] == 1
    assert "Fatigued" in camp.figure("Söldner").conditions


def test_previews_and_errors(camp):
    preview = rpgkernel.resolve("angriff Ritter -> Söldner", campaign=camp, preview=True).preview
    assert preview["schaden"].isclose(rpgkernel.dist("max(0, {W8,W4}kh1-2)"))
    assert preview["p_gambit"] == pytest.approx(1 - (3 / 8) * (3 / 4))
    card = repr(rpgkernel.resolve("angriff Ritter -> Söldner", campaign=camp, preview=True))
    assert "P(mindestens ein Würfel mit 4+ für ein Gambit): 71,88 %" in card and "p_gambit" not in card
    with pytest.raises(ResolveError, match="meinten Sie 'Söldner'|Meinten Sie 'Söldner'"):
        rpgkernel.resolve("angriff Ritter -> Sölner", campaign=camp, dice=[1, 1])
    with pytest.raises(ResolveError, match="angriff"):
        rpgkernel.resolve("angrif Ritter -> Söldner", campaign=camp, dice=[1, 1])
    assert camp.figure("Söldner").resources["GD"]["value"] == 4


def test_an_ally_may_deny(camp):
    rpgkernel.resolve("angriff Ritter -> Söldner", campaign=camp, dice=[7, 3])
    res = rpgkernel.resolve("deny Wache", campaign=camp, dice=[5])  # SPI 12: passed
    assert res.outcome["höchster"] == 3 and "Fatigued" not in camp.figure("Wache").conditions


def test_choices_name_who_takes_them_and_need_their_die(camp):
    rpgkernel.resolve("angriff Ritter -> Söldner", campaign=camp, dice=[7, 4])
    with pytest.raises(ResolveError, match="Welcher Würfel wird abgelegt"):
        rpgkernel.resolve("gambit Ritter gambit=Repel", campaign=camp)
    with pytest.raises(ResolveError, match="Focus braucht ein Gambit"):
        rpgkernel.resolve("focus Ritter", campaign=camp)
    res = rpgkernel.resolve("gambit Ritter würfel=4\nverzicht Söldner", campaign=camp)
    assert [g["von"] for g in res.outcome["gambits"]] == ["Ritter"]


def test_blast_choices_go_to_their_target(camp):
    camp.set_ruleset("bastionland")
    rpgkernel.resolve("angriff Ritter -> Söldner, Wache blast", campaign=camp, dice=[6, 2, 7, 1])
    res = rpgkernel.resolve("deny Wache -> Wache\nverzicht Söldner", campaign=camp, dice=[3, 10])
    steps = " ".join(s.text for s in res.steps)
    assert "Wache setzt Deny ein" in steps


def test_a_blast_replays_every_targets_dice_before_the_first_targets_deny(camp):
    """The recorded dice of both targets come first; the Söldner's SPI save is the die given now."""
    rpgkernel.resolve("angriff Ritter -> Söldner, Wache blast", campaign=camp, dice=[6, 2, 7, 1])
    res = rpgkernel.resolve("deny Söldner -> Söldner würfel=6\nverzicht Wache", campaign=camp, dice=[20])
    assert res.outcome["ziele"]["Söldner"]["höchster"] == 2 and res.outcome["ziele"]["Wache"]["höchster"] == 7
    assert "Fatigued" in camp.figure("Söldner").conditions


def test_smite_w12_is_in_the_preview(camp):
    plain = rpgkernel.resolve("angriff Ritter -> Söldner", campaign=camp, preview=True).preview["schaden"]
    smite = rpgkernel.resolve("angriff Ritter -> Söldner smite=W12", campaign=camp, preview=True).preview["schaden"]
    assert smite.isclose(rpgkernel.dist("max(0, {W8,W4,W12}kh1-2)")) and smite.mean > plain.mean


def test_blast_choices_name_their_target(camp):
    res = rpgkernel.resolve("angriff Ritter -> Söldner, Wache blast", campaign=camp, dice=[6, 2, 7, 1])
    labels = [c.label for c in res.choices if c.key.startswith("deny")]
    assert len(labels) == 2 and labels[0].endswith("– Söldner") and labels[1].endswith("– Wache")


def test_the_gms_scar_table_kept_in_the_campaign_is_read_by_resolve(camp, tmp_path):
    from rpgkernel.rules import bastionland
    table = tmp_path / "narben.yaml"
    table.write_text("narben:\n  5: Tiefer Schnitt\n  8: Verlorenes Auge\n", encoding="utf-8")
    line = "angriff Ritter -> Wache entschieden"      # W8 3 = GD 3 exactly: a scar, the W8 again: 5
    res = rpgkernel.resolve(line, campaign=camp, dice=[3, 1, 5])
    assert res.outcome["narbe"] == 5 and "narbe_text" not in res.outcome
    camp.undo()
    bastionland.einrichten(narben=table, kampagne=camp)
    res = rpgkernel.resolve(line, campaign=camp, dice=[3, 1, 5])
    assert res.outcome["narbe_text"] == "Tiefer Schnitt" and "Tiefer Schnitt" in res.steps[-1].text
    assert bastionland.EINSTELLUNGEN.kept_in(camp).narben == {5: "Tiefer Schnitt", 8: "Verlorenes Auge"}
    camp.undo()                                   # the attack
    camp.undo()                                   # the settings: no table again
    assert bastionland.EINSTELLUNGEN.kept_in(camp).narben is None


def test_bad_gm_tables_are_refused_and_change_nothing(camp, tmp_path):
    from rpgkernel.rules import bastionland
    bad = tmp_path / "narben.yaml"
    bad.write_text("narben:\n  fünf: Schnitt\n", encoding="utf-8")
    with pytest.raises(bastionland.BastionlandError, match="Narbentabelle .*narben.yaml"):
        bastionland.einrichten(narben=bad, kampagne=camp)
    gambits = tmp_path / "gambits.yaml"
    gambits.write_text("gambits:\n  Repel: {}\n", encoding="utf-8")
    with pytest.raises(bastionland.BastionlandError, match="mindestens Bolster"):
        bastionland.einrichten(gambits=gambits, kampagne=camp)
    assert camp.data("bastionland") is None
    camp.set_data("bastionland", {"narbe": {}})
    with pytest.raises(ResolveError, match="Zeile 1.*keine Einstellungen für Mythic Bastionland"):
        rpgkernel.resolve("angriff Ritter -> Wache entschieden", campaign=camp, dice=[3, 1, 5])
