"""Krafteinsatz of an effect's parameters, both ways: each kind of scale, rounding, listed points and
their neighbours, the units, the checks of the GM's entries, %%resolve, Python and the panel."""

from pathlib import Path

import pytest
from panel_driving import send, set_form

import rpgkernel
from rpgkernel import Campaign
from rpgkernel.rules import adz
from rpgkernel.rules.figure import view
from rpgkernel.statblocks import load
from rpgkernel.widgets import EncounterPanel

EFFECTS = """
magiebereiche:
  Humanoid:
    effekte:
      Sinne beeinflussen:
        technik: beherrschen
        mw: 2
        parameter:
          sinne: {je_kp: 1, einheit: [Sinn, Sinne]}
          dauer: Ein KP pro Minute
  Feuer:
    effekte:
      Feuerring:
        technik: erschaffen
        mw: 2
        kp: 2
        parameter:
          schaden: {je_kp: 1}
          radius: {basis: 5 m, je_weiteren_kp: 5 m}
  Luft:
    effekte:
      Sprung:
        technik: versetzen
        mw: 1
        kp: 2
        parameter:
          weite: {punkte: {10 m: 2, 20 m: 4, 50 m: 8}}
      Last heben:
        technik: versetzen
        mw: 1
        parameter:
          masse: {standardskala: 10 kg}
      Licht:
        technik: erschaffen
        mw: 1
        parameter:
          dauer: 2 KP je Stunde
"""

FIGHT = """
figuren:
  - name: Magierin
    werte: {KK: 2, KO: 3, GE: 3, FF: 4, KL: 6, WK: 5, IN: 4, CH: 3, GL: 3, erschaffen: 4, beherrschen: 3,
            versetzen: 2, magiebereiche: ["Feuer 5", "Humanoid 3", "Luft 4"]}
begegnung:
  name: Turm
  teilnehmer:
    - figur: Magierin
      seite: Spieler
"""


def _data(tmp_path: Path, text: str = EFFECTS) -> adz.settings.Daten:
    path = tmp_path / "effekte.yaml"
    path.write_text(text, encoding="utf-8")
    return adz.einrichten(path)


@pytest.fixture
def daten(tmp_path):
    return _data(tmp_path)


@pytest.fixture
def magierin():
    return view({"name": "Magierin", "sheet": {"KK": 2, "KO": 3, "GE": 3, "FF": 4, "KL": 6, "WK": 5, "IN": 4, "CH": 3,
                                               "GL": 3, "erschaffen": 4, "beherrschen": 3, "versetzen": 2,
                                               "magiebereiche": ["Feuer 5", "Humanoid 3", "Luft 4"]}})


def _plan(magierin, daten, effekt, **kw):
    plan = adz.magic.zauberplan(magierin, effekt=effekt, daten=daten, **kw)
    steps = [s.text for s in plan.test.res.steps if s.rule == "Krafteinsatz"]
    return plan, steps


# -- linear: both ways --------------------------------------------------------------
def test_kp_reach_each_parameter_alone_with_the_others_at_their_base(magierin, daten):
    plan, steps = _plan(magierin, daten, "Sinne beeinflussen", kp=3)
    assert plan.kp == 3
    assert steps == ["Mit 3 KP erreicht sinne 3 Sinne; die anderen Parameter auf ihrer Basis: dauer 1 min.",
                     "Mit 3 KP erreicht dauer 3 min; die anderen Parameter auf ihrer Basis: sinne 1 Sinn."]


@pytest.mark.parametrize("wanted, kp", [("sinne=2 dauer=1min", 2), ("sinne=2 dauer=30s", 1),
                                        ("sinne=2, dauer=30 Sekunden", 1), ("dauer=0,5 Minuten sinne=zwei", 1),
                                        ("sinne=1 dauer=2 h", 120), ("sinne=3 dauer=30 Sek.", 2),
                                        ("sinne=1 dauer=10 s", 1), ("sinne=4", 4), ("dauer=eine Stunde", 60)])
