"""The code blocks of the German docs, read one way for every test that executes them.

A test module opens a page with ``page("kampfwerte.md")`` and, when it is imported, takes the blocks
it executes (``take``, ``block``, ``examples``). ``tests/test_docs_covered.py`` imports every test
module that uses this helper and fails for a page of ``docs/`` with code blocks that no test opens and
for a block that no test takes: a new example needs a test that runs it.

``assert_shown`` compares a block that shows output with what the code produced; ``…`` in the shown
text stands for anything (the doc elides steps or the rest of a message). ``run_python`` runs a Python
block as a notebook cell; ``Notebook`` (the ``notebook`` fixture) runs magic cells in an IPython shell.
"""

from __future__ import annotations

import ast
import re
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from IPython.utils.capture import capture_output

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
#: a fenced block, also indented (inside a list item); the closing fence has the opening's indent
_FENCE = re.compile(r"^(?P<indent> *)```(?P<lang>[\w-]*) *\n(?P<body>.*?)^(?P=indent)``` *$", re.S | re.M)


@dataclass(frozen=True)
class Block:
    page: str
    line: int      # of the opening fence, counted from 1
    lang: str      # "" for a block without a language
    text: str      # dedented to the fence

    @property
    def lines(self) -> list[str]:
        """The block's non-empty lines, stripped."""
        return [line.strip() for line in self.text.splitlines() if line.strip()]

    @property
    def magic(self) -> tuple[str, str, str]:
        """A cell magic block ``%%name line`` + body as ``(name, line, body)``."""
        head, _, body = self.text.partition("\n")
        assert head.startswith("%%"), f"{self}: keine Zelle mit %%"
        name, _, line = head[2:].partition(" ")
        return name, line.strip(), body

    def __str__(self) -> str:
        return f"docs/{self.page}, Zeile {self.line}"


def blocks_of(text: str, name: str) -> tuple[Block, ...]:
    return tuple(Block(name, text.count("\n", 0, m.start()) + 1, m["lang"],
                       textwrap.dedent(m["body"]) if m["indent"] else m["body"])
                 for m in _FENCE.finditer(text))


class Page:
    """One page of ``docs/``: its text, its blocks and which of them tests have taken."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.text = (DOCS / name).read_text(encoding="utf-8")
        self.blocks = blocks_of(self.text, name)
        self.taken: set[Block] = set()

    def take(self, lang: str | None = None, first: str | None = None, count: int | None = None,
             after: str | None = None) -> list[Block]:
        """The blocks in ``lang`` (``""``: without a language; None: any) whose text starts with
        ``first``, below the heading line ``after`` up to the next heading of its level; ``count``
        says how many there must be. They count as executed from now on."""
        found = [b for b in self._below(after)
                 if (lang is None or b.lang == lang) and (first is None or b.text.startswith(first))]
        assert found, f"docs/{self.name}: kein Block {lang!r} {first!r} {after or ''}"
        if count is not None:
            assert len(found) == count, f"docs/{self.name}: {len(found)} Blöcke {lang!r} {first!r}, nicht {count}"
        self.taken.update(found)
        return found

    def block(self, lang: str | None = None, first: str | None = None, after: str | None = None) -> Block:
        """The one block ``take`` finds."""
        return self.take(lang, first, 1, after)[0]

    def examples(self, lang: str = "text", comments: bool = True) -> list[str]:
        """Every non-empty line of the ``lang`` blocks, stripped (without ``#`` lines unless ``comments``)."""
        return [line for b in self.take(lang) for line in b.lines if comments or not line.startswith("#")]

    def untaken(self) -> list[Block]:
        return [b for b in self.blocks if b not in self.taken]

    def _below(self, heading: str | None) -> tuple[Block, ...]:
        if heading is None:
            return self.blocks
        prose = _FENCE.sub(lambda m: "\n" * m[0].count("\n"), self.text)   # no '#' line of a block is a heading
        match = re.search(rf"^{re.escape(heading)}$", prose, re.M)
        assert match, f"docs/{self.name}: keine Überschrift {heading!r}"
        end = re.compile(rf"^#{{1,{len(heading.split()[0])}}} ", re.M).search(prose, match.end())
        start = prose.count("\n", 0, match.start()) + 1
        stop = prose.count("\n", 0, end.start()) + 1 if end else float("inf")
        return tuple(b for b in self.blocks if start < b.line < stop)


_PAGES: dict[str, Page] = {}


def page(name: str) -> Page:
    """The page ``docs/name``, one object per page for all test modules."""
    if name not in _PAGES:
        _PAGES[name] = Page(name)
    return _PAGES[name]


def opened() -> dict[str, Page]:
    """The pages the imported test modules have opened."""
    return dict(_PAGES)


def pages_with_blocks() -> set[str]:
    return {p.name for p in DOCS.glob("*.md") if blocks_of(p.read_text(encoding="utf-8"), p.name)}


def shown_pattern(shown: str) -> re.Pattern[str]:
    """``shown`` as a pattern: ``…`` stands for anything, also several lines; the rest literally."""
    return re.compile("(?s:.*?)".join(re.escape(part) for part in shown.strip("\n").split("…")))


def assert_shown(shown: str, actual: str) -> None:
    """What the doc shows is what the code produced (``…`` elides)."""
    assert shown_pattern(shown).fullmatch(actual.strip("\n")), f"Doku zeigt:\n{shown}\nCode ergibt:\n{actual}"


def run_python(source: str, namespace: dict[str, Any]) -> Any:
    """Run ``source`` as a notebook cell in ``namespace``: the value of its last line if that is an expression."""
    tree = ast.parse(source)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, "<docs>", "exec"), namespace)
    return None if last is None else eval(compile(ast.Expression(last.value), "<docs>", "eval"), namespace)


class Notebook:
    """An IPython shell with rpgkernel loaded, running cells as a notebook does."""

    def __init__(self, shell: Any) -> None:
        self.shell = shell
        self.ns = shell.user_ns
        self.value: Any = None   # the value of the last cell run

    def run(self, source: str) -> list[str]:
        """Run a cell; the plain text of what it shows: its displays (an error box among them), then its
        value. A traceback fails the test."""
        with capture_output() as out:
            result = self.shell.run_cell(source)
        assert result.success and "Traceback" not in out.stdout + out.stderr, out.stdout + out.stderr
        shown = [o.data["text/plain"] for o in out.outputs]
        self.value = result.result
        if result.result is not None:
            shown.append(self.shell.display_formatter.format(result.result)[0]["text/plain"])
        return shown

    def ok(self, source: str) -> list[str]:
        """``run`` for a cell that must not show an error box."""
        shown = self.run(source)
        assert not any(s.startswith("Fehler") for s in shown), shown
        return shown
