"""YAML stat blocks: valid blocks, every kind of error, hostile input, and all-or-nothing."""

import html
import subprocess
import sys

import pytest
from distributions import write_distribution
from doc_blocks import page

from rpgkernel import Campaign, RpgError, statblocks
from rpgkernel.render import journal_html
from rpgkernel.statblocks import StatBlockError, load

BLOCK = """\
figuren:
  - name: Alrik
    regelwerk: midgard
    werte: {st: 80, beruf: Krieger, zauberer: false, sprachen: [Comentang, Albisch]}
    ressourcen: {LP: 12, AP: 20}
    zustände:
      erschöpft:
  - name: Bruni
    ressourcen: {LP: 10}
    zustaende: [müde]
begegnung:
  name: Hinterhalt
  teilnehmer:
    - figur: Alrik
      seite: Helden
    - name: Goblin
      anzahl: 3
      seite: Räuber
      ressourcen: {LP: 5}
      zustände:
        vergiftet: {runden: 2, endet: zugende, von: Goblin 1}
"""


@pytest.fixture
def camp(tmp_path):
    with Campaign.open(tmp_path / "kampagne.sqlite") as c:
        yield c


def without_history(state):
    return {k: v for k, v in state.items() if k not in ("seq", "history")}


def test_block_creates_what_the_python_api_creates(camp, tmp_path):
    loaded = load(camp, BLOCK)
    assert loaded.characters == ("Alrik", "Bruni")
    assert loaded.encounter == "Hinterhalt" and loaded.new_encounter
    assert loaded.combatants == ("Alrik", "Goblin 1", "Goblin 2", "Goblin 3")

    with Campaign.open(tmp_path / "api.sqlite") as api:
        api.add_character("Alrik", ruleset="midgard", resources={"LP": 12, "AP": 20},
                          sheet={"st": 80, "beruf": "Krieger", "zauberer": False,
                                 "sprachen": ["Comentang", "Albisch"]},
                          conditions={"erschöpft": None})
        api.add_character("Bruni", resources={"LP": 10}, conditions={"müde": {}})
        enc = api.new_encounter("Hinterhalt")
        enc.add("Alrik", side="Helden", character="Alrik")
        enc.add("Goblin", side="Räuber", resources={"LP": 5}, count=3,
                conditions={"vergiftet": {"runden": 2, "endet": "zugende", "von": "Goblin 1"}})
        assert without_history(camp.state) == without_history(api.state)


def test_one_transaction_and_one_undo_for_the_whole_block(camp):
    before = camp.store.last_seq()
    load(camp, BLOCK)
    events = list(camp.store.events(after=before))
    assert len({e.tx for e in events}) == 1
    assert [e.kind for e in events] == ["figur", "figur", "begegnung", "kampfteilnehmer", "kampfteilnehmer"]
    camp.undo()
    assert camp.state["characters"] == {} and camp.state["encounters"] == {}
    assert camp.encounter is None
    camp.redo()
    assert set(camp.characters) == {"Alrik", "Bruni"} and camp.encounter.name == "Hinterhalt"


def test_combatants_of_the_active_or_named_encounter(camp):
    camp.add_character("Alrik", resources={"LP": 12})
    camp.new_encounter("Brücke")
    loaded = load(camp, "begegnung:\n  teilnehmer:\n    - figur: Alrik\n    - name: Troll\n")
    assert loaded.encounter == "Brücke" and not loaded.new_encounter
    assert set(camp.encounters["Brücke"].combatants) == {"Alrik", "Troll"}
    # a plain list with --begegnung: combatants of that encounter, created when missing
    loaded = load(camp, "- name: Wolf\n  anzahl: 2\n", encounter="Wald")
    assert loaded.new_encounter and camp.encounter.name == "Wald"
    assert set(camp.encounters["Wald"].combatants) == {"Wolf 1", "Wolf 2"}
    # the block may name the same encounter as the option
    load(camp, "begegnung:\n  name: Wald\n  teilnehmer:\n    - name: Bär\n", encounter="Wald")
    assert "Bär" in camp.encounters["Wald"].combatants


def test_joining_a_running_encounter_takes_a_place_in_the_order(camp):
    enc = camp.new_encounter("Hinterhalt")
    enc.add("Ritter", resources={"VIG": 10})
    enc.start(rolls={"Ritter": 5})
    load(camp, "- name: Knappe\n", encounter="Hinterhalt")   # rolls its initiative (W20) and stands by it
    first = "Knappe" if enc.initiative["Knappe"] >= 5 else "Ritter"   # a tie goes by the name
    assert enc.order == [first, "Ritter" if first == "Knappe" else "Knappe"]
    assert camp.journal(last=1)[0].data["text"].startswith(f"Knappe: Initiative {enc.initiative['Knappe']}, ")


