"""Every link in the example notebooks opens, on a JupyterLab started as the README's quick start says
(from the repository's root, with the project's virtual environment): checked through the server's
contents API, and one link clicked in Chromium."""

from __future__ import annotations

import json
import posixpath
import re
import unicodedata
import urllib.parse

import pytest
from project_copy import ROOT

from .fixtures import expect, unavailable
from .notebook import PYTHON3, Notebook
from .readme_server import ReadmeServer, readme_lab_command

pytestmark = [pytest.mark.slow, pytest.mark.browser]

EXAMPLES = sorted((ROOT / "example_notebooks").glob("*.ipynb"))
# [text](target "title"), <https://…>, href="…"
_LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)|<(https?://[^>\s]+)>|href=\"([^\"]+)\"")


def links(path) -> list[str]:
    """The link targets of a notebook's Markdown cells."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    found = []
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            source = "".join(cell["source"])
            found += [next(g for g in m.groups() if g) for m in _LINK.finditer(source)]
    return found


def anchors(markdown: str) -> set[str]:
    """The anchors of a Markdown file's headings, as GitHub makes them (lower case, spaces to '-')."""
    out = set()
    for heading in re.findall(r"^#{1,6}\s+(.+?)\s*#*\s*$", markdown, re.M):
        text = unicodedata.normalize("NFC", heading.strip().lower())
        out.add(re.sub(r"\s", "-", re.sub(r"[^\w\- ]", "", text)))
    return out


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    if not (ROOT / ".venv" / "bin" / "jupyter").exists():
        unavailable("the README's virtual environment .venv (with JupyterLab) is missing")
    with ReadmeServer(readme_lab_command(), ROOT, tmp_path_factory.mktemp("user")) as running:
        yield running


def _where(server) -> str:
    """The folder of the example notebooks as the server's root sees it (from the page it opens)."""
    opened = urllib.parse.unquote(urllib.parse.urlsplit(server.opened_url()).path)
    assert opened.startswith("/lab/tree/") and opened.endswith("/00_Start.ipynb"), opened
    return posixpath.dirname(opened.removeprefix("/lab/tree/"))


def test_every_link_of_every_example_notebook_opens(server):
    folder = _where(server)
    broken, checked = [], 0
    for path in EXAMPLES:
        here = posixpath.join(folder, path.name)
        assert server.status(here) == 200, here
        for link in links(path):
            parts = urllib.parse.urlsplit(link)
            if parts.scheme:   # outside links: the network is out of reach here, the form is checked
                assert parts.scheme == "https" and parts.netloc, f"{path.name}: {link}"
                continue
            checked += 1
            target = posixpath.normpath(posixpath.join(folder, urllib.parse.unquote(parts.path)))
            if target.startswith("..") or server.status(target) != 200:
                broken.append(f"{path.name}: {link} -> {target}")
            elif parts.fragment and parts.fragment not in anchors(server.contents(target)["content"]):
                broken.append(f"{path.name}: {link}: no heading #{parts.fragment}")
    assert checked >= 10 and broken == []


def test_a_link_to_the_docs_opens_in_jupyterlab(server, chromium):
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, locale="de-DE")
    try:
        page = context.new_page()
        page.goto(server.opened_url())
        Notebook(page, ROOT / "example_notebooks" / "00_Start.ipynb", PYTHON3).wait_idle()
        link = page.locator(".jp-MarkdownOutput a", has_text="docs/resolve.md").first
        link.scroll_into_view_if_needed()
        link.click()
        tab = page.get_by_role("tab", name=re.compile(r"^resolve\.md"))
        expect(tab).to_be_visible()
        expect(page.locator(".jp-Dialog")).to_have_count(0)   # no "File Load Error"
        expect(page.locator(".jp-FileEditor .cm-content:visible, .jp-MarkdownViewer .jp-RenderedMarkdown:visible").first) \
            .to_contain_text("%%resolve")
        shot = ROOT / "tests" / ".artifacts" / "links" / "resolve_md.png"
        shot.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(shot))
    finally:
        context.close()
