"""A player's choice names the open resolution it answers: after an undo reopened an older attack and the
GM rolled a newer one, the Ritter's page offers the older attack's Gambits with what they answer, and
taking one reaches the older attack (it answered "Diese Wahl steht gerade nicht offen." before)."""

from __future__ import annotations

import json

import pytest
from panel_driving import FIRST_ATTACK as FIRST
from panel_driving import SECOND_ATTACK as SECOND

import rpgkernel
from rpgkernel.resolve import pending
from rpgkernel.server import actions
from rpgkernel.state import player_view


@pytest.fixture
def camp(two_mercenaries):
    return two_mercenaries


def _act(camp, figure, **message):
    return actions.act(camp, figure, json.dumps(message, ensure_ascii=False), "token", lambda *_: None)   # no limit


def test_the_ritters_gambit_reaches_the_older_attack_that_an_undo_reopened(camp):
    older = rpgkernel.resolve(FIRST, campaign=camp, dice=[7, 3, 5, 1, 2])   # gambits: the 7 and the 5
    rpgkernel.resolve("verzicht Ritter", campaign=camp)
    camp.undo()                                                              # reopened
    newer = rpgkernel.resolve(SECOND, campaign=camp, dice=[6, 4])            # offers gambits too (the Knappe's)
    offered = player_view.view(camp.state, "Ritter")["wahlen"]
    assert [(c["id"], c["key"]) for c in offered] == [(older.id, "gambit"), (older.id, "focus")]   # none of the newer
    gambit = next(c for c in offered if c["key"] == "gambit")
    assert gambit["um"] == "angriff: Ritter, Knappe → Söldner 1"
    assert gambit["wuerfel"] == ["W8: 7", "W4: 3", "W6: 5", "W6: 1", "W8: 2"]   # every die, the bonus W8 too
    assert gambit["options"] == ["7", "5"]
    answer = _act(camp, "Ritter", type="wahl", aufloesung=gambit["id"], key="gambit",
                  optionen={"würfel": 7, "gambit": "Bolster"})
    assert answer["result"].startswith("Genommen: Gambits"), answer
    assert list(pending(camp)) == [newer.id]   # the newer attack stays open for the Knappe and Söldner 2
    closed = camp.journal(kind="auflösung")[-1]
    assert closed.data["pending"] == older.id and closed.data["targets"] == ["Söldner 1"]
    assert closed.data["player"] == "Ritter" and closed.data["open"] is False


def test_the_knappe_sees_each_attacks_choices_and_each_goes_to_its_own(camp):
    older = rpgkernel.resolve(FIRST, campaign=camp, dice=[7, 3, 5, 1, 2])
    newer = rpgkernel.resolve(SECOND, campaign=camp, dice=[6, 4])
    offered = player_view.view(camp.state, "Knappe")["wahlen"]
    by_id = {pid: [c["key"] for c in offered if c["id"] == pid] for pid in (older.id, newer.id)}
    assert by_id == {older.id: ["gambit", "focus"], newer.id: ["gambit", "focus"]}
    assert {c["um"] for c in offered} == {"angriff: Ritter, Knappe → Söldner 1", "angriff: Knappe → Söldner 2"}
    # the older one's Focus, though the newer one offers a Focus too: a choice line without an id took the newer
    answer = _act(camp, "Knappe", type="wahl", aufloesung=older.id, key="focus", optionen={"gambit": "Move"},
                  wuerfel=[3])
    assert answer["result"].startswith("Genommen: Focus"), answer
    assert list(pending(camp)) == [newer.id]
    # taken: the older one is closed now, and the page says so
    again = _act(camp, "Knappe", type="wahl", aufloesung=older.id, key="focus", optionen={"gambit": "Move"})
    assert again == {"refused": f"Die Auflösung {older.id} ist schon abgeschlossen; ihre Entscheidungen sind gefallen."}
