import pytest

from rpgkernel.errors import ResolveError
from rpgkernel.resolve.language import parse


def test_a_full_line():
    [cmd] = parse("angriff Ritter, Knappe -> Söldner bonus=W8 smite  # der erste Schlag")
    assert cmd.verb.text == "angriff"
    assert [a.text for a in cmd.actors] == ["Ritter", "Knappe"]
    assert [a.text for a in cmd.targets] == ["Söldner"]
    assert cmd.options["bonus"].text == "W8" and cmd.options["bonus"].col == 41
    assert [f.text for f in cmd.flags] == ["smite"]
    assert cmd.line == 1


def test_quoted_names_comments_and_blank_lines():
    text = '\n# Vorbereitung\nprobe "Sir Aldric" vig\n\nangriff \'Der Graue\' -> "Wolf 1", Wolf2 bonus={W8,W6}kh1\n'
    first, second = parse(text)
    assert first.line == 3 and first.actors[0].text == "Sir Aldric" and first.flags[0].text == "vig"
    assert [t.text for t in second.targets] == ["Wolf 1", "Wolf2"]
    assert second.options["bonus"].text == "{W8,W6}kh1"
    assert parse('angriff "Ritter \\"Eisenfaust\\"" -> Wolf')[0].actors[0].text == 'Ritter "Eisenfaust"'


def test_arrows_and_option_values():
    [cmd] = parse("angriff Ritter → Wolf grund='hinter der Mauer' Bonus=2")
    assert cmd.options["grund"].text == "hinter der Mauer" and cmd.options["bonus"].text == "2"


@pytest.mark.parametrize("text, line, col, fragment", [
    ("angriff", 1, 9, "Es fehlt die handelnde Figur"),
    ("angriff Ritter ->", 1, 19, "Es fehlt das Ziel"),
    ("\nangriff Ritter -> , Wolf", 2, 19, "Es fehlt das Ziel"),
    ("-> Wolf", 1, 1, "Am Anfang steht ein Verb"),
    ("angriff Ritter -> Wolf bonus=1 bonus=2", 1, 32, "zweimal"),
    ("angriff Ritter -> Wolf ;", 1, 24, "Unerwartetes ';'"),
    ('angriff "" -> Wolf', 1, 9, "leerer Name"),
    ("angriff Ritter -> Wolf -> Bär", 1, 24, "'->' gehört hier nicht hin"),
])
def test_errors_name_line_and_column(text, line, col, fragment):
    with pytest.raises(ResolveError) as info:
        parse(text)
    err = info.value
    assert (err.line, err.column) == (line, col)
    assert fragment in err.message
    lines = str(err).splitlines()
    assert lines[0].startswith(f"Zeile {line}, Spalte {col}:")
    assert lines[2] == "  " + " " * (col - 1) + "^"
