"""The encounter panel's forecast in a real JupyterLab: the button, the progress while the fights are
played, the result the same as Encounter.forecast, legible in the light and dark themes."""

from __future__ import annotations

import re

import pytest
from panel_driving import FURT

from rpgkernel import Campaign

from .fixtures import expect
from .notebook import gallery, theme
from .panel_view import illegible

pytestmark = pytest.mark.browser

PANEL_CELL = 3


def test_a_forecast_from_the_panel(notebook, page, lab, tmp_path):
    path = tmp_path / "k.sqlite"
    nb = notebook(["%load_ext rpgkernel", f"%rpg --kampagne {path}\n%rpg bastionland", "%%figuren\n" + FURT,
                   "import rpgkernel\nfrom rpgkernel.widgets import EncounterPanel\n"
                   "kampagne = rpgkernel.session.current().campaign\nEncounterPanel(kampagne)"])
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
    expect(headline).to_contain_text("gewinnt mit", timeout=120_000)
    expect(section.locator("progress")).to_have_count(0)
    assert page.evaluate("window.rpgkSawProgress")
    assert "Zielwahl: gefährlichste" in section.locator(".rpgk-muted").first.inner_text()
    legend = section.locator(".rpgk-legend li")
    expect(legend).to_have_text([re.compile("^Spieler gewinnt: "), re.compile("^Feinde gewinnt: "),
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
