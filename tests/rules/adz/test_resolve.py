"""AdZ through %%resolve and a campaign: verbs, open luck choices, previews, German errors."""

import pytest

import rpgkernel
from rpgkernel import Campaign, statblocks
from rpgkernel.errors import ResolveError

FIGURES = """
figuren:
  - name: Alrik
    werte:
      {KK: 5, KO: 4, GE: 6, FF: 3, KL: 3, WK: 4, IN: 5, CH: 2, GL: 3,
       fertigkeiten: ["Klettern 4", "Schwerter 6", "Verteidigung 5", "Reflexe 2"],
       spezialisierungen: ["Parade 2"],
       waffen: ["Langschwert (Schwerter, KK, GS 5)"],
       ausruestung: ["Kettenhemd (RS 2, WB 1, AM 1)"]}
  - name: Ork
    werte:
      {KK: 6, KO: 5, GE: 4, FF: 2, KL: 2, WK: 3, IN: 3, CH: 1, GL: 1,
       fertigkeiten: ["Äxte 5", "Verteidigung 3"],
       waffen: ["Axt (Äxte, KK, GS 6, VM -1)"]}
"""


@pytest.fixture
def camp(tmp_path):
    c = Campaign.open(tmp_path / "adz.sqlite")
    c.set_ruleset("adz")
    statblocks.load(c, FIGURES)
    yield c
    c.close()


def value(camp, name, resource):
    return camp.figure(name).resources[resource]["value"]


def test_a_test_with_luck_taken_in_the_next_cell(camp):
    opened = rpgkernel.resolve("probe Alrik attribut=GE fertigkeit=Klettern mw=3", campaign=camp,
                               dice=[5, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    assert opened.open and value(camp, "Alrik", "Glückspool") == 3
    res = rpgkernel.resolve("glück Alrik", campaign=camp, dice=[6, 5, 1])
    assert not res.open and res.outcome["gelungen"] and res.outcome["erfolge"] == 3
    assert value(camp, "Alrik", "Glückspool") == 2


def test_declining_luck_closes_the_test(camp):
    rpgkernel.resolve("probe Alrik attribut=GE mw=3", campaign=camp, dice=[1] * 6)
    res = rpgkernel.resolve("verzicht Alrik", campaign=camp)
    assert not res.open and not res.outcome["gelungen"] and value(camp, "Alrik", "Glückspool") == 3


def test_entschieden_closes_at_once(camp):
    res = rpgkernel.resolve("test Alrik attribut=GE mw=3 entschieden", campaign=camp, dice=[1] * 6)
    assert not res.open


def test_opposed_test_and_preview(camp):
    pre = rpgkernel.resolve("vergleich Alrik -> Ork attribut=KK ziel_attribut=KK gleichwertig", campaign=camp,
                            preview=True)
    assert set(pre.preview) == {"p_sieg", "p_unentschieden", "p_niederlage", "p_keiner_gelingt"}
    res = rpgkernel.resolve("opposed Alrik -> Ork attribut=KK ziel_attribut=KK gleichwertig entschieden",
                            campaign=camp, dice=[5, 5, 1, 1, 1] + [6, 6, 1, 1, 1, 1])
    assert res.outcome["ergebnis"] == "unentschieden"


def test_damage_healing_and_refill(camp):
    rpgkernel.resolve("schaden Ork menge=3\nschaden Alrik menge=2 leiste=geistig", campaign=camp)
    assert value(camp, "Ork", "körperlich") == 9 and value(camp, "Alrik", "geistig") == 10
    rpgkernel.resolve("heilung Ork stufen=2 phasen=3\nheal Alrik stufen=5 leiste=geistig", campaign=camp)
    assert value(camp, "Ork", "körperlich") == 11 and value(camp, "Alrik", "geistig") == 12
    camp.change("Alrik", "Glückspool", -2)
    rpgkernel.resolve("auffüllen Alrik", campaign=camp)
    assert value(camp, "Alrik", "Glückspool") == 3


@pytest.mark.parametrize("line, message", [
    ("probe Alrik attribut=GE", "Welcher Mindestwurf"),
    ("probe Alrik attribut=XY mw=1", "Unbekanntes Attribut"),
    ("probe Alrik attribut=GE fertigkeit=Fliegen mw=1", "keine Fertigkeit 'Fliegen'"),
    ("schaden Alrik", "menge= fehlt"),
    ("heilung Alrik stufen=1", "phasen= von 1 bis 3"),
    ("schaden Alrik menge=1 leiste=seelisch", "Unbekannte Schadensleiste"),
])
def test_bad_lines_give_german_errors_and_change_nothing(camp, line, message):
    before = camp.state
    with pytest.raises(ResolveError, match=message):
        rpgkernel.resolve(line, campaign=camp, dice=[1] * 20)
    assert camp.state == before


def test_luck_for_a_roll_that_is_not_ones_own(camp):
    rpgkernel.resolve("probe Alrik attribut=GE mw=3", campaign=camp, dice=[1] * 6)
    with pytest.raises(ResolveError, match="keinen Wurf"):
        rpgkernel.resolve("glück Alrik wurf=angriff", campaign=camp, dice=[1, 1, 1])
