"""In a real JupyterLab: the Söldner's attack on the Ritter, carried out by ``%%resolve``, shows its card at
once and each option's "Sieg im Kampf" in the same output once the kernel has weighed it; the panel's
decision form shows the same numbers in the Ritter's advice."""

from __future__ import annotations

import pytest
from forecast.test_options import ATTACK, FACES, duel

from rpgkernel import Campaign
from rpgkernel.forecast import weighing
from rpgkernel.messages import t
from rpgkernel.numerals import percent

from .fixtures import expect

pytestmark = pytest.mark.browser

CARD_CELL, PANEL_CELL = 2, 3
WAIT = 120_000   # ms the kernel's weighing may take on a loaded machine


def test_the_card_and_the_panel_show_the_chances_once_weighed(notebook, tmp_path):
    path = tmp_path / "k.sqlite"
    camp = duel(path)
    camp.undo()   # the attack comes from the notebook
    camp.close()
    nb = notebook(["%load_ext rpgkernel", f"%rpg --kampagne {path}\n%rpg bastionland",
                   f"%%resolve --würfel {FACES[0]}\n{ATTACK}",
                   ("import rpgkernel\nfrom rpgkernel.widgets import EncounterPanel\n"
                    "EncounterPanel(rpgkernel.session.current().campaign)")])
    with Campaign.open(path) as here:   # the same state, weighed here for the numbers to expect
        [pid] = here.state["pending"]
        w = weighing.ask(here.state, pid)
        assert w is not None and w.wait(WAIT / 1000)
    expected = [t("advice.win", p=percent(w.wins["deny", "Ritter", label])) for label in ("Kein Deny", "Deny auf die 7")]
    card = nb.output(CARD_CELL)
    for line in expected:
        expect(card).to_contain_text(line, timeout=WAIT)
    expect(card).not_to_contain_text(t("advice.win_waiting"))
    panel = nb.output(PANEL_CELL).locator(".rpgk-panel")
    advice = panel.locator("details.rpgk-advice", has_text="Rat für Ritter")
    advice.locator("summary").click()
    for line in expected:
        expect(advice.locator(".rpgk-advice-said").filter(has_text=line)).to_have_count(1, timeout=WAIT)
