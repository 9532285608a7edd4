"""The encounter panel in a real JupyterLab: a Bastionland fight run from the panel, the campaign file
it writes, a %%resolve cell shown at once, the order changed from its rows, the keyboard, and legible
text in the light and dark themes."""

from __future__ import annotations

import re

import pytest
from panel_driving import FURT, FURT_NAMES

import rpgkernel
from rpgkernel import Campaign
from rpgkernel.resolve import pending
from rpgkernel.statblocks import load

from .fixtures import expect
from .notebook import DONE, WEIGHING, gallery, tab_into, theme
from .panel_view import CONTRAST, illegible, illegible_meters, row

pytestmark = pytest.mark.browser

PANEL_CELL = 3

# an attack whose W8 7 the target may Deny; with the W20 15 against SPI 10 the Deny costs the Söldner
# a failed SPI save (Fatigued), and the W4 3 minus Armour 2 leaves 1 damage (see docs/bastionland.md)
ATTACK, ATTACK_DICE = "angriff Ritter -> Söldner", [7, 3]
DENY, DENY_DICE = "deny Söldner", [15]
LATER = "verlust Söldner virtue=SPI um=3"


def _cells(path) -> list[str]:
    """The fight of FURT in a new Bastionland campaign at ``path``, not yet begun, and its panel."""
    return ["%load_ext rpgkernel", f"%rpg --kampagne {path}\n%rpg bastionland", "%%figuren\n" + FURT,
            "import rpgkernel\nfrom rpgkernel.widgets import EncounterPanel\n"
            "kampagne = rpgkernel.session.current().campaign\nEncounterPanel(kampagne)"]


def _resolutions(campaign) -> list[dict]:
    """The rules' record of each resolution in the journal (without the ids of open resolutions)."""
    keys = ("text", "actors", "targets", "steps", "outcome", "effects", "open")
    return [{k: e.data.get(k) for k in keys} for e in campaign.journal(kind="auflösung")]


