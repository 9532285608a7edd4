"""The library of figures (rpgkernel.library): templates per ruleset in the user's data folder, the seed's
stat blocks as starter entries, search, ×N with numbered names, a figure or a side kept, YAML export and
import, %%figuren with vorlage:, --vorlagen and --als-vorlage; German errors that change nothing."""

import pytest
import yaml

from rpgkernel import Campaign
from rpgkernel.library import ENV, Library, LibraryError, folder
from rpgkernel.rules.bastionland import warband_templates
from rpgkernel.statblocks import StatBlockError, free_names

RAEUBER = [{"name": "Räuber", "anzahl": 2, "seite": "Räuber", "werte": {"vig": 10, "cla": 12, "spi": 8, "gd": 2}},
           {"name": "Hauptmann", "seite": "Räuber", "werte": {"vig": 13, "cla": 12, "spi": 12, "gd": 4}}]


@pytest.fixture
def camp(tmp_path):
    with Campaign.open(tmp_path / "k.sqlite") as c:
        c.set_ruleset("bastionland")
        c.new_encounter("Furt")
        yield c


def names(camp):
    return list(camp.encounter.record["combatants"])


def test_the_library_lives_in_the_users_data_folder_or_where_the_variable_says(own_library, monkeypatch):
    assert folder() == own_library and Library().path == own_library
    monkeypatch.delenv(ENV)
    from jupyter_core.paths import jupyter_data_dir
    assert folder().parent.parent == __import__("pathlib").Path(jupyter_data_dir())


def test_the_starter_entries_are_the_seeds_example_warbands_and_nothing_else():
    """Only what the seed texts hold as stat blocks: Bastionland's five example warbands, their sheets exactly
    the data file's; the other rulesets start empty."""
    found = Library().search("", "bastionland").templates
    assert [x.name for x in found] == ["Miliz", "Plänkler", "Söldner", "Reiter", "Ritter"]
    assert all(x.source == "regeltext" and len(x.entries) == 1 for x in found)
    assert {x.name: x.entries[0]["werte"] for x in found} == warband_templates()
    assert found[2].summary() == "VIG 13, CLA 10, SPI 10, GD 4, Armour 3"
    for key in ("adz", "kampfwerte", "midgard", "osr", None):
        assert Library().search("", key).templates == ()


def test_search_by_part_of_a_name_any_case_and_a_close_spelling():
    lib = Library()
    lib.save("Räuberbande", RAEUBER, "bastionland")
    assert [x.name for x in lib.search("SÖLD", "bastionland").templates] == ["Söldner"]
    assert [x.name for x in lib.search("soldner", "bastionland").templates] == ["Söldner"]
    assert [x.name for x in lib.search("räuber", "bastionland").templates] == ["Räuberbande"]
    assert repr(lib.search("Drache", "bastionland")) == "Keine Vorlage (Mythic Bastionland) passt zu 'Drache'."
    assert repr(lib.search("räub", "bastionland")) == ("Vorlagen (Mythic Bastionland), gefunden: 1\n"
                                                        "Räuberbande: Räuber ×2, Hauptmann")


def test_a_template_times_n_joins_with_numbered_names_in_one_undo_step(camp):
    lib = Library()
    lib.add(camp, "Söldner", 2, side="Feinde")
    lib.add(camp, "Söldner")                                   # the numbers go on
    lib.add(camp, "Ritter")                                    # one alone keeps its name
    assert names(camp) == ["Söldner 1", "Söldner 2", "Söldner 3", "Ritter"]
    assert camp.figure("Söldner 3").sheet == camp.figure("Söldner 1").sheet and \
        camp.figure("Söldner 1").sheet["vig"] == 13 and camp.encounter.record["combatants"]["Söldner 1"]["side"] == "Feinde"
    lib.save("Räuberbande", RAEUBER, "bastionland")
    lib.add(camp, "Räuberbande", 2)
    assert names(camp)[4:] == ["Räuber 1", "Räuber 2", "Räuber 3", "Räuber 4", "Hauptmann 1", "Hauptmann 2"]
    camp.undo()                                                # the whole side ×2 in one step
    assert names(camp) == ["Söldner 1", "Söldner 2", "Söldner 3", "Ritter"]
    assert free_names("Ritter", 1, ["Ritter"]) == ["Ritter 2"] and free_names("Wolf", 2, ["Wolf 1"]) == ["Wolf 2", "Wolf 3"]


