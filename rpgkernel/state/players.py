"""Player links: one capability per figure of a campaign, for the player pages the server serves.

A link's token is handed out once, in the ``PlayerLink`` that creates it; the campaign keeps its
SHA-256 with the link's public id and figure. Links are revoked, renewed, limited (``limited``)
and lifted (``lift``); each campaign with links has a stable random ``key`` for its address and
the server's ``registry``. No journal text names a token.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Mapping, cast

from ..messages import t
from . import model
from .transaction import CampaignError, Transaction

KIND = "spielerlink"   # journal kind of every change to the links
PATH = "rpgkernel/spieler/"   # the pages' place under the Jupyter server's base URL


@dataclass(frozen=True)
class PlayerLink:
    """A new link: ``token`` is shown only here (its repr leaves it out); ``url`` is its page."""

    id: str
    figure: str
    created: str
    key: str
    token: str = field(repr=False)

    def url(self, base_url: str = "/") -> str:
        """The page's address under ``base_url``; the token is in the fragment (never sent in a request)."""
        return f"{base_url.rstrip('/')}/{PATH}{self.key}/#{self.token}"

    def __repr__(self) -> str:
        return f"<PlayerLink {self.id} {self.figure}>"


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def campaign_key(state: Mapping[str, Any]) -> str | None:
    return cast("str | None", state.get("players", {}).get("key"))


def listing(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every link: ``{id, figure, created, revoked, limit}`` (revoked: when, or None; limit: the
    actions refused beyond its limit since the GM last lifted it, ``{hits, last}``, or None), oldest first."""
    return [{"id": i, "figure": link["figure"], "created": link["created"], "revoked": link["revoked"],
             "limit": {"hits": link["limit"]["hits"], "last": link["limit"]["last"]}
             if link.get("limit", {}).get("hits") else None}
            for i, link in state.get("players", {}).get("links", {}).items()]


def create(tx: Transaction, figure: str) -> PlayerLink:
    """A new link for ``figure`` (a character or a combatant of the active encounter), in ``tx``."""
    if model.figure_path(tx.state, figure) is None:
        raise CampaignError(t("campaign.unknown_figure", name=figure))
    if "players" not in tx.state:
        tx.set(["players"], {"key": secrets.token_hex(16), "links": {}})
    links = tx.state["players"]["links"]
    link_id = secrets.token_hex(4)
    while link_id in links:
        link_id = secrets.token_hex(4)
    token, created = secrets.token_urlsafe(32), _now()
    tx.set(["players", "links", link_id], {"figure": figure, "hash": digest(token), "created": created,
                                           "revoked": None})
    tx.event(KIND, t("journal.player_link", figure=figure, id=link_id), [figure], id=link_id)
    return PlayerLink(link_id, figure, created, tx.state["players"]["key"], token)


def revoke(tx: Transaction, link_id: str, renewing: bool = False) -> str:
    """Revoke the link ``link_id`` in ``tx``; its figure. Renewing, a revoked link stays as it is."""
    link = _link(tx, link_id)
    if link["revoked"] is not None:
        if renewing:
            return cast("str", link["figure"])
        raise CampaignError(t("players.revoked_already", id=link_id, figure=link["figure"]))
    tx.set(["players", "links", link_id, "revoked"], _now())
    tx.event(KIND, t("journal.player_link_revoked", figure=link["figure"], id=link_id), [link["figure"]],
             id=link_id)
    return cast("str", link["figure"])


def link_for(state: Mapping[str, Any], token: object) -> str | None:
    """The id of the live link whose token ``token`` is, when its figure is still in the campaign;
    None for a wrong, revoked or guessed token. Every link's hash is compared in constant time."""
    if not isinstance(token, str) or not token or len(token) > 200:
        return None
    wanted, found = digest(token), None
    links = state.get("players", {}).get("links", {})
    for link_id, link in links.items():
        if hmac.compare_digest(wanted, link["hash"]) and link["revoked"] is None:
            found = link_id
    if found is None or model.figure_path(dict(state), links[found]["figure"]) is None:
        return None
    return cast("str | None", found)


def figure_for(state: Mapping[str, Any], token: object) -> str | None:
    """The figure whose live link ``token`` is (``link_for``); None when there is none."""
    link_id = link_for(state, token)
    return None if link_id is None else state["players"]["links"][link_id]["figure"]


def lifts(state: Mapping[str, Any], link_id: str) -> int:
    """How often the GM has lifted the limit of the link ``link_id``."""
    return int(state["players"]["links"][link_id].get("limit", {}).get("lifts", 0))


def limited(tx: Transaction, link_id: str, hits: int) -> None:
    """Note in ``tx`` that the server refused ``hits`` more actions of ``link_id`` beyond its limit."""
    link = _link(tx, link_id)
    tx.set(["players", "links", link_id, "limit"], {"hits": link.get("limit", {}).get("hits", 0) + hits,
                                                   "last": _now(), "lifts": lifts(tx.state, link_id)})
    tx.event(KIND, t("journal.player_limited", figure=link["figure"], id=link_id, n=hits), [link["figure"]],
             id=link_id)


def lift(tx: Transaction, link_id: str) -> str:
    """Lift the limit of the link ``link_id`` in ``tx``: its buckets are full again and its count of
    refusals starts anew; its figure."""
    link = _link(tx, link_id)
    tx.set(["players", "links", link_id, "limit"], {"hits": 0, "last": None, "lifts": lifts(tx.state, link_id) + 1})
    tx.event(KIND, t("journal.player_limit_lifted", figure=link["figure"], id=link_id), [link["figure"]],
             id=link_id)
    return str(link["figure"])


def _link(tx: Transaction, link_id: str) -> dict[str, Any]:
    link = tx.state.get("players", {}).get("links", {}).get(link_id)
    if link is None:
        known = ", ".join(tx.state.get("players", {}).get("links", {})) or "–"
        raise CampaignError(t("players.unknown", id=link_id, known=known))
    return cast("dict[str, Any]", link)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
