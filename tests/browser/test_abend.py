"""An evening at the table, as a new user would run it: in JupyterLab as the GM, from a blank notebook, a
Mythic Bastionland fight at the ford. The Ritter and the Knappe from ``%%figuren``, two mercenaries from the
library (the seed's example warband "Söldner" ×2), a hidden ambusher that acts first; the Ritter's player on
a phone (390×844) through ``%rpg spieler``. An attack rolled with given dice leaves its choices open, is
closed, undone, redone and undone again; a second attack is rolled from the panel; the phone takes a Gambit
of the older attack, which lands there (the journal says so) and shows in the panel marked with the Ritter;
the phone's "Am Zug" is the same whether or not the hidden ambusher acts; a value edited in a row is
journalled. The screenshots are the gallery's ``abend_bibliothek.png``, ``abend_handy_zug.png``,
``abend_handy.png``, ``abend_panel.png`` and ``abend_wert.png``."""

from __future__ import annotations

import re

import pytest

from rpgkernel import Campaign
from rpgkernel.resolve import pending

from .fixtures import expect
from .notebook import DONE, LIVE, gallery, gallery_dir
from .panel_view import row
from .test_players import PHONE, _link, fixture_players  # noqa: F401  (the players fixture)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

AMBUSHER = "Meuchler"
FIGHT = f"""
figuren:
  - name: Ritter
    werte: {{vig: 13, cla: 10, spi: 13, gd: 5, waffen: ["Streitkolben (W8, wuchtig)", "Schild (W4)"]}}
  - name: Knappe
    werte: {{vig: 10, cla: 10, spi: 10, gd: 3, waffen: ["Dolch (W6)", "Dolch (W6)"]}}
begegnung:
  name: Furt
  teilnehmer:
    - figur: Ritter
      seite: Spieler
    - figur: Knappe
      seite: Spieler
    - vorlage: Söldner
      anzahl: 2
      seite: Feinde
    - name: {AMBUSHER}
      seite: Feinde
      werte: {{vig: 10, cla: 12, spi: 10, gd: 3, waffen: ["Kurzschwert (W8)", "Messer (W4)"]}}
"""
ORDER = [AMBUSHER, "Ritter", "Knappe", "Söldner 1", "Söldner 2"]   # the hidden ambusher acts first
SHOWN = ["Ritter", "Knappe", "Söldner 1", "Söldner 2"]
FIRST_ATTACK = 'angriff Ritter, Knappe -> "Söldner 1" bonus=W8'    # W8 W4 W6 W6 W8
FIRST_DICE = "7,3,5,1,2"   # Gambits with the 7 and the 5
SECOND_ATTACK = 'angriff Knappe -> "Söldner 2"'                    # W6 W6
SECOND_DICE = "6,4"
SEARCH_CELL, PANEL_CELL, LINK_CELL = 2, 6, 7


def _cells(path, shelf) -> list[str]:
    """A blank notebook's evening: the extension, a new campaign, the library searched, the figures, the
    ambusher hidden, the fight begun, the panel and the Ritter's link."""
    return [f"%load_ext rpgkernel\nimport os\nos.environ['RPGKERNEL_BIBLIOTHEK'] = {str(shelf)!r}",
            f"%rpg --kampagne {path}\n%rpg bastionland",
            "%figuren söld",
            "%%figuren\n" + FIGHT,
            f"%begegnung verbergen {AMBUSHER}",
            ("import rpgkernel\nkampagne = rpgkernel.session.current().campaign\n"
             f"kampagne.encounter.start(order={ORDER!r})"),
            "from rpgkernel.widgets import EncounterPanel\nEncounterPanel(kampagne)",
            "%rpg spieler Ritter"]


def _open(path) -> list[str]:
    with Campaign.open(path) as camp:
        return list(pending(camp))