def test_python_entry_point_needs_no_ipython(tmp_path):
    code = ("import sys, rpgkernel, rpgkernel.statblocks as sb; "
            f"c = rpgkernel.Campaign.open({str(tmp_path / 'k.sqlite')!r}); "
            "print(sb.load(c, '- name: Alrik').characters); "
            "print(any(m == 'IPython' or m.startswith('IPython.') for m in sys.modules))")
    out = subprocess.check_output([sys.executable, "-c", code], text=True).split("\n")
    assert out[:2] == ["('Alrik',)", "False"]


def test_loaded_shows_each_figure(camp):
    loaded = load(camp, BLOCK)
    text = repr(loaded)
    assert text.splitlines()[0] == "Angelegt: 2 Figuren · neue Begegnung Hinterhalt mit 4 Teilnehmern"
    assert "  Teilnehmer Goblin 2 [Räuber] – LP 5/5 – vergiftet (noch 2)" in text
    assert "  Figur Alrik – LP 12/12, AP 20/20 – erschöpft" in text
    bundle = loaded._repr_mimebundle_()
    assert bundle["text/plain"] == text and "<table" in bundle["text/html"]
    assert repr(load(camp, "- name: Cara\n")) == "Angelegt: 1 Figur\n  Figur Cara"


# -- errors: each names the entry and the field, in German, and nothing is created --

