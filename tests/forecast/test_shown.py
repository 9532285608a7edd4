"""A forecast as the GM sees it: the card (text and HTML) and %rpg prognose."""

from __future__ import annotations

import re

import pytest

from rpgkernel.forecast.value import Chance, FigureForecast, Forecast, Mean
from rpgkernel import session
from rpgkernel.dice import Dist

from .test_forecast import SÖLDNER


def made(**kw) -> Forecast:
    """A forecast value built by hand, so that each number on the card is known."""
    base = dict(encounter="Furt <b>", method="simuliert", win={"Spieler": Chance(0.6, 0.55, 0.65),
                                                                "<script>": Chance(0.3, 0.25, 0.35)},
                draw=Chance(0.1, 0.08, 0.12), rounds=Dist.from_pmf({2: 0.5, 3: 0.5}),
                figures={"Ritter": FigureForecast("Spieler", Chance(0.3, 0.25, 0.35), {"VIG": Mean(4.25, 0.5)}),
                         "Söldner & Co": FigureForecast("<script>", Chance(0.6, 0.55, 0.65), {"VIG": Mean(1.0, 0.2)})},
                fights=1234, zielwahl="schwächste", seed=5, start_round=3)
    return Forecast(**{**base, **kw})


def test_the_card_in_text():
    text = repr(made())
    lines = text.splitlines()
    assert lines[0] == "Prognose Furt <b>, ab Runde 3: simuliert, 1.234 Kämpfe, 95-%-Intervalle; Zielwahl: schwächste (Seed 5)"
    assert lines[1] == "Am wahrscheinlichsten ist ein Sieg für Spieler: 60,00 % (55,00–65,00 %)."
    assert "  Sieg für <script>: 30,00 % (25,00–35,00 %)" in lines
    assert "  Unentschieden: 10,00 % (8,00–12,00 %)" in lines
    assert "Der Kampf dauert noch 2,5 Runden im Mittelwert (von 2 bis 3)." in lines
    assert re.search(r"Söldner & Co\s+<script>\s+60,00 % \(55,00–65,00 %\)\s+1,0 ± 0,2$", text, re.M)


def test_an_exact_card_has_no_intervals():
    f = made(method="exakt", win={"Spieler": Chance.exact(0.75), "Söldner": Chance.exact(0.25)},
             draw=Chance.exact(0.0), figures={"Ritter": FigureForecast("Spieler", Chance.exact(0.25),
                                                                       {"VIG": Mean(1.5)})}, fights=0)
    text = repr(f)
    assert "exakt berechnet" in text and "Sieg für Spieler: 75,00 %." in text and "–" not in text.split("\n")[1]
    assert "1,5" in text and "±" not in text


def test_plural_side_names_read_right():
    """Side names are mostly plurals ("Helden", "Feinde"): no verb agrees with them only in the singular."""
    f = made(win={"Helden": Chance.exact(0.7), "Feinde": Chance.exact(0.2)}, draw=Chance.exact(0.1))
    text, page = repr(f), f._repr_html_()
    assert "Am wahrscheinlichsten ist ein Sieg für Helden: 70,00 %." in text
    assert "  Sieg für Feinde: 20,00 %" in text and "Sieg für Feinde: <b>20,00 %</b>" in page
    assert "gewinnt" not in text + page


def test_the_card_in_html_escapes_and_draws():
    page = made()._repr_html_()
    assert "<script>" not in page and "&lt;script&gt;" in page and "Söldner &amp; Co" in page
    assert 'class="rpgk-winbar"' in page and page.count("<svg") == 1
    # the win bar's parts in proportion: 60 %, 30 % and the draw's 10 %
    assert re.findall(r"width:([\d.]+)%;background", page) == ["60.000", "30.000", "10.000"]


def opened(notebook, tmp_path):
    """A Bastionland campaign opened in the notebook with the duel of test_forecast as its encounter."""
    notebook.ok(f"%rpg --kampagne {tmp_path / 'k.sqlite'}")
    notebook.ok("%rpg bastionland")
    c = session.current().campaign
    c.new_encounter("Furt")
    c.encounter.add("Ritter", side="Spieler", sheet=SÖLDNER)
    c.encounter.add("Söldner", side="Söldner", sheet=SÖLDNER)
    return c