def test_a_fight_run_from_the_panel(notebook, page, lab, tmp_path):
    path = tmp_path / "k.sqlite"
    nb = notebook(_cells(path))
    panel = nb.output(PANEL_CELL).locator(".rpgk-panel")
    facts = panel.locator(".rpgk-panel-facts")
    current = panel.locator("tbody tr[aria-current='true'] th")
    journal = panel.get_by_role("region", name="Journal").locator("li")

    # before the start: the combatants as they joined; "Kampf beginnen" starts round 1
    expect(facts).to_have_text("noch nicht begonnen · 4 Teilnehmer")
    expect(panel.get_by_role("rowheader")).to_have_text(FURT_NAMES)
    expect(current).to_have_count(0)
    panel.get_by_role("button", name="Kampf beginnen").click()
    expect(facts).to_have_text("Runde 1 · am Zug: Ritter")
    expect(current).to_have_text("Ritter")
    expect(row(panel, "Wache").locator(".rpgk-cond")).to_have_text("beeinträchtigt (noch 2)")
    expect(row(panel, "Söldner").get_by_role("meter", name="GD 4 von 4")).to_have_attribute("aria-valuenow", "4")
    with Campaign.open(path) as camp:
        assert (camp.encounter.round, camp.encounter.current, camp.encounter.order) == (1, "Ritter", FURT_NAMES)

    # keyboard only: Tab to "Nächster Zug", Enter; Tab past "Nächste Runde" and "…, neue Initiative"
    # to "Rückgängig", Space
    tab_into(panel)
    expect(panel.get_by_role("button", name="Nächster Zug")).to_be_focused()
    page.keyboard.press("Enter")
    expect(current).to_have_text("Knappe")
    expect(facts).to_have_text("Runde 1 · am Zug: Knappe")
    with Campaign.open(path) as camp:
        assert camp.encounter.current == "Knappe"
        assert camp.journal(last=1)[0].kind == "zug"
    expect(panel.get_by_role("button", name="Nächster Zug")).to_be_focused()   # kept over the redraw
    for _ in range(3):
        page.keyboard.press("Tab")
    expect(panel.get_by_role("button", name="Rückgängig")).to_be_focused()
    page.keyboard.press("Space")
    expect(current).to_have_text("Ritter")
    expect(panel.locator(".rpgk-notice")).to_have_text("Rückgängig gemacht: Runde 1: Knappe ist am Zug")
    with Campaign.open(path) as camp:
        assert camp.encounter.current == "Ritter"
        assert camp.journal(last=1)[0].kind == "rückgängig"
        seq = camp.state["seq"]

    # the action form: the line it stands for; a preview before the roll shows the damage as a chart
    # and writes nothing. Each click waits for the line, which Python writes once it has the form:
    # ipywidgets holds back a state update while the one before is unanswered, and a click's message
    # could overtake it.
    line = panel.get_by_text("Als Zelle geschrieben").locator("xpath=following-sibling::pre")
    panel.locator("[data-focus='verb']").select_option("angriff")
    row(panel, "Söldner").locator("td.rpgk-side").click()          # the target: a click on its row
    expect(row(panel, "Söldner")).to_have_attribute("aria-selected", "true")
    expect(panel.locator("[data-picked='targets'] strong")).to_have_text("Söldner")
    expect(line).to_have_text(f"%%resolve\n{ATTACK}")
    panel.get_by_role("button", name="Vorschau").click()
    preview = panel.get_by_role("region", name="Vorschau")
    expect(preview.locator(".rpgk-line")).to_have_text(f"%%resolve --vorschau\n{ATTACK}")
    expect(preview.locator(".rpgk-chart-svg").first.locator(".rpgk-bar")).not_to_have_count(0)
    preview.locator(".rpgk-bar").first.hover()
    expect(preview.locator(".rpgk-chart-readout").first).to_have_text(re.compile(r"^Wert 0: genau \d+,\d\d %"))
    with Campaign.open(path) as camp:
        assert camp.state["seq"] == seq

    # the attack with given dice leaves a Deny open; the Deny is taken in the panel and decided
    panel.locator("[data-focus='dice']").fill(",".join(map(str, ATTACK_DICE)))
    expect(line).to_have_text(f"%%resolve --würfel 7,3\n{ATTACK}")
    panel.get_by_role("button", name="Würfeln / Ausführen").click()
    expect(panel.get_by_role("region", name="Ergebnis").locator(".rpgk-line")).to_have_text(
        f"%%resolve --würfel 7,3\n{ATTACK}")
    expect(preview).to_have_count(0)   # the roll replaces the preview
    choices = panel.get_by_role("region", name="Offene Entscheidungen")
    deny = choices.get_by_role("group", name=re.compile("^Deny"))
    who = deny.get_by_label("Wer")   # who takes it; the die is a list of the dice there are beside it
    expect(who).to_have_value("Söldner")
    expect(choices.get_by_text(WEIGHING)).to_have_count(0, timeout=DONE)   # its chances weighed, the form drawn
    # where the GM is looking: the roll right under the button, its open decisions beside the roll
    button = panel.get_by_role("button", name="Würfeln / Ausführen").bounding_box()
    result = panel.get_by_role("region", name="Ergebnis").bounding_box()
    decisions = choices.bounding_box()
    assert button["y"] + button["height"] <= result["y"] < button["y"] + 150, (button, result)
    assert abs(decisions["y"] - result["y"]) < 30 and decisions["x"] >= result["x"] + result["width"], (result, decisions)
    assert who.evaluate(   # and on screen
        "el => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }")
    gallery(panel, "entscheidung")
    with Campaign.open(path) as camp:
        assert len(pending(camp)) == 1
    # beside the Deny its advice, folded: opened, each option with its consequences and line; "Vormerken"
    # puts the line among the decisions and takes nothing yet
    advice = deny.locator("details.rpgk-advice")
    expect(advice.locator("summary")).to_have_text("Rat für Söldner: Möglichst wenig Schaden für Söldner")
    advice.locator("summary").click()
    advised = advice.locator("li", has_text="Deny auf die 7")
    expect(advised.locator(".rpgk-advice-said")).to_contain_text("Schaden 1 · Söldner fällt: 0,00 %")
    expect(advised.locator("code")).to_have_text("deny Söldner würfel=7")
    gallery(choices, "rat")
    advised.get_by_role("button", name="Vormerken: Deny auf die 7").click()
    # taken over with the id of the resolution it answers
    expect(choices.locator(".rpgk-taken code")).to_have_text([re.compile(r"^deny Söldner würfel=7 auflösung=[0-9a-f]{12}$")])
    with Campaign.open(path) as camp:
        (pid,) = pending(camp)
    choices.locator(".rpgk-taken").get_by_role("button").click()   # taken back: the Deny as the GM types it
    expect(choices.locator(".rpgk-taken code")).to_have_count(0)
    advice.locator("summary").click()
    deny.get_by_role("button", name="Übernehmen", exact=True).click()
    expect(choices.locator(".rpgk-taken code")).to_have_text([f"{DENY} auflösung={pid}"])
    choices.locator("[data-focus='decision_dice']").fill(",".join(map(str, DENY_DICE)))
    expect(choices.locator(".rpgk-line").last).to_have_text(f"%%resolve --würfel 15\n{DENY} auflösung={pid}")
    choices.get_by_role("button", name="Entscheiden").click()
    expect(choices).to_have_count(0)
    expect(row(panel, "Söldner").locator(".rpgk-cond")).to_have_text(["Fatigued"])
    expect(row(panel, "Söldner").get_by_role("meter", name="GD 3 von 4")).to_be_visible()
    with Campaign.open(path) as camp:
        assert pending(camp) == {}
        assert "Fatigued" in camp.figure("Söldner").conditions
        closed = camp.journal(kind="auflösung")[-1].data["text"]
        done = _resolutions(camp)
    expect(journal.last).to_have_text(re.compile("^Auflösung " + re.escape(closed) + "$"))
    # the panel wrote what the same lines in %%resolve cells write
    with Campaign.open(tmp_path / "zwilling.sqlite") as twin:
        twin.set_ruleset("bastionland")
        load(twin, FURT)
        twin.encounter.start()
        rpgkernel.resolve(ATTACK, campaign=twin, dice=ATTACK_DICE)
        rpgkernel.resolve(DENY, campaign=twin, dice=DENY_DICE)
        assert done == _resolutions(twin)

    # a %%resolve cell run below the panel shows in it at once: the SPI bar and the journal
    spi = row(panel, "Söldner").get_by_role("meter", name=re.compile("^SPI "))
    expect(spi).to_have_attribute("aria-valuenow", "10")
    nb.run_cell(f"%%resolve\n{LATER}")
    expect(spi).to_have_attribute("aria-valuenow", "7")
    expect(spi).to_have_accessible_name("SPI 7 von 10")
    with Campaign.open(path) as camp:
        assert camp.figure("Söldner").resources["SPI"]["value"] == 7
        last = camp.journal(last=1)[0].data["text"]
    expect(journal.last).to_have_text(re.compile("^Auflösung " + re.escape(last) + "$"))

    # legible in the light and the dark theme
    assert page.evaluate("document.body.dataset.jpThemeLight") == "true"
    assert illegible(panel) == [] and illegible_meters(panel) == []
    gallery(panel, "begegnung")
    light = panel.evaluate("el => getComputedStyle(el).backgroundColor")
    with theme(page, lab, "JupyterLab Dark"):
        expect(panel).not_to_have_css("background-color", light)
        assert illegible(panel) == [] and illegible_meters(panel) == []
        assert not any(f["light"] for f in panel.locator(".rpgk-panel-facts").evaluate_all(CONTRAST))
        gallery(panel, "begegnung_dunkel")



