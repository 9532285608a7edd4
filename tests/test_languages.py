"""A second language: switched without a restart (``%rpg --sprache``, ``Session(language=…)``), numbers by the
language's locale, languages from packages of their own (entry points, the later registration winning),
English keys as aliases of the GM's data, and the player page in the campaign's or the player's language."""

from __future__ import annotations

import ast
import html
import json
import re
from pathlib import Path

import pytest
from doc_blocks import page, run_python
from panel_driving import make_campaign

import rpgkernel
from rpgkernel import display, messages, numerals, rules, statblocks
from rpgkernel.errors import RpgError
from rpgkernel.forecast import forecast
from rpgkernel.messages import t
from rpgkernel.resolve import resolve
from rpgkernel.rules.frei.tactics import DATEN as FREI_PROGNOSE
from rpgkernel.rules.kampfwerte.prognose import DATEN as KAMPFWERTE_PROGNOSE
from rpgkernel.rules.kit import RulesError
from rpgkernel.session import Session
from rpgkernel.state import Campaign

PACKAGE = Path(rpgkernel.__file__).parent
LOOKUPS = {"t", "labels"}


@pytest.fixture
def english():
    """English for the test, German again afterwards."""
    messages.set_language("en")
    yield
    messages.set_language("de")


# -- no text is looked up at import -----------------------------------------------------------------
def _import_time_lookups(tree: ast.AST) -> list[int]:
    """Lines of ``t()``/``labels()`` calls that run when the module is imported (module and class bodies,
    default arguments, decorators) or whose result a cache keeps (a function decorated with a cache, unless
    the language is one of its arguments or the text is raised: a cache keeps no exception)."""
    found = []

    def visit(node: ast.AST, shown: bool) -> None:
        if isinstance(node, ast.Raise):
            shown = True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            for default in [*node.args.defaults, *(d for d in node.args.kw_defaults if d)]:
                visit(default, shown)
            cached = (any("cache" in ast.unparse(d) for d in getattr(node, "decorator_list", ()))
                      and not any(a.arg.strip("_") == "language" for a in node.args.args))
            for part in getattr(node, "decorator_list", ()):
                visit(part, shown)
            for part in (node.body if isinstance(node.body, list) else [node.body]):
                visit(part, not cached)
            return
        if (isinstance(node, ast.Call) and not shown and isinstance(node.func, ast.Name)
                and node.func.id in LOOKUPS):
            found.append(node.lineno)
        for child in ast.iter_child_nodes(node):
            visit(child, shown)

    visit(tree, False)
    return found


def test_no_text_is_looked_up_at_import_or_kept_in_a_cache():
    found = {str(p.relative_to(PACKAGE)): lines for p in sorted(PACKAGE.rglob("*.py"))
             if (lines := _import_time_lookups(ast.parse(p.read_text("utf-8"))))}
    assert found == {}


def test_the_scan_finds_a_lookup_at_import():
    source = ("X = t('a')\nclass A:\n    title = t('b')\ndef f(x=t('c')):\n    return t('d')\n"
              "@lru_cache\ndef g():\n    return t('e')\n"
              "@lru_cache\ndef h(language):\n    return t('f')\n"
              "@lru_cache\ndef k():\n    raise E(t('g'))\n")
    assert _import_time_lookups(ast.parse(source)) == [1, 3, 4, 8]


# -- switching changes every text on a card ---------------------------------------------------------
def _texts(value: object) -> list[str]:
    """The text pieces of ``value``'s HTML form, in order (styles left out)."""
    markup = re.sub(r"<(style|script)[^>]*>.*?</\1>", "", display.forms(value).html(value), flags=re.S)
    return [text for part in re.split(r"<[^>]+>", markup) if (text := html.unescape(part).strip())]


# what stays in every language: names of figures and sides, resource names, verbs as a GM types them,
# and the texts whose English is the German (the game's own terms: Vigour, Guard, Armour)
_KEPT = re.compile(r"^(Ritter|Knappe|Söldner|Wache|Spieler|Feinde|GD|VIG|CLA|SPI|\[|,|/ \d+|\d+|"
                   r"angriff: Söldner → Ritter)$")


def _same_in_english() -> set[str]:
    return {text for key, text in messages._german.items() if messages._table("en")[key] == text}


@pytest.fixture
def ford(tmp_path):
    camp = make_campaign(tmp_path / "k.sqlite")
    yield camp
    camp.close()


def _cards(camp: Campaign) -> dict[str, list[str]]:
    """The text of a roll card, a resolution card, a forecast card and a character sheet, made now."""
    from rpgkernel.widgets.sheet import CharacterSheet
    sheet = CharacterSheet(camp, "Ritter")
    return {"roll": _texts(rpgkernel.roll("2W6+1234", dice=[3, 4])),
            "resolution": _texts(resolve("angriff Söldner -> Ritter", campaign=camp, preview=True)),
            "forecast": _texts(forecast(camp, n=50, seed=1)),
            "sheet": [sheet.ruleset, *(text for f in sheet.fields for text in (f["label"], f["hint"]) if text)]}


def _unmeasured(texts: list[str]) -> list[str]:
    """``texts`` without their numbers: a forecast through the procedures says how fast it measured them."""
    return [re.sub(r"\d[\d.,]*", "#", text) for text in texts]


