"""A new user's first steps, literally: the README's start command in a fresh copy of the project,
then the start page in headless Chromium, every cell run, the dice tray and the encounter panel on it."""

from __future__ import annotations

import http.client
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from project_copy import ROOT, copy_project

from .fixtures import expect
from .notebook import PYTHON3, Notebook

pytestmark = [pytest.mark.slow, pytest.mark.browser]

START_TIMEOUT = 1200  # the command installs JupyterLab into a fresh virtual environment first


def readme_start_command() -> str:
    """The quick start's first command: install, then JupyterLab on the start page."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick = readme.split("## Schnellstart", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```bash\n(.*?)\n```", quick, re.S)
    assert len(commands) == 2, "the quick start has exactly two set-up commands"
    assert "jupyter lab" in commands[0] and "pytest" in commands[1]
    return commands[0]


def _free_port() -> int:
    """A free port below the kernel's range of ephemeral ports, so that no kernel's socket (bound
    to port 0 while the command still installs) takes it before the server does."""
    while True:
        port = 10000 + secrets.randbelow(20000)
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port


def _user_env(base: Path, port: int, token: str) -> dict[str, str]:
    """A user without Jupyter settings of their own; the server's port and token come from its
    config file, so the README's command runs as written."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("JUPYTER", "IPYTHON", "PYTHON", "VIRTUAL_ENV"))}
    for var, folder in (("HOME", "home"), ("JUPYTER_CONFIG_DIR", "config"), ("JUPYTER_DATA_DIR", "data"),
                        ("JUPYTER_RUNTIME_DIR", "runtime"), ("JUPYTERLAB_SETTINGS_DIR", "settings"),
                        ("JUPYTERLAB_WORKSPACES_DIR", "workspaces"), ("IPYTHONDIR", "ipython")):
        (base / folder).mkdir()
        env[var] = str(base / folder)
    (base / "config" / "jupyter_server_config.py").write_text(
        f"c.ServerApp.ip = '127.0.0.1'\nc.ServerApp.port = {port}\nc.ServerApp.port_retries = 0\n"
        f"c.ServerApp.open_browser = False\nc.IdentityProvider.token = '{token}'\n"
        "c.LabApp.expose_app_in_browser = True\nc.LabApp.news_url = None\n")
    news = base / "settings" / "@jupyterlab" / "apputils-extension"
    news.mkdir(parents=True)
    (news / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False}))
    return env


def _wait_for_server(proc: subprocess.Popen, port: int, token: str, log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"the README's command ended with exit {proc.returncode}:\n{log.read_text()[-20000:]}")
        try:
            req = urllib.request.Request(f"http://127.0.0.1:{port}/api/status",
                                         headers={"Authorization": f"token {token}"})
            with urllib.request.urlopen(req, timeout=5) as answer:
                json.loads(answer.read())
                return
        except (OSError, http.client.HTTPException, ValueError):
            time.sleep(1)
    pytest.fail(f"JupyterLab did not answer within {START_TIMEOUT} s:\n{log.read_text()[-20000:]}")


def test_readme_start_command_then_start_page_in_the_browser(chromium, tmp_path):
    repo = copy_project(tmp_path / "repo")
    port, token = _free_port(), secrets.token_hex(16)
    env = _user_env(tmp_path, port, token)
    command = readme_start_command()
    if os.geteuid() == 0:  # as the README says for root
        command += " --allow-root"
    log = tmp_path / "start.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(["bash", "-c", command], cwd=repo, env=env, stdin=subprocess.DEVNULL,
                                stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    context = None
    try:
        _wait_for_server(proc, port, token, log)
        assert (repo / ".venv" / "bin" / "jupyter").exists()
        context = chromium.new_context(viewport={"width": 1280, "height": 900}, locale="de-DE")
        page = context.new_page()
        # JupyterLab serves the folder of the file it was given; the browser opens that file
        page.goto(f"http://127.0.0.1:{port}/lab/tree/00_Start.ipynb?token={token}")
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
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)
