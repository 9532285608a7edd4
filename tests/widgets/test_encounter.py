"""The encounter panel: its data for a real Bastionland campaign, and every sync path
(front-end messages and trait updates, %%resolve lines on the same campaign, other writers)."""

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from panel_driving import FURT_NAMES, make_campaign, row, send, set_form

import rpgkernel
from rpgkernel import Campaign
from rpgkernel.assets import asset
from rpgkernel.messages import labels, t
from rpgkernel.resolve import pending
from rpgkernel.resolve.language import parse, quote
from rpgkernel.resolve.lines import FREE, option_field
from rpgkernel.rules import get as ruleset
from rpgkernel.widgets import EncounterPanel

HOSTILE = "<img src=x onerror=alert(1)>"


@pytest.fixture
def camp(tmp_path):
    c = make_campaign(tmp_path / "k.sqlite")
    yield c
    c.close()


@pytest.fixture
def panel(camp):
    p = EncounterPanel(camp.encounter)
    yield p
    p.close()


def normal(events):
    """Kind and data of journal events, the random ids of open resolutions replaced."""
    text = json.dumps([(e.kind, e.data) for e in events], ensure_ascii=False, sort_keys=True)
    ids = {e.data["pending"] for e in events if e.data.get("pending")}
    for i, pid in enumerate(sorted(ids, key=text.index)):
        text = text.replace(pid, f"<offen {i}>")
    return json.loads(text)


# -- the data model ---------------------------------------------------------------------------
def test_panel_data_of_a_bastionland_fight(panel):
    engine = ruleset("bastionland")
    assert panel.panel == {"name": "Furt", "round": 1, "segment": None, "segments": None, "current": "Ritter",
                           "count": 4, "active": True, "undo": True, "redo": False, "removed": [], "out": 0,
                           "skip_out": True, "joinable": []}
    assert [r["name"] for r in panel.rows] == FURT_NAMES
    assert [r["side"] for r in panel.rows] == ["Spieler", "Spieler", "Feinde", "Feinde"]
    assert row(panel, "Söldner")["res"] == [["GD", 4, 4], ["VIG", 13, 13], ["CLA", 10, 10], ["SPI", 10, 10]]
    assert row(panel, "Wache")["cond"] == [["beeinträchtigt", 2]]
    assert row(panel, "Ritter")["cond"] == []
    # the verbs of the ruleset, without the choice verbs, with their option kinds
    verbs = {v["name"]: v for v in panel.rules["verbs"]}
    assert set(verbs) == {v.name for v in engine.verbs.values() if v.choice is None}
    assert "deny" not in verbs and "gambit" not in verbs
    assert verbs["angriff"]["targets"] == "required" and verbs["angriff"]["preview"] is True
    assert {o["name"]: o["kind"] for o in verbs["moral"]["options"]} == engine.verbs["moral"].options
    assert verbs["moral"]["options"][0] == {"name": "gruppe", "kind": "flag", "label": "Als Gruppe",
                                            "help": "Die Handelnden sind eine Gruppe."}
    assert panel.rules["conditions"] == dict(engine.status.conditions)
    assert panel.rules["title"] == "Mythic Bastionland"
    kinds = [e["kind"] for e in panel.journal]
    assert kinds[0] == "begegnung" and kinds[-1] == "initiative" and "einstellung" not in kinds
    assert panel.text() == "Runde 1 – am Zug: Ritter"
    assert repr(panel) == panel.text()
    assert panel.form["verb"] == "angriff"   # a verb is chosen from the start: the attack, where there is one
    assert all(k.startswith(("widget.", "resolution.", "condition.")) for k in panel.labels)
    assert panel.labels["widget.panel.next_turn"] == "Nächster Zug"


def test_before_the_start_and_start_from_the_panel(tmp_path):
    camp = make_campaign(tmp_path / "k.sqlite", start=False)
    panel = EncounterPanel(camp)   # a campaign: its active encounter
    assert panel.text() == "Begegnung Furt: noch nicht begonnen, 4 Teilnehmer"
    assert panel.panel["round"] == 0 and panel.panel["current"] is None
    assert not any(r.get("roll") for r in panel.rows)   # Bastionland rolls no initiative
    send(panel, "start")
    assert panel.error == ""
    assert camp.encounter.order == FURT_NAMES and panel.panel["current"] == "Ritter"
    assert panel.text() == "Runde 1 – am Zug: Ritter"
    send(panel, "next_turn")
    send(panel, "start")   # a stale button: the running fight is not started again
    assert panel.error == "Der Kampf läuft schon (Runde 1)." and camp.encounter.current == "Knappe"


def test_start_with_initiative_rolls_entered(tmp_path):
    """A ruleset that rolls initiative (the plain one: W20): the rolls typed in decide the order."""
    camp = Campaign.open(tmp_path / "frei.sqlite")
    enc = camp.new_encounter("Hinterhalt")
    for name in ("Alrik", "Bruni", "Grimm"):
        enc.add(name, side="Räuber" if name == "Grimm" else "Helden", resources={"LP": 12})
    panel = EncounterPanel(enc)
    assert [r.get("roll") for r in panel.rows] == [True, True, True]
    assert [v["name"] for v in panel.rules["verbs"]] == ["schaden", "heilung"]   # the free mode's verbs
    assert panel.lines["action"] == "%%resolve\nschaden"
    set_form(panel, rolls={"Alrik": "3", "Bruni": ""})
    send(panel, "start")
    assert "Es fehlen Würfe für Bruni, Grimm" in panel.error and enc.round == 0
    set_form(panel, rolls={"Alrik": "3", "Bruni": "x", "Grimm": "20"})
    send(panel, "start")
    assert "Bruni" in panel.error and "'x'" in panel.error and enc.round == 0
    set_form(panel, rolls={"Alrik": "3", "Bruni": "17", "Grimm": 20})
    send(panel, "start")
    assert panel.error == "" and enc.order == ["Grimm", "Bruni", "Alrik"]
    assert panel.panel["current"] == "Grimm" and not any(r.get("roll") for r in panel.rows)
    assert camp.journal(kind="initiative")[-1].data["rolls"] == {"Alrik": 3, "Bruni": 17, "Grimm": 20}
    assert row(panel, "Alrik")["res"] == [["LP", 12, 12]]


