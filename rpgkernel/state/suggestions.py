"""Players' suggestions: what a player may not decide alone reaches the GM as a suggestion, which
the GM accepts or declines.

A suggestion keeps its figure, the text (at most ``MAX_TEXT`` characters, no control
characters), when it came and the answer (None, ``angenommen`` or ``abgelehnt``). Each change
is an undoable transaction (event ``vorschlag``); accepting changes nothing else.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timezone
from typing import Any, Mapping

from ..messages import t
from . import model
from .transaction import CampaignError, Transaction

KIND = "vorschlag"   # journal kind of every change to the suggestions
MAX_TEXT = 500       # characters of one suggestion
MAX_OPEN = 50        # open suggestions of one figure at a time
ANSWERS = {True: "angenommen", False: "abgelehnt"}


def listing(state: Mapping[str, Any], figure: str | None = None) -> list[dict[str, Any]]:
    """Every suggestion (of ``figure``): ``{id, figure, text, created, answer}``, oldest first."""
    return [{"id": i, "figure": s["figure"], "text": s["text"], "created": s["created"], "answer": s["answer"]}
            for i, s in state.get("suggestions", {}).items() if figure is None or s["figure"] == figure]


def create(tx: Transaction, figure: str, text: object) -> str:
    """A new suggestion of ``figure``'s player in ``tx``; its id."""
    if model.figure_path(tx.state, figure) is None:
        raise CampaignError(t("campaign.unknown_figure", name=figure))
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_TEXT \
            or any(ord(c) < 32 and c != "\n" or c == "\x7f" for c in text):
        raise CampaignError(t("suggestion.bad_text", max=MAX_TEXT))
    if sum(1 for s in listing(tx.state, figure) if s["answer"] is None) >= MAX_OPEN:
        raise CampaignError(t("suggestion.too_many", max=MAX_OPEN))
    if "suggestions" not in tx.state:
        tx.set(["suggestions"], {})
    known = tx.state["suggestions"]
    sid = secrets.token_hex(4)
    while sid in known:
        sid = secrets.token_hex(4)
    text = text.strip()
    tx.set(["suggestions", sid], {"figure": figure, "text": text, "created": _now(), "answer": None})
    tx.event(KIND, t("journal.suggestion", figure=figure, id=sid, text=text), [figure], tx.state["active_encounter"],
             id=sid)
    return sid


def answer(tx: Transaction, sid: str, accepted: bool) -> dict[str, Any]:
    """Accept or decline the open suggestion ``sid`` in ``tx``; the suggestion as ``listing`` shows it."""
    found = tx.state.get("suggestions", {}).get(sid)
    if found is None:
        known = ", ".join(s["id"] for s in listing(tx.state) if s["answer"] is None) or "–"
        raise CampaignError(t("suggestion.unknown", id=sid, known=known))
    if found["answer"] is not None:
        raise CampaignError(t("suggestion.answered", id=sid, answer=found["answer"]))
    tx.set(["suggestions", sid, "answer"], ANSWERS[accepted])
    done = next(s for s in listing(tx.state) if s["id"] == sid)
    tx.event(KIND, answered(done), [found["figure"]], tx.state["active_encounter"], id=sid, answer=ANSWERS[accepted])
    return done


def answered(suggestion: Mapping[str, Any]) -> str:
    """What the GM's answer to ``suggestion`` (as ``listing`` shows it) did, as the journal says it."""
    return t("journal.suggestion_" + suggestion["answer"], figure=suggestion["figure"], id=suggestion["id"],
             text=suggestion["text"])


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
