"""The texts users read: gettext catalogues, one for each package that owns texts.

Engines and renderers never hold user text themselves; they call
``t("key", **fields)``. Each package with texts ships a catalogue in a folder
of its own (the core's is ``rpgkernel/locale``, each ruleset's
``rpgkernel/rules/<key>/locale``) and registers it once, on import, with
``register_catalogue``::

    locale/messages.pot                      German, the source: msgctxt = key, msgid = German text
    locale/<lang>/LC_MESSAGES/messages.po    a translation into <lang>
    locale/<lang>/LC_MESSAGES/messages.mo    compiled by the build (never in the repository)

German is the default; another language is a translation beside the German
source, without touching the engines. A key missing in a translation (or
translated from an older German text) shows in German.
"""

from __future__ import annotations

import os
import re
import struct
from pathlib import Path

from ..numerals import fill
from . import build

DEFAULT_LANGUAGE = build.SOURCE_LANGUAGE


class UnknownKey(KeyError):
    """A key that no registered catalogue holds (a programming error: the key is misspelt or its
    catalogue not registered)."""

    def __str__(self) -> str:
        return str(self.args[0])


class MissingField(KeyError):
    """A text filled without one of its fields (a programming error: the caller forgot it)."""

    def __str__(self) -> str:
        return str(self.args[0])


class _Catalogue:
    """One registered catalogue: its German source and translations, read as compiled."""

    def __init__(self, directory: Path, domain: str) -> None:
        self.directory, self.domain = directory, domain
        self.sources = build.sources(directory, domain)
        if not self.sources[DEFAULT_LANGUAGE].is_file():
            raise FileNotFoundError(f"{self.sources[DEFAULT_LANGUAGE]}: a catalogue needs its German source")
        source = self.sources[DEFAULT_LANGUAGE].read_bytes()
        self.german = {key: msgid for key, (msgid, _) in self._entries(DEFAULT_LANGUAGE, source).items()}

    def order(self) -> list[str]:
        """The keys in the order of the source (a .mo sorts its entries)."""
        return [key.decode() for key in _KEY_LINE.findall(self.sources[DEFAULT_LANGUAGE].read_bytes())]

    def __str__(self) -> str:
        return str(self.directory / f"{self.domain}.pot")

    def texts(self, language: str) -> dict[str, str]:
        """key -> text in ``language``: the translations made from the current German text."""
        if language == DEFAULT_LANGUAGE or language not in self.sources:
            return {}
        entries = self._entries(language, self.sources[language].read_bytes())
        return {key: text for key, (msgid, text) in entries.items() if self.german.get(key) == msgid}

    def _entries(self, language: str, source: bytes) -> dict[str, tuple[str, str]]:
        """key -> (German msgid, msgstr) of the compiled catalogue of ``language`` (``source``: its .pot or .po)."""
        german = language == DEFAULT_LANGUAGE   # its msgstr is its msgid: not read
        entries = _compiled(build.mo_path(self.directory, self.domain, language), build.source_tag(source), german)
        if entries is None:   # no .mo compiled from today's source: compile now (slower, same texts)
            entries = _read_mo(build.compile_catalogue(source, language, template=german), german)
        unkeyed, _ = entries.pop("", ("", ""))   # the header, or an entry without msgctxt
        if unkeyed:
            raise ValueError(f"{self.sources[language]}: the entry {unkeyed!r} has no key (msgctxt)")
        return entries


def _compiled(mo: Path, tag: str, source_language: bool) -> dict[str, tuple[str, str]] | None:
    """The entries of ``mo`` if the build compiled it from the source with ``tag``; else None."""
    try:
        entries = _read_mo(mo.read_bytes(), source_language)
    except (OSError, KeyError, struct.error, UnicodeDecodeError):
        return None
    return entries if tag in entries.get("", ("", ""))[1] else None