# -- turns, rounds, undo, redo ---------------------------------------------------------------------
def test_next_turn_next_round_and_conditions_counting_down(panel, camp):
    send(panel, "next_turn")
    assert panel.panel["current"] == "Knappe" and camp.encounter.current == "Knappe"
    assert panel.text() == "Runde 1 – am Zug: Knappe"
    send(panel, "next_round")
    assert panel.panel["round"] == 2 and panel.panel["current"] == "Ritter"
    assert row(panel, "Wache")["cond"] == [["beeinträchtigt", 1]]   # Wache's turn ended once
    assert panel.journal[-1]["text"] == "Runde 2: Ritter ist am Zug"
    send(panel, "next_round")
    assert row(panel, "Wache")["cond"] == []


def test_undo_and_redo(panel, camp):
    send(panel, "next_turn")
    send(panel, "undo")
    assert panel.error == "" and panel.panel["current"] == "Ritter" and panel.panel["redo"]
    assert panel.result == {"notice": "Rückgängig gemacht: Runde 1: Knappe ist am Zug"}
    assert panel.journal[-1]["kind"] == "rückgängig"   # the undo of this encounter's turn shows
    send(panel, "redo")
    assert panel.panel["current"] == "Knappe" and not panel.panel["redo"]
    assert panel.result["notice"].startswith("Wiederholt: ")
    send(panel, "redo")
    assert panel.error == "Es gibt nichts zu wiederholen."


def test_out_of_the_fight_shows_with_its_reason_and_is_skipped(panel, camp):
    """A dying Söldner: its row says why, the header how many, its turn is passed; the GM's switch gives
    it its turn again (journalled, undone like every change)."""
    assert not any("out" in r for r in panel.rows)
    rpgkernel.resolve("angriff Ritter -> Wache entschieden", campaign=camp, dice=[8, 4])   # VIG 10 -> 5: dying
    assert row(panel, "Wache")["out"] == "sterbend (Todeswunde)" and panel.panel["out"] == 1
    assert [r.get("out") for r in panel.rows] == [None, None, None, "sterbend (Todeswunde)"]
    send(panel, "next_turn"), send(panel, "next_turn"), send(panel, "next_turn")
    assert panel.panel["current"] == "Ritter" and panel.panel["round"] == 2            # the Wache skipped
    send(panel, "skip_out", skip=False)
    assert panel.panel["skip_out"] is False and camp.encounter.skip_out is False
    assert panel.journal[-1] == {"seq": panel.journal[-1]["seq"], "kind": "einstellung", "label": "Einstellung",
                                 "text": "Furt: Teilnehmer außer Gefecht überspringen – nein"}
    send(panel, "next_turn"), send(panel, "next_turn"), send(panel, "next_turn")
    assert panel.panel["current"] == "Wache" and row(panel, "Wache")["out"] == "sterbend (Todeswunde)"
    send(panel, "skip_out", skip=True)
    send(panel, "undo")
    assert panel.panel["skip_out"] is False and panel.error == ""
    for _ in range(8):                                     # the turns, the switch, the turns, the blow
        send(panel, "undo")
    assert "out" not in row(panel, "Wache") and panel.panel["out"] == 0


# -- actions: the same lines, the same journal -----------------------------------------------------
def test_the_form_stands_for_a_resolve_line(panel):
    set_form(panel, verb="angriff", actors=[], targets=["Söldner"], options={"bonus": "W8", "deckung": True,
                                                                            "fernkampf": False, "x": "y"})
    assert panel.lines["action"] == "%%resolve\nangriff Ritter -> Söldner bonus=W8 deckung"
    set_form(panel, actors=["Ritter", "Knappe"], dice="7, 3,1,5", options={"ursache": "hinter der Mauer"})
    assert panel.lines["action"] == ('%%resolve --würfel 7,3,1,5\n'
                                     'angriff Ritter, Knappe -> Söldner ursache="hinter der Mauer"')
    set_form(panel, verb="probe", options={"virtue": "CLA"})   # no targets for a verb without them
    assert panel.lines["action"].endswith("\nprobe Ritter, Knappe virtue=CLA")
    set_form(panel, verb=None)    # what a broken front end might send: no line, no crash
    assert "action" not in panel.lines


