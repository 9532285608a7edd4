"""%begegnung (%encounter): every subcommand in a notebook, each the Encounter call it names (the same
journal and state as the Python API), undone with %rpg rückgängig, German errors as boxes."""

import pytest

import rpgkernel
from rpgkernel import Campaign
from rpgkernel.magic_encounter import COMMANDS, SHAPES
from rpgkernel.messages import t

FIGUREN = """
figuren:
  - name: Bruni
    ressourcen: {LP: 12}
begegnung:
  name: Furt
  teilnehmer:
    - name: Alrik
      seite: Helden
      ressourcen: {LP: 14}
    - name: Söldner
      seite: Feinde
      anzahl: 3
      ressourcen: {LP: 6}
"""

#: (magic line, the same as an Encounter call)
LINES = [
    ("%begegnung gruppe Söldner", lambda e: e.group(["Söldner"])),
    ('%begegnung wert "Söldner 1" "Söldner 2" LP -4',
     lambda e: e.campaign.change(["Söldner 1", "Söldner 2"], "LP", -4, encounter=e.name)),
    ("%begegnung wert Alrik LP =9", lambda e: e.campaign.change("Alrik", "LP", to=9)),
    ("%begegnung start --würfel 15,11", lambda e: e.start(dice=[15, 11])),
    ("%begegnung dazu Bruni --initiative 13 --seite Helden",
     lambda e: e.add("Bruni", side="Helden", character="Bruni", initiative=13)),
    ('%begegnung dazu "Söldner 4" --wie "Söldner 1" --würfel 2',
     lambda e: e.add("Söldner 4", side="Feinde", resources={"LP": 6}, dice=[2])),
    ("%begegnung später Alrik", lambda e: e.delay("Alrik")),
    ("%begegnung jetzt Alrik", lambda e: e.act_now("Alrik")),
    ('%begegnung vor "Söldner 4" Bruni', lambda e: e.move("Söldner 4", before="Bruni")),
    ('%begegnung nach "Söldner 4" Alrik', lambda e: e.move("Söldner 4", after="Alrik")),
    ('%begegnung neu "Söldner 4" --initiative 1', lambda e: e.reroll("Söldner 4", 1)),
    ('%begegnung entfernen "Söldner 2"', lambda e: e.remove("Söldner 2")),
    ('%begegnung zurück "Söldner 2"', lambda e: e.restore("Söldner 2")),
    ('%begegnung verbergen "Söldner 4"', lambda e: e.hide("Söldner 4")),
    ('%begegnung zeigen "Söldner 4"', lambda e: e.reveal("Söldner 4")),
    ("%begegnung gruppe --auflösen Söldner", lambda e: e.ungroup(["Söldner"])),
    ("%begegnung sicht Feinde nichts", lambda e: e.set_player_sight("Feinde", "nichts")),
    ("%begegnung zug", lambda e: e.next_turn()),
    ("%begegnung runde --neu --würfel 3,4,5,6,7,8",
     lambda e: e.next_round(new_initiative=True, dice=[3, 4, 5, 6, 7, 8])),
]


def entries(camp):
    return [(e.kind, e.data["text"]) for e in camp.journal()]


def test_every_subcommand_is_the_encounter_call_it_names(notebook, tmp_path):
    notebook.ok("%rpg --kampagne magie.sqlite")
    notebook.ok("%%figuren\n" + FIGUREN)
    camp = rpgkernel.session.current().campaign
    twin = Campaign.open(tmp_path / "python.sqlite")
    rpgkernel.statblocks.load(twin, FIGUREN)
    for line, call in LINES:
        seq = camp.store.last_seq()
        [shown] = notebook.ok(line)
        call(twin.encounter)
        new = [e.data["text"] for e in camp.store.events(after=seq)]
        assert new and shown.splitlines()[:len(new)] == new, (line, shown)   # what the line wrote, first
        assert repr(camp.encounter) in shown and shown.splitlines()[-1].startswith(("Reihenfolge: ", "Teilnehmer: "))
    assert entries(camp) == entries(twin)
    assert camp.encounter.record == twin.encounter.record
    twin.close()
    assert (camp.encounter.round, camp.encounter.current) == (2, "Söldner 4")
    notebook.ok("%rpg rückgängig")                       # the new round, back as one step
    assert (camp.encounter.round, camp.encounter.current) == (1, "Söldner 1")   # where "zug" left it


