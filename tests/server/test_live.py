"""The player pages on a real Jupyter server started with ``allow_unauthenticated_access=False``:
every handler of the extension is marked public or refuses without auth; the page's headers; the
websocket's token check (wrong, guessed, revoked, another campaign's), the token as the guard
whatever the origin, guessing slowed down without touching the right token; a GM action reaching an open page; a revoked link closing an open page; no token in the
server's log."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from tornado import web
from tornado.httpclient import HTTPClientError, HTTPRequest
from tornado.websocket import websocket_connect

from doc_blocks import page

from rpgkernel import rules
from rpgkernel.forecast import weighing
from rpgkernel.messages import t
from rpgkernel.server import live
from rpgkernel.state import Campaign

pytestmark = pytest.mark.slow
#: the docs' start command for the table: the servers here run with its options
START = page("kampagne.md").block("bash", after="## Spieler live: Links für Spielerseiten").text.split()
assert START[:2] == ["jupyter", "lab"], START
#: seconds: generous caps for a server to answer and for a frame it sends (a loaded machine answers late)
STARTING, FRAME = 180, 60.0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """``python -m jupyter_server`` with the extension, its own folders and its output in ``log``;
    ``config``: Python for its ``jupyter_server_config.py`` (run in the server's process)."""

    def __init__(self, config: str = "") -> None:
        self.base = Path(tempfile.mkdtemp(prefix="rpgkernel-server-"))
        self.token = secrets.token_hex(16)
        self.env = dict(os.environ)
        for var in ("JUPYTER_CONFIG_DIR", "JUPYTER_RUNTIME_DIR", "JUPYTER_DATA_DIR", "IPYTHONDIR", "HOME"):
            (self.base / var).mkdir()
            self.env[var] = str(self.base / var)
        (self.base / "JUPYTER_CONFIG_DIR" / "jupyter_server_config.json").write_text(
            json.dumps({"ServerApp": {"jpserver_extensions": {"rpgkernel.server": True}}}))
        if config:
            (self.base / "JUPYTER_CONFIG_DIR" / "jupyter_server_config.py").write_text(config)
        self.root = self.base / "root"
        self.root.mkdir()
        self.log_path = self.base / "server.log"
        for _ in range(3):   # another process may take the free port first
            if self._start():
                return
        log = self.log()
        shutil.rmtree(self.base, ignore_errors=True)
        raise RuntimeError(f"the server did not start:\n{log}")

    def _start(self) -> bool:
        """Start the server on a free port; True once it answers, False when it ended (the port taken)."""
        self.port = _free_port()
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "jupyter_server", "--no-browser", "--allow-root", *START[2:],
                 f"--port={self.port}", "--ServerApp.port_retries=0", f"--ServerApp.root_dir={self.root}",
                 f"--IdentityProvider.token={self.token}", "--ServerApp.allow_unauthenticated_access=False",
                 "--log-level=DEBUG"],
                cwd=self.root, env=self.env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True)
        deadline = time.monotonic() + STARTING
        while self.proc.poll() is None:
            try:
                self.get(f"api/status?token={self.token}")
                return True
            except (OSError, urllib.error.HTTPError):
                if time.monotonic() > deadline:
                    log = self.log()
                    self.stop()
                    raise RuntimeError(f"no answer within {STARTING} s:\n{log}") from None
                time.sleep(0.1)
        return False

    @property
    def runtime(self) -> str:
        return self.env["JUPYTER_RUNTIME_DIR"]

    def get(self, path: str, method: str = "GET"):
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}/{path}", method=method,
                                     data=b"" if method not in ("GET", "HEAD") else None)
        return urllib.request.urlopen(req, timeout=10)

    def log(self) -> str:
        return self.log_path.read_text("utf-8", "replace")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, 9)
        shutil.rmtree(self.base, ignore_errors=True)


#: in one server's process: the store of every campaign file named langsam* reads its last seq only once
#: the file ``release`` exists (until then each read waits, and says so in ``release``.wartet)
HELD_STORE = """
import pathlib, time
from rpgkernel.state.store import Store
_last_seq = Store.last_seq
def last_seq(self):
    if "langsam" in self.where:
        pathlib.Path({release!r} + ".wartet").touch()
        while not pathlib.Path({release!r}).exists():
            time.sleep(0.05)
    return _last_seq(self)
Store.last_seq = last_seq
"""


@pytest.fixture(scope="module")
def release(tmp_path_factory) -> Path:
    """The file that lets the module's server read the stores named langsam* (HELD_STORE)."""
    return tmp_path_factory.mktemp("langsam") / "freigabe"


