"""rpgkernel's Jupyter server extension, enabled by installing the package (the file
``jupyter-config/jupyter_server_config.d/rpgkernel.json``, installed into the environment's
``etc/jupyter``): the file browser hides the side files of SQLite campaigns (``-wal``,
``-shm``), so a campaign shows once. What is hidden already (the defaults, the user's
``hide_globs``) stays hidden. It also serves the player pages (``live``): each player link
opens its figure's live page under ``{base_url}rpgkernel/spieler/``.
"""

from __future__ import annotations

from typing import Any

#: the side files SQLite keeps next to a campaign file in WAL mode
SIDE_FILES = ("*.sqlite-wal", "*.sqlite-shm", "*.sqlite3-wal", "*.sqlite3-shm", "*.db-wal", "*.db-shm")


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "rpgkernel.server"}]


def _load_jupyter_server_extension(serverapp: Any) -> None:
    manager = serverapp.contents_manager
    manager.hide_globs = [*manager.hide_globs, *(g for g in SIDE_FILES if g not in manager.hide_globs)]
    from .live import handlers
    serverapp.web_app.add_handlers(".*$", handlers(serverapp.web_app.settings["base_url"]))
