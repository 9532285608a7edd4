"""The texts users read: gettext catalogues, one for each package that owns texts.

Code holds no user text: it calls ``t("key", **fields)`` when a text is shown (``Text`` for a text
declared at import). German is the source and the default; the language is per context (``using``).
The layout of a catalogue: docs/mitwirken.md, "Texte und Zahlen"."""

from __future__ import annotations

import gettext
import io
import os
import re
import struct
from contextlib import contextmanager
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping

from .. import numerals
from ..numerals import fill
from . import build

DEFAULT_LANGUAGE = build.SOURCE_LANGUAGE
GROUP = "rpgkernel.catalogues"


class UnknownKey(KeyError):
    """A key that no registered catalogue holds (a programming error: the key is misspelt or its
    catalogue not registered)."""

    def __str__(self) -> str:
        return str(self.args[0])


class MissingField(KeyError):
    """A text filled without one of its fields (a programming error: the caller forgot it)."""

    def __str__(self) -> str:
        return str(self.args[0])


class _Compiled(gettext.GNUTranslations):
    """A compiled catalogue as the standard library reads it; ``keys`` lists its msgctxts."""

    def keys(self) -> dict[str, str]:
        """msgctxt -> msgid of every entry with a context ("" -> an entry without one)."""
        found = {}
        for entry in self._catalog:
            if isinstance(entry, str) and entry:
                key, sep, msgid = entry.rpartition("\x04")
                found[key if sep else ""] = msgid
        return found


def _read(mo: Path, source: Path | None, language: str, template: bool) -> _Compiled:
    """The compiled catalogue of ``source`` (or the ``mo`` shipped without one): the build's ``.mo``
    where it was compiled from today's source, else compiled now in memory (same texts, slower)."""
    tag = build.source_tag(source.read_bytes()) if source is not None else None
    try:
        compiled = _Compiled(io.BytesIO(mo.read_bytes()))
        if tag is None or tag in compiled.info().get("project-id-version", ""):
            return compiled
    except (OSError, UnicodeDecodeError, ValueError, IndexError, struct.error):
        if source is None:
            raise
    assert source is not None
    return _Compiled(io.BytesIO(build.compile_catalogue(source.read_bytes(), language, template=template)))


@dataclass
class _Translation:
    """One registered translation: a language's texts of one domain from one folder."""

    language: str
    domain: str
    directory: Path
    texts: _Compiled


class _Catalogue:
    """One registered folder: its German source (if it has one) and the translations in it."""

    def __init__(self, directory: Path, domain: str, own: bool) -> None:
        self.directory, self.domain = directory, domain
        self.pot = directory / f"{domain}.pot"
        self.german: dict[str, str] = {}
        if own:
            keys = _read(build.mo_path(directory, domain, DEFAULT_LANGUAGE), self.pot, DEFAULT_LANGUAGE, True).keys()
            unkeyed = keys.pop("", "")
            if unkeyed:
                raise ValueError(f"{self.pot}: the entry {unkeyed!r} has no key (msgctxt)")
            self.german = keys
        self.translations = [_Translation(lang, dom, directory, _read(mo, po, lang, False))
                             for lang, dom, po, mo in build.translations(directory, domain if own else None)]

    def order(self) -> list[str]:
        """The keys in the order of the source (a .mo sorts its entries)."""
        return [key.decode() for key in _KEY_LINE.findall(self.pot.read_bytes())] if self.german else []

    def __str__(self) -> str:
        return str(self.pot if self.german else self.directory)


_KEY_LINE = re.compile(rb'^msgctxt "([^"\\]*)"$', re.M)
_catalogues: dict[tuple[Path, str], _Catalogue] = {}   # the folders with a German source, registered in order
_added: dict[tuple[Path, str], _Catalogue] = {}        # the folders of translations only, registered in order
_german: dict[str, str] = {}                           # key -> German text
_tables: dict[str, dict[str, str]] = {}                # language -> key -> text (made at its first use)
_order: list[str] = []        # every key in the order of the catalogues (made at the first labels())
_entry_points_read = False


def register_catalogue(directory: str | os.PathLike[str], domain: str = "messages") -> None:
    """Make the texts of the catalogue in ``directory`` available to ``t`` and ``labels``.

    A package with texts calls this once in its ``__init__``:
    ``register_catalogue(Path(__file__).with_name("locale"))``. A key another catalogue holds is refused
    (``ValueError``); the same catalogue again is reloaded. A folder without ``<domain>.pot`` holds
    translations only. The format and which translation wins: docs/mitwirken.md, "Texte und Zahlen"."""
    path = Path(directory).resolve()
    own = (path / f"{domain}.pot").is_file()
    catalogue = _Catalogue(path, domain, own)
    if own:
        for other in _catalogues.values():
            if (other.directory, other.domain) != (path, domain) and (same := catalogue.german.keys() & other.german):
                raise ValueError(f"{catalogue}: the keys {', '.join(sorted(same)[:5])} are already in {other}")
        _catalogues[path, domain] = catalogue
    else:
        if not catalogue.translations:
            raise FileNotFoundError(f"{path}: neither a German source {domain}.pot nor translations "
                                    "(<lang>/LC_MESSAGES/*.po)")
        _added.pop((path, domain), None)   # registered again: it is now the latest
        _added[path, domain] = catalogue
    _rebuild()


def _rebuild() -> None:
    _german.clear()
    for catalogue in _catalogues.values():
        _german.update(catalogue.german)
    _tables.clear()
    _order.clear()


