"""Every page of docs/ with code blocks is read by a test, and every one of its blocks is taken by a test
that executes it (tests/doc_blocks.py): a new page or example without a test fails here."""

import importlib
from pathlib import Path

import pytest
from doc_blocks import opened, pages_with_blocks

TESTS = Path(__file__).resolve().parent
#: the modules that read doc blocks (themselves or through verb_docs), by the name pytest imports them under
READERS = sorted(".".join(p.relative_to(TESTS).with_suffix("").parts) for p in TESTS.rglob("*.py")
                 if p.name not in ("conftest.py", "doc_blocks.py", Path(__file__).name)
                 and ("from doc_blocks import" in (text := p.read_text(encoding="utf-8"))
                      or "from verb_docs import" in text))
for _name in READERS:
    importlib.import_module(_name)


def test_the_doc_tests_are_found():
    assert {"dice.test_docs", "rules.kampfwerte.test_docs", "dice_grammar"} <= set(READERS)  # nested and at the top


def test_every_page_with_code_blocks_is_read_by_a_test():
    assert set(opened()) == pages_with_blocks()


@pytest.mark.parametrize("name", sorted(pages_with_blocks()))
def test_every_block_is_executed_by_a_test(name):
    read = opened().get(name)
    assert read is not None, f"Kein Test liest docs/{name}"
    untaken = read.untaken()
    assert not untaken, "Kein Test führt diese Blöcke aus: " + "; ".join(
        f"{b} ({b.lang or 'ohne Sprache'}: {b.text.partition(chr(10))[0]!r})" for b in untaken)
