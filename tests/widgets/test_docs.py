"""docs/widgets.md: its three Python blocks run in a notebook, and what the page says of each widget checked
on the widget's model, without a browser.

What needs a browser is tested in one (tests/browser/):
- the keyboard (Tab, Enter, Space, arrow keys):
  test_tray.py::test_dice_tray_rolls_by_mouse_and_keyboard_into_the_journal,
  test_tray.py::test_distribution_chart_view_toggle_and_readout (with the toggle and a bar's readout),
  test_panel.py::test_a_fight_run_from_the_panel, test_sheet.py::test_sheet_saves_by_keyboard_and_keeps_a_refused_value;
- the light and dark themes, a %%resolve cell showing in the panel at once:
  test_panel.py::test_a_fight_run_from_the_panel;
- the buttons in the order's rows, by mouse and keyboard: test_panel.py::test_the_order_changed_from_the_rows;
- input shown as text, never as HTML: test_roll.py::test_hostile_text_shows_literally_and_runs_nothing and
  test_sheet.py::test_sheet_saves_by_keyboard_and_keeps_a_refused_value;
- %roll's card as a widget in a kernel: test_roll.py::test_roll_cards_show_dice_total_and_chance.
No browser test clicks a field of the hex map or reaches one with Tab and Enter (tests/widgets/test_hexmap.py sends
the click's message to the model).
"""

import inspect
from itertools import product

import pytest
from doc_blocks import ROOT, page, run_python
from panel_driving import FURT, FURT_NAMES, row, send, set_form

import rpgkernel
from rpgkernel import Roll, rules
from rpgkernel.messages import t
from rpgkernel.widgets import CharacterSheet, DiceTray, DistributionChart, EncounterPanel, HexMap
from rpgkernel.widgets.base import Widget
from rpgkernel.widgets.chart import VIEWS

PAGE = page("widgets.md")
TEXT = " ".join(PAGE.text.split())
IMPORT = PAGE.block("python", "from rpgkernel.widgets import")
TRAY = PAGE.block("python", after="## Würfelschale: `DiceTray()`")
CHART = PAGE.block("python", after='## Verteilung: `DistributionChart(dist, marked=None, title="")`')


@pytest.fixture
def furt(notebook):
    notebook.ok("%rpg bastionland --kampagne kampagne.sqlite")
    notebook.ok("%%figuren\n" + FURT)
    notebook.ok(IMPORT.text)
    notebook.camp = rpgkernel.session.current().campaign
    return notebook


def test_the_import_block_names_the_widgets():
    namespace = {}
    run_python(IMPORT.text, namespace)
    for name in ("CharacterSheet", "DiceTray", "DistributionChart", "EncounterPanel"):
        assert issubclass(namespace[name], Widget) and f"`{name}(" in PAGE.text


def test_the_dice_tray_block(furt):
    furt.ok("%rpg --seed 7")
    shown_tray, shown_roll = furt.ok(TRAY.text)   # the tray shown, then the value of the last line
    tray, roll = furt.ns["schale"], furt.value
    assert isinstance(tray, DiceTray) and shown_tray == t("widget.tray.text_empty")   # shown before the roll
    assert isinstance(roll, Roll) and roll.total == 13 and [d.value for d in roll.dice] == [6, 2, 5]
    assert shown_roll == repr(roll) and repr(tray) == tray.text()
    # into the journal of the open campaign, as %roll
    rolls = [e.data["roll"] for e in furt.camp.journal(kind="wurf")]
    assert [(r["expression"], r["total"]) for r in rolls] == [("3W6", 13)]
    furt.run("%roll --würfel 1,1,1 3W6")
    assert len(furt.camp.journal(kind="wurf")) == 2
    # the history: newest first, dropped dice marked; the chart with the result marked
    tray.roll("4W6kh3", dice=[1, 6, 6, 6])
    newest, older = tray.entries[:2]
    assert newest["expression"] == "4W6kh3" and older["expression"] == "3W6"
    assert [d["kept"] for d in newest["parts"] if isinstance(d, dict)] == [False, True, True, True]
    assert tray.chart["label"] == "4W6kh3" and tray.chart["marked"] == [18]
    # the session's stream: %rpg --seed 7 makes it repeatable; notebook variables with @
    furt.ok("%rpg --seed 7")
    first = DiceTray().roll("3W6").total
    furt.ok("%rpg --seed 7")
    assert DiceTray().roll("3W6").total == first
    furt.ns["bonus"] = 3
    assert DiceTray().roll("W20+@bonus", dice=[10]).total == 13
    # errors in German in the widget; what was typed stays
    assert tray.roll("3W", dice=[1]) is None
    assert tray.error and tray.expression == "3W" and tray.given == "1"


