"""The character sheet widget: its data model and every way it syncs (no browser)."""

import re

import pytest

from rpgkernel import rules
from rpgkernel.errors import RpgError, StoreError
from rpgkernel.state import Campaign
from rpgkernel.widgets import CharacterSheet

HOSTILE = "<img src=x onerror=alert(1)>"
SHEET = {"vig": 12, "cla": 10, "spi": 8, "gd": 4, "waffen": ["Streitkolben (W8, wuchtig)"]}


@pytest.fixture
def camp(tmp_path):
    with Campaign.open(tmp_path / "k.sqlite") as c:
        c.set_ruleset("bastionland")
        c.add_character("Ritter", SHEET, conditions={"Fatigued": {}, "Narbe": {"runden": 2}})
        yield c


def edit(widget, **values):
    """What the front end does when the user types: it writes the draft trait."""
    widget.set_state({"draft": {**widget.draft, **values}})


def send(widget, message, **content):
    widget._dispatch(widget, {"type": message, **content})


def test_the_form_follows_the_rulesets_sheet(camp):
    w = CharacterSheet(camp.characters["Ritter"])
    fields = {f["name"]: f for f in w.fields}
    assert list(fields)[:4] == ["vig", "cla", "spi", "gd"]
    assert fields["vig"] == {"name": "vig", "kind": "int", "label": "Vigour", "hint": "", "min": 0, "max": 19,
                             "choices": [], "required": True, "own": False}
    # the labels as the ruleset's sheet gives them (as the player's page shows them), the example apart
    sheet = rules.get("bastionland").sheet
    assert {n: f["label"] for n, f in fields.items()} == {n: sheet.label(n) for n in sheet.fields}
    assert fields["waffen"]["label"] == "Waffen und Schild"
    assert fields["waffen"]["hint"] == sheet.fields["waffen"].hint == "z. B. 'Streitkolben (W8, wuchtig)'"
    assert fields["art"]["choices"] == ["Person", "Kriegsschar", "Schiff", "Bauwerk"]
    assert fields["waffen"]["kind"] == "list" and fields["spielfigur"]["kind"] == "bool"
    assert not w.extensible and w.figure == "Ritter" and w.ruleset == "Mythic Bastionland"
    # the saved values, and an empty editor where the sheet has nothing
    assert w.draft["vig"] == 12 and w.draft["ruestung"] == 0 and w.draft["waffen"] == SHEET["waffen"]
    assert w.draft["reittier"] == "" and w.draft["art"] == "" and w.draft["spielfigur"] is False
    assert w.resources[:2] == [{"name": "GD", "value": 4, "max": 4}, {"name": "VIG", "value": 12, "max": 12}]
    assert w.conditions == [{"name": "Fatigued", "left": None}, {"name": "Narbe", "left": 2}]
    assert w.error == "" and w.error_field == "" and not w.stale
    assert w.text() == repr(w) == "Bogen: Ritter (Mythic Bastionland), Vigour 12, Clarity 10, Spirit 8, Guard 4"


def test_ways_to_name_the_figure(camp):
    a, b = CharacterSheet(camp, "Ritter"), CharacterSheet(camp.figure("Ritter"))
    assert a.draft == b.draft and a.fields == b.fields
    with pytest.raises(RpgError, match="Unbekannte Figur 'Ritterr'"):
        CharacterSheet(camp, "Ritterr")
    with pytest.raises(RpgError, match="braucht eine Figur"):
        CharacterSheet("Ritter")


def test_the_front_end_module_and_labels(camp):
    assert CharacterSheet._esm.count("export default") == 1 and "function redrawOn" in CharacterSheet._esm
    assert ".rpgk-sheet" in CharacterSheet._css and ".rpgk-w{" in CharacterSheet._css
    used = set(re.findall(r'"(widget\.sheet\.[a-z_]+)"', CharacterSheet._esm))
    used |= {f"widget.sheet.kind_{k}" for k in ("int", "text", "bool", "list")}   # built from the kind
    assert len(used) > 20 and used <= set(CharacterSheet(camp, "Ritter").labels)


def test_saving_writes_through_the_campaign(camp):
    w = CharacterSheet(camp, "Ritter")
    camp.change("Ritter", "VIG", -3)
    assert w.resources[1] == {"name": "VIG", "value": 9, "max": 12}      # shown at once
    revision = w.revision
    edit(w, vig=14, reittier="Schlachtross (W8 Trampelschaden)", spielfigur=True)
    send(w, "save")
    assert w.error == "" and w.revision == revision + 1
    assert camp.characters["Ritter"].sheet["vig"] == 14 and w.draft["vig"] == 14
    assert w.resources[1] == {"name": "VIG", "value": 11, "max": 14}
    assert camp.journal(last=1)[0].data["text"] == ("Bogen von Ritter geändert: Vigour 12 → 14; "
                                                    "Reittier – → Schlachtross (W8 Trampelschaden); "
                                                    "Spielfigur – → ja")
    assert w.text().startswith("Bogen: Ritter (Mythic Bastionland), Vigour 14,")
    # undo reaches the sheet through the campaign
    camp.undo()
    assert w.draft["vig"] == 12 and w.draft["reittier"] == "" and w.resources[1]["max"] == 12


