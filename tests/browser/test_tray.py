"""The dice tray and the distribution chart in a real JupyterLab: mouse and keyboard, errors, the journal."""

from __future__ import annotations

import itertools
import re

import pytest

import rpgkernel

from .fixtures import expect
from .notebook import gallery, tab_into

pytestmark = pytest.mark.browser


def _percent(p: float) -> str:
    return f"{100 * p:.2f}".replace(".", ",") + " %"


def _bar(n: int, sides: int, value: int) -> str:
    """The readout of the bar of ``value`` for nWsides: P(=) and P(≥), counted over all outcomes."""
    sums = [sum(o) for o in itertools.product(range(1, sides + 1), repeat=n)]
    exactly = sum(s == value for s in sums) / len(sums)
    at_least = sum(s >= value for s in sums) / len(sums)
    return f"Wert {value}: genau {_percent(exactly)}, mindestens {value}: {_percent(at_least)}"


def _rolls(path) -> list[dict]:
    with rpgkernel.Campaign.open(path) as campaign:
        return [e.data["roll"] for e in campaign.journal(kind="wurf")]


def test_dice_tray_rolls_by_mouse_and_keyboard_into_the_journal(notebook, page, tmp_path):
    path = tmp_path / "k.sqlite"
    nb = notebook(["%load_ext rpgkernel", f"%rpg --kampagne {path}",
                   "from rpgkernel.widgets import DiceTray\nDiceTray()"])
    tray = nb.output(2).locator(".rpgk-tray")
    expression, given = tray.get_by_label("Würfelausdruck"), tray.get_by_label("Echte Würfel")
    roll = tray.get_by_role("button", name="Würfeln")
    history = tray.locator(".rpgk-entries > li")
    marked = tray.locator(".rpgk-bar-marked")

    # mouse: given dice, the history entry, the chart marks the total, the journal has the roll
    expression.fill("3W6")
    given.fill("6, 2, 5")
    roll.click()
    expect(history).to_have_count(1)
    entry = history.first
    expect(entry.locator(".rpgk-entry-expr")).to_have_text("3W6")
    expect(entry.locator(".rpgk-die")).to_have_text(["6", "2", "5"])
    expect(entry.locator(".rpgk-entry-total")).to_have_text("= 13")
    expect(entry.locator(".rpgk-entry-chance")).to_have_text("P(≥ 13) = 25,93 %")
    expect(marked).to_have_count(1)
    expect(marked).to_have_attribute("aria-label", "Gewürfelt – " + _bar(3, 6, 13))
    expect(tray.locator(".rpgk-chart-readout")).to_have_text("Gewürfelt – " + _bar(3, 6, 13))
    expect(expression).to_have_value("3W6")
    expect(given).to_have_value("")   # the given dice are used up
    [logged] = _rolls(path)
    assert (logged["expression"], logged["total"], logged["given"]) == ("3W6", 13, True)
    assert [d["faces"] for d in logged["dice"]] == [[6], [2], [5]]

    # a bad expression: the German error with a caret under the fault; the typed text stays
    expression.fill("3W6+*2")
    roll.click()
    alert = tray.get_by_role("alert")
    expect(alert).to_contain_text("Hier wird eine Zahl, ein Würfel oder eine Klammer erwartet, nicht '*'.")
    message, source, caret = alert.inner_text().split("\n")[:3]
    assert source.strip() == "3W6+*2" and caret.strip() == "^", alert.inner_text()
    assert caret.index("^") == source.index("*"), alert.inner_text()
    expect(expression).to_have_value("3W6+*2")
    expect(history).to_have_count(1)
    assert len(_rolls(path)) == 1

    # keyboard only: Tab to the field, type, Tab, type the dice, Enter
    tab_into(tray)
    expect(expression).to_be_focused()
    page.keyboard.press("Control+A")
    page.keyboard.type("2W6")
    page.keyboard.press("Tab")
    expect(given).to_be_focused()
    page.keyboard.type("3, 4")
    page.keyboard.press("Enter")
    expect(history).to_have_count(2)
    expect(history.first.locator(".rpgk-entry-expr")).to_have_text("2W6")
    expect(history.first.locator(".rpgk-entry-total")).to_have_text("= 7")
    expect(history.nth(1).locator(".rpgk-entry-total")).to_have_text("= 13")   # newest first
    expect(alert).to_have_count(0)
    expect(marked).to_have_attribute("aria-label", "Gewürfelt – " + _bar(2, 6, 7))
    assert [(r["expression"], r["total"]) for r in _rolls(path)] == [("3W6", 13), ("2W6", 7)]
    gallery(tray, "wuerfelschale")


def test_a_previews_chart_shows_the_hints_of_its_expression(notebook, page):
    nb = notebook(["%load_ext rpgkernel", "%roll --vorschau 8W6>4", "%roll --vorschau 8W6>=4"])
    hints = nb.output(1).locator(".rpgk-chart-widget .rpgk-hint")
    expect(hints).to_have_text(list(rpgkernel.dice.preview("8W6>4").hints))
    expect(nb.output(2).locator(".rpgk-chart-widget .rpgk-bar").first).to_be_visible()
    expect(nb.output(2).locator(".rpgk-hint")).to_have_count(0)


def test_distribution_chart_view_toggle_and_readout(notebook, page):
    nb = notebook(["import rpgkernel\nfrom rpgkernel.widgets import DistributionChart\n"
                   "chart = DistributionChart(rpgkernel.dist('3W6'))\nchart"])
    chart = nb.output(0).locator(".rpgk-chart-widget")
    toggle = chart.get_by_role("button", name="Mindestens-Ansicht")
    readout = chart.locator(".rpgk-chart-readout")
    hint = chart.locator(".rpgk-chart-hint")

    def bar(value: int):
        return chart.get_by_role("img", name=re.compile(f"^Wert {value}:"))

    # every bar is labelled with its German percentages; the pointer reads them out
    for value in range(3, 19):
        expect(bar(value)).to_have_attribute("aria-label", _bar(3, 6, value))
    bar(10).hover()
    expect(readout).to_have_text(_bar(3, 6, 10))

    # the mindestens view: the bars are P(≥ value), so the lowest value has the tallest bar
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(hint).to_have_text("Balkenhöhe: Wahrscheinlichkeit für mindestens diesen Wert")
    heights = [float(bar(v).get_attribute("height")) for v in range(3, 19)]
    assert heights == sorted(heights, reverse=True) and heights[0] > heights[7], heights
    bar(12).hover()
    expect(readout).to_have_text(_bar(3, 6, 12))
    shown = nb.run_cell("chart.chart_view")   # the view is synced to Python
    expect(nb.output(shown)).to_have_text("'mindestens'")

    # keyboard only: Tab to the toggle, Space, Tab to the bars, arrow keys
    tab_into(chart)
    expect(toggle).to_be_focused()
    page.keyboard.press("Space")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(hint).to_have_text("Balkenhöhe: Wahrscheinlichkeit für genau diesen Wert")
    page.keyboard.press("Tab")
    expect(bar(10)).to_be_focused()   # the likeliest value first
    expect(readout).to_have_text(_bar(3, 6, 10))
    page.keyboard.press("ArrowRight")
    expect(bar(11)).to_be_focused()
    expect(readout).to_have_text(_bar(3, 6, 11))
    gallery(chart, "verteilung")
    page.keyboard.press("End")
    expect(bar(18)).to_be_focused()
    expect(readout).to_have_text(_bar(3, 6, 18))
