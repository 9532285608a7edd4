"""Several resolutions open at once, in a real JupyterLab: the panel's decision form says which attack it
answers and waits (disabled, saying what runs) while the kernel carries out an action; a press on "Entscheiden"
counts even when the open resolutions are re-sent before its release (the form is drawn after it); a decision taken over
from the older attack before a newer one was rolled goes to the older one. On the Ritter's phone (390×844),
after an undo reopened the older attack and a newer one was rolled, the page offers the older attack's
Gambits with what they answer and every die, and "Nehmen" takes it there; the panel's result shows what the
Ritter's player did. A panel whose campaign is closed has its buttons off and says why."""

from __future__ import annotations

import re

import pytest
from panel_driving import FIRST_ATTACK, SECOND_ATTACK, ZWEI_NAMES, ZWEI_SOELDNER

from rpgkernel import Campaign
from rpgkernel.resolve import pending

from .fixtures import expect
from .notebook import DONE, LIVE
from .panel_view import row
from .test_players import PHONE, _link, fixture_players  # noqa: F401  (the players fixture)

pytestmark = pytest.mark.browser

PANEL_CELL, LINK_CELL = 4, 5
FIRST_DICE = "7,3,5,1,2"   # the Ritter's W8 and W4, the Knappe's W6s, the bonus W8: Gambits with the 7 and the 5


def _cells(path, link: bool = False) -> list[str]:
    """The ford against two mercenaries in a new Bastionland campaign, begun, its panel (and the Ritter's link)."""
    rolls = {n: 10 - i for i, n in enumerate(ZWEI_NAMES)}
    return ["%load_ext rpgkernel", f"%rpg --kampagne {path}\n%rpg bastionland", "%%figuren\n" + ZWEI_SOELDNER,
            f"import rpgkernel\nkampagne = rpgkernel.session.current().campaign\nkampagne.encounter.start(rolls={rolls!r})",
            "from rpgkernel.widgets import EncounterPanel\npanel = EncounterPanel(kampagne)\npanel"] + (
        ["%rpg spieler Ritter"] if link else [])


def test_the_decision_form_names_its_attack_and_waits_while_an_action_runs(notebook, page, lab, tmp_path):
    path, flag, pressed = tmp_path / "k.sqlite", tmp_path / "weiter", tmp_path / "gedrückt"
    nb = notebook(_cells(path))
    panel = nb.output(PANEL_CELL).locator(".rpgk-panel")
    nb.run_cell(f"%%resolve --würfel {FIRST_DICE}\n{FIRST_ATTACK}")
    decisions = panel.get_by_role("region", name="Offene Entscheidungen")
    expect(decisions.locator(".rpgk-answers-head")).to_have_text(
        "Die Entscheidungen gelten: angriff: Ritter, Knappe → Söldner 1")
    with Campaign.open(path) as camp:
        (older,) = pending(camp)
    # the GM takes over Söldner 1's Deny of the 7 from the open attack
    deny = decisions.get_by_role("group", name=re.compile("^Deny"))
    deny.get_by_label("Entfernter Würfel").select_option("7")   # a closed set: a list
    deny.get_by_role("button", name="Übernehmen").click()
    taken = f'deny "Söldner 1" würfel=7 auflösung={older}'
    expect(decisions.locator(".rpgk-taken code")).to_have_text([taken])

    # the kernel is busy; the GM rolls a newer attack from the panel: the decision form waits and says why
    panel.get_by_role("button", name="Nächster Zug").click()   # the Knappe's turn: the action form's actor
    expect(panel.locator("tbody tr[aria-current='true'] th")).to_have_text("Knappe")
    row(panel, "Söldner 2").locator("td.rpgk-side").click()
    panel.locator("[data-focus='dice']").fill("6,4")
    line = panel.get_by_text("Als Zelle geschrieben").locator("xpath=following-sibling::pre")
    expect(line).to_have_text(f"%%resolve --würfel 6,4\n{SECOND_ATTACK}")
    # the panel's next action runs until the flag is there (as a long action would)
    nb.run_cell(f"import pathlib, time\ndef held(content, act=panel.on_act):\n"
                f"    while not pathlib.Path({str(flag)!r}).exists():\n        time.sleep(0.05)\n"
                f"    act(content)\npanel.on_act = held")
    panel.get_by_role("button", name="Würfeln / Ausführen").click()
    expect(page.locator("#jp-main-statusbar")).to_contain_text("Busy")
    expect(decisions.locator(".rpgk-busy")).to_have_text(
        f"Läuft gerade: {SECOND_ATTACK} – die Entscheidungen warten, bis es fertig ist.")
    expect(decisions.locator("fieldset.rpgk-answers")).to_have_attribute("disabled", "")
    expect(decisions.get_by_role("button", name="Übernehmen").first).to_be_disabled()
    expect(decisions.get_by_role("button", name="Entscheiden")).to_be_disabled()
    flag.write_text("")
    expect(decisions.locator(".rpgk-busy")).to_have_count(0, timeout=DONE)
    expect(decisions.get_by_role("button", name="Entscheiden")).to_be_enabled()
    # the newer attack is open too; the form answers the latest, and the Deny taken over still names the older
    expect(decisions.get_by_label("Offene Auflösung").locator("option")).to_have_text(
        ["angriff: Ritter, Knappe → Söldner 1", "angriff: Knappe → Söldner 2 (neueste)"])
    expect(decisions.locator(".rpgk-answers-head")).to_have_text(
        "Die Entscheidungen gelten: angriff: Knappe → Söldner 2")
    expect(decisions.locator(".rpgk-taken code")).to_have_text([taken])
    # the GM presses "Entscheiden" while the advice's weighing re-sends the open resolutions (as its progress
    # does, from its thread): the form is due to be drawn anew between press and release, and the click counts
    nb.run_cell(f"import threading\ndef resend():\n    while not pathlib.Path({str(pressed)!r}).exists():\n"
                f"        time.sleep(0.05)\n    def show():\n        with panel.hold_sync():\n"
                f"            panel.pending = [{{**p, 'neu': True}} for p in panel.pending]\n"
                f"            panel.journal = [*panel.journal, {{'seq': 99, 'label': '', 'text': 'neu gewogen'}}]\n"
                f"    panel.background.show(show)\nthreading.Thread(target=resend, daemon=True).start()")
    decisions.get_by_role("button", name="Entscheiden").hover()
    page.mouse.down()
    pressed.write_text("")
    # arrived with the press held (the journal, under the form: the button stays where it was pressed)
    expect(panel.get_by_role("region", name="Journal").locator("li").last).to_have_text("neu gewogen")
    page.mouse.up()
    expect(panel.get_by_role("region", name="Ergebnis").locator(".rpgk-head").first).to_have_text(
        "angriff: Ritter, Knappe → Söldner 1", timeout=DONE)
    with Campaign.open(path) as camp:
        (newer,) = pending(camp)   # the attack on Söldner 2 is untouched
        closed = camp.journal(kind="auflösung")[-1].data
    assert newer != older and closed["pending"] == older and closed["targets"] == ["Söldner 1"]
    assert not closed["open"] and "Söldner 1 setzt Deny ein und entfernt die 7." in [s["text"] for s in closed["steps"]]

    # the campaign closed: every button of the panel is off, and the panel says why
    nb.run_cell("kampagne.close()")
    expect(panel.locator(".rpgk-closed-why")).to_have_text(
        "Die Knöpfe sind aus, weil die Kampagne geschlossen ist. Zum Weiterspielen die Kampagne wieder öffnen "
        "(%rpg --kampagne DATEI) und das Panel neu zeigen.")
    expect(panel.get_by_role("button", name="Nächster Zug")).to_be_disabled()
    expect(decisions.get_by_role("button", name="Entscheiden")).to_be_disabled()
    assert panel.locator("button:enabled").count() == 0


