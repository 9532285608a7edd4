"""A Bastionland round in English in a real JupyterLab: ``%rpg --language en``, the figures written with
English keys, an attack whose card speaks English, the Knight's player page on a phone following the
campaign's language, switched to German and back on the page, and the Deny taken there."""

from __future__ import annotations

import re

import pytest

from rpgkernel import Campaign, messages
from rpgkernel.messages import t
from rpgkernel.resolve import pending

from .fixtures import expect
from .notebook import LIVE

pytestmark = pytest.mark.browser

BLOCK = """characters:
  - name: Knight
    stats: {VIG: 13, CLA: 10, SPI: 13, Guard: 5, weapons: ["Mace (W8, hefty)"], player_character: true}
encounter:
  name: Ford
  combatants:
    - character: Knight
      side: Players
    - name: Mercenary
      side: Foes
      stats: {vigour: 13, clarity: 10, spirit: 10, guard: 4, armour: 1, weapons: ["Spear (W8)", "Shield (W4)"]}
"""
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
GERMAN_WORDS = re.compile(r"\b(Würfel|Schaden|Angriff|greift|verliert|bleibt|Ziel|Vorschau|noch offen)\b")


def _in(lang: str, key: str, **fields) -> str:
    with messages.using(lang):
        return t(key, **fields)


def test_a_bastionland_round_in_english(notebook, chromium, tmp_path):
    path = tmp_path / "ford.sqlite"
    nb = notebook(["%load_ext rpgkernel", f"%rpg bastionland --campaign {path} --language en",
                   "%%figuren\n" + BLOCK, "%%resolve --dice 6,3\nattack Mercenary -> Knight",
                   "%rpg players Knight", "%rpg"])

    added = nb.output(2)
    expect(added).to_contain_text("Knight")
    card = nb.output(3).locator(".rpgk-card").first
    expect(card).to_contain_text("Mercenary attacks Knight")
    expect(card).to_contain_text("Deny")
    assert not GERMAN_WORDS.search(card.inner_text()), card.inner_text()
    expect(nb.output(5)).to_contain_text(_in("en", "rpg.language"))
    with Campaign.open(path) as camp:
        assert camp.language == "en" and camp.figure("Knight").resources["GD"]["value"] == 5
        assert len(pending(camp)) == 1

    anchor = nb.output(4).locator("a.rpgk-players-url")
    expect(anchor).to_have_attribute("href", re.compile(r"/rpgkernel/spieler/[0-9a-f]{32}/#"))
    context = chromium.new_context(locale="en-GB", **PHONE)
    try:
        phone = context.new_page()
        errors = []
        phone.on("pageerror", lambda err: errors.append(str(err)))
        phone.goto(anchor.get_attribute("href"))
        # the campaign's language: English, with the numbers and labels of the page in English
        expect(phone.locator("#status")).to_have_text(_in("en", "page.live"), timeout=LIVE)
        expect(phone.locator("html")).to_have_attribute("lang", "en")
        expect(phone.locator(".figur h2")).to_have_text("Knight")
        deny = phone.locator("#wahlformen .form.wahl").filter(has_text="Deny")
        expect(deny).to_be_visible(timeout=LIVE)
        expect(phone.locator("#wahlformen h2").first).to_have_text(_in("en", "page.choices"))
        expect(phone.locator(".handeln h2").last).to_have_text(_in("en", "page.suggestion"))

        # the player's choice: German, then English again; nothing of the page is lost
        phone.get_by_role("button", name="DE", exact=True).click()
        expect(phone.locator("html")).to_have_attribute("lang", "de", timeout=LIVE)
        expect(phone.locator("#wahlformen h2").first).to_have_text(_in("de", "page.choices"))
        expect(phone.get_by_role("button", name="DE", exact=True)).to_have_attribute("aria-pressed", "true")
        phone.get_by_role("button", name="EN", exact=True).click()
        expect(phone.locator("html")).to_have_attribute("lang", "en", timeout=LIVE)
        expect(phone.locator("#wahlformen h2").first).to_have_text(_in("en", "page.choices"))
        assert phone.locator("body").evaluate("b => b.scrollWidth") <= 390   # nothing wider than the phone

        # the Knight denies the 6 on the phone, in English
        deny = phone.locator("#wahlformen .form.wahl").filter(has_text="Deny")
        deny.get_by_label(_in("en", "page.given")).fill("14")
        deny.get_by_role("button", name=_in("en", "page.take")).click()
        answer = phone.locator("#antwort")
        expect(answer).to_contain_text("Deny", timeout=LIVE)
        assert not GERMAN_WORDS.search(answer.inner_text()), answer.inner_text()
        assert errors == []
    finally:
        context.close()
    with Campaign.open(path) as camp:
        assert not pending(camp)
        assert camp.figure("Knight").resources["GD"]["value"] == 2   # the 3 left after the Deny, no Armour


def test_a_panel_on_screen_follows_a_switch_of_the_language(notebook, tmp_path):
    """``%rpg --language en`` in a later cell relabels the panel already on screen, its cell not run again."""
    nb = notebook(["%load_ext rpgkernel", f"%rpg bastionland --campaign {tmp_path / 'ford.sqlite'}",
                   "%%figuren\n" + BLOCK,
                   "import rpgkernel\nfrom rpgkernel.widgets import EncounterPanel\n"
                   "EncounterPanel(rpgkernel.session.current().campaign)"])
    panel = nb.output(3).locator(".rpgk-panel")
    german, english = _in("de", "widget.panel.action"), _in("en", "widget.panel.action")
    expect(panel).to_contain_text(german)
    prompt = nb.prompts()[3]
    nb.run_cell("%rpg --language en")
    expect(panel).to_contain_text(english)
    expect(panel).not_to_contain_text(german)
    expect(panel).to_contain_text("Mercenary")
    assert nb.prompts()[3] == prompt    # the panel's cell did not run again
