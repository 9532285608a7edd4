"""Widgets already on screen follow a language switch (``%rpg --sprache en``) without their cells running
again: their labels and every text their traits hold are drawn anew in the new language."""

from __future__ import annotations

import json

import pytest
from panel_driving import make_campaign

import rpgkernel
from rpgkernel import messages
from rpgkernel.session import Session
from rpgkernel.widgets.chart import DistributionChart
from rpgkernel.widgets.encounter import EncounterPanel
from rpgkernel.widgets.players import PlayerLinks
from rpgkernel.widgets.sheet import CharacterSheet
from rpgkernel.widgets.tray import DiceTray, RollCard


@pytest.fixture
def ford(tmp_path):
    camp = make_campaign(tmp_path / "k.sqlite")
    yield camp
    camp.close()


def _shown(widget) -> str:
    """Every synced trait of ``widget`` but its labels, as the front end receives them."""
    state = {name: value for name, value in widget.get_state().items() if name not in ("labels", "_esm", "_css")}
    return json.dumps(state, ensure_ascii=False, sort_keys=True, default=str)


def _made(camp) -> dict[str, object]:
    tray = DiceTray(session=Session(seed=1))
    tray.roll("2W6+1234", dice=[3, 4])
    camp.new_player_link("Ritter")
    return {"panel": EncounterPanel(camp), "sheet": CharacterSheet(camp, "Ritter"),
            "chart": DistributionChart(rpgkernel.dist("3W6"), marked=[12]), "tray": tray,
            "card": RollCard(rpgkernel.roll("3W6", dice=[6, 5, 1])), "links": PlayerLinks(camp)}


def test_a_widget_on_screen_relabels_when_the_language_switches(ford):
    widgets = _made(ford)
    german = {name: (dict(w.labels), _shown(w)) for name, w in widgets.items()}
    Session(language="en")                                   # as %rpg --sprache en, in a later cell
    try:
        english = {name: (dict(w.labels), _shown(w)) for name, w in widgets.items()}
        fresh = {name: (dict(w.labels), _shown(w)) for name, w in _made(ford).items()}
    finally:
        messages.set_language("de")
    back = {name: (dict(w.labels), _shown(w)) for name, w in widgets.items()}
    for name, (labels, shown) in english.items():
        assert labels == fresh[name][0] != german[name][0], name    # the labels of a widget made now
        assert shown != german[name][1] or name == "links", name   # and texts of its own (a link: its time)
    assert "Mythic Bastionland" in english["sheet"][1] and '"label": "Vigour' in english["sheet"][1]
    assert '"mean_text": "10.50"' in english["chart"][1] and '"mean_text": "10,50"' in german["chart"][1]
    assert "1,241" in english["tray"][1] and "1.241" in german["tray"][1]
    assert {name: labels for name, (labels, _) in back.items()} == {n: g[0] for n, g in german.items()}


def test_a_closed_widget_hears_no_switch(ford):
    chart = DistributionChart(rpgkernel.dist("3W6"))
    before = dict(chart.labels)
    chart.close()
    Session(language="en")
    try:
        assert chart.labels == before
    finally:
        messages.set_language("de")