def test_switching_the_language_changes_every_text_on_a_card_without_a_restart(ford):
    german = _cards(ford)
    Session(language="en")            # as %rpg --sprache en
    try:
        english = _cards(ford)
    finally:
        messages.set_language("de")
    again = _cards(ford)
    kept = _same_in_english()
    for card, texts in german.items():
        assert len(texts) == len(english[card]) >= 5, card
        same = [g for g, e in zip(texts, english[card]) if g == e and not _KEPT.match(g) and g not in kept]
        assert same == [], card
        assert _unmeasured(again[card]) == _unmeasured(texts), card    # and back
    assert "Preview only: nothing rolled, nothing changed." in english["resolution"]
    assert english["roll"][0] == "2W6+1234 · real dice" and "P(≥ 1,241) = 58.33 %" in english["roll"]
    assert german["roll"][0] == "2W6+1234 · echte Würfel" and "P(≥ 1.241) = 58,33 %" in german["roll"]


def test_the_ruleset_texts_declared_at_import_follow_the_language(english):
    engine = rules.get("bastionland")
    assert engine.title == t("bastionland.title")
    assert engine.status.conditions["Fatigued"] == t("bastionland.cond_fatigued") != messages._german["bastionland.cond_fatigued"]
    assert engine.verbs["angriff"].help == t("bastionland.verb_angriff")
    assert engine.sheet.label("waffen") == t("bastionland.field_waffen") != messages._german["bastionland.field_waffen"]


def test_an_unknown_language_is_refused_with_the_known_ones():
    with pytest.raises(RpgError, match=r"Unbekannte Sprache 'xx'\. Verfügbar: de, en"):
        Session(language="xx")
    assert messages.language() == "de"


def test_a_campaign_keeps_its_language_and_opening_it_takes_it(tmp_path):
    session = Session()
    session.open_campaign(tmp_path / "k.sqlite")
    try:
        session.set_language("en")
        assert session.campaign.language == "en"
        assert session.campaign.journal()[-1].data["text"] == "Language: en"
        messages.set_language("de")
        other = Session()
        other.open_campaign(tmp_path / "k.sqlite")
        assert messages.language() == "en"
        other.close_campaign()
    finally:
        session.close_campaign()
        messages.set_language("de")


# -- numbers by the language's locale ------------------------------------------------------------------
@pytest.mark.parametrize("lang, shown", [("de", ("13,04 %", "1.234", "1.234,50", "12,5", "−3")),
                                         ("en", ("13.04 %", "1,234", "1,234.50", "12.5", "−3"))])
def test_numbers_follow_the_language(lang, shown):
    with messages.using(lang):
        assert (numerals.percent(0.1304), numerals.integer(1234), numerals.number(1234.5), numerals.decimal(12.5),
                numerals.integer(-3)) == shown
        assert str(rpgkernel.roll("W6+1234", dice=[3])).startswith(f"W6+1234 = [3] + {shown[1]} = ")
    assert numerals.percent(0.1304) == "13,04 %"    # outside the block: German again


# -- a language from a package of its own -----------------------------------------------------------
@pytest.fixture
def catalogues():
    """The registered catalogues restored after the test (and German again)."""
    saved = dict(messages._catalogues), dict(messages._added), messages._entry_points_read
    yield messages
    messages._catalogues.clear()
    messages._catalogues.update(saved[0])
    messages._added.clear()
    messages._added.update(saved[1])
    messages._entry_points_read = saved[2]
    messages._rebuild()
    messages.set_language("de")


def _po(texts: dict[str, str]) -> str:
    """A translation of today's German texts: key -> translated text."""
    def q(s: str) -> str:
        return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'
    header = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
    return header + "".join(f"msgctxt {q(k)}\nmsgid {q(messages._german[k])}\nmsgstr {q(v)}\n\n"
                            for k, v in texts.items())


def _language_package(site: Path, dist: str, language: str, texts: dict[str, str]) -> Path:
    """An installed distribution ``dist`` whose entry point registers its translations into ``language``."""
    module = dist.replace("-", "_")
    po = site / module / "locale" / language / "LC_MESSAGES" / "messages.po"
    po.parent.mkdir(parents=True)
    po.write_text(_po(texts), encoding="utf-8")
    (site / module / "__init__.py").write_text("from pathlib import Path\n\nLOCALE = Path(__file__).with_name('locale')\n")
    info = site / f"{module}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[{messages.GROUP}]\n{language} = {module}:LOCALE\n")
    return po.parent.parent.parent


def test_a_language_package_registers_through_an_entry_point_and_the_later_wins(tmp_path, monkeypatch, catalogues):
    site = tmp_path / "site"
    _language_package(site, "rpgkernel-en-zz", "en", {"dice.empty": "Nothing to roll (zz)."})
    _language_package(site, "rpgkernel-en-aa", "en", {"dice.empty": "Nothing to roll (aa).",
                                                      "rpg.ruleset": "Rules (aa)"})
    _language_package(site, "rpgkernel-fr", "fr", {"dice.empty": "Rien à lancer."})
    monkeypatch.syspath_prepend(str(site))
    catalogues._entry_points_read = False
    assert catalogues.languages() == ["de", "en", "fr"]
    with catalogues.using("en"):
        # by distribution name: aa, then zz; the later wins, and both over the translation beside the source
        assert t("dice.empty") == "Nothing to roll (zz)."
        assert t("rpg.ruleset") == "Rules (aa)"
        assert t("rpg.seed") != catalogues._german["rpg.seed"]   # the rest as the package's own English has it
    Session(language="fr")
    assert t("dice.empty") == "Rien à lancer." and t("rpg.ruleset") == catalogues._german["rpg.ruleset"]
    assert numerals.integer(1234) == "1 234" and numerals.percent(0.1304) == "13,04 %"   # French numbers
    # a folder registered by a call later still: it wins over every entry point
    later = tmp_path / "later"
    (later / "en" / "LC_MESSAGES").mkdir(parents=True)
    (later / "en" / "LC_MESSAGES" / "extra.po").write_text(_po({"dice.empty": "Nothing to roll (later)."}),
                                                           encoding="utf-8")
    catalogues.register_catalogue(later)
    with catalogues.using("en"):
        assert t("dice.empty") == "Nothing to roll (later)."
    # German stays the source: a package cannot bring German texts as a translation
    german = tmp_path / "german"
    (german / "de" / "LC_MESSAGES").mkdir(parents=True)
    (german / "de" / "LC_MESSAGES" / "messages.po").write_text(_po({"dice.empty": "Leer."}), encoding="utf-8")
    with pytest.raises(ValueError, match="German is the source language"):
        catalogues.register_catalogue(german)


