"""The player page on a phone (390×844), opened from a link the GM's campaign made: a roll answers beside
its form as a small card in the page's font, an empty one in a sentence naming the field; every closed
set of a choice is a list; a wounded enemy is said wounded once; a hidden combatant acting first leaves
"Am Zug" as in the fight without it. The screenshots are the gallery's ``spieler_handy_wurf.png`` and
``spieler_handy_wahl.png``."""

from __future__ import annotations

import re

import pytest
from panel_driving import FURT_NAMES, make_campaign

import rpgkernel

from .fixtures import expect
from .notebook import gallery

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}


@pytest.fixture(name="phone")
def fixture_phone(chromium, lab, tmp_path, monkeypatch):
    """``phone(campaign, figure)``: the figure's player page on a phone, live; its campaign's link
    registered where the server looks (the server's runtime dir)."""
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", lab.env["JUPYTER_RUNTIME_DIR"])
    contexts = []

    def open_page(campaign, figure: str):
        link = campaign.new_player_link(figure)
        context = chromium.new_context(locale="de-DE", **PHONE)
        contexts.append(context)
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{lab.port}/{link.url()[1:]}")
        expect(page.locator("#status")).to_have_text("Live verbunden.")
        # the status is set when the socket opens, the fight drawn with the first view after it: a tap before
        # that sees its answer pushed down by the fight drawn above it (at the page's top no scroll anchoring)
        expect(page.locator("#inhalt > section").first).to_be_visible()
        return page
    yield open_page
    for context in contexts:
        context.close()


@pytest.fixture(name="furt")
def fixture_furt(tmp_path):
    with make_campaign(tmp_path / "k.sqlite") as campaign:
        yield campaign


def _in_view(page, locator) -> bool:
    box = locator.bounding_box()
    return box is not None and 0 <= box["y"] and box["y"] + box["height"] <= page.viewport_size["height"]


def test_a_roll_answers_beside_its_form_as_a_card(phone, furt):
    page = phone(furt, "Ritter")
    roll = page.get_by_role("button", name="Würfeln")
    roll.scroll_into_view_if_needed()
    roll.click()
    said = page.locator("#wurfantwort")
    expect(said).to_have_text("Das Feld „Würfelausdruck“ ist leer: bitte eintragen, was gewürfelt wird, z. B. 2W6+1.")
    assert _in_view(page, said) and _in_view(page, roll)   # seen where the player looks, without scrolling
    page.get_by_label("Würfelausdruck").fill("2W6+1")
    page.get_by_label("Eigene Würfel").first.fill("3, 4")
    roll.click()
    card = said.locator(".karte")
    expect(card.locator(".karte-ergebnis")).to_have_text("8")
    expect(card.locator(".karte-kopf")).to_have_text("Ritter · 2W6+1")
    expect(card.locator(".karte-wuerfel")).to_have_text("[3, 4] + 1")
    expect(card.locator(".karte-chance")).to_have_text("P(≥ 8) = 58,33 %")
    assert _in_view(page, card)
    button, shown = roll.bounding_box(), card.bounding_box()
    assert 0 <= shown["y"] - (button["y"] + button["height"]) < 40, (button, shown)   # right below the button
    fonts = page.evaluate("""() => [getComputedStyle(document.body).fontFamily,
        getComputedStyle(document.querySelector('.karte-ergebnis')).fontFamily,
        getComputedStyle(document.querySelector('.karte-wuerfel')).fontFamily]""")
    assert fonts[1] == fonts[0] == fonts[2] and "mono" not in fonts[0], fonts
    assert page.locator("#antwort").inner_text() == ""   # nothing at the top of the page
    gallery(page.locator("#handeln"), "spieler_handy_wurf")


def test_every_closed_set_of_a_choice_is_a_list(phone, furt):
    rpgkernel.resolve("angriff Ritter -> Söldner", campaign=furt, dice=[8, 4])
    page = phone(furt, "Ritter")
    gambit = page.locator(".form.wahl").filter(has_text="Gambit").first
    expect(gambit.locator("select")).to_have_count(4)
    assert gambit.locator("input[type=text]").count() == 1   # only the own dice, typed
    expect(gambit.locator(".feld > span")).to_have_text(
        ["Abgelegter Würfel", "Gambit", "Strong Gambit", "Bolster mit", "Eigene Würfel (leer: der Server würfelt)"])
    lists = gambit.locator("select")
    expect(lists.nth(0).locator("option")).to_have_text(["bitte wählen", "8", "4"])
    expect(lists.nth(1).locator("option")).to_have_text(
        ["bitte wählen", "Bolster", "Move", "Repel", "Stop", "Impair", "Trap", "Dismount"])
    # the Strong Gambit's two options read as the seed says them; the line takes their names
    expect(lists.nth(2).locator("option")).to_have_text(
        ["bitte wählen", "Das Ziel erhält keine Probe", "Der Effekt ist größer"])
    assert lists.nth(2).locator("option").evaluate_all("os => os.map(o => o.value)") == ["", "keine_probe", "größer"]
    focus = page.locator(".form.wahl").filter(has_text="Focus").first
    expect(focus.locator("select")).to_have_count(1)
    gallery(page.locator("#wahlformen"), "spieler_handy_wahl")


