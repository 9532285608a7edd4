"""%rpg würfelcheck in a real JupyterLab: a chart per figure and die, a hostile figure name shown as text
and run nowhere, every text legible in the light and the dark theme."""

from __future__ import annotations

import pytest

from .fixtures import expect
from .notebook import gallery, theme
from .panel_view import CONTRAST

pytestmark = pytest.mark.browser
HOSTILE = '<img src=x onerror="window.__pwned=1">'
LOADED = [1] * 4 + [2] * 6 + [3] * 5 + [4] * 7 + [5] * 8 + [6] * 30   # 60 throws of a loaded W6
TEXT = ".rpgk-head, .rpgk-verdict, th, td, .rpgk-chance"


def _illegible(card, minimum: float = 4.5) -> list[dict]:
    """The card's text below the contrast ``minimum``; the charts' labels are in the card's own colour."""
    found = card.locator(TEXT).evaluate_all(CONTRAST)
    assert len(found) > 40, found   # the selector still finds the card's text
    colour = card.evaluate("el => getComputedStyle(el).color")
    labels = card.locator("svg text").evaluate_all("ts => ts.map(t => getComputedStyle(t).fill)")
    assert len(labels) > 15 and set(labels) == {colour}, (labels, colour)
    return [f for f in found if f["ratio"] < minimum]


def test_the_dice_check_card(notebook, page, lab, tmp_path):
    nb = notebook([
        "%load_ext rpgkernel",
        f"%rpg --kampagne {tmp_path / 'k.sqlite'}",
        "import rpgkernel\nk = rpgkernel.session.current().campaign\n"
        f"k.log_rolls(rpgkernel.roll_many('W6', 60, dice={LOADED}), figure={HOSTILE!r})\n"
        "k.log_roll(rpgkernel.roll('W6+W20', dice=[3, 17]))",
        "%rpg würfelcheck",
    ])
    card = nb.output(3).locator(".rpgk-dicecheck")
    tests = card.locator(".rpgk-dicetest")
    expect(tests).to_have_count(3)
    expect(card.locator("svg")).to_have_count(3)
    loaded = tests.nth(2)
    expect(loaded.locator(".rpgk-head")).to_have_text(
        f"{HOSTILE}, W6: 60 Würfe, je Augenzahl erwartet 10, χ² = 49,00, Freiheitsgrade: 5")
    expect(loaded.locator(".rpgk-notable")).to_have_text("auffällig: p < 0,01 %")
    expect(tests.nth(0).locator(".rpgk-verdict")).to_contain_text("zu wenige Würfe")
    # six bars, tallest the sixth; the dashed line of the expected count across them
    heights = loaded.locator("svg > rect[fill='#5c7cfa']:has(title)").evaluate_all(
        "rects => rects.map(r => r.getBBox().height)")
    assert len(heights) == 6 and heights.index(max(heights)) == 5 and heights[5] == pytest.approx(heights[0] * 30 / 4)
    expect(loaded.locator("svg line[stroke-dasharray]")).to_have_count(2)   # the line and its legend
    expect(card.locator("img")).to_have_count(0)
    assert page.evaluate("() => window.__pwned") is None

    assert page.evaluate("document.body.dataset.jpThemeLight") == "true"
    assert _illegible(card) == []
    gallery(card, "wuerfelcheck")
    light = card.evaluate("el => getComputedStyle(el).backgroundColor")
    with theme(page, lab, "JupyterLab Dark"):
        expect(card).not_to_have_css("background-color", light)
        assert _illegible(card) == []
        gallery(card, "wuerfelcheck_dunkel")