def test_a_translation_of_an_older_german_text_shows_the_german(tmp_path, catalogues):
    folder = tmp_path / "old"
    (folder / "en" / "LC_MESSAGES").mkdir(parents=True)
    text = _po({"dice.empty": "Nothing (old)."}).replace(catalogues._german["dice.empty"], "Ein alter Text.")
    (folder / "en" / "LC_MESSAGES" / "messages.po").write_text(text, encoding="utf-8")
    catalogues.register_catalogue(folder)
    with catalogues.using("en"):
        assert t("dice.empty") != "Nothing (old)."
        assert t("dice.empty") == catalogues._table("en")["dice.empty"]


# -- English keys as aliases ----------------------------------------------------------------------------
ENGLISH_BLOCK = """
characters:
  - name: Knight
    stats: {VIG: 13, Clarity: 10, spirit: 13, Guard: 5, weapons: ["Mace (W8)"]}
encounter:
  name: Ford
  combatants:
    - character: Knight
      side: Spieler
    - name: Mercenary
      side: Feinde
      count: 2
      stats: {vig: 13, cla: 10, spi: 10, gd: 4, armour: 2}
      conditions: {beeinträchtigt: {rounds: 2}}
"""
GERMAN_BLOCK = """
figuren:
  - name: Knight
    werte: {vig: 13, cla: 10, spi: 13, gd: 5, waffen: ["Mace (W8)"]}
begegnung:
  name: Ford
  teilnehmer:
    - figur: Knight
      seite: Spieler
    - name: Mercenary
      seite: Feinde
      anzahl: 2
      werte: {vig: 13, cla: 10, spi: 10, gd: 4, ruestung: 2}
      zustände: {beeinträchtigt: {runden: 2}}
"""


def _loaded(path: Path, block: str) -> dict:
    with Campaign.open(path) as camp:
        camp.set_ruleset("bastionland")
        statblocks.load(camp, block)
        state = camp.folded
        return {"characters": state["characters"], "encounters": state["encounters"]}


def test_english_keys_in_a_stat_block_are_the_german_ones(tmp_path):
    assert _loaded(tmp_path / "en.sqlite", ENGLISH_BLOCK) == _loaded(tmp_path / "de.sqlite", GERMAN_BLOCK)


@pytest.mark.parametrize("key, english, german", [
    ("bastionland", {"VIG": 12, "Clarity": 10, "SPI": 9, "Guard": 4, "armour": 1},
     {"vig": 12, "cla": 10, "spi": 9, "gd": 4, "ruestung": 1}),
    ("osr", {"HP": 5, "AC": 6, "HD": "1+1"}, {"tp": 5, "rk": 6, "tw": "1+1"}),
    ("midgard", {"race": "Mensch", "ST": 80}, {"rasse": "Mensch", "st": 80}),
    ("kampfwerte", {"awareness": 5, "agility": 5, "instinct": 5, "stealth": 5, "ad": 10, "lp": 10, "nk": 1},
     {"AUFMERKSAMKEIT": 5, "GEWANDTHEIT": 5, "INSTINKT": 5, "HEIMLICHKEIT": 5, "AD": 10, "LP": 10, "NK": 1}),
])
def test_each_ruleset_reads_english_field_names(key, english, german):
    sheet = rules.get(key).sheet
    assert sheet.validate(english) == sheet.validate(german)


def test_a_field_given_twice_under_two_names_is_refused():
    with pytest.raises(rules.sheet.SheetError, match=r"Das Feld 'gd' steht zweimal im Bogen \(auch als 'Guard'\)"):
        rules.get("bastionland").sheet.validate({"vig": 1, "cla": 1, "spi": 1, "gd": 2, "Guard": 3})


# -- English keys in the GM's data: the same aliases as %%figuren and the sheets ------------------------
_ROWS = [{"stufen": [0, 3], "wurf": [10, 11]}, {"stufen": [4, 99], "wurf": [8, 9]}]
_ROWS_EN = [{"levels": [0, 3], "roll": [10, 11]}, {"Levels": [4, 99], "roll": [8, 9]}]


