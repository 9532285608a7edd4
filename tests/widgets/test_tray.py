"""The distribution chart, the dice tray and the roll card: data, text forms, every sync path, %roll's display."""

import json
import math
import re
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest
import traitlets
from kernel_notebook import executed
from IPython.core.formatters import DisplayFormatter
from ipywidgets.widgets.widget import _instances

import rpgkernel
from rpgkernel import magics, messages, session
from rpgkernel.assets import asset
from rpgkernel.render import percent, roll_html, roll_text, rolls_text
from rpgkernel.session import Session
from rpgkernel.widgets import DiceTray, DistributionChart
from rpgkernel.widgets.chart import MAX_BARS, chart_data
from rpgkernel.widgets.tray import HISTORY, WIDGET_VIEW, RollCard, roll_data, view_bundle

HOSTILE = '<img src=x onerror="alert(1)">'


def die_entries(entry):
    return [p for p in entry["parts"] if isinstance(p, dict)]


# -- chart_data ----------------------------------------------------------------
@pytest.mark.parametrize("expr", ["3W6", "4W6kh3", "2W6*2", "7W6>=5", "W20-5", "{W8,W4,2W6}kh1", "max(0, W8-2)"])
def test_chart_data_follows_the_pmf(expr):
    d = rpgkernel.dist(expr)
    data = chart_data(d)
    json.dumps(data)  # JSON-able as it is
    assert data["step"] == 1 and data["label"] == expr
    bars = data["bars"]
    assert [b["low"] for b in bars] == list(range(d.min, d.max + 1))  # dense, gaps included
    assert {b["low"]: b["p"] for b in bars if b["p"]} == pytest.approx(d.pmf(), abs=1e-12)
    for b in bars:
        assert b["high"] == b["low"] and b["label"] == b["low_text"] == str(b["low"]).replace("-", "−")
        assert b["ge"] == pytest.approx(d.p_at_least(b["low"]), abs=1e-12)
        assert (b["p_text"], b["ge_text"]) == (percent(b["p"]), percent(b["ge"]))
    assert data["mean"] == pytest.approx(d.mean) and data["sd"] == pytest.approx(d.sd)
    assert all(d.min <= t["value"] <= d.max and bars[t["bar"]]["low"] == t["value"] for t in data["ticks"])


def test_chart_data_against_counting():
    """3W6 counted by hand: every bar is (ways / 216), the mindestens view sums the tail."""
    ways = {}
    for faces in product(range(1, 7), repeat=3):
        ways[sum(faces)] = ways.get(sum(faces), 0) + 1
    bars = {b["low"]: b for b in chart_data(rpgkernel.dist("3W6"))["bars"]}
    for v, n in ways.items():
        assert bars[v]["p"] == pytest.approx(float(Fraction(n, 216)), abs=1e-12)
        assert bars[v]["ge"] == pytest.approx(float(Fraction(sum(ways[w] for w in ways if w >= v), 216)), abs=1e-12)
    assert bars[10]["p_text"] == "12,50 %" and bars[18]["ge_text"] == "0,46 %"
    data = chart_data(rpgkernel.dist("3W6"))
    assert (data["mean_text"], data["sd_text"]) == ("10,50", "2,96")


def test_chart_data_marks():
    d = rpgkernel.dist("2W6")
    assert chart_data(d)["marked"] == [] and chart_data(d)["marked_bars"] == []
    data = chart_data(d, 7)
    assert data["marked"] == [7] and data["bars"][data["marked_bars"][0]]["low"] == 7
    assert chart_data(d, [9, 2, 9, 40])["marked"] == [2, 9]  # sorted, unique, outside the support left out
    r = rpgkernel.roll("2W6", dice=[3, 4])
    assert chart_data(d, r)["marked"] == [7]  # a Roll counts as its total


