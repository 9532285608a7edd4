"""The players in the GM's panel: their open suggestions (written through another Campaign object, as the
server writes them) with "Annehmen" and "Ablehnen", each the line ``%rpg vorschläge --annehmen ID`` a GM
could type; the flag that makes the panel poll faster while a player link is valid; the players'
entries marked in the journal tail; and ``%rpg vorschläge`` itself."""

from __future__ import annotations

import pytest
from doc_blocks import page
from panel_driving import make_campaign, send

from rpgkernel import Campaign
from rpgkernel.assets import asset
from rpgkernel.widgets import EncounterPanel
from rpgkernel.widgets.encounter import JOURNAL_TAIL

HOSTILE = "<img src=x onerror=alert(1)>"
#: the GM's lines in docs/kampagne.md ("Wie die Spielleitung antwortet")
ANSWERING = page("kampagne.md").block("", first="%rpg vorschläge", after="#### Wie die Spielleitung antwortet")


@pytest.fixture(autouse=True)
def runtime_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "runtime"))   # where player links are registered


@pytest.fixture
def camp(tmp_path):
    c = make_campaign(tmp_path / "k.sqlite")
    yield c
    c.close()


@pytest.fixture
def server(camp, tmp_path):
    """The campaign as the player pages' server has it open: another Campaign object on the same file."""
    other = Campaign.open(tmp_path / "k.sqlite")
    yield other
    other.close()


@pytest.fixture
def panel(camp):
    p = EncounterPanel(camp.encounter)
    yield p
    p.close()


def test_a_valid_player_link_makes_the_panel_live(panel, camp):
    assert panel.players == {"live": False, "suggestions": []}
    link = camp.new_player_link("Ritter")
    assert panel.players["live"] is True
    camp.revoke_player_link(link.id)
    assert panel.players["live"] is False
    camp.renew_player_link(link.id)
    assert panel.players["live"] is True


def test_a_players_suggestion_shows_after_a_poll_and_is_accepted(panel, camp, server):
    sid = server.suggest("Ritter", HOSTILE)
    assert panel.players["suggestions"] == []   # not read yet
    send(panel, "poll")
    [shown] = panel.players["suggestions"]
    assert shown == {"id": sid, "figure": "Ritter", "text": HOSTILE, "created": shown["created"],
                     "accept": f"%rpg vorschläge --annehmen {sid}", "decline": f"%rpg vorschläge --ablehnen {sid}"}
    assert shown["created"].endswith("+00:00")
    assert panel.journal[-1]["kind"] == "vorschlag" and panel.journal[-1]["player"] is True
    assert panel.journal[-1]["text"] == f"Vorschlag {sid} von Ritter: {HOSTILE}"   # text, escaped by the front end
    send(panel, "accept_suggestion", id=sid)
    assert panel.error == ""
    assert panel.result == {"notice": f"Vorschlag {sid} von Ritter angenommen: {HOSTILE}",
                            "cell": f"%rpg vorschläge --annehmen {sid}"}
    assert panel.players["suggestions"] == []
    assert panel.journal[-1]["text"] == f"Vorschlag {sid} von Ritter angenommen: {HOSTILE}"
    assert "player" not in panel.journal[-1]   # the GM's answer
    server.refresh()
    assert server.player_suggestions(open_only=False)[0]["answer"] == "angenommen"


def test_decline_leaves_the_others_and_is_undone(panel, camp, server):
    first, second = server.suggest("Ritter", "Deny für den Knappen"), server.suggest("Knappe", "Ich fliehe")
    send(panel, "poll")
    send(panel, "decline_suggestion", id=first)
    assert panel.result["cell"] == f"%rpg vorschläge --ablehnen {first}"
    assert [s["id"] for s in panel.players["suggestions"]] == [second]
    send(panel, "undo")
    assert [s["id"] for s in panel.players["suggestions"]] == [first, second]


@pytest.mark.parametrize("content, message", [
    ({}, "Welcher Vorschlag? Die Nachricht nennt keinen."),
    ({"id": ["x"]}, "Welcher Vorschlag? Die Nachricht nennt keinen."),
    ({"id": "zzz"}, "Einen Vorschlag 'zzz' gibt es nicht. Offen: "),
])
def test_errors_are_german(panel, server, content, message):
    sid = server.suggest("Ritter", "Deny")
    send(panel, "poll")
    send(panel, "accept_suggestion", **content)
    assert panel.error.startswith(message)
    if content.get("id") == "zzz":
        assert panel.error.endswith(f"{sid}.")   # the open ones named
    assert [s["id"] for s in panel.players["suggestions"]] == [sid]


def test_an_answered_suggestion_cannot_be_answered_again(panel, server):
    sid = server.suggest("Ritter", "Deny")
    send(panel, "poll")
    server.decline_suggestion(sid)   # the GM answered in another notebook, this panel has not polled yet
    send(panel, "accept_suggestion", id=sid)
    assert panel.error == f"Der Vorschlag {sid} ist schon beantwortet (abgelehnt)."
    assert panel.players["suggestions"] == []   # the failed answer read the campaign anew