def test_rpg_prognose(notebook, tmp_path):
    c = opened(notebook, tmp_path)
    shown = notebook.ok("%rpg prognose -n 300 --seed 2 --zielwahl verteilen")
    assert shown[-1].startswith("Prognose Furt, vor dem Kampf: simuliert, 300 Kämpfe")
    assert "Zielwahl: verteilen (Seed 2)" in shown[-1]
    assert notebook.value.to_dict() == c.encounter.forecast(n=300, seed=2, zielwahl="verteilen").to_dict()
    again = notebook.ok("%rpg prognose Furt -n 300 --seed 2 --zielwahl verteilen")
    assert again == shown


@pytest.mark.parametrize("line, words", [
    ("%rpg prognose -n 0", "-n"), ("%rpg prognose --genauigkeit 3", "--genauigkeit"),
    ("%rpg prognose --zielwahl zufällig", "Unbekannte Zielwahl"), ("%rpg prognose Nebel", "Keine Begegnung Nebel"),
    ("%rpg prognose --tempo 3", "--tempo"),
])
def test_rpg_prognose_in_german(notebook, tmp_path, line, words):
    notebook.ok(f"%rpg --kampagne {tmp_path / 'k.sqlite'}")
    notebook.ok("%rpg bastionland")
    session.current().campaign.new_encounter("Furt")
    shown = notebook.run(line)
    assert shown[0].startswith("Fehler") and words in shown[0]


def test_an_unknown_encounter_says_the_command_that_makes_one(notebook, tmp_path):
    """The message names the cell that creates an encounter with its participants; running it as told
    makes the forecast possible (``%begegnung neu NAME`` would only roll a figure's initiative anew)."""
    notebook.ok(f"%rpg --kampagne {tmp_path / 'k.sqlite'}")
    notebook.ok("%rpg bastionland")
    [said] = notebook.run("%rpg prognose Nebel")
    assert "(%%figuren --begegnung NAME)" in said
    notebook.ok("%%figuren --begegnung Nebel\n- name: Ritter\n  seite: Helden\n  werte: {vig: 13, cla: 10, spi: 13, gd: 5}"
                "\n- name: Söldner\n  seite: Feinde\n  werte: {vig: 13, cla: 10, spi: 10, gd: 4}")
    assert notebook.ok("%rpg prognose Nebel")[-1].startswith("Prognose Nebel")


def test_precision_in_percent(notebook, tmp_path):
    from rpgkernel.magic_forecast import _precision
    assert _precision("1%") == pytest.approx(0.01) and _precision("0,02") == pytest.approx(0.02)
    assert _precision("2 %") == pytest.approx(0.02) and _precision(None) == 0.01


def test_rpg_prognose_without_morale(notebook, tmp_path):
    c = opened(notebook, tmp_path)
    shown = notebook.ok("%rpg prognose --ohne-moral -n 40 --seed 3")[-1]
    assert notebook.value.moral is False and shown.splitlines()[-1].startswith("Ohne Moral gespielt")
    assert notebook.value.to_dict() == c.encounter.forecast(n=40, seed=3, moral=False).to_dict()
    assert notebook.ok("%rpg prognose -n 40 --seed 3")[-1] != shown and notebook.value.moral is True


def test_rpg_prognose_takes_a_path(notebook, tmp_path):
    opened(notebook, tmp_path)
    exact = notebook.ok("%rpg prognose --weg exakt")[-1]
    assert "exakt berechnet" in exact.splitlines()[0] and notebook.value.weg == "exakt"
    procedures = notebook.ok("%rpg prognose -n 50 --seed 1 --weg prozeduren")[-1]
    assert notebook.value.weg == "prozeduren" and "simuliert, 50 Kämpfe" in procedures
    shown = notebook.run("%rpg prognose --weg zaubern")
    assert shown[0].startswith("Fehler") and "zaubern" in shown[0]
