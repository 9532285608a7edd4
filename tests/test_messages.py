"""The text catalogues: one per package that owns texts, gettext files read by translators' tools.

German is the source (``messages.pot``: msgctxt = key, msgid = German text); what ``t`` reads at
run time is checked against the sources read by Babel, an independent reader.
"""

import io
from gettext import GNUTranslations
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import rpgkernel
from rpgkernel import messages, rules
from rpgkernel.messages import build, labels, t

PACKAGE = Path(rpgkernel.__file__).parent
RULESETS = ("adz", "bastionland", "kampfwerte", "midgard", "osr")
CATALOGUES = {"core": PACKAGE / "locale", **{key: PACKAGE / "rules" / key / "locale" for key in RULESETS}}
for _key in RULESETS:   # each ruleset registers its catalogue when loaded: here whatever ran before
    rules.get(_key)


def _source(directory: Path, name: str = "messages.pot", language: str | None = "de") -> dict[str, str]:
    """key -> German text, as Babel reads the catalogue's source."""
    with open(directory / name, "rb") as f:
        return {m.context: m.id for m in read_po(f, locale=language) if m.id}


@pytest.fixture
def registry():
    """The registered catalogues as they were, restored after the test (with German as the language)."""
    saved = dict(messages._catalogues)
    yield messages
    messages._catalogues.clear()
    messages._catalogues.update(saved)
    messages._rebuild()
    messages.set_language("de")


def _catalogue(root: Path, entries: dict[str, str], translations: dict[str, dict[str, tuple[str, str]]] = {}) -> Path:
    """A catalogue folder: ``messages.pot`` with ``entries`` (key -> German) and, per language,
    ``<lang>/LC_MESSAGES/messages.po`` with key -> (German msgid, translation)."""
    def entry(key, msgid, msgstr=""):
        q = lambda s: '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'  # noqa: E731
        return f"msgctxt {q(key)}\nmsgid {q(msgid)}\nmsgstr {q(msgstr)}\n\n"

    header = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
    root.mkdir(parents=True, exist_ok=True)
    (root / "messages.pot").write_text(header + "".join(entry(k, v) for k, v in entries.items()), encoding="utf-8")
    for lang, texts in translations.items():
        po = root / lang / "LC_MESSAGES" / "messages.po"
        po.parent.mkdir(parents=True)
        po.write_text(header + "".join(entry(k, *v) for k, v in texts.items()), encoding="utf-8")
    return root


# -- the package's own catalogues ----------------------------------------------------------------
def test_each_package_registers_its_own_catalogue():
    registered = {c.directory for c in messages._catalogues.values()}
    assert registered == set(CATALOGUES.values())


@pytest.mark.parametrize("owner", sorted(CATALOGUES))
def test_a_catalogue_holds_the_texts_of_its_package(owner):
    """A ruleset's keys (``<key>.…``, ``option.<key>.…``) are in its own catalogue, the rest in the core's."""
    keys = _source(CATALOGUES[owner]).keys()
    assert keys
    for key in keys:
        parts = key.split(".")
        found = parts[1] if parts[0] == "option" and parts[1] in RULESETS else parts[0]
        assert (found if found in RULESETS else "core") == owner, key


@pytest.mark.parametrize("owner", sorted(CATALOGUES))
def test_what_t_reads_is_what_the_source_says(owner):
    """Every key of the source gives its German text through t() and labels(), as Babel reads it."""
    source = _source(CATALOGUES[owner])
    table = labels("")
    assert [(key, text) for key, text in table.items() if key in source] == list(source.items())   # in its order
    key, text = next((k, v) for k, v in source.items() if "{" not in v)
    assert t(key) == text


@pytest.mark.parametrize("owner", sorted(CATALOGUES))
def test_the_build_wrote_a_current_mo_for_every_catalogue(owner):
    """The .mo read at run time was compiled from today's source and holds the same texts.

    Fails in a tree whose sources changed since the last build: ``python hatch_build.py``
    (or reinstalling) compiles them again; until then the loader compiles in memory.
    """
    directory = CATALOGUES[owner]
    mo = build.mo_path(directory, "messages", "de")
    assert mo.is_file(), f"{mo} fehlt: python hatch_build.py"
    compiled = GNUTranslations(io.BytesIO(mo.read_bytes()))
    assert compiled.info()["project-id-version"].split()[-1] == \
        build.source_tag((directory / "messages.pot").read_bytes()), f"{mo} ist veraltet: python hatch_build.py"
    entries = {k.partition("\x04")[0]: v for k, v in compiled._catalog.items() if "\x04" in k}
    assert entries == _source(directory)


def test_a_missing_key_names_the_key_and_the_catalogues():
    with pytest.raises(KeyError) as raised:
        t("adz.gibt_es_nicht")
    message = str(raised.value)
    assert "'adz.gibt_es_nicht'" in message and str(CATALOGUES["adz"] / "messages.pot") in message
    assert not messages.known("adz.gibt_es_nicht") and messages.known("adz.title")   # asked without raising