@pytest.fixture(scope="module")
def server(release):
    """The module's server; it holds the stores named langsam* (no other test's campaign is named so)."""
    running = Server(config=HELD_STORE.format(release=str(release)))
    yield running
    release.touch()
    running.stop()


@pytest.fixture
def table(server, tmp_path, monkeypatch):
    """A campaign as the GM's kernel has it (the registry in the server's runtime dir)."""
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", server.runtime)
    with Campaign.open(tmp_path / "kampagne.sqlite") as camp:
        camp.set_ruleset("bastionland")
        camp.add_character("Alrik", {"vig": 12, "cla": 10, "spi": 8, "gd": 4})
        camp.add_character("Brida", {"vig": 10, "cla": 10, "spi": 10, "gd": 3})
        yield camp


class Page:
    """A player's page: its websocket (Origin ``null``, as the sandboxed page sends)."""

    def __init__(self, server: Server, key: str, origin: str | None = "null", source: str = "127.0.0.1") -> None:
        self.url = f"ws://127.0.0.1:{server.port}/rpgkernel/spieler/{key}/ws"
        self.origin, self.source = origin, source

    async def open(self, token: str | None = None):
        headers = {} if self.origin is None else {"Origin": self.origin}
        self.ws = await websocket_connect(HTTPRequest(self.url, headers=headers, network_interface=self.source))
        if token is not None:
            await self.ws.write_message(token)
        return self

    async def next(self, timeout: float = FRAME):
        """The next message, decoded; None when the server closed the socket."""
        text = await asyncio.wait_for(self.ws.read_message(), timeout)
        return None if text is None else json.loads(text)


def run(coro):
    """Run a coroutine to its end in a thread of its own: a test run may already have an event loop
    running in this thread (the browser tests' driver leaves one)."""
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def test_every_handler_is_marked_public_or_refuses_without_auth(server):
    from jupyter_server.serverapp import _has_tornado_web_authenticated
    registered = live.handlers("/")
    assert len(registered) == 2
    for pattern, handler in registered:
        for name in handler.SUPPORTED_METHODS:
            method = getattr(handler, name.lower())
            if method is web.RequestHandler._unimplemented_method:
                continue
            assert getattr(method, "__allow_unauthenticated", False) or _has_tornado_web_authenticated(method), \
                f"{name} of {handler.__name__} for {pattern}"
    log = server.log()
    assert "rpgkernel.server | extension was successfully loaded" in log
    assert "registered for /rpgkernel" not in log   # the server's own check of every extension's handlers
    key = "0" * 32
    with server.get(f"rpgkernel/spieler/{key}/") as answer:   # public: answers without a token
        assert answer.status == 200
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        with pytest.raises(urllib.error.HTTPError) as refused:
            server.get(f"rpgkernel/spieler/{key}/", method)
        assert refused.value.code in (403, 405)
    with pytest.raises(urllib.error.HTTPError) as refused:   # the server really refuses without auth
        server.get("api/contents")
    assert refused.value.code == 403


def test_the_page_headers(server):
    with server.get(f"rpgkernel/spieler/{'a' * 32}/") as answer:
        headers, body = answer.headers, answer.read().decode()
    csp = headers["Content-Security-Policy"]
    assert csp.startswith("sandbox allow-scripts;") and "default-src 'none'" in csp
    assert f"connect-src ws://127.0.0.1:{server.port}" in csp and "'unsafe-inline'" not in csp
    assert headers["Referrer-Policy"] == "no-referrer" and headers["X-Content-Type-Options"] == "nosniff"
    assert "Set-Cookie" not in headers
    assert '<html lang="de">' in body and "innerHTML" not in body and "textContent" in body
    try:   # no page for what is no key: the server's own answer (to the login page, or not found)
        with server.get("rpgkernel/spieler/not-a-key/") as answer:
            assert "/login" in answer.url
    except urllib.error.HTTPError as missing:
        assert missing.code == 404


