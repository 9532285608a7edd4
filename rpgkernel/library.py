"""The GM's library of figures: templates per ruleset, kept where every campaign of this user finds them.

A template is a figure or a side as ``%%figuren`` writes it. Each ruleset's templates are one
YAML file in ``folder`` (``$RPGKERNEL_BIBLIOTHEK``, else ``jupyter_data_dir()/rpgkernel/bibliothek``),
the format of ``export`` and ``import_file``; the seed's stat blocks (``Sheet.templates``) are
read-only starters. Every entry is checked as ``%%figuren`` checks it.
"""

from __future__ import annotations

import difflib
import html
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Sequence

import yaml

from . import rules, statblocks
from .errors import RpgError
from .messages import t
from .state import model
from .state.transaction import CampaignError, check_name

if TYPE_CHECKING:
    from .state import Campaign

ENV = "RPGKERNEL_BIBLIOTHEK"
FREE = "frei"              # the file of templates without a ruleset
SEED, OWN = "regeltext", "eigene"
MAX_TEMPLATES = 2_000      # templates in one ruleset's file


class LibraryError(RpgError, ValueError):
    """A template that cannot be found, kept or read; nothing was changed."""


def folder() -> Path:
    """Where this user's templates are kept: ``$RPGKERNEL_BIBLIOTHEK``, else Jupyter's data folder."""
    given = os.environ.get(ENV)
    if given:
        return Path(given)
    from jupyter_core.paths import jupyter_data_dir
    return Path(jupyter_data_dir()) / "rpgkernel" / "bibliothek"


@dataclass(frozen=True)
class Template:
    """A figure or a side: its ``entries`` (``%%figuren`` combatants), its ruleset (None: free play) and
    where it comes from (``regeltext``: a stat block of the seed text, ``eigene``: the GM's)."""

    name: str
    ruleset: str | None
    entries: tuple[dict[str, Any], ...]
    source: str = OWN

    @property
    def count(self) -> int:
        """How many figures one copy of it brings."""
        return sum(e.get("anzahl", 1) for e in self.entries)

    def summary(self) -> str:
        """``Söldner: VIG 13, CLA 10, SPI 10, GD 4`` or ``Räuber ×3, Hauptmann`` (German, one line)."""
        if len(self.entries) == 1 and self.entries[0].get("anzahl", 1) == 1:
            e = self.entries[0]
            values = {**e.get("werte", {}), **e.get("ressourcen", {})}
            sheet = rules.get(self.ruleset).sheet
            shown = [f"{k.upper() if len(k) <= 3 else sheet.label(k)} {v}" for k, v in values.items()
                     if isinstance(v, int) and not isinstance(v, bool)]
            return ", ".join(shown) or "–"
        return ", ".join(e["name"] + (f" ×{e['anzahl']}" if e.get("anzahl", 1) > 1 else "") for e in self.entries)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "ruleset": self.ruleset, "source": self.source, "count": self.count,
                "summary": self.summary(), "entries": [dict(e) for e in self.entries]}


@dataclass(frozen=True, repr=False)
class Listing:
    """Templates found (``Library.search``), shown as a German list."""

    ruleset: str | None
    templates: tuple[Template, ...] = field(default_factory=tuple)
    query: str = ""

    def __repr__(self) -> str:
        head = t("library.found" if self.templates else "library.none_found", n=len(self.templates),
                 ruleset=_title(self.ruleset), query=self.query)
        return "\n".join([head, *(_line(x) for x in self.templates)])

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        head, *lines = repr(self).split("\n")
        items = "".join(f"<li>{html.escape(line)}</li>" for line in lines)
        return {"text/plain": repr(self),
                "text/html": f'<div class="rpgk-card"><div>{html.escape(head)}</div><ul>{items}</ul></div>'}


def saved_text(x: Template, shelf: Library) -> str:
    """What saving a template says: where it is kept and how it comes into a fight."""
    return t("library.saved", name=x.name, ruleset=_title(x.ruleset), summary=x.summary(), path=str(shelf.path))