@pytest.mark.parametrize("key, name, english, german", [
    ("osr", "osr",
     {"surprised_up_to": 3, "Tie": "neu", "death_threshold": -3, "unconscious_threshold": 0,
      "attack_matrix": {"ac": [1, 0], "matrices": {"Kämpfer": _ROWS_EN}}},
     {"ueberrascht_bis": 3, "gleichstand": "neu", "todesschwelle": -3, "bewusstlos_schwelle": 0,
      "matrix": {"rk": [1, 0], "matrizen": {"Kämpfer": _ROWS}}}),
    ("bastionland", "bastionland",
     {"scars": {"1": "Eine Narbe"}, "gambits": {"Bolster": {"text": "+1"}, "Impair": {"text": "x", "condition": "c"}}},
     {"narben": {"1": "Eine Narbe"}, "gambits": {"Bolster": {"text": "+1"}, "Impair": {"text": "x", "zustand": "c"}}}),
    ("midgard", "midgard",
     {"source": "gm.yaml", "tables": {"critical": {"hit": {"die": "W20", "rows": [
         {"from": 1, "to": 10, "text": "Streifschuss"}, {"from": 11, "to": 20, "text": "Volltreffer"}]}}}},
     {"quelle": "gm.yaml", "tabellen": {"kritisch": {"treffer": {"wuerfel": "W20", "zeilen": [
         {"von": 1, "bis": 10, "text": "Streifschuss"}, {"von": 11, "bis": 20, "text": "Volltreffer"}]}}}}),
    ("kampfwerte", "kampfwerte",
     {"rules": {"test": {"difficulty": 7, "min_successes": 2}, "sweep_cost": "stufe", "incapacitated_lp": -5}},
     {"regeln": {"probe": {"schwierigkeit": 7, "mindest_erfolge": 2}, "rundumschlag_kosten": "stufe",
                 "kampfunfaehig_lp": -5}}),
    ("frei", "frei", {"resource": "LP"}, {"ressource": "LP"}),
    ("frei", "prognose", {"all": {"damage": "W6", "hit": "W20>=11"}, "figures": {"Alrik": {"Damage": "W8+1", "hit": 0.6}}},
     {"alle": {"schaden": "W6", "treffer": "W20>=11"}, "figuren": {"Alrik": {"schaden": "W8+1", "treffer": 0.6}}}),
    ("kampfwerte", "prognose", {"sides": {"Feinde": {"manoeuvre": "Wuchtschlag", "damage": "2W6+2", "defence": 0.3}}},
     {"seiten": {"Feinde": {"manöver": "Wuchtschlag", "schaden": "2W6+2", "abwehr": 0.3}}}),
])
def test_the_gms_data_reads_english_keys(key, name, english, german):
    settings = _data_settings(key, name)
    from_english, from_german = settings.of({name: english}), settings.of({name: german})
    assert from_english == from_german and from_german != settings.defaults()


_MIDGARD_TABLES = {
    "attributkauf": {"stufen": ["01-50", "51-99", "100"], "null_stufe": "51-99", "spalten": {0: 0, 1: 2}},
    "lp": {"basis": {"attribut": "ko", "werte": [{"bis": 50, "lp": 4}, {"bis": 100, "lp": 6}]},
           "groesse": {"klein": -1}, "gestalt": {"breit": 1}, "rassen": {"Zwerg": 1}},
    "fertigkeiten": {"Klettern": {"mindestwert": {"st": 31}, "kosten": {"Grund": 50}}},
    "sechster_sinn": [{"bis": 100, "wert": 2}],
    "angeboren": [{"von": 1, "bis": 99, "faehigkeit": "Nachtsicht", "sinne": {"Sehen": 10}}],
    "altern": {"zeilen": [{"bis": 99, "aenderungen": {"st": "-W3"}}], "multiplikator": {"Elf": 10}},
    "zauber": {"kosten": {"Grund": {1: 1}}, "sprueche": {"Schmerzen": {"stufe": 2, "fp": 100}},
               "kategorien": {"Hexer": {"Schmerzen": "Grund"}}},
    "elementarstern": {"ring": ["Luft", "Feuer", "Erde"], "gegensatz": {"Luft": "Erde"}},
    "kritisch": {"treffer": {"wuerfel": "W20", "zeilen": [{"von": 1, "bis": 20, "text": "Prellung"}]}},
}
_MIDGARD_TABLES_EN = {
    "attribute_purchase": {"Tiers": ["01-50", "51-99", "100"], "zero_tier": "51-99", "columns": {0: 0, 1: 2}},
    "lp": {"base": {"attribute": "ko", "values": [{"to": 50, "lp": 4}, {"To": 100, "lp": 6}]},
           "size": {"klein": -1}, "build": {"breit": 1}, "races": {"Zwerg": 1}},
    "skills": {"Klettern": {"minimum": {"st": 31}, "cost": {"Grund": 50}}},
    "sixth_sense": [{"to": 100, "value": 2}],
    "innate": [{"from": 1, "to": 99, "ability": "Nachtsicht", "senses": {"Sehen": 10}}],
    "aging": {"rows": [{"to": 99, "changes": {"st": "-W3"}}], "multiplier": {"Elf": 10}},
    "spells": {"cost": {"Grund": {1: 1}}, "spells": {"Schmerzen": {"level": 2, "fp": 100}},
               "categories": {"Hexer": {"Schmerzen": "Grund"}}},
    "element_star": {"ring": ["Luft", "Feuer", "Erde"], "opposite": {"Luft": "Erde"}},
    "critical": {"hit": {"die": "W20", "rows": [{"from": 1, "to": 20, "text": "Prellung"}]}},
}


def test_the_midgard_tables_read_english_fields():
    settings = rules.get("midgard").settings
    english, german = settings.of({"midgard": {"tables": _MIDGARD_TABLES_EN}}), settings.of(
        {"midgard": {"tabellen": _MIDGARD_TABLES}})
    assert english.tabellen.daten == german.tabellen.daten and set(german.tabellen.daten) == set(_MIDGARD_TABLES)
    assert german != settings.defaults() and german.tabellen.daten["zauber"]["sprueche"]["Schmerzen"]["stufe"] == 2