def test_the_encounter_shown_with_its_marks(notebook):
    notebook.ok("%rpg --kampagne m.sqlite")
    notebook.ok("%%figuren\n" + FIGUREN)
    [shown] = notebook.ok("%begegnung")
    assert shown == "Furt – noch nicht begonnen (4 Teilnehmer)\nTeilnehmer: Alrik, Söldner 1, Söldner 2, Söldner 3"
    notebook.ok("%begegnung start --würfel 9,8,7,6")
    notebook.ok('%begegnung verbergen "Söldner 3"')
    notebook.ok("%begegnung später Alrik")
    notebook.ok('%begegnung entfernen "Söldner 1"')
    [shown] = notebook.ok("%encounter")
    assert shown.splitlines()[-1] == ("Reihenfolge: Söldner 2, Söldner 3 (verborgen); wartet ab: Alrik; "
                                      "entfernt: Söldner 1")
    html = notebook.shell.display_formatter.format(notebook.value)[0]["text/html"]
    assert "Söldner 3 (verborgen)" in html and "Alrik (wartet ab)" in html


def test_the_start_marks_its_initiative_as_the_order(notebook):
    """%begegnung start: its "Initiative:" line (the journal's) marks whom the "Reihenfolge:" line marks, the
    same way: hidden, and out of the fight with the reason; the table too."""
    notebook.ok("%rpg --kampagne s.sqlite")
    notebook.ok("%%figuren\n" + FIGUREN)
    camp = rpgkernel.session.current().campaign
    notebook.ok('%begegnung verbergen "Söldner 3"')
    camp.change("Söldner 1", "LP", -6)                                  # 0 LP: out of the fight
    [shown] = notebook.ok("%begegnung start --würfel 9,8,7,6")
    [initiative] = [line for line in shown.splitlines() if line.startswith("Initiative: ")]
    marked = "Alrik, Söldner 1 (außer Gefecht: kampfunfähig (LP 0)), Söldner 2, Söldner 3 (verborgen)"
    assert initiative == "Initiative: " + marked and shown.splitlines()[-1] == "Reihenfolge: " + marked
    html = notebook.shell.display_formatter.format(notebook.value)[0]["text/html"]
    assert "Söldner 1 (außer Gefecht: kampfunfähig (LP 0))</td>" in html and "Söldner 3 (verborgen)</td>" in html
    [shown] = notebook.ok('%begegnung später "Söldner 3"')               # who waits keeps the marks
    assert shown.splitlines()[-1] == ("Reihenfolge: Alrik, Söldner 1 (außer Gefecht: kampfunfähig (LP 0)), "
                                      "Söldner 2; wartet ab: Söldner 3 (verborgen)")
    html = notebook.shell.display_formatter.format(notebook.value)[0]["text/html"]
    assert "Söldner 3 (verborgen) (wartet ab)</td>" in html
    notebook.ok('%begegnung jetzt "Söldner 3"')
    notebook.ok('%begegnung zeigen "Söldner 3"')
    camp.change("Söldner 1", "LP", 6)                                   # healed: back in the fight
    [shown] = notebook.ok("%begegnung")
    assert shown.splitlines()[-1] == "Reihenfolge: Alrik, Söldner 3, Söldner 1, Söldner 2"
    assert camp.journal(kind="initiative")[0].data["text"] == initiative    # the journal keeps what was so


def test_the_english_names(notebook):
    notebook.ok("%rpg --kampagne e.sqlite")
    notebook.ok("%%figuren\n" + FIGUREN)
    camp = rpgkernel.session.current().campaign
    for line in ("start --dice 9,8,7,6", "remove Alrik", "restore Alrik", "hide Alrik", "reveal Alrik", "turn",
                 'delay "Söldner 3"', 'now "Söldner 3"', 'before "Söldner 3" "Söldner 2"',
                 "round --new --dice 1,2,3,4", "reroll Alrik --dice 3", 'group "Söldner 1" "Söldner 2"', "next"):
        notebook.ok("%encounter " + line)
    assert camp.encounter.record["combatants"]["Söldner 2"]["group"] == "Söldner 1"
    assert set(COMMANDS.values()) == set(SHAPES)