def _line(x: Template) -> str:
    mark = t("library.from_seed") if x.source == SEED else ""
    return f"{x.name}{mark}: {x.summary()}"


def _title(ruleset: str | None) -> str:
    return rules.title(ruleset) if ruleset else t("library.free")


class Library:
    """This user's templates in ``path`` (default: ``folder()``), with each ruleset's starter entries."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path is not None else folder()

    def __repr__(self) -> str:
        return t("library.repr", path=str(self.path))

    # -- reading ---------------------------------------------------------------------------
    def templates(self, ruleset: str | None) -> dict[str, Template]:
        """The ruleset's templates by name: the seed's stat blocks, then the GM's own."""
        key = _key(ruleset)
        seed = {name: Template(name, key, ({"name": name, "werte": dict(sheet)},), SEED)
                for name, sheet in (rules.get(key).sheet.templates() if key else {}).items()}
        return {**seed, **self._own(key)}

    def search(self, text: str = "", ruleset: str | None = None) -> Listing:
        """The ruleset's templates whose name contains ``text`` (any case; nothing: all), close
        spellings after them."""
        key, query = _key(ruleset), " ".join(str(text).split()).casefold()
        found = self.templates(key)
        folded = {n.casefold(): n for n in found}
        hits = [n for n in found if query in n.casefold()]
        if query:
            hits += [folded[c] for c in difflib.get_close_matches(query, list(folded), n=3, cutoff=0.6)
                     if folded[c] not in hits]
        return Listing(key, tuple(found[n] for n in hits), str(text).strip())

    def get(self, name: str, ruleset: str | None) -> Template:
        """The template ``name`` of the ruleset; a German error with the closest name."""
        found = self.templates(ruleset)
        if name in found:
            return found[name]
        close = difflib.get_close_matches(str(name), list(found), n=1)
        hint = " " + t("suggest.die", suggestion=close[0]) if close else ""
        raise LibraryError(t("library.unknown", name=str(name)[:40], ruleset=_title(_key(ruleset)),
                             known=", ".join(found) or "–") + hint)

    def _file(self, ruleset: str | None) -> Path:
        return self.path / f"{ruleset or FREE}.yaml"

    def _own(self, ruleset: str | None) -> dict[str, Template]:
        path = self._file(ruleset)
        if not path.exists():
            return {}
        return {x.name: x for x in read(path, ruleset)}

    # -- writing ------------------------------------------------------------------------------
    def save(self, name: str, entries: Sequence[Mapping[str, Any]], ruleset: str | None,
             replace: bool = False) -> Template:
        """Keep ``entries`` (``%%figuren`` combatants) as the template ``name`` of ``ruleset``, each entry
        checked as ``%%figuren`` checks it; an existing name only with ``replace``."""
        key = _key(ruleset)
        template = _checked(name, entries, key)
        self._write(key, [template], replace)
        return template

    def save_figures(self, name: str, campaign: Campaign, figures: Sequence[str] | str = (),
                     side: str | None = None, encounter: str | None = None, replace: bool = False) -> Template:
        """Keep figures of the campaign as the template ``name``: the ``figures`` named, or the whole
        ``side`` of the encounter (default: the active one), as they are written: name without its
        number, side, sheet (free play: the resources' maxima); like ones in a row as one entry ×N."""
        state = campaign.state
        enc = state["encounters"].get(encounter or state["active_encounter"] or "")
        names = [figures] if isinstance(figures, str) else list(figures)
        if side is not None:
            if enc is None:
                raise LibraryError(t("library.no_encounter"))
            names += [n for n, r in enc["combatants"].items() if r.get("side", "") == side]
            if not names:
                raise LibraryError(t("library.empty_side", side=str(side)[:40], encounter=enc["name"]))
        if not names:
            raise LibraryError(t("library.nothing_to_save"))
        entries, rulesets = [], set()
        for who in dict.fromkeys(names):
            path = model.figure_path(state, who, enc["name"] if enc else None)
            if path is None:
                raise CampaignError(campaign._unknown(who, enc["name"] if enc else None, state))
            record = model.figure(state, path)
            rulesets.add(record.get("ruleset"))
            combatant = enc["combatants"].get(who, {}) if enc else {}
            entries.append(_entry_of(who, record, combatant.get("side", "")))
        if len(rulesets) > 1:
            raise LibraryError(t("library.mixed_rulesets", rulesets=", ".join(sorted(map(_title, rulesets)))))
        return self.save(name, _merged(entries), rulesets.pop(), replace)

    def remove(self, name: str, ruleset: str | None) -> None:
        """Forget the GM's template ``name`` (the seed's cannot be removed)."""
        key = _key(ruleset)
        own = self._own(key)
        if name not in own:
            self.get(name, key)   # a seed's template, or an unknown name: said so
            raise LibraryError(t("library.seed_fixed", name=name))
        del own[name]
        self._store(key, list(own.values()))

    def export(self, target: str | os.PathLike[str], ruleset: str | None) -> Path:
        """Write the ruleset's templates (the GM's own) as YAML to ``target``, for another machine."""
        key = _key(ruleset)
        out = Path(target)
        out.write_text(_dump(key, list(self._own(key).values())), encoding="utf-8")
        return out

    def import_file(self, source: str | os.PathLike[str], replace: bool = False) -> list[Template]:
        """Take the templates of a YAML file (as ``export`` writes it) into the library, each checked; a
        name already kept only with ``replace``. All of them or none."""
        path = Path(source)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            raise LibraryError(t("library.unreadable", path=str(path), reason=str(err).splitlines()[0])) from None
        data = _parsed(text, path)
        key = _key(data.get("regelwerk"))
        templates = _templates(data, key, path)
        self._write(key, templates, replace)
        return templates

    def _write(self, key: str | None, templates: list[Template], replace: bool) -> None:
        own = self._own(key)
        seed = set(self.templates(key)) - set(own)
        for x in templates:
            if x.name in seed:
                raise LibraryError(t("library.seed_name", name=x.name))
            if x.name in own and not replace:
                raise LibraryError(t("library.exists", name=x.name))
        own.update({x.name: x for x in templates})
        if len(own) > MAX_TEMPLATES:
            raise LibraryError(t("library.too_many", max=MAX_TEMPLATES))
        self._store(key, list(own.values()))

    def _store(self, key: str | None, templates: list[Template]) -> None:
        """Write the ruleset's file whole, through a temporary file: a crash leaves the old one."""
        self.path.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.path, prefix=".vorlagen-", suffix=".yaml")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(_dump(key, templates))
        os.replace(tmp, self._file(key))

    # -- using ---------------------------------------------------------------------------------
    def add(self, campaign: Campaign, name: str, count: int = 1, side: str | None = None,
            encounter: str | None = None) -> statblocks.Loaded:
        """Add the template ``name`` ``count`` times to the encounter (default: the active one), with
        numbered names where one is taken or several come, in one step (``%%figuren`` with ``vorlage:``)."""
        entry: dict[str, Any] = {"vorlage": name, "anzahl": count}
        if side is not None:
            entry["seite"] = side
        return self.load(campaign, {"begegnung": {"teilnehmer": [entry]}}, encounter)

    def load(self, campaign: Campaign, block: str | Any, encounter: str | None = None) -> statblocks.Loaded:
        """``statblocks.load`` with this library's templates for the ``vorlage:`` entries (``%%figuren``)."""
        data = statblocks.parse(block) if isinstance(block, str) else block
        return statblocks.create(campaign, statblocks.plan(campaign, data, encounter, templates=self._entries))

    def _entries(self, name: str, ruleset: str | None) -> list[dict[str, Any]]:
        return [dict(e) for e in self.get(name, ruleset).entries]


