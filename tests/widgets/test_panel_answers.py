"""The panel with several resolutions open: a decision names the resolution it was taken from and goes
exactly there (an older attack's Deny taken over before a newer attack was rolled stays the older one's),
a decline names its resolution too, the front end hears when an action is done, and what a player
resolved on their page stands in the panel's result, marked with whose page it was."""

import json

import pytest
from panel_driving import FIRST_ATTACK, SECOND_ATTACK, send, set_form

import rpgkernel
from rpgkernel.resolve import pending
from rpgkernel.server import actions
from rpgkernel.widgets import EncounterPanel


@pytest.fixture
def camp(two_mercenaries):
    return two_mercenaries


@pytest.fixture
def panel(camp):
    p = EncounterPanel(camp)
    sent = []
    p.send = lambda content, buffers=None: sent.append(content)   # the custom messages to the front end
    p.sent = sent
    yield p
    p.close()


def test_a_deny_taken_over_from_the_older_attack_goes_to_it_after_a_newer_roll(panel, camp):
    older = rpgkernel.resolve(FIRST_ATTACK, campaign=camp, dice=[7, 3, 5, 1, 2])
    (shown,) = panel.pending
    assert shown["id"] == older.id and shown["head"] == "angriff: Ritter, Knappe → Söldner 1"
    # the GM takes over Söldner 1's Deny from the open attack, then rolls a newer one (also open)
    set_form(panel, decisions=[{"id": older.id, "key": "deny", "who": "Söldner 1", "options": {"würfel": "7"}}])
    assert panel.lines["taken"] == [f"deny \"Söldner 1\" würfel=7 auflösung={older.id}"]
    set_form(panel, verb="angriff", actors=["Knappe"], targets=["Söldner 2"], dice="6,4")
    send(panel, "act")
    assert panel.error == "" and [p["head"] for p in panel.pending] == [
        "angriff: Ritter, Knappe → Söldner 1", "angriff: Knappe → Söldner 2"]
    newer = panel.pending[-1]["id"]
    send(panel, "choose")
    assert panel.error == ""
    assert list(pending(camp)) == [newer]   # the attack on Söldner 2 is untouched
    (card,) = panel.result["cards"]
    assert card["targets"] == ["Söldner 1"] and not card["open"]
    assert panel.result["cell"] == f"%%resolve\ndeny \"Söldner 1\" würfel=7 auflösung={older.id}"
    assert [m for m in panel.sent if m.get("type") == "done"] == [{"type": "done", "of": "act"},
                                                                   {"type": "done", "of": "choose"}]


def test_a_decision_for_a_resolution_closed_meanwhile_is_refused_with_the_reason(panel, camp):
    older = rpgkernel.resolve(FIRST_ATTACK, campaign=camp, dice=[7, 3, 5, 1, 2])
    rpgkernel.resolve(SECOND_ATTACK, campaign=camp, dice=[6, 4])
    set_form(panel, decisions=[{"id": older.id, "key": "gambit", "who": "Knappe",
                                "options": {"würfel": "5", "gambit": "Bolster"}}])
    rpgkernel.resolve(f"verzicht Ritter auflösung={older.id}", campaign=camp)   # another cell closes it
    seq = camp.state["seq"]
    send(panel, "choose")
    assert f"Die Auflösung {older.id} ist schon abgeschlossen" in panel.error
    assert camp.state["seq"] == seq and len(pending(camp)) == 1
    assert panel.sent[-1] == {"type": "done", "of": "choose"}   # refused: the form is free again all the same


def test_a_decline_names_its_resolution(panel, camp):
    older = rpgkernel.resolve(FIRST_ATTACK, campaign=camp, dice=[7, 3, 5, 1, 2])
    newer = rpgkernel.resolve(SECOND_ATTACK, campaign=camp, dice=[6, 4])
    send(panel, "choose", decline=True, id=older.id)
    assert panel.error == "" and list(pending(camp)) == [newer.id]
    assert panel.result["cell"] == f"%%resolve\nverzicht Ritter auflösung={older.id}"
    send(panel, "choose", decline=True, id=older.id)
    assert panel.error == f"Die Auflösung {older.id} ist schon abgeschlossen; ihre Entscheidungen sind gefallen."
    send(panel, "choose", decline=True)   # no id: the latest, as before
    assert panel.error == "" and pending(camp) == {}


def test_what_a_player_resolved_on_their_page_is_the_panels_result_marked_with_who(panel, camp):
    set_form(panel, verb="angriff", actors=["Knappe"], targets=["Söldner 2"], dice="6,4")
    send(panel, "act")
    gm_card = panel.result
    assert "player" not in gm_card
    older = rpgkernel.resolve(FIRST_ATTACK, campaign=camp, dice=[7, 3, 5, 1, 2])
    message = {"type": "wahl", "aufloesung": older.id, "key": "gambit", "optionen": {"würfel": 7, "gambit": "Bolster"}}
    answer = actions.act(camp, "Ritter", json.dumps(message), "token", lambda *_: None)   # the Ritter's phone, no limit
    assert answer["result"].startswith("Genommen: Gambits")
    send(panel, "poll")   # the front end's next poll folds it in
    assert panel.result != gm_card and panel.result["player"] == "Ritter"
    (card,) = panel.result["cards"]
    assert card["actors"] == ["Ritter", "Knappe"] and card["targets"] == ["Söldner 1"] and not card["open"]
    assert any("Bolster" in s["text"] for s in card["steps"])
    # the GM's own line after it is the GM's again
    send(panel, "choose", decline=True)
    assert "player" not in panel.result and panel.result["cell"].startswith("%%resolve")