def test_out_of_the_fight_greyed_with_its_reason_and_skipped(notebook, page, lab, tmp_path):
    """A dying Wache: its row greyed with the reason, the facts count it, "Nächster Zug" passes its turn;
    the switch "Außer Gefecht überspringen" gives it its turn again; legible in both themes."""
    path = tmp_path / "k.sqlite"
    cells = _cells(path)
    cells[-1] = ("import rpgkernel\nfrom rpgkernel.widgets import EncounterPanel\n"
                 "kampagne = rpgkernel.session.current().campaign\nkampagne.encounter.start()\n"
                 "rpgkernel.resolve('angriff Ritter -> Wache entschieden', campaign=kampagne, dice=[8, 4])\n"
                 "EncounterPanel(kampagne)")
    nb = notebook(cells)
    panel = nb.output(PANEL_CELL).locator(".rpgk-panel")
    facts = panel.locator(".rpgk-panel-facts")
    current = panel.locator("tbody tr[aria-current='true'] th")
    wache, knappe = row(panel, "Wache"), row(panel, "Knappe")
    expect(facts).to_have_text("Runde 1 · am Zug: Ritter · 1 außer Gefecht")
    expect(wache).to_have_class("rpgk-out")
    expect(wache.locator(".rpgk-out-reason")).to_have_text("sterbend (Todeswunde)")
    expect(knappe.locator(".rpgk-out-reason")).to_have_count(0)
    assert wache.locator("th").evaluate("el => getComputedStyle(el).color") != \
        knappe.locator("th").evaluate("el => getComputedStyle(el).color")       # greyed
    for name in ("Knappe", "Söldner", "Ritter"):                                   # the Wache's turn passed
        panel.get_by_role("button", name="Nächster Zug").click()
        expect(current).to_have_text(name)
    expect(facts).to_have_text("Runde 2 · am Zug: Ritter · 1 außer Gefecht")
    assert illegible(panel) == [] and illegible_meters(panel) == []
    gallery(panel, "ausser_gefecht")
    with theme(page, lab, "JupyterLab Dark"):
        assert illegible(panel) == [] and illegible_meters(panel) == []
        gallery(panel, "ausser_gefecht_dunkel")
    switch = panel.get_by_role("checkbox", name="Außer Gefecht überspringen")
    expect(switch).to_be_checked()
    expect(switch.locator("xpath=..")).to_have_attribute("title", re.compile("^Wer außer Gefecht ist"))
    switch.uncheck()
    expect(panel.get_by_role("checkbox", name="Außer Gefecht überspringen")).not_to_be_checked()
    # the campaign file has it once the panel's journal shows it (the click's message took its time)
    expect(panel.get_by_role("region", name="Journal").locator("li").last).to_contain_text(
        "Teilnehmer außer Gefecht überspringen – nein")
    with Campaign.open(path) as camp:
        assert camp.encounter.skip_out is False
    for name in ("Knappe", "Söldner", "Wache"):                                    # now it gets its turn
        panel.get_by_role("button", name="Nächster Zug").click()
        expect(current).to_have_text(re.compile(f"^{name}"))
    expect(wache).to_have_attribute("aria-current", "true")
    assert illegible(panel) == [] and illegible_meters(panel) == []       # the greyed row at its turn
    with theme(page, lab, "JupyterLab Dark"):
        assert illegible(panel) == [] and illegible_meters(panel) == []


