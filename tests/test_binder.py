"""The Binder configuration in binder/: what repo2docker generates, and a simulated build.

The simulated build (the ``binder_env`` fixture of tests/conftest.py) follows
repo2docker's steps for ``binder/`` in a fresh virtual environment: install
from ``binder/requirements.txt`` at the repo root, run ``binder/postBuild``;
then nbval runs every example notebook with that environment's own kernel and
compares it with its stored outputs (the suite's one nbval round).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import nbformat
import pytest
from fresh_venv import cell, errors, execute, plain, run
from project_copy import copy_project


def _repo2docker() -> Path:
    bindir = Path(sys.executable).parent
    for name in ("repo2docker", "jupyter-repo2docker"):
        if (bindir / name).exists():
            return bindir / name
    pytest.fail(f"repo2docker not found in {bindir}: install the test extra (jupyter-repo2docker)")


def _unescape(name: str) -> str:
    """The source path of a repo2docker build_script_files name: ``-2e`` -> ``.``, hash suffix dropped."""
    escaped = name.rsplit("-", 1)[0]
    return re.sub(r"-([0-9a-f]{2})", lambda m: chr(int(m.group(1), 16)), escaped)


def test_repo2docker_dockerfile_order_and_python(tmp_path: Path) -> None:
    repo = copy_project(tmp_path / "repo")
    proc = subprocess.run([str(_repo2docker()), "--no-build", str(repo)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()

    def first(pattern: str) -> int:
        hits = [i for i, line in enumerate(lines) if re.search(pattern, line)]
        assert hits, f"no line matches {pattern!r} in the Dockerfile:\n{proc.stdout}"
        return hits[0]

    copy_repo = first(r"^COPY\b.*\ssrc/\s")
    pip = first(r"^RUN\b.*\bpip install\b.*-r\s+\"?binder/requirements\.txt\"?")
    post = first(r"^RUN\s+\./binder/postBuild\b")
    assert copy_repo < pip < post, proc.stdout

    scripts = [_unescape(m) for m in re.findall(r"build_script_files/(\S+)", proc.stdout)]
    assert any("environment.py-3.11-" in s for s in scripts), scripts
    assert not any(re.search(r"environment\.py-3\.(?!11-)", s) for s in scripts), scripts
    assert "python=3.11" in proc.stderr, proc.stderr


@pytest.mark.slow
def test_binder_build_in_fresh_venv(binder_env, tmp_path: Path) -> None:
    repo, venv, env = binder_env
    python = venv / "bin" / "python"
    config = venv / "etc" / "ipython" / "ipython_config.py"
    assert config.is_file(), f"postBuild wrote no {config}"
    assert 'c.InteractiveShellApp.extensions.append("rpgkernel")' in config.read_text()

    # Every example notebook with the environment's own kernel (the python3 the notebooks name, as on
    # Binder), each in a kernel of its own, compared cell by cell with its stored outputs: nbval (of this
    # run's version, with pytest) added to the environment, the suite's sanitizing rules. This is the
    # suite's one nbval round. Its kernels load the extension where the notebooks say so (%load_ext, as
    # stored): a profile of their own turns the environment's autoload off, which would only add "already
    # loaded" to each first cell (the autoload is checked below).
    run([python, "-m", "pip", "install", "-q", f"pytest=={version('pytest')}", f"nbval=={version('nbval')}"],
        timeout=900, env=env, cwd=tmp_path)
    profile = tmp_path / "ipython-stored" / "profile_default"
    profile.mkdir(parents=True)
    (profile / "ipython_config.py").write_text("c.InteractiveShellApp.extensions = []\n")
    notebooks = sorted((repo / "example_notebooks").glob("*.ipynb"))
    cells = sum(c.cell_type == "code" for path in notebooks for c in nbformat.read(path, as_version=4).cells)
    out = run([python, "-m", "pytest", "-p", "no:cacheprovider", "-o", "addopts=", "-q", "--nbval",
               "--nbval-sanitize-with=tests/nbval_sanitize.cfg", "--nbval-kernel-startup-timeout=120",
               "example_notebooks"], timeout=1800, env=dict(env, IPYTHONDIR=str(profile.parent)), cwd=repo)
    assert re.search(rf"\b{cells} passed\b", out), out[-3000:]

    # The start page shows a roll (as stored, hence as it ran).
    rolled = cell(nbformat.read(repo / "example_notebooks" / "00_Start.ipynb", as_version=4), "%roll 3W6+2")
    shown = plain(rolled)
    assert re.match(r"3W6\+2 = \[\d, \d, \d\] \+ 2 = \d+  ·  P\(≥ \d+\) = \d+,\d\d %", shown), shown
    assert any("<svg" in o.get("data", {}).get("text/html", "") for o in rolled.outputs), rolled.outputs

    # Without %load_ext: the magic works because every kernel loads the extension.
    bare = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("import sys\nprint(sys.prefix)"),
        nbformat.v4.new_code_cell("%roll --seed 1 3W6"),
    ])
    bare.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)",
                                   "language": "python"}
    bare_path = tmp_path / "autoload.ipynb"
    nbformat.write(bare, bare_path)
    done = execute(python, bare_path, tmp_path, env, tmp_path)
    assert not errors(done), "\n".join(errors(done))
    prefix = plain(done.cells[0]).strip()
    assert os.path.realpath(prefix) == os.path.realpath(venv), f"kernel ran in {prefix}, not in {venv}"
    magic = plain(done.cells[1])
    assert re.fullmatch(r"3W6 = \[\d, \d, \d\] = \d+  ·  P\(≥ \d+\) = \d+,\d\d %", magic.strip()), magic
