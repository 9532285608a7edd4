"""Players following a fight live, in a real JupyterLab: the GM's notebook makes a link per figure with
``%rpg spieler`` (a clickable absolute URL and a QR code), each link opens in its own browser context (a
phone, a laptop, a tablet) as separate players would; the GM's clicks in the panel reach every page within
a second or two; a hidden ambusher is in no page and no websocket frame until the GM reveals it; its attack
leaves the Ritter a Deny, which the Ritter's player takes on the phone and the GM's panel shows at once; a
revoked link shows the German message at once and nothing of the fight, and an open page whose link is
revoked goes dead. Legible in the light and dark colour schemes; the screenshots are the gallery's
``spieler_handy.png``, ``spieler_handy_dunkel.png`` and ``spieler_link.png``."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pytest
from panel_driving import FURT

from rpgkernel import Campaign, rules
from rpgkernel.resolve import pending

from .fixtures import expect
from .notebook import LIVE, gallery, theme
from .panel_view import CONTRAST, row

pytestmark = pytest.mark.browser

AMBUSHER, THIRD = "Meuchler", "Späherin"
# the ford with a third player's figure and a hidden ambusher, whose attack leaves the Ritter a Deny
FIGHT = FURT.replace("begegnung:", f"""  - name: {THIRD}
    werte: {{vig: 9, cla: 13, spi: 10, gd: 3, waffen: ["Bogen (W6)"], spielfigur: true, natuerliche_waffen: false}}
begegnung:""").replace("    - name: Söldner", f"""    - figur: {THIRD}
      seite: Spieler
    - name: Söldner""") + f"""    - name: {AMBUSHER}
      seite: Feinde
      werte: {{vig: 10, cla: 12, spi: 10, gd: 3, waffen: ["Kurzschwert (W8)", "Messer (W4)"]}}
"""
NAMES = ["Ritter", "Knappe", THIRD, "Söldner", "Wache"]
ATTACK_DICE, DENY = "6,3", "6"   # the ambusher's W8 and W4; the Ritter denies the 6
SPI_SAVE = "14"                  # the Ritter's SPI save after the Deny fails: Fatigued
ALLY_DENY = "Deny für Ritter, wenn in Armreichweite: einen Würfel entfernen"   # an ally's page offers it so
PANEL_CELL, RITTER_CELL, KNAPPE_CELL, THIRD_CELL, SPARE_CELL = 4, 5, 6, 7, 8
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
# the page's text: headings, round and turn, names, sides, states, lines, the status and the journal
PAGE_TEXT = "h1, h2, h3, .runde, .zug, .kopfzeile strong, .seite, .hinweis, .zustand, .aus, .zeile span, " \
            "#status, .journal li"
# the link widget's text: heading, lines, the address, the table
WIDGET_TEXT = "h3, .rpgk-players-fresh > div, a, th, td"


def _cells(path) -> list[str]:
    """The fight with a hidden ambusher in a new Bastionland campaign, the panel, and four player links."""
    return ["%load_ext rpgkernel", f"%rpg --kampagne {path}\n%rpg bastionland", "%%figuren\n" + FIGHT,
            f"%begegnung verbergen {AMBUSHER}",
            "import rpgkernel\nfrom rpgkernel.widgets import EncounterPanel\n"
            "kampagne = rpgkernel.session.current().campaign\nEncounterPanel(kampagne)",
            "%rpg spieler Ritter", "%rpg spieler Knappe", f"%rpg spieler {THIRD}", "%rpg spieler Knappe"]


@dataclass
class Player:
    """A player's page in its own browser context: its console errors and the websocket frames it got."""
    page: object
    errors: list[str] = field(default_factory=list)
    frames: list[str] = field(default_factory=list)

    def fight(self):
        return self.page.locator("#inhalt")


@pytest.fixture(name="players")
def fixture_players(chromium):
    """``players(url, **context_options)``: a new browser context opening ``url``; all closed afterwards."""
    contexts = []

    def open_page(url: str, **options) -> Player:
        context = chromium.new_context(locale="de-DE", **options)
        contexts.append(context)
        player = Player(context.new_page())
        player.page.on("console", lambda msg: msg.type == "error" and player.errors.append(msg.text))
        player.page.on("pageerror", lambda err: player.errors.append(str(err)))
        player.page.on("websocket", lambda ws: ws.on(
            "framereceived", lambda data: player.frames.append(data if isinstance(data, str) else data.decode())))
        player.page.goto(url)
        return player
    yield open_page
    for context in contexts:
        context.close()


