"""Compiling gettext catalogues to ``.mo`` files, with Babel; no imports from the package.

The build (``hatch_build.py``) compiles every catalogue; the loader compiles in memory where a ``.mo``
is missing or stale. Each ``.mo`` records the SHA-256 of its source (docs/mitwirken.md, "Texte und
Zahlen")."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

SOURCE_LANGUAGE = "de"
_TAG = "source-sha256-"


def source_tag(source: bytes) -> str:
    """What a ``.mo`` compiled from ``source`` carries in its ``Project-Id-Version``."""
    return _TAG + hashlib.sha256(source).hexdigest()


def compile_catalogue(source: bytes, language: str, *, template: bool) -> bytes:
    """The ``.mo`` bytes of a ``.pot`` (``template``: the German source) or of a translation's ``.po``."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    catalog = read_po(io.BytesIO(source), locale=language, abort_invalid=True)
    if template:
        for message in catalog:
            if message.id:
                message.string = message.id
    catalog.version = source_tag(source)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def mo_path(directory: Path, domain: str, language: str) -> Path:
    return directory / language / "LC_MESSAGES" / f"{domain}.mo"


def sources(directory: Path, domain: str) -> dict[str, Path]:
    """language -> source file of the catalogue ``domain`` in ``directory`` (German: the ``.pot``)."""
    found = {SOURCE_LANGUAGE: directory / f"{domain}.pot"}
    for po in sorted(directory.glob(f"*/LC_MESSAGES/{domain}.po")):
        language = po.parent.parent.name
        if language == SOURCE_LANGUAGE:
            raise ValueError(f"{po}: German is the source language; its texts belong in {domain}.pot")
        found[language] = po
    return found


def translations(directory: Path, domain: str | None) -> list[tuple[str, str, Path | None, Path]]:
    """(language, domain, source ``.po`` or None, ``.mo``) of each translation in ``directory``: of
    ``domain``, or of every domain (None: a folder of translations only, which may ship ``.mo`` files
    without their sources)."""
    pattern = f"*/LC_MESSAGES/{domain or '*'}"
    found: dict[tuple[str, str], Path | None] = {}
    for path in sorted([*directory.glob(pattern + ".po"), *directory.glob(pattern + ".mo")]):
        found.setdefault((path.parent.parent.name, path.stem), None)
        if path.suffix == ".po":
            found[path.parent.parent.name, path.stem] = path
    out = []
    for (language, dom), po in sorted(found.items()):
        if language == SOURCE_LANGUAGE:
            if po is not None or domain is None:
                raise ValueError(f"{directory / language}: German is the source language; its texts belong in "
                                 f"{dom}.pot")
            continue   # the source's own compiled German
        out.append((language, dom, po, mo_path(directory, dom, language)))
    return out


def compile_tree(root: Path) -> list[Path]:
    """Compile every catalogue below ``root`` (each ``locale/*.pot`` and its translations); the ``.mo`` files."""
    written = []
    for template in sorted(root.rglob("locale/*.pot")):
        directory, domain = template.parent, template.stem
        for language, source in sources(directory, domain).items():
            target = mo_path(directory, domain, language)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(compile_catalogue(source.read_bytes(), language,
                                                 template=language == SOURCE_LANGUAGE))
            written.append(target)
    return written