def test_save_uses_the_draft_it_carries(camp):
    """The save message overtakes a held-back state update: it brings the newest draft along."""
    w = CharacterSheet(camp, "Ritter")
    edit(w, vig=1)                                  # the update that arrived
    send(w, "save", draft={**w.draft, "vig": 14})   # what the GM had typed when pressing Enter
    assert w.error == "" and camp.characters["Ritter"].sheet["vig"] == 14 and w.draft["vig"] == 14
    send(w, "save", draft="kaputt")                 # not a dict: ignored, the stored draft counts
    assert w.error == "" and camp.characters["Ritter"].sheet["vig"] == 14


def test_an_untouched_form_changes_nothing(camp):
    w = CharacterSheet(camp, "Ritter")
    seq = camp.state["seq"]
    edit(w, waffen=[*SHEET["waffen"], ""])       # an empty new list entry does not count
    send(w, "save")
    assert camp.state["seq"] == seq and w.error == ""
    edit(w, spielfigur=True)
    send(w, "save")
    edit(w, spielfigur=False)                     # a box the sheet has keeps its "nein"
    send(w, "save")
    assert camp.characters["Ritter"].sheet["spielfigur"] is False


@pytest.mark.parametrize("values, field, message", [
    ({"vig": 30}, "vig", "Feld 'vig' (Vigour): erlaubt ist eine ganze Zahl von 0 bis 19, nicht 30."),
    ({"cla": None}, "cla", "Das Feld 'cla' (Clarity) fehlt; erlaubt ist eine ganze Zahl von 0 bis 19."),
    ({"spi": 2.5}, "spi", "Feld 'spi' (Spirit): erlaubt ist eine ganze Zahl von 0 bis 19, nicht 2.5."),
    ({"art": "Drache"}, "art", "erlaubt ist einer der Werte Person, Kriegsschar, Schiff, Bauwerk, nicht 'Drache'."),
    ({"waffen": ["x" * 501]}, "waffen", "erlaubt ist eine Liste von höchstens 100 Texten"),
    ({"vig": 30, "cla": None}, "vig", "Feld 'vig' (Vigour)"),       # the first error, as the ruleset reports it
])
def test_a_refused_save_keeps_the_edits_and_names_the_field(camp, values, field, message):
    w = CharacterSheet(camp, "Ritter")
    seq = camp.state["seq"]
    edit(w, ruestung_aus="Kettenhemd", **values)
    typed = dict(w.draft)
    send(w, "save")
    assert message in w.error and w.error_field == field
    assert w.draft == typed and camp.state["seq"] == seq
    edit(w, **{k: SHEET.get(k, "") for k in values})
    send(w, "save")
    assert w.error == "" and w.error_field == ""
    assert camp.characters["Ritter"].sheet["ruestung_aus"] == "Kettenhemd"


def test_changes_from_elsewhere_update_the_form_unless_it_has_edits(camp):
    w = CharacterSheet(camp, "Ritter")
    camp.set_sheet("Ritter", {**SHEET, "cla": 11})                   # another cell
    assert w.draft["cla"] == 11 and not w.stale
    edit(w, vig=13)
    revision = w.revision
    camp.set_sheet("Ritter", {**SHEET, "cla": 15})
    assert w.stale and w.draft["vig"] == 13 and w.draft["cla"] == 11 and w.revision == revision
    camp.add_condition("Ritter", "schutzlos")                         # resources and conditions still follow
    assert w.conditions[-1] == {"name": "schutzlos", "left": None}
    send(w, "reload")
    assert not w.stale and w.draft["vig"] == 12 and w.draft["cla"] == 15 and w.revision == revision + 1
    # edits that match what arrives are no conflict
    edit(w, cla=16)
    camp.set_sheet("Ritter", {**SHEET, "cla": 16})
    assert not w.stale and w.draft["cla"] == 16
    # saving while stale overwrites the other change, as the notice says
    edit(w, vig=5)
    camp.set_sheet("Ritter", {**SHEET, "cla": 17})
    assert w.stale
    send(w, "save")
    assert not w.stale and camp.characters["Ritter"].sheet["cla"] == 16 and camp.characters["Ritter"].sheet["vig"] == 5


def test_another_notebooks_change_shows_when_the_front_end_polls(camp, tmp_path, monkeypatch):
    w = CharacterSheet(camp, "Ritter")
    edit(w, vig=40)
    send(w, "save")
    error = w.error
    edit(w, vig=12)
    with Campaign.open(tmp_path / "k.sqlite") as other:
        other.change("Ritter", "GD", -2)
    assert w.resources[0]["value"] == 4
    send(w, "poll")
    assert w.resources[0]["value"] == 2
    assert w.error == error and w.error_field == "vig"                # polling leaves a shown error alone

    def unreachable():
        raise StoreError("Der Server der Kampagne antwortet nicht.")
    monkeypatch.setattr(camp, "refresh", unreachable)
    send(w, "poll")
    assert w.error == "Der Server der Kampagne antwortet nicht."


