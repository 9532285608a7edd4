"""The magics in a real IPython shell, and in a real kernel."""

import pytest
from distributions import write_distribution
from kernel_notebook import executed
from IPython.utils.capture import capture_output

import rpgkernel
from rpgkernel import Dist, Roll, Rolls, messages, session
from rpgkernel.dice import roll_many
from rpgkernel.magics import roll_line, rpg_line
from rpgkernel.render import dist_text
from rpgkernel.render.dice import hints_html




def run(shell, source):
    """Run a cell; return (result, captured output)."""
    with capture_output() as out:
        result = shell.run_cell(source)
    return result, out


def test_load_and_unload(shell):
    assert {"roll", "rpg"} <= set(shell.magics_manager.magics["line"])
    shell.run_line_magic("unload_ext", "rpgkernel")
    assert "roll" not in shell.magics_manager.magics["line"]
    shell.run_line_magic("load_ext", "rpgkernel")
    assert "roll" in shell.magics_manager.magics["line"]


def test_roll_returns_the_roll(shell):
    res, _ = run(shell, "r = %roll --seed 3 3W6+2\nr")
    assert res.success
    r = shell.user_ns["r"]
    assert isinstance(r, Roll) and r.to_dict() == rpgkernel.roll("3W6+2", seed=3).to_dict()


def test_braces_and_dollars_are_not_expanded(shell):
    shell.user_ns["W8"] = "kaputt"
    res, _ = run(shell, "r = %roll --würfel 7,3,1,5 {W8,W4,2W6}kh1")
    assert res.success and shell.user_ns["r"].total == 7


def test_notebook_variables_with_at(shell):
    shell.user_ns["bonus"] = 3
    shell.user_ns["waffe"] = "W8"
    run(shell, "r = %roll --würfel 10 W20+@bonus")
    assert shell.user_ns["r"].total == 13
    run(shell, "r = %roll --würfel 5 @waffe+@bonus")
    assert shell.user_ns["r"].total == 8


def test_options(shell):
    run(shell, "r = %roll -n 4 --seed 9 W%")
    rolls = shell.user_ns["r"]
    assert isinstance(rolls, Rolls) and [x.total for x in rolls] == [
        x.total for x in roll_many("W%", 4, seed=9)]
    run(shell, "r = %roll --anzahl=2 --würfel 1,2 W6")
    assert [x.total for x in shell.user_ns["r"]] == [1, 2]
    run(shell, "d = %roll --vorschau 2W6")
    assert isinstance(shell.user_ns["d"], Dist) and shell.user_ns["d"].mean == pytest.approx(7)
    run(shell, "r = %roll --dice 6,6,6 --count 1 3d6")
    assert shell.user_ns["r"][0].total == 18


@pytest.mark.parametrize("expr, fragment", [
    ("{W8,W4,2W6}kh1", "(W8, W4, 2W6)kh1"),
    ("3W6!3", "x3"),
    ("8W6>4", ">=4"),
    ("2W6>7", "Warnung: kein Würfel"),
])
def test_a_preview_shows_the_hints_of_the_roll_card(shell, expr, fragment):
    run(shell, f"d = %roll --vorschau {expr}\np = d.p_at_least(1)")
    d = shell.user_ns["d"]
    assert isinstance(d, Dist) and shell.user_ns["p"] == rpgkernel.dist(expr).p_at_least(1)
    card = rpgkernel.roll(expr, seed=1).hints
    assert any(fragment in hint for hint in card)
    data, _ = shell.display_formatter.format(d)
    for hint in card:
        assert data["text/plain"].count(hint) == 1 and data["text/html"].count(hints_html((hint,))) == 1


def test_an_unambiguous_preview_shows_no_hint(shell):
    run(shell, "d = %roll --vorschau 3W6")
    data, _ = shell.display_formatter.format(shell.user_ns["d"])
    assert data["text/plain"] == dist_text(rpgkernel.dist("3W6")) and "rpgk-hint" not in data["text/html"]


@pytest.mark.parametrize("line, fragment", [
    ("%roll 3X6", "Meinten Sie '3W6'?"),
    ("%roll --würfel 6,2 3W6", "Zu wenige Würfelergebnisse"),
    ("%roll --würfel 6,x 3W6", "Ungültiger Wert für --würfel"),
    ("%roll --würfel 6, 2 3W6", "„--würfel 6, 2“: Mehrere Werte werden mit Kommas ohne Leerzeichen getrennt: --würfel 6,2"),
    ("%begegnung start --würfel 9 8 7", "Kommas ohne Leerzeichen getrennt: --würfel 9,8,7"),
    ("%roll --foo 3W6", "Unbekannte Option '--foo'"),
    ("%roll -n 0 W6", "eine Zahl von 1 bis 1.000"),
    ("%roll --seed", "braucht einen Wert"),
    ("%roll", "Es fehlt ein Würfelausdruck"),
    ("%roll 2000W6", "Zu viele Würfel"),
    ("%roll W20+@unbekannt", "Unbekannte Variable @unbekannt"),
    ("%rpg bastionlnd", "Meinten Sie 'bastionland'?"),
    ("%rpg --sprache xx", "Unbekannte Sprache"),
    ("%rpg --kampagne /gibt/es/nicht/k.sqlite", "Der Ordner /gibt/es/nicht existiert nicht"),
    ("%rpg journal", "Es ist keine Kampagne geöffnet"),
])
def test_bad_input_shows_a_german_box_without_traceback(shell, line, fragment):
    res, out = run(shell, f"x = {line}")
    assert res.success and res.error_in_exec is None
    assert shell.user_ns["x"] is None
    assert "Traceback" not in out.stdout + out.stderr
    [shown] = out.outputs
    assert fragment in shown.data["text/plain"] and shown.data["text/plain"].startswith("Fehler:")
    assert 'class="rpgk-card rpgk-error"' in shown.data["text/html"]


