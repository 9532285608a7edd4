"""A new user's first steps, literally: the README's start command in a fresh copy of the project,
then the start page in headless Chromium, every cell run, the dice tray and the encounter panel on it."""

from __future__ import annotations

import pytest
from project_copy import copy_project

from .fixtures import expect
from .notebook import PYTHON3, Notebook
from .readme_server import ReadmeServer, readme_start_command

pytestmark = [pytest.mark.slow, pytest.mark.browser]


def test_readme_start_command_then_start_page_in_the_browser(chromium, tmp_path):
    repo = copy_project(tmp_path / "repo")
    base = tmp_path / "user"
    base.mkdir()
    context = None
    with ReadmeServer(readme_start_command(), repo, base) as server:
        try:
            assert (repo / ".venv" / "bin" / "jupyter").exists()
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
        finally:
            if context is not None:
                context.close()
