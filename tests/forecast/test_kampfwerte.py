"""The forecast of a Kampfwerte fight: every attack a manoeuvre whose damage and defence come from the
GM's data ``prognose`` (docs/kampfwerte.md, „Prognose: die Taktik“); the engine's procedure does the rest."""

from __future__ import annotations

import json
import re
from itertools import product

import pytest
from doc_blocks import page, run_python

from rpgkernel import Campaign, rules, statblocks
from rpgkernel.dice import Roller
from rpgkernel.forecast import ForecastError
from rpgkernel.messages import t
from rpgkernel.rules.figure import view
from rpgkernel.rules.kampfwerte.manoever import kosten
from rpgkernel.rules.kampfwerte.settings import EINSTELLUNGEN
from rpgkernel.rules.kampfwerte.prognose import DATEN, angriff
from rpgkernel.rules.tactics import Action, Fight

from .duel import a_wins, attack

KAEL = {"AUFMERKSAMKEIT": 3, "GEWANDTHEIT": 3, "INSTINKT": 3, "HEIMLICHKEIT": 3, "AD": 200, "LP": 14, "angriff": 4,
        "ruestung": 1, "manoever": ["Gezielte Attacke 2", "Schadenserhöhung 3", "Finte 2", "Schattensprung 1"]}
ORK = {"AUFMERKSAMKEIT": 3, "GEWANDTHEIT": 4, "INSTINKT": 3, "HEIMLICHKEIT": 2, "AD": 200, "LP": 12, "angriff": 3,
       "ruestung": 2, "manoever": ["Schadenserhöhung 1", "Wuchtschlag 1", "Gezielte Attacke 1"]}
#: Kael's Gezielte Attacke is defended on a W10 of 8 or more, the orcs' Schadenserhöhung one time in five
DATA = {"alle": {"abwehr": "W10>=8"},
        "seiten": {"Feinde": {"manöver": "Schadenserhöhung", "schaden": "W6+1", "abwehr": 0.2}},
        "figuren": {"Kael": {"manöver": "Gezielte Attacke 2", "schaden": "W6"}}}
TACTICS = rules.get("kampfwerte").tactics
PAGE = page("kampfwerte.md")
HEADING = "## Prognose: die Taktik"
FIGURES = PAGE.block("yaml", "figuren:")
PAGE_DATA = PAGE.block("python", 'kampagne.set_data("prognose"', after=HEADING)


def encounter(tmp_path, *figures, data=DATA):
    c = Campaign.open(tmp_path / "k.sqlite")
    c.set_ruleset("kampfwerte")
    enc = c.new_encounter("Gefecht")
    for name, side, sheet in figures:
        enc.add(name, side=side, sheet=sheet)
    c.set_data("prognose", data)
    return c, enc


def p_probe(dice: int) -> float:
    """P(an attack test succeeds), every throw of ``dice`` W10 counted (regeln.yaml: from 7 a success, the
    0 (ten) two, a 1 takes one away; 2 successes needed)."""
    hits = sum(sum(2 if f == 10 else -1 if f == 1 else int(f >= 7) for f in faces) >= 2
               for faces in product(range(1, 11), repeat=dice))
    return hits / 10 ** dice


def w6s(n: int, plus: int) -> dict[int, float]:
    """n W6 + plus."""
    out = {plus: 1.0}
    for _ in range(n):
        added: dict[int, float] = {}
        for x, p in out.items():
            for face in range(1, 7):
                added[x + face] = added.get(x + face, 0.0) + p / 6
        out = added
    return out


@pytest.mark.slow
def test_a_duel_as_a_markov_chain(tmp_path):
    """Kael: Gezielte Attacke 2 with a W6, +2 per level, against RS 2: W6+2 LP; the orc: Schadenserhöhung 1
    with W6+1 and +1W6, against RS 1: 2W6 LP. Each hits on its attack test and when the target does not
    defend. AD 200 never run out. Initiative once, W10 + 9 against W10 + 10; a tie goes to Kael, the player
    character."""
    _, enc = encounter(tmp_path, ("Kael", "Spieler", KAEL), ("Ork", "Feinde", ORK))
    f = enc.forecast(n=600, seed=4)
    kael = attack(p_probe(4) * (1 - 0.3), w6s(1, 2))
    ork = attack(p_probe(3) * (1 - 0.2), w6s(2, 0))
    first = sum(a + 9 >= b + 10 for a in range(1, 11) for b in range(1, 11)) / 100
    exact = first * a_wins(14, 12, lambda *_: kael, lambda *_: ork, 1.0) + \
        (1 - first) * a_wins(14, 12, lambda *_: kael, lambda *_: ork, 0.0)
    assert f.win["Spieler"].low <= exact <= f.win["Spieler"].high
    assert f.draw.p == 0 and f.figures["Ork"].falls.p == f.win["Spieler"].p
    assert f.figures["Kael"].resources["AD"].value < 200 - 2     # the engine took the AD of each manoeuvre