@pytest.mark.parametrize("expr", ["10W%", "W10000", "300W6"])
def test_large_supports_are_binned(expr):
    d = rpgkernel.dist(expr)
    data = chart_data(d, d.min + 501)
    bars = data["bars"]
    assert data["step"] > 1 and len(bars) <= MAX_BARS
    assert bars[0]["low"] == d.min and bars[-1]["high"] == d.max
    assert all(a["high"] + 1 == b["low"] for a, b in zip(bars, bars[1:]))
    pmf = d.pmf()
    for b in bars[::17]:
        assert b["p"] == pytest.approx(math.fsum(pmf.get(v, 0.0) for v in range(b["low"], b["high"] + 1)), abs=1e-12)
        assert b["ge"] == pytest.approx(d.p_at_least(b["low"]), abs=1e-12)
        assert b["label"] == f"{b['low']:,}–{b['high']:,}".replace(",", ".")   # German thousands
    assert math.fsum(b["p"] for b in bars) == pytest.approx(1.0)
    [i] = data["marked_bars"]
    assert bars[i]["low"] <= d.min + 501 <= bars[i]["high"]
    assert 3 <= len(data["ticks"]) <= 13


def test_sixty_w6_keeps_every_value():
    data = chart_data(rpgkernel.dist("60W6"))
    assert data["step"] == 1 and len(data["bars"]) == 301 and len(data["ticks"]) <= 13


# -- DistributionChart -----------------------------------------------------------
def test_chart_text_is_stable():
    chart = DistributionChart(rpgkernel.dist("3W6"))
    assert chart.text() == repr(chart) == "Verteilung 3W6: Mittelwert 10,50, Standardabweichung 2,96"
    assert repr(DistributionChart(rpgkernel.dist("3W6"), marked=11)) == (
        "Verteilung 3W6: Mittelwert 10,50, Standardabweichung 2,96, markiert 11")
    assert "0x" not in repr(chart)


def test_chart_follows_python_changes():
    chart = DistributionChart(rpgkernel.dist("3W6"), title="Schaden")
    assert chart.get_state()["data"]["label"] == "3W6" and chart.get_state()["title"] == "Schaden"
    chart.marked = 12
    assert chart.get_state()["data"]["marked"] == [12]
    chart.dist = rpgkernel.dist("2W6")
    state = chart.get_state()["data"]
    assert state["label"] == "2W6" and state["min"] == 2 and state["marked"] == [12]
    chart.marked = None
    assert chart.data["marked"] == [] and repr(chart).startswith("Verteilung 2W6: Mittelwert 7,00")


def test_chart_view_toggle_from_the_front_end():
    chart = DistributionChart(rpgkernel.dist("3W6"))
    assert chart.chart_view == "verteilung"
    chart.set_state({"chart_view": "mindestens"})
    assert chart.chart_view == "mindestens"
    with pytest.raises(traitlets.TraitError):
        chart.set_state({"chart_view": "<b>"})
    assert chart.chart_view == "mindestens"


# -- front-end texts come from the catalogue -----------------------------------------
def _keys_used(*files):
    return {m for f in files for m in re.findall(r'\bL\(model, "([^"]+)"', asset(f))} | {
        m for f in files for m in re.findall(r'"(widget\.[a-z_]+\.[a-z_]+)"', asset(f))}


@pytest.mark.parametrize("widget, files", [
    (lambda: DistributionChart(rpgkernel.dist("W6")), ("chart.js", "chart_main.js")),
    (lambda: DiceTray(session=Session(seed=1)), ("chart.js", "tray.js")),
    (lambda: RollCard(rpgkernel.roll("W6", dice=[3])), ("chart.js", "tray.js")),
])
def test_every_front_end_text_is_in_the_labels(widget, files):
    w = widget()
    used = _keys_used(*files)
    assert used and used <= set(w.labels), used - set(w.labels)
    assert all(messages.labels("")[k] == w.labels[k] for k in used)
    assert w._esm.count("export default") == 1 and "function drawChart(" in w._esm


def test_no_unused_messages():
    import rpgkernel.widgets.chart as chart_module
    import rpgkernel.widgets.tray as tray_module
    sources = "".join(asset(f) for f in ("chart.js", "chart_main.js", "tray.js")) + "".join(
        Path(m.__file__).read_text(encoding="utf-8") for m in (chart_module, tray_module))
    ours = [k for k in messages.labels("widget.") if k.startswith(("widget.chart.", "widget.tray."))]
    assert ours and [k for k in ours if f'"{k}"' not in sources] == []


def test_front_end_sets_text_only():
    for name in ("chart.js", "chart_main.js", "tray.js"):
        source = asset(name)
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "DOMParser", "eval("):
            assert sink not in source, (name, sink)
    assert not re.search(r"^\s*export\b", asset("chart.js"), re.M)  # concatenated by other widgets