def test_a_midgard_data_key_named_like_an_english_field_stays():
    from rpgkernel.rules.midgard.tabellen import pruefen
    skills = {"Cost": {"kosten": {"Grund": 50}}, "minimum": {"mindestwert": {"ge": 61}}}
    spells = {"sprueche": {"Level": {"stufe": 1}}, "kategorien": {"Spells": {"Level": "Grund"}}}
    races = {"basis": 5, "rassen": {"size": 1}, "groesse": {"Base": -1}}
    tables = pruefen({"fertigkeiten": skills, "zauber": spells, "lp": races}, "").daten
    assert list(tables["fertigkeiten"]) == ["Cost", "minimum"] and tables["fertigkeiten"]["Cost"]["kosten"] == {"Grund": 50}
    assert list(tables["zauber"]["sprueche"]) == ["Level"] and list(tables["zauber"]["kategorien"]) == ["Spells"]
    assert tables["lp"]["rassen"] == {"size": 1} and tables["lp"]["groesse"] == {"Base": -1}


def test_the_midgard_race_list_reads_english_fields():
    from rpgkernel.rules.midgard.tabellen import rassen_pruefen
    german = {"Arracht": {"stufen": {"st": 2}, "ap": "1W6+2 / +5", "ap_wuerfel": "W6+2", "ap_zusatz": "/ +5"},
              "Mensch": {"stufen": {}, "ap": "1W6", "ap_wuerfel": "W6", "gestalt_abb": True}}
    english = {"Arracht": {"tiers": {"st": 2}, "ap": "1W6+2 / +5", "ap_die": "W6+2", "ap_extra": "/ +5"},
               "Mensch": {"Tiers": {}, "ap": "1W6", "AP_die": "W6", "size_and_build": True}}
    read = rassen_pruefen(english, "")
    assert read == rassen_pruefen(german, "") and read["Arracht"]["stufen"] == {"st": 2}
    assert read["Mensch"]["gestalt_abb"] and not read["Arracht"]["gestalt_abb"]


def test_an_adz_effects_parameters_read_english_fields():
    from rpgkernel.rules.adz.zauberparameter import wirkung_lesen
    daten = rules.get("adz").settings.defaults()
    german = {"kp": 4, "parameter": {"schaden": {"je_kp": 1}, "dauer": {"basis": "1 Runde", "je_weiteren_kp": "1 Runde"}}}
    english = {"kp": 4, "parameter": {"schaden": {"per_kp": 1}, "dauer": {"base": "1 Runde", "Per_Further_KP": "1 Runde"}}}
    read = [wirkung_lesen("Flammenstrahl", "Feuer", row, daten.standardskala, daten.einheiten) for row in (english, german)]
    assert read[0] == read[1] and set(read[0].parameter) == {"schaden", "dauer"}


def test_the_adz_files_read_english_sections():
    settings = rules.get("adz").settings
    weapon = {"fertigkeit": "Klingenwaffen", "attribut": "KK", "grundschaden": 2}
    english = settings.of({"adz": {"files": [{"weapons": {"Kurzschwert": weapon}, "Distance": {"nah": 0}}]}})
    german = settings.of({"adz": {"dateien": [{"waffen": {"Kurzschwert": weapon}, "distanz": {"nah": 0}}]}})
    assert english.raw == german.raw and english.waffe("Kurzschwert").grundschaden == 2


_ADZ_FILE = {
    "initiative": {"attribut": "GE", "fertigkeit": "Reflexe", "faktor": 3},
    "mindestwurf": {"leicht": {"fertigkeit": 2, "attribut": 2}},
    "schadensleiste": {"malus": [0, 2, "X"], "auf_entzugswurf": True},
    "heilung": {"koerperlich_phasen": [2, 4], "geistig_minuten": 10},
    "verteidigung": {"fertigkeit": "Abwehr", "attribut": "KK", "spezialisierungen": ["Parade"]},
    "widerstand": {"attribut": "WK"}, "beidhaendig": {"fertigkeit": "Zwei Waffen"},
    "entzug": {"attribut": "KO", "bonus_je_erfolg": 2, "bei_misslingen": False}, "rettungswurf": {"attribut": "KO"},
    "waffen": {"Kurzbogen": {"fertigkeit": "Bögen", "attribut": "FF", "grundschaden": 3, "vm": 1,
                             "reichweitenklasse": "C", "geistig": True}},
    "ruestungen": {"Kettenhemd": {"rs": 2, "wb": 1}},
    "handlungen": {"aktionen": ["Angriff"], "reaktionen": ["Parade"]},
    "magiebereiche": {"Feuer": {"effekte": {"Funke": {"technik": "erschaffen", "mw": 1, "kp": 2,
                                                      "zauberdauer": "1 Runde", "parameter": {"schaden": {"je_kp": 1}}}}}},
}
_ADZ_FILE_EN = {
    "initiative": {"Attribute": "GE", "skill": "Reflexe", "factor": 3},
    "minimum_roll": {"leicht": {"skill": 2, "attribute": 2}},
    "damage_track": {"penalties": [0, 2, "X"], "on_drain_roll": True},
    "healing": {"physical_phases": [2, 4], "mental_minutes": 10},
    "defence": {"skill": "Abwehr", "attribute": "KK", "specialisations": ["Parade"]},
    "resistance": {"attribute": "WK"}, "ambidextrous": {"skill": "Zwei Waffen"},
    "drain": {"attribute": "KO", "bonus_per_success": 2, "on_failure": False}, "saving_throw": {"attribute": "KO"},
    "weapons": {"Kurzbogen": {"skill": "Bögen", "attribute": "FF", "base_damage": 3, "vm": 1,
                              "range_class": "C", "mental": True}},
    "armour": {"Kettenhemd": {"rs": 2, "wb": 1}},
    "actions": {"actions": ["Angriff"], "reactions": ["Parade"]},
    "magic_areas": {"Feuer": {"effects": {"Funke": {"technique": "erschaffen", "mw": 1, "kp": 2,
                                                    "casting_time": "1 Runde", "parameters": {"schaden": {"je_kp": 1}}}}}},
}


