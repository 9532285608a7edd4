"""The player pages: ``{base_url}rpgkernel/spieler/<key>/`` (the page) and
``.../<key>/ws`` (its websocket).

Authentication: both are public (``@allow_unauthenticated``); the
capability is the link's token, sent as the websocket's first message and
checked by the socket (``players.figure_for``). No cookie is read. One
``Watcher`` per campaign pushes each page its view when the store changes.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import logging
import re
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable, Iterable
from urllib.parse import urlparse

from jupyter_server.auth.decorator import allow_unauthenticated
from jupyter_server.base.handlers import JupyterHandler
from jupyter_server.base.websocket import WebSocketMixin
from jupyter_server.utils import url_path_join
from tornado import websocket

from ..errors import RpgError
from ..messages import DEFAULT_LANGUAGE, labels, languages, t, using
from ..state import Campaign, player_view, players, registry
from ..state.address import is_url
from ..state.events import Event
from ..forecast import weighing
from . import actions, chances, quota

WATCH_SECONDS = 0.1
REFUSED, TOO_MANY = 4403, 4429   # close codes the page does not reconnect after
KEY = r"(?P<key>[0-9a-f]{32})"
_HOST = re.compile(r"^[A-Za-z0-9.\-]+(:\d+)?$|^\[[0-9A-Fa-f:.]+\](:\d+)?$")
_HERE = Path(__file__).parent
_log = logging.getLogger(__name__)


def view(campaign: Campaign, figure: str, events: Iterable[Event]) -> dict[str, Any]:
    """What the page of ``figure`` shows: the player's view (``state.player_view.view``, an allow-list
    built per viewer), the journal's visible turn lines (of ``events``) included, each open choice
    with its fields and its advice's chances of winning as far as they are weighed (``chances``)."""
    shown = player_view.view(campaign.folded, figure, events)
    shown["wahlen"] = chances.with_chances(campaign.folded, figure,
                                           actions.with_fields(campaign.folded, campaign.ruleset, shown["wahlen"]),
                                           lambda: campaign.folded)
    return shown


class Limiter:
    """Slows guessing down per client address without touching valid tokens: a token is always
    checked and a valid one passes at once; after ``limit`` failed checks in ``window`` seconds, each
    further failure is answered only after a pause (``first`` seconds, doubling up to ``longest``).
    Behind a hub's proxy every player shares one address, so nobody is ever refused for it."""

    def __init__(self, limit: int = 10, window: float = 60.0, first: float = 1.0, longest: float = 30.0) -> None:
        self.limit, self.window, self.first, self.longest = limit, window, first, longest
        self._failed: dict[str, deque[float]] = {}

    def fail(self, client: str) -> float:
        """Count a failed check of ``client``; the seconds its refusal waits (0: at once)."""
        now = time.monotonic()
        for other in [c for c, f in self._failed.items() if f[-1] < now - self.window]:
            del self._failed[other]   # addresses quiet for a window are forgotten
        failed = self._failed.setdefault(client, deque())
        failed.append(now)
        while failed[0] < now - self.window:
            failed.popleft()
        beyond = len(failed) - self.limit
        return 0.0 if beyond <= 0 else min(self.longest, self.first * 2 ** (beyond - 1))