def _read_entry_points() -> None:
    """Register the catalogues other packages declare (once; ``register_catalogue``'s rule)."""
    global _entry_points_read
    if _entry_points_read:
        return
    _entry_points_read = True
    found = sorted(entry_points(group=GROUP), key=lambda p: ((p.dist.name if p.dist else "").lower(), p.name))
    for point in found:
        folder = point.load()
        register_catalogue(folder() if callable(folder) else folder)


def _translations() -> list[_Translation]:
    """Every translation, in the order of the rule (the later wins)."""
    _read_entry_points()
    return [tr for c in (*_catalogues.values(), *_added.values()) for tr in c.translations]


def _table(lang: str) -> dict[str, str]:
    """key -> text in ``lang``: German where no translation of today's German text has it."""
    if lang == DEFAULT_LANGUAGE:
        return _german
    if lang not in _tables:
        table = dict(_german)
        for tr in _translations():
            if tr.language == lang:
                for key, german in _german.items():
                    text = tr.texts.pgettext(key, german)   # the msgid must be today's German text
                    if text != german:
                        table[key] = text
        _tables[lang] = table
    return _tables[lang]


def languages() -> list[str]:
    """The languages the catalogues hold (German and every translation of any catalogue)."""
    return sorted({DEFAULT_LANGUAGE, *(tr.language for tr in _translations())})


def set_language(lang: str) -> None:
    """Switch every following text and number to ``lang`` (``%rpg --sprache``), in every thread of the
    process (a card updated from a background weighing speaks the session's language); what shows texts
    that stay on screen hears of a change (``when_switched``)."""
    if lang not in languages():
        raise KeyError(lang)
    changed, numerals.SESSION[0] = numerals.SESSION[0] != lang, lang
    for heard in list(_switched) if changed else ():
        heard()


#: called after the session's language changed: the live widgets' relabelling (``widgets.base``)
_switched: list[Callable[[], None]] = []


def when_switched(heard: Callable[[], None]) -> None:
    """Call ``heard()`` after every change of the session's language (once, however often asked)."""
    if heard not in _switched:
        _switched.append(heard)


@contextmanager
def using(lang: str) -> Iterator[None]:
    """Texts and numbers in ``lang`` within the block only (a server's page for one reader)."""
    if lang not in languages():
        raise KeyError(lang)
    token = numerals.LANGUAGE.set(lang)
    try:
        yield
    finally:
        numerals.LANGUAGE.reset(token)


def language() -> str:
    return numerals.current()


def labels(prefix: str) -> dict[str, str]:
    """Every message whose key starts with ``prefix``, unformatted (for a widget's front end), in
    the order of the catalogues."""
    if not _order:
        _order.extend(dict.fromkeys([k for c in _catalogues.values() for k in c.order()] + list(_german)))
    table = _table(language())
    return {k: table[k] for k in _order if k.startswith(prefix)}


def known(key: str) -> bool:
    """Whether a catalogue has the message ``key`` (for labels that fall back to a name)."""
    if key not in _german and not _entry_points_read:
        _read_entry_points()
    return key in _german


def t(key: str, /, **fields: object) -> str:
    """The message ``key`` in the current language, filled with ``fields`` (numbers by its locale)."""
    table = _table(language())
    if key not in table and not _entry_points_read:   # perhaps a package's catalogue, not read yet
        _read_entry_points()
        table = _table(language())
    try:
        template = table[key]
    except KeyError:
        raise UnknownKey(f"No text has the key {key!r} in the catalogues "
                         f"({', '.join(map(str, _catalogues.values()))}).") from None
    try:
        return fill(template, fields)
    except KeyError as err:
        missing = err.args[0] if err.args else ""
        if missing in fields:
            raise
        raise MissingField(f"The text {key!r} needs the field {{{missing}}}, which was not given "
                           f"(given: {', '.join(sorted(fields)) or 'none'}).") from None


class Text:
    """A text declared at import and looked up each time it is read: ``str(Text("key", **fields))``.

    As a class attribute it reads as the text itself (``title = Text("bastionland.title")``:
    ``engine.title`` is a ``str`` in the language of the moment); elsewhere (a field of a sheet,
    a value in a dict) ``str()`` or a format gives the text.
    """

    __slots__ = ("key", "fields")

    def __init__(self, key: str, /, **fields: object) -> None:
        self.key, self.fields = key, fields

    def __str__(self) -> str:
        return t(self.key, **self.fields)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __get__(self, obj: object, owner: type | None = None) -> str:
        return str(self)

    def __repr__(self) -> str:
        return f"Text({self.key!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Text) and (self.key, self.fields) == (other.key, other.fields)

    def __hash__(self) -> int:
        return hash(self.key)


class Texts(Mapping[str, str]):
    """A mapping whose values are ``Text``s, read as the texts of the moment (a ruleset's conditions)."""

    def __init__(self, texts: Mapping[str, Text]) -> None:
        self._texts = dict(texts)

    def __getitem__(self, name: str) -> str:
        return str(self._texts[name])

    def __iter__(self) -> Iterator[str]:
        return iter(self._texts)

    def __len__(self) -> int:
        return len(self._texts)

    def __repr__(self) -> str:
        return f"Texts({dict(self)!r})"


class ReadsTexts:
    """A base of classes declared at import (a sheet's field, a verb): each ``Text`` attribute reads as
    its text in the language of the moment (``field.label`` is a ``str``)."""

    __slots__ = ()

    def __getattribute__(self, name: str) -> Any:
        value = object.__getattribute__(self, name)
        return str(value) if type(value) is Text else value


register_catalogue(Path(__file__).parent.parent / "locale")