def _order(path) -> tuple[list[str], str | None, list[str], list[str], list[str]]:
    """The campaign file's order, whose turn, who waits, who is hidden and who was removed."""
    with Campaign.open(path) as camp:
        enc = camp.encounter
        return enc.order, enc.current, enc.held, enc.hidden, enc.removed


def test_the_order_changed_from_the_rows(notebook, page, lab, tmp_path):
    path = tmp_path / "k.sqlite"
    nb = notebook(_cells(path))
    panel = nb.output(PANEL_CELL).locator(".rpgk-panel")
    names = panel.get_by_role("rowheader")
    current = panel.locator("tbody tr[aria-current='true'] th")

    def button(who, label):
        return row(panel, who).get_by_role("button", name=label.format(name=who))
    up, down = "{name} eine Stelle früher in der Reihenfolge", "{name} eine Stelle später in der Reihenfolge"

    panel.get_by_role("button", name="Kampf beginnen").click()
    expect(current).to_have_text("Ritter")

    # move up with a click; then, by the keyboard, the same row's next button moves it down again
    button("Knappe", up).click()
    expect(names).to_have_text(["Knappe", "Ritter", "Söldner", "Wache"])
    assert _order(path)[:2] == (["Knappe", "Ritter", "Söldner", "Wache"], "Ritter")
    expect(button("Knappe", up)).to_be_focused()          # the focus stays with the row it moved
    page.keyboard.press("Tab")
    expect(button("Knappe", down)).to_be_focused()
    page.keyboard.press("Enter")
    expect(names).to_have_text(FURT_NAMES)
    expect(button("Knappe", down)).to_be_focused()

    # the rules refuse in German: nobody before the players (Überraschung)
    button("Söldner", up).click()
    expect(panel.get_by_role("alert")).to_contain_text("Söldner kann nicht vor Knappe handeln")
    expect(panel.get_by_role("alert")).to_contain_text("(Überraschung)")
    assert _order(path)[0] == FURT_NAMES

    # delay: the row goes below the order, marked; act now: it takes the turn
    button("Knappe", "{name} wartet ab und handelt später in dieser Runde – oder gar nicht").click()
    expect(names).to_have_text(["Ritter", "Söldner", "Wache", "Knappe wartet ab"])
    expect(panel.get_by_role("alert")).to_have_count(0)
    assert _order(path)[2] == ["Knappe"]
    button("Knappe", "{name} handelt jetzt, außer der Reihe, wo das Regelwerk es erlaubt").click()
    expect(current).to_have_text("Knappe")
    expect(names).to_have_text(FURT_NAMES)
    assert _order(path)[1:3] == ("Knappe", [])

    # hide and reveal: marked for the GM
    button("Wache", "{name} vor den Spielern verbergen (Hinterhalt, Verstärkung); handelt weiter für die "
                    "Spielleitung").click()
    expect(row(panel, "Wache").locator(".rpgk-mark")).to_have_text("verborgen")
    assert _order(path)[3] == ["Wache"]

    # remove whose turn it is (the turn passes on) and restore it: back where it stood
    button("Knappe", "{name} aus der Begegnung nehmen (geflohen, besiegt); Zurückholen setzt den Teilnehmer "
                     "wieder an den alten Platz").click()
    expect(names).to_have_text(["Ritter", "Söldner", "Wache verborgen"])
    expect(current).to_have_text("Söldner")
    assert _order(path)[4] == ["Knappe"]

    # legible in both themes, with the marks and the row buttons
    assert illegible(panel) == [] and illegible_meters(panel) == []
    with theme(page, lab, "JupyterLab Dark"):
        assert illegible(panel) == [] and illegible_meters(panel) == []
    panel.get_by_role("button", name="Knappe zurückholen").click()
    expect(names).to_have_text(["Ritter", "Knappe", "Söldner", "Wache verborgen"])
    button("Wache", "{name} den Spielern wieder zeigen").click()
    expect(row(panel, "Wache").locator(".rpgk-mark")).to_have_count(0)
    assert _order(path) == (FURT_NAMES, "Söldner", [], [], [])