class Watcher:
    """One campaign's open pages. Everything that reads or writes its store runs in a thread of the
    watcher's own (``run``: opening the campaign, the last seq every ``WATCH_SECONDS``, the pages'
    views, token checks, the players' actions), one job after another; the event loop only pushes
    the frames. A slow store delays its own pages, never another campaign's, nor the server."""

    def __init__(self, key: str, watchers: dict[str, Watcher]) -> None:
        self.key, self._watchers = key, watchers
        self.campaign: Campaign | None = None   # opened in the thread (``open``)
        self.seen = 0
        self.weighed = 0                        # the advice's weighings looked at (``weighing.changes``)
        self.journal: list[Event] = []          # the events the views read, up to ``self.read``
        self.read = 0
        self.sockets: set[PlayerSocket] = set()
        self.arriving = 0                       # pages whose token is being checked
        self.quota = quota.Quota()              # each link's limit (used in the thread)
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="rpgkernel-spieler")
        self._task: asyncio.Task[None] | None = None
        self._failing = False

    async def run(self, job: Callable[..., Any], *args: Any) -> Any:
        """``job(*args)`` in the watcher's thread, after the jobs before it."""
        return await asyncio.get_running_loop().run_in_executor(self._pool, job, *args)

    # -- in the watcher's thread --
    def open(self, address: str, name: str | None) -> bool:
        if not is_url(address) and not Path(address).is_file():
            return False   # moved or deleted: not created anew here
        try:
            self.campaign = Campaign.open(address, name)   # the players' actions write through it
        except RpgError as err:   # its text shows the address without a password (state.address)
            _log.warning("player pages: campaign %s cannot be opened: %s", self.key[:8], err)
            return False
        self.seen, self.weighed = self.campaign.store.last_seq(), weighing.changes()   # what came before is seen
        return True

    def figure_of(self, token: str) -> str | None:
        if self.campaign is None:
            return None
        self.campaign.refresh()
        return players.figure_for(self.campaign.folded, token)

    def language(self, chosen: str) -> str:
        """The language of a page: its player's choice, else the campaign's, else German."""
        assert self.campaign is not None
        found = chosen or self.campaign.folded["settings"].get("language") or DEFAULT_LANGUAGE
        return found if found in languages() else DEFAULT_LANGUAGE

    def frames(self, pages: list[tuple[PlayerSocket, str, str, str]],
               always: bool) -> list[tuple[PlayerSocket, str | None]]:
        """Each page's frame (None: its link no longer holds), in its language, when the store changed
        since the last look (which only a look at every page counts) or ``always``."""
        if self.campaign is None:
            return []
        self.report()
        if not always:
            last, weighed = self.campaign.store.last_seq(), weighing.changes()
            if last == self.seen and weighed == self.weighed:
                return []
            self.seen, self.weighed = last, weighed
        self.campaign.refresh()
        folded = self.campaign.folded
        self._read_journal(folded["seq"])
        texts: dict[tuple[str, str], str] = {}   # pages of one figure in one language share its view
        shown = [(sock, figure, token, self.language(chosen)) for sock, figure, token, chosen in pages]
        for _sock, figure, _token, lang in shown:
            if (figure, lang) not in texts:   # the view's own order
                with using(lang):
                    texts[figure, lang] = json.dumps({"view": view(self.campaign, figure, self.journal),
                                                      "sprache": lang}, ensure_ascii=False)
        return [(sock, texts[figure, lang] if players.figure_for(folded, token) == figure else None)
                for sock, figure, token, lang in shown]

    def _read_journal(self, upto: int) -> None:
        """Read the events the views need once, as they come, up to the folded seq ``upto``."""
        assert self.campaign is not None
        for event in self.campaign.store.events(after=self.read, kinds=player_view.JOURNAL_KINDS):
            if event.seq > upto:
                break
            self.journal.append(event)
        self.read = upto

    def act(self, figure: str, token: str, message: str | bytes, chosen: str = "") -> dict[str, str] | None:
        """A player's action as ``figure``, within its link's limit (``quota``; the refusals beyond it
        journalled at most once a minute), answered in the page's language; None when the link no
        longer holds."""
        assert self.campaign is not None
        self.campaign.refresh()
        with using(self.language(chosen)):
            return self._carry_out(figure, token, message)

    def _carry_out(self, figure: str, token: str, message: str | bytes) -> dict[str, str] | None:
        assert self.campaign is not None
        folded = self.campaign.folded
        link = players.link_for(folded, token)
        if link is None or folded["players"]["links"][link]["figure"] != figure:
            return None
        self.quota.sync(link, players.lifts(folded, link))
        answer = actions.act(self.campaign, figure, message, token,
                             lambda count, work: self.quota.spend(link, count, work))
        self.report()
        return answer

    def report(self) -> None:
        """Journal the links' refusals beyond their limits that are due (``quota.Quota.due``)."""
        assert self.campaign is not None
        for link, hits in self.quota.due():
            self.campaign.note_player_limit(link, hits)

    # -- on the event loop --
    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._watch())

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(WATCH_SECONDS)
            try:
                await self.push()
                self._failing = False
            except Exception as err:   # the store unreachable for a while: tried again, said once
                if not self._failing:
                    _log.warning("player pages of a campaign: its store failed (%s)", type(err).__name__)
                self._failing = True

    async def push(self, only: PlayerSocket | None = None) -> None:
        """Push each page (or ``only`` that one, whatever changed) its view if it changed; close a page
        whose link no longer holds."""
        pages = [(s, s.figure, s.token, s.language) for s in ([only] if only else self.sockets)]
        for sock, text in await self.run(self.frames, pages, only is not None):
            if sock not in self.sockets:
                continue   # closed meanwhile
            if text is None:
                sock.close(REFUSED, t("page.revoked"))
                self.drop(sock)
            elif text != sock.last:
                sock.last = text
                sock.write_message(text)

    def drop(self, sock: PlayerSocket | None = None) -> None:
        """``sock`` gone; the last page gone (and none arriving), the watcher ends."""
        if sock is not None:
            self.sockets.discard(sock)
        if self.sockets or self.arriving or self._watchers.get(self.key) is not self:
            return
        self._watchers.pop(self.key, None)
        if self._task is not None:
            self._task.cancel()
        if self.campaign is not None:
            self._pool.submit(self.campaign.close)   # after the jobs before it
        self._pool.shutdown(wait=False)


