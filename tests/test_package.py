"""The built wheel: it carries the front-end files and works without the source tree."""

import json
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
from browser.fixtures import expect, fixture_chromium, fixture_lab, fixture_notebook, fixture_page  # noqa: F401
from browser.lab import LabServer
from browser.notebook import PYTHON3, Kernel, open_notebook
from fresh_venv import run, venv_env
from project_copy import copy_project

ROOT = Path(__file__).resolve().parent.parent
from browser.test_english import BLOCK as ENGLISH_FORD, GERMAN_WORDS  # noqa: E402


@pytest.fixture(scope="module")
def release(tmp_path_factory) -> Path:
    """The sdist and the wheel as an index receives them, built by ``python -m build`` from the files of a
    fresh clone (so no compiled catalogue is there before)."""
    clone = copy_project(tmp_path_factory.mktemp("clone"))
    assert not list(clone.rglob("*.mo"))
    # no build isolation: the build requirements come from the test environment, so building needs no network
    out = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--sdist", "--wheel", "--outdir", str(out),
                    str(clone)], check=True, capture_output=True)
    return out


@pytest.fixture(scope="module")
def wheel(release) -> Path:
    [whl] = release.glob("rpgkernel-*.whl")
    return whl


def test_release_passes_the_index_checks(release):
    found = sorted(p.name for p in release.iterdir())
    assert len(found) == 2
    checked = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", *map(str, release.iterdir())],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.count("PASSED") == 2


def test_sdist_holds_the_package_and_nothing_else(release):
    import tarfile
    [sdist] = release.glob("rpgkernel-*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = [n.split("/", 1)[1] for n in tar.getnames() if "/" in n]
    tops = {n.split("/", 1)[0] for n in names}
    assert tops == {"rpgkernel", "widgets", "jupyter-config", "docs", "README.md", "CHANGELOG.md", "LICENSE",
                    "hatch_build.py", "pyproject.toml", "PKG-INFO", ".gitignore"}   # hatchling keeps .gitignore
    assert not [n for n in names if n.endswith((".mo", ".pyc"))]


def test_metadata_one_version_license_and_the_python_ci_tests(wheel):
    import email
    import re

    import rpgkernel
    with zipfile.ZipFile(wheel) as whl:
        [meta] = [n for n in whl.namelist() if n.endswith(".dist-info/METADATA")]
        assert any(n.endswith(".dist-info/licenses/LICENSE") for n in whl.namelist())
        data = email.message_from_bytes(whl.read(meta))
    assert data["Version"] == rpgkernel.__version__
    assert data["License-Expression"] == "MIT"
    tested = f"{sys.version_info.major}.{sys.version_info.minor}"
    versions = sorted(c.rsplit(" :: ", 1)[1] for c in data.get_all("Classifier")
                      if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c))
    assert tested in versions and data["Requires-Python"] == f">={versions[0]}"
    assert {"Documentation", "Issues", "Changelog"} <= {u.split(",")[0] for u in data.get_all("Project-URL")}


def test_index_page_readme_has_no_relative_link(wheel):
    """An index page has no repository beside it: every link and image of the description is absolute."""
    import email
    import re
    with zipfile.ZipFile(wheel) as whl:
        [meta] = [n for n in whl.namelist() if n.endswith(".dist-info/METADATA")]
        description = email.message_from_bytes(whl.read(meta)).get_payload()
    targets = re.findall(r"\]\(([^)\s]+)\)", description)
    assert len(targets) > 20 and any("galerie" in t for t in targets)
    assert [t for t in targets if not t.startswith(("https://", "#"))] == []
    assert all(t.startswith("https://raw.githubusercontent.com/") for t in targets if t.endswith(".png"))


