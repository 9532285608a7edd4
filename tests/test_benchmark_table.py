"""benchmarks/table.py reads every %%resolve example of the docs as the docs tests do, with its given
dice, and ranks its samples as stated (no timing is checked here)."""

import importlib.util
import sys
from pathlib import Path

import pytest
from doc_blocks import DOCS, blocks_of

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


@pytest.fixture(scope="module")
def table():
    spec = importlib.util.spec_from_file_location("rpgkernel_bench_table", BENCHMARKS / "table.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop(spec.name, None)


def test_every_resolve_block_of_the_docs_is_an_action(table):
    pages = table.doc_actions()
    steps = [step for p in pages for step in p["steps"]]
    cells = [c for step in steps if "cells" in step for c in step["cells"]]
    blocks = [b for p in sorted(DOCS.glob("*.md")) for b in blocks_of(p.read_text(encoding="utf-8"), p.name)
              if b.text.startswith("%%resolve")]
    assert {str(b) for b in blocks} <= {step["where"] for step in steps if "cells" in step}
    ford = next(c for c in cells if c["dice"] == [7, 3, 1, 5] and "angriff Ritter, Knappe -> Söldner" in c["source"])
    assert not ford["preview"]
    assert any(c["preview"] for c in cells)
    # a plain block of lines: each line an action of its own
    assert {"verzicht Söldner", "pass Ritter"} <= {c["source"] for c in cells}
    # each ruleset's page in its ruleset, after its stat block
    bastionland = next(p for p in pages if p["page"] == "bastionland.md")
    assert bastionland["ruleset"] == "bastionland" and "figuren" in bastionland["steps"][0]


def test_the_percentiles(table):
    values = [0.01 * i for i in range(1, 101)]
    assert table.percentile(values, 0.5) == pytest.approx(0.51) and table.percentile(values, 0.95) == pytest.approx(0.95)
    assert table.percentile(values, 1.0) == 1.0 and table.percentile([0.2], 0.95) == 0.2
