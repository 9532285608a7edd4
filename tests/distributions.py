"""Packages made in a test: a folder holding ``NAME-0.dist-info`` (METADATA, entry_points.txt)
and modules beside it. Once the folder is on ``sys.path``, importlib.metadata reads it like any
installed distribution, and so does the ruleset registry."""

from collections.abc import Mapping
from pathlib import Path


def write_distribution(folder: Path, name: str, rulesets: Mapping[str, str],
                       modules: Mapping[str, str] | None = None) -> Path:
    """``name`` declaring ``rulesets`` (key -> "module:Class") in the group rpgkernel.rulesets, with
    ``modules`` (module name -> source) written into ``folder``; returns ``folder``."""
    info = folder / f"{name.replace('-', '_')}-0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(
        "[rpgkernel.rulesets]\n" + "".join(f"{key} = {target}\n" for key, target in rulesets.items()),
        encoding="utf-8")
    for module, source in (modules or {}).items():
        (folder / f"{module}.py").write_text(source, encoding="utf-8")
    return folder
