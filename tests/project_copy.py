"""A copy of the project as a fresh clone would have it: git's tracked and new, unignored files."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_JUNK = {".git", "__pycache__", ".pytest_cache", ".hypothesis", ".ipynb_checkpoints", "build", "dist"}


def project_files(root: Path) -> list[str]:
    """Relative paths of the project's files: git's tracked and new, unignored files."""
    try:
        out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                             cwd=root, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        names = []
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = [d for d in dirnames
                           if d not in _JUNK and not d.startswith(".venv") and not d.endswith(".egg-info")]
            names += [os.path.relpath(os.path.join(dirpath, f), root) for f in filenames
                      if not f.endswith(".pyc")]
        return sorted(names)
    return sorted(n for n in out.decode().split("\0") if n and os.path.lexists(root / n))


def copy_project(dest: Path) -> Path:
    names = project_files(ROOT)
    assert "binder/requirements.txt" in names and "binder/postBuild" in names, names
    for name in names:
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target, follow_symlinks=False)
    return dest
