"""The types: mypy, strict, on the dice, the state and the ruleset kit as pyproject.toml configures it."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow


def _mypy(tmp_path: Path, *paths: str) -> subprocess.CompletedProcess[str]:
    """``python -m mypy`` with the project's configuration (its files unless ``paths`` are given)."""
    return subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
                           "--cache-dir", str(tmp_path / "cache"), *paths],
                          cwd=ROOT, capture_output=True, text=True)


def test_the_dice_the_state_and_the_kit_pass_mypy_strict(tmp_path):
    done = _mypy(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success" in done.stdout


def test_the_configuration_is_strict(tmp_path):
    """The same configuration refuses an untyped function and an Any returned as a str."""
    bad = tmp_path / "lose.py"
    bad.write_text("import json\n\n\ndef f(x):\n    return x\n\n\ndef g(s: str) -> str:\n"
                   "    return json.loads(s)\n", encoding="utf-8")
    done = _mypy(tmp_path, str(bad))
    assert done.returncode == 1
    assert "[no-untyped-def]" in done.stdout and "[no-any-return]" in done.stdout


def test_the_checked_files_are_the_dice_the_kit_and_the_state():
    """The dice and the state are checked whole, and every module the kit re-exports from."""
    import rpgkernel.rules.kit as kit
    files = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]["files"])
    assert {"rpgkernel/dice", "rpgkernel/state", "rpgkernel/rules/kit.py"} <= files
    origins = {getattr(kit, name).__module__ for name in kit.__all__ if hasattr(getattr(kit, name), "__module__")}
    for module in origins:
        path = module.replace(".", "/") + ".py"
        assert path in files or path.startswith(("rpgkernel/state/", "rpgkernel/dice/")), module