def test_combatants(camp):
    enc = camp.new_encounter("Hinterhalt")
    enc.add("Ritter", character="Ritter")
    enc.add("Söldner", sheet={"vig": 10, "cla": 8, "spi": 7, "gd": 3})
    copy = CharacterSheet(camp.figure("Ritter"))
    edit(copy, gd=6)
    send(copy, "save")
    assert camp.characters["Ritter"].sheet["gd"] == 6
    own = CharacterSheet(camp.figure("Söldner"))
    camp.new_encounter("Später")                  # the sheet stays with its encounter's combatant
    edit(own, spi=9)
    send(own, "save")
    assert own.error == "" and camp.figure("Söldner", "Hinterhalt").sheet["spi"] == 9
    assert own.resources[3] == {"name": "SPI", "value": 9, "max": 9}
    assert "Söldner" not in camp.characters


def test_an_open_sheet_adds_and_removes_its_own_fields(camp):
    camp.set_ruleset(None)   # no ruleset: a sheet with any fields
    camp.add_character("Alrik", {"beruf": "Krieger", "st": 80, "sprachen": ["Albisch"], "adel": False})
    w = CharacterSheet(camp, "Alrik")
    assert w.extensible and w.ruleset == "" and w.text() == "Bogen: Alrik, st 80"
    assert [(f["name"], f["kind"], f["own"]) for f in w.fields] == [   # first the field of the GM's resource (HP)
        ("hp", "int", False), ("beruf", "text", True), ("st", "int", True), ("sprachen", "list", True),
        ("adel", "bool", True)]
    send(w, "add_field", name=" gw ", kind="int")
    send(w, "add_field", name="Zauber", kind="list")
    assert w.error == "" and [f["name"] for f in w.fields][-2:] == ["gw", "Zauber"]
    assert w.draft["gw"] is None and w.draft["Zauber"] == []
    edit(w, gw=61, Zauber=["Macht über Menschen"])
    send(w, "remove_field", name="beruf")
    assert "beruf" not in w.draft
    send(w, "save")
    assert camp.characters["Alrik"].sheet == {"st": 80, "sprachen": ["Albisch"], "adel": False, "gw": 61,
                                              "Zauber": ["Macht über Menschen"]}
    assert camp.journal(last=1)[0].data["text"] == \
        "Bogen von Alrik geändert: beruf Krieger → –; gw – → 61; Zauber – → Macht über Menschen"
    for kind, content, message in [
        ("add_field", {"name": "st", "kind": "int"}, "Das Feld 'st' gibt es schon."),
        ("add_field", {"name": "x", "kind": "float"}, "eine von int, text, bool, list, nicht 'float'"),
        ("add_field", {"name": "", "kind": "int"}, "Ungültiger Name für Feld"),
        ("remove_field", {"name": "fehlt"}, "entfernen lassen sich nur zusätzliche Felder"),
    ]:
        send(w, kind, **content)
        assert message in w.error
    ritter = CharacterSheet(camp, "Ritter")
    send(ritter, "add_field", name="x", kind="int")
    assert "nur die Felder seines Regelwerks" in ritter.error
    send(ritter, "remove_field", name="vig")
    assert "entfernen lassen sich nur zusätzliche Felder" in ritter.error and "vig" in ritter.draft


def test_hostile_text_stays_data(camp):
    camp.set_ruleset(None)
    camp.add_character(HOSTILE, sheet={"notiz": HOSTILE}, conditions={HOSTILE: {}}, resources={HOSTILE: 1})
    w = CharacterSheet(camp, HOSTILE)
    send(w, "add_field", name=HOSTILE + "{n}$&", kind="text")
    assert w.figure == HOSTILE and w.draft["notiz"] == HOSTILE and w.conditions[0]["name"] == HOSTILE
    assert w.resources == [{"name": HOSTILE, "value": 1, "max": 1}] and w.fields[-1]["label"] == HOSTILE + "{n}$&"
    assert w.text() == f"Bogen: {HOSTILE}"
    edit(w, **{HOSTILE + "{n}$&": "<script>alert(2)</script>"})
    send(w, "save")
    assert camp.characters[HOSTILE].sheet[HOSTILE + "{n}$&"] == "<script>alert(2)</script>"
    # the front end only ever sets text: no HTML parsing anywhere in its module
    assert not re.search(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|DOMParser",
                         CharacterSheet._esm)


def test_a_figure_that_is_gone_is_an_error_until_it_is_back(camp):
    camp.add_character("Knappe", {"vig": 5, "cla": 5, "spi": 5, "gd": 2})
    w = CharacterSheet(camp, "Knappe")
    camp.undo()
    assert "Unbekannte Figur 'Knappe'" in w.error
    send(w, "save")
    assert "Unbekannte Figur 'Knappe'" in w.error and w.error_field == ""
    camp.redo()
    assert w.error == "" and w.draft["vig"] == 5


def test_closing_stops_following_the_campaign(camp):
    w = CharacterSheet(camp, "Ritter")
    w.close()
    camp.change("Ritter", "GD", -1)
    assert w.resources[0]["value"] == 4 and camp._watchers == []
