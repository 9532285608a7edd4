"""JupyterLab started exactly as the README's quick start says, for a user without Jupyter settings of
their own: the command runs as written; only the port and token come from that user's config file."""

from __future__ import annotations

import html
import http.client
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from project_copy import ROOT

START_TIMEOUT = 1200  # the first command installs JupyterLab into a fresh virtual environment first


def readme_start_command() -> str:
    """The quick start's first command: install, then JupyterLab on the start page."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick = readme.split("## Schnellstart", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```bash\n(.*?)\n```", quick, re.S)
    assert len(commands) == 2, "the quick start has exactly two set-up commands"
    assert "jupyter lab" in commands[0] and "pytest" in commands[1]
    return commands[0]


def readme_lab_command() -> str:
    """The part of the start command that starts JupyterLab (after the install)."""
    return readme_start_command().split("&&")[-1].strip()


def readme_install_command() -> str:
    """The part of the start command before it starts JupyterLab: the virtual environment and the install."""
    return readme_start_command().rsplit("&&", 1)[0].strip()


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


class ReadmeServer:
    """``command`` run in ``folder`` by a user whose home and Jupyter folders are under ``base``."""

    def __init__(self, command: str, folder: Path, base: Path) -> None:
        self.command, self.folder, self.base = command, folder, base
        self.port, self.token = _free_port(), secrets.token_hex(16)
        self.log = base / "start.log"
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith(("JUPYTER", "IPYTHON", "PYTHON", "VIRTUAL_ENV"))}
        for var, name in (("HOME", "home"), ("JUPYTER_CONFIG_DIR", "config"), ("JUPYTER_DATA_DIR", "data"),
                          ("JUPYTER_RUNTIME_DIR", "runtime"), ("JUPYTERLAB_SETTINGS_DIR", "settings"),
                          ("JUPYTERLAB_WORKSPACES_DIR", "workspaces"), ("IPYTHONDIR", "ipython")):
            (base / name).mkdir()
            self.env[var] = str(base / name)
        (base / "config" / "jupyter_server_config.py").write_text(
            f"c.ServerApp.ip = '127.0.0.1'\nc.ServerApp.port = {self.port}\nc.ServerApp.port_retries = 0\n"
            f"c.ServerApp.open_browser = False\nc.IdentityProvider.token = '{self.token}'\n"
            "c.LabApp.expose_app_in_browser = True\nc.LabApp.news_url = None\n")
        news = base / "settings" / "@jupyterlab" / "apputils-extension"
        news.mkdir(parents=True)
        (news / "notification.jupyterlab-settings").write_text(
            json.dumps({"fetchNews": "false", "checkForUpdates": False}))
        if os.geteuid() == 0 and "jupyter lab" in command:  # as the README says for root
            self.command += " --allow-root"
        self._proc: subprocess.Popen | None = None

    def run(self) -> None:
        """Run the command to its end (one that starts no server); fail with its output on an error."""
        with open(self.log, "wb") as out:
            done = subprocess.run(["bash", "-c", self.command], cwd=self.folder, env=self.env,
                                  stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                  timeout=START_TIMEOUT, check=False)
        if done.returncode:
            pytest.fail(f"the README's command ended with exit {done.returncode}:\n{self.output()}")

    def __enter__(self) -> ReadmeServer:
        with open(self.log, "wb") as out:
            self._proc = subprocess.Popen(["bash", "-c", self.command], cwd=self.folder, env=self.env,
                                          stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                          start_new_session=True)
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                pytest.fail(f"the README's command ended with exit {self._proc.returncode}:\n{self.output()}")
            try:
                self.api("status")
                return self
            except (OSError, http.client.HTTPException, ValueError):
                time.sleep(0.5)
        pytest.fail(f"JupyterLab did not answer within {START_TIMEOUT} s:\n{self.output()}")

    def __exit__(self, *exc: object) -> None:
        proc = self._proc
        if proc is not None and proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-20000:]

    def api(self, path: str) -> object:
        """GET ``/api/<path>`` (path quoted here); the decoded JSON answer (HTTPError for 404 and co.)."""
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}/api/{urllib.parse.quote(path)}",
                                     headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(req, timeout=10) as answer:
            return json.loads(answer.read())

    def contents(self, path: str) -> object:
        """The contents API's model of ``path`` in the server's root (with the file's content)."""
        return self.api(f"contents/{path}")

    def status(self, path: str) -> int:
        """The HTTP status of the contents API for ``path`` (200: the file or folder opens)."""
        try:
            self.contents(path)
        except urllib.error.HTTPError as err:
            return err.code
        return 200

    def opened_url(self) -> str:
        """The address the server opens in the user's browser for the file it was given."""
        [page] = Path(self.env["JUPYTER_RUNTIME_DIR"]).glob("jpserver-file-to-run-*-open.html")
        return html.unescape(re.search(r'<a href="([^"]+)"', page.read_text())[1])