def test_an_evening_at_the_table(notebook, page, lab, tmp_path, players):
    path, shelf = tmp_path / "abend.sqlite", tmp_path / "bibliothek"
    nb = notebook(_cells(path, shelf))
    panel = nb.output(PANEL_CELL).locator(".rpgk-panel")

    # the library searched in the notebook and the side from its template: two numbered mercenaries
    expect(nb.output(SEARCH_CELL)).to_contain_text("Vorlagen (Mythic Bastionland), gefunden: 1")
    expect(nb.output(SEARCH_CELL)).to_contain_text("Söldner (aus dem Regeltext): VIG 13, CLA 10, SPI 10, GD 4, Armour 3")
    with Campaign.open(path) as camp:
        fighters = camp.encounter.record["combatants"]
        assert [fighters[n]["side"] for n in ("Söldner 1", "Söldner 2")] == ["Feinde", "Feinde"]
        assert camp.figure("Söldner 2").sheet["vig"] == 13 and camp.figure("Söldner 2").sheet["ruestung"] == 3
        assert camp.encounter.current == AMBUSHER
    expect(panel.get_by_role("rowheader")).to_have_text([re.compile(f"^{re.escape(n)}") for n in ORDER])
    # the panel's "Teilnehmer hinzufügen …" finds the same template
    panel.get_by_text("Teilnehmer hinzufügen …").click()
    found = panel.get_by_role("listbox", name="Aus der Bibliothek").get_by_role("option")
    panel.locator("[data-focus='library:search']").fill("söld")
    expect(found).to_have_count(1)
    expect(found.first).to_contain_text("Söldner Regeltext VIG 13, CLA 10, SPI 10, GD 4, Armour 3")
    gallery(panel, "abend_bibliothek")
    panel.get_by_text("Teilnehmer hinzufügen …").click()
    expect(panel.get_by_role("listbox", name="Aus der Bibliothek")).to_be_hidden()

    # the Ritter's player on the phone: the ambusher acts, the page shows the Ritter at the turn, as after it
    phone = players(_link(nb.output(LINK_CELL).locator(".rpgk-players")), **PHONE)
    fight = phone.page.locator("#inhalt")
    expect(phone.page.locator("#status")).to_have_text("Live verbunden.")
    expect(fight.locator(".runde")).to_have_text("Runde 1")
    expect(fight.locator(".zug")).to_have_text("Am Zug: Ritter")
    expect(fight.locator(".teilnehmer li.dran strong")).to_have_text("Ritter")
    expect(fight.locator(".teilnehmer strong")).to_have_text(SHOWN)
    expect(panel.locator("tbody tr[aria-current='true'] th")).to_contain_text(AMBUSHER)
    phone.page.screenshot(path=str(gallery_dir() / "abend_handy_zug.png"), animations="disabled")   # as opened
    panel.get_by_role("button", name="Nächster Zug").click()
    expect(panel.locator("tbody tr[aria-current='true'] th")).to_have_text("Ritter")
    expect(fight.locator(".zug")).to_have_text("Am Zug: Ritter")
    with Campaign.open(path) as camp:
        assert camp.encounter.current == "Ritter"

    # the Ritter's and Knappe's attack with given dice: its choices stay open; waived, undone, redone, undone
    nb.run_cell(f"%%resolve --würfel {FIRST_DICE}\n{FIRST_ATTACK}")
    (older,) = _open(path)
    nb.run_cell("%%resolve\nverzicht Ritter")
    assert _open(path) == []
    nb.run_cell("%rpg rückgängig")
    assert _open(path) == [older]
    nb.run_cell("%rpg wiederholen")
    assert _open(path) == []
    undone = nb.run_cell("%rpg rückgängig")
    expect(nb.output(undone)).to_contain_text("angriff: Ritter, Knappe → Söldner 1")
    assert _open(path) == [older]
    with Campaign.open(path) as camp:
        assert [e.kind for e in camp.journal(last=4)] == ["auflösung", "rückgängig", "wiederholt", "rückgängig"]

    # the Knappe's turn: the second attack from the panel (a click on Söldner 2's row, the dice, the button)
    panel.get_by_role("button", name="Nächster Zug").click()
    expect(panel.locator("tbody tr[aria-current='true'] th")).to_have_text("Knappe")
    expect(fight.locator(".zug")).to_have_text("Am Zug: Knappe", timeout=LIVE)
    row(panel, "Söldner 2").locator("td.rpgk-side").click()
    panel.locator("[data-focus='dice']").fill(SECOND_DICE)
    line = panel.get_by_text("Als Zelle geschrieben").locator("xpath=following-sibling::pre")
    expect(line).to_have_text(f"%%resolve --würfel {SECOND_DICE}\n{SECOND_ATTACK}")
    panel.get_by_role("button", name="Würfeln / Ausführen").click()
    decisions = panel.get_by_role("region", name="Offene Entscheidungen")
    expect(decisions.get_by_label("Offene Auflösung").locator("option")).to_have_text(
        ["angriff: Ritter, Knappe → Söldner 1", "angriff: Knappe → Söldner 2 (neueste)"], timeout=DONE)
    first, newer = _open(path)
    assert first == older and newer != older

    # the phone offers the older attack's Gambits with what they answer and every die; "Nehmen" lands there
    forms = phone.page.locator("#wahlformen .form.wahl")
    gambit = forms.filter(has_text="Gambits")
    expect(gambit.locator(".wahlum div")).to_have_text(["Zu angriff: Ritter, Knappe → Söldner 1",
                                                        "Gewürfelt: W8: 7 · W4: 3 · W6: 5 · W6: 1 · W8: 2"],
                                                       timeout=LIVE)
    expect(phone.page.locator("#wahlformen")).not_to_contain_text("Söldner 2")   # none of the newer attack
    gambit.get_by_label("Abgelegter Würfel").select_option("7")
    gallery(phone.page.locator("#wahlformen"), "abend_handy")
    gambit.get_by_role("button", name="Nehmen").click()
    expect(phone.page.locator("#antwort")).to_have_text(re.compile("^Genommen: Gambits"))
    expect(phone.page.locator("#wahlformen")).to_be_hidden(timeout=LIVE)
    assert _open(path) == [newer]   # the newer attack stays open
    with Campaign.open(path) as camp:
        closed = camp.journal(kind="auflösung")[-1].data
    assert closed["pending"] == older and closed["player"] == "Ritter" and not closed["open"]
    assert closed["actors"] == ["Ritter", "Knappe"] and closed["targets"] == ["Söldner 1"]
    # the template's warband: only Blast or great attacks harm it (the seed's rule), so the Gambit took no GD
    assert "Söldner 1 ist eine Kriegsschar: nur Blast oder groß angelegte Angriffe schaden ihr." in [
        s["text"] for s in closed["steps"]]
    expect(fight.locator(".zug")).to_have_text("Am Zug: Knappe")

    # the panel shows the Ritter's resolution as its result, marked with who did it
    panel.scroll_into_view_if_needed()
    result = panel.locator(".rpgk-panel-result.rpgk-by-player")
    expect(result.locator("h4")).to_have_text("Ergebnis von der Spielerseite: Ritter", timeout=LIVE)
    expect(result.locator(".rpgk-head").first).to_have_text("angriff: Ritter, Knappe → Söldner 1")
    gallery(panel, "abend_panel")

    # a value edited in its row: -2 on Söldner 2's GD, journalled, on the phone too
    with Campaign.open(path) as camp:
        before = camp.figure("Söldner 2").resources["GD"]["value"]
    assert before >= 2
    row(panel, "Söldner 2").get_by_role("meter", name=f"GD {before} von 4").click()
    page.keyboard.type("-2")
    page.keyboard.press("Enter")
    expect(row(panel, "Söldner 2").get_by_role("meter", name=f"GD {before - 2} von 4")).to_be_visible()
    expect(panel.locator(".rpgk-notice")).to_have_text(
        f'Söldner 2: GD {before} → {before - 2}%begegnung wert "Söldner 2" GD -2')
    with Campaign.open(path) as camp:
        entry = camp.journal(last=1)[-1]
        assert camp.figure("Söldner 2").resources["GD"]["value"] == before - 2
    assert entry.kind == "ressource" and entry.data["text"] == f"Söldner 2: GD {before} → {before - 2}"
    assert entry.data["figures"] == ["Söldner 2"] and entry.data["changes"][0]["by"] == -2
    expect(panel.locator(".rpgk-journal li").last).to_have_text(f"Ressource Söldner 2: GD {before} → {before - 2}")
    expect(fight.locator(".teilnehmer li").filter(has_text="Söldner 2")).to_contain_text("GD verloren", timeout=LIVE)
    gallery(panel, "abend_wert")

    # nothing of the ambusher reached the phone; no errors there
    assert AMBUSHER not in phone.page.content()
    assert phone.frames and not [f for f in phone.frames if AMBUSHER in f]
    assert phone.errors == []