@pytest.mark.parametrize("line, message", [
    ("%begegnung tanzen", "Unbekannter Befehl 'tanzen'; %begegnung kennt: start, zug, runde, entfernen, zurück"),
    ("%begegnung vor Alrik", "%begegnung vor braucht zwei Namen: NAME und ZIEL."),
    ("%begegnung entfernen", "%begegnung entfernen braucht einen Namen"),
    ("%begegnung zug Alrik", "%begegnung zug nimmt keine Namen."),
    ("%begegnung gruppe", "%begegnung gruppe braucht mindestens einen Namen."),
    ("%begegnung zug --initiative 3", "Die Option --initiative passt nicht zu %begegnung zug."),
    ("%begegnung gruppe --auflösen Söldner --würfel 3", "Die Option --würfel passt nicht zu %begegnung gruppe."),
    ("%begegnung später Alrik", "Die Begegnung 'Furt' hat noch nicht begonnen"),
    ("%begegnung dazu Wolf", "'Wolf' ist keine Figur der Kampagne. Eine neue Figur mit Werten kommt mit %%figuren"),
    ("%begegnung entfernen Alirk", "Unbekannte Figur 'Alirk'. Meinten Sie 'Alrik'?"),
    ("%begegnung --begegnung Wald", "Unbekannte Begegnung 'Wald'."),
    ("%begegnung start --würfel 3,x", "--würfel"),
    ("%begegnung start --tempo 3", "Unbekannte Option"),
    ("%begegnung sicht Feinde alles", "Die Sicht der Spieler ist genau, beschreibung, nichts, nicht 'alles'."),
    ("%begegnung sicht Feinde", "sicht"),
    ("%begegnung wert Alrik LP", "%begegnung wert braucht die Namen, die Ressource und die Änderung"),
    ("%begegnung wert Alrik LP -x", "LP: '-x' ist keine Änderung. Erwartet wird -5 (weniger), +3 (mehr) oder =7"),
    ("%begegnung wert Alrik LP 5", "LP: '5' ist keine Änderung."),
    ("%begegnung wert Alrik Mut -1", "Alrik hat keine Ressource 'Mut'; vorhanden: LP."),
    ("%begegnung wert Alrik Alirk LP -1", "Unbekannte Figur 'Alirk'. Meinten Sie 'Alrik'?"),
])
def test_errors_are_german_boxes(notebook, line, message):
    notebook.ok("%rpg --kampagne f.sqlite")
    notebook.ok("%%figuren\n" + FIGUREN)
    [error] = notebook.run(line)
    assert error.startswith("Fehler: ") and message in error, error


REMOVED = ("'Söldner 2' wurde aus der Begegnung 'Furt' entfernt; zurückholen mit: %begegnung zurück \"Söldner 2\""
           ' (in Python: begegnung.restore("Söldner 2")).')


@pytest.mark.parametrize("line", [
    'später "Söldner 2"', 'jetzt "Söldner 2"', 'vor "Söldner 2" Alrik', 'nach Alrik "Söldner 2"',
    'neu "Söldner 2"', 'gruppe "Söldner 2" "Söldner 3"', 'verbergen "Söldner 2"', 'zeigen "Söldner 2"',
    'entfernen "Söldner 2"', 'dazu "Söldner 2" --wie "Söldner 1"',
])
def test_a_removed_combatant_is_named_so_with_the_way_back(notebook, line):
    notebook.ok("%rpg --kampagne r.sqlite")
    notebook.ok("%%figuren\n" + FIGUREN)
    notebook.ok("%begegnung start --würfel 9,8,7,6")
    notebook.ok('%begegnung entfernen "Söldner 2"')
    camp = rpgkernel.session.current().campaign
    seq = camp.store.last_seq()
    [error] = notebook.run("%begegnung " + line)
    assert error == "Fehler: " + REMOVED and camp.store.last_seq() == seq
    notebook.ok('%begegnung zurück "Söldner 2"')                  # the way it names
    assert "Söldner 2" in camp.encounter.order


