"""An Effect that writes sheet fields: applied with the resolution, validated by the ruleset,
resources following, journalled, undone with the cell, shown on the card."""

import pytest

import rpgkernel
from rpgkernel.errors import RpgError
from rpgkernel.render import resolution_html, resolution_text
from rpgkernel.rules.base import Ruleset
from rpgkernel.rules.resolution import Effect, Resolution, Verb
from rpgkernel.rules.sheet import Field, Sheet
from rpgkernel.state import Campaign


def training(req):
    """Stärke rises by ``um`` (sheet), the figure loses 1 LP (resource) and tires (condition)."""
    [fig] = req.actors
    res = Resolution("bogenprobe", "training", (fig.name,))
    roll = req.roller.roll("W6")
    res.step(f"W6 = {roll.total}", "Training", roll)
    new = fig.value("stärke") + req.options.get("um", roll.total)
    res.effects += [Effect(fig.name, "LP", -1), Effect(fig.name, sheet={"stärke": new, "notiz": "trainiert"}),
                    Effect(fig.name, condition="müde")]
    return res


class BogenprobeBogen(Sheet):
    def resources(self, sheet, data):
        return {"LP": {"value": 2 * sheet["stärke"], "max": 2 * sheet["stärke"]}}


class Bogenprobe(Ruleset):
    key = "bogenprobe"
    title = "Bogenprobe"
    sheet = BogenprobeBogen({"stärke": Field("int", "Stärke", 1, 20, required=True), "notiz": Field("text", "Notiz")})
    verbs = {"training": Verb("training", training, "Training", actors="one", options={"um": "int"})}


@pytest.fixture(autouse=True)
def ruleset(add_ruleset):
    add_ruleset(Bogenprobe)


@pytest.fixture
def camp(tmp_path):
    with Campaign.open(tmp_path / "k.sqlite") as c:
        c.set_ruleset("bogenprobe")
        c.add_character("Ritter", {"stärke": 7})
        yield c


def test_the_sheet_effect_is_applied_with_the_resources_following(camp):
    res = rpgkernel.resolve("training Ritter", campaign=camp, dice=[3])
    fig = camp.figure("Ritter")
    assert fig.sheet == {"stärke": 10, "notiz": "trainiert"}
    # LP max 14 -> 20 (value moves with it: 14 -> 20), then the resolution's own -1
    assert fig.resources["LP"] == {"value": 19, "max": 20}
    assert "müde" in fig.conditions
    assert "Ritter: Bogen: stärke 10; notiz trainiert" in resolution_text(res)
    assert "Bogen: stärke 10; notiz trainiert" in resolution_html(res)


def test_the_sheet_change_is_journalled_and_one_undo_takes_the_cell_back(camp):
    rpgkernel.resolve("training Ritter", campaign=camp, dice=[3])
    texts = [e.data["text"] for e in camp.journal(last=2)]
    assert any("Stärke 7 → 10" in text for text in texts)          # the sheet line of Campaign.set_sheet, by its label
    assert any(text.startswith("training: Ritter") for text in texts)
    camp.undo()
    fig = camp.figure("Ritter")
    assert fig.sheet == {"stärke": 7} and fig.resources["LP"] == {"value": 14, "max": 14}
    assert not fig.conditions


def test_a_sheet_the_ruleset_refuses_applies_nothing(camp):
    seq = camp.state["seq"]
    with pytest.raises(RpgError, match="Feld 'stärke' \\(Stärke\\): erlaubt ist eine ganze Zahl von 1 bis 20"):
        rpgkernel.resolve("training Ritter um=30", campaign=camp, dice=[3])
    assert camp.state["seq"] == seq and camp.figure("Ritter").sheet == {"stärke": 7}


def test_without_a_campaign_the_sheet_is_validated(camp):
    figures = {"Ritter": {"sheet": {"stärke": 7}, "resources": {"LP": {"value": 14, "max": 14}}}}
    res = rpgkernel.resolve("training Ritter", ruleset="bogenprobe", figures=figures, dice=[2])
    assert res.effects[1].sheet == {"stärke": 9, "notiz": "trainiert"}
    with pytest.raises(RpgError, match="Feld 'stärke'"):
        rpgkernel.resolve("training Ritter um=30", ruleset="bogenprobe", figures=figures, dice=[2])


def test_the_effect_is_plain_data():
    effect = Effect("Ritter", sheet={"stärke": 9})
    assert effect.to_dict()["sheet"] == {"stärke": 9} and Effect("Ritter", "LP", -1).to_dict()["sheet"] is None
