"""The player links of ``%rpg spieler``: the list, and a new link as a clickable URL and a QR code.

The front end builds the absolute URL and asks for its QR code (``segno``); reached by a
loopback address, it offers the machine's network addresses (``on_netz``). The token travels
only in custom messages, never in a trait or an output.
"""

from __future__ import annotations

from typing import Any

import traitlets

from .. import local_addresses
from ..errors import RpgError
from ..messages import t
from ..render import shown_time
from ..state import Campaign
from ..state.players import PATH, PlayerLink
from .base import Widget


class PlayerLinks(Widget):
    """The campaign's player links; ``fresh`` is the one just made or renewed (its token kept here only)."""

    parts = ("players.js",)
    styles = ("players.css",)
    label_prefixes = ("widget.players.",)

    rows = traitlets.List().tag(sync=True)
    fresh_id = traitlets.Unicode("").tag(sync=True)
    fresh_figure = traitlets.Unicode("").tag(sync=True)

    def __init__(self, campaign: Campaign, fresh: PlayerLink | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.campaign = campaign
        self._fresh = fresh
        self._texts()
        if fresh is not None:
            self.fresh_id, self.fresh_figure = fresh.id, fresh.figure

    def _texts(self) -> None:
        self.rows = [{**link, "created": shown_time(link["created"]), "limit": _limit(link["limit"])}
                     for link in self.campaign.player_links()]

    def on_link(self, _content: dict[str, Any]) -> None:
        """The front end asks for the new link's parts (its key and token) to build the URL."""
        if self._fresh is not None:
            self.send({"type": "link", "key": self._fresh.key, "token": self._fresh.token, "path": PATH})

    def on_qr(self, content: dict[str, Any]) -> None:
        """The QR code (an SVG data URI) of ``content["url"]``: the new link's absolute URL only."""
        import segno
        url, fresh = content.get("url"), self._fresh
        if fresh is None or not isinstance(url, str) or not url.endswith(f"/{PATH}{fresh.key}/#{fresh.token}") \
                or not url.startswith(("http://", "https://")) or len(url) > 2000:
            raise RpgError(t("widget.players.bad_url"))
        self.send({"type": "qr", "svg": segno.make(url, error="m").svg_data_uri(scale=4, border=4)})

    def on_netz(self, content: dict[str, Any]) -> None:
        """The front end reached the server by a loopback address: the machine's network addresses on
        which the server's ``content["port"]`` answers (``local_addresses``), for links a phone reaches."""
        port = content.get("port")
        if self._fresh is None or type(port) is not int or not 0 < port < 65536:
            raise RpgError(t("widget.players.bad_port"))
        self.send({"type": "netz", "addresses": local_addresses.listening(port)})

    def text(self) -> str:
        lines = [t("widget.players.title")]
        if self._fresh is not None:
            lines.append(t("widget.players.fresh_text", id=self._fresh.id, figure=self._fresh.figure))
        for row in self.rows:
            state = t("widget.players.revoked") if row["revoked"] else t("widget.players.live")
            lines.append(f"{row['id']}  {row['figure']}  {row['created']}  {state}"
                         + (f"; {row['limit']}" if row["limit"] else ""))
        if not self.rows:
            lines.append(t("widget.players.none"))
        return "\n".join(lines)


def _limit(limit: dict[str, Any] | None) -> str:
    """What the list says of the actions the server refused beyond a link's limit ("" for none)."""
    return t("widget.players.limited", hits=limit["hits"], last=shown_time(limit["last"])) if limit else ""