def test_skipping_those_out_of_the_fight_is_switched_and_said(notebook):
    notebook.ok("%rpg --kampagne s.sqlite")
    notebook.ok("%%figuren\n" + FIGUREN)
    notebook.ok("%begegnung start --würfel 9,8,7,6")
    camp = rpgkernel.session.current().campaign
    camp.change("Söldner 1", "LP", -6)
    skipping = ("Wer außer Gefecht ist, wird in der Zugfolge übersprungen und kommt erst wieder an die Reihe, "
                "wenn er handeln kann (ausschalten: %begegnung überspringen aus). "
                "Außer Gefecht sind jetzt: Söldner 1 – kampfunfähig (LP 0).")
    [shown] = notebook.ok("%begegnung überspringen")             # the setting, nothing written
    assert shown.splitlines()[0] == skipping and camp.journal(last=1)[0].kind == "ressource"
    [shown] = notebook.ok("%begegnung überspringen aus")
    assert shown.splitlines()[:2] == ["Furt: Teilnehmer außer Gefecht überspringen – nein",
                                      "Niemand wird übersprungen: Wer außer Gefecht ist, kommt trotzdem an die "
                                      "Reihe (einschalten: %begegnung überspringen an). "
                                      "Außer Gefecht sind jetzt: Söldner 1 – kampfunfähig (LP 0)."]
    assert camp.encounter.skip_out is False
    notebook.ok("%begegnung zug")
    assert camp.encounter.current == "Söldner 1"                 # gets its turn after Alrik
    notebook.ok("%rpg rückgängig")
    notebook.ok("%encounter skip on")
    notebook.ok("%begegnung zug")
    assert camp.encounter.skip_out is True and camp.encounter.current == "Söldner 2"   # passed over
    notebook.ok("%begegnung überspringen aus")
    notebook.ok("%rpg rückgängig")
    [shown] = notebook.ok("%begegnung ueberspringen ein")           # already on: said, nothing written
    assert shown.splitlines()[0] == skipping and camp.encounter.skip_out is True
    [error] = notebook.run("%begegnung überspringen vielleicht")
    assert error == "Fehler: %begegnung überspringen nimmt an oder aus (auch ein, on, off), nicht 'vielleicht'."


def test_a_ruleset_refuses_with_its_rule_and_no_encounter_says_how(notebook):
    [error] = notebook.run("%begegnung start")
    assert error.startswith("Fehler: ") and "Kampagne" in error
    notebook.ok("%rpg bastionland --kampagne b.sqlite")
    [error] = notebook.run("%begegnung zug")
    assert "Es gibt keine aktive Begegnung" in error
    notebook.ok("%%figuren\nbegegnung:\n  name: Furt\n  teilnehmer:\n"
                "    - {name: Ritter, seite: Spieler, werte: {vig: 12, cla: 10, spi: 10, gd: 4}}\n"
                "    - {name: Söldner, seite: Feinde, werte: {vig: 12, cla: 10, spi: 10, gd: 4}}\n")
    notebook.ok("%begegnung start")
    [error] = notebook.run("%begegnung vor Söldner Ritter")
    assert "Söldner kann nicht vor Ritter handeln" in error and "(Überraschung)" in error


def test_registered_with_the_extension_and_documented(shell):
    assert {"begegnung", "encounter"} <= set(shell.magics_manager.magics["line"])
    doc = shell.magics_manager.magics["line"]["begegnung"].__doc__
    assert doc == t("magic.help_begegnung")
    for command in SHAPES:
        assert f"%begegnung {command}" in doc or f"| {command}" in doc, command
        assert command in t("magic.usage_begegnung")
    shell.run_line_magic("unload_ext", "rpgkernel")
    assert "begegnung" not in shell.magics_manager.magics["line"]
    shell.run_line_magic("load_ext", "rpgkernel")


def test_a_ruleset_without_initiative_speaks_of_the_order(notebook):
    """Bastionland rolls no initiative (the players' side acts first): the start, its journal line and
    the panel's table speak of the order; a ruleset that rolls one keeps "Initiative"."""
    from rpgkernel.rules import registry
    from rpgkernel.widgets.panel_data import rules_info
    notebook.ok("%rpg --kampagne b.sqlite")
    notebook.ok("%rpg bastionland")
    camp = rpgkernel.session.current().campaign
    enc = camp.new_encounter("Brücke")
    enc.add("Söldner", side="Feinde", sheet={"vig": 13, "cla": 10, "spi": 10, "gd": 4})
    enc.add("Ritter", side="Spieler", sheet={"vig": 13, "cla": 10, "spi": 13, "gd": 5})
    [shown] = notebook.ok("%begegnung start")
    assert "Initiative" not in shown and shown.splitlines()[0] == "Reihenfolge nach den Regeln: Ritter, Söldner"
    assert camp.journal(kind="initiative")[0].data["text"] == "Reihenfolge nach den Regeln: Ritter, Söldner"
    assert {key: rules_info(registry.get(key))["initiative"] for key in ("bastionland", "osr", "adz")} == {
        "bastionland": False, "osr": True, "adz": True}
