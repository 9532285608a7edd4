"""The Binder configuration in binder/: what repo2docker generates, and a simulated build.

The simulated build follows repo2docker's steps for ``binder/`` in a fresh
virtual environment: install from ``binder/requirements.txt`` at the repo
root, run ``binder/postBuild``, then execute every example notebook with
that environment's own kernel.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from project_copy import copy_project


# Executes a notebook (argv: source, destination) with the running Python's
# python3 kernel; errors are kept in the outputs for the test to report.
_RUNNER = """
import sys
import nbformat
from nbclient import NotebookClient

src, dst = sys.argv[1:3]
nb = nbformat.read(src, as_version=4)
NotebookClient(nb, timeout=180, startup_timeout=120, kernel_name="python3", allow_errors=True,
               resources={"metadata": {"path": sys.argv[3]}}).execute()
nbformat.write(nb, dst)
"""


def _run(cmd: list[str | os.PathLike], *, timeout: float, **kwargs) -> str:
    """Run ``cmd``; print its output (shown by pytest on failure) and fail with it on a non-zero exit."""
    shown = " ".join(map(str, cmd))
    try:
        proc = subprocess.run([str(c) for c in cmd], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, timeout=timeout, **kwargs)
    except subprocess.TimeoutExpired as err:
        out = err.output.decode(errors="replace") if isinstance(err.output, bytes) else (err.output or "")
        pytest.fail(f"timed out after {timeout} s: {shown}\n{out[-20000:]}")
    print(f"$ {shown}\n{proc.stdout}")
    if proc.returncode != 0:
        pytest.fail(f"exit {proc.returncode}: {shown}\n{proc.stdout[-20000:]}")
    return proc.stdout


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


def _venv_env(tmp_path: Path, venv: Path) -> dict[str, str]:
    """The environment of the simulated image: the venv first on PATH, no user config."""
    env = {k: v for k, v in os.environ.items()
           if k not in {"PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "JUPYTER_PATH", "JUPYTER_PREFER_ENV_PATH"}}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["VIRTUAL_ENV"] = str(venv)
    for var, sub in (("IPYTHONDIR", "ipython"), ("JUPYTER_CONFIG_DIR", "jconfig"),
                     ("JUPYTER_DATA_DIR", "jdata"), ("JUPYTER_RUNTIME_DIR", "jruntime")):
        (tmp_path / sub).mkdir()
        env[var] = str(tmp_path / sub)
    return env


def _execute(python: Path, source: Path, tmp_path: Path, env: dict[str, str], cwd: Path):
    dest = tmp_path / f"executed-{source.name}"
    _run([python, "-c", _RUNNER, source, dest, cwd], timeout=600, env=env, cwd=cwd)
    return nbformat.read(dest, as_version=4)


def _errors(nb) -> list[str]:
    """Error outputs, and stderr that reports an error (IPython prints a UsageError there)."""
    found = []
    for cell in nb.cells:
        for o in cell.get("outputs", []):
            if o.output_type == "error":
                found.append(f"{o.ename}: {o.evalue}\n" + "\n".join(o.traceback))
            elif o.output_type == "stream" and o.name == "stderr" and re.search(r"Error|Traceback", o.text):
                found.append(o.text)
    return found


def _cell(nb, source: str):
    cells = [c for c in nb.cells if c.cell_type == "code" and c.source.strip() == source]
    assert len(cells) == 1, f"expected one cell {source!r}"
    return cells[0]


def _plain(cell) -> str:
    return "\n".join(o.get("data", {}).get("text/plain", "") + o.get("text", "") for o in cell.outputs)


@pytest.mark.slow
def test_binder_build_in_fresh_venv(tmp_path: Path) -> None:
    repo = copy_project(tmp_path / "repo")
    venv = tmp_path / "venv"
    env = _venv_env(tmp_path, venv)
    python = venv / "bin" / "python"

    _run([sys.executable, "-m", "venv", venv], timeout=300, env=env, cwd=tmp_path)
    # Binder's base environment has these already.
    _run([python, "-m", "pip", "install", "ipykernel", "nbclient"], timeout=900, env=env, cwd=tmp_path)
    _run([python, "-m", "pip", "install", "-r", "binder/requirements.txt"], timeout=900, env=env, cwd=repo)
    postbuild = repo / "binder" / "postBuild"
    postbuild.chmod(postbuild.stat().st_mode | 0o111)
    _run(["./binder/postBuild"], timeout=120, env=env, cwd=repo)

    config = venv / "etc" / "ipython" / "ipython_config.py"
    assert config.is_file(), f"postBuild wrote no {config}"
    assert 'c.InteractiveShellApp.extensions.append("rpgkernel")' in config.read_text()

    # The start page runs without errors and shows a roll.
    start = _execute(python, repo / "example_notebooks" / "00_Start.ipynb", tmp_path, env,
                     repo / "example_notebooks")
    assert not _errors(start), "\n".join(_errors(start))
    rolled = _cell(start, "%roll 3W6+2")
    plain = _plain(rolled)
    assert re.match(r"3W6\+2 = \[\d, \d, \d\] \+ 2 = \d+  ·  P\(≥ \d+\) = \d+,\d\d %", plain), plain
    assert any("<svg" in o.get("data", {}).get("text/html", "") for o in rolled.outputs), rolled.outputs

    # Every ruleset's binder runs too, with the environment's own kernel.
    for path in sorted((repo / "example_notebooks").glob("*.ipynb")):
        if path.name != "00_Start.ipynb":
            done = _execute(python, path, tmp_path, env, repo / "example_notebooks")
            assert not _errors(done), f"{path.name}:\n" + "\n".join(_errors(done))
            assert all(c.execution_count for c in done.cells if c.cell_type == "code"), path.name

    # Without %load_ext: the magic works because every kernel loads the extension.
    bare = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("import sys\nprint(sys.prefix)"),
        nbformat.v4.new_code_cell("%roll --seed 1 3W6"),
    ])
    bare.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)",
                                   "language": "python"}
    bare_path = tmp_path / "autoload.ipynb"
    nbformat.write(bare, bare_path)
    done = _execute(python, bare_path, tmp_path, env, tmp_path)
    assert not _errors(done), "\n".join(_errors(done))
    prefix = _plain(done.cells[0]).strip()
    assert os.path.realpath(prefix) == os.path.realpath(venv), f"kernel ran in {prefix}, not in {venv}"
    magic = _plain(done.cells[1])
    assert re.fullmatch(r"3W6 = \[\d, \d, \d\] = \d+  ·  P\(≥ \d+\) = \d+,\d\d %", magic.strip()), magic