def test_the_adz_files_read_english_fields():
    settings = rules.get("adz").settings
    english = settings.of({"adz": {"files": [_ADZ_FILE_EN]}})
    german = settings.of({"adz": {"dateien": [_ADZ_FILE]}})
    assert english.raw == german.raw and german.raw != settings.defaults().raw
    assert english.initiative["attribut"] == "GE" and english.malus_auf_entzug and english.beidhaendig == "Zwei Waffen"
    assert english.waffe("Kurzbogen").grundschaden == 3 and english.waffe("Kurzbogen").geistig
    assert english.effekt("Funke")[1]["zauberdauer"] == "1 Runde" and english.wirkung("Funke") is not None


def test_an_adz_name_like_an_english_field_stays():
    settings = rules.get("adz").settings
    weapon = {"fertigkeit": "Klingenwaffen", "attribut": "KK", "grundschaden": 2}
    found = settings.of({"adz": {"dateien": [{"waffen": {"Skill": weapon}, "ruestungen": {"Mental": {"rs": 1}},
                                              "magiebereiche": {"Effects": {"effekte": {"Technique": {"kp": 1}}}}}]}})
    assert "Skill" in found.raw["waffen"] and "Mental" in found.raw["ruestungen"]
    assert found.waffe("Skill").fertigkeit == "Klingenwaffen" and found.effekt("Technique") == ("Effects", {"kp": 1})


_MANOEUVRES = {
    "Rundumschlag": {"gruppe": "Athletik", "kosten": "stufe", "ziele": "stufe", "angrenzend": True,
                     "schaden_geteilt": True, "reaktion": "Verteidigung", "beschreibung": "Trifft [Stufe] Ziele.",
                     "felder": "stufe", "bonus_wuerfel": {1: 1}, "bedingung": "nk", "schaden": False,
                     "schaden_pro_stufe": 2, "keine_verteidigung": True, "multiplikator": {3: 2},
                     "niederwerfen": True, "waffe": "Dolch", "waffe_art": "Wurfwaffe", "ruestung_ignorieren": 3},
    "Riposte": {"gruppe": "Kampf", "kosten": {1: 2}, "ziele": "eins", "stossen": True, "entwaffnen": True,
                "paraden": "stufe", "finte": True, "antwort_auf": ["Finte"], "negiert_finte": True, "wehrt_ab": True,
                "reaktion": None},
}
_MANOEUVRES_EN = {
    "Rundumschlag": {"group": "Athletik", "Cost": "stufe", "targets": "stufe", "adjacent": True,
                     "damage_split": True, "reaction": "Verteidigung", "description": "Trifft [Stufe] Ziele.",
                     "fields": "stufe", "bonus_dice": {1: 1}, "condition": "nk", "damage": False,
                     "damage_per_level": 2, "no_defence": True, "multiplier": {3: 2},
                     "knock_down": True, "weapon": "Dolch", "weapon_type": "Wurfwaffe", "ignore_armour": 3},
    "Riposte": {"group": "Kampf", "cost": {1: 2}, "targets": "eins", "push": True, "disarm": True,
                "parries": "stufe", "feint": True, "answers": ["Finte"], "negates_feint": True, "fends_off": True,
                "reaction": None},
}


def test_the_kampfwerte_manoeuvres_read_english_fields():
    settings = rules.get("kampfwerte").settings
    english, german = settings.of({"kampfwerte": {"manoeuvres": _MANOEUVRES_EN}}), settings.of(
        {"kampfwerte": {"manoever": _MANOEUVRES}})
    assert english == german and german != settings.defaults() and german.manoever == _MANOEUVRES


def test_a_manoeuvre_named_like_an_english_field_stays():
    from rpgkernel.rules.kampfwerte.manoever import kosten
    found = rules.get("kampfwerte").settings.of({"kampfwerte": {"manoever": {"Damage": {"kosten": "stufe"},
                                                                            "cost": {"Kosten": {1: 3}}}}})
    assert list(found.manoever) == ["Damage", "cost"] and kosten("cost", 1, daten=found) == 3


def _data_settings(key: str, name: str):
    """The settings that read the GM's data ``name`` for ruleset ``key``."""
    if name == "prognose":
        return {"frei": FREI_PROGNOSE, "kampfwerte": KAMPFWERTE_PROGNOSE}[key].settings
    return rules.get(None if key == "frei" else key).settings


def test_a_gm_file_with_english_keys_is_the_german_one(tmp_path):
    from rpgkernel.rules.midgard import einrichten
    english, german = tmp_path / "en.yaml", tmp_path / "de.yaml"
    english.write_text("critical:\n  fumble:\n    die: W20\n    rows:\n      - {from: 1, to: 20, text: Patzer}\n")
    german.write_text("kritisch:\n  fehler:\n    wuerfel: W20\n    zeilen:\n      - {von: 1, bis: 20, text: Patzer}\n")
    assert einrichten(tabellen=english).tabellen.daten == einrichten(tabellen=german).tabellen.daten


def test_a_key_given_twice_under_two_names_is_refused():
    with pytest.raises(RulesError, match=r"Der Schlüssel 'gleichstand' steht zweimal in den Daten \(auch als 'tie'\)"):
        rules.get("osr").settings.of({"osr": {"gleichstand": "neu", "tie": "neu"}})