def test_parameters_cost_whole_kp_rounded_up(magierin, daten, wanted, kp):
    plan, steps = _plan(magierin, daten, "Sinne beeinflussen", parameter=wanted)
    assert plan.kp == kp and steps[0].startswith("Krafteinsatz aus den Parametern: 1 KP × ")
    assert plan.test.res.preview["geistiger_schaden"].support[-1] == kp


def test_the_rounding_is_a_step_the_gm_reads(magierin, daten):
    _, steps = _plan(magierin, daten, "Sinne beeinflussen", parameter="sinne=3 dauer=30s")
    assert steps == ["Krafteinsatz aus den Parametern: 1 KP × 3 (sinne 3 Sinne statt 1 Sinn) × 0,5 "
                     "(dauer 30 s statt 1 min) = 1,5 KP, aufgerundet 2 KP."]
    _, steps = _plan(magierin, daten, "Sinne beeinflussen", parameter="sinne=2")
    assert steps == ["Krafteinsatz aus den Parametern: 1 KP × 2 (sinne 2 Sinne statt 1 Sinn) = 2 KP. "
                     "Die anderen Parameter bleiben auf ihrer Basis: dauer 1 min."]


def test_kp_with_some_parameters_named_gives_what_remains(magierin, daten):
    plan, steps = _plan(magierin, daten, "Sinne beeinflussen", kp=4, parameter="sinne=2")
    assert plan.kp == 4 and steps[1] == "Mit 4 KP erreicht dauer 2 min, bei sinne 2 Sinne."
    plan, steps = _plan(magierin, daten, "Sinne beeinflussen", kp=3, parameter="sinne=2 dauer=30s")
    assert plan.kp == 3 and steps[1] == "Eingesetzt sind 3 KP, nötig 1 KP."
    with pytest.raises(adz.AdzError, match="1 KP reichen nicht für sinne 2 Sinne, dauer 1 min: nötig sind 2 KP"):
        adz.magic.zauberplan(magierin, effekt="Sinne beeinflussen", kp=1, parameter="sinne=2 dauer=1 min", daten=daten)
    plan, steps = _plan(magierin, daten, "Sinne beeinflussen", kp=2, parameter="sinne=3")
    assert plan.kp == 2 and steps[1] == "Mit 2 KP erreicht dauer 40 s, bei sinne 3 Sinne."


# Seed, "Krafteinsatz": "Aus der Tabellen-Angabe „1 KP = einen Sinn eine Minute beeinflussen” ergibt sich zum
# Beispiel „2KP = zwei Sinne eine Minute beeinflussen” aber auch „1 KP = zwei Sinne 30 Sekunden beeinflussen”."
def test_the_seeds_example_asked_forward_scales_the_rest_down(magierin, daten):
    plan, steps = _plan(magierin, daten, "Sinne beeinflussen", kp=1, parameter="sinne=2")
    assert plan.kp == 1 and steps[1] == "Mit 1 KP erreicht dauer 30 s, bei sinne 2 Sinne."
    plan, steps = _plan(magierin, daten, "Sinne beeinflussen", kp=1, parameter="dauer=30s")
    assert plan.kp == 1 and steps[1] == "Mit 1 KP erreicht sinne 2 Sinne, bei dauer 30 s."
    with pytest.raises(adz.AdzError, match="0 KP reichen nicht für sinne 2 Sinne: nötig sind 2 KP"):
        adz.magic.zauberplan(magierin, effekt="Sinne beeinflussen", kp=0, parameter="sinne=2", daten=daten)


