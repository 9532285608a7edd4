"""A campaign shows once in JupyterLab's file browser, not three times (.sqlite, -wal, -shm): the
package brings a Jupyter server config that an editable install, as in the README, puts into the
environment; it enables rpgkernel's server extension, which adds the SQLite side files to the
contents manager's hide_globs. Checked on a real server of such an environment: its contents API,
the browser."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from project_copy import ROOT

from rpgkernel import Campaign

from .fixtures import expect
from .lab import LabServer
from .notebook import LIVE

pytestmark = [pytest.mark.slow, pytest.mark.browser]

CONFIG = Path("etc", "jupyter", "jupyter_server_config.d", "rpgkernel.json")
#: files next to an open campaign: the side files go, everything else stays in the listing
SHOWN = ["kampagne.sqlite", "alt.sqlite3", "runde.db", "notizen-wal.txt", "wal", "shm.md", "kampagne.sqlite.bak",
         "kampagne.sqlite-wal.txt", "Karte.ipynb"]
#: other files whose names begin like the campaign's (checked through the contents API only)
LOOK_ALIKES = ["kampagne.sqlite.bak", "kampagne.sqlite-wal.txt"]
HIDDEN = ["alt.sqlite3-wal", "alt.sqlite3-shm", "runde.db-wal", "runde.db-shm", "__pycache__", "x.pyc", "y~"]


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh virtual environment with the package installed as the README does (pip install -e);
    its Python. The other packages come from this run's environment through a plain path entry."""
    venv = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    ours = dict.fromkeys(sysconfig.get_paths()[k] for k in ("purelib", "platlib"))
    (Path(site) / "test-environment.pth").write_text("".join(f"{p}\n" for p in ours))
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", "-e",
                    str(ROOT)], check=True)
    return python


@pytest.fixture(scope="module")
def server(installed):
    lab = LabServer(installed)
    share = Path(sys.prefix, "share", "jupyter")   # JupyterLab's own files and the lab extensions
    lab.env.update(JUPYTERLAB_DIR=str(share / "lab"), JUPYTER_PATH=str(share))
    lab.start()
    yield lab
    lab.stop()


def test_an_editable_install_enables_the_server_extension(installed):
    brought = installed.parent.parent / CONFIG
    assert brought.exists(), "pip install -e did not install the Jupyter server config"
    assert json.loads(brought.read_text()) == {"ServerApp": {"jpserver_extensions": {"rpgkernel.server": True}}}
    listed = subprocess.run([installed, "-m", "jupyter_server", "extension", "list"], capture_output=True,
                            text=True, check=True)
    assert re.search(r"rpgkernel\.server\s+(\x1b\[\d+m)?OK", listed.stdout + listed.stderr), listed.stdout + listed.stderr


def test_a_campaign_shows_once_in_the_file_browser(server, page):
    campaign = Campaign.open(server.root / "kampagne.sqlite")   # open: its -wal and -shm are there
    try:
        campaign.set_ruleset("bastionland")
        for name in SHOWN[1:] + HIDDEN:
            (server.root / name).write_text("")
        (server.root / "__pycache__").unlink()
        (server.root / "__pycache__").mkdir()
        assert (server.root / "kampagne.sqlite-wal").exists() and (server.root / "kampagne.sqlite-shm").exists()
        listed = sorted(item["name"] for item in server.api("contents")["content"])
        assert listed == sorted(SHOWN)
        # on screen, a GM's folder: the look-alikes above cut to "kampagne.sqlit…" in the narrow file browser
        # read as the campaign three times in its picture, though they are other files
        for name in LOOK_ALIKES:
            (server.root / name).unlink()
        page.goto(server.url("lab?reset"))
        expect(page.locator(".jp-Launcher")).to_be_visible(timeout=LIVE)   # the page has settled
        items = page.locator(".jp-DirListing-content .jp-DirListing-itemText")
        expect(items).to_have_text(sorted((n for n in SHOWN if n not in LOOK_ALIKES), key=str.casefold))
        expect(page.locator(".jp-DirListing-content").get_by_text("kampagne.sqlite", exact=True)).to_have_count(1)
        expect(page.locator(".jp-DirListing-content").get_by_text(re.compile("^kampagne"))).to_have_count(1)
        shot = ROOT / "tests" / ".artifacts" / "file_browser" / "kampagne.png"
        shot.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(shot))
    finally:
        campaign.close()