def test_given_dice_split_by_a_space_point_at_the_comma_form(shell):
    """``%%resolve --würfel 9 15``: not an unknown ruleset '15', but the comma form of the dice."""
    res, out = run(shell, "%%resolve --würfel 9 15\nprobe Ritter virtue=VIG")
    [shown] = out.outputs
    text = shown.data["text/plain"]
    assert text.startswith("Fehler: „--würfel 9 15“: Mehrere Werte werden mit Kommas ohne Leerzeichen getrennt: "
                           "--würfel 9,15") and "Regelwerk '15'" not in text


def test_rpg_status_lists_rulesets(shell):
    """Every installed ruleset with its title and the package it comes from."""
    run(shell, "s = %rpg")
    text = repr(shell.user_ns["s"])
    for key in rpgkernel.rulesets():
        assert f"  {key:<12} {rpgkernel.rules.get(key).title} – aus rpgkernel\n" in text + "\n"
    assert "bastionland  Mythic Bastionland – aus rpgkernel\n" in text


def test_rpg_status_shows_why_a_ruleset_does_not_load(shell, tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(write_distribution(tmp_path, "rpg-kaputt", {"kaputt": "fehlt_ganz:Regeln"})))
    run(shell, "s = %rpg")
    text = repr(shell.user_ns["s"])
    assert ("  kaputt       nicht ladbar – Das Regelwerk 'kaputt' aus dem Paket rpg-kaputt lässt sich nicht "
            "laden (fehlt_ganz:Regeln): der Import scheitert mit ModuleNotFoundError") in text
    assert "  midgard      Midgard – Hausregeln – aus rpgkernel" in text
    html = shell.user_ns["s"]._repr_mimebundle_()["text/html"]
    assert "<code>kaputt</code></td><td style=\"text-align:left\">nicht ladbar</td>" in html


def test_rpg_sets_ruleset_and_seed(shell):
    run(shell, "%rpg midgard --seed 42")
    s = session.current()
    assert s.ruleset == "midgard" and s.seed == 42
    run(shell, "a = %roll 3W6\nb = %roll 3W6")
    run(shell, "%rpg --seed 42")
    run(shell, "c = %roll 3W6\nd = %roll 3W6")
    ns = shell.user_ns
    assert [ns["a"].total, ns["b"].total] == [ns["c"].total, ns["d"].total]
    run(shell, "%rpg --sprache de")
    assert messages.language() == "de"


def test_help_documents_examples(shell):
    doc = shell.magics_manager.magics["line"]["roll"].__doc__
    for example in ("%roll 3W6+2", "4W6kh3", "{W8,W4,2W6}kh1", "7W6>=5", "--vorschau", "--würfel", "@bonus"):
        assert example in doc


def test_magic_functions_work_without_ipython_running():
    assert roll_line("--würfel 2,3 2W6").total == 5
    assert isinstance(rpg_line(""), object) and "Regelwerke" in repr(rpg_line(""))


def test_engines_do_not_import_ipython():
    import subprocess
    import sys
    code = ("import sys, rpgkernel; rpgkernel.roll('3W6', seed=1); rpgkernel.dist('4W6kh3'); "
            "print(any(m == 'IPython' or m.startswith('IPython.') for m in sys.modules))")
    assert subprocess.check_output([sys.executable, "-c", code], text=True).strip() == "False"


@pytest.mark.slow
def test_in_a_real_kernel():
    nb = executed(["%load_ext rpgkernel", "%roll --seed 1 4W6kh3", "%roll 3X6", "r = %roll --würfel 6,2,5 3W6\nr.total"])
    roll_out = nb.cells[1].outputs[0]
    assert roll_out.output_type == "execute_result"
    assert roll_out.data["text/plain"] == str(rpgkernel.roll("4W6kh3", seed=1))
    assert "<svg" in roll_out.data["text/html"]
    [err] = nb.cells[2].outputs
    assert err.output_type == "display_data" and err.data["text/plain"].startswith("Fehler:")
    assert nb.cells[3].outputs[0].data["text/plain"] == "13"
