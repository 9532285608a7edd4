"""AdZ in the encounter panel and the character sheet: bars, conditions, verbs, previews, the defence and
the luck choice."""

import pytest
from panel_driving import row, send, set_form

import rpgkernel
from rpgkernel import Campaign
from rpgkernel.messages import t
from rpgkernel.statblocks import load
from rpgkernel.widgets import CharacterSheet, EncounterPanel

BLOCK = """
figuren:
  - name: Alrik
    werte: {KK: 5, KO: 4, GE: 6, FF: 3, KL: 3, WK: 4, IN: 5, CH: 2, GL: 3,
            fertigkeiten: ["Schwerter 6", "Verteidigung 5", "Reflexe 3"], spezialisierungen: ["Parade 2"],
            waffen: ["Langschwert (Schwerter, KK, GS 5)"], ausruestung: ["Kettenhemd (RS 2, WB 1, AM 1)"]}
begegnung:
  name: Hohlweg
  teilnehmer:
    - figur: Alrik
      seite: Spieler
    - name: Ork
      seite: Orks
      werte: {KK: 6, KO: 5, GE: 4, FF: 2, KL: 2, WK: 3, IN: 3, CH: 1, GL: 1,
              fertigkeiten: ["Äxte 5", "Verteidigung 3"], waffen: ["Axt (Äxte, KK, GS 6, VM -1)"]}
"""


@pytest.fixture
def camp(tmp_path):
    c = Campaign.open(tmp_path / "p.sqlite")
    c.set_ruleset("adz")
    load(c, BLOCK)
    c.encounter.start(rolls={"Alrik": 25, "Ork": 14})
    yield c
    c.close()


@pytest.fixture
def panel(camp):
    p = EncounterPanel(camp.encounter)
    yield p
    p.close()


def test_rows_show_tracks_and_luck_as_bars(panel):
    assert panel.text() == "Runde 1 – am Zug: Alrik"
    assert row(panel, "Ork")["res"] == [["körperlich", 12, 12], ["geistig", 12, 12], ["Glückspool", 1, 1]]
    verbs = {v["name"]: v for v in panel.rules["verbs"]}
    assert "glück" not in verbs and verbs["angriff"]["preview"] and verbs["zauber"]["targets"] == "optional"
    assert {o["name"]: o["kind"] for o in verbs["angriff"]["options"]}["verteidigung"] == "text"


def test_an_attack_from_the_panel_with_preview_and_luck(panel, camp):
    set_form(panel, verb="angriff", actors=["Alrik"], targets=["Ork"], options={"verteidigung": "parade"})
    send(panel, "preview")
    assert panel.error == ""
    charts = [i for i in panel.preview["items"] if i["chart"]]
    expected = rpgkernel.resolve("angriff Alrik -> Ork verteidigung=parade", campaign=camp, preview=True).preview
    assert [b["p"] for b in charts[0]["chart"]["bars"]] == pytest.approx(list(expected["schaden"].pmf().values()))
    assert any(i["text"].startswith("P(Treffer):") for i in panel.preview["items"])
    set_form(panel, dice="6,6,5,1,1,1,1,1,1,1,5,1,1,1,1,1,1,1,1,1,1")
    send(panel, "act")
    assert panel.error == "" and panel.result["cards"][0]["open"]
    (open_,) = panel.pending
    choice = open_["choices"][0]
    assert choice["verb"] == "glück" and choice["who"] == ["Alrik", "Ork"]
    rolls = ["angriff", "verteidigung", "widerstand"]
    assert {"name": "wurf", "kind": "text", "label": "Welcher Wurf", "values": rolls, "labels": rolls,
            "help": t("option.adz.wurf.help")} in choice["fields"]
    assert ["Reaktionen: 1", 1] not in row(panel, "Ork")["cond"]     # nothing applies while open
    set_form(panel, decisions=[{"key": "glück", "who": "Ork", "options": {"wurf": "widerstand"}}],
             decision_dice="6")
    send(panel, "choose")
    assert panel.error == "" and panel.pending == []
    # 3 − 1 = 2 left: 5 + 2 − RS 0 = 7; resistance none, the luck die one: 6
    assert row(panel, "Ork")["res"][0] == ["körperlich", 6, 12] and ["Reaktionen: 1", 1] in row(panel, "Ork")["cond"]
    assert panel.rules["conditions"]["Reaktionen: 1"].startswith("Reaktionen in dieser Runde: 1")


def test_the_target_decides_in_the_panel_whether_it_defends_beside_its_advice(panel, camp):
    set_form(panel, verb="angriff", actors=["Alrik"], targets=["Ork"], options={}, dice="6,6,5,1,1,1,1,1,1,1")
    send(panel, "act")
    assert panel.error == "" and panel.result["cards"][0]["open"]
    (open_,) = panel.pending
    [choice] = open_["choices"]
    assert choice["verb"] == "verteidigen" and choice["who"] == ["Ork"]
    assert next(f for f in choice["fields"] if f["name"] == "verteidigung")["values"] == [
        "ausweichen", "parade", "schildblock"]
    [advice] = choice["advice"]
    assert [(o["label"], o["lines"]) for o in advice["options"]] == [
        ("Verteidigen (6 W6)", ["verteidigen Ork"]), ("Nicht verteidigen", ["verzicht Ork"])]
    set_form(panel, decisions=[{"key": "verteidigen", "who": "Ork", "options": {}}],
             decision_dice="5,1,1,1,1,1,1,1,1,1,1")                     # defence 6 dice, resistance 5
    send(panel, "choose")
    assert panel.error == "" and [c["verb"] for c in panel.pending[0]["choices"]] == ["glück"]


def test_the_character_sheet_form(camp):
    sheet = CharacterSheet(camp, "Alrik")
    names = [f["name"] for f in sheet.fields]
    assert names[:9] == ["KK", "KO", "GE", "FF", "KL", "WK", "IN", "CH", "GL"]
    assert {"fertigkeiten", "waffen", "ausruestung", "zerstören"} <= set(names)
    assert [r["name"] for r in sheet.resources] == ["körperlich", "geistig", "Glückspool"]
    sheet.draft = {**sheet.draft, "fertigkeiten": ["Schwerter 11"]}
    with pytest.raises(rpgkernel.RpgError, match="erlaubt sind 0 bis 10"):
        sheet.on_save({})
    assert sheet.error_field == "fertigkeiten"
    sheet.draft = {**sheet.draft, "fertigkeiten": ["Schwerter 7"], "GL": 5}
    sheet.on_save({})
    assert camp.figure("Alrik").resources["Glückspool"] == {"value": 5, "max": 5}
    sheet.close()