def test_targets_and_actors_picked_in_the_rows_by_mouse_and_keyboard(notebook, page, lab, tmp_path):
    """A click on a row picks it as a target (the line follows), "handelt" picks the actor; in the table
    the keys pick, act and change the order, and none of them reaches JupyterLab (no cell is added,
    the notebook stays where it was); legible with the picks in both themes."""
    path = tmp_path / "k.sqlite"
    nb = notebook(_cells(path))
    panel = nb.output(PANEL_CELL).locator(".rpgk-panel")
    names = panel.get_by_role("rowheader")
    current = panel.locator("tbody tr[aria-current='true'] th")
    line = panel.get_by_text("Als Zelle geschrieben").locator("xpath=following-sibling::pre")
    targets = panel.locator("[data-picked='targets'] strong")
    cells = page.locator(".jp-Notebook .jp-Cell")
    panel.get_by_role("button", name="Kampf beginnen").click()
    expect(current).to_have_text("Ritter")
    panel.locator("[data-focus='verb']").select_option("angriff")
    count = cells.count()

    # the mouse: a click picks a row alone, with Ctrl one more (an attack may have several targets), again
    # with Ctrl one less
    row(panel, "Knappe").locator("td.rpgk-side").click()
    expect(line).to_have_text("%%resolve\nangriff Ritter -> Knappe")
    row(panel, "Söldner").locator("td.rpgk-side").click()
    expect(line).to_have_text("%%resolve\nangriff Ritter -> Söldner")
    row(panel, "Wache").locator("th").click(modifiers=["Control"])
    expect(line).to_have_text("%%resolve\nangriff Ritter -> Söldner, Wache")
    expect(panel.get_by_role("row", selected=True).locator("th")).to_have_text(["Söldner", "Wache"])
    expect(panel.locator(".rpgk-picks strong")).to_have_text("Söldner, Wache")
    row(panel, "Söldner").locator("th").click(modifiers=["Control"])
    expect(targets).to_have_text("Wache")
    row(panel, "Knappe").get_by_role("button", name="Knappe handelt in der nächsten Handlung").click()
    expect(line).to_have_text("%%resolve\nangriff Knappe -> Wache")
    expect(row(panel, "Knappe").get_by_role("button", name=re.compile("^Knappe handelt in der"))).to_have_attribute(
        "aria-pressed", "true")
    panel.locator("[data-focus='clear:actors']").click()
    expect(line).to_have_text("%%resolve\nangriff Ritter -> Wache")   # again whose turn it is

    # the keyboard, from the Wache's row (a click on the only row picked drops it)
    row(panel, "Wache").locator("td.rpgk-side").click()
    expect(row(panel, "Wache")).to_be_focused()
    expect(targets).to_have_count(0)
    page.keyboard.press("ArrowUp")
    expect(row(panel, "Söldner")).to_be_focused()
    page.keyboard.press("Space")
    expect(line).to_have_text("%%resolve\nangriff Ritter -> Söldner")
    page.keyboard.press("Escape")
    expect(line).to_have_text("%%resolve\nangriff Ritter")
    page.keyboard.press("Home")
    page.keyboard.press("ArrowDown")
    expect(row(panel, "Knappe")).to_be_focused()
    page.keyboard.press("a")
    expect(line).to_have_text("%%resolve\nangriff Knappe")
    page.keyboard.press("n")                                           # next turn: the actor follows it
    expect(current).to_have_text("Knappe")
    expect(line).to_have_text("%%resolve\nangriff Knappe")
    assert _order(path)[1] == "Knappe"
    page.keyboard.press("Alt+ArrowUp")                                 # Knappe before Ritter
    expect(names).to_have_text(["Knappe", "Ritter", "Söldner", "Wache"])
    expect(row(panel, "Knappe")).to_be_focused()                      # the focus moves with its row
    page.keyboard.press("End")
    page.keyboard.press("v")
    expect(row(panel, "Wache").locator(".rpgk-mark")).to_have_text("verborgen")
    page.keyboard.press("Delete")
    expect(names).to_have_text(["Knappe", "Ritter", "Söldner"])
    assert _order(path)[4] == ["Wache"]
    expect(cells).to_have_count(count)                                 # JupyterLab got none of the keys

    # a verb without a target: a click picks who acts (here who makes the test)
    panel.locator("[data-focus='verb']").select_option("probe")
    row(panel, "Söldner").locator("th").click()
    expect(line).to_have_text(re.compile("^%%resolve\nprobe Söldner"))
    expect(panel.locator("[data-picked='actors'] strong")).to_have_text("Söldner")
    panel.locator("[data-focus='verb']").select_option("angriff")
    expect(line).to_have_text("%%resolve\nangriff Söldner")              # (the line settled: legible below)
    assert illegible(panel) == [] and illegible_meters(panel) == []

    # act from the row: Ctrl+Enter rolls the line (here with the dice entered)
    panel.locator("[data-focus='clear:actors']").click()
    row(panel, "Söldner").locator("th").click()
    expect(row(panel, "Söldner")).to_have_attribute("aria-selected", "true")
    expect(line).to_have_text("%%resolve\nangriff Knappe -> Söldner")
    panel.locator("[data-focus='dice']").fill("5,3")                    # the Knappe's two daggers: W6, W6
    expect(line).to_have_text("%%resolve --würfel 5,3\nangriff Knappe -> Söldner")
    row(panel, "Söldner").focus()
    page.keyboard.press("Control+Enter")
    expect(panel.get_by_role("region", name="Ergebnis").locator(".rpgk-line")).to_have_text(
        "%%resolve --würfel 5,3\nangriff Knappe -> Söldner")
    expect(cells).to_have_count(count)

    # legible with a target and an actor picked, a result and its open decisions, in both themes
    expect(panel.get_by_role("region", name="Offene Entscheidungen")).to_be_visible()
    assert illegible(panel) == [] and illegible_meters(panel) == []
    gallery(panel, "auswahl")
    with theme(page, lab, "JupyterLab Dark"):
        assert illegible(panel) == [] and illegible_meters(panel) == []
        gallery(panel, "auswahl_dunkel")