@pytest.mark.parametrize("key, magic_options, commands", [
    ("magic.usage_roll", "magics._ROLL_OPTIONS", None),
    ("magic.usage_resolve", "magics._RESOLVE_OPTIONS", None),
    ("magic.usage_figuren", "magics._FIGUREN_OPTIONS", None),
    ("magic.usage_search", "magics._FIGUREN_OPTIONS", None),
    ("magic.usage_rpg", "magics._RPG_OPTIONS magics._JOURNAL_OPTIONS magics._SHARE_OPTIONS magics._BINDER_OPTIONS "
     "magics._PLAYERS_OPTIONS magics._SUGGESTIONS_OPTIONS magics._DICECHECK_OPTIONS magic_forecast.OPTIONS",
     "magics._SPELLINGS"),
    ("magic.usage_begegnung", "magic_encounter.OPTIONS", "magic_encounter.COMMANDS"),
])
def test_each_usage_line_speaks_the_language_and_names_only_what_the_magic_reads(key, magic_options, commands):
    """A usage line shown with an error is the catalogue's: in English it names the English spellings,
    and in both languages only options (and subcommands) the magic reads."""
    import importlib
    def table(name):
        module, attr = name.split(".")
        return getattr(importlib.import_module(f"rpgkernel.{module}"), attr)
    options = {o for name in magic_options.split() for o in table(name)}
    german = t(key)
    with messages.using("en"):
        english = t(key)
    assert english != german and "--sprache" not in english and "REGELWERK" not in english
    for text in (german, english):
        assert set(re.findall(r"(?<![\w-])(--?[a-zäöüß][\w-]*)", text)) <= options | {"-n"}, text
    if commands is not None:
        spelled = set(table(commands))
        first = set(re.findall(r"(?:^|\| )(?:%\w+ )?\[?([a-zäöüß]+)(?= |\]|$)", english)) - {"start"}
        assert {"undo", "forecast"} & first or {"next", "remove"} & first
        assert all(word in spelled for word in first & {"undo", "redo", "share", "players", "suggestions",
                                                         "forecast", "dicecheck", "next", "round", "remove",
                                                         "restore", "join", "delay", "now", "before", "after",
                                                         "reroll", "group", "hide", "reveal", "skip", "sight",
                                                         "value"})


@pytest.mark.parametrize("language, says", [
    ("de", "Unbekanntes Feld 'combatants'. Erlaubt sind: figuren, begegnung. Die Teilnehmer gehören unter 'begegnung:'"),
    ("en", "Unknown field 'combatants'. Allowed are: figuren, begegnung. The participants belong under 'encounter:'"),
])
def test_a_misplaced_key_is_named_as_typed_and_where_it_belongs(language, says):
    """Participants written at the top of a block: the message names the key as typed and says where the
    participants belong."""
    with messages.using(language), pytest.raises(statblocks.StatBlockError) as err:
        statblocks._sections({"combatants": [{"character": "Knight"}]}, None)
    assert str(err.value).startswith(says)


# -- the player page's language ---------------------------------------------------------------------------
def test_the_player_page_follows_the_campaign_or_the_players_choice(tmp_path, monkeypatch):
    from rpgkernel.server import live
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "runtime"))
    with Campaign.open(tmp_path / "k.sqlite") as camp:
        camp.set_ruleset("osr")
        camp.add_character("Alrik", {"tp": 8, "rk": 5})
        link = camp.new_player_link("Alrik")
        watcher = live.Watcher(link.key, {})
        assert watcher.open(camp.store.where, camp.store.campaign)
        try:
            def frame(chosen: str) -> dict:
                [(_, text)] = watcher.frames([(object(), "Alrik", link.token, chosen)], True)
                return json.loads(text)

            german, english = frame(""), frame("en")
            assert (german["sprache"], english["sprache"]) == ("de", "en")
            assert german["view"]["figur"]["labels"]["tp"] == messages._german["osr.field_tp"]
            with messages.using("en"):
                assert english["view"]["figur"]["labels"]["tp"] == t("osr.field_tp") != german["view"]["figur"]["labels"]["tp"]
            camp.set_language("en")
            assert frame("")["sprache"] == "en" and frame("")["view"] == english["view"]    # the campaign's
            assert frame("de")["view"] == german["view"]                                    # the player's choice
        finally:
            watcher.campaign.close()
    assert live._language_choice('{"type": "sprache", "sprache": "en"}') == "en"
    assert live._language_choice('{"type": "sprache", "sprache": ""}') == ""
    assert live._language_choice('{"type": "sprache", "sprache": "xx"}') is None
    assert live._language_choice('{"type": "wurf", "ausdruck": "W6"}') is None
    page = live._PAGE["html"]
    every = json.loads(re.search(r'id="labels">(.*?)</script>', page).group(1))
    assert sorted(every) == messages.languages() and every["en"]["live"] != every["de"]["live"]


# -- docs/sprachen.md ---------------------------------------------------------------------------------------
DOC = page("sprachen.md")
SWITCH = DOC.block("text", "%rpg --sprache en")
IN_PYTHON = DOC.block("python", "import rpgkernel")
DOC_BLOCK = DOC.block("yaml")
LAYOUT = DOC.block("text", "rpgkernel_fr/")
MODULE = DOC.block("python", "# rpgkernel_fr/__init__.py")
ENTRY_POINT = DOC.block("toml")
ENGLISH_DATA = DOC.block("python", 'kampagne.set_data("prognose"')