def test_a_click_writes_the_same_journal_as_the_line(panel, camp, tmp_path):
    twin = make_campaign(tmp_path / "zwilling.sqlite")
    set_form(panel, verb="angriff", actors=["Ritter", "Knappe"], targets=["Söldner"], dice="7,3,1,5")
    send(panel, "act")
    assert panel.error == ""
    line = "angriff Ritter, Knappe -> Söldner"
    assert panel.result["cell"] == "%%resolve --würfel 7,3,1,5\n" + line
    rpgkernel.resolve(line, campaign=twin, dice=[7, 3, 1, 5])
    assert normal(camp.journal()) == normal(twin.journal())
    card = panel.result["cards"][0]
    assert card["open"] and card["action"] == "angriff" and card["targets"] == ["Söldner"]
    assert [d["faces"] for d in card["steps"][0]["dice"]] == [[7], [3], [1], [5]]
    assert panel.form["dice"] == ""   # the given dice are used up; the rest of the form stays
    assert panel.form["targets"] == ["Söldner"]
    # the open choices: Deny for the target, gambits for the attackers with the dice of 4+
    (open_,) = panel.pending
    assert open_["source"] == line
    choices = {c["key"]: c for c in open_["choices"]}
    assert choices["deny"]["who"] == ["Söldner"] and choices["deny"]["verb"] == "deny"
    assert choices["deny"]["also"] == ["Wache"] and choices["gambit"]["also"] == []   # the target's ally
    gambit = choices["gambit"]
    assert gambit["who"] == ["Ritter", "Knappe"] and gambit["values"] == ["7", "5"]
    assert {"name": "würfel", "kind": "int", "label": "Abgelegter Würfel", "values": ["7", "5"], "labels": ["7", "5"],
            "help": "Die Augenzahl des abgelegten Würfels (4 oder mehr)."} in gambit["fields"]
    assert {"name": "gambit", "kind": "text", "label": "Gambit", "values": choices["focus"]["values"],
            "labels": choices["focus"]["values"], "help": t("option.bastionland.gambit.help")} in choices["focus"]["fields"]
    # taking a gambit and declining the rest, as in the cell "gambit Ritter bolster=5 / verzicht Söldner"
    set_form(panel, decisions=[{"key": "gambit", "who": "Ritter", "options": {"bolster": "5"}}])
    assert panel.lines["taken"] == ["gambit Ritter bolster=5"]
    assert panel.lines["decision"] == "%%resolve\ngambit Ritter bolster=5"
    send(panel, "choose")
    rpgkernel.resolve("gambit Ritter bolster=5", campaign=twin)
    assert panel.error == "" and panel.pending == [] and not pending(camp)
    assert normal(camp.journal()) == normal(twin.journal())
    assert row(panel, "Söldner")["res"][:2] == [["GD", 0, 4], ["VIG", 11, 13]]
    assert panel.result["cards"][0]["outcome"] and not panel.result["cards"][0]["open"]
    assert panel.form["decisions"] == []


def test_the_row_buttons_run_the_encounters_order_operations(panel, camp, tmp_path):
    """Move up and down, delay, act now, hide and reveal, remove and restore: each the Encounter call
    (the same journal as on a twin campaign), the rows and marks following it; the rules refuse in German."""
    twin = make_campaign(tmp_path / "zwilling.sqlite")
    clicks = [("move", {"name": "Knappe", "direction": "up"}, lambda e: e.move("Knappe", before="Ritter")),
              ("move", {"name": "Söldner", "direction": "down"}, lambda e: e.move("Söldner", after="Wache")),
              ("delay", {"name": "Söldner"}, lambda e: e.delay("Söldner")),
              ("hide", {"name": "Wache"}, lambda e: e.hide("Wache")),
              ("now", {"name": "Söldner"}, lambda e: e.act_now("Söldner")),
              ("remove", {"name": "Knappe"}, lambda e: e.remove("Knappe")),
              ("reveal", {"name": "Wache"}, lambda e: e.reveal("Wache")),
              ("restore", {"name": "Knappe"}, lambda e: e.restore("Knappe"))]
    for kind, content, call in clicks:
        send(panel, kind, **content)
        call(twin.encounter)
        assert panel.error == "", (kind, panel.error)
        assert [r["name"] for r in panel.rows] == camp.encounter.order + camp.encounter.held
        if kind == "delay":
            assert row(panel, "Söldner")["held"] is True and panel.rows[-1]["name"] == "Söldner"
        if kind == "hide":
            assert row(panel, "Wache")["hidden"] is True
        if kind == "remove":
            assert panel.panel["removed"] == ["Knappe"] and "Knappe" not in [r["name"] for r in panel.rows]
    assert normal(camp.journal()) == normal(twin.journal()) and camp.encounter.record == twin.encounter.record
    assert panel.panel["removed"] == [] and "hidden" not in row(panel, "Wache") and "held" not in row(panel, "Söldner")
    twin.close()


@pytest.mark.parametrize("kind, content, message", [
    ("move", {"name": "Söldner", "direction": "up"}, "Söldner kann nicht vor Knappe handeln"),
    ("move", {"name": "Ritter", "direction": "up"}, "Ritter steht schon an erster Stelle."),
    ("move", {"name": "Wache", "direction": "down"}, "Wache steht schon an letzter Stelle."),
    ("remove", {}, "Welcher Teilnehmer?"),
    ("hide", {"name": ["Wache"]}, "Welcher Teilnehmer?"),
    ("restore", {"name": "Wache"}, "'Wache' wurde nicht aus der Begegnung entfernt"),
    ("now", {"name": "Ritter"}, "Ritter ist schon am Zug."),
])
def test_the_row_buttons_errors_are_german(panel, camp, kind, content, message):
    seq = camp.store.last_seq()
    send(panel, kind, **content)
    assert message in panel.error and camp.store.last_seq() == seq


def test_before_the_start_a_row_removes_and_hides(tmp_path):
    camp = make_campaign(tmp_path / "k.sqlite", start=False)
    panel = EncounterPanel(camp)
    send(panel, "hide", name="Wache")
    send(panel, "remove", name="Knappe")
    assert panel.error == "" and row(panel, "Wache")["hidden"] and panel.panel["removed"] == ["Knappe"]
    send(panel, "delay", name="Ritter")
    assert "noch nicht begonnen" in panel.error
    send(panel, "start")
    assert [r["name"] for r in panel.rows] == ["Ritter", "Söldner", "Wache"]
    panel.close()
    camp.close()


def test_deny_via_the_panel_closes_the_pending_resolution(panel, camp):
    rpgkernel.resolve("angriff Ritter -> Söldner", campaign=camp, dice=[7, 3])
    assert len(panel.pending) == 1   # a line in another cell shows at once
    set_form(panel, decisions=[{"key": "deny", "who": "Söldner", "options": {}}], decision_dice="15")
    assert panel.lines["decision"] == "%%resolve --würfel 15\ndeny Söldner"
    send(panel, "choose")
    assert panel.error == ""
    assert panel.pending == [] and pending(camp) == {}
    assert ["Fatigued", None] in row(panel, "Söldner")["cond"]   # SPI 10 against 15: failed
    card = panel.result["cards"][0]
    assert not card["open"] and card["outcome"] == (   # the Deny took the 7: 3 − armour 2 = 1 off GD
        "Ritter greift Söldner an: Söldner verliert 1 GD und bleibt unverletzt; Söldner ist jetzt Fatigued.")
    assert panel.form["decision_dice"] == ""


