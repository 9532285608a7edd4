"""A new user's first steps, literally: the README's start command in a fresh copy of the project,
then the start page in headless Chromium, every cell run, the dice tray and the encounter panel on it; at
its end the campaign closes, and its widgets say so quietly (test_examples.py's checks, for this page)."""

from __future__ import annotations

import pytest

from .fixtures import expect
from .notebook import PYTHON3, ROOT, Notebook
from .readme_server import ReadmeServer, readme_start_command
from .test_examples import closed_quietly

pytestmark = [pytest.mark.slow, pytest.mark.browser]


def test_readme_start_command_then_start_page_in_the_browser(chromium, readme_project, tmp_path):
    """The whole command once more where its install has run (``readme_project``): it runs through
    again and starts JupyterLab."""
    repo = readme_project
    base = tmp_path / "user"
    base.mkdir()
    context = None
    with ReadmeServer(readme_start_command(), repo, base) as server:
        try:
            context = chromium.new_context(viewport={"width": 1280, "height": 900}, locale="de-DE")
            page = context.new_page()
            page.goto(server.opened_url())   # where the server sends the user's browser
            notebook = Notebook(page, repo / "example_notebooks" / "00_Start.ipynb", PYTHON3)
            notebook.wait_idle()
            notebook.run_all()

            def shown_by(source: str):
                return notebook.cells.filter(has=page.locator(".jp-InputArea", has_text=source)) \
                    .locator(".jp-OutputArea-output")
            tray = shown_by("DiceTray()").locator(".rpgk-tray")
            panel = shown_by("EncounterPanel(kampagne)").locator(".rpgk-panel")
            expect(tray).to_have_count(1)
            expect(panel).to_have_count(1)
            expect(tray).to_be_visible()
            expect(panel.locator(".rpgk-panel-facts")).to_contain_text("Runde 1")
            expect(page.locator(".rpgk-error")).to_have_count(2)  # the page's two deliberate typos
            tray.scroll_into_view_if_needed()
            tray.locator("input").first.fill("2W6+1")
            tray.locator("input").first.press("Enter")
            expect(tray.locator(".rpgk-entry-expr").first).to_have_text("2W6+1")
            closed_quietly(page, notebook, ROOT / "example_notebooks" / "00_Start.ipynb", server)
        finally:
            if context is not None:
                context.close()