def test_what_the_engine_does_with_a_defended_attack_and_no_ad(tmp_path):
    """Every attack defended (abwehr 1): nobody loses LP; with 10 AD each manoeuvre of 2 AD is paid five
    times, then nobody can pay and the fight is undecided after 100 rounds."""
    data = {"alle": {"manöver": "Gezielte Attacke 2", "schaden": "W6", "abwehr": 1}}
    _, enc = encounter(tmp_path, ("Kael", "Spieler", {**KAEL, "AD": 10}),
                       ("Ork", "Feinde", {**ORK, "AD": 10, "manoever": ["Gezielte Attacke 2"]}), data=data)
    f = enc.forecast(n=5, seed=1)
    assert f.draw.p == 1 and f.rounds.min == 100
    for name, lp in (("Kael", 14), ("Ork", 12)):
        assert f.figures[name].resources["LP"].value == lp and f.figures[name].resources["AD"].value == 0


def test_a_knocked_down_figure_gets_up(tmp_path):
    """Wuchtschlag without damage knocks Kael down again and again (his parry has no dice): he stands up,
    is never out of the fight, and the orc never wins."""
    data = {**DATA, "seiten": {"Feinde": {"manöver": "Wuchtschlag", "schaden": 0, "abwehr": 0}}}
    _, enc = encounter(tmp_path, ("Kael", "Spieler", KAEL), ("Ork", "Feinde", {**ORK, "angriff": 6}), data=data)
    f = enc.forecast(n=60, seed=2)
    assert f.win["Feinde"].p == 0 and f.figures["Kael"].falls.p == 0 and f.win["Spieler"].p > 0.9
    assert TACTICS.gets_up(t("kampfwerte.out_niedergeworfen"))
    assert not TACTICS.gets_up(t("kampfwerte.out_kampfunfaehig", lp=0, schwelle=0))


def figures(tmp_path, **kael):
    tmp_path.mkdir(exist_ok=True)
    c, enc = encounter(tmp_path, ("Kael", "Spieler", {**KAEL, **kael}), ("Ork", "Feinde", ORK))
    return {n: view(c.figure(n, "Gefecht").record) for n in enc.record["combatants"]}


def planned(everyone, data, dice=()):
    fight = Fight(everyone, {}, 1, {"prognose": data}, Roller(dice=list(dice)))
    return TACTICS.action(everyone["Kael"], everyone["Ork"], fight)


def test_the_manoeuvre_damage_and_defence(tmp_path):
    """The options of the line: the manoeuvre at the given level (else the sheet's), schaden= where it deals
    damage, abgewehrt where the W10 of abwehr came out and a defence counts (not against Schattensprung)."""
    everyone = figures(tmp_path)
    assert planned(everyone, DATA, [8]) == Action("manöver", ("Kael",), ("Ork",), {
        "manöver": "Gezielte Attacke", "stufe": 2, "schaden": "W6", "abgewehrt": True})
    assert planned(everyone, DATA, [7]) == Action("manöver", ("Kael",), ("Ork",), {
        "manöver": "Gezielte Attacke", "stufe": 2, "schaden": "W6"})
    assert planned(everyone, {"alle": {"manöver": "Schadenserhöhung", "schaden": "2W6", "abwehr": 0.25}}, [1]) \
        == Action("manöver", ("Kael",), ("Ork",), {"manöver": "Schadenserhöhung", "stufe": 3, "schaden": "2W6",
                                                   "abgewehrt": True})   # 0.25 is W4<=1
    assert planned(everyone, {"alle": {"manöver": "Schattensprung", "schaden": "W6"}}) == \
        Action("manöver", ("Kael",), ("Ork",), {"manöver": "Schattensprung", "stufe": 1, "schaden": "W6"})
    assert planned(everyone, {"alle": {"manöver": "Finte", "abwehr": 0}}, [1]) == \
        Action("manöver", ("Kael",), ("Ork",), {"manöver": "Finte", "stufe": 2})


