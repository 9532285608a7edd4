"""Player notebooks and Binder links: a character's sheet, dice tray and state for one player.

``%rpg binder OWNER/REPO [REF]`` keeps where the GM's binder is published
(campaign data ``binder``); ``%rpg teilen FIGUR`` writes a notebook for one
character and gives the Binder link that opens it once it is pushed. The
player's notebook carries a snapshot of the character (sheet, resources,
conditions) as data in its metadata and opens its own campaign file, so it runs anywhere.
"""

from __future__ import annotations

import html
import json
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping
from urllib.parse import quote, urlsplit

from . import rules
from .errors import RpgError
from .messages import t
from .render.base import style
from .state import Campaign
from .state import model, player_view
from .state.tracker import hidden

BINDER_SERVER = "https://mybinder.org"
DATA_KEY = "binder"
METADATA = "rpgkernel"   # the player notebook's metadata key: the figure it carries
_GITHUB = re.compile(r"^(?:https?://github\.com/|gh/)?([\w.-]+)/([\w.-]+?)(?:\.git)?/?$")


@dataclass(frozen=True)
class Binder:
    """Where a repository is published: ``spec`` is Binder's provider path (``gh/owner/repo``)."""

    spec: str
    ref: str = "main"
    server: str = BINDER_SERVER

    @classmethod
    def parse(cls, repository: str, ref: str | None = None, server: str | None = None) -> Binder:
        """From ``owner/repo``, a GitHub or GitLab address, or any public git URL (https)."""
        repository = repository.strip()
        for address in (repository, server or ""):
            if urlsplit(address).username is not None:  # a token would land in the journal and the public link
                raise RpgError(t("share.credentials"))
        m = _GITHUB.match(repository)
        if m:
            spec = f"gh/{m[1]}/{m[2]}"
        else:
            parts = urlsplit(repository)
            if parts.scheme != "https" or not parts.netloc or not parts.path.strip("/"):
                raise RpgError(t("share.bad_repository", repository=repository))
            path = parts.path.strip("/").removesuffix(".git")
            spec = (f"gl/{quote(path, safe='')}" if parts.netloc == "gitlab.com"
                    else f"git/{quote(repository, safe='')}")
        ref = (ref or "main").strip()
        if not ref or any(c.isspace() for c in ref):
            raise RpgError(t("share.bad_ref", ref=ref))
        server = (server or BINDER_SERVER).rstrip("/")
        if urlsplit(server).scheme not in ("http", "https"):
            raise RpgError(t("share.bad_server", server=server))
        return cls(spec, ref, server)

    def link(self, path: str) -> str:
        """The launch link that opens ``path`` (relative to the repository root) in JupyterLab."""
        return (f"{self.server}/v2/{self.spec}/{quote(self.ref, safe='')}"
                f"?urlpath={quote('lab/tree/' + path, safe='/')}")

    def to_dict(self) -> dict[str, str]:
        return {"spec": self.spec, "ref": self.ref, "server": self.server}


def configure(campaign: Campaign, repository: str, ref: str | None = None,
              server: str | None = None) -> Binder:
    """Keep the GM's Binder repository in the campaign (once; it survives restarts)."""
    binder = Binder.parse(repository, ref, server)
    campaign.set_data(DATA_KEY, binder.to_dict())
    return binder


def configured(campaign: Campaign) -> Binder | None:
    data = campaign.data(DATA_KEY)
    return None if data is None else Binder(**data)


def snapshot(campaign: Campaign, name: str) -> dict[str, Any]:
    """What a player's notebook carries of ``name``: the player's own figure as the live player view
    shows it (``state.player_view.own``: ruleset, the sheet's fields, resources, conditions, and why
    the figure is out of the fight, if it is; nothing that names a hidden combatant). A hidden
    combatant is not shared at all."""
    campaign.figure(name)  # a German error for an unknown figure
    state = campaign.state
    active = state["encounters"].get(state["active_encounter"] or "")
    if active is not None and active["combatants"].get(name, {}).get("hidden"):
        raise RpgError(t("share.hidden", name=name))
    record = model.seen_by_rules(state, name)
    assert record is not None
    return player_view.own(state, name, hidden(state) - {record["name"]})


def figure_of(notebook: str | Path) -> dict[str, Any]:
    """The figure a player notebook carries (its metadata ``rpgkernel.figur``), read from its file."""
    try:
        data = json.loads(Path(notebook).read_text(encoding="utf-8"))
        figure = data["metadata"][METADATA]["figur"]
    except OSError as err:
        raise RpgError(t("share.notebook_unreadable", file=str(notebook),
                         error=err.strerror or str(err))) from None
    except (ValueError, KeyError, TypeError):
        raise RpgError(t("share.notebook_no_figure", file=str(notebook))) from None
    if not isinstance(figure, dict) or not isinstance(figure.get("name"), str):
        raise RpgError(t("share.notebook_no_figure", file=str(notebook)))
    return figure


def take_figure(campaign: Campaign, figure: Mapping[str, Any]) -> str:
    """Add the character of a snapshot to ``campaign`` unless it is there already (the player's own
    changes since stay); its name. Resources start at their maximum and drop to the snapshot's value."""
    name = figure["name"]
    if name in campaign.characters:
        return name
    with campaign.transaction():
        resources = figure.get("resources", {})
        campaign.add_character(name, figure.get("sheet", {}), figure.get("ruleset"),
                               {k: r["max"] for k, r in resources.items()}, figure.get("conditions", {}))
        for key, r in resources.items():
            if r["value"] != r["max"]:
                campaign.change(name, key, r["value"] - r["max"])
    return name