ERRORS = [
    # (block, fragments of the message)
    ("- name: Alrik\n- name: Söldner\n  ressorcen: {LP: 3}\n",
     ["Figur 2 ('Söldner'): Unbekanntes Feld 'ressorcen' – meinten Sie 'ressourcen'?"]),
    ("- name: Alrik\n  xyz: 1\n", ["Figur 1 ('Alrik'): Unbekanntes Feld 'xyz'. Erlaubt sind: name, regelwerk"]),
    ("- name: Alrik\n  1: x\n", ["Figur 1 ('Alrik'): Das Feld 1 ist kein Text"]),
    ("- name: Alrik\n  seite: Helden\n", ["Figur 1 ('Alrik'): Das Feld 'seite' gibt es nur für Teilnehmer"]),
    ("- name: Alrik\n  zustaende: [a]\n  zustände: [b]\n", ["Figur 1 ('Alrik'): Das Feld 'zustände' steht zweimal"]),
    ("- ressourcen: {LP: 1}\n", ["Figur 1: Das Feld 'name' fehlt."]),
    ("- name: ''\n", ["Figur 1, name: Ungültiger Name"]),
    ("- name: 7\n", ["Figur 1, name: Ungültiger Name für Figur: 7"]),
    ("- name: \"A\\tB\"\n", ["Figur 1 ('A\tB'), name: Ungültiger Name"]),
    ("- name: " + "x" * 101 + "\n", ["name: Ungültiger Name", "höchstens 100 Zeichen"]),
    ("- Alrik\n", ["Figur 1: erwartet wird ein Eintrag mit Feldern wie 'name: …', nicht 'Alrik'."]),
    ("- name: Alrik\n  regelwerk: midgrad\n", ["Figur 1 ('Alrik'), regelwerk: Unbekanntes Regelwerk",
                                               "Meinten Sie 'midgard'?"]),
    ("- name: Alrik\n  werte: [st]\n", ["Figur 1 ('Alrik'), werte: erwartet werden Einträge wie 'st: 12'"]),
    ("- name: Alrik\n  werte: {st: {a: 1}}\n", ["Figur 1 ('Alrik'), werte: Feld 'st'"]),
    ("- name: Alrik\n  werte: {st: 2024-01-01}\n", ["werte: Feld 'st'", "datetime.date"]),
    ("- name: Alrik\n  ressourcen: [LP]\n", ["ressourcen: erwartet werden Einträge wie 'LP: 12'"]),
    ("- name: Alrik\n  ressourcen: {LP: viel}\n", ["Figur 1 ('Alrik'), ressourcen: Ressource 'LP': erlaubt ist "
                                                   "eine ganze Zahl von −1.000.000.000 bis 1.000.000.000, nicht 'viel'."]),
    ("- name: Alrik\n  ressourcen: {LP: 1.5}\n", ["Ressource 'LP'", "nicht 1.5"]),
    ("- name: Alrik\n  ressourcen: {LP: true}\n", ["Ressource 'LP'", "nicht True"]),
    ("- name: Alrik\n  zustände: 3\n", ["zustände: erwartet werden Zustände wie"]),
    ("- name: Alrik\n  zustände: {liegend: 2}\n", ["zustände: liegend: erwartet werden runden, endet und von"]),
    ("- name: Alrik\n  zustände: {liegend: {dauer: 2}}\n", ["zustände: liegend: Unbekanntes Feld 'dauer'"]),
    ("- name: Alrik\n  zustände: {liegend: {runden: 0}}\n", ["zustände: liegend, runden: erlaubt ist eine ganze "
                                                              "Zahl von 1 bis 10.000, nicht 0."]),
    ("- name: Alrik\n  zustände: {liegend: {endet: zugend}}\n", ["liegend, endet: erlaubt ist einer der Werte",
                                                                  "Meinten Sie 'zugende'?"]),
    ("- name: Alrik\n  zustände: {liegend: {von: ''}}\n", ["liegend, von: Ungültiger Name"]),
    ("- name: Alrik\n- name: Alrik\n", ["Figur 2 ('Alrik'): 'Alrik' gibt es schon."]),
    ("name: Alrik\n", ["Unbekanntes Feld 'name'", "Eine einzelne Figur bitte als Liste schreiben"]),
    ("figurn: []\n", ["Unbekanntes Feld 'figurn' – meinten Sie 'figuren'?"]),
    ("figuren: {name: Alrik}\n", ["figuren muss eine Liste von Einträgen sein"]),
    ("begegnung: [a]\n", ["begegnung: erwartet werden name: und teilnehmer:"]),
    ("begegnung:\n  name: X\n  teilnehmr: []\n", ["Abschnitt begegnung: Unbekanntes Feld 'teilnehmr' – meinten Sie "
                                                   "'teilnehmer'?"]),
    ("begegnung:\n  name: X\n  teilnehmer: {name: a}\n", ["begegnung: teilnehmer muss eine Liste"]),
    ("begegnung:\n  teilnehmer:\n    - name: Goblin\n", ["Es gibt keine aktive Begegnung"]),
    ("begegnung:\n  name: X\n  teilnehmer:\n    - figur: Alirk\n",
     ["Teilnehmer 1 ('Alirk'), figur: Es gibt keine Figur 'Alirk'"]),
    ("figuren:\n  - name: Alrik\nbegegnung:\n  name: X\n  teilnehmer:\n    - figur: Alrik\n      ressourcen: {LP: 3}\n",
     ["Teilnehmer 1 ('Alrik'): Mit 'figur' stehen Werte, Ressourcen und Zustände bei der Figur selbst; "
      "'ressourcen' ist hier nicht erlaubt."]),
    ("begegnung:\n  name: X\n  teilnehmer:\n    - name: Goblin\n      anzahl: 0\n",
     ["Teilnehmer 1 ('Goblin'), anzahl: erlaubt ist eine ganze Zahl von 1 bis 200, nicht 0."]),
    ("begegnung:\n  name: X\n  teilnehmer:\n    - name: Goblin\n      anzahl: 2\n    - name: Goblin 2\n",
     ["Teilnehmer 2 ('Goblin 2'): 'Goblin 2' gibt es schon."]),
    ("", ["Der Block legt nichts an"]),
    ("figuren: []\n", ["Der Block legt nichts an"]),
    ("42\n", ["nicht 42"]),
    # YAML syntax: German, with line and column
    ("- name: Ritter: der Alte\n", ["YAML-Fehler in Zeile 1, Spalte 15: Hier ist kein ':' erlaubt",
                                    "  - name: Ritter: der Alte\n                ^"]),
    ("- name: Alrik\n\tressourcen: {}\n", ["YAML-Fehler in Zeile 2, Spalte 1: Tabulatoren"]),
    ("- name: Alrik\n  ressourcen: {LP: 12\n", ["YAML-Fehler in Zeile 3, Spalte 1", "nicht richtig getrennt"]),
    ("- name: 'Alrik\n", ["YAML-Fehler in Zeile 2, Spalte 1: Der Block endet zu früh"]),
    ("- name: Alrik\n  name: Bruni\n", ["YAML-Fehler in Zeile 2, Spalte 3: Das Feld 'name' steht zweimal."]),
    ("- name: *x\n", ["YAML-Fehler in Zeile 1, Spalte 9: Unbekannter Verweis"]),
    ("- name: a\n---\n- name: b\n", ["YAML-Fehler in Zeile 2, Spalte 1: Nur ein YAML-Dokument"]),
    ("- !!python/object/apply:os.getcwd []\n", ["Das YAML-Tag '!!python/object/apply:os.getcwd' ist nicht erlaubt"]),
]