def test_an_allys_deny_via_the_panel_is_the_resolve_line(panel, camp, tmp_path):
    twin = make_campaign(tmp_path / "zwilling.sqlite")
    for c in (camp, twin):
        rpgkernel.resolve("angriff Söldner -> Ritter", campaign=c, dice=[6, 3])
    (deny,) = [c for c in panel.pending[0]["choices"] if c["key"] == "deny"]
    assert deny["who"] == ["Ritter"] and deny["also"] == ["Knappe"]   # the panel's actor list: who, then also
    set_form(panel, decisions=[{"key": "deny", "who": "Knappe", "options": {"würfel": "6"}}], decision_dice="14")
    assert panel.lines["decision"] == "%%resolve --würfel 14\ndeny Knappe würfel=6"
    send(panel, "choose")
    rpgkernel.resolve("deny Knappe würfel=6", campaign=twin, dice=[14])
    assert panel.error == "" and panel.pending == [] and not pending(camp)
    assert normal(camp.journal()) == normal(twin.journal())
    assert ["Fatigued", None] in row(panel, "Knappe")["cond"]   # SPI 10 against 14
    twin.close()


def test_the_advice_stands_beside_each_choice_and_an_option_is_taken_over_as_its_lines(panel, camp):
    """Per choice the advice of each figure who may take it; an option's button takes its lines over into
    the decisions (the entries its takes are): nothing happens before "Entscheiden"."""
    rpgkernel.resolve("angriff Ritter, Knappe -> Söldner", campaign=camp, dice=[8, 3, 1, 5])
    choices = {c["key"]: c for c in panel.pending[0]["choices"]}
    assert [a["who"] for a in choices["deny"]["advice"]] == ["Söldner", "Wache"]
    assert [a["who"] for a in choices["gambit"]["advice"]] == ["Ritter", "Knappe"]
    gambit = choices["gambit"]["advice"][0]
    assert gambit["objective"] == "Söldner außer Gefecht setzen, sonst möglichst viel Schaden"
    option = next(o for o in gambit["options"] if o["label"] == "Bolster mit 5 und 8")
    assert option["said"][0] == "Schaden 3"
    set_form(panel, decisions=option["takes"])
    assert panel.lines["taken"] == option["lines"] == ["gambit Ritter würfel=5 gambit=Bolster",
                                                        "gambit Ritter würfel=8 gambit=Bolster"]
    assert pending(camp) and row(panel, "Söldner")["res"][0] == ["GD", 4, 4]
    send(panel, "choose")
    assert panel.error == "" and not pending(camp)
    assert row(panel, "Söldner")["res"][0] == ["GD", 1, 4]   # 3 (the 3 kept, two Bolster, armour 2): as advised


def test_decline_and_errors_of_choices(panel, camp):
    send(panel, "choose", decline=True)
    assert panel.error == "Es gibt keine offene Auflösung."
    rpgkernel.resolve("angriff Ritter -> Söldner", campaign=camp, dice=[7, 4])
    send(panel, "choose")
    assert panel.error.startswith("Noch keine Entscheidung übernommen")
    set_form(panel, decisions=[{"key": "gambit", "who": "Ritter", "options": {"gambit": "Repel"}}])
    send(panel, "choose")   # a gambit needs its die: the rules say so, nothing changes
    assert "Welcher Würfel wird abgelegt" in panel.error and len(panel.pending) == 1
    assert panel.form["decisions"][0]["options"] == {"gambit": "Repel"}   # what was taken stays
    send(panel, "choose", decline=True)
    assert panel.error == "" and panel.pending == []
    assert panel.result["cell"] == "%%resolve\nverzicht Ritter"


def test_preview_before_the_roll(panel, camp):
    seq = camp.state["seq"]
    set_form(panel, verb="angriff", targets=["Söldner"])
    send(panel, "preview")
    assert panel.error == "" and camp.state["seq"] == seq   # nothing rolled, nothing written
    assert panel.preview["cell"] == "%%resolve --vorschau\nangriff Ritter -> Söldner"
    items = panel.preview["items"]
    expected = rpgkernel.resolve("angriff Ritter -> Söldner", campaign=camp, preview=True).preview
    charts = [i["chart"] for i in items if i["chart"]]
    assert len(charts) == sum(isinstance(v, rpgkernel.Dist) for v in expected.values())
    damage = expected["schaden"]
    assert [b["p"] for b in charts[0]["bars"]] == pytest.approx(list(damage.pmf().values()))
    assert "P(mindestens ein Würfel mit 4+ für ein Gambit): 71,88 %" in [i["text"] for i in items]
    set_form(panel, verb="probe", options={"virtue": "CLA"})
    send(panel, "preview")
    assert [i["text"] for i in panel.preview["items"]] == ["Erfolgschance 50,00 %"]
    set_form(panel, verb="reaktion")   # no preview: the procedure says so
    send(panel, "preview")
    assert panel.preview["items"] == [] and panel.preview["steps"]
    send(panel, "act")   # after a roll the old preview goes away
    assert panel.error == "" and panel.preview == {}