def _key(ruleset: object) -> str | None:
    """A ruleset key as the library files it (None: free play); a German error for an unknown one."""
    if ruleset in (None, "", FREE):
        return None
    if not isinstance(ruleset, str):
        raise LibraryError(t("library.bad_ruleset", value=repr(ruleset)[:40]))
    rules.get(ruleset.strip().lower())
    return ruleset.strip().lower()


def _checked(name: object, entries: Sequence[Mapping[str, Any]], ruleset: str | None) -> Template:
    """A template of ``entries``, each checked as a ``%%figuren`` combatant of ``ruleset``."""
    try:
        name = check_name(name, "template")
    except CampaignError as err:
        raise LibraryError(str(err)) from None
    if not isinstance(entries, (list, tuple)) or not entries:
        raise LibraryError(t("library.no_entries", name=name))
    for e in entries:
        if isinstance(e, Mapping) and ("vorlage" in e or "figur" in e or "regelwerk" in e):
            key = next(k for k in ("vorlage", "figur", "regelwerk") if k in e)
            raise LibraryError(t("library.in_template", name=name, message=t("library.field_here", field=key)))
    try:
        statblocks.check_entries(list(entries), ruleset)
    except statblocks.StatBlockError as err:
        raise LibraryError(t("library.in_template", name=name, message=str(err))) from None
    return Template(name, ruleset, tuple(_plain(e) for e in entries))