def test_a_figure_or_a_whole_side_kept_as_a_template_for_every_campaign(camp, tmp_path):
    lib = Library()
    lib.add(camp, "Söldner", 3, side="Feinde")
    lib.load(camp, "- name: Knappe\n  seite: Helden\n  werte: {vig: 10, cla: 10, spi: 10, gd: 3}", "Furt")
    side = lib.save_figures("Söldnertrupp", camp, side="Feinde")
    assert side.entries == ({"name": "Söldner", "seite": "Feinde", "anzahl": 3, "werte": camp.figure("Söldner 1").sheet},)
    one = lib.save_figures("Knappe", camp, "Knappe")
    assert one.entries[0]["name"] == "Knappe" and one.entries[0]["werte"]["gd"] == 3
    kept = yaml.safe_load((lib.path / "bastionland.yaml").read_text(encoding="utf-8"))
    assert kept["regelwerk"] == "bastionland" and list(kept["vorlagen"]) == ["Söldnertrupp", "Knappe"]
    with Campaign.open(tmp_path / "andere.sqlite") as other:       # another campaign of this user finds it
        other.set_ruleset("bastionland")
        other.new_encounter("Wald")
        Library().add(other, "Söldnertrupp")
        assert names(other) == ["Söldner 1", "Söldner 2", "Söldner 3"]


def test_free_play_keeps_the_resources_maxima(tmp_path):
    with Campaign.open(tmp_path / "frei.sqlite") as camp:
        camp.new_encounter("Keller").add("Ratte", resources={"LP": 4})
        camp.change("Ratte", "LP", -3)
        x = Library().save_figures("Ratte", camp, "Ratte")
        assert x.ruleset is None and x.entries == ({"name": "Ratte", "ressourcen": {"LP": 4}},)
        Library().add(camp, "Ratte", 2)
        assert camp.figure("Ratte 2").resources["LP"] == {"value": 4, "max": 4}


def test_export_and_import_as_yaml(tmp_path):
    lib = Library(tmp_path / "hier")
    lib.save("Räuberbande", RAEUBER, "bastionland")
    out = lib.export(tmp_path / "vorlagen.yaml", "bastionland")
    there = Library(tmp_path / "dort")
    assert [x.name for x in there.import_file(out)] == ["Räuberbande"]
    assert there.get("Räuberbande", "bastionland").entries == lib.get("Räuberbande", "bastionland").entries
    with pytest.raises(LibraryError, match="Die Vorlage 'Räuberbande' gibt es schon; ersetzen mit --ersetzen"):
        there.import_file(out)
    there.import_file(out, replace=True)


@pytest.mark.parametrize("call, message", [
    (lambda lib: lib.save("Söldner", RAEUBER, "bastionland"), "'Söldner' ist schon eine Vorlage aus dem Regeltext"),
    (lambda lib: lib.save("X", [{"name": "A", "werte": {"vig": 30, "cla": 1, "spi": 1, "gd": 1}}], "bastionland"),
     "Vorlage 'X': Teilnehmer 1 ('A'), werte:"),
    (lambda lib: lib.save("X", [{"name": "A", "figur": "Alrik"}], "bastionland"), "figur: passt nicht in eine Vorlage"),
    (lambda lib: lib.save("X", [], "bastionland"), "braucht mindestens einen Teilnehmer"),
    (lambda lib: lib.save("", RAEUBER, "bastionland"), "Vorlage"),
    (lambda lib: lib.get("Söldnr", "bastionland"), "Keine Vorlage 'Söldnr' (Mythic Bastionland); vorhanden: Miliz"),
    (lambda lib: lib.remove("Miliz", "bastionland"), "'Miliz' steht im Regeltext und bleibt in der Bibliothek."),
    (lambda lib: lib.search("", "schach"), "schach"),
])
def test_bad_templates_are_refused_in_german_and_nothing_is_kept(call, message):
    lib = Library()
    with pytest.raises(Exception) as err:
        call(lib)
    assert message in str(err.value) and not (lib.path / "bastionland.yaml").exists()


def test_a_broken_file_is_said_with_its_path(own_library):
    (own_library / "bastionland.yaml").write_text("regelwerk: bastionland\nvorlagen: [1, 2\n", encoding="utf-8")
    with pytest.raises(LibraryError, match="bastionland.yaml lassen sich nicht lesen"):
        Library().search("", "bastionland")