# Seed, "Krafteinsatz": "Solche Angaben können linear sein, z.B. „für jeden weiteren KP erhöht sich der Radius
# um 5 m”": linear both ways, so each KP less takes 5 m off.
def test_per_further_kp_scales_down_both_ways(magierin, daten):
    plan, steps = _plan(magierin, daten, "Feuerring", kp=3, parameter="schaden=4")      # Feuerring: 2 KP, 5 m
    assert plan.kp == 3 and steps[1] == "Mit 3 KP erreicht radius 2,5 m, bei schaden 4."
    plan, steps = _plan(magierin, daten, "Feuerring", parameter="radius=2,5 m")
    assert plan.kp == 2 and steps[0] == ("Krafteinsatz aus den Parametern: 2 KP × 0,75 (radius 2,5 m: Basis 5 m, je "
                                         "KP weniger 5 m weniger: 0,5 KP weniger) = 1,5 KP, aufgerundet 2 KP. Die "
                                         "anderen Parameter bleiben auf ihrer Basis: schaden 2.")
    plan, _ = _plan(magierin, daten, "Feuerring", parameter="schaden=1 radius=2,5 m")
    assert plan.kp == 1                                                # 2 KP × 0,5 × 0,75 = 0,75
    with pytest.raises(adz.AdzError, match="2 KP reichen nicht für schaden 4: nötig sind 4 KP"):
        adz.magic.zauberplan(magierin, effekt="Feuerring", kp=2, parameter="schaden=4", daten=daten)   # radius 0 m


def test_a_period_per_kp_and_fractions(magierin, daten):
    plan, steps = _plan(magierin, daten, "Licht", kp=3)             # "2 KP je Stunde": 30 min per KP
    assert steps == ["Mit 3 KP erreicht dauer 1,5 h."]
    plan, _ = _plan(magierin, daten, "Licht", parameter="dauer=2 h")
    assert plan.kp == 4
    plan, steps = _plan(magierin, daten, "Licht", kp=1)
    assert steps == ["Mit 1 KP erreicht dauer 30 min."]


def test_without_kp_or_parameters_the_listed_point_holds(magierin, daten):
    plan, steps = _plan(magierin, daten, "Feuerring")
    assert plan.kp == 2 and steps == []


# -- per further KP, the Standardskala ------------------------------------------------
def test_per_further_kp(magierin, daten):
    _, steps = _plan(magierin, daten, "Feuerring", kp=4)
    assert steps[0] == "Mit 4 KP erreicht schaden 4; die anderen Parameter auf ihrer Basis: radius 5 m."
    assert steps[1] == "Mit 4 KP erreicht radius 15 m; die anderen Parameter auf ihrer Basis: schaden 2."
    plan, steps = _plan(magierin, daten, "Feuerring", parameter="radius=12 m")
    assert plan.kp == 4 and "= 3,4 KP, aufgerundet 4 KP" in steps[0]
    plan, _ = _plan(magierin, daten, "Feuerring", parameter="schaden=4 radius=10m")
    assert plan.kp == 6                                                # 2 KP × 2 × 1,5
    _, steps = _plan(magierin, daten, "Feuerring", kp=1)
    assert steps[1] == "Mit 1 KP bleibt von radius nichts; die anderen Parameter auf ihrer Basis: schaden 2."


@pytest.mark.parametrize("kp, mass", [(1, "10 kg"), (2, "20 kg"), (3, "40 kg"), (5, "150 kg"), (8, "1.500 kg"),
                                      (13, "50.000 kg")])
def test_the_standard_scale_reach(magierin, daten, kp, mass):
    _, steps = _plan(magierin, daten, "Last heben", kp=kp)
    assert steps == [f"Mit {kp} KP erreicht masse {mass} (Stufe {kp} der Standardskala)."]


def test_the_standard_scale_cost_and_its_end(magierin, daten):
    assert _plan(magierin, daten, "Last heben", parameter="masse=35 kg")[0].kp == 3
    assert _plan(magierin, daten, "Last heben", parameter="masse=1 t")[0].kp == 8
    _, steps = _plan(magierin, daten, "Last heben", kp=14)
    assert "über die Standardskala hinaus (bis Stufe 13: 50.000 kg)" in steps[0]
    with pytest.raises(adz.AdzError, match="masse 60 t liegt über der Standardskala"):
        adz.magic.zauberplan(magierin, effekt="Last heben", parameter="masse=60 t", daten=daten)


