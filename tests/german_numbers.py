"""Finding English number formats in what a user sees (text and HTML), and the check every test runs.

German: ``2.512.225``, ``12,5 %``, ``4,50``. English: ``2,512,225``, ``12.5%``, ``4.50``. A dot
followed by exactly three digits is a German thousands group and stays allowed.
"""

import re
from html.parser import HTMLParser

import pytest

ENGLISH = [   # a hex field "(3,120)" or "nach=3,120" is a pair of numbers, not a thousand
    (re.compile(r"(?<![\d,(=])[1-9]\d{0,2}(?:,\d{3})+(?![\d)])"), "Tausender mit Komma"),
    (re.compile(r"\d+\.\d+ ?%"), "Prozent mit Dezimalpunkt"),
    (re.compile(r"(?<![\d.])\d+\.(?:\d{1,2}|\d{4,})(?![\d.])"), "Dezimalpunkt"),
    (re.compile(r"\d[eE][+-]\d"), "Exponentialschreibweise"),
]


class _Shown(HTMLParser):
    """The text a browser shows, plus title and aria-label texts; no styles, scripts or geometry."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("style", "script"):
            self._hidden += 1
        self.parts += [v for k, v in attrs if k in ("title", "aria-label") and v]

    def handle_endtag(self, tag):
        if tag in ("style", "script"):
            self._hidden -= 1

    def handle_data(self, data):
        if not self._hidden:
            self.parts.append(data)


def shown_html(markup: str) -> str:
    parser = _Shown()
    parser.feed(markup)
    return "\n".join(parser.parts)


def english_numbers(text: str) -> list[str]:
    """Every English-formatted number in ``text``, with what is wrong about it."""
    found = []
    for pattern, what in ENGLISH:
        for m in pattern.finditer(text):
            line = text[max(0, m.start() - 40):m.end() + 20].replace("\n", " ")
            found.append(f"{what}: {m.group()!r} in …{line}…")
    return found


def english_in_bundle(obj) -> list[str]:
    """English numbers in an object's text/plain and (shown) text/html."""
    bundle = obj._repr_mimebundle_() if hasattr(obj, "_repr_mimebundle_") else {"text/plain": repr(obj)}
    text = bundle.get("text/plain", repr(obj))
    return english_numbers(text) + english_numbers(shown_html(bundle.get("text/html", "")))


@pytest.fixture(autouse=True)
def resolutions_speak_german(monkeypatch):
    """Every resolution a test creates (any verb of any ruleset) is shown with German numbers.

    The resolutions are recorded as they are made and rendered (text and
    HTML) when the test ends.
    """
    from rpgkernel.rules.resolution import Resolution
    made = []
    init = Resolution.__init__

    def recording(self, *args, **kwargs):
        init(self, *args, **kwargs)
        made.append(self)

    monkeypatch.setattr(Resolution, "__init__", recording)
    yield made
    monkeypatch.undo()
    wrong = [f"{res.ruleset} {res.action}: {problem}" for res in made for problem in english_in_bundle(res)]
    assert not wrong, "Englische Zahlen in einer Auflösung:\n" + "\n".join(dict.fromkeys(wrong))