def test_errors_show_and_the_form_stays(panel, camp):
    form = {**panel.form, "verb": "angriff", "targets": ["Sölner"], "options": {"bonus": "W8"}, "dice": "7,3"}
    panel.set_state({"form": form})
    send(panel, "act")
    assert "Zeile 1" in panel.error and "Söldner" in panel.error   # the language's own message
    assert panel.form == form and camp.figure("Söldner").resources["GD"]["value"] == 4
    set_form(panel, targets=["Söldner"], dice="7,x")
    send(panel, "act")
    assert "--würfel" in panel.error and panel.form["dice"] == "7,x"
    set_form(panel, dice="7")
    send(panel, "act")   # too few given dice: nothing is written
    assert panel.error and not pending(camp)
    set_form(panel, verb="deny")   # choice verbs are not actions
    send(panel, "act")
    assert panel.error == "Das Regelwerk kennt das Verb 'deny' nicht."
    send(panel, "poll")   # the background poll leaves the message for the GM to read
    assert panel.error == "Das Regelwerk kennt das Verb 'deny' nicht."
    set_form(panel, verb="probe", dice="")
    send(panel, "act")
    assert panel.error == ""   # success clears the error


def test_actions_use_the_form_the_message_carries(camp):
    """A click's message may overtake the form's state update; it carries the form itself."""
    panel = EncounterPanel(camp)
    set_form(panel, verb="probe", actors=["Ritter"], options={"virtue": "VIG"})
    carried = {**panel.form, "actors": ["Knappe"], "options": {"virtue": "CLA"}, "dice": "4"}
    send(panel, "act", form=carried)
    assert panel.error == "" and panel.form["actors"] == ["Knappe"]
    assert panel.result["cell"].splitlines()[1] == "probe Knappe virtue=CLA"
    assert camp.journal(last=1)[0].data["text"].startswith("probe: Knappe")


def test_a_fixed_encounter_that_is_not_active(camp):
    panel = EncounterPanel(camp.encounter)
    camp.new_encounter("Turm")
    assert panel.panel["name"] == "Furt" and not panel.panel["active"]
    send(panel, "act")
    assert "nicht die aktive" in panel.error and "Turm" in panel.error
    send(panel, "next_turn")   # turns work on any encounter
    assert panel.error == "" and panel.panel["current"] == "Knappe"
    follows = EncounterPanel(camp)
    assert follows.panel["name"] == "Turm" and follows.rows == [] and follows.journal[0]["kind"] == "begegnung"
    assert follows.text() == "Begegnung Turm: noch nicht begonnen, 0 Teilnehmer"
    send(follows, "start")
    assert "Turm" in follows.error
    send(panel, "activate")     # the panel's encounter becomes the active one; actions run again
    assert panel.error == "" and panel.panel["active"] and camp.encounter.name == "Furt"
    assert follows.panel["name"] == "Furt"
    assert camp.journal(last=1)[0].data["text"] == "Begegnung Furt ist jetzt die aktive"
    set_form(panel, verb="probe", actors=["Knappe"], dice="5")
    send(panel, "act")
    assert panel.error == "" and panel.result["cards"]
    camp.undo()
    camp.undo()
    assert camp.encounter.name == "Turm"


def test_next_round_with_new_initiative_from_the_panel(camp):
    panel = EncounterPanel(camp)
    before = len(camp.journal(kind="initiative"))
    send(panel, "next_round", new_initiative=True)
    assert panel.error == "" and panel.panel["round"] == 2
    assert len(camp.journal(kind="initiative")) == before + 1
    assert [r["name"] for r in panel.rows] == camp.encounter.order


def test_segments_are_set_from_the_panel(camp, monkeypatch):
    monkeypatch.setattr(ruleset("bastionland").initiative, "segments", 10)
    panel = EncounterPanel(camp)
    assert panel.panel["segments"] == 10 and panel.panel["segment"] is None
    send(panel, "segment", segment="4")
    assert panel.error == "" and panel.panel["segment"] == 4 and panel.text().endswith("Segment 4")
    send(panel, "segment", segment="11")
    assert "11" in panel.error and panel.panel["segment"] == 4
    send(panel, "segment", segment="")
    assert panel.error == "" and panel.panel["segment"] is None


def test_a_campaign_without_encounter_and_bad_input(tmp_path):
    camp = Campaign.open(tmp_path / "leer.sqlite")
    panel = EncounterPanel(camp)
    assert panel.text() == "Keine aktive Begegnung" and panel.rows == [] and panel.pending == []
    send(panel, "next_turn")
    assert panel.error.startswith("Keine aktive Begegnung")
    camp.new_encounter("Gasse")
    assert panel.panel["name"] == "Gasse"
    with pytest.raises(rpgkernel.RpgError, match="Begegnung oder eine Kampagne"):
        EncounterPanel("Furt")


# -- other cells and other notebooks -------------------------------------------------------------
def test_a_resolve_line_on_the_same_campaign_shows_at_once(panel, camp):
    journal = len(panel.journal)
    rpgkernel.resolve("angriff Ritter -> Söldner entschieden", campaign=camp, dice=[7, 3])
    assert row(panel, "Söldner")["res"][0] == ["GD", 0, 4]   # 7 - armour 2 = 5 damage: GD 4 -> 0, VIG -1
    assert row(panel, "Söldner")["res"][1] == ["VIG", 12, 13]
    assert panel.journal[-1]["kind"] == "auflösung" and len(panel.journal) == min(journal + 1, 12)
    camp.encounter.next_turn()
    assert panel.panel["current"] == "Knappe"


def test_another_campaign_object_shows_after_poll(panel, camp, tmp_path):
    other = Campaign.open(tmp_path / "k.sqlite")
    rpgkernel.resolve("verlust Söldner virtue=SPI um=3", campaign=other)
    other.encounter.next_turn()
    assert row(panel, "Söldner")["res"][3] == ["SPI", 10, 10]   # not read yet
    send(panel, "poll")
    assert row(panel, "Söldner")["res"][3] == ["SPI", 7, 10]
    assert panel.panel["current"] == "Knappe"
    assert [e["kind"] for e in panel.journal[-2:]] == ["auflösung", "zug"]
    before = panel.get_state()
    send(panel, "poll")   # nothing new: nothing changes
    assert panel.get_state() == before
    other.close()


