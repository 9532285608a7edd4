"""The documentation site builds strictly (every warning an error) and holds what it promises: the German
pages, the API from the docstrings, the example notebooks with their stored outputs, the gallery."""

import html
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from doc_blocks import page

ROOT = Path(__file__).resolve().parent.parent


#: the build command docs/mitwirken.md documents (after the install), run here as written
BUILD = page("mitwirken.md").block("bash", after="## Die Doku als Website").text.split(" && ")[1].split()


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    assert BUILD[:3] == [".venv/bin/python", "-m", "sphinx"] and BUILD[-1] == "build/docs"
    done = subprocess.run([sys.executable, *BUILD[1:-1], str(out)], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def text(path: Path) -> str:
    """A page's text without its markup."""
    return re.sub(r"<[^>]+>", "", path.read_text(encoding="utf-8"))


def test_every_german_page_is_on_the_site(site):
    pages = sorted(p.stem for p in (ROOT / "docs").glob("*.md"))
    assert pages and all((site / "docs" / f"{p}.html").is_file() for p in pages)
    index = text(site / "docs" / "index.html")
    assert "Ohne Installation: Binder" in index        # the README is the front page
    assert all(f'href="{p}.html"' in (site / "docs" / "index.html").read_text(encoding="utf-8")
               for p in pages if p != "index")      # and every page is in its contents


def test_the_api_reference_comes_from_the_docstrings(site):
    import rpgkernel
    api = " ".join(html.unescape(text(site / "docs" / "api.html")).split())
    for name in ("roll", "dist", "resolve", "Campaign", "RpgError"):
        first = " ".join(getattr(rpgkernel, name).__doc__.split("\n\n")[0].replace("``", "").split())
        assert first[:60] in api, name


def test_the_notebooks_show_their_stored_outputs(site):
    for notebook in sorted((ROOT / "example_notebooks").glob("*.ipynb")):
        cells = [c for c in json.loads(notebook.read_text(encoding="utf-8"))["cells"]
                 if c["cell_type"] == "code" and c.get("outputs")]
        page = (site / "example_notebooks" / f"{notebook.stem}.html").read_text(encoding="utf-8")
        assert cells and page.count('class="cell_output') == len(cells), notebook.name
        streams = [" ".join("".join(o["text"]).split()) for c in cells for o in c["outputs"]
                   if o["output_type"] == "stream" and "".join(o["text"]).strip()]
        shown = " ".join(html.unescape(text(site / "example_notebooks" / f"{notebook.stem}.html")).split())
        assert all(line[:80] in shown for line in streams), notebook.name


def test_the_gallery_shows_every_picture(site):
    pictures = {p.name for p in (ROOT / "docs" / "galerie").glob("*.png")}
    page = (site / "docs" / "galerie.html").read_text(encoding="utf-8")
    assert pictures and pictures == set(re.findall(r'src="[^"]*?/([\w]+\.png)"', page))
    assert all((site / "_images" / name).is_file() for name in pictures)


def test_the_jupyterlite_page_names_every_runtime_dependency():
    page = (ROOT / "docs" / "jupyterlite.md").read_text(encoding="utf-8")
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    names = [re.match(r"[\w-]+", d)[0] for d in deps]
    assert all(f"`{n}`" in page for n in names), [n for n in names if f"`{n}`" not in page]
