"""The GM's data kept in the campaign: tables and maps survive a restart and are undoable."""

import pytest

from rpgkernel import resolve
from rpgkernel.errors import RpgError
from rpgkernel.rules import Ruleset
from rpgkernel.rules.resolution import Resolution, Verb
from rpgkernel.state import Campaign


@pytest.fixture
def path(tmp_path):
    return str(tmp_path / "kampagne.sqlite")


def test_data_survives_reopen_and_encounter_data_comes_first(path):
    c = Campaign.open(path)
    c.set_data("krit", {"rows": [[1, 50, "Streifschuss"], [51, 100, "Treffer"]]})
    c.set_ruleset("bastionland")
    enc = c.new_encounter("Brücke")
    enc.set_data("krit", {"rows": []})
    c.close()

    again = Campaign.open(path)
    assert again.data("krit") == {"rows": []}  # the active encounter's own
    assert again.data("krit", encounter="Brücke") == {"rows": []}
    again.new_encounter("Turm")  # now active, without data of its own
    assert again.data("krit")["rows"][0] == [1, 50, "Streifschuss"]
    assert again.data("fehlt", default=7) == 7
    assert "Daten der Spielleitung: krit gesetzt" in [e.data["text"] for e in again.journal(kind="daten")]


def test_data_is_undoable_and_none_removes(path):
    c = Campaign.open(path)
    c.set_data("karte", [1, 2, 3])
    c.set_data("karte", [4])
    c.undo()
    assert c.data("karte") == [1, 2, 3]
    c.set_data("karte", None)
    assert c.data("karte") is None
    c.undo()
    assert c.data("karte") == [1, 2, 3]
    seq = c.state["seq"]
    c.set_data("karte", [1, 2, 3])  # unchanged: nothing written
    assert c.state["seq"] == seq


def test_data_returned_is_a_copy(path):
    c = Campaign.open(path)
    c.set_data("t", {"a": [1]})
    c.data("t")["a"].append(2)
    assert c.data("t") == {"a": [1]}


@pytest.mark.parametrize("value", [object(), {1: "a"}, float("nan"), {"x": {1, 2}}])
def test_bad_data_is_refused_in_german(path, value):
    c = Campaign.open(path)
    with pytest.raises(RpgError, match="Daten 't'"):
        c.set_data("t", value)
    assert c.data("t") is None


def test_unknown_encounter_and_too_big(path, monkeypatch):
    c = Campaign.open(path)
    with pytest.raises(RpgError, match="Unbekannte Begegnung 'Nirgends'"):
        c.set_data("t", 1, encounter="Nirgends")
    monkeypatch.setattr("rpgkernel.state.campaign.MAX_DATA", 10)
    with pytest.raises(RpgError, match="höchstens 10 Bytes"):
        c.set_data("t", "x" * 20)


class Tabellen(Ruleset):
    """A ruleset whose one verb reports the data it sees."""

    key = "tabellen"
    title = "Tabellen"
    verbs = {"lies": Verb("lies", lambda req: Resolution(
        "tabellen", "lies", tuple(a.name for a in req.actors), outcome={"tabelle": req.data.get("tabelle")}),
        "Lesen", actors="one")}


def test_procedures_see_the_data_of_the_active_encounter(path, add_ruleset):
    add_ruleset(Tabellen)
    c = Campaign.open(path)
    c.set_ruleset("tabellen")
    c.add_character("Ritter")
    c.set_data("tabelle", "Kampagne")
    assert resolve("lies Ritter", campaign=c).outcome["tabelle"] == "Kampagne"
    c.new_encounter("Wald").set_data("tabelle", "Wald")
    assert resolve("lies Ritter", campaign=c).outcome["tabelle"] == "Wald"