def test_wheel_carries_package_and_front_end(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "rpgkernel/__init__.py" in names and "rpgkernel/dice/exact.py" in names
    front_end = {p.relative_to(ROOT / "widgets").as_posix() for p in (ROOT / "widgets").rglob("*") if p.is_file()}
    assert front_end and {f"rpgkernel/frontend/{f}" for f in front_end} <= names
    [points] = [n for n in names if n.endswith(".dist-info/entry_points.txt")]
    declared = zipfile.ZipFile(wheel).read(points).decode().split("[rpgkernel.rulesets]\n", 1)[1]
    assert "osr = rpgkernel.rules.osr:Osr\n" in declared


def test_wheel_is_marked_typed(wheel):
    """``py.typed`` (PEP 561): a type checker reads the installed package's annotations."""
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "rpgkernel/py.typed" in names and "rpgkernel/rules/kit.py" in names


def test_wheel_carries_every_catalogue_compiled_from_its_source(wheel):
    """Each messages.pot of the tree, and beside it the .mo the build compiled from exactly that source."""
    import io
    from gettext import GNUTranslations

    from rpgkernel.messages import build
    sources = sorted((ROOT / "rpgkernel").rglob("locale/messages.pot"))
    assert len(sources) == 6   # the core and five rulesets
    with zipfile.ZipFile(wheel) as whl:
        for pot in sources:
            name = pot.relative_to(ROOT).as_posix()
            source = whl.read(name)
            assert source == pot.read_bytes()
            mo = GNUTranslations(io.BytesIO(whl.read(name.replace("messages.pot", "de/LC_MESSAGES/messages.mo"))))
            assert mo.info()["project-id-version"].endswith(build.source_tag(source))
        for po in (ROOT / "rpgkernel").rglob("locale/*/LC_MESSAGES/messages.po"):   # translations
            name = po.relative_to(ROOT).as_posix()
            assert {name, name[:-3] + ".mo"} <= set(whl.namelist())


def test_installed_wheel_renders_from_its_own_files(wheel, tmp_path):
    zipfile.ZipFile(wheel).extractall(tmp_path)
    code = ("import rpgkernel, pathlib, sys; r = rpgkernel.roll('3W6', dice=[1, 2, 3]); "
            "html = r._repr_html_(); "
            "print(pathlib.Path(rpgkernel.__file__).parent.parent); print('.rpgk-card{' in html); "
            "print('babel.messages.pofile' in sys.modules); "   # the catalogues read as compiled, none parsed
            "print(','.join(rpgkernel.rulesets()), rpgkernel.rules.get('osr').key, "
            "pathlib.Path(sys.modules['rpgkernel.rules.osr'].__file__).is_relative_to(pathlib.Path.cwd()))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=tmp_path, env={"PYTHONPATH": str(tmp_path), "PATH": ""})
    home, styled, parsed, keys, osr, engine_inside = out.stdout.split()
    assert Path(home) == tmp_path and styled == "True" and parsed == "False"
    assert keys == "adz,bastionland,kampfwerte,midgard,osr" and osr == "osr" and engine_inside == "True"


def _venv_with_wheel(venv: Path, wheel: Path) -> Path:
    """A fresh virtual environment with the wheel installed; its Python.

    The only way in to this run's packages (ipykernel, anywidget, numpy, …) is a
    ``.pth`` file naming their site-packages folder: a plain path entry, so the
    ``.pth`` files in it (the editable install's path to the source tree) are
    not processed and ``rpgkernel`` can only come from the wheel.
    """
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    ours = dict.fromkeys(sysconfig.get_paths()[k] for k in ("purelib", "platlib"))
    (Path(site) / "test-environment.pth").write_text("".join(f"{p}\n" for p in ours))
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index",
                    "-q", str(wheel)], check=True)
    return python