def test_joining_rolling_anew_and_group_initiative_from_the_table(notebook, page, lab, tmp_path):
    """Without a ruleset (W20 initiative): two rows picked roll as a group, "Teilnehmer hinzufügen …" adds
    a character of the campaign and one like a combatant where their initiative puts them, and "Neu
    würfeln" rolls one anew; the campaign file says the same."""
    path = tmp_path / "k.sqlite"
    cells = ["%load_ext rpgkernel", f"%rpg --kampagne {path}",
             "import rpgkernel\nfrom rpgkernel.widgets import EncounterPanel\n"
             "kampagne = rpgkernel.session.current().campaign\n"
             "kampagne.add_character('Bruni', resources={'LP': 10})\n"
             "b = kampagne.new_encounter('Furt')\n"
             "b.add('Alrik', side='Helden', resources={'LP': 10})\n"
             "b.add('Ork', side='Feinde', resources={'LP': 8})\n"
             "b.add('Söldner', side='Feinde', count=2, resources={'LP': 6})\n"
             "b.start(rolls={'Alrik': 17, 'Ork': 12, 'Söldner 1': 9, 'Söldner 2': 5})\n"
             "EncounterPanel(kampagne)"]
    nb = notebook(cells)
    panel = nb.output(2).locator(".rpgk-panel")
    names = panel.get_by_role("rowheader")
    expect(names).to_have_text(["Alrik", "Ork", "Söldner 1", "Söldner 2"])

    row(panel, "Söldner 1").locator("th").click()
    row(panel, "Söldner 2").locator("th").click(modifiers=["Control"])
    expect(panel.locator(".rpgk-picks strong")).to_have_text("Söldner 1, Söldner 2")
    panel.get_by_role("button", name="Als Gruppe würfeln").click()
    expect(panel.locator("tbody .rpgk-mark")).to_have_text(["Gruppe Söldner 1"] * 2)
    with Campaign.open(path) as camp:
        enc = camp.encounter
        assert enc.initiative["Söldner 1"] == enc.initiative["Söldner 2"]
        assert enc.order.index("Söldner 2") == enc.order.index("Söldner 1") + 1

    join = panel.get_by_role("form", name="Hinzufügen")
    panel.get_by_text("Teilnehmer hinzufügen …").click()
    join.locator("[data-focus='join:who']").select_option(label="Bruni")
    join.locator("[data-focus='join:initiative']").fill("30")
    join.get_by_role("button", name="Dazu").click()
    expect(names.first).to_have_text("Bruni")
    expect(panel.get_by_role("columnheader", name="Ini")).to_be_visible()   # this round's initiative per row
    expect(row(panel, "Bruni").locator("td.rpgk-ini")).to_have_text("30")
    expect(join.locator("[data-focus='join:initiative']")).to_have_value("")   # emptied once it joined
    join.locator("[data-focus='join:who']").select_option(label="wie Ork")
    join.locator("[data-focus='join:initiative']").fill("1")
    join.locator("[data-focus='join:initiative']").press("Enter")
    expect(names.last).to_have_text("Ork 2")
    expect(row(panel, "Ork 2").get_by_role("meter", name="LP 8 von 8")).to_be_visible()

    panel.get_by_role("button", name=re.compile("^Initiative von Ork allein neu würfeln")).click()
    expect(panel.get_by_role("region", name="Journal").locator("li").last).to_contain_text("Ork: Initiative neu 12 → ")
    with Campaign.open(path) as camp:
        entry = camp.journal(last=1)[0]
        assert entry.kind == "initiative" and entry.data["text"].startswith("Ork: Initiative neu 12 → ")
        assert camp.figure("Ork 2").resources["LP"] == {"value": 8, "max": 8}
        assert camp.encounter.record["combatants"]["Ork 2"]["side"] == "Feinde"
    assert illegible(panel) == [] and illegible_meters(panel) == []


