"""Journal events: immutable records of what a roll or a procedure changed.

An event says what happened (``kind``), with which values (``data``, a JSON
object stored verbatim) and in which transaction (``tx``: the events of one
applied resolution share it and are written atomically). The store assigns
``seq`` (strictly increasing per campaign) and ``at`` (UTC time, for people
only: logic never depends on it).
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, replace
from typing import Any


def new_tx() -> str:
    """A fresh transaction id (random, 32 hex digits)."""
    return uuid.uuid4().hex


@dataclass(frozen=True, slots=True)
class Event:
    """One journal entry.

    ``data`` is not deep-frozen: treat it as read-only. Events read from a
    store carry their own copy, parsed from the stored JSON.
    """

    kind: str
    data: dict[str, Any]
    tx: str
    seq: int | None = None
    at: str | None = None

    def with_position(self, seq: int, at: str) -> Event:
        """This event as stored at ``seq``, written at ``at``."""
        return replace(self, seq=seq, at=at)

    def to_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "at": self.at, "tx": self.tx, "kind": self.kind, "data": self.data}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Event:
        return cls(kind=d["kind"], data=d["data"], tx=d["tx"], seq=d.get("seq"), at=d.get("at"))

    def to_json(self) -> str:
        """One line of JSON (for JSON-lines export)."""
        return json.dumps(self.to_dict(), ensure_ascii=False, allow_nan=False)

    @classmethod
    def from_json(cls, text: str) -> Event:
        return cls.from_dict(json.loads(text))