def test_only_suggestions_are_marked_as_the_players(panel, camp, server):
    server.suggest("Knappe", "Ich fliehe")
    camp.encounter.next_turn()
    send(panel, "poll")
    marked = [e["kind"] for e in panel.journal if e.get("player")]
    assert marked == ["vorschlag"] and len(panel.journal) <= JOURNAL_TAIL


def test_the_front_end_polls_faster_while_live_and_sets_suggestions_as_text():
    js = asset("encounter.js")
    assert "PANEL_LIVE_POLL_MS = 500" in js and ".live ? PANEL_LIVE_POLL_MS : PANEL_POLL_MS" in js
    assert '"accept_suggestion"' in js and '"decline_suggestion"' in js
    assert "innerHTML" not in js and "insertAdjacentHTML" not in js


# -- %rpg vorschläge --------------------------------------------------------------------------------------
@pytest.fixture
def table(notebook, tmp_path):
    notebook.ok("%rpg --kampagne k.sqlite")
    notebook.ok("import rpgkernel\nkampagne = rpgkernel.session.current().campaign\n"
                "kampagne.add_character('Alrik')\nkampagne.add_character('Brida')")
    return notebook


def test_the_magic_lists_accepts_and_declines(table):
    camp = table.ns["kampagne"]
    assert table.ok("%rpg vorschläge") == ["Keine offenen Vorschläge der Spieler."]
    first, second = camp.suggest("Alrik", "Brida soll Deny nehmen"), camp.suggest("Brida", HOSTILE)
    [listing] = table.ok("%rpg vorschläge")
    head, *rows = listing.splitlines()
    assert head.split() == ["ID", "Figur", "Eingegangen", "Antwort", "Vorschlag"]
    assert [r.split()[:2] for r in rows] == [[first, "Alrik"], [second, "Brida"]]
    assert rows[0].split("  ")[-1] == "Brida soll Deny nehmen" and " UTC  offen " in rows[0]
    html = table.value._repr_mimebundle_()["text/html"]
    assert HOSTILE not in html and "&lt;img src=x onerror=alert(1)&gt;" in html
    assert table.ok(f"%rpg vorschläge --annehmen {first}") == [f"Vorschlag {first} von Alrik angenommen: "
                                                                 "Brida soll Deny nehmen"]
    table.ok(f"%rpg vorschlaege --decline {second}")
    assert camp.player_suggestions() == []
    assert table.ok("%rpg vorschläge") == ["Keine offenen Vorschläge der Spieler."]
    [everything] = table.ok("%rpg vorschläge --alle")
    assert "angenommen" in everything and "abgelehnt" in everything
    table.ok("%rpg rückgängig")
    assert [s["id"] for s in camp.player_suggestions()] == [second]


def test_the_panels_line_is_the_magics(table, tmp_path):
    camp = table.ns["kampagne"]
    sid = camp.suggest("Alrik", "Ich helfe Brida")
    panel = EncounterPanel(camp)   # no encounter yet: the suggestions stand all the same
    [shown] = panel.players["suggestions"]
    assert shown["id"] == sid
    table.ok(shown["decline"])   # the line the panel shows, typed into a cell
    assert panel.players["suggestions"] == []
    assert camp.player_suggestions(open_only=False)[0]["answer"] == "abgelehnt"
    panel.close()


@pytest.mark.parametrize("cell, message", [
    ("%rpg vorschläge --annehmen zzz", "Einen Vorschlag 'zzz' gibt es nicht."),
    ("%rpg vorschläge --annehmen a --ablehnen b", "Zu viele Angaben"),
    ("%rpg vorschläge Alrik", "Zu viele Angaben"),
    ("%rpg vorschläge --annehmen", "--annehmen"),
    ("%rpg vorschlage", "Meinten Sie 'vorschläge'?"),
])
def test_the_magics_errors_are_german(table, cell, message):
    [error] = table.run(cell)
    assert error.startswith("Fehler") and message in error


def test_the_help_names_the_subcommand(table):
    from rpgkernel.messages import t
    assert "%rpg vorschläge [--alle | --annehmen ID | --ablehnen ID]" in t("magic.help_rpg")


def test_the_docs_lines(table):
    camp = table.ns["kampagne"]
    listed, accept, decline, everything = ANSWERING.lines
    ids = [camp.suggest("Alrik", "Brida soll Deny nehmen"), camp.suggest("Brida", "Ich fliehe")]
    [shown] = table.ok(listed)
    assert all(i in shown for i in ids)
    table.ok(accept.replace("1a2b3c4d", ids[0]))
    table.ok(decline.replace("5e6f7a8b", ids[1]))
    [shown] = table.ok(everything)
    assert [s["answer"] for s in camp.player_suggestions(open_only=False)] == ["angenommen", "abgelehnt"]
    assert all(i in shown for i in ids)