# -- roll data ------------------------------------------------------------------
def test_roll_data_structure():
    r = rpgkernel.roll("4W6kh3+2", dice=[6, 1, 5, 4])
    data = roll_data(r)
    json.dumps(data)
    assert data["expression"] == "4W6kh3+2" and data["given"] is True and data["total"] == "17"
    assert data["chance"] == roll_text(r).split("  ·  ")[1]
    dice = die_entries(data)
    assert [d["faces"] for d in dice] == [[6], [1], [5], [4]]
    assert [d["kept"] for d in dice] == [True, False, True, True]
    # the text parts around the dice read like the plain-text form
    text = "".join(p if isinstance(p, str) else ("(1)" if not p["kept"] else str(p["value"])) for p in data["parts"])
    assert text == "[6, (1), 5, 4] + 2"


def test_roll_data_successes_and_rerolls():
    data = roll_data(rpgkernel.roll("3W6>=5", dice=[6, 2, 5]))
    assert data["total"] == "2 Erfolge" and [d["success"] for d in die_entries(data)] == [True, False, True]
    data = roll_data(rpgkernel.roll("W6r1", dice=[1, 4]))
    [die] = die_entries(data)
    assert die["faces"] == [1, 4] and die["rerolled"] == [True, False]


def test_roll_without_exact_distribution_shows_an_estimate():
    r = rpgkernel.roll("4W10000kh3", seed=1)
    card = RollCard(r)
    assert card.entries[0]["chance"].startswith(f"P(≥ {r.total:,}) ≈ ".replace(",", "."))
    assert "geschätzt aus 20.000 Würfen" in card.entries[0]["chance"]
    assert "geschätzt aus 20.000 Würfen" in card.chart["label"] and card.chart["marked"] == [r.total]
    # values spread too widely to keep as frequencies: the chance is estimated, no chart
    wide = RollCard(rpgkernel.roll("W10000*W10000", seed=1))
    assert wide.chart == {} and "geschätzt aus" in wide.entries[0]["chance"]


# -- the roll card --------------------------------------------------------------
def test_roll_card():
    r = rpgkernel.roll("3W6+2", dice=[5, 3, 6])
    card = RollCard(r)
    state = card.get_state()
    assert state["controls"] is False and state["head"] == "" and state["entries"] == [roll_data(r)]
    assert state["chart"]["marked"] == [16] and state["chart"]["label"] == "3W6+2"
    assert repr(card) == str(r)


def test_rolls_card():
    rolls = rpgkernel.roll_many("W%", 3, dice=[27, 30, 82])
    card = RollCard(rolls)
    assert card.head == "3 Würfe von W%" and card.summary == "Summe 139, Mittelwert 46,33"
    assert [e["total"] for e in card.entries] == ["27", "30", "82"]
    assert card.chart["marked"] == [27, 30, 82]
    assert repr(card) == rolls_text(rolls)


# -- the dice tray --------------------------------------------------------------
@pytest.fixture
def own_session(monkeypatch):
    """A fresh seeded current session (what %roll and a tray without session use)."""
    s = Session(seed=5)
    monkeypatch.setattr(session, "_current", s)
    return s


def test_tray_text():
    tray = DiceTray(session=Session(seed=1))
    assert repr(tray) == "Würfelschale: noch kein Wurf"
    tray.roll("3W6", dice=[6, 2, 3])
    assert repr(tray) == "Würfelschale: 1 Wurf, zuletzt 3W6 = 11"
    tray.roll("7W6>=5", dice=[6, 5, 1, 1, 1, 1, 1])
    tray.roll("3W6", dice=[6, 2, 3])
    assert repr(tray) == "Würfelschale: 3 Würfe, zuletzt 3W6 = 11"


def test_tray_roll_from_python(own_session):
    tray = DiceTray()
    r = tray.roll("3W6", dice=[6, 2, 5])
    assert isinstance(r, rpgkernel.Roll) and r.total == 13 and r.given
    state = tray.get_state()
    assert state["controls"] is True and state["error"] == ""
    assert state["expression"] == "3W6" and state["given"] == ""  # used dice are cleared
    assert state["entries"] == [roll_data(r)]
    assert state["chart"]["label"] == "3W6" and state["chart"]["marked"] == [13]


