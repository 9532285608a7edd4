"""Widgets whose campaign was closed (as every example notebook does at its end): a quiet German line
instead of an error box, the last state kept, no more watching; the front end stops polling."""

from __future__ import annotations

import pytest
from panel_driving import FURT

from rpgkernel import Campaign
from rpgkernel.statblocks import load
from rpgkernel.widgets import CharacterSheet, EncounterPanel, HexMap


@pytest.fixture
def camp(tmp_path):
    c = Campaign.open(tmp_path / "furt.sqlite")
    c.set_ruleset("bastionland")
    load(c, FURT)
    c.encounter.start()
    yield c
    c.close()


#: each widget with a click of its own (besides the poll every one sends)
WIDGETS = {
    "panel": (lambda c: EncounterPanel(c), {"type": "next_turn"}),
    "sheet": (lambda c: CharacterSheet(c, "Ritter"), {"type": "save"}),
    "hexmap": (lambda c: HexMap(c), {"type": "move", "q": 0, "r": 0}),
}


@pytest.mark.parametrize("kind", WIDGETS)
@pytest.mark.parametrize("click", [False, True])
def test_a_closed_campaign_is_a_quiet_line_not_an_error(camp, kind, click):
    make, action = WIDGETS[kind]
    message = action if click else {"type": "poll"}
    widget = make(camp)
    before = widget.get_state()
    camp.close()                        # the widget says so at once, whether it is on screen or not
    assert widget.closed == f"Die Kampagne {camp.store.where} ist geschlossen; hier steht ihr letzter Stand."
    assert camp._watchers == []          # it no longer follows the campaign
    widget._dispatch(widget, message)   # the front end's next poll or click
    assert widget.error == ""
    after = widget.get_state()
    assert {k: v for k, v in after.items() if k != "closed"} == {k: v for k, v in before.items() if k != "closed"}
    widget._dispatch(widget, {"type": "poll"})
    assert widget.error == "" and widget.closed
    widget.close()


def test_an_open_campaign_shows_no_line(camp):
    panel = EncounterPanel(camp)
    panel._dispatch(panel, {"type": "poll"})
    assert panel.closed == "" and panel.error == ""


def test_every_polling_front_end_stops_once_closed():
    from rpgkernel.assets import asset
    for name in ("encounter.js", "sheet.js", "hexmap.js"):
        source = asset(name)
        assert "pollWhileShown(" in source and "setInterval" not in source, name
        assert "statusBox(model)" in source and "errorBox(model)" not in source, name
    assert 'if (model.get("closed")) stop();' in asset("common.js")
