"""Where the server finds a campaign by its key: ``rpgkernel-kampagnen.json`` in the Jupyter runtime
dir (``{key: {"address": ..., "campaign": ...}}``).

The kernel writes it whenever a player link is made, atomically, owner-readable only, under the
lock file ``LOCK``; the server only reads it. It holds a PostgreSQL address in full and is never
shown.
"""

from __future__ import annotations

import json
import os
import secrets
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

NAME = "rpgkernel-kampagnen.json"
LOCK = NAME + ".lock"


def path() -> Path:
    from jupyter_core.paths import jupyter_runtime_dir
    return Path(jupyter_runtime_dir()) / NAME


def read() -> dict[str, dict[str, Any]]:
    try:
        found = json.loads(path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def lookup(key: str) -> tuple[str, str | None] | None:
    """The store address and campaign name of the campaign ``key``, or None."""
    entry = read().get(key)
    if not isinstance(entry, dict) or not isinstance(entry.get("address"), str):
        return None
    return entry["address"], entry.get("campaign")


def register(key: str, address: str, campaign: str | None) -> None:
    """Keep (or update) where the campaign ``key`` lives."""
    with _locked() as target:
        entries = read()
        if entries.get(key) == {"address": address, "campaign": campaign}:
            return
        entries[key] = {"address": address, "campaign": campaign}
        tmp = target.with_name(f".{NAME}.{os.getpid()}-{secrets.token_hex(4)}")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(entries, out)
            os.replace(tmp, target)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise


@contextmanager
def _locked() -> Iterator[Path]:
    """The registry's path, held for one read-modify-write: the exclusive lock on ``LOCK`` (made
    readable by its owner only), released when the block ends (or its process does)."""
    from filelock import FileLock
    target = path()
    target.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(target.with_name(LOCK), mode=0o600):
        yield target