def test_tray_roll_message_from_the_front_end(own_session):
    tray = DiceTray()
    tray._dispatch(tray, {"type": "roll", "expression": "3W6", "given": "1 1 1"})
    tray._dispatch(tray, {"type": "roll", "expression": "4W6kh3", "given": "6, 2, 5, 1"})
    assert [e["expression"] for e in tray.entries] == ["4W6kh3", "3W6"]  # newest first
    assert [d["kept"] for d in die_entries(tray.entries[0])] == [True, True, True, False]
    assert tray.entries[0]["total"] == "13" and tray.chart["marked"] == [13]
    assert [r.total for r in tray.rolls] == [3, 13]


def test_tray_uses_the_current_session(own_session):
    tray = DiceTray()
    rolled = [tray.roll("10W100").to_dict() for _ in range(3)]
    own_session.reseed(5)
    assert [rpgkernel.roll("10W100").to_dict() for _ in range(3)] == rolled


def test_tray_uses_a_given_session():
    def history(seed):
        tray = DiceTray(session=Session(seed=seed))
        return [tray.roll("10W100").to_dict() for _ in range(3)]
    assert history(7) == history(7)
    assert history(7) != history(8)


def test_tray_history_is_capped():
    tray = DiceTray(session=Session(seed=1))
    for _ in range(HISTORY + 5):
        tray.roll("W6")
    assert len(tray.entries) == HISTORY and len(tray.rolls) == HISTORY + 5
    assert repr(tray).startswith(f"Würfelschale: {HISTORY + 5} Würfe")
    assert tray.entries[0] == roll_data(tray.rolls[-1])


@pytest.mark.parametrize("expression, given, start", [
    ("3W", "", "Der Ausdruck endet zu früh"),
    ("3W6", "6, 2", "Zu wenige Würfelergebnisse"),
    ("3W6", "6, 2, 5, 4", "Zu viele Würfelergebnisse"),
    ("3W6", "6, 9, 5", "Ein W6 kann keine 9 zeigen"),
    ("3W6", "6, zwei, 5", "Würfelergebnisse müssen ganze Zahlen sein, nicht 'zwei'"),
    ("W20+@fehlt", "", "Unbekannte Variable @fehlt"),
])
def test_bad_input_keeps_what_was_typed(expression, given, start):
    tray = DiceTray(session=Session(seed=1))
    tray.roll("2W6", dice=[3, 4])
    before = tray.get_state()["entries"]
    tray._dispatch(tray, {"type": "roll", "expression": expression, "given": given})
    assert tray.error.startswith(start)
    assert (tray.expression, tray.given) == (expression, given)
    assert tray.entries == before and len(tray.rolls) == 1
    tray._dispatch(tray, {"type": "roll", "expression": "2W6", "given": "1, 1"})
    assert tray.error == "" and tray.entries[0]["total"] == "2"


def test_syntax_error_has_the_caret():
    tray = DiceTray(session=Session(seed=1))
    assert tray.roll("3W6+*2") is None
    message, source, caret = tray.error.split("\n")[:3]
    assert source.strip() == "3W6+*2" and caret.strip() == "^"
    assert caret.index("^") == source.index("*")


def test_expression_from_the_front_end_previews_the_chart():
    tray = DiceTray(session=Session(seed=1))
    tray.set_state({"expression": "2W6"})
    assert tray.chart["label"] == "2W6" and tray.chart["marked"] == []
    tray.roll("2W6", dice=[3, 4])
    tray.set_state({"expression": "3W6"})
    assert tray.chart["label"] == "3W6" and tray.chart["marked"] == []
    tray.set_state({"expression": "2W6"})
    assert tray.chart["marked"] == [7]  # the last result of this expression stays marked
    tray.set_state({"expression": "2W"})
    assert tray.chart == {} and tray.error == ""  # typing is no roll: no error yet
    tray.set_state({"chart_view": "mindestens"})
    assert tray.chart_view == "mindestens"
    tray.expression = "W8"  # from Python: the front end reads the new field text and chart
    assert tray.get_state()["expression"] == "W8" and tray.get_state()["chart"]["label"] == "W8"


