"""The benchmark compares like with like; no timing is asserted here."""

import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("rpgkernel_bench", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop(spec.name, None)


def test_icepool_agrees_with_every_case(bench):
    pytest.importorskip("icepool")
    rows = bench.check_agreement(tol=1e-12)
    assert len(rows) == sum(len(c.icepool) for c in bench.EXACT_CASES)


def test_roll_section_is_skipped_without_d20(bench, monkeypatch, capsys):
    monkeypatch.setattr(bench, "load_d20", lambda: None)
    assert bench.bench_roll(repeat=1) == []
    assert "d20 is not installed" in capsys.readouterr().out


def test_table_shows_ratio_and_target(bench):
    rows = [bench.Row("A", "case", 1e-4, 2e-3, "icepool", 10.0),
            bench.Row("B", "case", 2e-5, 1e-5, "d20", 1.0)]
    text = bench.table(rows)
    assert "20.00" in text and "yes" in text
    assert "0.50" in text and "NO" in text


@pytest.fixture(scope="module")
def forecast_bench():
    spec = importlib.util.spec_from_file_location("rpgkernel_forecast_bench", BENCH.with_name("forecast.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_forecast_benchmark_measures_the_paths_it_names(forecast_bench):
    """Four against six takes the compact path, the duel the exact one, each other ruleset's notebook
    fight has two sides (benchmarks/forecast.py; its timings are not asserted)."""
    assert forecast_bench.four_against_six().forecast(n=50, seed=1).weg == "kompakt"
    duel = forecast_bench.bastionland([("Ritter", forecast_bench.RITTER)], [("Söldner", forecast_bench.SÖLDNER)])
    assert duel.forecast().method == "exakt"
    for key in forecast_bench.OTHERS:
        enc = forecast_bench.notebook_fight(key)
        assert enc.campaign.state["encounters"][enc.name]["ruleset"] in (key, None)
        assert len({enc.campaign.figure(n, enc.name).record.get("side") for n in enc.record["combatants"]}) == 2, key


def test_the_duel_benchmark_takes_the_first_of_each_side(forecast_bench):
    """Section 4 of benchmarks/forecast.py: two combatants of two sides in every ruleset, the Midgard
    duel once more with grace for its first figure (its timings are not asserted)."""
    for key in forecast_bench.DUELS:
        enc, keep = forecast_bench.notebook_duel(key)
        record = enc.campaign.state["encounters"][enc.name]["combatants"]
        assert list(record) == keep and len({record[n]["side"] for n in keep}) == 2, key
        grace = enc.campaign.figure(keep[0], enc.name).resources.get("GG") or {}
        assert grace.get("value", 0) == (forecast_bench.GNADE if key.endswith("+gnade") else 0), key


def test_against_table_shows_this_over_the_reference_and_the_goal(bench):
    rows = [bench.Against("A", "case", 1.05e-4, 1e-4), bench.Against("B roll", "3d6", 1.2e-5, 1e-5)]
    text = bench.against_table(rows)
    assert "1.050" in text and "1.200" in text and text.count(f"<= {bench.GOAL:.2f}") == 2
    assert [r.met for r in rows] == ["yes", "NO"]


def test_a_reference_needs_its_own_venv(bench, tmp_path):
    with pytest.raises(SystemExit, match="no .venv/bin/python"):
        bench.reference_python(tmp_path)


def test_the_rolling_worker_times_this_checkouts_rolls(bench):
    worker = bench.RollWorker(sys.executable)
    try:
        number, seconds = worker.time("4d6kh3", "rng", 5)
    finally:
        worker.close()
    assert number == 5 and seconds > 0


@pytest.fixture(scope="module")
def sampler_reference():
    spec = importlib.util.spec_from_file_location("rpgkernel_sampler_reference", BENCH.with_name("sampler_reference.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("ruleset", ["frei", "bastionland", "osr", "kampfwerte", "midgard", "adz"])
def test_the_samplers_reference_plays_the_fights_the_sampler_plays(sampler_reference, ruleset):
    """The numpy reference of section G (benchmarks/sampler_reference.py) plays the rules of each of its
    fights: the duel's players win as often as the exact chain says, three against three as often as
    the compact sampler the benchmark builds finds (20,000 fights each, within four standard errors)."""
    import numpy as np
    ref = sampler_reference
    assert ruleset in ref.RULESETS
    for per_side in (1, 3):
        enc = ref.encounter(ruleset, per_side)
        if per_side == 1:
            expected, spread = enc.forecast(weg="exakt").win["Spieler"].p, 1
        else:
            expected, spread = (ref.sampler(enc).play(20_000, np.random.default_rng(2)).winner == 0).mean(), 2
        won = ref.reference(ref.REFERENCE[ruleset](per_side), 20_000, np.random.default_rng(per_side)).mean()
        assert 0.02 < expected < 0.98, (ruleset, per_side)
        assert abs(won - expected) <= 4 * np.sqrt(spread * expected * (1 - expected) / 20_000), (ruleset, per_side)