def test_the_ritters_phone_takes_the_older_attacks_gambit_and_the_panel_shows_it(notebook, page, lab, tmp_path,
                                                                                 players):
    path = tmp_path / "k.sqlite"
    nb = notebook(_cells(path, link=True))
    panel = nb.output(PANEL_CELL).locator(".rpgk-panel")
    phone = players(_link(nb.output(LINK_CELL).locator(".rpgk-players")), **PHONE)
    expect(phone.page.locator("#status")).to_have_text("Live verbunden.")
    # the older attack, declined and reopened by an undo; then the GM rolls a newer one (Gambits for the Knappe)
    nb.run_cell(f"%%resolve --würfel {FIRST_DICE}\n{FIRST_ATTACK}")
    nb.run_cell("%%resolve\nverzicht Ritter")
    nb.run_cell("%rpg rückgängig")
    nb.run_cell(f"%%resolve --würfel 6,4\n{SECOND_ATTACK}")
    with Campaign.open(path) as camp:
        older, newer = pending(camp)

    forms = phone.page.locator("#wahlformen .form.wahl")
    expect(forms).to_have_count(2, timeout=LIVE)   # the older attack's Gambits and Focus, none of the newer
    gambit = forms.filter(has_text="Gambits")
    expect(gambit.locator(".wahlum div")).to_have_text(["Zu angriff: Ritter, Knappe → Söldner 1",
                                                        "Gewürfelt: W8: 7 · W4: 3 · W6: 5 · W6: 1 · W8: 2"])
    gambit.get_by_label("Abgelegter Würfel").select_option("7")
    gambit.get_by_role("button", name="Nehmen").click()
    expect(phone.page.locator("#antwort")).to_have_text(re.compile("^Genommen: Gambits"))
    expect(phone.page.locator("#wahlformen")).to_be_hidden(timeout=LIVE)
    with Campaign.open(path) as camp:
        assert list(pending(camp)) == [newer]   # the newer attack stays open
        closed = camp.journal(kind="auflösung")[-1].data
    assert closed["pending"] == older and closed["player"] == "Ritter" and not closed["open"]

    # the GM's panel (on screen: it polls while shown): the Ritter's resolution as the result, marked with the
    # Ritter's page
    panel.scroll_into_view_if_needed()
    result = panel.locator(".rpgk-panel-result.rpgk-by-player")
    expect(result.locator("h4")).to_have_text("Ergebnis von der Spielerseite: Ritter", timeout=LIVE)
    expect(result.locator(".rpgk-head").first).to_have_text("angriff: Ritter, Knappe → Söldner 1")
    assert phone.errors == []
