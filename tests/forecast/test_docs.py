"""docs/prognose.md: every line of its magic block run in a notebook, its Python blocks run (the paths'
with what it shows), its table of target picking checked against the tactics."""

from __future__ import annotations

from doc_blocks import assert_shown, page, run_python

from rpgkernel import session
from rpgkernel.rules.tactics import ZIELWAHL

from .test_forecast import SÖLDNER

PAGE = page("prognose.md")
MAGIC = PAGE.block("", "%rpg prognose")
PYTHON = PAGE.block("python", "prognose = kampagne.encounter.forecast")
PATHS = PAGE.block("python", "exakt = kampagne.encounter.forecast", after="## Exakt oder simuliert")
PATHS_SHOWN = PAGE.block("", "('exakt'", after="## Exakt oder simuliert")
WEIGHING = PAGE.block("python", "from rpgkernel.forecast import weighing")
TEXT = " ".join(PAGE.text.split())


def setup(notebook, tmp_path):
    """A Knight who fells his foe with the first blow (a W4 against no armour takes 1 of 2 VIG)."""
    notebook.ok(f"%rpg --kampagne {tmp_path / 'k.sqlite'}")
    notebook.ok("%rpg bastionland")
    c = session.current().campaign
    enc = c.new_encounter("Furt")
    enc.add("Ritter", side="Spieler", sheet={**SÖLDNER, "ruestung": 0})
    enc.add("Söldner", side="Söldner", sheet={**SÖLDNER, "ruestung": 0})
    return c


def test_every_magic_line(notebook, tmp_path):
    setup(notebook, tmp_path)
    for line in MAGIC.lines:
        shown = notebook.ok(line.split("#")[0])
        assert shown[-1].startswith("Prognose Furt, vor dem Kampf") and "Sieg für Spieler: 100,00 %" in shown[-1]
    assert notebook.value.fights >= 2000 or notebook.value.precision <= 0.02


def test_the_python_block(notebook, tmp_path):
    c = setup(notebook, tmp_path)
    p, low, high = run_python(PYTHON.text, {"kampagne": c})
    assert p == 1 and high == 1 and 0.99 < low < 1


def test_the_paths_block(notebook, tmp_path):
    c = setup(notebook, tmp_path)
    assert_shown(PATHS_SHOWN.text, repr(run_python(PATHS.text, {"kampagne": c})))


def test_the_weighing_block(tmp_path):
    """The Söldner's attack open, the Ritter's Deny weighed in the background: its chance as shown."""
    from .test_options import duel
    c = duel(tmp_path / "k.sqlite")
    namespace = {"kampagne": c}
    wins = run_python(WEIGHING.text, namespace)
    assert namespace["rechnung"].finished and namespace["rechnung"].progress[0] == len(namespace["rechnung"].options)
    assert f"{wins['deny', 'Ritter', 'Deny auf die 7']:.3f}…" in WEIGHING.text
    c.close()


def test_the_table_names_every_target_picking():
    for name in ZIELWAHL:
        assert f"| `{name}`" in TEXT
