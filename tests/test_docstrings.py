"""Docstrings say what a thing is in a few lines; the reasoning lives in docs/mitwirken.md."""

import ast
from pathlib import Path

import pytest

import rpgkernel

PACKAGE = Path(rpgkernel.__file__).parent
MAX_WORDS = 80


def _words(text: str) -> int:
    return len(text.split())


def _docstrings(tree: ast.Module):
    """(name, docstring) of the module ("<module>") and of every class and function in it."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            text = ast.get_docstring(node)
            if text:
                yield getattr(node, "name", "<module>"), text


def test_no_docstring_runs_over_80_words():
    long = {(path.relative_to(PACKAGE).as_posix(), name)
            for path in sorted(PACKAGE.rglob("*.py"))
            for name, text in _docstrings(ast.parse(path.read_text(encoding="utf-8")))
            if _words(text) > MAX_WORDS}
    assert not long, sorted(long)


@pytest.mark.parametrize("source, expected", [
    ('"""One two."""\ndef f():\n    """Three\n    four five."""', {"<module>": 2, "f": 3}),
    ("class C:\n    x = 1", {}),
])
def test_what_counts_as_a_docstring(source, expected):
    assert {name: _words(text) for name, text in _docstrings(ast.parse(source))} == expected
