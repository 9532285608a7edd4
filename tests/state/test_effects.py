"""The campaign applies a resolution's effects itself (rpgkernel.state.effects), all or nothing."""

import pytest

from rpgkernel import Campaign
from rpgkernel.state import effects
from rpgkernel.state.effects import Effect
from rpgkernel.state.transaction import CampaignError


@pytest.fixture
def camp(tmp_path):
    c = Campaign.open(tmp_path / "k.sqlite")
    c.set_ruleset("osr")
    c.add_character("Ork", {"rk": 7, "tp": 6})
    yield c
    c.close()


def test_resources_conditions_and_sheets_change_in_one_transaction(camp):
    with camp.transaction() as tx:
        effects.apply(tx, [Effect("Ork", resource="TP", by=-2), Effect("Ork", condition="liegend", rounds=2),
                           Effect("Ork", sheet={"tp": 9})])
        tx.event("auflösung", "Treffer")
    ork = camp.figure("Ork")
    # the sheet first: TP max 6 -> 9 raises the value by 3, then the hit: 6 + 3 - 2
    assert ork.resources["TP"] == {"value": 7, "max": 9} and "liegend" in ork.conditions
    with camp.transaction() as tx:
        effects.apply(tx, [Effect("Ork", condition="liegend", on=False), Effect("Ork", condition="tot", on=False)])
        tx.event("auflösung", "Aufgestanden")
    assert "liegend" not in camp.figure("Ork").conditions


def test_an_unknown_figure_or_resource_refuses_all_of_it(camp):
    for bad, message in ((Effect("Goblin", resource="TP", by=-1), "Goblin"),
                         (Effect("Ork", resource="GD", by=-1), "GD")):
        with pytest.raises(CampaignError, match=message):
            with camp.transaction() as tx:
                effects.apply(tx, [Effect("Ork", resource="TP", by=-3), bad])
                tx.event("auflösung", "Treffer")
        assert camp.figure("Ork").resources["TP"]["value"] == 6
