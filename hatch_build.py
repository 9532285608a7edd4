"""The build step of the wheel: compile the gettext catalogues to the .mo files read at run time.

Every ``locale/messages.pot`` of the package (and every translation beside it) is compiled
with ``rpgkernel/messages/build.py``, loaded by its path so that the build imports nothing
of the package but that file. The .mo files are written beside their sources, where an
editable install reads them, and put into the wheel; they are never kept in the repository.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


def _build_module(root: Path) -> Any:
    spec = importlib.util.spec_from_file_location("rpgkernel_catalogue_build", root / "rpgkernel/messages/build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class CatalogueBuildHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        root = Path(self.root)
        for mo in _build_module(root).compile_tree(root / "rpgkernel"):
            if version == "standard":
                build_data["force_include"][str(mo)] = mo.relative_to(root).as_posix()


if __name__ == "__main__":   # a source tree without a fresh build: python hatch_build.py
    here = Path(__file__).resolve().parent
    for written in _build_module(here).compile_tree(here / "rpgkernel"):
        print(written.relative_to(here))
