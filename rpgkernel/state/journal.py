"""Listing, filtering and exporting the journal."""

from __future__ import annotations

import json
from collections import deque
from pathlib import Path
from typing import Any, Mapping

from ..display import Shown
from ..errors import RpgError
from ..messages import labels, t
from .store import Store

_KIND = "journal.kind_"   # catalogue prefix of the journal kinds' German words


class Journal(Shown, tuple[Any, ...]):
    """Journal entries in seq order (a tuple of ``Event``)."""

    @classmethod
    def read(cls, store: Store, kind: str | None = None, figure: str | None = None,
             encounter: str | None = None, last: int | None = None) -> Journal:
        found = (e for e in store.events(kinds=kind)
                 if (figure is None or figure in e.data.get("figures", ()))
                 and (encounter is None or e.data.get("encounter") == encounter))
        return cls(deque(found, maxlen=last) if last else found)

    def to_jsonl(self, path: str | Path | None = None) -> str:
        """One JSON object per line; written to ``path`` when given."""
        text = "".join(e.to_json() + "\n" for e in self)
        if path is not None:
            Path(path).write_text(text, encoding="utf-8")
        return text

    def to_dataframe(self) -> Any:
        """A pandas DataFrame (seq, at, tx, kind, text, encounter, figures, data)."""
        try:
            import pandas as pd
        except ImportError:
            raise RpgError(t("journal.no_pandas")) from None
        rows = [{"seq": e.seq, "at": e.at, "tx": e.tx, "kind": e.kind, "text": e.data.get("text", ""),
                 "encounter": e.data.get("encounter"), "figures": list(e.data.get("figures", ())),
                 "data": json.dumps(e.data, ensure_ascii=False)} for e in self]
        return pd.DataFrame(rows, columns=["seq", "at", "tx", "kind", "text", "encounter", "figures", "data"])


def journal_kinds() -> dict[str, str]:
    """Every journal kind and its German word: ``{"auflösung": "Auflösung", …}``."""
    return {key[len(_KIND):]: word for key, word in labels(_KIND).items()}


def kind_label(kind: str, data: Mapping[str, Any] | None = None) -> str:
    """The word for a journal kind; a kind the catalogue does not know as it is. An entry of the
    order that rolled nothing (``data`` without ``rolls``: a ruleset without an initiative roll, a
    figure moved by hand) reads "Reihenfolge"."""
    if kind == "initiative" and data is not None and not data.get("rolls"):
        return t("journal.order_label")
    return journal_kinds().get(kind, kind)
