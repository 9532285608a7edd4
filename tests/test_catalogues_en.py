"""The English translations: every key of every catalogue has a current English text with the German's fields.

Read with Babel (an independent reader of the ``.po`` files), then through ``rpgkernel.messages``.
"""

import re
from pathlib import Path
from string import Formatter

import pytest
from babel.messages.pofile import read_po

import rpgkernel
from rpgkernel import messages, rules

PACKAGE = Path(rpgkernel.__file__).parent
SOURCES = sorted(PACKAGE.rglob("locale/messages.pot"))
MARKS = re.compile(r"\*\*|`|\n\n|</?[a-z]+")   # Markdown bold and code, paragraphs, HTML tags


def _entries(path: Path, language: str) -> dict[str, tuple[str, str, bool]]:
    """key -> (German msgid, msgstr, fuzzy) as Babel reads ``path``."""
    with open(path, "rb") as f:
        return {m.context: (m.id, m.string, m.fuzzy) for m in read_po(f, locale=language) if m.id}


def _fields(text: str) -> list[tuple[str, str, str]]:
    """The str.format fields of ``text``: name, conversion and format spec of each."""
    return sorted((name, conv or "", spec or "") for _, name, spec, conv in Formatter().parse(text) if name is not None)


def _name(pot: Path) -> str:
    return pot.parent.parent.name if pot.parent.parent.name != "rpgkernel" else "core"


def test_every_catalogue_is_found():
    assert {_name(p) for p in SOURCES} == {"core", "adz", "bastionland", "kampfwerte", "midgard", "osr"}


@pytest.mark.parametrize("pot", SOURCES, ids=_name)
def test_every_key_has_a_current_english_text_with_the_same_fields(pot):
    po = pot.parent / "en" / "LC_MESSAGES" / "messages.po"
    assert po.is_file(), f"{po} is missing"
    german, english = _entries(pot, "de"), _entries(po, "en")
    problems = [f"{key}: not in the source any more" for key in english.keys() - german.keys()]
    for key, (msgid, _, _) in german.items():
        source, text, fuzzy = english.get(key, ("", "", False))
        if not text or fuzzy:
            problems.append(f"{key}: no English text")
        elif source != msgid:
            problems.append(f"{key}: translated from another German text")
        elif _fields(text) != _fields(msgid):
            problems.append(f"{key}: fields {_fields(msgid)} in German, {_fields(text)} in English")
        elif sorted(MARKS.findall(text)) != sorted(MARKS.findall(msgid)):
            problems.append(f"{key}: markup differs")
    assert not problems, "\n".join(problems)


def test_the_english_texts_are_what_t_shows_in_english():
    for key in ("adz", "bastionland", "kampfwerte", "midgard", "osr"):
        rules.get(key)   # each ruleset registers its catalogue when loaded
    english = {k: v[1] for pot in SOURCES
               for k, v in _entries(pot.parent / "en" / "LC_MESSAGES" / "messages.po", "en").items()}
    try:
        messages.set_language("en")
        shown = messages.labels("")
        assert messages.t("bastionland.total", top=7, bolster=1, armour=2, total=6) == \
            "Highest die 7 + Bolster 1 − Armour 2 = 6 damage"
    finally:
        messages.set_language("de")
    assert {k: shown[k] for k in english} == english
    assert messages.t("dice.empty") == "Der Würfelausdruck ist leer."


def _english(key: str) -> str:
    """Every English text of ruleset ``key``'s catalogue, one after the other."""
    po = PACKAGE / "rules" / key / "locale" / "en" / "LC_MESSAGES" / "messages.po"
    return "\n".join(text for _, text, _ in _entries(po, "en").values())


@pytest.mark.parametrize("key, originals, german", [
    ("bastionland", ("VIG", "CLA", "SPI", "Guard", "Deny", "Gambit", "Feat", "Scar", "Fatigue"),
     ("Narbe", "Todeswunde", "erschöpft")),
    ("osr", ("AC", "Hit dice", "saving throw", "segment"), ("RK", "Trefferwürfel", "Rettungswurf")),
])
def test_games_with_an_english_original_speak_its_terms(key, originals, german):
    text = _english(key)
    assert [term for term in originals if not re.search(rf"\b{term}", text)] == []
    assert [term for term in german if re.search(rf"\b{term}\b", text)] == []


@pytest.mark.parametrize("key, glossed", [("midgard", "Göttliche Gnade (divine grace)"),
                                          ("adz", "Glückspool (luck pool)"), ("kampfwerte", "Finte (feint)")])
def test_games_without_one_keep_their_german_terms_with_an_english_gloss(key, glossed):
    assert glossed in _english(key)
