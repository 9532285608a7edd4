"""The character sheet in a real JupyterLab: edit and save by keyboard and mouse, a refused value at its
field, and a character whose name is markup, shown literally in the sheet and the encounter panel."""

from __future__ import annotations

import pytest

import rpgkernel

from .fixtures import expect
from .notebook import LIVE, POLL, gallery, tab_into

pytestmark = pytest.mark.browser

HOSTILE = "<img src=x onerror=window.__pwned=1>"
FIGUREN = f"""
figuren:
  - name: Ritter
    werte: {{vig: 12, cla: 10, spi: 8, gd: 4, waffen: ["Streitkolben (W8, wuchtig)"]}}
  - name: "{HOSTILE}"
    werte: {{vig: 10, cla: 10, spi: 10, gd: 3}}
begegnung:
  name: Gasse
  teilnehmer:
    - figur: "{HOSTILE}"
      seite: "{HOSTILE}"
    - figur: Ritter
      seite: Spieler
"""
# sets window.__probe: proves that such markup runs in this page when it is inserted as HTML
PROBE = "from IPython.display import HTML\nHTML('<img src=x onerror=\"window.__probe=1\">')"

# ids used more than once in the widgets (labels and descriptions would point to another widget's fields)
_DUPLICATE_IDS = """() => { const ids = [...document.querySelectorAll('.rpgk-w [id]')].map((e) => e.id);
  return ids.filter((id, i) => ids.indexOf(id) !== i); }"""


def _sheet(path, name: str) -> dict:
    with rpgkernel.Campaign.open(path) as campaign:
        return campaign.characters[name].sheet


def _journal_size(path) -> int:
    with rpgkernel.Campaign.open(path) as campaign:
        return len(campaign.journal())


def test_sheet_saves_by_keyboard_and_keeps_a_refused_value(notebook, page, tmp_path):
    path = tmp_path / "k.sqlite"
    nb = notebook(["%load_ext rpgkernel", f"%rpg --kampagne {path}\n%rpg bastionland", "%%figuren\n" + FIGUREN,
                   "import rpgkernel\nfrom rpgkernel.widgets import CharacterSheet, EncounterPanel\n"
                   "kampagne = rpgkernel.session.current().campaign\nCharacterSheet(kampagne, 'Ritter')",
                   f"CharacterSheet(kampagne, {HOSTILE!r})", "EncounterPanel(kampagne)", PROBE])
    sheet = nb.output(3).locator(".rpgk-sheet")
    vig = sheet.get_by_label("Vigour", exact=True)
    vig_row = sheet.locator(".rpgk-sheet-state tr").filter(has=page.get_by_role("rowheader", name="VIG"))
    expect(sheet.locator("h3")).to_have_text("Bogen: Ritter (Mythic Bastionland)")
    expect(vig).to_have_value("12")
    expect(vig_row.locator("td")).to_have_text("12 / 12")
    # the list named by its short label, the example in the help under it
    weapons = sheet.locator(".rpgk-sheet-field").filter(
        has=page.get_by_role("group", name="Waffen und Schild", exact=True))
    expect(weapons.locator(".rpgk-sheet-hint")).to_have_text("waffen · z. B. 'Streitkolben (W8, wuchtig)'")

    # keyboard only: Tab to the first field, type, Enter saves through the campaign
    tab_into(sheet)
    expect(vig).to_be_focused()
    page.keyboard.press("Control+A")
    page.keyboard.type("14")
    page.keyboard.press("Enter")
    expect(vig_row.locator("td")).to_have_text("14 / 14")   # the ruleset's VIG follows the sheet
    assert _sheet(path, "Ritter")["vig"] == 14
    with rpgkernel.Campaign.open(path) as campaign:
        assert campaign.journal(last=1)[0].data["text"] == "Bogen von Ritter geändert: Vigour 12 → 14"
    expect(vig).to_be_focused()   # the refilled form keeps the focus

    # a refused value: the German message at the field, the typed value stays, nothing is written
    written = _journal_size(path)
    page.keyboard.press("Control+A")
    page.keyboard.type("30")
    page.keyboard.press("Enter")
    expect(vig).to_have_attribute("aria-invalid", "true")
    message = "Feld 'vig' (Vigour): erlaubt ist eine ganze Zahl von 0 bis 19, nicht 30."
    described = vig.get_attribute("aria-describedby").split()
    expect(sheet.locator(".rpgk-sheet-err")).to_have_text(message)
    assert message in [sheet.locator(f"[id='{i}']").inner_text() for i in described]
    expect(vig).to_have_value("30")
    expect(vig).to_be_focused()
    assert _sheet(path, "Ritter")["vig"] == 14 and _journal_size(path) == written

    # by mouse: a valid value and "Speichern" clear the error
    vig.fill("13")
    sheet.get_by_role("button", name="Speichern").click()
    expect(vig_row.locator("td")).to_have_text("13 / 13")
    expect(vig).not_to_have_attribute("aria-invalid", "true")
    expect(sheet.locator(".rpgk-sheet-err")).to_have_count(0)
    assert _sheet(path, "Ritter")["vig"] == 13
    gallery(sheet, "bogen")

    # a name that is markup shows as text in the sheet and in the panel, and runs nothing
    hostile = nb.output(4).locator(".rpgk-sheet")
    expect(hostile.locator("h3")).to_have_text(f"Bogen: {HOSTILE} (Mythic Bastionland)")
    expect(hostile.get_by_label("Vigour", exact=True)).to_have_value("10")   # its own field, not Ritter's
    assert page.evaluate(_DUPLICATE_IDS) == []
    panel = nb.output(5).locator(".rpgk-panel")
    expect(panel.get_by_role("rowheader")).to_have_text([HOSTILE, "Ritter"])
    expect(panel.locator("td.rpgk-side").first).to_have_text(HOSTILE)
    page.wait_for_function("() => window.__probe === 1", timeout=LIVE, polling=POLL)
    expect(page.locator(".rpgk-w img, .rpgk-w script")).to_have_count(0)
    assert page.evaluate("() => typeof window.__pwned") == "undefined"