def _link(widget) -> str:
    """The widget's new link (asserted absolute, with the token as its fragment) once its QR code shows."""
    anchor = widget.locator("a.rpgk-players-url")
    expect(anchor).to_have_attribute("href", re.compile(r"^http://127\.0\.0\.1:\d+/rpgkernel/spieler/"
                                                        r"[0-9a-f]{32}/#[A-Za-z0-9_-]{43}$"))
    href = anchor.get_attribute("href")
    assert anchor.inner_text() == href
    qr = widget.get_by_role("img", name="QR-Code des Links")
    expect(qr).to_have_attribute("src", re.compile(r"^data:image/svg\+xml.{100,}"))
    assert qr.bounding_box()["width"] >= 100
    return href


def _illegible(where, text: str = PAGE_TEXT, least: int = 15, minimum: float = 4.5) -> list[dict]:
    """The text (``text``, at least ``least`` elements of it) in ``where`` below the contrast ``minimum``."""
    found = where.locator(text).evaluate_all(CONTRAST)
    assert len(found) >= least, found   # the selector still finds the text
    return [f for f in found if f["ratio"] < minimum]


def test_players_follow_a_fight_live(notebook, page, lab, tmp_path, players):
    path = tmp_path / "k.sqlite"
    nb = notebook(_cells(path))
    panel = nb.output(PANEL_CELL).locator(".rpgk-panel")
    links = [nb.output(i).locator(".rpgk-players") for i in (RITTER_CELL, KNAPPE_CELL, THIRD_CELL, SPARE_CELL)]
    ritter_url, knappe_url, third_url, spare_url = (_link(w) for w in links)
    assert len({ritter_url, knappe_url, third_url, spare_url}) == 4
    expect(links[0]).to_contain_text("Neuer Link für Ritter:")
    expect(links[3].locator("tbody tr")).to_have_count(4)
    expect(links[3].locator("tbody tr td:nth-child(2)")).to_have_text(["Ritter", "Knappe", THIRD, "Knappe"])
    expect(links[3].locator("tbody tr td:nth-child(4)")).to_have_text(["gültig"] * 4)
    box, url_box = links[0].bounding_box(), links[0].locator("a.rpgk-players-url").bounding_box()
    assert url_box["x"] + url_box["width"] <= box["x"] + box["width"], (url_box, box)   # wrapped, not cut off
    assert _illegible(links[0], WIDGET_TEXT, 8) == []
    # the link and its QR code carry the token: painted over in the picture
    gallery(links[0], "spieler_link", mask=[links[0].locator("a.rpgk-players-url"), links[0].locator("img")])
    with theme(page, lab, "JupyterLab Dark"):
        assert _illegible(links[0], WIDGET_TEXT, 8) == []

    # the Ritter's player on a phone, the Knappe's on a laptop, the third on a tablet: before the fight begins
    phone = players(ritter_url, **PHONE)
    laptop = players(knappe_url, viewport={"width": 1000, "height": 800})
    tablet = players(third_url, viewport={"width": 768, "height": 1024}, has_touch=True)
    live = (phone, laptop, tablet)
    for player, figure in ((phone, "Ritter"), (laptop, "Knappe"), (tablet, THIRD)):
        expect(player.page.locator("#status")).to_have_text("Live verbunden.")
        assert "#" not in player.page.url and player.page.url.endswith("/")   # the token left the address bar
        expect(player.fight().locator(".kopf h1")).to_have_text("Furt")
        expect(player.fight().locator(".runde")).to_have_text("Der Kampf hat noch nicht begonnen.")
        expect(player.fight().locator(".figur h2")).to_have_text(figure)
        expect(player.fight().locator(".teilnehmer strong")).to_have_text(NAMES)

    # the GM begins the fight and passes the turn: both pages follow at once
    panel.get_by_role("button", name="Kampf beginnen").click()
    for player in live:
        expect(player.fight().locator(".runde")).to_have_text("Runde 1", timeout=LIVE)
        expect(player.fight().locator(".zug")).to_have_text("Am Zug: Ritter", timeout=LIVE)
        expect(player.fight().locator("li[aria-current='true'] strong")).to_have_text("Ritter")
    for current in NAMES[1:]:
        panel.get_by_role("button", name="Nächster Zug").click()
        for player in live:
            expect(player.fight().locator(".zug")).to_have_text(f"Am Zug: {current}", timeout=LIVE)

    # the hidden ambusher acts: the GM sees it, the players still see the Wache at its turn, nothing more
    panel.get_by_role("button", name="Nächster Zug").click()
    expect(panel.locator("tbody tr[aria-current='true'] th")).to_contain_text(AMBUSHER)
    nb.run_cell("kampagne.change('Söldner', 'GD', -2)\nkampagne.add_condition('Knappe', 'Todeswunde')")
    for player in live:
        fighters = player.fight().locator(".teilnehmer li")
        expect(fighters.nth(3)).to_contain_text("GD verloren", timeout=LIVE)
        expect(fighters.nth(1).locator(".aus")).to_have_text("sterbend (Todeswunde)")
        expect(fighters.nth(4).locator(".zeile")).to_have_text(["beeinträchtigtnoch 1 Runde"])
        expect(player.fight().locator(".zug")).to_have_text("Am Zug: Wache")
        assert AMBUSHER not in player.page.content()
        assert player.frames and not [f for f in player.frames if AMBUSHER in f]
    with Campaign.open(path) as camp:
        assert camp.encounter.current == AMBUSHER

    # revealed with the row's "Zeigen": now in every page, at its turn
    row(panel, AMBUSHER).get_by_role("button", name=f"{AMBUSHER} den Spielern wieder zeigen").click()
    for player in live:
        expect(player.fight().locator(".zug")).to_have_text(f"Am Zug: {AMBUSHER}", timeout=LIVE)
        expect(player.fight().locator(".teilnehmer strong")).to_have_text(NAMES + [AMBUSHER])
        assert [f for f in player.frames if AMBUSHER in f]   # the capture sees the frames that carry it

    # the ambusher attacks the Ritter from the panel: the Deny is the Ritter's on the phone, and the ally's on
    # the tablet, labelled for the Ritter (whether she stands in reach is the table's call); the Knappe is dying
    # (Todeswunde, out of the fight): none on the laptop
    row(panel, "Ritter").locator("td.rpgk-side").click()
    line = panel.get_by_text("Als Zelle geschrieben").locator("xpath=following-sibling::pre")
    expect(line).to_have_text(f"%%resolve\nangriff {AMBUSHER} -> Ritter")
    panel.locator("[data-focus='dice']").fill(ATTACK_DICE)
    expect(line).to_have_text(f"%%resolve --würfel {ATTACK_DICE}\nangriff {AMBUSHER} -> Ritter")
    panel.get_by_role("button", name="Würfeln / Ausführen").click()
    decisions = panel.get_by_role("region", name="Offene Entscheidungen")
    expect(decisions.get_by_role("group", name=re.compile("^Deny"))).to_be_visible()
    deny = phone.page.locator("#wahlformen .form.wahl").filter(has_text="Deny")
    expect(deny).to_be_visible(timeout=LIVE)
    expect(tablet.page.locator("#wahlformen .form.wahl")).to_have_count(1, timeout=LIVE)
    expect(tablet.page.locator("#wahlformen .form.wahl")).to_contain_text(ALLY_DENY)
    expect(laptop.page.locator("#wahlformen")).to_be_hidden()
    # beside each Deny its advice for that player (the Ritter's own values; the ally's own lines):
    # "Eintragen" fills the form, the player still takes it
    advice = phone.page.locator("#wahlformen details.rat")
    expect(advice.locator("summary")).to_have_text("Rat: Möglichst wenig Schaden für Ritter")
    advice.locator("summary").click()
    advised = advice.locator("li", has_text=f"Deny auf die {DENY}")
    expect(advised.locator(".folgen").first).to_contain_text("Ritter wird Fatigued")   # then its chance of winning
    expect(advised.locator("code")).to_have_text(f"deny Ritter würfel={DENY}")
    expect(tablet.page.locator("#wahlformen details.rat li code")).to_contain_text(
        [f"verzicht {THIRD}", f"deny {THIRD} würfel={DENY}"])
    gallery(phone.page.locator("#wahlformen"), "spieler_rat")
    advised.get_by_role("button", name="Eintragen").click()
    expect(deny.get_by_label("Entfernter Würfel")).to_have_value(DENY)
    with Campaign.open(path) as camp:
        assert pending(camp)   # filled in, not taken
    deny.get_by_label("Eigene Würfel (leer: der Server würfelt)").fill(SPI_SAVE)
    deny.get_by_role("button", name="Nehmen").click()
    expect(phone.page.locator("#antwort")).to_have_text(re.compile("^Genommen: Deny"))
    for player in live:
        expect(player.page.locator("#wahlformen")).to_be_hidden(timeout=LIVE)
    # the GM's panel shows it at once: nothing open, the Ritter fatigued, the Deny in the journal
    expect(decisions).to_have_count(0, timeout=LIVE)
    expect(row(panel, "Ritter").locator(".rpgk-cond")).to_have_text(["Fatigued"], timeout=LIVE)
    with Campaign.open(path) as camp:
        assert not pending(camp)
        closed = camp.journal(kind="auflösung")[-1].data
    assert closed["actors"] == [AMBUSHER] and closed["open"] is False
    assert "Ritter setzt Deny ein und entfernt die 6." in [s["text"] for s in closed["steps"]]
    expect(panel.locator(".rpgk-journal li").last).to_have_text(re.compile(
        "^Auflösung " + re.escape(closed["text"]) + "$"))
    for player in live:
        expect(player.fight().locator(".teilnehmer li").first.locator(".zeile")).to_contain_text(
            ["Fatigued"], timeout=LIVE)

    # a revoked link: the German message at once, nothing of the fight
    spare_id = links[3].locator("tbody tr").nth(3).locator("td").first.text_content()   # also off screen
    revoked = nb.run_cell(f"%rpg spieler --widerrufen {spare_id}")
    expect(nb.output(revoked).locator("tbody tr td:nth-child(4)")).to_have_text(["gültig"] * 3 + ["widerrufen"])
    stranger = players(spare_url)
    expect(stranger.page.locator("#status")).to_have_text(
        "Dieser Link gilt nicht (falsch, widerrufen oder erneuert). Bitte die Spielleitung um einen neuen.")
    expect(stranger.fight()).to_be_empty()
    assert not re.search("|".join(["Furt", *NAMES, AMBUSHER]), "".join(stranger.frames))
    assert "#" not in stranger.page.url

    # legible on the phone in the light and dark schemes; the gallery's phone screenshots
    assert _illegible(phone.page) == []
    gallery(phone.page.locator("body"), "spieler_handy")
    phone.page.emulate_media(color_scheme="dark")
    assert _illegible(phone.page) == []
    gallery(phone.page.locator("body"), "spieler_handy_dunkel")
    assert _illegible(laptop.page) == []
    expect(laptop.fight().locator(".figur .aus")).to_have_text("sterbend (Todeswunde)")
    # the own figure in full, its resources once (not again as sheet values), in the ruleset's order,
    # the sheet's fields with the labels the GM's sheet shows
    labels = [rules.get("bastionland").sheet.label(k) for k in ("waffen", "ruestung")]
    assert labels[1] != "ruestung"
    expect(phone.fight().locator(".figur .zeile .name")).to_have_text(["GD", "VIG", "CLA", "SPI", "Fatigued", *labels])
    # yes/no fields in words, lists as "a, b"
    sheet = rules.get("bastionland").sheet
    card = tablet.fight().locator(".figur .zeile")
    shown = [sheet.label(k) for k in ("waffen", "spielfigur", "natuerliche_waffen", "ruestung")]
    expect(card.locator(".name")).to_have_text(["GD", "VIG", "CLA", "SPI", *shown])
    expect(card.locator(".wert")).to_have_text(["3 / 3", "9 / 9", "13 / 13", "10 / 10",
                                                "Bogen (W6)", "ja", "nein", "0"])
    phone.page.emulate_media(color_scheme="light")

    # the Knappe's link revoked while its page is open: that page goes dead at once, the phone stays live
    knappe_id = links[1].locator("tbody tr").nth(1).locator("td").first.inner_text()
    nb.run_cell(f"%rpg spieler --widerrufen {knappe_id}")
    expect(laptop.page.locator("#status")).to_have_text("Dieser Link wurde widerrufen.", timeout=LIVE)
    expect(laptop.fight()).to_be_empty()
    panel.get_by_role("button", name="Nächster Zug").click()
    for player in (phone, tablet):
        expect(player.fight().locator(".zug")).to_have_text("Am Zug: Ritter", timeout=LIVE)
        expect(player.page.locator("#status")).to_have_text("Live verbunden.")
    for player in (*live, stranger):
        assert player.errors == []
