"""Notebooks in the browser: write one, open it in JupyterLab, run all cells; screenshots for the gallery."""

from __future__ import annotations

import os
import re
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

import nbformat
from playwright.sync_api import expect

from rpgkernel import messages

ROOT = Path(__file__).resolve().parents[2]
#: caps in ms, never timings: generous, since a loaded machine takes many times longer, never forever
TIMEOUT_MS = 600_000   # the kernel starts, a notebook's cells run
LIVE = 60_000          # a change reaches a player's page and the panel's poll
DONE = 300_000         # an action the kernel carries out (weighing its advice) has ended
#: how often a page's wait_for_function looks, in ms (Playwright's default, every animation frame,
#: keeps Chromium drawing: some 0.1 s of CPU per second waited, this a fifth of it)
POLL = 100


def _weighing() -> re.Pattern[str]:
    """What an option says while its chance of winning is still weighed, in every language."""
    said = []
    for lang in messages.languages():
        with messages.using(lang):
            said.append(messages.t("advice.win_waiting").rpartition(":")[2].strip())
    return re.compile("|".join(map(re.escape, said)))


WEIGHING = _weighing()


class Kernel(NamedTuple):
    name: str
    display_name: str


PYTHON3 = Kernel("python3", "Python 3 (ipykernel)")

_PROMPTS = ("() => [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt')]"
            ".map(e => e.textContent.trim())")
# JupyterLab's "run all" resolves when every cell has run (true) or one failed and stopped the rest (false)
_RUN_ALL = """ms => Promise.race([
  window.jupyterapp.commands.execute('notebook:run-all-cells'),
  new Promise((_, fail) => setTimeout(() => fail(new Error(`cells still running after ${ms} ms`)), ms))])"""
_STATUS = "text => (document.querySelector('#jp-main-statusbar')?.innerText ?? '').includes(text)"
# a new code cell at the end of the open notebook, run; resolves like "run all"
_RUN_NEW = """([source, ms]) => {
  const app = window.jupyterapp;
  const notebook = app.shell.currentWidget.content;
  notebook.activeCellIndex = notebook.widgets.length - 1;
  return Promise.race([
    app.commands.execute('notebook:insert-cell-below').then(() => {
      notebook.activeCell.model.sharedModel.setSource(source);
      return app.commands.execute('notebook:run-cell');
    }),
    new Promise((_, fail) => setTimeout(() => fail(new Error(`cell still running after ${ms} ms`)), ms))]);
}"""
_THEME = """name => window.jupyterapp.commands.execute('apputils:change-theme', {theme: name})"""


class Notebook:
    """A notebook open in ``page``; ``output(i)`` is the output area of code cell ``i``."""

    def __init__(self, page, path: Path, kernel: Kernel) -> None:
        self.page, self.path, self.kernel = page, path, kernel
        self.cells = page.locator(".jp-Notebook .jp-CodeCell")

    def output(self, index: int):
        return self.cells.nth(index).locator(".jp-OutputArea-output")

    def wait_idle(self) -> None:
        """Wait for the status bar's "<kernel> | Idle": only then does the kernel exist."""
        self.page.wait_for_function(_STATUS, arg=f"{self.kernel.display_name} | Idle", timeout=TIMEOUT_MS,
                                    polling=POLL)

    def prompts(self) -> list[str]:
        return self.page.evaluate(_PROMPTS)

    def run_all(self) -> None:
        """Run every cell; fail unless each one ran (its execution count shows) without an error."""
        self._check(self.page.evaluate(_RUN_ALL, TIMEOUT_MS))

    def run_cell(self, source: str) -> int:
        """Add a code cell with ``source`` at the end and run it (the widgets above stay on screen).

        Fails like ``run_all`` unless every cell has run; returns the new cell's index for ``output``.
        """
        self._check(self.page.evaluate(_RUN_NEW, [source, TIMEOUT_MS]))
        return self.cells.count() - 1

    def _check(self, ok: bool) -> None:
        self.wait_idle()
        prompts = self.prompts()
        if not ok or not all(re.fullmatch(r"\[\d+\]:", p) for p in prompts):
            errors = self.page.locator(
                '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]').all_inner_texts()
            raise AssertionError(f"not every cell of {self.path.name} ran: prompts {prompts}\n" + "\n".join(errors))