@pytest.mark.parametrize("block, fragments", ERRORS, ids=[str(i) for i in range(len(ERRORS))])
def test_errors_name_entry_and_field_and_create_nothing(camp, block, fragments):
    camp.add_character("Vorher")
    before = camp.store.last_seq()
    with pytest.raises(RpgError) as info:
        load(camp, block)
    for fragment in fragments:
        assert fragment in str(info.value)
    assert camp.store.last_seq() == before and set(camp.characters) == {"Vorher"}


def test_a_ruleset_that_does_not_load_is_named_with_its_reason(camp, tmp_path, monkeypatch):
    """Not 'Unbekanntes Regelwerk': it is installed, and the GM learns why it does not load."""
    monkeypatch.syspath_prepend(str(write_distribution(tmp_path, "rpg-kaputt", {"kaputt": "fehlt_ganz:Regeln"})))
    with pytest.raises(StatBlockError) as info:
        load(camp, "- name: Alrik\n  regelwerk: kaputt\n")
    assert str(info.value).startswith("Figur 1 ('Alrik'), regelwerk: Das Regelwerk 'kaputt' aus dem Paket "
                                      "rpg-kaputt lässt sich nicht laden (fehlt_ganz:Regeln)")
    assert camp.store.last_seq() == 0


def test_an_error_in_the_last_entry_creates_nothing(camp):
    block = ("figuren:\n  - name: Alrik\n  - name: Bruni\n"
        "begegnung:\n  name: Hinterhalt\n  teilnehmer:\n    - name: Goblin\n      anzahl: 3\n"
        "    - name: Ork\n      ressourcen: {LP: -5000000000}\n")
    with pytest.raises(StatBlockError, match=r"Teilnehmer 2 \('Ork'\), ressourcen"):
        load(camp, block)
    assert camp.store.last_seq() == 0 and camp.state["characters"] == {} and camp.encounter is None


def test_a_name_taken_by_another_notebook_in_between_creates_nothing(camp, tmp_path):
    checked = statblocks.plan(camp, statblocks.parse("- name: Alrik\n- name: Bruni\n"))
    with Campaign.open(tmp_path / "kampagne.sqlite") as other:
        other.add_character("Bruni")
    with pytest.raises(StatBlockError, match="'Bruni' gibt es schon"):
        statblocks.create(camp, checked)
    assert set(camp.characters) == {"Bruni"}


def test_existing_names_are_refused(camp):
    camp.add_character("Alrik")
    with pytest.raises(StatBlockError, match=r"Figur 1 \('Alrik'\): 'Alrik' gibt es schon"):
        load(camp, "- name: Alrik\n")
    load(camp, "- name: Wolf\n", encounter="Wald")
    with pytest.raises(StatBlockError, match=r"Teilnehmer 2 \('Wolf'\): 'Wolf' gibt es schon"):
        load(camp, "- name: Wolf\n  anzahl: 2\n- name: Wolf\n", encounter="Wald")
    with pytest.raises(StatBlockError, match="heißt im Block 'Wald', aber --begegnung nennt 'Feld'"):
        load(camp, "begegnung:\n  name: Wald\n  teilnehmer: [{name: X}]\n", encounter="Feld")


# -- huge and hostile input ----------------------------------------------------------

HUGE = [
    ("- name: Alrik\n  ressourcen: {LP: 10000000000}\n", "erlaubt ist eine ganze Zahl von −1.000.000.000 bis"),
    ("- name: Alrik\n  werte: {st: 10000000000}\n", "werte: Feld 'st'"),
    ("- name: Alrik\n  werte: {notiz: '" + "x" * 600 + "'}\n", "werte: Feld 'notiz'"),
    ("- name: Alrik\n  zustände: {liegend: {runden: 1000000000}}\n", "von 1 bis 10.000"),
    ("- name: Goblin\n  anzahl: 1000000\n", "anzahl: erlaubt ist eine ganze Zahl von 1 bis 200"),
    ("".join(f"- name: Goblin{i}\n  anzahl: 200\n" for i in range(6)), "Zu viele Figuren auf einmal: 1.200"),
    ("- name: '" + "x" * 300_000 + "'\n", "Der Block ist zu lang"),
    ("[" * 5000 + "]" * 5000, "zu tief verschachtelt"),
    ("- name: a\n  werte: {x: " + "[" * 30 + "]" * 30 + "}\n", "zu tief verschachtelt"),
    # "billion laughs": aliases that would expand to 10^5 values
    ("a: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
     "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\n", "Der Block ist zu groß"),
    ("&a [*a]\n", "zu tief verschachtelt"),
]


