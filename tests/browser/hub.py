"""A club's JupyterHub on loopback: system users as GMs, the hub with its configurable-http-proxy,
a GM's browser session over HTTP (login, spawn, a kernel through the REST and websocket API)."""

from __future__ import annotations

import asyncio
import http.cookiejar
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

from tornado.httpclient import HTTPRequest
from tornado.websocket import websocket_connect


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class SystemUser:
    """A user account made with ``useradd`` (the docs' options), home in ``base``; ``remove`` undoes it."""

    def __init__(self, useradd: list[str], base: Path) -> None:
        self.name = "rpgk" + secrets.token_hex(4)
        self.password = secrets.token_urlsafe(12)
        self.home = base / self.name
        cmd = [*useradd[:-1], "--home-dir", str(self.home), self.name]
        subprocess.run(cmd, check=True, capture_output=True)
        subprocess.run(["chpasswd"], input=f"{self.name}:{self.password}\n", text=True, check=True,
                       capture_output=True)   # as `passwd NAME` does, without a terminal

    def write(self, name: str, text: str, mode: int = 0o600) -> None:
        """A file of the user's own in its home."""
        path = self.home / name
        path.write_text(text, encoding="utf-8")
        self.own(path)
        path.chmod(mode)

    def own(self, path: Path) -> None:
        import pwd
        entry = pwd.getpwnam(self.name)
        os.chown(path, entry.pw_uid, entry.pw_gid)

    def pids(self) -> list[int]:
        """The user's processes (their owner in /proc)."""
        import pwd
        uid = pwd.getpwnam(self.name).pw_uid
        found = []
        for entry in Path("/proc").iterdir():
            try:
                if entry.name.isdigit() and entry.stat().st_uid == uid:
                    found.append(int(entry.name))
            except FileNotFoundError:
                pass   # ended meanwhile
        return found

    def left(self, within: float = 60.0) -> list[int]:
        """The user's processes still running once they had ``within`` seconds to end (a stopped server's
        kernel exits a moment after it, later on a loaded machine)."""
        end = time.monotonic() + within
        while (found := self.pids()) and time.monotonic() < end:
            time.sleep(0.2)
        return found

    def remove(self) -> None:
        for pid in self.pids():   # what the hub left of this user's server, if anything
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        subprocess.run(["userdel", "--remove", self.name], capture_output=True)


def users_python(base: Path) -> Path:
    """A Python every user can run, with this environment's packages: a venv (in ``base``) of the
    first interpreter of this version that ``nobody`` can execute, its ``site-packages`` reading
    this environment's (a ``.pth``: editable installs too), its ``etc`` and ``share`` this
    environment's (the Jupyter config, kernels, JupyterLab). On a club's server JupyterHub's own
    environment is this one; here the test's interpreter may sit in root's home, out of reach."""
    import pwd
    import sysconfig
    nobody = pwd.getpwnam("nobody").pw_uid
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    for candidate in (os.path.realpath(sys._base_executable), shutil.which(f"python{version}", path="/usr/bin")):
        try:
            if candidate and subprocess.run([candidate, "-c", "pass"], user=nobody, cwd="/",
                                            capture_output=True).returncode == 0:
                break
        except PermissionError:
            continue
    else:
        raise RuntimeError(f"no Python {version} that other users can run")
    env = base / "python"
    subprocess.run([candidate, "-m", "venv", "--without-pip", str(env)], check=True, capture_output=True)
    for part in ("etc", "share"):
        shutil.rmtree(env / part, ignore_errors=True)
        (env / part).symlink_to(Path(sys.prefix) / part)
    site = env / Path(sysconfig.get_path("purelib")).relative_to(sys.prefix)
    (site / "rpgkernel_test_env.pth").write_text(
        f"import site; site.addsitedir({sysconfig.get_path('purelib')!r})\n", encoding="utf-8")
    return env / "bin" / "python"