# -- listed points: never an invented value -----------------------------------------
@pytest.mark.parametrize("kp, text", [
    (2, "Mit 2 KP erreicht weite 10 m."),
    (4, "Mit 4 KP erreicht weite 20 m."),
    (3, "Mit 3 KP liegt weite zwischen den gelisteten Punkten 10 m (2 KP) und 20 m (4 KP); die Spielleitung "
        "ordnet den Wert ein."),
    (6, "Mit 6 KP liegt weite zwischen den gelisteten Punkten 20 m (4 KP) und 50 m (8 KP); die Spielleitung "
        "ordnet den Wert ein."),
    (9, "Mit 9 KP geht weite über den höchsten gelisteten Punkt 50 m (8 KP) hinaus; die Spielleitung ordnet den "
        "Wert ein."),
    (1, "Mit 1 KP erreicht weite nicht einmal die Basis 10 m."),
])
def test_listed_points_show_their_neighbours(magierin, daten, kp, text):
    assert _plan(magierin, daten, "Sprung", kp=kp)[1] == [text]


def test_between_listed_points_the_gm_chooses(magierin, daten):
    assert _plan(magierin, daten, "Sprung", parameter="weite=20 m")[0].kp == 4
    with pytest.raises(adz.AdzError, match=r"= 2 bis 4 KP: Zwischen gelisteten Punkten wählt die Spielleitung "
                                           r"den Krafteinsatz, kp=2 bis kp=4\."):
        adz.magic.zauberplan(magierin, effekt="Sprung", parameter="weite=15 m", daten=daten)
    plan, steps = _plan(magierin, daten, "Sprung", parameter="weite=15 m", kp=3)
    assert plan.kp == 3 and steps == [
        "Krafteinsatz aus den Parametern: 2 KP × 1 bis 2 (weite 15 m: zwischen den gelisteten Punkten 10 m (2 KP) "
        "und 20 m (4 KP)) = 2 bis 4 KP.", "Die Spielleitung wählt 3 KP; die gelisteten Punkte geben 2 bis 4 KP."]
    with pytest.raises(adz.AdzError, match="nötig sind 2 KP"):
        adz.magic.zauberplan(magierin, effekt="Sprung", parameter="weite=15 m", kp=1, daten=daten)
    with pytest.raises(adz.AdzError, match=r"außerhalb der gelisteten Punkte \(10 m bis 50 m\)"):
        adz.magic.zauberplan(magierin, effekt="Sprung", parameter="weite=60 m", daten=daten)


# -- what the GM types wrong -----------------------------------------------------------
@pytest.mark.parametrize("wanted, message", [
    ("augen=2", "Der Effekt 'Sinne beeinflussen' hat keinen Parameter 'augen' (bekannt: sinne, dauer)."),
    ("sinne=2 sinne=3", "Der Parameter 'sinne' ist zweimal genannt."),
    ("zwei Sinne", "parameter='zwei Sinne': erwartet sind Name=Menge"),
    ("sinne=", "erwartet sind Name=Menge"),
    ("dauer=30 m", "Parameter dauer=30 m: erwartet ist eine Zeit (s, Runde, min, h, Tag, Woche)."),
    ("dauer=30 Parsec", "Parameter dauer=30 Parsec: '30 Parsec': 'Parsec' ist keine Einheit"),
    ("sinne=2 min", "Parameter sinne=2 min: erwartet ist eine Anzahl ohne Einheit."),
    ("sinne=0", "Parameter sinne=0: '0': eine Menge ist größer als 0."),
    ("dauer=viel", "Parameter dauer=viel: 'viel' ist keine Menge"),
])
def test_bad_parameters_are_refused_in_german(magierin, daten, wanted, message):
    with pytest.raises(adz.AdzError) as err:
        adz.magic.zauberplan(magierin, effekt="Sinne beeinflussen", parameter=wanted, daten=daten)
    assert message in str(err.value)


