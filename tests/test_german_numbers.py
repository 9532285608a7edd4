"""German numbers everywhere a user looks: the formatter, the catalogue, rolls, distributions,
campaign views, charts and step texts (``2.512.225``, ``12,5 %``, ``4,50``).

Every resolution any test creates is checked as well, by the autouse fixture
``german_numbers.resolutions_speak_german`` (conftest): so each verb the suite
exercises is rendered and must show German numbers.
"""

import pytest
from german_numbers import english_in_bundle, english_numbers, shown_html

import rpgkernel
from rpgkernel import Campaign, numerals, statblocks
from rpgkernel.messages import t
from rpgkernel.render import dist_text, journal_text, roll_markdown
from rpgkernel.widgets.chart import DistributionChart, chart_data


# -- the detector itself ---------------------------------------------------------------
@pytest.mark.parametrize("text", ["2,512,225 Zustände", "12.5%", "12.5 %", "Mittelwert 4.50", "p 0.10000000000000002",
                                  "1e+20"])
def test_english_formats_are_found(text):
    assert english_numbers(text)


@pytest.mark.parametrize("text", ["2.512.225 Zustände", "12,5 %", "Mittelwert 4,50", "W6 + 3W10", "nach=3,120",
                                  "Würfel 6,2,5", "1.000W6", "Feld (10,120)"])
def test_german_formats_pass(text):
    assert english_numbers(text) == []


def test_html_is_read_as_shown():
    markup = '<style>.a{width:0.85em}</style><rect x="12.50"><title>P 12.5%</title></rect><b>4,50</b>'
    found = english_numbers(shown_html(markup))
    assert found and all("'12.5" in problem for problem in found)


# -- the one formatter ---------------------------------------------------------------------
@pytest.mark.parametrize("value, text", [(0, "0"), (999, "999"), (1000, "1.000"), (2512225, "2.512.225"),
                                         (-20000000, "−20.000.000"), (10**30, "1" + ".000" * 10)])
def test_integer(value, text):
    assert numerals.integer(value) == text


@pytest.mark.parametrize("value, digits, text", [(10.5, 2, "10,50"), (3500.5, 2, "3.500,50"), (-2.25, 1, "−2,2"),
                                                 (1234567.891, 2, "1.234.567,89")])
def test_number(value, digits, text):
    assert numerals.number(value, digits) == text


@pytest.mark.parametrize("value, text", [(12.5, "12,5"), (3.0, "3"), (0.1 + 0.2, "0,3"), (-0.0000001, "0"),
                                         (1234567.5, "1.234.567,5")])
def test_decimal(value, text):
    assert numerals.decimal(value) == text


@pytest.mark.parametrize("p, text", [(0.125, "12,50 %"), (1.0, "100,00 %"), (0.0, "0,00 %"),
                                     (0.00001, "< 0,01 %"), (0.99999, "> 99,99 %")])
def test_percent(p, text):
    assert numerals.percent(p) == text


@pytest.fixture
def fresh_number_formats():
    """numerals' caches emptied before and after (the locale, its patterns, formatted numbers)."""
    caches = (numerals._locale, numerals._pattern, numerals._cached)
    for cache in caches:
        cache.cache_clear()
    yield numerals
    for cache in caches:
        cache.cache_clear()


def test_the_numbers_come_from_babels_locale(fresh_number_formats, monkeypatch):
    """Separators, grouping and the percent pattern are CLDR's (through Babel), not written here:
    another locale gives its own."""
    assert numerals.locale().language == "de" and numerals.number(2512225.5) == "2.512.225,50"
    token = numerals.LANGUAGE.set("en")
    try:
        assert numerals.locale().language == "en"
        assert numerals.number(2512225.5) == "2,512,225.50" and numerals.percent(0.125) == "12.50 %"
    finally:
        numerals.LANGUAGE.reset(token)