def test_a_gm_action_reaches_the_open_page(server, table):
    """The pushed view is the player's view: the own figure in full, the other side as the ruleset
    describes it, a hidden combatant nowhere in any frame, not even while it acts."""
    link = table.new_player_link("Alrik")
    enc = table.new_encounter("Hinterhalt")
    enc.add("Alrik", side="Helden", character="Alrik")
    enc.add("Räuber", side="Räuber", sheet={"vig": 8, "cla": 8, "spi": 8, "gd": 3})
    enc.add("Späher Xorg", side="Räuber", sheet={"vig": 9, "cla": 9, "spi": 9, "gd": 5})
    enc.hide("Späher Xorg")

    async def play():
        page = await Page(server, link.key).open(link.token)
        frames = [await page.next()]
        view = frames[0]["view"]
        assert view["begegnung"]["name"] == "Hinterhalt" and view["figur"]["name"] == "Alrik"
        assert view["figur"]["labels"]["ruestung"] == rules.get("bastionland").sheet.label("ruestung") != "ruestung"
        assert view["begegnung"]["runde"] == 0
        assert [c["name"] for c in view["begegnung"]["teilnehmer"]] == ["Alrik", "Räuber"]
        enc.start(["Alrik", "Späher Xorg", "Räuber"])
        frames.append(await page.next())
        assert frames[-1]["view"]["begegnung"]["runde"] == 1
        table.change("Alrik", "GD", -2)
        frames.append(await page.next())
        assert frames[-1]["view"]["figur"]["resources"]["GD"]["value"] == 2
        enc.next_turn()                                        # the hidden one acts: Alrik stays current
        table.change("Räuber", "GD", -1)                       # a described enemy: no number reaches the page
        frames.append(await page.next())
        shown = frames[-1]["view"]["begegnung"]
        assert shown["am_zug"] == "Alrik" and "ressourcen" not in shown["teilnehmer"][1]
        text = json.dumps(frames, ensure_ascii=False)
        assert "Xorg" not in text and "Späher" not in text and '"gd": 5' not in text
        page.ws.close()

    run(play())
    assert link.token not in server.log()


def test_a_slow_campaign_delays_no_other_campaigns_page(server, release, tmp_path, monkeypatch):
    """The watcher reads stores off the event loop: while one campaign's store hangs in each read of its
    last seq, another campaign's page gets every GM change, and once the slow store answers, the slow
    campaign's page gets its view all the same."""
    try:
        monkeypatch.setenv("JUPYTER_RUNTIME_DIR", server.runtime)
        with Campaign.open(tmp_path / "langsam.sqlite") as slow, Campaign.open(tmp_path / "flink.sqlite") as quick:
            for camp in (slow, quick):
                camp.set_ruleset("bastionland")
                camp.add_character("Alrik", {"vig": 12, "cla": 10, "spi": 8, "gd": 4})
            slow_link, quick_link = slow.new_player_link("Alrik"), quick.new_player_link("Alrik")

            async def gd(page, value):
                while True:
                    frame = await page.next()
                    if frame["view"]["figur"]["resources"]["GD"]["value"] == value:
                        return frame

            async def play():
                slow_page = await Page(server, slow_link.key).open(slow_link.token)
                quick_page = await Page(server, quick_link.key).open(quick_link.token)
                await gd(quick_page, 4)
                for value in (3, 2, 1, 0):
                    quick.change("Alrik", "GD", -1)
                    await gd(quick_page, value)
                assert Path(f"{release}.wartet").exists() and not release.exists()   # all the while held
                slow.change("Alrik", "GD", -2)
                release.touch()
                await gd(slow_page, 2)
                slow_page.ws.close(), quick_page.ws.close()

            run(play())
    finally:
        release.touch()


def test_a_page_joining_takes_no_change_from_the_open_pages(table, monkeypatch):
    """A joining page's view is made whatever changed; the change still counts for the pages open."""
    link = table.new_player_link("Alrik")
    watcher = live.Watcher(link.key, {})
    # an advice weighed before the watcher opens (another campaign's, earlier): no change to its pages
    monkeypatch.setattr(weighing, "_changes", weighing.changes() + 1)
    assert watcher.open(table.store.where, table.store.campaign)
    try:
        open_page, joining = object(), object()
        assert watcher.frames([(open_page, "Alrik", link.token, "")], False) == []          # nothing changed
        table.change("Alrik", "GD", -1)
        [(page, text)] = watcher.frames([(joining, "Alrik", link.token, "")], True)
        assert page is joining and json.loads(text)["view"]["figur"]["resources"]["GD"]["value"] == 3
        assert watcher.frames([(open_page, "Alrik", link.token, "")], False) == [(open_page, text)]
        assert watcher.frames([(open_page, "Alrik", link.token, "")], False) == []
        table.revoke_player_link(link.id)
        assert watcher.frames([(open_page, "Alrik", link.token, "")], False) == [(open_page, None)]
    finally:
        watcher.campaign.close()