def test_parameter_needs_an_effect_with_parameters(magierin, tmp_path):
    with pytest.raises(adz.AdzError, match=r"parameter= braucht einen Effekt mit Parametern .*effekt=: –"):
        adz.magic.zauberplan(magierin, bereich="Feuer", technik="erschaffen", mw=1, kp=1, parameter="radius=5m")
    plain = _data(tmp_path, "magiebereiche:\n  Feuer:\n    effekte:\n      Kerze: {technik: erschaffen, mw: 1, kp: 1}\n")
    with pytest.raises(adz.AdzError, match="effekt=: Kerze"):
        adz.magic.zauberplan(magierin, effekt="Kerze", parameter="radius=5m", daten=plain)


@pytest.mark.parametrize("entry, why", [
    ("{je_kp: 1 min, punkte: {1 m: 1, 2 m: 2}}", "Parameter 'p': genau eine Art"),
    ("{je_kp: 1 min, radius: 2}", "genau eine Art: je_kp (linear), basis mit je_weiteren_kp"),
    ("{basis: 5 m}", "gefunden: basis"),
    ("{basis: 5 m, je_weiteren_kp: 2 s}", "die Mengen 5 m, 2 s sind nicht von derselben Größe"),
    ("{je_kp: 0 min}", "'0 min': eine Menge ist größer als 0"),
    ("{je_kp: 3 Ellen}", "'3 Ellen': 'Ellen' ist keine Einheit der Daten"),
    ("{punkte: {10 m: 2}}", "punkte listet mindestens zwei Punkte"),
    ("{punkte: {10 m: 4, 20 m: 2}}", "die KP der gelisteten Punkte steigen mit der Menge"),
    ("{punkte: {10 m: 2, 20 m: 4}}", "die gelisteten Punkte nennen den Krafteinsatz des Effekts (1 KP) nicht"),
    ("Zwei Stunden", "'Zwei Stunden' ist keine Angabe eines Parameters: „Ein KP pro <Zeitperiode>“"),
    ("Ein KP pro Meile", "'Ein KP pro Meile' ist keine Angabe"),
    ("{je_kp: 1, einheit: [a, b, c]}", "einheit ist ein Wort oder [Einzahl, Mehrzahl]"),
])
def test_bad_entries_are_refused_naming_effect_and_parameter(tmp_path, entry, why):
    text = f"magiebereiche:\n  Luft:\n    effekte:\n      Wind:\n        technik: versetzen\n        parameter:\n" \
           f"          p: {entry}\n"
    with pytest.raises(adz.AdzError) as err:
        _data(tmp_path, text)
    message = str(err.value)
    assert message.startswith("Der Abschnitt 'magiebereiche' der AdZ-Daten") and "Effekt 'Wind' (Luft): " in message
    assert why in message


def test_bad_effect_kp_and_units_are_refused(tmp_path):
    with pytest.raises(adz.AdzError, match="kp ist der Krafteinsatz des gelisteten Punkts, eine ganze Zahl ab 1"):
        _data(tmp_path, "magiebereiche:\n  Luft:\n    effekte:\n      Wind: {kp: 0, parameter: {p: {je_kp: 1}}}\n")
    with pytest.raises(adz.AdzError, match="Der Abschnitt 'einheiten' .* die Einheit 'x' \\(Zeit\\) braucht faktor"):
        _data(tmp_path, "einheiten:\n  Zeit:\n    x: {faktor: -1, schreibweisen: [x]}\n")