def test_a_wounded_enemy_is_said_wounded_once(phone, furt):
    furt.change("Söldner", "VIG", -3)
    furt.add_condition("Söldner", "verwundet")
    page = phone(furt, "Ritter")
    enemy = page.locator(".teilnehmer li").filter(has_text="Söldner")
    expect(enemy.locator(".zustand")).to_have_text("verwundet")
    assert enemy.inner_text().count("verwundet") == 1, enemy.inner_text()


def test_a_hidden_combatant_acting_first_leaves_the_turn_as_without_it(phone, tmp_path):
    with make_campaign(tmp_path / "h.sqlite", start=False) as campaign:
        campaign.encounter.add("Xorg", like="Söldner", side="Feinde")
        campaign.encounter.hide("Xorg")
        campaign.encounter.start(order=["Xorg", *FURT_NAMES])
        assert campaign.encounter.current == "Xorg"
        page = phone(campaign, "Knappe")
        expect(page.locator(".zug")).to_have_text("Am Zug: Ritter")
        expect(page.locator(".runde")).to_have_text("Runde 1")
        expect(page.locator(".teilnehmer li.dran strong")).to_have_text("Ritter")
        campaign.encounter.next_turn(seed=7)   # the Ritter's turn: the page stays as it was
        expect(page.locator(".zug")).to_have_text("Am Zug: Ritter")
        campaign.encounter.next_turn(seed=7)
        expect(page.locator(".zug")).to_have_text("Am Zug: Knappe")
        assert "Xorg" not in page.content()


def test_a_loopback_link_says_a_phone_cannot_reach_it_and_offers_the_network_addresses(notebook, lab, tmp_path):
    """The server of the tests listens on 127.0.0.1 (as the README's start command does): under the link the
    widget says a phone cannot reach it and gives the start command that listens on the network. Where the
    port answers on one of the machine's network addresses too (here a socket of the kernel's on it), that
    address's link is offered and the QR code shows it."""
    from rpgkernel import local_addresses
    mine = local_addresses.addresses()
    if not mine:
        pytest.skip("this machine has no network address besides loopback")
    nb = notebook(["%load_ext rpgkernel", f"%rpg --kampagne {tmp_path / 'k.sqlite'}\n%rpg bastionland",
                   "%%figuren\n- name: Ritter\n  werte: {vig: 13, cla: 10, spi: 13, gd: 5}", "%rpg spieler Ritter"])
    widget = nb.output(3).locator(".rpgk-players")
    note = widget.get_by_role("note")
    expect(note).to_contain_text("Diese Adresse (127.0.0.1) zeigt auf diesen Rechner selbst: ein Telefon")
    expect(note.locator("code")).to_have_text("jupyter lab --ServerApp.ip=0.0.0.0")
    expect(note.locator("a")).to_have_count(0)   # the server answers on no network address
    expect(widget.get_by_role("img", name="QR-Code des Links")).to_have_count(1)
    gallery(widget, "spieler_link_lokal", mask=[widget.locator("a.rpgk-players-url"), widget.locator("img")])

    # the socket stays open until the kernel ends
    nb.run_cell(f"import socket\nnetz = socket.socket()\nnetz.bind(({mine[0]!r}, {lab.port}))\nnetz.listen()")
    reachable = nb.output(nb.run_cell("%rpg spieler Ritter")).locator(".rpgk-players")
    offered = reachable.get_by_role("note").locator("a")
    expect(offered).to_have_count(1)
    expect(offered).to_have_attribute("href", re.compile(rf"^http://{re.escape(mine[0])}:{lab.port}/rpgkernel/spieler/"
                                                         r"[0-9a-f]{32}/#[A-Za-z0-9_-]{43}$"))
    expect(reachable.get_by_role("note").locator("code")).to_have_count(0)
    qr = reachable.get_by_role("img", name="QR-Code des Links")
    expect(qr).to_have_count(1)
    expect(qr).to_have_attribute("src", re.compile(r"^data:image/svg\+xml.{100,}"))