def test_the_first_manoeuvre_the_figure_can_pay(tmp_path):
    """A list: the first whose AD the figure still has (Schadenserhöhung 3 costs 4, Gezielte Attacke 2 two);
    none: nothing. A Finte only while none of the figure's own is pending."""
    data = {"alle": {"manöver": ["Schadenserhöhung 3", "Gezielte Attacke 2"], "schaden": "W6", "abwehr": 0}}
    chosen = {ad: planned(figures(tmp_path / str(ad), AD=ad), data, [1]) for ad in (4, 3, 1)}
    assert [a and (a.options["manöver"], a.options["stufe"]) for a in chosen.values()] == \
        [("Schadenserhöhung", 3), ("Gezielte Attacke", 2), None]
    feint = {"alle": {"manöver": ["Finte 2", "Gezielte Attacke 2"], "schaden": "W6", "abwehr": 0}}
    everyone = figures(tmp_path / "finte")
    assert planned(everyone, feint, [1]).options["manöver"] == "Finte"
    pending = {**everyone, "Kael": everyone["Kael"].with_condition("Finte +2")}
    assert planned(pending, feint, [1]).options["manöver"] == "Gezielte Attacke"


def test_without_the_gms_data_the_forecast_says_what_to_add(tmp_path):
    both = ["Schadenserhöhung 1", "Wuchtschlag 1"]
    _, enc = encounter(tmp_path, ("Kael", "Spieler", {**KAEL, "manoever": both}), ("Ork", "Feinde", ORK), data=None)
    with pytest.raises(ForecastError) as refused:
        enc.forecast(n=10, seed=1)
    said = str(refused.value)
    assert said.startswith("Für Kampfwerte braucht die Prognose die Angriffe der Figuren: Der Text kennt keinen "
                           "gewöhnlichen Angriff")
    assert 'Etwa: kampagne.set_data("prognose", {"alle": {"manöver": ' in said
    example = said.partition("Etwa: ")[2]
    enc.campaign.set_data("prognose", json.loads(example.partition(", ")[2][:-1]))   # the example is data that fits
    assert enc.forecast(n=5, seed=1).fights == 5


def kael(**entry):
    """DATA with Kael's own entry."""
    return {**DATA, "figuren": {"Kael": entry}}


@pytest.mark.parametrize("data, words", [
    ({"alle": {"manöver": "Gezielte Attacke"}}, "Die Daten „prognose“ nennen für Kael (Seite Spieler) kein „schaden“"),
    ({"figuren": {"Kael": {"manöver": "Finte"}}}, "für Kael (Seite Spieler) kein „abwehr“"),
    ({**DATA, "seiten": {}}, "für Ork (Seite Feinde) kein „manöver“"),
    ({**DATA, "alle": {"abwehr": "3W6"}},
     'passt „abwehr“ unter „alle“ nicht: "3W6". Erwartet: ein Würfelausdruck, der Erfolg oder Fehlschlag ergibt'),
    ({**DATA, "alle": {"abwehr": 0.12345}}, "höchstens vier Nachkommastellen"),
    ({**DATA, "alle": {"abwehr": 0.3, "schaden": "W6+x"}}, "passt „schaden“ unter „alle“ nicht"),
    ({**DATA, "alle": {"abwehr": 0.3, "waffe": "Dolch"}}, "steht unter „alle“ „waffe“, das die Prognose nicht kennt"),
    (kael(manöver="Gezielte Attacke 7"), "passt „manöver“ unter „figuren“ → „Kael“"),
    (kael(manöver="Tanz", schaden="W6"), "Unbekanntes Manöver „Tanz“"),
    (kael(manöver="Mantel-Parade"), "Mantel-Parade nicht als Angriff von Kael: Es hat kein Ziel"),
    (kael(manöver="Riposte", schaden="W6"), "Es ist eine Reaktion"),
    (kael(manöver="Rundumschlag", schaden="W6"), "Es braucht angrenzende Felder"),
    (kael(manöver="Gezielte Attacke 3", schaden="W6"),
     "Kael beherrscht Gezielte Attacke nicht auf Stufe 3 (Bogen: Stufe 2)"),
    (kael(manöver="Wuchtschlag", schaden="W6"), "Kael beherrscht Wuchtschlag nicht auf Stufe 1 (Bogen: Stufe 0)"),
    ({"feinde": {}}, "Die Daten „prognose“ sind eine Tabelle mit „alle“, „seiten“ und/oder „figuren“"),
    ({"figuren": ["Kael"]}, "ist „figuren“ eine Tabelle von Namen"),
    # the seed's Finte: "Bei Erfolg hat der nächste Angriff automatisch 6 Erfolge" – a list of Finten alone
    # has no next attack, and its figure would never do damage (a duel forecast read P(Spieler) = 0)
    (kael(manöver="Finte 2"), "Die Prognose-Manöver von Kael sind nur Finten"),
])
def test_missing_or_bad_data_is_refused_in_german(tmp_path, data, words):
    _, enc = encounter(tmp_path, ("Kael", "Spieler", KAEL), ("Ork", "Feinde", ORK), data=data)
    with pytest.raises(ForecastError, match=re.escape(words)):
        enc.forecast(n=5, seed=1)