def test_a_bad_file_changes_nothing_and_the_gm_can_add_units(tmp_path):
    with Campaign.open(tmp_path / "c.sqlite") as camp:
        camp.set_ruleset("adz")
        path = tmp_path / "e.yaml"
        path.write_text(EFFECTS + "      Kaputt: {parameter: {p: viel}}\n", encoding="utf-8")
        with pytest.raises(adz.AdzError, match="Kaputt"):
            adz.einrichten(path, kampagne=camp)
        assert camp.data("adz") is None
    more = _data(tmp_path, EFFECTS.replace("{je_kp: 1, einheit: [Sinn, Sinne]}", "{je_kp: 1 Elle}") +
                 "einheiten:\n  Länge:\n    m: {faktor: 1, schreibweisen: [m]}\n"
                 "    Elle: {faktor: 0.5, schreibweisen: [elle, ellen], zeige: [Elle, Ellen]}\n")
    w = more.wirkung("Sinne beeinflussen")
    assert w.zeige(w.parameter["sinne"], w.parameter["sinne"].basis * 3) == "3 Ellen"


# -- %%resolve, the outcome, the panel ----------------------------------------------------
@pytest.fixture
def camp(tmp_path):
    c = Campaign.open(tmp_path / "k.sqlite")
    c.set_ruleset("adz")
    load(c, FIGHT)
    path = tmp_path / "effekte.yaml"
    path.write_text(EFFECTS, encoding="utf-8")
    adz.einrichten(path, kampagne=c)
    c.encounter.start(rolls={"Magierin": 20})
    yield c
    c.close()


def test_resolve_rolls_with_the_kp_the_parameters_cost(camp):
    line = 'zauber Magierin effekt="Sinne beeinflussen" parameter="sinne=2 dauer=30s" entschieden'
    res = rpgkernel.resolve(line, campaign=camp, dice=[5, 5, 1, 1, 1, 1] + [1] * 5)
    assert res.outcome["kp"] == 1 and res.outcome["geistiger_schaden"] == 1
    assert res.outcome["parameter"] == {"sinne": "2 Sinne", "dauer": "30 s"}
    assert "Entzug: 1 KP − Erfolge 0 = 1 geistiger Schaden." in str(res)
    assert camp.figure("Magierin").resources["geistig"]["value"] == 11
    with pytest.raises(rpgkernel.ResolveError, match="hat keinen Parameter 'augen'"):
        rpgkernel.resolve('zauber Magierin effekt="Sinne beeinflussen" parameter="augen=2"', campaign=camp)


def test_the_panel_form_and_preview_follow_the_parameters(camp):
    panel = EncounterPanel(camp.encounter)
    try:
        zauber = next(v for v in panel.rules["verbs"] if v["name"] == "zauber")
        field = next(o for o in zauber["options"] if o["name"] == "parameter")
        assert field["kind"] == "text" and field["label"] == "Parameter des Effekts" and "sinne=2" in field["help"]
        set_form(panel, verb="zauber", actors=["Magierin"], targets=[],
                 options={"effekt": "Sinne beeinflussen", "parameter": "sinne=3 dauer=1 min"})
        send(panel, "preview")
        assert panel.error == ""
        texts = [i["text"] for i in panel.preview["items"]]
        assert "Krafteinsatz aus den Parametern: 1 KP × 3 (sinne 3 Sinne statt 1 Sinn) × 1 (dauer 1 min statt " \
               "1 min) = 3 KP." in texts
        chart = next(i["chart"] for i in panel.preview["items"] if i["chart"])
        assert chart["bars"][-1]["high"] == 3                 # the drain distribution follows the KP
        set_form(panel, options={"effekt": "Sprung", "parameter": "weite=15 m"})
        send(panel, "preview")
        assert "kp=2 bis kp=4" in panel.error
        set_form(panel, options={"effekt": "Sprung", "parameter": "weite=15 m", "kp": "3", "entschieden": True},
                 dice="5,1,1,1,1,1,1,1,1,1,1")   # 6 dice of the test (1 success), 5 of the drain
        send(panel, "act")
        card = panel.result["cards"][0]
        assert panel.error == "" and "Die Spielleitung wählt 3 KP; die gelisteten Punkte geben 2 bis 4 KP." in \
            [s["text"] for s in card["steps"]]
        assert camp.figure("Magierin").resources["geistig"]["value"] == 9
    finally:
        panel.close()
