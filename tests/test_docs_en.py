"""docs/en/index.md, the English overview: its notebook cell runs as written and answers in English."""

import re

from doc_blocks import DOCS, blocks_of

PAGE = (DOCS / "en" / "index.md").read_text(encoding="utf-8")
BLOCKS = blocks_of(PAGE, "en/index.md")


def test_the_commands_are_the_readmes():
    readme = (DOCS.parent / "README.md").read_text(encoding="utf-8")
    for block in BLOCKS[:2]:
        assert block.lang == "bash" and block.text in readme


def test_the_quick_start_cell_rolls_in_english(notebook):
    [cell] = [b for b in BLOCKS if b.text.startswith("%load_ext rpgkernel")]
    lines = cell.lines
    notebook.ok("\n".join(lines[1:-1]))   # the extension is loaded by the fixture
    try:
        [card] = notebook.ok(lines[-1])
        assert re.fullmatch(r"4d6kh3 = \[.*\] = \d+  ·  P\(≥ \d+\) = \d+\.\d\d %", card), card
        assert "Unknown" not in card and notebook.value.total in range(3, 19)
    finally:
        notebook.ok("%rpg --sprache de")