def _plain(entry: Mapping[str, Any]) -> dict[str, Any]:
    """An entry as the file keeps it: only the keys that say something, in ``%%figuren``'s order."""
    out = {k: entry[k] for k in ("name", "seite", "anzahl", "werte", "ressourcen")
           if entry.get(k) not in (None, "", {}, [])}
    if out.get("anzahl") == 1:
        del out["anzahl"]
    return out


def _entry_of(who: str, record: Mapping[str, Any], side: str) -> dict[str, Any]:
    """A figure as a template entry: its name without a trailing number, side, sheet; in free play
    its resources' maxima (a ruleset derives them from the sheet)."""
    entry: dict[str, Any] = {"name": statblocks.base_name(who), "werte": dict(record.get("sheet", {}))}
    if side:
        entry["seite"] = side
    if record.get("ruleset") is None:
        entry["ressourcen"] = {k: r["max"] for k, r in record.get("resources", {}).items()}
    return entry


def _merged(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Like entries in a row as one with ``anzahl``."""
    out: list[dict[str, Any]] = []
    for e in entries:
        if out and {k: v for k, v in out[-1].items() if k != "anzahl"} == e:
            out[-1]["anzahl"] = out[-1].get("anzahl", 1) + 1
        else:
            out.append(dict(e))
    return out


def _dump(key: str | None, templates: list[Template]) -> str:
    head = t("library.file_head") + "\n"
    data = {"regelwerk": key, "vorlagen": {x.name: [dict(e) for e in x.entries] for x in templates}}
    return head + yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


def _parsed(text: str, path: Path) -> dict[str, Any]:
    try:
        data = statblocks.parse(text)
    except statblocks.StatBlockError as err:
        raise LibraryError(t("library.unreadable", path=str(path), reason=str(err))) from None
    if not isinstance(data, dict) or not isinstance(data.get("vorlagen", {}), dict) \
            or set(data) - {"regelwerk", "vorlagen"}:
        raise LibraryError(t("library.bad_file", path=str(path)))
    return data


def _templates(data: Mapping[str, Any], key: str | None, path: Path) -> list[Template]:
    found = data.get("vorlagen") or {}
    if len(found) > MAX_TEMPLATES:
        raise LibraryError(t("library.too_many", max=MAX_TEMPLATES))
    return [_checked(name, entries, key) for name, entries in found.items()]


def read(path: Path, ruleset: str | None) -> list[Template]:
    """The templates kept in a ruleset's file (as ``export`` writes it), each checked."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise LibraryError(t("library.unreadable", path=str(path), reason=str(err).splitlines()[0])) from None
    data = _parsed(text, path)
    if _key(data.get("regelwerk")) != ruleset:
        raise LibraryError(t("library.other_ruleset", path=str(path), ruleset=_title(ruleset)))
    return _templates(data, ruleset, path)