def free_fight(path):
    """Without a ruleset (W20 initiative, LP): Alrik 17, Ork 12, Söldner 1 9, Söldner 2 5; Bruni waits
    outside in the campaign."""
    camp = Campaign.open(path)
    for name in ("Alrik", "Bruni"):
        camp.add_character(name, resources={"LP": 10})
    enc = camp.new_encounter("Furt")
    enc.add("Alrik", side="Helden", character="Alrik")
    enc.add("Ork", side="Feinde", resources={"LP": 8})
    enc.add("Söldner", side="Feinde", count=2, resources={"LP": 6})
    enc.start(rolls={"Alrik": 17, "Ork": 12, "Söldner 1": 9, "Söldner 2": 5})
    return camp


def test_joining_rolling_anew_and_group_initiative_from_the_panel(tmp_path):
    """The header offers the campaign's characters who are not fighting; "Dazu" adds one (or one like a
    combatant, named with the next free number) where its initiative puts it; "Neu würfeln" and "Als
    Gruppe würfeln" roll and place; each the Encounter call, undone by one undo."""
    camp = free_fight(tmp_path / "k.sqlite")
    panel = EncounterPanel(camp)
    assert panel.panel["joinable"] == ["Bruni"]
    assert all(r.get("reroll") for r in panel.rows)
    assert {r["name"]: r["ini"] for r in panel.rows} == camp.encounter.initiative   # the Ini column
    send(panel, "join", figure="Bruni", initiative="10")
    assert panel.error == "" and camp.encounter.order == ["Alrik", "Ork", "Bruni", "Söldner 1", "Söldner 2"]
    assert panel.panel["joinable"] == [] and row(panel, "Bruni")["res"] == [["LP", 10, 10]]
    send(panel, "join", like="Söldner 2", initiative="20")
    assert panel.error == "" and camp.encounter.order[0] == "Söldner 3"
    assert row(panel, "Söldner 3")["side"] == "Feinde" and row(panel, "Söldner 3")["res"] == [["LP", 6, 6]]
    camp.undo()
    assert "Söldner 3" not in camp.encounter.order
    send(panel, "join", like="Ork", name="Ork Häuptling", initiative="")   # rolled: W20
    value = camp.encounter.initiative["Ork Häuptling"]
    assert 1 <= value <= 20 and camp.journal(last=1)[0].data["rolls"]["Ork Häuptling"]["total"] == value
    send(panel, "reroll", name="Ork")
    new = camp.encounter.initiative["Ork"]
    assert camp.journal(last=1)[0].data["text"].startswith(f"Ork: Initiative neu 12 → {new}")
    send(panel, "group", names=["Söldner 1", "Söldner 2"])
    enc = camp.encounter
    assert enc.initiative["Söldner 1"] == enc.initiative["Söldner 2"] and row(panel, "Söldner 1")["group"] == "Söldner 1"
    i = enc.order.index("Söldner 1")
    assert enc.order[i + 1] == "Söldner 2"                                   # they act together
    send(panel, "ungroup", names=["Söldner 2"])
    assert "group" not in row(panel, "Söldner 1") and panel.error == ""
    for content, message in [({}, "Erst wählen, wer dazukommt"), ({"figure": "Alrik"}, "schon"),
                             ({"like": "Ork", "initiative": "schnell"}, "'schnell' ist keine ganze Zahl"),
                             ({"like": "Orc"}, "Meinten Sie 'Ork'")]:
        seq = camp.store.last_seq()
        send(panel, "join", **content)
        assert message in panel.error and camp.store.last_seq() == seq, (content, panel.error)
    send(panel, "group", names=[])
    assert panel.error.startswith("Welcher Teilnehmer?")
    panel.close()
    camp.close()


def test_a_newcomers_name_takes_the_next_free_number():
    from rpgkernel.widgets.panel_data import next_name
    assert next_name("Söldner 3", ["Söldner 1", "Söldner 2", "Söldner 3"]) == "Söldner 4"
    assert next_name("Söldner", ["Söldner", "Söldner 3"]) == "Söldner 2"
    assert next_name("Wolf 12", []) == "Wolf 2"


def test_bastionland_offers_no_roll_anew(panel):
    """Bastionland has no initiative to roll (the players' side acts first): no Ini column either."""
    assert not any(r.get("reroll") or "ini" in r for r in panel.rows)


def test_the_actor_follows_the_turn(panel, camp):
    set_form(panel, actors=["Knappe"], verb="probe")
    assert panel.lines["action"].endswith("probe Knappe")
    send(panel, "next_turn")
    assert panel.form["actors"] == [] and panel.lines["action"].endswith("probe Knappe")
    send(panel, "next_turn")
    assert panel.lines["action"].endswith("probe Söldner")


def test_closing_stops_watching(camp):
    panel = EncounterPanel(camp)
    panel.close()
    camp.encounter.next_turn()
    assert panel.panel["current"] == "Ritter"


# -- hostile names, many combatants ---------------------------------------------------------------
def test_hostile_names_pass_through_as_data(tmp_path):
    camp = Campaign.open(tmp_path / "boese.sqlite")
    camp.set_ruleset("bastionland")
    enc = camp.new_encounter(HOSTILE)
    enc.add(HOSTILE, side='"><script>alert(1)</script>', sheet={"vig": 10, "cla": 10, "spi": 10, "gd": 3})
    enc.add("Ritter", side="Spieler", sheet={"vig": 13, "cla": 10, "spi": 13, "gd": 5})
    panel = EncounterPanel(camp)
    send(panel, "start")
    assert panel.panel["name"] == HOSTILE and panel.rows[1]["name"] == HOSTILE
    assert panel.rows[1]["side"] == '"><script>alert(1)</script>'
    set_form(panel, verb="probe", actors=[HOSTILE], dice="3")
    assert panel.lines["action"] == f'%%resolve --würfel 3\nprobe "{HOSTILE}"'
    send(panel, "act")
    assert panel.error == "" and panel.result["cards"][0]["actors"] == [HOSTILE]
    assert any(HOSTILE in e["text"] for e in panel.journal)
    send(panel, "next_turn")
    assert panel.text() == f"Runde 1 – am Zug: {HOSTILE}"