class Hub:
    """``jupyterhub -f CONFIG`` in a temp folder: the docs' config with loopback ports appended."""

    def __init__(self, config: str, command: list[str], base: Path, users: list[SystemUser], python: Path) -> None:
        self.base = base / "hub"
        self.base.mkdir()
        self.port = free_port()
        overrides = f"""
# the test's own: everything on loopback, on free ports, only its users
c.JupyterHub.bind_url = "http://127.0.0.1:{self.port}"
c.JupyterHub.hub_bind_url = "http://127.0.0.1:{free_port()}"
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{free_port()}"
c.Authenticator.allowed_users = {{{", ".join(repr(u.name) for u in users)}}}
c.Spawner.cmd = [{str(python)!r}, "-m", "jupyterhub.singleuser"]
# for the test's driver: JupyterLab's app in the page (its commands), no news, no package index
c.Spawner.args = ["--LabApp.expose_app_in_browser=True", "--LabApp.news_url=None",
                  "--LabApp.extension_manager=readonly"]
# a busy test machine: a server may take longer than the default 30 s to answer
c.Spawner.http_timeout = c.Spawner.start_timeout = 180
"""
        self.config = self.base / "jupyterhub_config.py"
        self.config.write_text(config + overrides, encoding="utf-8")
        self.log_path = self.base / "hub.log"
        env = dict(os.environ)
        env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
        for var in ("JUPYTER_RUNTIME_DIR", "JUPYTER_DATA_DIR"):   # each GM's server and kernel keep their own
            env.pop(var, None)
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen([*command[:-1], str(self.config)], cwd=self.base, env=env,
                                         stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                         start_new_session=True)
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(self.url("hub/api/"), timeout=5) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(self.log())
            time.sleep(0.2)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}/{path}"

    def log(self) -> str:
        return self.log_path.read_text("utf-8", "replace")

    def stop(self) -> None:
        """SIGTERM: the hub stops the users' servers and its proxy, then itself."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Browser:
    """A GM's browser as plain HTTP: its own cookies; ``opener`` follows redirects, ``raw`` does not."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.cookies = http.cookiejar.CookieJar()
        processor = urllib.request.HTTPCookieProcessor(self.cookies)
        self.opener = urllib.request.build_opener(processor)
        self.raw = urllib.request.build_opener(processor, _NoRedirect)

    def cookie(self, name: str, path: str) -> str:
        found = [c for c in self.cookies if c.name == name and path.startswith(c.path)]
        assert found, f"no cookie {name} for {path}: {[(c.name, c.path) for c in self.cookies]}"
        return max(found, key=lambda c: len(c.path)).value

    def get(self, path: str) -> tuple[str, str]:
        """The final address and the text of ``path``, redirects followed."""
        with self.opener.open(self.hub.url(path), timeout=30) as answer:
            return answer.url, answer.read().decode("utf-8", "replace")

    def send(self, path: str, method: str, body: dict | None = None, xsrf_path: str = "/hub/") -> object:
        """A JSON API call with the cookie's ``_xsrf`` in its header, as a browser page sends it."""
        req = urllib.request.Request(self.hub.url(path), method=method,
                                     data=None if method == "GET" else json.dumps(body or {}).encode(),
                                     headers={"Content-Type": "application/json",
                                              "X-XSRFToken": self.cookie("_xsrf", xsrf_path)})
        with self.opener.open(req, timeout=60) as answer:
            text = answer.read()
        return json.loads(text) if text else None

    def login(self, user: SystemUser) -> None:
        """The hub's login form with the user's name and password."""
        _url, form = self.get("hub/login")
        xsrf = re.search(r'name="_xsrf" value="([^"]+)"', form)[1]
        data = urllib.parse.urlencode({"username": user.name, "password": user.password, "_xsrf": xsrf})
        req = urllib.request.Request(self.hub.url("hub/login"), data=data.encode(), method="POST")
        try:
            with self.raw.open(req, timeout=60) as answer:   # a wrong password answers 200 with the form
                raise AssertionError(f"login of {user.name} answered {answer.status}, not a redirect")
        except urllib.error.HTTPError as err:
            assert err.code == 302, f"login of {user.name} answered {err.code}"

    def start_server(self, user: SystemUser) -> str:
        """Start the user's server (the hub's spawn), wait until it is ready and open its JupyterLab
        (the server's own login through the hub); its URL prefix."""
        try:
            self.send(f"hub/api/users/{user.name}/server", "POST")
        except urllib.error.HTTPError as err:
            if err.code != 400:   # 400: already running
                raise
        deadline = time.monotonic() + 240   # beyond the spawner's own timeout
        while True:
            model = self.send(f"hub/api/users/{user.name}", "GET")
            server = model.get("servers", {}).get("", {})
            if server.get("ready"):
                self.get(f"{server['url'].lstrip('/')}lab")
                return server["url"]
            assert time.monotonic() < deadline, f"{user.name}'s server did not start:\n{self.hub.log()}"
            time.sleep(0.5)


class Kernel:
    """A Python kernel on a GM's server, as JupyterLab runs one: REST to start it, its websocket
    (the browser's cookies) to run code."""

    def __init__(self, browser: Browser, prefix: str) -> None:
        self.browser, self.prefix = browser, prefix.lstrip("/")
        self.id = browser.send(f"{self.prefix}api/kernels", "POST", {"name": "python3"},
                               xsrf_path=f"/{self.prefix}")["id"]

    def run(self, code: str, timeout: float = 120) -> str:
        """Run ``code``; its stdout and results as text. An error fails with its traceback."""
        from concurrent.futures import ThreadPoolExecutor
        with ThreadPoolExecutor(1) as pool:   # the browser's driver may keep a loop in this thread
            return pool.submit(asyncio.run, self._run(code, timeout)).result()

    async def _run(self, code: str, timeout: float) -> str:
        url = self.browser.hub.url(f"{self.prefix}api/kernels/{self.id}/channels").replace("http", "ws", 1)
        cookies = "; ".join(f"{c.name}={c.value}" for c in self.browser.cookies
                            if f"/{self.prefix}".startswith(c.path))
        ws = await websocket_connect(HTTPRequest(url, headers={"Cookie": cookies}, connect_timeout=30))
        msg_id = uuid.uuid4().hex
        await ws.write_message(json.dumps({
            "header": {"msg_id": msg_id, "msg_type": "execute_request", "username": "", "session": msg_id,
                       "version": "5.3", "date": ""},
            "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
            "content": {"code": code, "silent": False, "store_history": True, "user_expressions": {},
                        "allow_stdin": False, "stop_on_error": True}}))
        out: list[str] = []
        try:
            while True:
                text = await asyncio.wait_for(ws.read_message(), timeout)
                assert text is not None, "the kernel's websocket closed"
                if isinstance(text, bytes):
                    continue
                msg = json.loads(text)
                if msg.get("parent_header", {}).get("msg_id") != msg_id:
                    continue
                kind, content = msg["msg_type"], msg["content"]
                if kind == "stream":
                    out.append(content["text"])
                elif kind in ("execute_result", "display_data"):
                    out.append(content["data"].get("text/plain", ""))
                elif kind == "error":
                    raise AssertionError("\n".join(content["traceback"]))
                elif kind == "status" and content["execution_state"] == "idle":
                    return "".join(out)
        finally:
            ws.close()


def fresh_base() -> Path:
    """A temp folder the users' servers can pass through to their homes."""
    base = Path(tempfile.mkdtemp(prefix="rpgkernel-hub-"))
    base.chmod(0o755)
    return base