@pytest.mark.parametrize("block, fragment", HUGE, ids=[str(i) for i in range(len(HUGE))])
def test_huge_values_are_refused(camp, block, fragment):
    with pytest.raises(StatBlockError) as info:
        load(camp, block, encounter="Horde" if "Goblin" in block else None)
    assert fragment in str(info.value)
    assert camp.store.last_seq() == 0


HOSTILE = [
    "<script>alert('x')</script>",
    "Robert'); DROP TABLE rpg_events;--",
    "<img src=x onerror=alert(1)>",
    "{{7*7}} ${jndi:x} %(a)s \\u0000",
    "Ölgötz & Söhne \"Zwölf\"",
]


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_names_are_stored_verbatim_and_escaped(camp, tmp_path, name):
    import json
    block = ("figuren:\n  - name: " + json.dumps(name) + "\n    ressourcen: {" + json.dumps(name) + ": 3}\n"
             "    zustände: {" + json.dumps(name) + ": {runden: 2}}\n"
             "begegnung:\n  name: " + json.dumps(name) + "\n  teilnehmer:\n"
             "    - figur: " + json.dumps(name) + "\n      seite: " + json.dumps(name) + "\n")
    loaded = load(camp, block)
    with Campaign.open(tmp_path / "kampagne.sqlite") as again:
        fig = again.characters[name]
        assert fig.name == name and list(fig.resources) == [name] and list(fig.conditions) == [name]
        assert again.encounter.name == name
        assert again.state["encounters"][name]["combatants"][name]["side"] == name
    outputs = [loaded._repr_mimebundle_()["text/html"], journal_html(camp.journal()),
               camp.encounter._repr_mimebundle_()["text/html"]]
    for out in outputs:
        assert html.escape(name) in out
        if name != html.escape(name):
            assert name not in out


def test_yaml_is_never_executed(camp, tmp_path):
    marker = tmp_path / "ausgefuehrt"
    block = f"- !!python/object/apply:pathlib.Path.touch [!!python/object/apply:pathlib.Path [{str(marker)!r}]]\n"
    with pytest.raises(StatBlockError, match="YAML-Tag"):
        load(camp, block)
    assert not marker.exists()


def test_not_text(camp):
    with pytest.raises(StatBlockError, match="ist YAML-Text, nicht bytes"):
        load(camp, b"- name: Alrik")


REFERENCE = page("kampagne.md").take("yaml", count=3)


def test_the_reference_examples_are_valid(tmp_path):
    for i, block in enumerate(REFERENCE):
        with Campaign.open(tmp_path / f"{i}.sqlite") as c:
            loaded = load(c, block.text)
            assert loaded.characters or loaded.combatants
    assert loaded.combatants == ()   # the last one: conditions of a character
    with Campaign.open(tmp_path / "1.sqlite") as c:
        assert set(c.encounter.combatants) == {"Alrik", "Bruni", "Goblin 1", "Goblin 2", "Goblin 3",
                                               "Hauptmann Grimm"}


def test_a_character_or_encounter_undone_by_another_notebook_in_between(camp, tmp_path):
    camp.add_character("Alrik")
    checked = statblocks.plan(camp, statblocks.parse("- figur: Alrik\n"), encounter="Brücke")
    camp.new_encounter("Wald")
    checked_wald = statblocks.plan(camp, statblocks.parse("begegnung:\n  teilnehmer: [{name: Wolf}]\n"))
    with Campaign.open(tmp_path / "kampagne.sqlite") as other:
        other.undo()     # the encounter Wald
        other.undo()     # the character Alrik
    with pytest.raises(StatBlockError, match="Teilnehmer 1 \\('Alrik'\\): Unbekannte Figur 'Alrik'"):
        statblocks.create(camp, checked)
    with pytest.raises(StatBlockError, match="Die Begegnung 'Wald' gibt es nicht"):
        statblocks.create(camp, checked_wald)
    assert camp.state["encounters"] == {} and camp.state["characters"] == {}