def test_the_figure_over_its_side_over_everyone(tmp_path):
    everyone = figures(tmp_path)
    kael, ork = (angriff(everyone[n], EINSTELLUNGEN.defaults(), {"prognose": DATA}) for n in ("Kael", "Ork"))
    assert (kael.wahl, kael.schaden.expression, kael.abwehr.p) == ((("Gezielte Attacke", 2),), "W6", 0.3)
    assert (ork.wahl, ork.schaden.expression, ork.abwehr.p) == ((("Schadenserhöhung", 1),), "W6+1", 0.2)


def test_target_picking(tmp_path):
    """The weakest has the fewest LP; the most dangerous the highest mean of its schaden times the chance
    its manoeuvre hits (the attack test) and is not defended."""
    c, enc = encounter(tmp_path, ("Kael", "Spieler", KAEL),
                       ("Schwach", "Feinde", {**ORK, "LP": 5, "angriff": 4}),
                       ("Stark", "Feinde", {**ORK, "LP": 20, "angriff": 3}),
                       data={"alle": {"manöver": "Schadenserhöhung", "schaden": "W6", "abwehr": 0.5},
                             "figuren": {"Stark": {"schaden": "2W6+4", "abwehr": "W10>=9"}}})
    everyone = {n: view(c.figure(n, "Gefecht").record) for n in enc.record["combatants"]}
    foes = [everyone["Schwach"], everyone["Stark"]]

    def picked(zielwahl, targeted=None):
        fight = Fight(everyone, {}, 1, {"prognose": c.data("prognose")}, Roller(dice=[]), zielwahl, targeted or {})
        return TACTICS.target(everyone["Kael"], foes, fight).name

    assert picked("schwächste") == "Schwach" and picked("gefährlichste") == "Stark"
    assert picked("verteilen", {"Schwach": 1}) == "Stark"
    fight = Fight(everyone, {}, 1, {"prognose": c.data("prognose")}, Roller(dice=[]))
    assert TACTICS.threat(everyone["Stark"], fight) == pytest.approx(11 * p_probe(3) * 0.8)
    assert TACTICS.threat(everyone["Schwach"], fight) == pytest.approx(3.5 * p_probe(4) * 0.5)
    assert TACTICS.vitality(everyone["Stark"]) == 20
    assert TACTICS.threat(view({**c.figure("Stark", "Gefecht").record,
                                "resources": {"AD": {"value": 1, "max": 200}}}), fight) == 0   # no AD left


def test_the_pages_forecast(tmp_path):
    """The page's block on the page's figures: 30 % defence for all but Kael's attacks (0.25), the orc's
    Wuchtschlag at the level on its sheet, five of them for its 10 AD; a fight without AD is undecided."""
    c = Campaign.open(tmp_path / "doc.sqlite")
    c.set_ruleset("kampfwerte")
    statblocks.load(c, FIGURES.text)
    names = {"kampagne": c}
    p, draw = run_python(PAGE_DATA.text, names)
    f = names["prognose"]
    assert (p, draw) == (f.win["Spieler"].p, f.draw.p) and f.fights == 200
    everyone = {n: view(c.figure(n, "Gefecht").record) for n in ("Kael", "Ork")}
    kael, ork = (angriff(everyone[n], EINSTELLUNGEN.defaults(), c.state["data"]) for n in ("Kael", "Ork"))
    assert ork.wahl == (("Wuchtschlag", 2),) and ork.abwehr.p == 0.3 and kael.abwehr.p == 0.25
    assert kosten("Wuchtschlag", 2) * 5 == everyone["Ork"].current("AD") == 10
    assert f.win["Spieler"].p > f.win["Feinde"].p > 0 and draw > 0 and f.rounds.max == 100
    table = PAGE.text.partition(HEADING)[2]
    for key in DATEN.fields:   # each field with its first English alias
        english = next(alias for alias, german in DATEN.aliases.items() if german == key)
        assert f"| `{key}` (`{english}`) |" in table
