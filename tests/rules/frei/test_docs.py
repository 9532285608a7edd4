"""docs/kampagne.md, "Ohne Regelwerk: Schaden und Heilung": the damage cell and the preview cell run in a
notebook on a campaign without a ruleset, what they show compared with the page's."""

from doc_blocks import assert_shown, page

import rpgkernel

PAGE = page("kampagne.md")
HEADING = "## Ohne Regelwerk: Schaden und Heilung"
DAMAGE, DAMAGE_SHOWN, PREVIEW, PREVIEW_SHOWN = PAGE.take(None, after=HEADING, count=4)
FIGURES = """begegnung:
  name: Hinterhalt
  teilnehmer:
    - {name: Alrik, werte: {hp: 12}}
    - {name: Goblin, anzahl: 2, werte: {hp: 5}}
"""


def test_damage_and_its_preview_as_the_page_shows(notebook):
    notebook.ok("%rpg --kampagne frei.sqlite")
    notebook.ok("%%figuren\n" + FIGURES)
    camp = rpgkernel.session.current().campaign
    [shown] = notebook.ok(DAMAGE.text)
    assert_shown(DAMAGE_SHOWN.text, shown)
    assert camp.encounter.out_of_fight() == {"Goblin 1": "kampfunfähig (HP 0)"}
    seq = camp.store.last_seq()
    shown = notebook.ok(PREVIEW.text)
    assert_shown(PREVIEW_SHOWN.text, "\n".join(shown))
    assert camp.store.last_seq() == seq                      # a preview writes nothing
    notebook.ok("%rpg rückgängig")
    assert camp.encounter.out_of_fight() == {} and camp.figure("Alrik").resources["HP"]["value"] == 12
