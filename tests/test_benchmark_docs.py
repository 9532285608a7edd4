"""The results benchmarks/README.md quotes are what the code gives now: each is recomputed here from the
benchmark's own set-up and compared with the README (its times are one run's measurements, not checked)."""

import importlib.util
import re
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
README = (BENCHMARKS / "README.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def forecast():
    spec = importlib.util.spec_from_file_location("rpgkernel_bench_forecast", BENCHMARKS / "forecast.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop(spec.name, None)


def section(title: str) -> str:
    """The README's section under the heading ``## title`` (up to the next one)."""
    return README.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def about(text: str, pattern: str) -> float:
    """The number of ``pattern``'s group in ``text`` ("about 68 %", "about 9,000 fights"), English style."""
    [found] = re.findall(pattern, text)
    return float(found.replace(",", ""))


def test_the_exact_duel_is_quoted_as_the_code_gives_it(forecast):
    f = forecast.duel().forecast()
    part = section("Forecast of a fight: exact, compact, procedures")
    assert f.method == "exakt" and f"   {forecast.duel_line(f)}; first forecast" in part
    assert f"   {f.notes[0]}\n" in part                                  # its chain's number of states
    states = int(re.search(r"über ([\d.]+) Zustände", f.notes[0])[1].replace(".", ""))
    assert abs(about(part, r"about ([\d,]+) nodes") - states) <= 0.1 * states


def test_four_against_six_is_quoted_as_the_code_gives_it(forecast):
    f = forecast.four_against_six().forecast(seed=1)                 # the run's first forecast
    part = section("Forecast of a fight: exact, compact, procedures")
    assert f"   {forecast.sampled_line(f)}  " in part
    c = f.win["Spieler"]
    assert abs(about(part, r"win about (\d+) % of the time") - 100 * c.p) <= max(1, 100 * c.margin)
    assert abs(about(part, r"\(about ([\d,]+) fights\)") - f.fights) <= 0.1 * f.fights