# -- %%figuren ------------------------------------------------------------------------------------
def test_figuren_searches_keeps_and_adds_templates(notebook):
    notebook.ok("%rpg bastionland --kampagne k.sqlite")
    [shown] = notebook.ok("%figuren söld")
    assert shown == "Vorlagen (Mythic Bastionland), gefunden: 1\nSöldner (aus dem Regeltext): VIG 13, CLA 10, SPI 10, GD 4, Armour 3"
    [shown] = notebook.ok("%%figuren --als-vorlage Räuberbande\n" + yaml.safe_dump(RAEUBER, allow_unicode=True))
    assert shown.startswith("Vorlage 'Räuberbande' (Mythic Bastionland) behalten: Räuber ×2, Hauptmann.")
    notebook.ok("%%figuren --begegnung Furt\n- vorlage: Räuberbande\n- vorlage: Söldner\n  anzahl: 2\n  seite: Feinde\n"
                "- name: Alrik\n  werte: {vig: 12, cla: 12, spi: 12, gd: 4}")
    camp = __import__("rpgkernel").session.current().campaign
    assert names(camp) == ["Räuber 1", "Räuber 2", "Hauptmann", "Söldner 1", "Söldner 2", "Alrik"]
    notebook.ok("%%figuren\nfiguren:\n  - vorlage: Ritter\n    name: Sir Bors")
    assert camp.characters["Sir Bors"].sheet["spi"] == 13
    [error] = notebook.run("%%figuren --begegnung Furt\n- vorlage: Söldner\n  werte: {vig: 3}")
    assert "werte passt nicht zu einer Vorlage; erlaubt sind: vorlage, name, anzahl, seite." in error
    [error] = notebook.run("%%figuren\nfiguren:\n  - vorlage: Räuberbande")
    assert "Eine Figur der Kampagne entsteht aus einer Vorlage mit genau einer Figur." in error


def test_a_vorlage_without_the_library_says_where_it_is_read(camp):
    from rpgkernel import statblocks
    with pytest.raises(StatBlockError, match="Vorlagen aus der Bibliothek liest %%figuren"):
        statblocks.load(camp, "begegnung:\n  teilnehmer:\n    - vorlage: Söldner")


# -- the page's blocks (docs/kampagne.md) ----------------------------------------------------------
from doc_blocks import assert_shown, page, run_python  # noqa: E402

PAGE = page("kampagne.md")
LIBRARY = "## Die Bibliothek der Figuren"
SEARCH, SEARCH_SHOWN = PAGE.block("", "%figuren söld", after=LIBRARY), PAGE.block("text", after=LIBRARY)
ADD = PAGE.block("", "%%figuren\n", after=LIBRARY)
KEEP = PAGE.block("", "%%figuren --als-vorlage Räuberbande", after=LIBRARY)
PYTHON = PAGE.block("python", after=LIBRARY)
EDIT_HEADING = "### Einen Wert ändern: -5, +3, =7"
EDIT, EDIT_MAGIC = PAGE.block("python", after=EDIT_HEADING), PAGE.block("", after=EDIT_HEADING)


def test_the_library_blocks_of_the_page(notebook):
    notebook.ok("%rpg bastionland --kampagne k.sqlite")
    camp = __import__("rpgkernel").session.current().campaign
    camp.new_encounter("Furt")
    [shown] = notebook.ok(SEARCH.text)
    assert_shown(SEARCH_SHOWN.text, shown)
    notebook.ok(KEEP.text)
    notebook.ok(ADD.text)
    assert names(camp) == ["Söldner 1", "Söldner 2", "Söldner 3", "Räuber 1", "Räuber 2", "Hauptmann"]
    assert camp.characters["Sir Bors"].sheet["vig"] == 13
    run_python(PYTHON.text, {"kampagne": camp})
    assert names(camp)[6:] == ["Söldner 4", "Söldner 5", "Söldner 6", "Räuber 3", "Räuber 4"]
    assert [x.name for x in Library().search("", "bastionland").templates][5:] == \
        ["Räuberbande", "Söldnerführer", "Räuber"]
    assert [x.name for x in Library("anderswo").search("", "bastionland").templates][5:] == \
        ["Räuberbande", "Wachtrupp", "Söldnerführer", "Räuber"]


def test_the_edit_blocks_of_the_page(notebook):
    notebook.ok("%rpg --kampagne k.sqlite")
    camp = __import__("rpgkernel").session.current().campaign
    camp.new_encounter("Hinterhalt").add("Goblin", resources={"LP": 8}, count=3)
    run_python(EDIT.text, {"kampagne": camp})
    assert [camp.figure(f"Goblin {i}").resources["LP"]["value"] for i in (1, 2, 3)] == [6, 8, 7]
    for line in EDIT_MAGIC.lines:
        notebook.ok(line)
    assert [camp.figure(f"Goblin {i}").resources["LP"]["value"] for i in (1, 2, 3)] == [1, 3, 7]
    assert camp.journal(last=1)[0].data["text"] == "Goblin 3: LP 7 → 7"