def test_the_docs_switch_the_language():
    from rpgkernel.magics import rpg_line
    try:
        rpg_line(SWITCH.text.strip().removeprefix("%rpg "))
        assert messages.language() == "en" and numerals.percent(0.1304) == "13.04 %"
        run_python(IN_PYTHON.text, {})
        assert messages.language() == "de" and numerals.percent(0.1304) == "13,04 %"
    finally:
        messages.set_language("de")


def test_the_docs_stat_block_with_english_keys(tmp_path):
    with Campaign.open(tmp_path / "k.sqlite") as camp:
        camp.set_ruleset("bastionland")
        statblocks.load(camp, DOC_BLOCK.text)
        assert camp.folded["characters"]["Knight"]["sheet"]["gd"] == 5
        combatants = camp.folded["encounters"]["Ford"]["combatants"]
        assert [(n, c["side"]) for n, c in combatants.items()] == [("Knight", "Players"), ("Mercenary 1", "Foes"),
                                                                   ("Mercenary 2", "Foes")]


def test_the_docs_forecast_data_with_english_keys_reads_as_the_german_of_kampagne_md():
    kept = {}

    class Keeper:
        def set_data(self, name, value):
            kept[name] = value
    run_python(ENGLISH_DATA.text, {"kampagne": Keeper()})
    german = {"alle": {"schaden": "W6", "treffer": "W20>=11"}, "figuren": {"Alrik": {"schaden": "W8+1", "treffer": 0.6}}}
    assert FREI_PROGNOSE.settings.of(kept) == FREI_PROGNOSE.settings.of({"prognose": german})


def _english_keys_in_code() -> dict[str, set[str]]:
    """Every English key of the GM's data, by the data's name, from the tables the code reads."""
    from rpgkernel.rules import forecast_data
    from rpgkernel.rules.adz import settings as adz, zauberparameter
    from rpgkernel.rules.bastionland import settings as bastionland
    from rpgkernel.rules.frei import settings as frei
    from rpgkernel.rules.kampfwerte import settings as kampfwerte
    from rpgkernel.rules.midgard import settings as midgard, tabellen
    from rpgkernel.rules.osr import settings as osr
    tables = {"prognose": (forecast_data.ENGLISH, FREI_PROGNOSE.aliases, KAMPFWERTE_PROGNOSE.aliases),
              "frei": (frei.ENGLISH,), "osr": (osr.ENGLISH, osr.ENGLISH_TABLES),
              "bastionland": (bastionland.ENGLISH, bastionland.ENGLISH_GAMBIT),
              "midgard": (midgard.ENGLISH, tabellen.ENGLISH, tabellen.ENGLISH_CRITICAL,
                          tabellen.ENGLISH_FIELDS),
              "kampfwerte": (kampfwerte.ENGLISH, kampfwerte.ENGLISH_RULES, kampfwerte.ENGLISH_MANOEUVRE), "adz": (adz.ENGLISH, adz.ENGLISH_FIELDS, zauberparameter.ENGLISH_PARAMETER)}
    return {name: {alias for table in found for alias in table} for name, found in tables.items()}


@pytest.mark.parametrize("name", ["sprachen.md", "en/index.md"])
def test_the_docs_list_the_english_keys_the_code_reads(name):
    """Each row of the pages' tables of English keys names its data and only keys the code reads."""
    text = (PACKAGE.parent / "docs" / name).read_text(encoding="utf-8")
    rows = {}
    for line in text.splitlines():
        cells = line.split(" | ")
        named = re.findall(r"`([^`]+)`", cells[0])
        if line.startswith("| ") and len(cells) == 2 and named and named[-1] in _english_keys_in_code():
            rows[named[-1]] = set(re.findall(r"`([^`]+)`", cells[1]))
    code = _english_keys_in_code()
    assert set(rows) == set(code)
    for data, keys in rows.items():
        assert keys and keys <= code[data], (data, keys - code[data])


def test_the_docs_language_package_registers_french(tmp_path, monkeypatch, catalogues):
    import tomllib
    site = tmp_path / "site"
    files = LAYOUT.lines
    assert files == ["rpgkernel_fr/__init__.py", "rpgkernel_fr/locale/fr/LC_MESSAGES/messages.po", "pyproject.toml"]
    (site / "rpgkernel_fr" / "locale" / "fr" / "LC_MESSAGES").mkdir(parents=True)
    (site / files[0]).write_text(MODULE.text, encoding="utf-8")
    (site / files[1]).write_text(_po({"dice.empty": "Rien à lancer."}), encoding="utf-8")
    points = tomllib.loads(ENTRY_POINT.text)["project"]["entry-points"][messages.GROUP]
    info = site / "rpgkernel_fr-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: rpgkernel-fr\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[{messages.GROUP}]\n"
                                           + "".join(f"{k} = {v}\n" for k, v in points.items()))
    monkeypatch.syspath_prepend(str(site))
    catalogues._entry_points_read = False
    with catalogues.using("fr"):
        assert t("dice.empty") == "Rien à lancer." and numerals.integer(1234) == "1 234"


def test_a_background_thread_speaks_the_sessions_language():
    """A card updated from a background weighing is drawn in another thread: it speaks the session's
    language, while a page rendered for one reader (``using``) keeps its own."""
    import threading
    said = {}
    messages.set_language("en")
    try:
        worker = threading.Thread(target=lambda: said.update(text=messages.t("advice.win_waiting"),
                                                             number=numerals.percent(0.1304)))
        worker.start()
        worker.join()
        with messages.using("de"):
            assert messages.t("advice.win_waiting") == "Sieg im Kampf: wird berechnet …"
    finally:
        messages.set_language("de")
    assert said == {"text": "Winning the fight: being computed …", "number": "13.04 %"}
