"""The encounter panel's forecast in a real JupyterLab: the button, the progress while the fights are
played, the result the same as Encounter.forecast, a long forecast stopped with its button while the
kernel stays free for other cells, legible in the light and dark themes."""

from __future__ import annotations

import re

import pytest
from panel_driving import FURT

from rpgkernel import Campaign

from .fixtures import expect
from .notebook import DONE, gallery, theme
from .panel_view import illegible

pytestmark = pytest.mark.browser

PANEL_CELL = 3


def panel_notebook(notebook, path):
    """The ford fight (its guard's condition runs out after rounds: played through the procedures) in
    a Bastionland campaign at ``path``, and its panel."""
    return notebook(["%load_ext rpgkernel", f"%rpg --kampagne {path}\n%rpg bastionland", "%%figuren\n" + FURT,
                     "import rpgkernel\nfrom rpgkernel.widgets import EncounterPanel\n"
                     "kampagne = rpgkernel.session.current().campaign\nEncounterPanel(kampagne)"])


def test_a_forecast_from_the_panel(notebook, page, lab, tmp_path):
    path = tmp_path / "k.sqlite"
    nb = panel_notebook(notebook, path)
    panel = nb.output(PANEL_CELL).locator(".rpgk-panel")
    section = panel.locator(".rpgk-panel-forecast")
    section.locator("summary").click()
    section.get_by_label("Zielwahl").select_option("gefährlichste")
    section.get_by_label("Genauigkeit").select_option("0.05")
    with Campaign.open(path) as camp:
        journal = len(camp.journal())
    # whether a progress bar showed while the fights were played (it may stand for a moment only)
    panel.evaluate("""(el) => { window.rpgkSawProgress = false; new MutationObserver(() => {
        if (el.querySelector('.rpgk-panel-forecast progress')) window.rpgkSawProgress = true; })
        .observe(el, {childList: true, subtree: true}); }""")
    section.get_by_role("button", name="Prognose berechnen").click()
    headline = section.locator(".rpgk-outcome")
    expect(headline).to_contain_text("Am wahrscheinlichsten ist ein Sieg für", timeout=DONE)
    expect(section.locator("progress")).to_have_count(0)
    assert page.evaluate("window.rpgkSawProgress")
    assert "Zielwahl: gefährlichste" in section.locator(".rpgk-muted").first.inner_text()
    legend = section.locator(".rpgk-legend li")
    expect(legend).to_have_text([re.compile("^Sieg für Spieler: "), re.compile("^Sieg für Feinde: "),
                                 re.compile("^Unentschieden: ")])
    names = section.locator("tbody tr td:first-child")
    expect(names).to_have_text(["Ritter", "Knappe", "Söldner", "Wache"])
    expect(section.locator("svg")).to_have_count(1)
    with Campaign.open(path) as camp:
        assert len(camp.journal()) == journal   # nothing written
    assert illegible(panel) == []
    gallery(section, "prognose")
    with theme(page, lab, "JupyterLab Dark"):
        assert illegible(panel) == []
        gallery(section, "prognose_dunkel")


def test_a_long_forecast_stopped(notebook, page, lab, tmp_path):
    """To ±1 % the ford fight takes thousands of fights through the procedures: while they are played
    the kernel runs another cell, "Abbrechen" ends the forecast after its batch of fights, and the
    panel shows what they give, marked as stopped, each chance with its interval."""
    path = tmp_path / "k.sqlite"
    nb = panel_notebook(notebook, path)
    panel = nb.output(PANEL_CELL).locator(".rpgk-panel")
    section = panel.locator(".rpgk-panel-forecast")
    section.locator("summary").click()
    with Campaign.open(path) as camp:
        journal = len(camp.journal())
    section.get_by_role("button", name="Prognose berechnen").click()
    expect(section.locator("progress")).to_have_count(1)
    other = nb.run_cell("print(6 * 7)")   # the kernel is free: the forecast runs in a thread of its own
    expect(nb.output(other)).to_have_text("42")
    expect(section.get_by_role("button", name="Prognose berechnen")).to_be_disabled()
    assert illegible(panel) == []
    section.get_by_role("button", name="Abbrechen").click()
    stopped = section.locator(".rpgk-forecast-stopped")
    expect(stopped).to_contain_text(re.compile(r"^Abgebrochen nach [\d.]+ Kämpfen: "), timeout=DONE)
    expect(section.locator("progress")).to_have_count(0)
    expect(section.get_by_role("button", name="Abbrechen")).to_have_count(0)
    expect(section.get_by_role("button", name="Prognose berechnen")).to_be_enabled()
    head = section.locator(".rpgk-muted").first.inner_text()
    played = re.search(r"simuliert, abgebrochen nach ([\d.]+) Kämpfen", head)
    assert played and int(played[1].replace(".", "")) % 50 == 0
    assert stopped.inner_text().startswith(f"Abgebrochen nach {played[1]} Kämpfen")
    expect(section.locator(".rpgk-legend li b").first).to_have_text(re.compile(r"^[\d,]+ % \([\d,]+–[\d,]+ %\)$"))
    assert not panel.locator(".rpgk-panel-error").inner_text().strip()
    with Campaign.open(path) as camp:
        assert len(camp.journal()) == journal   # nothing written
    assert illegible(panel) == []
    with theme(page, lab, "JupyterLab Dark"):
        assert illegible(panel) == []