class PageHandler(JupyterHandler):
    """The page itself: the same for every key (it tells nothing about which keys exist)."""

    @property
    def content_security_policy(self) -> str:
        host = self.request.headers.get("Host", "")
        sockets = f" ws://{host} wss://{host}" if _HOST.match(host) else ""
        return ("sandbox allow-scripts; default-src 'none'; "
                f"script-src '{_PAGE['script_hash']}'; style-src '{_PAGE['style_hash']}'; "
                f"connect-src{sockets or ' ' + chr(39) + 'none' + chr(39)}; img-src 'none'; base-uri 'none'; "
                "form-action 'none'; frame-ancestors 'none'")

    def set_default_headers(self) -> None:
        super().set_default_headers()
        self.set_header("Referrer-Policy", "no-referrer")
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("Cache-Control", "no-store")

    @allow_unauthenticated
    def get(self, key: str) -> None:
        """Authentication: none (public); the page holds nothing, its socket checks the link's token."""
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(_PAGE["html"])


class PlayerSocket(WebSocketMixin, websocket.WebSocketHandler, JupyterHandler):
    """A page's live view; its first message is the link's token."""

    watchers: dict[str, Watcher] = {}
    limiter = Limiter()

    token: str | None = None
    figure: str | None = None
    last: str = ""
    watcher: Watcher | None = None
    language: str = ""   # the player's choice ("": the campaign's language)

    @allow_unauthenticated
    async def get(self, *args: Any, **kwargs: Any) -> None:
        """Authentication: the upgrade is public (no login, no cookie read); the socket's first message
        must be a live link's token (``on_message``), and nothing is sent or done before it holds."""
        return await super().get(*args, **kwargs)

    def check_origin(self, origin: str | None = None) -> bool:
        origin = self.request.headers.get("Origin") if origin is None else origin
        if origin is None or origin == "null":
            return True
        return urlparse(origin.lower()).netloc == self.request.headers.get("Host", "").lower()

    def open(self, key: str) -> None:   # type: ignore[override]
        self.key = key
        return super().open()

    async def on_message(self, message: str | bytes) -> None:   # the next after this one has ended
        if self.figure is not None:
            return await self._act(message)
        client = self.request.remote_ip or ""
        token = message if isinstance(message, str) else ""
        watcher = await self._watcher()
        figure = None
        if watcher is not None:
            watcher.arriving += 1
            try:
                figure = await watcher.run(watcher.figure_of, token)
            finally:
                watcher.arriving -= 1
        if figure is None or self.ws_connection is None:
            if watcher is not None:
                watcher.drop()   # no page left: the watcher ends
            if figure is None:
                pause = self.limiter.fail(client)
                if not pause:
                    return self._refuse(REFUSED, t("page.refused"))
                await asyncio.sleep(pause)
                self._refuse(TOO_MANY, t("page.too_many"))
            return
        self.token, self.figure, self.watcher = token, figure, watcher
        watcher.sockets.add(self)
        await watcher.push(self)

    async def _watcher(self) -> Watcher | None:
        """The watcher of this page's campaign: the running one, or one made for it (None: no
        campaign has the key, or its store cannot be opened)."""
        watcher = self.watchers.get(self.key)
        if watcher is not None:
            return watcher
        found = await asyncio.get_running_loop().run_in_executor(None, registry.lookup, self.key)
        if self.key in self.watchers or found is None:   # another page made it meanwhile
            return self.watchers.get(self.key)
        watcher = self.watchers[self.key] = Watcher(self.key, self.watchers)
        watcher.arriving += 1
        try:
            opened = await watcher.run(watcher.open, *found)
        finally:
            watcher.arriving -= 1
        if not opened:
            watcher.drop()
            return None
        watcher.start()
        return watcher

    async def _act(self, message: str | bytes) -> None:
        """A player's action, as the link's figure; the answer to this page, the new views to all. A
        language chosen on the page (``{"type": "sprache", "sprache": "en"}``, "" for the campaign's)
        changes this page only and is no action."""
        watcher = self.watcher
        assert watcher is not None and self.token is not None and self.figure is not None
        chosen = _language_choice(message)
        if chosen is not None:
            self.language = chosen
            return await watcher.push(self)
        answer = await watcher.run(watcher.act, self.figure, self.token, message, self.language)
        if self not in watcher.sockets:
            return   # closed meanwhile
        if answer is None:
            return await watcher.push(self)   # the link no longer holds: its page closes
        self.write_message(json.dumps(answer, ensure_ascii=False))
        await watcher.push()

    def _refuse(self, code: int, reason: str) -> None:
        if self.ws_connection is None:
            return   # closed meanwhile
        self.write_message(json.dumps({"error": reason}, ensure_ascii=False))
        self.close(code, reason)

    def on_close(self) -> None:
        if self.watcher is not None:
            self.watcher.drop(self)


