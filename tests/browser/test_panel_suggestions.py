"""A player's suggestion in the GM's panel in a real JupyterLab: written into the campaign file as the
server writes it (another Campaign object), it stands in the open panel, polled fast while a player link
is valid (the rate: tests/widgets/test_panel_suggestions.py); "Annehmen" answers it, the list empties and
the journal says so."""

from __future__ import annotations

import pytest
from panel_driving import FURT

from rpgkernel import Campaign

from .fixtures import expect
from .notebook import LIVE

pytestmark = pytest.mark.browser

PANEL_CELL = 4
SUGGESTION = "Der Knappe soll für mich Deny nehmen <b>bitte</b>"


def _cells(path) -> list[str]:
    """The ford fight in a Bastionland campaign at ``path``, a player link for the Ritter, the panel."""
    return ["%load_ext rpgkernel", f"%rpg --kampagne {path}\n%rpg bastionland", "%%figuren\n" + FURT,
            "import rpgkernel\nkampagne = rpgkernel.session.current().campaign\n"
            "kampagne.new_player_link('Ritter');",   # registered in the server's runtime dir, not shown
            "from rpgkernel.widgets import EncounterPanel\nEncounterPanel(kampagne)"]


def test_a_players_suggestion_shows_and_is_accepted(notebook, tmp_path):
    path = tmp_path / "k.sqlite"
    nb = notebook(_cells(path))
    panel = nb.output(PANEL_CELL).locator(".rpgk-panel")
    expect(panel.get_by_role("rowheader").first).to_have_text("Ritter")
    suggestions = panel.get_by_role("region", name="Vorschläge der Spieler")
    journal = panel.get_by_role("region", name="Journal").locator("li")
    expect(suggestions).to_have_count(0)   # none: no list at all
    panel.scroll_into_view_if_needed()   # a panel polls while it is on screen

    with Campaign.open(path) as server:   # as the player pages' server writes it
        sid = server.suggest("Ritter", SUGGESTION)
        item = suggestions.locator(f"li[data-id='{sid}']")
        expect(item).to_be_visible(timeout=LIVE)
        expect(item).to_contain_text(f"Ritter {SUGGESTION}")   # the markup as text
        expect(item).to_contain_text("gerade eben")
        expect(item.locator("b")).to_have_count(0)
        expect(journal.last).to_have_text(f"Vorschlag (Spieler) Vorschlag {sid} von Ritter: {SUGGESTION}")

        accept = item.get_by_role("button", name="Annehmen")
        expect(accept).to_have_attribute("title", f"Wie die Zeile %rpg vorschläge --annehmen {sid}")
        accept.click()
        expect(suggestions).to_have_count(0)
        expect(journal.last).to_have_text(f"Vorschlag Vorschlag {sid} von Ritter angenommen: {SUGGESTION}")
        expect(panel.locator(".rpgk-notice")).to_contain_text(f"%rpg vorschläge --annehmen {sid}")
        expect(panel.locator(".rpgk-error")).to_have_count(0)
        server.refresh()
        assert server.player_suggestions(open_only=False)[0]["answer"] == "angenommen"