def test_tray_with_notebook_variables(shell):
    shell.user_ns["bonus"] = 3
    tray = DiceTray(session=Session(seed=1))
    assert tray.roll("W20+@bonus", dice=[10]).total == 13


def test_tray_logs_into_the_campaign_like_roll(tmp_path, monkeypatch):
    played = Session()
    played.open_campaign(tmp_path / "tray.sqlite")
    tray = DiceTray(session=played)
    tray.roll("2W6", dice=[3, 4])
    tray.roll("2W", dice=[3, 4])  # refused: nothing logged
    magic = Session()
    magic.open_campaign(tmp_path / "magic.sqlite")
    monkeypatch.setattr(session, "_current", magic)
    magics.roll_line("--würfel 3,4 2W6")
    try:
        [a] = played.journal(kind="wurf")
        [b] = magic.journal(kind="wurf")
        assert a.data == b.data and a.data["roll"]["total"] == 7
    finally:
        played.close_campaign()
        magic.close_campaign()


def test_tray_without_campaign_logs_nothing(own_session):
    assert own_session.campaign is None
    DiceTray().roll("W6", dice=[2])  # no error, nothing to write
    assert own_session.campaign is None


# -- hostile text reaches the front end as text ------------------------------------
def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)


def test_hostile_text_stays_text():
    chart = DistributionChart(rpgkernel.dist("2W6").labelled(HOSTILE), title=HOSTILE)
    state = chart.get_state()
    assert state["title"] == HOSTILE and state["data"]["label"] == HOSTILE
    assert chart.text().startswith("Verteilung " + HOSTILE)
    tray = DiceTray(session=Session(seed=1))
    tray._dispatch(tray, {"type": "roll", "expression": HOSTILE, "given": ""})
    state = tray.get_state()
    assert HOSTILE in state["error"] and state["expression"] == HOSTILE
    tray._dispatch(tray, {"type": "roll", "expression": "W6", "given": HOSTILE})
    assert "'<img'" in tray.error and tray.given == HOSTILE
    for w in (chart, tray):
        for text in _strings({k: v for k, v in w.get_state().items() if k not in ("_esm", "_css", "labels")}):
            assert "&lt;" not in text and "&quot;" not in text  # raw text, never pre-escaped markup
    # no trait is meant as HTML: the only markup-capable fields are the ES module and the stylesheet
    assert not [k for k in tray.keys if "html" in k.lower()]


# -- %roll in a kernel: the widget view beside the unchanged displays ---------------------
@pytest.fixture
def kernel_shell(shell):
    """The test shell posing as a kernel's shell (IPython's ZMQ shell has a ``kernel``)."""
    shell.run_line_magic("unload_ext", "rpgkernel")
    shell.kernel = object()
    shell.run_line_magic("load_ext", "rpgkernel")
    try:
        yield shell
    finally:
        shell.run_line_magic("unload_ext", "rpgkernel")
        del shell.kernel
        shell.run_line_magic("load_ext", "rpgkernel")


def _objects():
    return [rpgkernel.roll("4W6kh3", dice=[6, 1, 5, 4]), rpgkernel.roll_many("W%", 2, dice=[5, 99]),
            rpgkernel.dist("3W6")]


def test_no_widget_view_without_kernel(shell):
    assert getattr(shell, "kernel", None) is None
    for obj in _objects():
        data, _ = shell.display_formatter.format(obj)
        assert data == DisplayFormatter().format(obj)[0]  # what IPython shows without the extension
        assert WIDGET_VIEW not in data and data["text/plain"] == repr(obj)


def test_widget_view_in_a_kernel(kernel_shell):
    for obj in _objects():
        data, _ = kernel_shell.display_formatter.format(obj)
        view = data.pop(WIDGET_VIEW)
        assert data == DisplayFormatter().format(obj)[0]  # text/plain, text/html (markdown) exactly as before
        widget = _instances[view["model_id"]]
        if isinstance(obj, rpgkernel.Dist):
            assert isinstance(widget, DistributionChart) and widget.data == chart_data(obj)
            assert widget.title == ""     # the chart's own: "Verteilung von 3W6", its numbers below it
        else:
            assert isinstance(widget, RollCard) and widget.text() == str(obj)
    assert WIDGET_VIEW not in kernel_shell.display_formatter.format((1, 2))[0]
    assert WIDGET_VIEW not in kernel_shell.display_formatter.format(rpgkernel.Session())[0]