def test_the_distribution_chart_block(notebook):
    notebook.ok("import rpgkernel\nfrom rpgkernel.widgets import DistributionChart")
    [shown] = notebook.ok(CHART.text)
    chart = notebook.value
    assert isinstance(chart, DistributionChart) and shown == repr(chart)
    data = chart.data
    assert data["marked"] == [4] and data["step"] == 1 and list(VIEWS) == ["verteilung", "mindestens"]
    # by hand: the highest of W8, W4, W6, W6, minus 2, at least 0, over all 8 × 4 × 6 × 6 throws
    counts = {}
    for faces in product(range(1, 9), range(1, 5), range(1, 7), range(1, 7)):
        v = max(0, max(faces) - 2)
        counts[v] = counts.get(v, 0) + 1
    assert [b["low"] for b in data["bars"]] == sorted(counts)
    for bar in data["bars"]:   # "genau" and "mindestens"
        assert bar["p"] == pytest.approx(counts[bar["low"]] / 1152, abs=1e-12)
        assert bar["ge"] == pytest.approx(sum(n for v, n in counts.items() if v >= bar["low"]) / 1152, abs=1e-12)
    roll = rpgkernel.roll("3W6", dice=[6, 2, 5])
    assert DistributionChart(rpgkernel.dist("3W6"), marked=roll).data["marked"] == [13]
    assert DistributionChart(rpgkernel.dist("3W6"), marked=[3, 18]).data["marked"] == [3, 18]
    big = DistributionChart(rpgkernel.dist("20W%")).data   # many W%: neighbouring values share a bar
    assert big["step"] > 1 and big["bars"][0]["low"] == 20 and big["bars"][-1]["high"] == 2000
    assert all(b["high"] + 1 == c["low"] for b, c in zip(big["bars"], big["bars"][1:]))


def test_the_encounter_panel_as_described(furt):
    camp = furt.camp
    camp.encounter.start(rolls={n: 10 for n in FURT_NAMES})
    active, fixed = EncounterPanel(camp), EncounterPanel(camp.encounters["Furt"])
    for _ in FURT_NAMES:
        camp.encounter.next_turn()
    assert repr(active) == "Runde 2 – am Zug: Ritter" and "(„Runde 2 – am Zug: Ritter“)" in TEXT
    # the resources of the ruleset as bars: GD, VIG, CLA, SPI
    assert [r[0] for r in row(active, "Ritter")["res"]] == ["GD", "VIG", "CLA", "SPI"]
    # a click is the %%resolve line the panel shows
    set_form(active, verb="probe", actors=["Ritter"], options={"virtue": "CLA"}, dice="3")
    cell = active.lines["action"]
    assert cell == "%%resolve --würfel 3\nprobe Ritter virtue=CLA"
    send(active, "act")
    furt.ok(cell)
    clicked, typed = camp.journal(kind="auflösung", last=2)
    assert active.error == "" and clicked.data == typed.data and clicked.data["actors"] == ["Ritter"]
    # a %%resolve cell in this kernel shows at once
    furt.ok("%%resolve\nverlust Ritter virtue=CLA um=2")
    assert row(active, "Ritter")["res"][2] == ["CLA", 8, 10]
    # EncounterPanel(kampagne) follows the active encounter, the other stays with Furt
    camp.new_encounter("Brücke")
    assert "Furt" not in repr(active) and fixed.panel["name"] == "Furt"
    assert "200 Teilnehmern" in TEXT and "--combatants" in (ROOT / "benchmarks" / "widgets.py").read_text()


def test_the_row_buttons_as_described(furt):
    """Each button the page names is the panel's label, and its message calls the Encounter method."""
    for key in ("row_remove", "row_hide", "row_reveal", "row_delay", "row_now", "row_up", "row_down",
                "mark_hidden", "mark_held"):
        assert f"*{t('widget.panel.' + key)}*" in TEXT, key
    assert "*… zurückholen*" in TEXT and t("widget.panel.restore", name="X") == "X zurückholen"
    assert "*Gruppe*" in TEXT and t("widget.panel.mark_group", label="Söldner") == "Gruppe Söldner"
    camp = furt.camp
    camp.encounter.start()
    panel = EncounterPanel(camp)
    send(panel, "hide", name="Wache")
    send(panel, "move", name="Knappe", direction="up")
    send(panel, "delay", name="Ritter")
    send(panel, "remove", name="Söldner")
    assert panel.error == "" and [r["name"] for r in panel.rows] == ["Knappe", "Wache", "Ritter"]
    assert row(panel, "Wache")["hidden"] and row(panel, "Ritter")["held"] and panel.panel["removed"] == ["Söldner"]
    send(panel, "move", name="Wache", direction="up")   # the rule, as an error in the panel
    assert "(Überraschung)" in panel.error
    panel.close()


def test_the_character_sheet_as_described(furt):
    camp = furt.camp
    sheet = CharacterSheet(camp, "Ritter")
    other = CharacterSheet(camp.figure("Söldner"))
    assert other.figure == "Söldner" and sheet.figure == "Ritter"
    assert [f["name"] for f in sheet.fields] == list(rules.get("bastionland").sheet.fields)
    # Speichern checks with the ruleset and writes through set_sheet into the journal
    sheet.set_state({"draft": {**sheet.draft, "vig": 14}})
    send(sheet, "save")
    assert sheet.error == "" and camp.figure("Ritter").sheet["vig"] == 14
    [entry] = camp.journal(kind="bogen", last=1)
    assert "Vigour 13 → 14" in str(entry.data)   # the field by its label
    # a refused value: the message at its field, the input stays
    sheet.set_state({"draft": {**sheet.draft, "vig": 99}})
    send(sheet, "save")
    assert sheet.error and sheet.error_field == "vig" and sheet.draft["vig"] == 99
    assert camp.figure("Ritter").sheet["vig"] == 14
    # changed elsewhere while edits are unsaved: it says so
    camp.set_sheet("Ritter", {**camp.figure("Ritter").sheet, "cla": 11})
    assert sheet.stale


def test_the_hex_map_is_called_as_the_heading_says():
    campaign, karte = list(inspect.signature(HexMap).parameters)[:2]
    assert (campaign, karte) == ("campaign", "karte") and inspect.signature(HexMap).parameters[karte].default is None
    assert "## Hexkarte: `HexMap(kampagne, karte=None)`" in PAGE.text  # its blocks: tests/rules/kampfwerte/test_docs.py