def file_name(name: str) -> str:
    """A safe file name for a figure: letters, digits, ``-`` and ``_``."""
    text = unicodedata.normalize("NFC", name)
    safe = re.sub(r"[^\w-]+", "_", text).strip("_.")
    return (safe or "Figur")[:80] + ".ipynb"


def repository_root(start: Path) -> Path | None:
    """The nearest folder at or above ``start`` that holds ``.git``."""
    for folder in (start, *start.parents):
        if (folder / ".git").exists():
            return folder
    return None


def _markdown(text: str) -> str:
    """User text inside Markdown: shown as typed (no HTML, no Markdown markup)."""
    return re.sub(r"([\\`*_{}\[\]()#+\-.!|~$])", r"\\\1", html.escape(text, quote=False))


def player_notebook(figure: Mapping[str, Any]) -> dict[str, Any]:
    """The notebook (nbformat 4) for the player of ``figure``: short code cells; the figure
    itself is data in the notebook's metadata (``rpgkernel.figur``), read by ``figure_of``."""
    notebook = file_name(figure["name"])
    campaign_file = notebook.removesuffix(".ipynb") + ".sqlite"
    ruleset = figure.get("ruleset")
    sources = [
        ("markdown", t("share.nb_intro", name=_markdown(figure["name"]),
                                   ruleset=_markdown(rules.title(ruleset) or "–"))),
        *([("markdown", t("share.nb_out", reason=_markdown(str(figure["ausser_gefecht"]))))]
          if figure.get("ausser_gefecht") else []),
        ("code", "%load_ext rpgkernel\n"
                 + " ".join(["%rpg", *filter(None, [ruleset]), "--kampagne", f'"{campaign_file}"'])),
        ("code", "import rpgkernel\n"
                 "from rpgkernel.sharing import figure_of, take_figure\n"
                 "from rpgkernel.widgets import CharacterSheet, DiceTray\n\n"
                 "kampagne = rpgkernel.session.current().campaign\n"
                 f"figur = take_figure(kampagne, figure_of({notebook!r}))\n"
                 "kampagne.figure(figur)"),
        ("markdown", t("share.nb_sheet")),
        ("code", "CharacterSheet(kampagne, figur)"),
        ("markdown", t("share.nb_tray")),
        ("code", "DiceTray()"),
        ("markdown", t("share.nb_journal")),
        ("code", "%rpg journal"),
    ]
    cells = []
    for i, (kind, source) in enumerate(sources, 1):
        cell: dict[str, Any] = {"cell_type": kind, "id": f"zelle-{i}", "metadata": {}, "source": source}
        if kind == "code":
            cell.update(execution_count=None, outputs=[])
        cells.append(cell)
    return {"cells": cells, "nbformat": 4, "nbformat_minor": 5,
            "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3 (ipykernel)",
                                        "language": "python"},
                         "language_info": {"name": "python"},
                         METADATA: {"figur": dict(figure)}}}


@dataclass(frozen=True)
class Shared:
    """A written player notebook: its file (``local``: as seen from the GM's folder), its path in
    the repository, the link (None: no Binder set)."""

    name: str
    file: Path
    local: str
    path: str
    in_repository: bool
    link: str | None

    def __repr__(self) -> str:
        lines = [t("share.written", name=self.name, file=self.local)]
        if not self.in_repository:
            lines.append(t("share.no_repository"))
        if self.link is None:
            lines.append(t("share.no_binder"))
        else:
            lines += [t("share.link", link=self.link), t("share.steps", file=self.local)]
        return "\n".join(lines)

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, str]:
        rows = [html.escape(line) for line in repr(self).splitlines()]
        if self.link is not None:
            link = html.escape(self.link, quote=True)
            rows = [row if not row.startswith(html.escape(t("share.link", link=""))) else
                    f'{html.escape(t("share.link", link=""))}<a href="{link}" target="_blank" '
                    f'rel="noopener">{link}</a>' for row in rows]
        return {"text/plain": repr(self),
                "text/html": f'{style()}<div class="rpgk-card">{"<br>".join(rows)}</div>'}


def share(campaign: Campaign, name: str, folder: str | Path = "spieler",
          cwd: Path | None = None) -> Shared:
    """Write the player notebook of ``name`` into ``folder`` and give its Binder link."""
    figure = snapshot(campaign, name)
    cwd = Path.cwd() if cwd is None else cwd
    target = (cwd / folder).resolve()
    try:
        target.mkdir(parents=True, exist_ok=True)
        file = target / file_name(figure["name"])
        file.write_text(json.dumps(player_notebook(figure), ensure_ascii=False, indent=1) + "\n",
                        encoding="utf-8")
    except OSError as err:
        raise RpgError(t("share.write_failed", folder=str(folder), error=err.strerror or str(err))) from None
    here = cwd.resolve()
    local = file.relative_to(here) if file.is_relative_to(here) else file
    root = repository_root(here)
    if root is not None and not file.is_relative_to(root):
        root = None
    path = (file.relative_to(root) if root is not None else local).as_posix()
    binder = configured(campaign)
    return Shared(figure["name"], file, local.as_posix(), path, root is not None,
                  None if binder is None else binder.link(path))