@pytest.mark.parametrize("key, fields", [("forecast.headline", {"side": "Helden"}),       # a plain text
                                         ("forecast.headline", {"p": 0.5})])                # numbers the German way
def test_a_missing_field_names_the_key_and_the_field(key, fields):
    with pytest.raises(messages.MissingField) as raised:
        t(key, **fields)
    missing = ({"side", "p"} - set(fields)).pop()
    assert str(raised.value) == (f"The text {key!r} needs the field {{{missing}}}, which was not given "
                                 f"(given: {', '.join(fields)}).")
    assert isinstance(raised.value, KeyError)    # still a KeyError for callers that catch one


def test_labels_are_the_unformatted_texts_under_a_prefix():
    shown = labels("widget.tray.")
    assert shown and all(key.startswith("widget.tray.") for key in shown)
    assert shown == {k: v for k, v in _source(CATALOGUES["core"]).items() if k.startswith("widget.tray.")}
    assert labels("option.osr.bonus") == {"option.osr.bonus": "Modifikator",
                                          "option.osr.bonus.help": "Weiterer Modifikator der Spielleitung auf den "
                                                                  "Wurf."}
    assert labels("gibt.es.nicht.") == {}


# -- a catalogue from another package ----------------------------------------------------------------
def test_a_third_party_catalogue_registers_from_its_own_folder(tmp_path, registry):
    folder = _catalogue(tmp_path / "spiel" / "locale",
                        {"spiel.treffer": "{figure} trifft: {schaden} Schaden.", "spiel.titel": "Mein Spiel",
                         "spiel.alt": "Der Text von heute"},
                        {"en": {"spiel.treffer": ("{figure} trifft: {schaden} Schaden.",
                                                  "{figure} hits: {schaden} damage."),
                                "spiel.alt": ("Der Text von gestern", "Yesterday's text")}})
    with pytest.raises(KeyError):
        t("spiel.titel")
    registry.register_catalogue(folder)
    assert t("spiel.treffer", figure="Alrik", schaden=2.5) == "Alrik trifft: 2,5 Schaden."
    assert labels("spiel.") == {"spiel.treffer": "{figure} trifft: {schaden} Schaden.", "spiel.titel": "Mein Spiel",
                                "spiel.alt": "Der Text von heute"}
    assert "en" in registry.languages()
    registry.set_language("en")
    assert t("spiel.treffer", figure="Alrik", schaden=2) == "Alrik hits: 2 damage."
    assert t("spiel.titel") == "Mein Spiel"              # not translated: German
    assert t("spiel.alt") == "Der Text von heute"        # translated from an older German text: German
    assert t("dice.empty") == "The dice expression is empty."   # the core's own English beside it
    registry.set_language("de")
    assert t("spiel.treffer", figure="Alrik", schaden=2) == "Alrik trifft: 2 Schaden."


def test_a_third_party_catalogue_needs_no_compiled_files(tmp_path, registry):
    """A package that ships only its .pot: the loader compiles it; a stale .mo is not read."""
    folder = _catalogue(tmp_path / "locale", {"spiel.gruss": "Guten Tag"})
    registry.register_catalogue(folder)
    assert t("spiel.gruss") == "Guten Tag"
    assert build.compile_tree(tmp_path) == [build.mo_path(folder, "messages", "de")]
    _catalogue(folder, {"spiel.gruss": "Guten Abend"})       # the source changes, the .mo stays
    registry.register_catalogue(folder)
    assert t("spiel.gruss") == "Guten Abend"
    build.mo_path(folder, "messages", "de").write_bytes(b"kein .mo")   # a damaged file is not read either
    registry.register_catalogue(folder)
    assert t("spiel.gruss") == "Guten Abend"


def test_a_key_of_another_catalogue_is_refused(tmp_path, registry):
    folder = _catalogue(tmp_path / "locale", {"spiel.eigen": "Eigen", "dice.empty": "Leer!"})
    with pytest.raises(ValueError, match="dice.empty"):
        registry.register_catalogue(folder)
    assert t("dice.empty") == "Der Würfelausdruck ist leer."
    with pytest.raises(KeyError):
        t("spiel.eigen")


def test_an_entry_without_a_key_is_refused(tmp_path, registry):
    folder = tmp_path / "locale"
    folder.mkdir()
    (folder / "messages.pot").write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                                         'msgid "Ein Text ohne Schlüssel"\nmsgstr ""\n', encoding="utf-8")
    with pytest.raises(ValueError, match="Ein Text ohne Schlüssel"):
        registry.register_catalogue(folder)


def test_a_catalogue_needs_its_german_source(tmp_path, registry):
    with pytest.raises(FileNotFoundError, match="messages.pot"):
        registry.register_catalogue(tmp_path)