def _read_mo(data: bytes, source_language: bool = False) -> dict[str, tuple[str, str]]:
    """msgctxt -> (msgid, msgstr) of a UTF-8 .mo file (GNU gettext's tables of lengths and
    offsets); "" -> the header, or an entry without msgctxt. In the source language's file each
    msgstr is its msgid and stays unread ("")."""
    order = {0x950412DE: "<", 0xDE120495: ">"}[struct.unpack_from("<I", data)[0]]
    _, n, originals, translations = struct.unpack_from(order + "4I", data, 4)
    ids = struct.unpack_from(f"{order}{2 * n}I", data, originals)
    strs = struct.unpack_from(f"{order}{2 * n}I", data, translations)
    entries = {}
    for i in range(0, 2 * n, 2):
        key, _, msgid = data[ids[i + 1]:ids[i + 1] + ids[i]].decode().rpartition("\x04")
        entries[key] = (msgid, "" if source_language and key else data[strs[i + 1]:strs[i + 1] + strs[i]].decode())
    return entries


_KEY_LINE = re.compile(rb'^msgctxt "([^"\\]*)"$', re.M)
_catalogues: dict[tuple[Path, str], _Catalogue] = {}
_table: dict[str, str] = {}   # key -> text in the current language
_order: list[str] = []        # every key in the order of the catalogues (made at the first labels())
_language = DEFAULT_LANGUAGE


def register_catalogue(directory: str | os.PathLike[str], domain: str = "messages") -> None:
    """Make the texts of the catalogue in ``directory`` available to ``t`` and ``labels``.

    A package with texts (a ruleset, built in or from another package) calls
    this once in its ``__init__``, before any of its modules call ``t``::

        from pathlib import Path
        from rpgkernel.messages import register_catalogue

        register_catalogue(Path(__file__).with_name("locale"))

    ``directory`` holds ``<domain>.pot``, the German texts: each entry has its
    key as msgctxt and the German text as msgid, with fields written as for
    ``str.format`` (``{figure}``; ``{n:,}`` for a count with thousands
    separators; a float field is always German, see ``rpgkernel.numerals``)::

        msgctxt "meinspiel.treffer"
        msgid "{figure} trifft: {schaden} Schaden."
        msgstr ""

    Translations are ``<lang>/LC_MESSAGES/<domain>.po`` beside it (``pybabel
    init -i messages.pot -d locale -l en``). Compiled ``.mo`` files are read
    where they match their source (rpgkernel's build writes them; see
    ``rpgkernel.messages.build``); otherwise the source is compiled in memory
    with Babel, which gives the same texts and costs time at import only.

    All catalogues share one set of keys, so prefix yours with your ruleset's
    key. A key another catalogue already holds is refused (``ValueError``), as
    is an entry without a key; registering the same catalogue again reloads it.
    """
    path = Path(directory).resolve()
    catalogue = _Catalogue(path, domain)
    for other in _catalogues.values():
        if (other.directory, other.domain) != (path, domain) and (same := catalogue.german.keys() & other.german):
            raise ValueError(f"{catalogue}: the keys {', '.join(sorted(same)[:5])} are already in {other}")
    _catalogues[path, domain] = catalogue
    _rebuild()


def _rebuild() -> None:
    _table.clear()
    _order.clear()
    for catalogue in _catalogues.values():
        _table.update(catalogue.german)
        _table.update(catalogue.texts(_language))


def languages() -> list[str]:
    """The languages the catalogues hold (German and every translation of any catalogue)."""
    return sorted({lang for catalogue in _catalogues.values() for lang in catalogue.sources})


def set_language(lang: str) -> None:
    """Switch every following message to ``lang``."""
    global _language
    if lang not in languages():
        raise KeyError(lang)
    _language = lang
    _rebuild()


def language() -> str:
    return _language


def labels(prefix: str) -> dict[str, str]:
    """Every message whose key starts with ``prefix``, unformatted (for a widget's front end), in
    the order of the catalogues."""
    if not _order:
        _order.extend(k for k in dict.fromkeys([k for c in _catalogues.values() for k in c.order()] + list(_table))
                      if k in _table)
    return {k: _table[k] for k in _order if k.startswith(prefix)}


def known(key: str) -> bool:
    """Whether a catalogue has the message ``key`` (for labels that fall back to a name)."""
    return key in _table


def t(key: str, /, **fields: object) -> str:
    """The message ``key`` in the current language, filled with ``fields`` (numbers the German way)."""
    try:
        template = _table[key]
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


register_catalogue(Path(__file__).parent.parent / "locale")
