"""The built wheel: it carries the front-end files and works without the source tree."""

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
                   check=True)
    [whl] = out.glob("rpgkernel-*.whl")
    return whl


def test_wheel_carries_package_and_front_end(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "rpgkernel/__init__.py" in names and "rpgkernel/dice/exact.py" in names
    front_end = {p.relative_to(ROOT / "widgets").as_posix() for p in (ROOT / "widgets").rglob("*") if p.is_file()}
    assert front_end and {f"rpgkernel/frontend/{f}" for f in front_end} <= names


def test_installed_wheel_renders_from_its_own_files(wheel, tmp_path):
    zipfile.ZipFile(wheel).extractall(tmp_path)
    code = ("import rpgkernel, pathlib; r = rpgkernel.roll('3W6', dice=[1, 2, 3]); "
            "html = r._repr_html_(); "
            "print(pathlib.Path(rpgkernel.__file__).parent.parent); print('.rpgk-card{' in html)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=tmp_path, env={"PYTHONPATH": str(tmp_path), "PATH": ""})
    home, styled = out.stdout.split()
    assert Path(home) == tmp_path and styled == "True"