def test_wrong_guessed_revoked_and_foreign_tokens_are_refused(server, table, tmp_path):
    link = table.new_player_link("Alrik")
    revoked = table.new_player_link("Brida")
    table.revoke_player_link(revoked.id)
    with Campaign.open(tmp_path / "andere.sqlite") as other:
        other.add_character("Alrik")
        foreign = other.new_player_link("Alrik")

    async def refused(key, token):
        page = await Page(server, key).open(token)
        answer = await page.next()
        assert answer == {"error": "Dieser Link gilt nicht (falsch, widerrufen oder erneuert). "
                                   "Bitte die Spielleitung um einen neuen."}
        assert await page.next() is None and page.ws.close_code == live.REFUSED

    for key, token in ((link.key, link.token[:-2] + "xx"), (link.key, secrets.token_urlsafe(32)),
                       (link.key, revoked.token), (link.key, foreign.token), ("f" * 32, link.token)):
        run(refused(key, token))
    log = server.log()
    for token in (link.token, revoked.token, foreign.token):
        assert token not in log


def test_the_token_is_the_guard_not_the_origin(server, table):
    """As the docs say: any site's sandboxed frame says ``Origin: null`` as the page does, and without
    the link's token its socket gets nothing; an origin naming another site is refused at once; the
    server's own origin with the token gets the view."""
    said = " ".join(page("kampagne.md").text.split())
    assert "**der Schlüssel ist die Wache**" in said and "keine einer fremden Website" not in said
    link = table.new_player_link("Alrik")

    async def other_site():
        for token in ("", secrets.token_urlsafe(32)):
            frame = await Page(server, link.key, origin="null").open(token)
            assert (await frame.next()) == {"error": t("page.refused")}
            assert await frame.next() is None and frame.ws.close_code == live.REFUSED
        with pytest.raises(HTTPClientError) as refused:
            await Page(server, link.key, origin="https://example.org").open()
        assert refused.value.code == 403
        page = await Page(server, link.key, origin=f"http://127.0.0.1:{server.port}").open(link.token)
        assert (await page.next())["view"]["figur"]["name"] == "Alrik"
        page.ws.close()

    run(other_site())


def test_a_revoked_link_closes_the_open_page(server, table):
    link = table.new_player_link("Alrik")

    async def revoke():
        page = await Page(server, link.key).open(link.token)
        assert (await page.next())["view"]["figur"]["name"] == "Alrik"
        table.revoke_player_link(link.id)
        assert await page.next() is None
        assert page.ws.close_code == live.REFUSED and page.ws.close_reason == "Dieser Link wurde widerrufen."

    run(revoke())


def test_guessing_is_slowed_down_and_the_right_token_always_works(server, table):
    """Behind a hub's proxy every player has the proxy's address: ten wrong guesses from it leave the
    right token working at once; the guesses after them are answered late, saying so."""
    link = table.new_player_link("Alrik")
    proxy = "127.0.0.2"   # a loopback address no other test here connects from: a fresh count for it

    async def hammer():
        for _ in range(10):
            page = await Page(server, link.key, source=proxy).open(secrets.token_urlsafe(32))
            assert "gilt nicht" in (await page.next())["error"]
        page = await Page(server, link.key, source=proxy).open(link.token)   # the right token, same address
        assert (await page.next())["view"]["figur"]["name"] == "Alrik"
        page.ws.close()
        guess = await Page(server, link.key, source=proxy).open(secrets.token_urlsafe(32))
        assert (await guess.next())["error"] == t("page.too_many")
        assert await guess.next() is None and guess.ws.close_code == live.TOO_MANY
        page = await Page(server, link.key, source=proxy).open(link.token)   # and still after the slowed guess
        assert (await page.next())["view"]["figur"]["name"] == "Alrik"
        page.ws.close()

    run(hammer())
    assert link.token not in server.log()


def test_the_limiter_doubles_its_pause_and_forgets_after_its_window(monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr(live.time, "monotonic", lambda: clock[0])
    limiter = live.Limiter(limit=3, window=60, first=1, longest=5)
    assert [limiter.fail("a") for _ in range(2)] == [0, 0]
    clock[0] += 61
    assert limiter.fail("a") == 0   # the first two are outside the window
    assert [limiter.fail("a") for _ in range(6)] == [0, 0, 1, 2, 4, 5]
    assert limiter.fail("b") == 0
    clock[0] += 61
    assert limiter.fail("a") == 0 and limiter._failed.keys() == {"a"}   # "b" forgotten
