"""A ruleset from another package: tests/beispiel_regelwerk (the example of docs/regelwerk-schreiben.md)
installed with pip into a fresh virtual environment beside rpgkernel, then played in a real kernel
through %%resolve, the panel and the sheet, with the cells the guide shows; and the guide shows the
example's files word for word."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from doc_blocks import page
from fresh_venv import cell, errors, execute, plain, run

GUIDE = page("regelwerk-schreiben.md")
EXAMPLE = Path(__file__).resolve().parent / "beispiel_regelwerk"
LAYOUT = GUIDE.block("text", "pyproject.toml ", after="## Aufbau des Pakets")
FILES = GUIDE.take("python", "# ") + [GUIDE.block("toml"), GUIDE.block("yaml")]
CATALOGUE = GUIDE.block("text", "# rpgkernel_wagnis/locale/messages.pot (Auszug)")
INSTALL = GUIDE.block("text", "pip install ", after="## Installieren und spielen")
CELLS = [b.text.strip() for b in GUIDE.take(after="## Installieren und spielen") if b is not INSTALL]
#: what the test reads back: the panel while the choice is open, then the rest (not part of the guide)
OPEN = "print([c['verb'] for p in panel.pending for c in p['choices']])"
LOOK = ("print(rpgkernel.rulesets())\n"
        "print([v['name'] for v in panel.rules['verbs']], [r['name'] for r in panel.rows])\n"
        "print(bogen.ruleset, [f['name'] for f in bogen.fields])\n"
        "print(kampagne.figure('Held').resources)")
PANEL = next(i for i, c in enumerate(CELLS) if "EncounterPanel(kampagne)" in c)
PLAYED = CELLS[:PANEL + 1] + [OPEN] + CELLS[PANEL + 1:] + [LOOK]


def test_the_guide_plays_the_example_in_order():
    starts = [c.partition("\n")[0] + c.partition("\n")[2].partition("\n")[0] for c in CELLS]
    assert starts[0].startswith("%load_ext rpgkernel") and "%rpg wagnis" in CELLS[0]
    assert [s for s in starts if s.startswith("%%resolve")] == [
        "%%resolve --vorschauwagnis Held wm=1", "%%resolve --würfel 2wagnis Held", "%%resolve --würfel 6glück Held",
        "%%resolve --vorschauwagnis Held"]
    assert INSTALL.lines == ["pip install ./beispiel_regelwerk"]


@pytest.mark.slow
def test_a_ruleset_package_installs_and_plays_in_a_real_kernel(binder_env, tmp_path: Path) -> None:
    """In the fresh environment of the Binder build (rpgkernel and a kernel installed there), the guide's
    install line, then its cells."""
    repo, venv, env = binder_env
    python = venv / "bin" / "python"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in PLAYED])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = tmp_path / "wagnis.ipynb"
    nbformat.write(nb, path)
    run([python, "-m", "pip", "install", "-q", *INSTALL.lines[0].split()[2:]], timeout=1200, env=env,
        cwd=repo / "tests")
    try:
        done = execute(python, path, tmp_path, env, tmp_path)
    finally:   # the environment as the Binder build left it (the example notebooks list the rulesets)
        run([python, "-m", "pip", "uninstall", "-y", "-q", "rpgkernel-wagnis"], timeout=300, env=env, cwd=tmp_path)
    assert not errors(done), "\n".join(errors(done))

    def shown(first: str, nth: int = 0) -> str:
        return plain(cell(done, [c for c in PLAYED if c.startswith(first)][nth]))

    assert "Wagnis (Beispiel)" in shown("%load_ext")
    assert "66,67 %" in shown("%%resolve --vorschau")                  # W6 + 1 + 1 >= 5: 4 of 6 faces
    assert "einen Punkt Glück ausgeben" in shown("%%resolve --würfel 2")  # 2 + 1 = 3: missed, open
    assert "Held gelingt das Wagnis" in shown("%%resolve --würfel 6")     # Glück: 6 + 1 = 7
    assert "33,33 %" in shown("%%resolve --vorschau", 1)               # the GM's Schwelle 6: W6 >= 5
    rulesets, panel, sheet, resources = shown("print(rpgkernel.rulesets())").splitlines()
    assert "'wagnis'" in rulesets and "'osr'" in rulesets
    assert panel == "['wagnis'] ['Held']"
    assert shown(OPEN).strip() == "['glück']"                          # the open choice, with its button
    assert "Wagnis (Beispiel)" in sheet and "'mut'" in sheet and "'glueck'" in sheet
    assert resources == "{'Glück': {'value': 0, 'max': 1}}"


def test_the_guide_shows_the_example_package_word_for_word():
    shown = {b.text.partition("\n")[0][2:]: b.text.partition("\n")[2] for b in FILES if b.lang == "python"}
    shown.update({b.lang == "toml" and "pyproject.toml" or "rpgkernel_wagnis/data/einstellungen.yaml": b.text
                  for b in FILES if b.lang != "python"})
    files = {str(p.relative_to(EXAMPLE)) for p in EXAMPLE.rglob("*") if p.suffix in (".py", ".toml", ".yaml")}
    assert set(shown) == files
    for name, code in shown.items():
        assert code == (EXAMPLE / name).read_text(encoding="utf-8"), name
    listed = {line.split()[0] for line in LAYOUT.lines}
    assert listed == files | {"rpgkernel_wagnis/locale/messages.pot"}
    pot = (EXAMPLE / "rpgkernel_wagnis" / "locale" / "messages.pot").read_text(encoding="utf-8")
    assert re.sub(r"^# .*\n", "", CATALOGUE.text, count=1) in pot
