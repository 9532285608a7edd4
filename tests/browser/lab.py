"""A throwaway JupyterLab server and Debian's Chromium for the browser tests."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

#: flags for the system Chromium (no sandbox as root, no background traffic);
#: every host but localhost/127.0.0.1 fails to resolve, so a page cannot reach the network
CHROMIUM_FLAGS = (
    "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1",
)
SETUP_NOTE = ("install Debian's chromium (apt-get install chromium) and the test extra "
              "(pip install -e '.[test]'); .ci/run does both")


def find_chromium() -> str | None:
    """The system Chromium (Playwright's own browser builds are not used)."""
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class LabServer:
    """JupyterLab on a free port, with its own config, data, settings, workspace and IPython folders.

    ``root`` is the folder it serves; notebooks written there open at ``url("lab/tree/NAME")``.
    ``python`` is the interpreter that runs it (its environment's Jupyter config applies).
    """

    def __init__(self, python: str | Path = sys.executable) -> None:
        self.python = str(python)
        self.base = Path(tempfile.mkdtemp(prefix="rpgkernel-lab-"))
        self.root = self.base / "root"
        self.data_dir = self.base / "data"
        self.token = secrets.token_hex(16)
        self.port = 0
        self.log_path = self.base / "server.log"
        self._proc: subprocess.Popen | None = None
        self.env = dict(os.environ)
        for var, folder in (("JUPYTER_CONFIG_DIR", "config"), ("JUPYTER_RUNTIME_DIR", "runtime"),
                            ("JUPYTER_DATA_DIR", "data"), ("JUPYTERLAB_SETTINGS_DIR", "settings"),
                            ("JUPYTERLAB_WORKSPACES_DIR", "workspaces"), ("IPYTHONDIR", "ipython"),
                            ("HOME", "home")):
            (self.base / folder).mkdir()
            self.env[var] = str(self.base / folder)
        self.root.mkdir()
        # "Run all" stops at a failing cell: the kernel cancels the queued cells that arrive within this
        # window after the error (ipykernel's default of 0 s lets a loaded machine run some of them)
        profile = self.base / "ipython" / "profile_default"
        profile.mkdir(parents=True)
        (profile / "ipython_kernel_config.py").write_text("c.Kernel.stop_on_error_timeout = 2.0\n")
        # no "get notified about news?" toast over the notebook
        settings = self.base / "settings" / "@jupyterlab" / "apputils-extension"
        settings.mkdir(parents=True)
        (settings / "notification.jupyterlab-settings").write_text(
            json.dumps({"fetchNews": "false", "checkForUpdates": False}))

    # -- life cycle ----------------------------------------------------
    def start(self, timeout: float = 120) -> None:
        """Start the server and wait until its REST API answers (a few seconds)."""
        for _ in range(3):  # another process may take the free port first
            self.port = _free_port()
            with open(self.log_path, "ab") as log:
                self._proc = subprocess.Popen(
                    [self.python, "-m", "jupyterlab", "--no-browser", "--allow-root", "--ip=127.0.0.1",
                     f"--port={self.port}", "--ServerApp.port_retries=0", f"--ServerApp.root_dir={self.root}",
                     f"--IdentityProvider.token={self.token}", "--LabApp.news_url=None",
                     "--LabApp.extension_manager=readonly", "--LabApp.expose_app_in_browser=True"],
                    cwd=self.root, env=self.env, stdin=subprocess.DEVNULL, stdout=log,
                    stderr=subprocess.STDOUT, start_new_session=True)
            deadline = time.monotonic() + timeout
            while self._proc.poll() is None and time.monotonic() < deadline:
                try:
                    self.api("status")
                    return
                except OSError:
                    time.sleep(0.1)
            if self._proc.poll() is None:
                self.stop_process()
                raise RuntimeError(f"JupyterLab did not answer within {timeout:.0f} s:\n{self.log()}")
        raise RuntimeError(f"JupyterLab did not start:\n{self.log()}")

    def stop_process(self) -> None:
        """Stop the server (it shuts its kernels down); kill its process group if it hangs."""
        proc, self._proc = self._proc, None
        if proc is None or proc.poll() is not None:
            return
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            proc.wait(timeout=10)

    def stop(self) -> None:
        """Stop the server and remove its folders."""
        try:
            self.stop_process()
        finally:
            shutil.rmtree(self.base, ignore_errors=True)

    # -- use -----------------------------------------------------------
    def url(self, path: str) -> str:
        sep = "&" if "?" in path else "?"
        return f"http://127.0.0.1:{self.port}/{path}{sep}token={self.token}"

    def api(self, path: str, method: str = "GET") -> object:
        """Call the REST API (``/api/<path>``); the decoded JSON answer, or None."""
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}/api/{path}", method=method,
                                     headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(req, timeout=10) as answer:
            body = answer.read()
        return json.loads(body) if body else None

    def shutdown_kernels(self) -> None:
        """End every session and kernel (between tests: each test starts its own)."""
        for session in self.api("sessions"):
            self.api(f"sessions/{session['id']}", method="DELETE")
        for kernel in self.api("kernels"):
            self.api(f"kernels/{kernel['id']}", method="DELETE")

    def add_kernel(self, name: str, display_name: str, python: str | Path) -> None:
        """A kernelspec for another interpreter (one with ipykernel importable)."""
        folder = self.data_dir / "kernels" / name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "kernel.json").write_text(json.dumps({
            "argv": [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            "display_name": display_name, "language": "python"}))

    def log_size(self) -> int:
        return self.log_path.stat().st_size if self.log_path.exists() else 0

    def log(self, since: int = 0) -> str:
        """The server's output (its kernels' too) from byte ``since`` on."""
        if not self.log_path.exists():
            return ""
        with open(self.log_path, "rb") as log:
            log.seek(since)
            return log.read().decode("utf-8", "replace")
