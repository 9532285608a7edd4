"""docs/midgard.md: every verb documented, every example line valid, the YAML example and the grace
walkthrough played."""

import pytest
from doc_blocks import page
from verb_docs import assert_verb_documented

import rpgkernel
from rpgkernel import Campaign, statblocks
from rpgkernel.resolve.language import parse
from rpgkernel.resolve.run import PASS
from rpgkernel.rules.midgard import VERBS, tabellen

PAGE = page("midgard.md")
TEXT = PAGE.text
BLOCKS = PAGE.take("text")
SPELLINGS = {n.lower(): v.name for v in VERBS.values() for n in (v.name, *v.aliases)} | {PASS: PASS, "pass": PASS}
EXAMPLES = PAGE.examples()
YAML = PAGE.block("yaml", "figuren:").text
CELLS = PAGE.take("", "%%resolve --würfel", count=2)


def test_the_doc_has_example_blocks():
    assert len(BLOCKS) >= 18 and len(EXAMPLES) >= 35


@pytest.mark.parametrize("name", sorted(VERBS))
def test_every_verb_and_alias_is_documented(name):
    assert_verb_documented(VERBS[name], TEXT, EXAMPLES, SPELLINGS)


@pytest.mark.parametrize("line", EXAMPLES)
def test_every_example_line_parses_with_known_options(line):
    cmd = parse(line)[0]
    assert cmd.verb.text.lower() in SPELLINGS
    verb = VERBS.get(SPELLINGS[cmd.verb.text.lower()])
    if verb is not None:
        for key in cmd.options:
            assert verb.options.get(key) not in (None, "flag"), f"{key} in {line!r}"
        for flag in cmd.flags:
            assert verb.options.get(flag.text) == "flag", f"{flag.text} in {line!r}"


def test_gm_data_and_the_example_are_named_plainly():
    assert "Die Tabellen gehören der Spielleitung" in TEXT and "ein\nBeispiel**" in TEXT
    for section in tabellen._SECTIONS:
        assert f"| `{section}` |" in TEXT, f"Tabelle {section} nicht beschrieben"


def test_the_yaml_example_and_the_grace_walkthrough(tmp_path):
    with Campaign.open(tmp_path / "k.sqlite") as camp:
        camp.set_ruleset("midgard")
        statblocks.load(camp, YAML)
        results = [rpgkernel.resolve(body, campaign=camp, dice=[int(x) for x in line.split()[1].split(",")])
                   for _, line, body in (cell.magic for cell in CELLS)]
        assert results[0].open and not results[1].open
        assert results[1].outcome["ap_verlust"] == 2
        assert camp.figure("Schattenelf").resources["AP"]["value"] == 23
        assert camp.figure("Wolfgang Krentz").resources["GG"]["value"] == 0
