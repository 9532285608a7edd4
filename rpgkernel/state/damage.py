"""What is damaged in a campaign, and the error that says so.

Each finding of a store's or campaign's checks is a ``Damage`` naming the table and the seq;
``CampaignDamaged`` is the German error that lists them and says how to get at the intact part
(``docs/kampagne.md``, "Beschädigte Kampagnen").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import StoreError
from ..messages import t

EVENTS, SNAPSHOTS, HEADS, FILE = "rpg_events", "rpg_snapshots", "rpg_heads", ""
SHOWN = 5  # damage named in one message


@dataclass(frozen=True, order=True)
class Damage:
    """One damaged thing: a journal row (or a run of missing ones), a snapshot, the file."""

    table: str                    # EVENTS, SNAPSHOTS, HEADS, or FILE for the file as a whole
    seq: int | None               # the (first) seq concerned; None for the file or the head
    reason: str = field(compare=False)                   # German
    last: int | None = field(default=None, compare=False)  # the last seq of a run
    raw: dict[str, Any] | None = field(default=None, compare=False, repr=False)  # the columns as stored

    @property
    def fatal(self) -> bool:
        """Whether it concerns the journal (a snapshot is only a cache of it)."""
        return self.table != SNAPSHOTS

    def __str__(self) -> str:
        if self.table == FILE:
            return self.reason
        if self.table == SNAPSHOTS:
            return t("damage.snapshot", seq=self.seq, reason=self.reason)
        if self.seq is None:
            return t("damage.table", table=self.table, reason=self.reason)
        if self.last is not None and self.last != self.seq:
            return t("damage.rows", table=self.table, seq=self.seq, last=self.last, reason=self.reason)
        return t("damage.row", table=self.table, seq=self.seq, reason=self.reason)

    def to_dict(self) -> dict[str, Any]:
        """For the JSON Lines export: where, what, and the stored columns as far as readable."""
        out: dict[str, Any] = {"table": self.table or None, "seq": self.seq}
        if self.last is not None:
            out["last"] = self.last
        out["damage"] = self.reason
        if self.raw is not None:
            out["raw"] = {k: plain(v) for k, v in self.raw.items()}
        return out


def listing(damage: list[Damage] | tuple[Damage, ...]) -> str:
    """The first findings in a line (``SHOWN`` of them), and how many more there are."""
    text = "; ".join(str(d) for d in damage[:SHOWN])
    return text + (" " + t("damage.more", n=len(damage) - SHOWN) if len(damage) > SHOWN else "")


def plain(value: Any) -> Any:
    """A stored value as JSON can hold it (undecodable bytes written as escapes)."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "backslashreplace")
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return value.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return value


class CampaignDamaged(StoreError):
    """A campaign with damage: the German message names it and the way to the intact part.

    ``damage`` holds the findings (``Damage``); nothing has been changed.
    Without ``hint`` (a read-only open that could read nothing) the message
    does not point to reading it.
    """

    def __init__(self, where: str, damage: list[Damage] | tuple[Damage, ...], hint: bool = True) -> None:
        self.where = where
        self.damage = tuple(sorted(damage))
        listed = listing(self.damage)
        quoted = f'"{where}"' if any(c.isspace() for c in where) else where
        after = t("store.damaged_hint", where=quoted) if hint else t("store.damaged_unreadable")
        super().__init__(t("store.damaged", where=where, what=listed) + "\n" + after)
