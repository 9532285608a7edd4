"""Copying a campaign elsewhere: into a new campaign, or every stored row as
JSON Lines.

``export(campaign, target)`` never changes the source. Into a new campaign
(a SQLite path or PostgreSQL URL holding none yet) it copies every event up
to the campaign's state, damaged ones as stand-ins; into ``*.jsonl`` one
JSON object per stored row, with its ``table``. The report names what was
not copied.
"""

from __future__ import annotations

import copy
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from ..errors import StoreError
from ..messages import t
from ..numerals import integer
from . import address, model
from . import changes as ch
from .damage import EVENTS, SNAPSHOTS, Damage
from .events import Event, new_tx
from .opening import open_store
from .store import check_name, now

if TYPE_CHECKING:
    from .campaign import Campaign


@dataclass(frozen=True)
class Exported:
    """What an export wrote (its text is the German report)."""

    target: str                        # as messages may show it
    rows: int                          # events written (or, for JSON Lines, lines)
    stand_ins: tuple[int, ...] = ()    # seqs written as stand-ins for damaged or missing entries
    repaired: bool = False             # a repair event makes the fold match the source's state
    left_out: tuple[int, int] | None = None  # seqs after the intact part, not copied
    lines: bool = False                # JSON Lines rather than a campaign
    damaged: int = 0                   # damaged rows among the JSON Lines

    def __str__(self) -> str:
        if self.lines:
            return t("campaign.exported_rows", target=self.target, n=integer(self.rows),
                     damaged=integer(self.damaged))
        parts = [t("campaign.exported", target=self.target, n=integer(self.rows))]
        if self.stand_ins:
            parts.append(t("campaign.exported_stand_ins", seqs=_runs(self.stand_ins)))
        if self.repaired:
            parts.append(t("campaign.exported_repaired"))
        if self.left_out:
            parts.append(t("campaign.exported_left_out", first=self.left_out[0], last=self.left_out[1]))
        parts.append(t("campaign.exported_next", target=self.target))
        return " ".join(parts)

    __repr__ = __str__


def export(campaign: Campaign, target: str | os.PathLike[str]) -> Exported:
    where = os.fspath(target)
    if isinstance(where, str) and not address.is_url(where) and where.lower().endswith(".jsonl"):
        return _to_lines(campaign, Path(where))
    return _to_campaign(campaign, where)


def _to_campaign(campaign: Campaign, target: str) -> Exported:
    source = campaign.store
    campaign.refresh()
    known = copy.deepcopy(campaign._state)
    end = known["seq"]
    source.check()
    kept: list[Event] = []
    stand_ins: list[int] = []
    for item in source.scan():
        if item.seq > end:
            break
        if isinstance(item, Damage):
            first = cast(int, item.seq)    # a damaged run of events names its seqs
            last = first if item.last is None else min(item.last, end)
            for seq in range(first, last + 1):
                kept.append(_stand_in(item, seq))
                stand_ins.append(seq)
        else:
            kept.append(item)
    while len(kept) < end:  # the journal (or what can be read of it) ends before the state's snapshot
        seq = len(kept) + 1
        kept.append(_stand_in(Damage(EVENTS, seq, t("store.damage_missing")), seq))
        stand_ins.append(seq)
    folded = _fold(kept, stand_ins)
    repair = ch.diff(_without_seq(folded), _without_seq(known))
    if repair:
        kept.append(Event(model.REPAIR, {"text": t("journal.repair", seqs=_runs(sorted(stand_ins))),
                                         "changes": repair}, new_tx(), end + 1, now()))
    final = max([source.last_seq()] + [d.last or d.seq for d in source.damage
                                       if d.table == EVENTS and d.seq is not None])
    store = open_store(target, source.campaign)
    try:
        store.restore(kept)
        copied = type(campaign)(store)  # folds it as anyone who opens it will, and keeps a snapshot
        if _without_seq(copied._state) != _without_seq(known):
            raise RuntimeError("the exported journal does not fold to the state of its source")
        shown = store.where
    finally:
        store.close()
    return Exported(shown, len(kept), tuple(sorted(stand_ins)), bool(repair),
                    (end + 1, final) if final > end else None)


def _fold(kept: list[Event], stand_ins: list[int]) -> dict[str, Any]:
    """The state ``kept`` folds to; an event that does not fold (it needed a lost one) becomes a stand-in."""
    state = model.initial()
    start = 0
    while True:
        try:
            return model.fold(state, kept[start:], copy_values=True)
        except model.FoldError as err:
            i = err.seq - 1
            kept[i] = _stand_in(Damage(EVENTS, err.seq, err.reason), err.seq, kept[i])
            stand_ins.append(err.seq)
            state = model.fold(model.initial(), kept[:i + 1], copy_values=True)
            start = i + 1


def _stand_in(damage: Damage, seq: int, event: Event | None = None) -> Event:
    """The entry standing in for a damaged one: same seq, its tx and time where readable."""
    raw = damage.raw or {}
    tx, at = (event.tx, event.at) if event is not None else (raw.get("tx"), raw.get("at"))
    try:
        tx = check_name("tx", tx)
    except StoreError:
        tx = new_tx()
    if type(at) is not str or not at or len(at) > 64 or not at.isprintable() or not at.isascii():
        at = now()
    return Event(model.DAMAGED, {"text": t("journal.damaged", seq=seq, reason=damage.reason)}, tx, seq, at)


def _without_seq(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k != "seq"}


def _to_lines(campaign: Campaign, path: Path) -> Exported:
    source = campaign.store
    found = source.check()
    rows = damaged = 0
    seen: set[tuple[str, int | None]] = set()
    try:
        with open(path, "w", encoding="utf-8") as out:
            def write(line: dict[str, Any]) -> None:
                out.write(json.dumps(line, ensure_ascii=False, allow_nan=False) + "\n")

            for item in source.scan():
                if isinstance(item, Damage):
                    seen.add((item.table, item.seq))
                    damaged += 1
                    write(item.to_dict())
                else:
                    write({"table": EVENTS, **item.to_dict()})
                rows += 1
            for damage in found:  # the end of the journal, the head row: not rows of their own
                if (damage.table, damage.seq) not in seen:
                    damaged += 1
                    rows += 1
                    write(damage.to_dict())
            for snapshot in source.snapshots():
                if isinstance(snapshot, Damage):
                    damaged += 1
                    write(snapshot.to_dict())
                else:
                    write({"table": SNAPSHOTS, "seq": snapshot[0], "state": snapshot[1]})
                rows += 1
    except OSError as err:
        raise StoreError(t("campaign.export_failed", target=str(path), error=err.strerror or err)) from None
    return Exported(str(path), rows, lines=True, damaged=damaged)


def _runs(seqs: list[int] | tuple[int, ...]) -> str:
    """``1, 4–6, 9`` for the seqs 1, 4, 5, 6, 9."""
    out: list[str] = []
    start = prev = None
    for seq in list(seqs) + [None]:
        if seq is not None and prev is not None and seq == prev + 1:
            prev = seq
            continue
        if start is not None:
            out.append(str(start) if start == prev else f"{start}–{prev}")
        start = prev = seq
    return ", ".join(out)