# -- German labels of the form's fields ---------------------------------------------------------
KEYS = [*rpgkernel.rulesets(), ""]   # every ruleset and the free mode (its key "")


def test_every_option_of_every_verb_has_a_german_label_and_help():
    """Every verb of every ruleset (choice verbs too): its options as the panel's form shows them."""
    bad = []
    for key in KEYS:
        for verb in ruleset(key or None).verbs.values():
            for name, kind in verb.options.items():
                field = option_field(key, verb.name, name, kind)
                label, help_text = field["label"], field["help"]
                if label in (name, name.replace("_", " ")) or "_" in label or not help_text \
                        or help_text == label:
                    bad.append(f"{key} {verb.name} {name}: {label!r} / {help_text!r}")
    assert bad == []


def test_every_option_label_in_the_catalogue_belongs_to_an_option():
    known = {(key, name) for key in KEYS for v in ruleset(key or None).verbs.values() for name in v.options}
    known |= {(key, f"{v.name}.{name}") for key in KEYS for v in ruleset(key or None).verbs.values()
              for name in v.options}
    values = {}   # a value's own label (``option.<ruleset>.<option>.<value>``, resolve.lines.value_label)
    for catalogue_key in labels("option."):
        _, key, rest = catalogue_key.split(".", 2)
        key = "" if key == FREE else key
        rest = rest.removesuffix(".help")
        if (key, rest) not in known and (key, rest.rpartition(".")[0]) in known:
            values.setdefault((key, rest.rpartition(".")[0]), set()).add(rest.rpartition(".")[2])
            continue
        assert (key, rest) in known, catalogue_key
    from rpgkernel.rules.bastionland.attack import STRONG
    assert values == {("bastionland", "stark"): set(STRONG)}   # the Strong Gambit's two options, as the seed says


def test_the_panel_form_shows_the_labels(panel):
    for verb in panel.rules["verbs"]:
        for option in verb["options"]:
            assert option["label"] and option["label"] != option["name"] and option["help"], option
    js = asset("encounter.js")
    assert "o.label" in js and "fl.label" in js and "o.help" in js and "fl.help" in js


def test_the_front_end_sets_only_text():
    source = asset("encounter.js")
    assert "innerHTML" not in source and "insertAdjacentHTML" not in source and "outerHTML" not in source
    assert "export default { render: relabelled(render) }" in source
    assert EncounterPanel._esm.index("function drawChart") < EncounterPanel._esm.index("function panelTable")


def test_two_hundred_combatants(tmp_path):
    camp = Campaign.open(tmp_path / "gross.sqlite")
    camp.set_ruleset("bastionland")
    enc = camp.new_encounter("Schlacht")
    enc.add("Ritter", side="Spieler", sheet={"vig": 13, "cla": 10, "spi": 13, "gd": 5})
    enc.add("Goblin", side="Feinde", count=200, sheet={"vig": 8, "cla": 8, "spi": 6, "gd": 2},
            conditions={"beeinträchtigt": {"runden": 1, "endet": "rundenende"}})
    panel = EncounterPanel(enc)
    send(panel, "start")
    assert len(panel.rows) == 201 and panel.rows[0]["name"] == "Ritter"
    assert all(r["cond"] == [["beeinträchtigt", 1]] for r in panel.rows[1:])
    send(panel, "next_round")
    assert panel.panel["round"] == 2 and all(r["cond"] == [] for r in panel.rows)
    set_form(panel, verb="angriff", targets=["Goblin 200"], dice="3")   # unarmed: W4
    send(panel, "act")
    assert panel.error == "" and panel.pending
    assert len(json.dumps(panel.get_state(), ensure_ascii=False)) < 400_000


# -- the quoting the lines rely on ----------------------------------------------------------------
_names = st.text(st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=15).filter(
    lambda s: s == s.strip())


@given(_names, st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=15))
def test_quote_is_the_inverse_of_the_reader(name, value):
    (cmd,) = parse(f"probe {quote(name)}, Ritter -> {quote(name)} grund={quote(value, value=True)} deckung")
    assert [w.text for w in cmd.actors] == [name, "Ritter"] and cmd.targets[0].text == name
    assert cmd.options["grund"].text == value and [f.text for f in cmd.flags] == ["deckung"]


def test_quote_leaves_plain_words_bare():
    assert quote("Söldner") == "Söldner" and quote("Goblin 2") == '"Goblin 2"'
    assert quote('Der "Rote"') == '"Der \\"Rote\\""'
    assert quote("{W8,W6}", value=True) == "{W8,W6}" and quote("2W6+1", value=True) == "2W6+1"
    assert re.fullmatch(r'".*"', quote("a b", value=True))


