"""benchmarks/adz.py compares like with like: both sides give the same chain distribution (no timing here)."""

import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[3] / "benchmarks" / "adz.py"


@pytest.fixture(scope="module")
def bench():
    sys.path.insert(0, str(BENCH.parent))
    spec = importlib.util.spec_from_file_location("rpgkernel_adz_bench", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    yield module
    sys.path.remove(str(BENCH.parent))


def test_every_icepool_formulation_agrees(bench):
    pytest.importorskip("icepool")
    assert bench.check_agreement() <= 1e-12
    assert len(bench.THEIRS) == 2


def test_the_case_is_the_one_asked_for(bench):
    assert (bench.ANGRIFF, bench.VERTEIDIGUNG, bench.WIDERSTAND) == (12, 10, 6)
    dist = bench.ours()
    assert abs(sum(dist.pmf().values()) - 1) < 1e-12 and dist.min == 0