def test_a_previews_chart_shows_its_hints_in_a_kernel(kernel_shell):
    """``%roll --vorschau 8W6>4``: the widget that takes the place of the HTML shows the hint too."""
    d = kernel_shell.run_line_magic("roll", "--vorschau 8W6>4")
    data, _ = kernel_shell.display_formatter.format(d)
    widget = _instances[data[WIDGET_VIEW]["model_id"]]
    assert widget.hints == list(d.hints) == list(rpgkernel.roll("8W6>4", seed=1).hints) and widget.hints
    assert widget.text().splitlines()[1:] == widget.hints
    widget.dist = rpgkernel.dist("8W6>=4")
    assert widget.hints == [] and "\n" not in widget.text()


def test_a_chart_says_its_numbers_once_and_its_mean_apart_from_a_samples(kernel_shell):
    """``%roll --vorschau 2W6``: title and summary line of the widget name mean and spread once;
    ``%roll -n 4 W20``: the sample's "Mittelwert" and the distribution's expected mean are two words."""
    d = kernel_shell.run_line_magic("roll", "--vorschau 2W6")
    chart = _instances[kernel_shell.display_formatter.format(d)[0][WIDGET_VIEW]["model_id"]]
    labels = chart.labels
    title = chart.title or labels["widget.chart.title"].format(expr=chart.data["label"])
    summary = labels["widget.chart.summary"].format(mean=chart.data["mean_text"], sd=chart.data["sd_text"])
    assert (title + summary).count("7,00") == 1 and (title + summary).count("2,42") == 1
    rolls = kernel_shell.run_line_magic("roll", "-n 4 --seed 1 W20")
    card = _instances[kernel_shell.display_formatter.format(rolls)[0][WIDGET_VIEW]["model_id"]]
    expected = card.labels["widget.chart.summary"].format(mean=card.chart["mean_text"], sd=card.chart["sd_text"])
    sample_word, expected_word = card.summary.split(", ")[1].split()[0], expected.split()[0]
    assert (sample_word, expected_word) == ("Mittelwert", "Erwartungswert") and "10,50" in expected


def test_roll_magic_still_returns_the_roll(kernel_shell):
    r = kernel_shell.run_line_magic("roll", "--würfel 6,2,5 3W6")
    assert isinstance(r, rpgkernel.Roll) and r.total == 13


def test_unregister_removes_only_the_views(kernel_shell):
    formatter = kernel_shell.display_formatter.mimebundle_formatter
    from rpgkernel.extension import widget_view
    assert formatter.lookup_by_type(rpgkernel.Roll) is widget_view
    kernel_shell.run_line_magic("unload_ext", "rpgkernel")
    for cls in (rpgkernel.Roll, rpgkernel.Rolls, rpgkernel.Dist):
        with pytest.raises(KeyError):
            formatter.lookup_by_type(cls)
    kernel_shell.run_line_magic("load_ext", "rpgkernel")


def test_view_bundle_keeps_the_own_bundle():
    r = rpgkernel.roll("3W6", dice=[1, 2, 3])
    data, meta = view_bundle(r)
    assert data["text/plain"] == roll_text(r) and data["text/html"] == roll_html(r)
    assert set(data) == {"text/plain", "text/html", WIDGET_VIEW} and data[WIDGET_VIEW]["model_id"] in _instances


@pytest.mark.slow
def test_widget_view_in_a_real_kernel():
    nb = executed(["%load_ext rpgkernel", "%roll --würfel 6,1,5,4 4W6kh3", "%roll --vorschau 2W6", "%rpg"])
    roll_out, dist_out, status = (nb.cells[i].outputs[0] for i in (1, 2, 3))
    r = rpgkernel.roll("4W6kh3", dice=[6, 1, 5, 4])
    assert roll_out.data["text/plain"] == roll_text(r) and roll_out.data["text/html"] == roll_html(r)
    assert set(roll_out.data[WIDGET_VIEW]) >= {"model_id", "version_major"}
    assert WIDGET_VIEW in dist_out.data
    assert WIDGET_VIEW not in status.data  # other displays are untouched
