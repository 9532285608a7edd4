"""A fresh virtual environment as a user's machine has it, and notebooks executed with its own kernel."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import nbformat
import pytest

# Executes a notebook (argv: source, destination) with the running Python's
# python3 kernel; errors are kept in the outputs for the test to report.
RUNNER = """
import sys
import nbformat
from nbclient import NotebookClient

src, dst = sys.argv[1:3]
nb = nbformat.read(src, as_version=4)
NotebookClient(nb, timeout=180, startup_timeout=120, kernel_name="python3", allow_errors=True,
               resources={"metadata": {"path": sys.argv[3]}}).execute()
nbformat.write(nb, dst)
"""


def run(cmd: list[str | os.PathLike], *, timeout: float, **kwargs) -> str:
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


def venv_env(tmp_path: Path, venv: Path) -> dict[str, str]:
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


def execute(python: Path, source: Path, tmp_path: Path, env: dict[str, str], cwd: Path):
    dest = tmp_path / f"executed-{source.name}"
    run([python, "-c", RUNNER, source, dest, cwd], timeout=600, env=env, cwd=cwd)
    return nbformat.read(dest, as_version=4)


def errors(nb) -> list[str]:
    """Error outputs, and stderr that reports an error (IPython prints a UsageError there)."""
    found = []
    for cell in nb.cells:
        for o in cell.get("outputs", []):
            if o.output_type == "error":
                found.append(f"{o.ename}: {o.evalue}\n" + "\n".join(o.traceback))
            elif o.output_type == "stream" and o.name == "stderr" and re.search(r"Error|Traceback", o.text):
                found.append(o.text)
    return found


def cell(nb, source: str):
    """The one code cell of ``nb`` whose source is ``source``."""
    cells = [c for c in nb.cells if c.cell_type == "code" and c.source.strip() == source]
    assert len(cells) == 1, f"expected one cell {source!r}"
    return cells[0]


def plain(executed) -> str:
    """What an executed cell shows as text: its plain results and streams."""
    return "\n".join(o.get("data", {}).get("text/plain", "") + o.get("text", "") for o in executed.outputs)
