"""The player's own suggestions in the player's view: only the viewer's figure's, kept as text, with the
GM's answer (offen, angenommen, abgelehnt), following undo; another player's never, not even counted."""

from __future__ import annotations

import json

import pytest
from panel_driving import make_campaign

from rpgkernel import Campaign
from rpgkernel.state import player_view
from rpgkernel.state.player_view import view

HOSTILE = "<img src=x onerror=alert(1)> & \"Knappe\"\nzweite Zeile"


@pytest.fixture
def camp(tmp_path):
    c = make_campaign(tmp_path / "k.sqlite")
    yield c
    c.close()


def mine(c: Campaign, figure: str) -> list[dict]:
    return view(c.state, figure, c.store.events())["vorschlaege"]


def test_each_player_sees_only_their_own_suggestions_and_the_gms_answer(camp):
    assert mine(camp, "Ritter") == []
    deny = camp.suggest("Ritter", "Der Knappe soll Deny nehmen")
    camp.suggest("Knappe", "Geheimplan des Knappen")
    jump = camp.suggest("Ritter", "  Ich springe in die Furt  ")
    assert mine(camp, "Ritter") == [{"id": deny, "text": "Der Knappe soll Deny nehmen", "antwort": "offen"},
                                    {"id": jump, "text": "Ich springe in die Furt", "antwort": "offen"}]
    knight = json.dumps(view(camp.state, "Ritter", camp.store.events()), ensure_ascii=False)
    assert "Geheimplan" not in knight
    camp.accept_suggestion(deny)
    camp.decline_suggestion(jump)
    assert [s["antwort"] for s in mine(camp, "Ritter")] == ["angenommen", "abgelehnt"]
    assert [s["text"] for s in mine(camp, "Knappe")] == ["Geheimplan des Knappen"]
    camp.undo()   # the decline taken back: open again
    assert [s["antwort"] for s in mine(camp, "Ritter")] == ["angenommen", "offen"]
    # the Wache's player (an enemy has no suggestions) sees none of them, not even how many there are
    assert mine(camp, "Wache") == []
    assert "Deny nehmen" not in json.dumps(view(camp.state, "Wache", camp.store.events()), ensure_ascii=False)


def test_another_players_suggestions_change_nothing_in_a_view(camp):
    before = json.dumps(view(camp.state, "Ritter", camp.store.events()), ensure_ascii=False)
    other = camp.suggest("Knappe", "Ich halte die Wache auf")
    camp.accept_suggestion(other)
    assert json.dumps(view(camp.state, "Ritter", camp.store.events()), ensure_ascii=False) == before


def test_a_hostile_text_is_kept_as_text(camp):
    sid = camp.suggest("Ritter", HOSTILE)
    [shown] = mine(camp, "Ritter")
    assert shown == {"id": sid, "text": HOSTILE, "antwort": "offen"}   # data, unchanged: the page sets it as text


def test_the_view_carries_the_latest_suggestions(camp):
    ids = [camp.suggest("Ritter", f"Vorschlag Nummer {i}") for i in range(player_view.SUGGESTIONS_SHOWN + 3)]
    assert [s["id"] for s in mine(camp, "Ritter")] == ids[-player_view.SUGGESTIONS_SHOWN:]
