"""Opening a campaign's store: the backend follows from the address (a SQLite path or a PostgreSQL URL)."""

from __future__ import annotations

import os
from typing import Any

from ..errors import StoreError
from ..messages import t
from . import address
from .postgres import PostgresStore
from .sqlite import SQLiteStore
from .store import Store


def open_store(path_or_url: str | os.PathLike[str], campaign: str | None = None, **options: Any) -> Store:
    """Open (or create) the store of ``campaign`` at ``path_or_url``.

    A ``postgresql://`` (or ``postgres://``) URL selects PostgreSQL; anything
    else without a URL scheme is a SQLite file path. ``campaign`` defaults to
    the file's campaign (SQLite) or ``"default"`` (PostgreSQL). With
    ``read_only=True`` nothing is created, migrated or written, and damage is
    listed instead of refused.
    """
    if not isinstance(path_or_url, (str, os.PathLike)):
        raise StoreError(t("store.unknown_scheme", where=repr(path_or_url)))
    target = os.fspath(path_or_url)
    if not isinstance(target, str) or not address.is_url(target):
        if isinstance(target, str) and address.looks_like_conninfo(target):
            raise StoreError(t("store.conninfo", where=address.shown(target)))
        return SQLiteStore(target, campaign, **options)
    scheme = target.split(":", 1)[0].lower()
    if scheme in ("postgresql", "postgres"):
        return PostgresStore(target, campaign, **options)
    raise StoreError(t("store.unknown_scheme", where=address.shown(target)))
