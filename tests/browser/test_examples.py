"""The example notebooks as a GM runs them: Run All in JupyterLab, then a clean binder. Each one closes
its campaign at the end while its panel, sheets and map are still on screen: they say so quietly
(a muted line, no error box) and stop polling."""

from __future__ import annotations

import json
import re
import shutil
from contextlib import contextmanager

import pytest

from .fixtures import expect
from .notebook import PYTHON3, ROOT, Notebook, theme

pytestmark = [pytest.mark.browser, pytest.mark.slow]

EXAMPLES = sorted((ROOT / "example_notebooks").glob("*.ipynb"))
#: the widgets that show a campaign (and poll it)
CAMPAIGN_WIDGETS = ".rpgk-panel, .rpgk-sheet, .rpgk-hexmap"
CLOSED = re.compile(r"Die Kampagne .+ ist geschlossen; hier steht ihr letzter Stand\.")
# the kernel's count of messages from the widgets' front ends, from the moment this cell runs
COUNT_MESSAGES = """\
import gc
from rpgkernel.widgets.base import Widget
nachrichten = []
for w in [o for o in gc.get_objects() if isinstance(o, Widget) and getattr(o, "campaign", None) is not None]:
    w.on_msg(lambda _w, content, _b=None: nachrichten.append(content.get("type")))
len(nachrichten)"""


def bring_into_view(widget) -> None:
    """Scroll until the widget is on screen: JupyterLab lays out cells far from the view only roughly,
    so one scroll to a distant widget can land beside it."""
    for _ in range(20):
        widget.scroll_into_view_if_needed()
        widget.page.wait_for_timeout(150)
        if widget.evaluate("el => { const r = el.getBoundingClientRect(); "
                           "return r.bottom > 0 && r.top < innerHeight && r.height > 0; }"):
            return
    raise AssertionError("the widget did not come into view")


#: how much taller the page must be for all ``count`` widgets (argument: their selector, count) to be
#: on screen at once, with the notebook scrolled to its top; 0: they are
_MISSING = """([selector, count]) => {
  const outer = document.querySelector(".jp-Notebook .jp-WindowedPanel-outer");
  outer.scrollTop = 0;
  const widgets = [...document.querySelectorAll(selector)];
  if (widgets.length < count) return innerHeight;
  const end = outer.getBoundingClientRect().bottom;
  return Math.max(0, ...widgets.map(el => {
    const r = el.getBoundingClientRect();
    return r.height > 0 ? Math.ceil(r.bottom - end) + 20 : innerHeight;
  }));
}"""
TALLEST = 30000   # px: the tallest page tried


@contextmanager
def all_on_screen(page, count: int):
    """The page made tall enough for all its ``count`` campaign widgets to be on screen at once, then its
    size again. JupyterLab lays out cells far from the view only roughly: the height is found in steps."""
    size = page.viewport_size
    try:
        settled = 0   # checks in a row that found every widget on screen: two, half a second apart
        while settled < 2:
            if missing := page.evaluate(_MISSING, [CAMPAIGN_WIDGETS, count]):
                settled = 0
                height = page.viewport_size["height"] + missing + 500   # room for cells still drawn taller
                assert height <= TALLEST, f"the widgets need a page taller than {TALLEST} px to be on screen at once"
                page.set_viewport_size({"width": size["width"], "height": height})
            else:
                settled += 1
            page.wait_for_timeout(500)
        yield
        assert not page.evaluate(_MISSING, [CAMPAIGN_WIDGETS, count]), "a widget left the screen meanwhile"
    finally:
        page.set_viewport_size(size)


def deliberate_errors(path) -> int:
    """The error boxes the notebook shows on purpose: those in its stored outputs."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    return sum("".join(out.get("data", {}).get("text/html", "")).count('class="rpgk-card rpgk-error"')
               for cell in nb["cells"] for out in cell.get("outputs", []))


def closed_quietly(page, notebook, path, server) -> None:
    """After Run All of the example ``path``: each widget that shows a campaign says quietly that it is
    closed (in the light and the dark theme, screenshots in tests/.artifacts/closed) and polls no more;
    no error box but the notebook's deliberate ones. ``server``: the running JupyterLab (its settings)."""
    widgets = page.locator(CAMPAIGN_WIDGETS)
    count = widgets.count()
    for i in range(count):   # a widget polls while it is on screen: each one finds its campaign closed
        widget = widgets.nth(i)
        bring_into_view(widget)
        expect(widget.locator(".rpgk-closed")).to_have_text(CLOSED)
        expect(widget.locator(".rpgk-error")).to_have_count(0)
    expect(page.locator(".rpgk-error")).to_have_count(deliberate_errors(path))

    if count:
        for name in ("JupyterLab Light", "JupyterLab Dark"):
            with theme(page, server, name):
                bring_into_view(widgets.first)
                shot = ROOT / "tests" / ".artifacts" / "closed" / f"{path.stem}_{name.split()[-1].lower()}.png"
                shot.parent.mkdir(parents=True, exist_ok=True)
                widgets.first.screenshot(path=str(shot), animations="disabled")
        # no more polls once closed: nothing arrives from the front ends
        counter = notebook.run_cell(COUNT_MESSAGES)
        with all_on_screen(page, count):   # all on screen longer than the longest poll period: none polls
            page.wait_for_timeout(5500)
        shown = notebook.run_cell("nachrichten")
        expect(notebook.output(shown)).to_have_text("[]")
        expect(notebook.output(counter)).to_have_text("0")


# the start page: the README walkthrough (test_walkthrough.py) runs it on the server the README starts,
# with these checks
@pytest.mark.parametrize("path", [p for p in EXAMPLES if p.name != "00_Start.ipynb"], ids=lambda p: p.stem)
def test_run_all_leaves_a_clean_binder_and_closed_widgets_say_so_quietly(page, lab, path):
    target = shutil.copy(path, lab.root / path.name)
    page.goto(lab.url(f"lab/tree/{path.name}?reset"))
    notebook = Notebook(page, lab.root / path.name, PYTHON3)
    notebook.wait_idle()
    notebook.run_all()
    closed_quietly(page, notebook, path, lab)
    for leftover in lab.root.glob(f"{path.stem}*"):
        if leftover != target and leftover.is_file():
            leftover.unlink()