def _language_choice(message: str | bytes) -> str | None:
    """The language a page's message chooses ("": the campaign's), or None for any other message."""
    try:
        data = json.loads(message) if isinstance(message, str) and len(message) < 100 else None
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("type") != "sprache" or len(data) != 2:
        return None
    chosen = data.get("sprache")
    return chosen if isinstance(chosen, str) and (chosen == "" or chosen in languages()) else None


def _page() -> dict[str, str]:
    """The page, the same for every key and language: the labels of every language in it (the page
    shows those of the language its frames come in)."""
    script, style = (_HERE / "page.js").read_text("utf-8"), (_HERE / "page.css").read_text("utf-8")
    every = {}
    for lang in languages():
        with using(lang):
            every[lang] = {k[len("page."):]: v for k, v in labels("page.").items()}
    texts = json.dumps(every, ensure_ascii=False).replace("<", "\\u003c")

    def digest(text: str) -> str:
        return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode()

    html = ("<!doctype html>\n<html lang=\"de\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            "<meta name=\"referrer\" content=\"no-referrer\">"
            f"<title>{t('page.title')}</title><style>{style}</style></head>"
            f"<body><div id=\"status\">{t('page.connecting')}</div><main id=\"inhalt\"></main>"
            f"<script type=\"application/json\" id=\"labels\">{texts}</script>"
            f"<script>{script}</script></body></html>\n")
    return {"html": html, "script_hash": digest(script), "style_hash": digest(style)}


_PAGE = _page()


def handlers(base_url: str) -> list[tuple[str, type]]:
    """The player pages' handlers under ``base_url``."""
    place = url_path_join(base_url, players.PATH)
    return [(url_path_join(place, KEY) + "/", PageHandler), (url_path_join(place, KEY, "ws"), PlayerSocket)]