def write_notebook(path: Path, cells: list[str], kernel: Kernel = PYTHON3) -> Path:
    """A notebook of code cells with kernelspec metadata (without it JupyterLab asks for a kernel)."""
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in cells])
    nb.metadata["kernelspec"] = {"name": kernel.name, "display_name": kernel.display_name, "language": "python"}
    nbformat.write(nb, path)
    return path


def open_notebook(page, lab, name: str, cells: list[str], kernel: Kernel = PYTHON3) -> Notebook:
    """Write ``name``.ipynb into the server's root, open it, run all cells; the open notebook."""
    path = write_notebook(lab.root / f"{name}.ipynb", cells, kernel)
    page.goto(lab.url(f"lab/tree/{path.name}?reset"))
    notebook = Notebook(page, path, kernel)
    notebook.wait_idle()
    notebook.run_all()
    return notebook


def tab_into(widget, presses: int = 8) -> None:
    """Enter a widget with the keyboard: select its cell by clicking the widget's heading
    (nothing focusable there), then press Tab until the focus is in the widget (past the
    cell's toolbar, if JupyterLab shows it); fails after ``presses`` presses."""
    widget.locator("h3").first.click()
    for _ in range(presses):
        widget.page.keyboard.press("Tab")
        if widget.evaluate("el => el.contains(document.activeElement)"):
            return
    raise AssertionError(f"{presses} presses of Tab did not reach the widget")


def _switch_theme(page, name: str) -> None:
    page.evaluate(_THEME, name)
    page.wait_for_function("name => document.body.dataset.jpThemeName === name", arg=name, timeout=TIMEOUT_MS,
                           polling=POLL)


@contextmanager
def theme(page, lab, name: str):
    """JupyterLab's theme ``name`` ("JupyterLab Dark") for the open page, until the block ends.

    JupyterLab keeps the choice in the server's settings: afterwards they are reset, also
    when the block fails, so the next page opens in the default theme again.
    """
    settings = Path(lab.env["JUPYTERLAB_SETTINGS_DIR"], "@jupyterlab", "apputils-extension",
                    "themes.jupyterlab-settings")
    before = page.evaluate("() => document.body.dataset.jpThemeName")
    try:
        _switch_theme(page, name)
        yield
        _switch_theme(page, before)
    finally:
        settings.unlink(missing_ok=True)


def gallery_dir() -> Path:
    """``$RPGKERNEL_GALLERY`` (relative to the repository) or ``tests/.artifacts/gallery``."""
    return ROOT / os.environ.get("RPGKERNEL_GALLERY", "tests/.artifacts/gallery")


def gallery(locator, name: str, mask: list | None = None) -> Path:
    """Save a screenshot of one element (a card, a widget) as ``<gallery>/<name>.png``; ``mask``:
    locators painted over (what carries a secret, such as a player link's token).

    An element taller than the notebook's view is taken in a window made tall enough for it
    (JupyterLab scrolls the notebook inside the page: a plain element shot would be cut off).
    """
    # the chances of winning of an open action follow its card: the picture shows them weighed (and the
    # element is not drawn anew while it is taken)
    expect(locator.get_by_text(WEIGHING)).to_have_count(0, timeout=DONE)
    folder = gallery_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    page, size = locator.page, locator.page.viewport_size
    height = locator.bounding_box()["height"]
    if size and height > size["height"] - 300:
        page.set_viewport_size({"width": size["width"], "height": int(height) + 400})
    try:
        locator.screenshot(path=str(path), animations="disabled", mask=mask or [], mask_color="#9e9e9e")
    finally:
        if size and page.viewport_size != size:
            page.set_viewport_size(size)
    return path