@pytest.mark.slow
@pytest.mark.browser
def test_installed_wheel_shows_widgets_in_the_browser(wheel, tmp_path, lab, notebook):
    venv = tmp_path / "venv"
    kernel = Kernel("rpgkernel-wheel", "Python (rpgkernel wheel)")
    lab.add_kernel(kernel.name, kernel.display_name, _venv_with_wheel(venv, wheel))
    nb = notebook([
        "import rpgkernel, rpgkernel.assets\n"
        "print(rpgkernel.__file__)\nprint(rpgkernel.assets.asset_path('common.js'))",
        'from rpgkernel.widgets import DistributionChart\nDistributionChart(rpgkernel.dist("3W6"))',
        f"%load_ext rpgkernel\n%rpg bastionland --campaign {tmp_path / 'ford.sqlite'} --language en",
        "%%figuren\n" + ENGLISH_FORD, "%%resolve --dice 6,3\nattack Mercenary -> Knight",
    ], kernel=kernel)

    expect(nb.output(0)).to_contain_text("common.js")
    package, front_end = nb.output(0).inner_text().split()
    assert Path(package).is_relative_to(venv) and Path(package).name == "__init__.py"
    assert Path(front_end).is_relative_to(venv) and Path(front_end).parent.name == "frontend"

    chart = nb.output(1).locator(".rpgk-w svg").first
    expect(chart).to_be_visible()
    box = chart.bounding_box()
    assert box["width"] > 100 and box["height"] > 50
    assert chart.locator("rect, path, polygon").count() >= 16  # 3W6: sixteen values, a bar each

    # a Bastionland round in English from the installed wheel: its English catalogues and key aliases
    card = nb.output(4).locator(".rpgk-card").first
    expect(card).to_contain_text("Mercenary attacks Knight")
    expect(card).to_contain_text("Deny")
    assert not GERMAN_WORDS.search(card.inner_text()), card.inner_text()


@pytest.mark.slow
@pytest.mark.browser
def test_a_fresh_environment_plays_a_bastionland_round_in_english_in_jupyterlab(wheel, readme_project, tmp_path,
                                                                                  chromium):
    """The release's done-condition: the built wheel installed with its dependencies from the index into a
    new environment (``pip install rpgkernel[lab]`` as a user does), JupyterLab started from that
    environment, and a Bastionland round played in English in Chromium, its panel on screen. The new
    environment is the one the README's start command made (``readme_project``, shared with the README
    walkthrough): the wheel takes the editable install's place, its dependencies already there."""
    venv = readme_project / ".venv"
    env = venv_env(tmp_path, venv)
    python = venv / "bin" / "python"
    run([python, "-m", "pip", "install", "-q", f"rpgkernel[lab] @ {wheel.as_uri()}"], timeout=1800, env=env,
        cwd=tmp_path)
    origin = "import importlib.metadata as m; print(m.distribution('rpgkernel').read_text('direct_url.json'))"
    origin = run([python, "-c", origin], timeout=300, env=env, cwd=tmp_path)
    assert json.loads(origin)["url"] == wheel.as_uri() and "dir_info" not in origin, origin   # the wheel, not editable
    lab = LabServer(python)
    for name in ("PYTHONPATH", "PYTHONHOME", "JUPYTER_PATH", "VIRTUAL_ENV"):
        lab.env.pop(name, None)
    lab.env["PATH"] = env["PATH"]
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    try:
        lab.start()
        nb = open_notebook(context.new_page(), lab, "round", [
            "import sys, jupyterlab, rpgkernel\nprint(sys.prefix, jupyterlab.__file__, rpgkernel.__file__)",
            "%load_ext rpgkernel",
            f"%rpg bastionland --campaign {tmp_path / 'ford.sqlite'} --language en",
            "%%figuren\n" + ENGLISH_FORD,
            "from rpgkernel.widgets import EncounterPanel\nEncounterPanel(rpgkernel.session.current().campaign)",
            "%%resolve --dice 6,3\nattack Mercenary -> Knight",
        ], kernel=PYTHON3)
        prefix, *files = nb.output(0).inner_text().split()
        assert Path(prefix).resolve() == venv.resolve()
        assert all(Path(f).resolve().is_relative_to(venv.resolve()) for f in files), files   # nothing of the checkout
        panel = nb.output(4).locator(".rpgk-panel")
        expect(panel).to_contain_text("Mercenary")
        card = nb.output(5).locator(".rpgk-card").first
        expect(card).to_contain_text("Mercenary attacks Knight")
        expect(card).to_contain_text("Deny")
        for shown in (card, panel):
            assert not GERMAN_WORDS.search(shown.inner_text()), shown.inner_text()
    finally:
        context.close()
        lab.stop()
