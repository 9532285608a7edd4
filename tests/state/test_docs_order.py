"""docs/kampagne.md, "Teilnehmer und Reihenfolge ändern" and "%begegnung": the page's example run in a
notebook on the ambush of the page with its rolls, what it shows compared with the code's, each step one
undo; the table of %begegnung's commands against the magic and the Encounter API, the rulesets' table
against the rules the refusals name."""

import ast
import re

from doc_blocks import assert_shown, page

import rpgkernel
from rpgkernel.magic_encounter import SHAPES
from rpgkernel.messages import t
from rpgkernel.state import Campaign, Encounter

PAGE = page("kampagne.md")
ORDER_HEADING = "### Teilnehmer und Reihenfolge ändern"
MAGIC_HEADING = "### `%begegnung`"
ORDER = PAGE.block("python", "begegnung.remove", after=ORDER_HEADING)
ORDER_SHOWN = PAGE.block("text", after=ORDER_HEADING)
MAGIC = PAGE.block("", "%begegnung später Bruni", after=MAGIC_HEADING)
MAGIC_SHOWN = PAGE.block("text", "Bruni wartet ab", after=MAGIC_HEADING)
SKIP = PAGE.block("", "%begegnung überspringen aus", after=MAGIC_HEADING)
SKIP_SHOWN = PAGE.block("text", "Hinterhalt: Teilnehmer außer Gefecht", after=MAGIC_HEADING)
SQLITE = PAGE.block("", "%rpg --kampagne kampagne.sqlite\n")
SECTIONS = PAGE.take("yaml")[1]
RUN = PAGE.block("python", "kampagne = rpgkernel.session.current().campaign", after="## Eine Begegnung führen")
TEXT = " ".join(PAGE.text.split())


def started() -> str:
    """The page's first lines of "Eine Begegnung führen": the campaign, the encounter, its start with the rolls."""
    statements = ast.parse(RUN.text).body[:3]
    assert "begegnung.start(rolls=" in ast.unparse(statements[2])
    return "import rpgkernel\n" + "\n".join(ast.unparse(s) for s in statements)


def test_the_order_example_as_the_page_shows(notebook):
    notebook.ok(SQLITE.text)
    notebook.ok("%%figuren\n" + SECTIONS.text)
    notebook.ok(started())
    camp = rpgkernel.session.current().campaign
    enc = camp.encounter
    assert (enc.order, enc.current) == (["Alrik", "Hauptmann Grimm", "Goblin 1", "Bruni", "Goblin 2", "Goblin 3"],
                                        "Alrik")   # as the page says
    before, seq = enc.record, camp.store.last_seq()
    [shown] = notebook.ok(ORDER.text)
    assert_shown(ORDER_SHOWN.text, shown)
    assert enc.current == "Alrik" and enc.held == [] and enc.removed == [] and enc.hidden == ["Hauptmann Grimm"]
    assert {enc.initiative[f"Goblin {i}"] for i in (1, 2, 3)} == {11} and enc.initiative["Rabe"] == 20
    assert enc.record["combatants"]["Wolf 2"]["side"] == "Räuber" and camp.figure("Wolf 2").resources["LP"]["max"] == 6
    written = list(camp.store.events(after=seq))
    assert {e.kind for e in written} == {"kampfteilnehmer", "initiative", "zug"}   # "Teilnehmer", "Initiative"
    assert "(Art `Teilnehmer` oder `Initiative`)" in TEXT
    [shown] = notebook.ok(MAGIC.text)                # the magic, where the example left the fight
    assert_shown(MAGIC_SHOWN.text, shown)
    [shown] = notebook.ok(SKIP.text)
    assert_shown(SKIP_SHOWN.text, shown)
    assert enc.skip_out is False and camp.journal(last=1)[0].kind == "einstellung"   # "Einstellung"
    steps = len([s for s in ast.parse(ORDER.text).body if not isinstance(s, ast.Expr) or "(" in ast.unparse(s)])
    assert steps == 11
    for _ in range(steps + 2):                         # each line one step back
        camp.undo()
    assert enc.record == before


def test_the_table_of_commands_is_the_magic_and_the_api():
    table = PAGE.text.split("| Befehl | Python | |")[1].split("\n\n")[0].splitlines()[2:]
    commands, methods, campaign = set(), set(), set()
    for row in table:
        magic, python, _ = row.strip("|").split("|")
        commands |= set(re.findall(r"`%begegnung (\w+)", magic))
        campaign |= set(re.findall(r"kampagne\.(\w+)\(", python))              # the campaign's (a value)
        methods |= set(re.findall(r"(?<!kampagne\.)\b(\w+)\(", python))
    assert commands == set(SHAPES)
    assert campaign == {"change"} and campaign <= set(dir(Campaign))
    assert methods <= set(dir(Encounter)) and {"remove", "restore", "add", "delay", "act_now", "move", "reroll",
                                               "group", "hide", "reveal", "start", "next_turn", "next_round"} <= methods
    assert "`ungroup`" in TEXT and all(f"`begegnung.{m}`" in TEXT for m in ("held", "removed", "hidden", "initiative"))


def test_the_rulesets_table_names_the_rules_their_refusals_cite():
    table = PAGE.text.split("| Regelwerk | Dazukommen |")[1].split("\n\n")[0]
    rows = {line.split("|")[1].strip(): line for line in table.splitlines()[2:]}
    assert list(rows) == ["ohne", "Mythic Bastionland", "OSR", "Midgard", "AdZ", "Kampfwerte"]
    cited = {"bastionland.no_initiative": ("Mythic Bastionland", "Überraschung"),
             "bastionland.order_players_first": ("Mythic Bastionland", "Überraschung"),
             "osr.order_side_first": ("OSR", "Die Partei mit der Initiative handelt zuerst"),
             "osr.no_reroll": ("OSR", "Kampf"), "osr.no_group": ("OSR", "jede Partei"),
             "osr.delay_nothing": ("OSR", "Initiative verzögern"),
             "midgard.order_later_only": ("Midgard", "erst später in dieser Reihenfolge oder gar nicht"),
             "midgard.no_group": ("Midgard", "Anführer"), "adz.order_descending": ("AdZ", "Runden"),
             "adz.order_tie": ("AdZ", "ausgewürfelt"), "kampfwerte.order_descending": ("Kampfwerte", "Initiative"),
             "kampfwerte.order_tie": ("Kampfwerte", "Spielercharakter")}
    for key, (ruleset, rule) in cited.items():
        assert rule in t(key, figure="A", others="B") and rule in rows[ruleset], (key, rule)
