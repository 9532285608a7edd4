"""The tests mirror the package: a test folder is named after the package folder it tests
(tests/dice/ for rpgkernel/dice/, tests/rules/adz/ for rpgkernel/rules/adz/); tests/browser/ drives
JupyterLab. Each folder is a Python package, so two folders may hold modules of the same name."""

from pathlib import Path

import rpgkernel

TESTS = Path(__file__).resolve().parent
PACKAGE = Path(rpgkernel.__file__).parent
#: every folder below tests/ that holds test modules
FOLDERS = sorted({p.parent.relative_to(TESTS) for p in TESTS.rglob("test_*.py")} - {Path(".")})


def test_the_folders_are_found():
    assert Path("dice") in FOLDERS and Path("browser") in FOLDERS


def test_every_test_folder_mirrors_a_package_folder():
    assert [f for f in FOLDERS if f.parts[0] != "browser" and not (PACKAGE / f).is_dir()] == []


def test_every_test_folder_is_a_package():
    folders = {d for f in FOLDERS for d in (f, *f.parents[:-1])}  # rules/adz/ and rules/
    assert sorted(d for d in folders if not (TESTS / d / "__init__.py").is_file()) == []