# -- a value typed into a row -------------------------------------------------------------------
def test_a_value_typed_into_a_row_changes_it_within_the_limits_on_one_or_every_picked_row(panel, camp, tmp_path):
    """-5, +3 and =7 on a row's resource (``Campaign.change``, the same journal as the %begegnung line the
    result shows), on several picked rows in one undo step; what the limits held back is said."""
    twin = make_campaign(tmp_path / "zwilling.sqlite")
    send(panel, "edit", names=["Söldner"], resource="GD", change="-3")
    assert panel.error == "" and row(panel, "Söldner")["res"][0] == ["GD", 1, 4]
    assert panel.result == {"notice": "Söldner: GD 4 → 1", "cell": "%begegnung wert Söldner GD -3"}
    send(panel, "edit", names=["Söldner", "Wache"], resource="GD", change="+5")   # held at each maximum
    assert [row(panel, n)["res"][0] for n in ("Söldner", "Wache")] == [["GD", 4, 4], ["GD", 3, 3]]
    assert panel.result["notice"] == "Söldner: GD 1 → 4 (höchstens 4); Wache: GD 3 → 3 (höchstens 3)"
    assert panel.result["cell"] == "%begegnung wert Söldner Wache GD +5"
    send(panel, "edit", names=["Wache"], resource="SPI", change="=7")
    assert row(panel, "Wache")["res"][3] == ["SPI", 7, 12]
    twin.change("Söldner", "GD", -3)
    twin.change(["Söldner", "Wache"], "GD", 5)
    twin.change("Wache", "SPI", to=7)
    assert normal(camp.journal()) == normal(twin.journal())
    twin.close()
    send(panel, "undo")
    send(panel, "undo")                                         # both rows' +5 in one step
    assert [row(panel, n)["res"][0] for n in ("Söldner", "Wache")] == [["GD", 1, 4], ["GD", 3, 3]]
    assert row(panel, "Wache")["res"][3] == ["SPI", 12, 12]


@pytest.mark.parametrize("content, message", [
    ({"names": ["Wache"], "resource": "GD", "change": "-x"},
     "GD: '-x' ist keine Änderung. Erwartet wird -5 (weniger), +3 (mehr) oder =7 (auf diesen Wert)."),
    ({"names": ["Wache"], "resource": "GD", "change": "5"}, "GD: '5' ist keine Änderung."),
    ({"names": ["Wache"], "resource": "LP", "change": "-1"}, "Wache hat keine Ressource 'LP'; vorhanden: GD, VIG"),
    ({"names": ["Wache"], "change": "-1"}, "Welche Ressource? Erst in der Zeile auf einen Wert klicken."),
    ({"names": [], "resource": "GD", "change": "-1"}, "Welcher Teilnehmer?"),
    ({"names": ["Wache"], "resource": "GD", "change": ["-1"]}, "GD: ['-1'] ist keine Änderung."),
])
def test_a_bad_value_typed_into_a_row_changes_nothing_and_says_why(panel, camp, content, message):
    seq = camp.store.last_seq()
    send(panel, "edit", **content)
    assert message in panel.error and camp.store.last_seq() == seq


# -- the library of figures in the join box -------------------------------------------------------
def test_the_join_box_searches_the_library_adds_a_template_times_n_and_keeps_rows_as_one(panel, camp):
    """The ruleset's templates (the seed's example warbands first), one ×N into the fight with numbered
    names (the %%figuren cell shown), picked rows or a side kept as a template that the list then holds."""
    send(panel, "library")
    assert [x["name"] for x in panel.library["templates"]] == ["Miliz", "Plänkler", "Söldner", "Reiter", "Ritter"]
    assert panel.library["templates"][0] == {"name": "Miliz", "ruleset": "bastionland", "source": "regeltext",
                                             "count": 1, "summary": "VIG 10, CLA 10, SPI 7, GD 3"}
    send(panel, "add_template", name="Plänkler", count="2", side="Feinde")
    assert panel.error == "" and [r["name"] for r in panel.rows][-2:] == ["Plänkler 1", "Plänkler 2"]
    assert row(panel, "Plänkler 2")["side"] == "Feinde" and row(panel, "Plänkler 2")["res"][0] == ["GD", 2, 2]
    assert panel.result == {"notice": "Aus der Vorlage Plänkler dazu: Plänkler 1, Plänkler 2.",
                            "cell": "%%figuren\n- vorlage: Plänkler\n  anzahl: 2\n  seite: Feinde"}
    send(panel, "save_template", template="Wachtrupp", side="Feinde")
    assert panel.error == "" and panel.result["notice"].startswith("Vorlage 'Wachtrupp' (Mythic Bastionland) behalten: "
                                                                   "Söldner, Wache, Plänkler ×2.")
    assert panel.library["templates"][-1]["name"] == "Wachtrupp"
    send(panel, "save_template", template="Knappe", names=["Knappe"])
    send(panel, "add_template", name="Knappe", count=1)
    assert "Knappe 2" in [r["name"] for r in panel.rows]
    send(panel, "undo")
    assert "Knappe 2" not in [r["name"] for r in panel.rows]


@pytest.mark.parametrize("kind, content, message", [
    ("add_template", {"name": "Drache"}, "Keine Vorlage 'Drache' (Mythic Bastionland)"),
    ("add_template", {"name": "Söldnr"}, "Meinten Sie 'Söldner'?"),
    ("add_template", {"name": ""}, "Erst eine Vorlage wählen."),
    ("add_template", {"name": "Miliz", "count": "drei"}, "Anzahl: erwartet wird eine ganze Zahl von 1 bis"),
    ("add_template", {"name": "Miliz", "count": "0"}, "Anzahl: erwartet wird eine ganze Zahl von 1 bis"),
    ("save_template", {"template": "Miliz", "names": ["Wache"]}, "'Miliz' ist schon eine Vorlage aus dem Regeltext"),
    ("save_template", {"template": "X", "names": []}, "Was soll die Vorlage werden?"),
    ("save_template", {"template": "X", "side": "Drachen"}, "Die Seite 'Drachen' hat in der Begegnung 'Furt' niemanden."),
    ("save_template", {"template": "", "names": ["Wache"]}, "Ungültiger Name für Vorlage"),
])
def test_the_libraries_errors_in_the_panel_are_german_and_change_nothing(panel, camp, own_library, kind, content, message):
    seq = camp.store.last_seq()
    send(panel, kind, **content)
    assert message in panel.error and camp.store.last_seq() == seq and not list(own_library.iterdir())