def test_a_value_edited_in_its_row_and_a_side_added_from_the_library(notebook, page, lab, tmp_path):
    """As in a tracker: a click on a resource, -3, Enter; with two rows picked, +9 on both (held at each
    maximum, one undo step); a key on a row, = and the value; a typo kept with its German error. Then the
    library in "Teilnehmer hinzufügen …": the seed's warbands listed, searched, ×2 with numbered names, and
    the enemy side kept as a template that the list then shows; each change in the campaign file."""
    path, shelf = tmp_path / "k.sqlite", tmp_path / "bibliothek"
    cells = _cells(path)
    cells[-1] = (f"import os\nos.environ['RPGKERNEL_BIBLIOTHEK'] = {str(shelf)!r}\n"
                 "import rpgkernel\nfrom rpgkernel.widgets import EncounterPanel\n"
                 "kampagne = rpgkernel.session.current().campaign\n"
                 f"kampagne.encounter.start(rolls={{n: 10 for n in {FURT_NAMES!r}}})\nEncounterPanel(kampagne)")
    nb = notebook(cells)
    panel = nb.output(PANEL_CELL).locator(".rpgk-panel")
    notice = panel.locator(".rpgk-notice")

    def gd(name):
        with Campaign.open(path) as camp:
            return camp.figure(name).resources["GD"]["value"]

    # a click on the Söldner's GD, -3, Enter
    row(panel, "Söldner").get_by_role("meter", name="GD 4 von 4").click()
    field = row(panel, "Söldner").get_by_role("textbox", name=re.compile("^GD von Söldner ändern"))
    expect(field).to_be_focused()
    page.keyboard.type("-3")
    page.keyboard.press("Enter")
    expect(row(panel, "Söldner").get_by_role("meter", name="GD 1 von 4")).to_be_visible()
    expect(field).to_have_count(0)
    expect(notice).to_have_text("Söldner: GD 4 → 1%begegnung wert Söldner GD -3")
    assert gd("Söldner") == 1

    # two rows picked (the Söldner, Ctrl+click the Wache): +9 on both, held at each maximum
    row(panel, "Söldner").locator("td.rpgk-side").click()
    row(panel, "Wache").locator("td.rpgk-side").click(modifiers=["Control"])
    expect(panel.locator("tbody tr[aria-selected='true']")).to_have_count(2)
    row(panel, "Wache").get_by_role("meter", name="GD 3 von 3").click()
    field = row(panel, "Wache").get_by_role("textbox", name=re.compile(r"^GD von Söldner, Wache ändern \(alle gewählten"))
    field.fill("+9")
    field.press("Enter")
    expect(row(panel, "Söldner").get_by_role("meter", name="GD 4 von 4")).to_be_visible()
    expect(notice).to_contain_text("Söldner: GD 1 → 4 (höchstens 4); Wache: GD 3 → 3 (höchstens 3)")
    assert gd("Söldner") == 4
    panel.get_by_role("button", name="Rückgängig").click()          # both rows' change: one step
    expect(row(panel, "Söldner").get_by_role("meter", name="GD 1 von 4")).to_be_visible()
    assert gd("Söldner") == 1

    # the keyboard: on the Knappe's row "=", then 1 and Enter; a typo keeps the field with the error
    row(panel, "Knappe").focus()
    page.keyboard.press("=")
    field = row(panel, "Knappe").get_by_role("textbox")
    expect(field).to_be_focused()
    expect(field).to_have_value("=")
    page.keyboard.type("1")
    page.keyboard.press("Enter")
    expect(row(panel, "Knappe").get_by_role("meter", name="GD 1 von 3")).to_be_visible()
    assert gd("Knappe") == 1
    row(panel, "Ritter").get_by_role("meter", name="GD 5 von 5").click()
    field = row(panel, "Ritter").get_by_role("textbox")
    field.fill("-x")
    field.press("Enter")
    expect(panel.get_by_role("alert")).to_contain_text(
        "GD: '-x' ist keine Änderung. Erwartet wird -5 (weniger), +3 (mehr) oder =7 (auf diesen Wert).")
    expect(field).to_have_value("-x")
    field.press("Escape")
    expect(row(panel, "Ritter").get_by_role("textbox")).to_have_count(0)
    assert gd("Ritter") == 5

    # the library under "Teilnehmer hinzufügen …": the seed's example warbands, searched, ×2 into the fight
    panel.get_by_text("Teilnehmer hinzufügen …").click()
    found = panel.get_by_role("listbox", name="Aus der Bibliothek").get_by_role("option")
    expect(found).to_have_count(5)
    expect(found.locator("strong")).to_have_text(["Miliz", "Plänkler", "Söldner", "Reiter", "Ritter"])
    panel.locator("[data-focus='library:search']").fill("söld")
    expect(found).to_have_count(1)
    expect(found.first).to_have_attribute("aria-selected", "true")
    expect(found.first).to_contain_text("Söldner Regeltext VIG 13, CLA 10, SPI 10, GD 4, Armour 3")
    panel.locator("[data-focus='library:count']").fill("2")
    panel.locator("[data-focus='library:side']").fill("Feinde")
    panel.get_by_role("button", name="Söldner ×2 dazu").click()
    expect(panel.get_by_role("rowheader")).to_have_text([*FURT_NAMES, "Söldner 2", "Söldner 3"])
    expect(notice).to_have_text("Aus der Vorlage Söldner dazu: Söldner 2, Söldner 3."
                                "%%figuren\n- vorlage: Söldner\n  anzahl: 2\n  seite: Feinde")
    with Campaign.open(path) as camp:
        assert camp.encounter.record["combatants"]["Söldner 3"]["side"] == "Feinde"
        assert camp.figure("Söldner 3").sheet["vig"] == 13

    # the panel with both: a value being typed into two picked rows, the library open
    panel.locator("[data-focus='library:search']").fill("")
    row(panel, "Wache").get_by_role("meter", name="GD 3 von 3").click()
    page.keyboard.type("-2")
    assert illegible(panel) == [] and illegible_meters(panel) == []
    gallery(panel, "tracker")
    page.keyboard.press("Escape")
    expect(row(panel, "Wache").get_by_role("textbox")).to_have_count(0)

    # the enemy side kept as a template: the list then holds it, for every campaign of this user
    panel.locator("[data-focus='library:save_who']").select_option("Feinde")
    panel.locator("[data-focus='library:save_name']").fill("Furttrupp")
    panel.get_by_role("button", name="Behalten").click()
    expect(notice).to_contain_text("Vorlage 'Furttrupp' (Mythic Bastionland) behalten: Söldner, Wache, Söldner ×2.")
    panel.locator("[data-focus='library:search']").fill("trupp")
    expect(found.locator("strong")).to_have_text(["Furttrupp"])
    assert "Furttrupp:" in (shelf / "bastionland.yaml").read_text(encoding="utf-8")