def test_babel_loads_with_the_extension_not_with_the_import():
    """``import rpgkernel`` leaves Babel's locale data for later; ``%load_ext rpgkernel`` loads it,
    so that a notebook's first card does not wait for it."""
    import subprocess
    import sys
    code = ("import sys, rpgkernel; print('babel' in sys.modules); "
            "from IPython.core.interactiveshell import InteractiveShell; "
            "InteractiveShell.instance().run_line_magic('load_ext', 'rpgkernel'); "
            "print(rpgkernel.numerals._locale.cache_info().currsize, rpgkernel.numerals._pattern.cache_info().currsize)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "1", "3"]


def test_two_marks_differ_from_cldr_on_purpose():
    """CLDR's de_DE writes a hyphen-minus and a no-break space before %. Shown here instead: the
    typographic minus, so that a shown number is not the '-' of the dice language a user types
    (``W20-30 = [3] − 30 = −27``), and a plain space, as every example in the docs and the
    stored notebook outputs writes it and a user types it."""
    from babel.numbers import format_decimal, format_percent
    assert format_decimal(-2512225.5, "#,##0.00", locale="de_DE") == "-2.512.225,50"
    assert numerals.number(-2512225.5) == "−2.512.225,50"
    assert format_percent(0.125, "#,##0.00\xa0%", locale="de_DE") == "12,50\xa0%"
    assert numerals.percent(0.125) == "12,50 %" and "\xa0" not in numerals.fill("{p:.1%}", {"p": 0.5})
    assert str(rpgkernel.roll("W20-30", dice=[3])).startswith("W20-30 = [3] − 30 = −27")


@pytest.mark.parametrize("x", [0.125, 2.675, 0.005, 1 / 3, 2 / 3, 1e-7, 5e-7, 1234567.891, 0.84975, 12.345])
def test_rounding_is_pythons_at_the_floats_value(x):
    """A float rounds at its exact binary value, as ``format(x, ".2f")`` does (2.675 is 2.67499…);
    a percentage as ``format(p, ".2%")`` does: ``p * 100`` first."""
    assert numerals.number(x) == format(x, ",.2f").translate(str.maketrans(",.", ".,"))
    assert numerals.fill("{p:.2%}", {"p": x}) == format(x, ".2%").replace(".", ",")[:-1] + " %"


def test_catalogue_fields_are_german():
    fmt = numerals.FORMATTER.format
    assert fmt("{n:,} Zustände", n=2512225) == "2.512.225 Zustände"
    assert fmt("{x} kg", x=12.5) == "12,5 kg" and fmt("{x:.1f}", x=-3.25) == "−3,2"
    assert fmt("{p:.1%}", p=0.125) == "12,5 %"
    # plain ints stay as typed (numbers, seeds, modifiers a user types back); bools and text untouched
    assert fmt("Nr. {seq} · WM {wm:+d} · {b} · {s!r}", seq=12345, wm=-2, b=True, s="1.5") == \
        "Nr. 12345 · WM -2 · True · '1.5'"
    assert t("campaign.data_too_big", name="karte", size=2512225, max=4_000_000) == \
        "Daten 'karte' sind 2.512.225 Bytes groß; höchstens 4.000.000 Bytes."
    assert t("rpg.journal_count", max=10_000) == "eine Zahl von 1 bis 10.000"


def test_no_template_formats_numbers_the_english_way():
    """Every number a template writes itself is German; separators come only through a format spec."""
    from rpgkernel.messages import labels
    for key, template in labels("").items():
        assert not english_numbers(template), key
        assert not any(spec in template for spec in (":.1%}", ":.2%}", ":%}")), key   # percent() instead


# -- rolls and distributions -------------------------------------------------------------------
ROLLS = [("W5000+2507225", [5000]), ("W20-30", [3]), ("10W6>=5", [5, 6, 1, 2, 5, 6, 6, 1, 2, 3]),
         ("4W6kh3", [6, 5, 2, 4]), ("1000+W6*1000", [4])]


@pytest.mark.parametrize("expr, dice", ROLLS)
def test_rolls_show_german_numbers(expr, dice):
    r = rpgkernel.roll(expr, dice=dice)
    for shown in (str(r), roll_markdown(r)):
        assert not english_numbers(shown)
    assert not english_in_bundle(r)
    many = rpgkernel.roll_many(expr, 3, dice=dice * 3)
    assert not english_in_bundle(many)


def test_a_big_total_has_thousands_separators():
    r = rpgkernel.roll("W5000+2507225", dice=[5000])
    assert str(r).endswith("= 2.512.225  ·  P(≥ 2.512.225) = 0,02 %")
    assert "[5000] + 2.507.225" in str(r)   # the dice as they fell, the constant as a number
    assert str(rpgkernel.roll("W20-30", dice=[3])).startswith("W20-30 = [3] − 30 = −27")


@pytest.mark.parametrize("expr", ["3W6", "W2000+1000", "W6-10", "2W6*1000", "{W8,W4,2W6}kh1", "W%"])
def test_distributions_show_german_numbers(expr):
    d = rpgkernel.dist(expr)
    assert not english_numbers(dist_text(d)) and not english_in_bundle(d)
    chart = DistributionChart(d, marked=d.max)
    assert not english_numbers(chart.text())
    data = chart_data(d, d.max)
    texts = [data["mean_text"], data["sd_text"]] + [tick["text"] for tick in data["ticks"]]
    texts += [b[k] for b in data["bars"] for k in ("label", "low_text", "p_text", "ge_text")]
    assert not english_numbers(" ".join(texts))


def test_a_distribution_summary_and_table():
    d = rpgkernel.dist("W2000+1000")
    assert str(d).startswith("W2000+1000: 1.001 bis 3.000, Mittelwert 2.000,50, Standardabweichung 577,35")
    table = dist_text(rpgkernel.dist("W6+999")).splitlines()
    assert table[1].split() == ["Wert", "P(=)", "P(≥)", "P(≤)"]
    assert table[2].split() == ["1.000", "16,67", "%", "100,00", "%", "16,67", "%"]
    assert len({len(line) for line in table[1:]}) == 1   # columns line up
    ticks = chart_data(rpgkernel.dist("W6*1000"))["ticks"]
    assert [tick["text"] for tick in ticks][:2] == ["1.000", "2.000"]


# -- campaign views --------------------------------------------------------------------------
def test_campaign_views_show_german_numbers(tmp_path):
    with Campaign.open(tmp_path / "k.sqlite") as camp:
        loaded = statblocks.load(camp, "figuren:\n  - name: Drache\n    ressourcen: {LP: 2512225}\n"
                                       "begegnung:\n  name: Hort\n  teilnehmer:\n    - figur: Drache\n"
                                       "    - name: Wurm\n      anzahl: 2\n      ressourcen: {LP: 12000}\n")
        camp.change("Wurm 1", "LP", -1500)
        camp.log_roll(rpgkernel.roll("W5000+2507225", dice=[5000]))
        views = [loaded, camp.figure("Drache"), camp.encounter, camp.journal()]
        for view in views:
            assert not english_in_bundle(view), view
        assert "LP 2.512.225/2.512.225" in repr(camp.figure("Drache"))
        assert "2.512.225" in camp.encounter._repr_mimebundle_()["text/html"]
        assert "Wurm 1: LP 12.000 → 10.500" in journal_text(camp.journal())


# -- step texts of the rulesets -----------------------------------------------------------------
def test_kampfwerte_chance_to_act_first_is_a_german_percentage():
    figs = {"Kael": {"sheet": {"AUFMERKSAMKEIT": 4, "GEWANDTHEIT": 5, "INSTINKT": 3, "HEIMLICHKEIT": 1, "AD": 12,
                               "LP": 20}, "side": "Spieler"},
            "Ork": {"sheet": {"AUFMERKSAMKEIT": 3, "GEWANDTHEIT": 3, "INSTINKT": 4, "HEIMLICHKEIT": 1, "AD": 10,
                              "LP": 25, "ruestungsbehinderung": 2}}}
    res = rpgkernel.resolve("vor Ork -> Kael", ruleset="kampfwerte", figures=figs)
    [step] = res.steps
    assert step.text.endswith(f"mit {numerals.percent(res.outcome['p_vor'])}.") and " %" in step.text
    assert not english_in_bundle(res)


def test_t_is_german_on_its_fast_path_too():
    """t() uses plain str.format where no field is German; a float field always takes the German path."""
    assert t("midgard.load", figure="Alrik", st=80, tk=8, kg=12.5, label="unbelastet") == \
        "Alrik: St 80, Tragkraft 8 kg; 12,5 kg – unbelastet."
    assert t("journal.turn", round=12345, figure="Ritter") == "Runde 12345: Ritter ist am Zug"
    assert t("journal.resource", figure="Drache", resource="LP", old=12000, new=-1500) == \
        "Drache: LP 12.000 → −1.500"
