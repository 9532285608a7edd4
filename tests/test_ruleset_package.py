"""A ruleset from another package: tests/beispiel_regelwerk (the example of docs/regelwerk-schreiben.md)
installed with pip into a fresh virtual environment beside rpgkernel, then played in a real kernel
through %%resolve, the panel and the sheet, using only what the guide documents."""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
import pytest
from fresh_venv import cell, errors, execute, plain, run, venv_env
from project_copy import copy_project

CELLS = [
    "%load_ext rpgkernel",
    "import rpgkernel\nprint(rpgkernel.rulesets())",
    "%rpg wagnis --kampagne wagnis.sqlite",
    "%%figuren\nfiguren:\n  - name: Held\n    werte: {mut: 1, glueck: 1}\n"
    "begegnung:\n  name: Probe\n  teilnehmer:\n    - figur: Held\n      seite: Spieler",
    "%%resolve --vorschau\nwagnis Held wm=1",
    "%%resolve --würfel 2\nwagnis Held",
    "%%resolve --würfel 6\nglück Held",
    "kampagne = rpgkernel.session.current().campaign\nprint(kampagne.figure('Held').resources)",
    "from rpgkernel.widgets import CharacterSheet, EncounterPanel\n"
    "panel = EncounterPanel(kampagne)\nprint([v['name'] for v in panel.rules['verbs']], [r['name'] for r in panel.rows])",
    "bogen = CharacterSheet(kampagne, 'Held')\nprint(bogen.ruleset, [f['name'] for f in bogen.fields])",
    "from rpgkernel_wagnis.settings import einrichten\neinrichten(6, kampagne=kampagne)",
    "%%resolve --vorschau\nwagnis Held",
    "%%resolve\nwagnis Held wm=9",
]


@pytest.mark.slow
def test_a_ruleset_package_installs_and_plays_in_a_real_kernel(tmp_path: Path) -> None:
    repo = copy_project(tmp_path / "repo")
    venv = tmp_path / "venv"
    env = venv_env(tmp_path, venv)
    python = venv / "bin" / "python"
    run([sys.executable, "-m", "venv", venv], timeout=300, env=env, cwd=tmp_path)
    run([python, "-m", "pip", "install", "-q", str(repo), str(repo / "tests" / "beispiel_regelwerk"),
         "ipykernel", "nbclient"], timeout=1200, env=env, cwd=tmp_path)

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = tmp_path / "wagnis.ipynb"
    nbformat.write(nb, path)
    done = execute(python, path, tmp_path, env, tmp_path)
    assert not errors(done), "\n".join(errors(done))

    def shown(i: int) -> str:
        return plain(cell(done, CELLS[i]))

    assert "'wagnis'" in shown(1) and "'osr'" in shown(1)
    assert "Wagnis (Beispiel)" in shown(2)
    assert "66,67 %" in shown(4)                       # W6 + 1 + 1 >= 5: 4 of 6 faces
    assert "einen Punkt Glück ausgeben" in shown(5)    # 2 + 1 = 3: missed, the choice is open
    assert "Held gelingt das Wagnis" in shown(6)       # Glück: 6 + 1 = 7
    assert "'Glück': {'value': 0, 'max': 1}" in shown(7)
    assert "['wagnis', 'glück'] ['Held']" in shown(8)
    assert "Wagnis (Beispiel)" in shown(9) and "'mut'" in shown(9) and "'glueck'" in shown(9)
    assert "33,33 %" in shown(11)                      # the GM's Schwelle 6 in the campaign: W6 >= 5


GUIDE = Path(__file__).resolve().parent.parent / "docs" / "regelwerk-schreiben.md"
EXAMPLE = Path(__file__).resolve().parent / "beispiel_regelwerk"


def test_the_guide_shows_the_example_package_word_for_word():
    import re
    text = GUIDE.read_text(encoding="utf-8")
    shown = {m.group(2): m.group(3) for m in re.finditer(r"^```(python)\n# (\S+)\n(.*?)^```", text, re.S | re.M)}
    for lang, name in (("toml", "pyproject.toml"), ("yaml", "rpgkernel_wagnis/data/einstellungen.yaml")):
        shown[name] = re.search(rf"^```{lang}\n(.*?)^```", text, re.S | re.M).group(1)
    files = {str(p.relative_to(EXAMPLE)) for p in EXAMPLE.rglob("*") if p.suffix in (".py", ".toml", ".yaml")}
    assert set(shown) == files
    for name, code in shown.items():
        assert code == (EXAMPLE / name).read_text(encoding="utf-8"), name
