"""In English no German sentence is left: every ``%%resolve`` example of the docs, played as a GM goes down
each page (``benchmarks/table.py``'s walk, with its card's text and HTML) and every cell of the example
notebooks, run with the language ``en``, and their outputs scanned for German words.

What stays German by design is taken out before the scan: what the GM typed (the cell, and every line a
card suggests to type: the verbs and options are German), a step's seed section (``[Holz und Stein]``,
the German rule text it applies), the ruleset's condition names (the journal keeps them), and the names
and values of the campaign's figures and of the GM's data.
"""

from __future__ import annotations

import html
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from rpgkernel import RpgError, messages, rules
from rpgkernel.resolve.language import parse
from rpgkernel.resolve.run import verbs

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from table import card, doc_actions, gone_down  # noqa: E402

pytestmark = pytest.mark.slow

#: German words no English sentence has (function words, and the commonest German rule words)
GERMAN = re.compile(r"\b(und|nicht|mit|ist|wird|bei|auf|für|gegen|noch|keine?[nmr]?|eine[nmr]?|oder|von|hat|sind|"
                    r"der|des|dem|den|das|wenn|aus|zum|zur|nach|über|auch|wurde|kann|Würfel|Schaden|Angriff|Ziel)\b")
_SECTION = re.compile(r"\s*\[[^\]\n]*\]\s*$")


@pytest.fixture(autouse=True)
def shown_in_english(resolutions_speak_german):
    """The resolutions of these tests are shown in English by design (their numbers too)."""
    yield
    resolutions_speak_german.clear()


def _texts(value: Any) -> list[str]:
    """The lines of a card's plain text and of its HTML's text (styles left out)."""
    markup = re.sub(r"<(style|script)[^>]*>.*?</\1>", "", value._repr_html_(), flags=re.S)
    return [*str(value).splitlines(), *(html.unescape(p) for p in re.split(r"<[^>]+>", markup))]


def _typed(text: str, spellings: set[str]) -> bool:
    """Whether ``text`` is a line the GM types (a ``%%resolve`` line of a known verb)."""
    try:
        commands = parse(text.strip())
    except RpgError:
        return False
    return bool(commands) and all(c.verb.text.lower() in spellings for c in commands)


def _kept(camp: Any) -> list[str]:
    """The words that stay as they are: the names and values of the campaign's figures and of the GM's
    data (conditions among them), the rulesets' condition names and titles (the games' own names)."""
    stored = "[]"
    if camp is not None:
        state = camp.folded
        stored = json.dumps([state["characters"], state["encounters"], state.get("data", {})], ensure_ascii=False)
    engines = [rules.get(key) for key in rules.rulesets()]
    values = {*re.findall(r'"((?:[^"\\]|\\.)*)"', stored), *(c for e in engines for c in e.status.conditions),
              *(e.title for e in engines)}
    return sorted((v for v in values if v.strip()), key=len, reverse=True)


def _spellings() -> set[str]:
    """Every spelling of every ruleset's verbs, as a cell reads it."""
    return {spelling.lower() for key in rules.rulesets() for verb in verbs(rules.get(key)).values()
            for spelling in (verb.name, *verb.aliases)}


def german_lines(lines: list[str], source: str, kept: list[str], spellings: set[str]) -> list[str]:
    """The ``lines`` that still read German once what stays German is taken out."""
    found = []
    for line in lines:
        text = _SECTION.sub("", line)
        for typed in filter(None, map(str.strip, source.splitlines())):
            text = text.replace(typed, " ")
        parts = re.split(r"\s(?:→|/)\s", text)   # a suggestion names the lines to type after an arrow
        text = " ".join(p for p in parts if not _typed(p, spellings))
        for value in kept:
            text = text.replace(value, " ")
        if GERMAN.search(text):
            found.append(line.strip())
    return found


def test_the_scan_finds_a_german_sentence_and_leaves_what_stays():
    spellings = {"angriff", "gambit"}
    lines = ["Gambit Repel (Das Ziel zurückdrängen) against Söldner.", "• Söldner: hat gehandelt  [Holz und Stein]",
             "– Bolster with 6: Damage 3 → gambit Ritter würfel=6 gambit=Bolster", "Alrik: keine besondere Fähigkeit"]
    assert german_lines(lines, "", ["hat gehandelt", "keine besondere Fähigkeit"], spellings) == [lines[0]]


def test_every_docs_example_answers_in_english(tmp_path):
    spellings = _spellings()
    found: dict[str, list[str]] = {}
    messages.set_language("en")
    try:
        for camp, key, cell in gone_down(doc_actions(), tmp_path):
            try:
                lines = _texts(card(camp, key, cell))
            except RpgError as err:
                lines = str(err).splitlines()
            for line in german_lines(lines, cell["source"], _kept(camp), spellings):
                found.setdefault(line, []).append(f"{key}: {cell['source'][:60]!r}")
    finally:
        messages.set_language("de")
    assert not found, "\n".join(f"{line}   ({where[0]})" for line, where in found.items())


def _outputs(captured: Any) -> list[str]:
    """The lines a cell showed: its streams, and each output's plain text and HTML text."""
    lines = [*captured.stdout.splitlines(), *captured.stderr.splitlines()]
    for shown in captured.outputs:
        markup = re.sub(r"<(style|script)[^>]*>.*?</\1>", "", shown.data.get("text/html", ""), flags=re.S)
        lines += [*shown.data.get("text/plain", "").splitlines(), *(html.unescape(p) for p in re.split(r"<[^>]+>", markup))]
    return lines


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "example_notebooks").glob("*.ipynb")))
def test_every_example_notebook_cell_answers_in_english(name, tmp_path, monkeypatch):
    """Each cell runs in an IPython shell in English (a cell that opens a campaign takes the campaign's
    language: the switch follows it, and that cell's own report is not scanned)."""
    import shutil

    import nbformat
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.utils.capture import capture_output

    from rpgkernel import session
    for f in (ROOT / "example_notebooks").iterdir():
        if f.is_file():
            shutil.copy(f, tmp_path)
    monkeypatch.chdir(tmp_path)
    shell = InteractiveShell.instance()
    spellings, found = _spellings(), {}
    try:
        shell.run_cell("%load_ext rpgkernel")
        messages.set_language("en")
        for cell in nbformat.read(tmp_path / name, as_version=4).cells:
            if cell.cell_type != "code":
                continue
            with capture_output() as captured:
                shell.run_cell(cell.source)
            if messages.language() != "en":      # a campaign opened in German
                shell.run_cell("%rpg --sprache en")
                continue
            for line in german_lines(_outputs(captured), cell.source, _kept(session.current().campaign), spellings):
                found.setdefault(line, cell.source[:60])
    finally:
        session.current().close_campaign()
        messages.set_language("de")
        InteractiveShell.clear_instance()
    assert not found, "\n".join(f"{line}   ({where!r})" for line, where in found.items())
