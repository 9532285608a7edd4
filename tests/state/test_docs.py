"""docs/kampagne.md: every magic line of the page run in a notebook, every Python block run, every message
it shows compared with the one the code gives, the PostgreSQL addresses read by libpq and opened on a test
server, and its tables of limits checked against the code. (Its YAML blocks are loaded by
tests/test_statblocks.py::test_the_reference_examples_are_valid too.)"""

import json
import shlex
import sqlite3

import pytest
from doc_blocks import assert_shown, page, run_python

import rpgkernel
from rpgkernel import Campaign, RpgError, statblocks
from rpgkernel.numerals import integer
from rpgkernel.state import address, dicecheck
from rpgkernel.state.journal import journal_kinds
from rpgkernel.state import campaign as campaign_module
from rpgkernel.state import transaction
from rpgkernel.statblocks import StatBlockError

PAGE = page("kampagne.md")
TEXT = " ".join(PAGE.text.split())
SQLITE = PAGE.block("", "%rpg --kampagne kampagne.sqlite\n")
SERVER = PAGE.block("", "%rpg --kampagne postgresql://spielleitung:geheim@server.example/runde")
ADDRESSES = PAGE.block("", after="### Adressen und Passwörter (PostgreSQL)")
SYNOPSIS = PAGE.block("", "%%figuren [--begegnung NAME]")
LIST, SECTIONS, CONDITIONS = PAGE.take("yaml", count=3)
ERRORS = PAGE.block("", "Figur 2 ('Söldner')")
YAML_ERROR = PAGE.block("", "YAML-Fehler")
WITHOUT_MAGIC = PAGE.block("python", after="### Ohne Magic")
GM_DATA = PAGE.block("python", after="## Daten der Spielleitung")
RUN = PAGE.block("python", "kampagne = rpgkernel.session.current().campaign", after="## Eine Begegnung führen")
OUT_OF_FIGHT = PAGE.block("python", after="### Außer Gefecht")
OUT_OF_FIGHT_MAGIC = PAGE.block("", "%begegnung", after="### Außer Gefecht")
OUT_OF_FIGHT_SHOWN = PAGE.block("text", after="### Außer Gefecht")
JOURNAL = PAGE.block("python", "journal = kampagne.journal")
READ_ONLY_MAGIC, READ_ONLY = PAGE.take(None, after="## Nur lesen", count=2)
DICE_CHECK_LINES, DICE_CHECK_SHOWN, DICE_CHECK = PAGE.take(None, after="## Würfelcheck: echte Würfel prüfen", count=3)
DAMAGED, RESCUE_MAGIC, RESCUE = PAGE.take(None, after="## Beschädigte Kampagnen", count=3)


def campaign_url(line: str) -> str:
    """The address of a ``%rpg --kampagne`` line, as the magic reads it."""
    words = shlex.split(line)
    return words[words.index("--kampagne") + 1]


# -- opening, addresses, passwords -------------------------------------------------

def test_opening_a_sqlite_campaign(notebook, tmp_path):
    [status] = notebook.ok(SQLITE.text)
    assert (tmp_path / "kampagne.sqlite").exists() and "Kampagne: kampagne.sqlite" in status
    [error] = notebook.run("%rpg --kampagne kampagne.sqlite   # öffnen")   # "Hinter %rpg steht kein Kommentar"
    assert error.startswith("Fehler: ") and "'#'" in error and "Hinter `%rpg` steht kein Kommentar" in TEXT


@pytest.mark.parametrize("line, where", [
    (SERVER.text.strip(), {"host": "server.example"}),
    *zip(ADDRESSES.lines, [{"host": "server.example", "port": "5432"},
                           {"host": "server.example", "sslmode": "require"},
                           {"host": "/var/run/postgresql"}]),
])
def test_each_address_means_what_the_page_says_and_shows_no_password(line, where):
    from psycopg.conninfo import conninfo_to_dict
    url = campaign_url(line)
    assert conninfo_to_dict(url) == {"user": "spielleitung", "password": "geheim", "dbname": "runde", **where}
    assert not address.ambiguous(url) and "geheim" not in address.shown(url)
    assert address.shown(url).startswith("postgresql://spielleitung@")


def test_the_addresses_open_a_campaign_on_a_server(pg_cluster, notebook):
    c = pg_cluster
    for line in [SERVER.text.strip(), *ADDRESSES.lines]:
        db = c.new_database().rsplit("/", 1)[1]
        url = (campaign_url(line).replace("spielleitung", c.user).replace("geheim", c.password)
               .replace("server.example:5432", f"127.0.0.1:{c.port}").replace("server.example", f"127.0.0.1:{c.port}")
               .replace("/runde", f"/{db}").replace("&sslmode=require", "")   # the test server has no TLS
               .replace("host=/var/run/postgresql", f"host={c.root}&port={c.port}"))
        shown = notebook.ok(f'%rpg --kampagne "{url}"')
        assert c.password not in "".join(shown) and address.shown(url) in shown[0]
        assert rpgkernel.session.current().campaign.store.where == address.shown(url)


def test_forgetting_the_dashes_gives_a_hint_without_the_password(notebook):
    [error] = notebook.run(SERVER.text.replace("--kampagne", "kampagne"))
    assert "--kampagne" in error and "geheim" not in error


# -- %%figuren ------------------------------------------------------------------------

def test_the_figuren_synopsis_is_the_magics_own(notebook):
    head, body = SYNOPSIS.lines
    assert f"    {head}\n    {body}" in notebook.shell.magics_manager.magics["cell"]["figuren"].__doc__
    notebook.ok(SQLITE.text)
    [error] = notebook.run("%%figuren --begegnug Furt\n- name: Alrik\n")
    assert f"Aufruf: {head}" in error


def test_the_three_forms_in_a_notebook(notebook):
    notebook.ok(SQLITE.text)
    camp = rpgkernel.session.current().campaign
    notebook.ok("%%figuren\n" + LIST.text)   # 1. a list: characters
    assert set(camp.characters) == {"Alrik", "Bruni"} and camp.figure("Alrik").resources["AP"]["max"] == 22
    notebook.ok('%%figuren --begegnung "Am Fluss"\n' + LIST.text)   # 2. with --begegnung: combatants
    assert camp.encounter.name == "Am Fluss" and set(camp.encounter.combatants) == {"Alrik", "Bruni"}
    notebook.ok("%rpg rückgängig")   # the whole block back
    assert "Am Fluss" not in camp.encounters
    notebook.ok("%rpg --kampagne zwei.sqlite")
    camp = rpgkernel.session.current().campaign
    notebook.ok("%%figuren\n" + SECTIONS.text)   # 3. the sections figuren: and begegnung:
    enc = camp.encounter
    assert enc.name == "Hinterhalt" and list(enc.combatants) == ["Alrik", "Bruni", "Goblin 1", "Goblin 2", "Goblin 3",
                                                                   "Hauptmann Grimm"]
    poisoned = camp.figure("Goblin 2").record["conditions"]["vergiftet"]
    assert (poisoned["remaining"], poisoned["tick"], poisoned["of"]) == (3, "turn_end", "Goblin 2")
    assert camp.figure("Hauptmann Grimm").sheet == {"st": 70} and camp.figure("Alrik").sheet["beruf"] == "Krieger"
    assert "erschöpft" in camp.figure("Bruni").conditions


def test_the_conditions_block(tmp_path):
    with Campaign.open(tmp_path / "z.sqlite") as camp:
        camp.add_character("Bruni")
        statblocks.load(camp, CONDITIONS.text)
        cond = camp.figure("Alrik").record["conditions"]
        assert cond["liegend"]["remaining"] is None and cond["vergiftet"]["remaining"] == 3
        assert (cond["vergiftet"]["tick"], cond["geblendet"]["tick"]) == ("round_end", "turn_end")
        assert (cond["gebannt"]["tick"], cond["gebannt"]["of"], cond["geblendet"]["of"]) == ("turn_start", "Bruni",
                                                                                              "Alrik")


@pytest.mark.parametrize("block", [
    "- name: Alrik\n- name: Söldner\n  ressorcen: {LP: 3}\n",
    "begegnung:\n  name: Furt\n  teilnehmer:\n    - name: A\n    - name: B\n    - name: Goblin\n      anzahl: 1000\n",
    "- name: Alrik\n  zustände:\n    liegend: {endet: zugend}\n",
    "figuren:\n  - name: Alrik\nbegegnung:\n  name: Furt\n  teilnehmer:\n    - figur: Alirk\n",
])
def test_every_message_shown_is_the_one_a_block_gets_and_nothing_is_created(tmp_path, block):
    with Campaign.open(tmp_path / "f.sqlite") as camp:
        with pytest.raises(StatBlockError) as info:
            statblocks.load(camp, block)
        assert str(info.value) in ERRORS.lines
        assert camp.store.last_seq() == 0


def test_a_yaml_error_names_line_and_column(tmp_path):
    with Campaign.open(tmp_path / "y.sqlite") as camp, pytest.raises(StatBlockError) as info:
        statblocks.load(camp, "- name: Ritter: der Alte\n")
    assert_shown(YAML_ERROR.text, str(info.value))


def test_the_limits_are_the_code_s():
    table = PAGE.text.split("| Grenze | Wert |")[1].split("\n\n")[0]
    rows = dict(line.strip("|").rsplit("|", 1) for line in table.splitlines()[2:])
    rows = {k.strip(): v.strip() for k, v in rows.items()}
    assert rows == {"Länge des Blocks": f"{integer(statblocks.MAX_CHARS)} Zeichen",
                    "Werte im Block (jeder Verweis `*anker` zählt jedes Mal)": integer(statblocks.MAX_NODES),
                    "Verschachtelung": f"{statblocks.MAX_DEPTH} Ebenen",
                    "Einträge pro Block": integer(statblocks.MAX_ENTRIES),
                    "angelegte Figuren pro Block (mit `anzahl`)": integer(statblocks.MAX_FIGURES)}
    assert f"ganze Zahl von 1 bis {integer(transaction.MAX_ROUNDS)}" in TEXT
    assert f"ganze Zahl von 1 bis {transaction.MAX_COUNT}" in TEXT and f"1–{transaction.MAX_NAME} Zeichen" in TEXT
    assert "bis 4 MB je Eintrag" in TEXT and campaign_module.MAX_DATA == 4_000_000
    assert "ganze Zahl von −1.000.000.000 bis 1.000.000.000" in TEXT


# -- Python --------------------------------------------------------------------------

def test_without_magic(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    namespace = {"yaml_text": LIST.text}
    loaded = run_python(WITHOUT_MAGIC.text, namespace)
    camp = namespace["kampagne"]
    assert set(camp.characters) == {"Alrik", "Bruni"} and loaded.encounter == "Hinterhalt"
    assert set(loaded.combatants) == {"Alrik", "Bruni"} and "Hinterhalt" in repr(loaded)
    assert "Hinterhalt" in loaded._repr_html_()
    with pytest.raises(RpgError, match="Unbekanntes Feld 'ressorcen'"):
        statblocks.load(camp, "- name: Söldner\n  ressorcen: {LP: 3}\n")
    camp.add_character("Wolf", sheet={}, ruleset=None, resources={"LP": 6}, conditions={"hungrig": {}})
    camp.new_encounter("Wald").add("Wolf", side="Tiere", character="Wolf")
    camp.encounters["Wald"].add("Krähe", side="Tiere", count=2)
    assert list(camp.encounters["Wald"].combatants) == ["Wolf", "Krähe 1", "Krähe 2"]
    camp.close()


def test_changing_a_sheet_moves_the_derived_resources(tmp_path):
    with Campaign.open(tmp_path / "b.sqlite") as camp:
        camp.add_character("Ritter", {"vig": 10, "cla": 10, "spi": 10, "gd": 4}, ruleset="bastionland")
        camp.change("Ritter", "VIG", -3)
        camp.set_sheet("Ritter", {"vig": 12, "cla": 10, "spi": 10, "gd": 4})
        assert camp.figure("Ritter").resources["VIG"] == {"value": 9, "max": 12}   # 3 still missing
        [entry] = camp.journal(kind="bogen")
        assert entry.data["text"] == "Bogen von Ritter geändert: Vigour 10 → 12" and entry.data["text"] in TEXT
        camp.undo()
        assert camp.figure("Ritter").resources["VIG"] == {"value": 7, "max": 10}


def test_the_gm_data_block(tmp_path):
    with Campaign.open(tmp_path / "d.sqlite") as camp:
        statblocks.load(camp, SECTIONS.text)
        lines = GM_DATA.text.splitlines()
        table = run_python("\n".join(lines[:3]), {"kampagne": camp})   # up to kampagne.data("kritisch")
        assert table == {"zeilen": [[1, 50, "Streifschuss"], [51, 100, "Volltreffer"]]}
        table["zeilen"].clear()   # a copy
        assert camp.data("kritisch")["zeilen"]
        run_python(lines[3], {"kampagne": camp})
        assert camp.data("kritisch") is None and camp.encounter.data("karte") == {"breite": 12, "hoehe": 8}
        assert len(camp.journal(kind="daten")) == 3
        camp.undo()
        assert camp.data("kritisch")["zeilen"][1] == [51, 100, "Volltreffer"]
        with pytest.raises(RpgError):
            camp.set_data("kritisch", {1: "Zahl als Schlüssel"})
        with pytest.raises(RpgError, match=r"4\.000\.000 Bytes"):
            camp.set_data("gross", "x" * 4_000_001)


def test_running_an_encounter(notebook):
    notebook.ok(SQLITE.text)
    notebook.ok("%%figuren\n" + SECTIONS.text)
    notebook.ok("import rpgkernel\n" + RUN.text)
    camp = rpgkernel.session.current().campaign
    enc = camp.encounter
    # the given rolls, highest first: 17, 14, 12, 9, 8, 5
    assert camp.journal(kind="initiative")[0].data["figures"] == ["Alrik", "Hauptmann Grimm", "Goblin 1", "Bruni",
                                                                  "Goblin 2", "Goblin 3"]
    assert camp.figure("Goblin 1").resources["LP"]["value"] == 1 and enc.round == 3
    assert "liegend" not in camp.figure("Goblin 1").conditions
    kinds = [e.kind for e in camp.journal()]
    assert {"initiative", "zug", "ressource", "zustand"} <= set(kinds)
    notebook.ok("begegnung.start()")   # the alternative: rolled by the ruleset
    assert enc.round == 1


def test_out_of_the_fight(notebook):
    notebook.ok(SQLITE.text)
    notebook.ok("%%figuren\n" + SECTIONS.text)
    notebook.ok("import rpgkernel\n" + RUN.text)
    camp = rpgkernel.session.current().campaign
    enc = camp.encounter
    lines = OUT_OF_FIGHT.text.splitlines()
    notebook.ok(lines[0])
    assert camp.figure("Goblin 1").resources["LP"]["value"] == 0 and "1 → 0 LP" in lines[0]
    notebook.ok(lines[1])
    assert notebook.value == {"Goblin 1": "kampfunfähig (LP 0)"} and repr(notebook.value) in lines[1]
    turns = [notebook.ok(lines[2]) and notebook.value for _ in range(len(enc.order))]
    assert "Goblin 1" not in turns and set(turns) == set(enc.order) - {"Goblin 1"}
    notebook.ok(lines[3])
    assert notebook.value is True
    notebook.ok(lines[4])
    assert enc.skip_out is False and camp.journal(kind="einstellung")[-1].data["text"] == (
        "Hinterhalt: Teilnehmer außer Gefecht überspringen – nein")
    assert "Goblin 1" in [enc.next_turn() for _ in range(len(enc.order))]
    for _ in range(len(enc.order) + 1):                             # those turns and the switch
        camp.undo()
    assert enc.skip_out is True
    camp.change("Goblin 1", "LP", 6, "Heiltrank")                 # healed: back in the fight
    assert enc.out_of_fight() == {} and "Goblin 1" in [enc.next_turn() for _ in range(len(enc.order))]
    for name in enc.order:
        camp.change(name, "LP", -50)
    with pytest.raises(RpgError, match="^In der Begegnung 'Hinterhalt' kann niemand mehr handeln"):
        enc.next_turn()
    assert "Sind alle Teilnehmer außer Gefecht, sagt `next_turn` das auf Deutsch und ändert nichts" in TEXT


def test_out_of_the_fight_marked_behind_the_name(notebook):
    notebook.ok(SQLITE.text)
    notebook.ok("%%figuren\n" + SECTIONS.text)
    notebook.ok("import rpgkernel\n" + RUN.text)
    notebook.ok(OUT_OF_FIGHT.text)
    [shown] = notebook.ok(OUT_OF_FIGHT_MAGIC.text)                 # where the page's example left the fight
    assert_shown(OUT_OF_FIGHT_SHOWN.text, shown)
    html = notebook.shell.display_formatter.format(notebook.value)[0]["text/html"]
    assert "Goblin 1 (außer Gefecht: kampfunfähig (LP 0))</td>" in html
    camp = rpgkernel.session.current().campaign
    camp.change("Goblin 1", "LP", 6, "Heiltrank")                 # healed: the mark is gone
    [shown] = notebook.ok(OUT_OF_FIGHT_MAGIC.text)
    assert "außer Gefecht" not in shown and "Goblin 1" in shown.splitlines()[-1]


def test_undo_redo_and_the_journal_magics(notebook):
    notebook.ok(SQLITE.text)
    notebook.ok("%%figuren\n" + SECTIONS.text)
    camp = rpgkernel.session.current().campaign
    camp.change("Goblin 1", "LP", -2)
    for line in ("%rpg rückgängig", "%rpg wiederholen", "%rpg undo", "%rpg redo", "%rpg journal 5",
                 "%rpg journal --art ressource", "%rpg journal --figur Alrik", "%rpg journal --begegnung Hinterhalt",
                 "%rpg journal --art RESSOURCE"):
        notebook.ok(line)
    assert camp.figure("Goblin 1").resources["LP"]["value"] == 4
    [error] = notebook.run("%rpg journal --art wurff")
    assert "Meinten Sie 'wurf'?" in error and "(`--art wurff`: „Meinten Sie 'wurf'?“)" in TEXT
    listed = TEXT.split("Arten im Journal")[1].split("Eine unbekannte Art")[0]
    for word in journal_kinds().values():
        assert f"`{word}`" in listed, word


def test_the_journal_and_export_block(notebook, tmp_path):
    notebook.ok(SQLITE.text)
    notebook.ok("import rpgkernel\nkampagne = rpgkernel.session.current().campaign")
    notebook.ok("%roll --würfel 6,2,5 3W6")
    notebook.ok("%roll --vorschau 3W6")   # a preview is no roll
    notebook.ok(JOURNAL.text)
    [line] = (tmp_path / "wuerfe.jsonl").read_text(encoding="utf-8").splitlines()
    entry = json.loads(line)
    assert set(entry) == {"seq", "at", "tx", "kind", "data"} and entry["data"]["roll"]["total"] == 13
    assert len(notebook.ns["journal"].to_dataframe()) == 1
    with Campaign.open(tmp_path / "kopie.sqlite") as copy:
        assert [e.kind for e in copy.journal()] == [e.kind for e in notebook.ns["kampagne"].journal()]


def test_the_dice_check(notebook):
    """The page's lines run, its output is the magic's for Alrik's loaded W6, its Python block gives the
    same test, and its numbers are the code's."""
    notebook.ok(SQLITE.text)
    notebook.ok("%%figuren\n" + SECTIONS.text)
    notebook.ok("import rpgkernel\nkampagne = rpgkernel.session.current().campaign")
    camp = notebook.ns["kampagne"]
    faces = [1] * 4 + [2] * 6 + [3] * 5 + [4] * 7 + [5] * 8 + [6] * 30
    camp.log_rolls(rpgkernel.roll_many("W6", 60, dice=faces), figure="Alrik")   # as Alrik's page writes them
    notebook.ok("%roll --würfel 20,3 2W20")
    shown = {line: notebook.ok(line)[0] for line in DICE_CHECK_LINES.lines}
    assert all(text.startswith("Würfelcheck: echte Würfel gegen faire Würfel") for text in shown.values())
    assert all("Spielleitung, W20: 2 Würfe" in text for line, text in shown.items() if "Alrik" not in line)
    assert_shown(DICE_CHECK_SHOWN.text, shown["%rpg würfelcheck --figur Alrik"])
    test = run_python(DICE_CHECK.text, notebook.ns)
    assert test == ((4, 6, 5, 7, 8, 30), 60, pytest.approx(49.0), 5, notebook.ns["test"].p, "auffällig: p < 0,01 %")
    assert [(x.who, x.sides) for x in camp.dice_check().tests] == [("Spielleitung", 20), ("Alrik", 6)]
    assert f"p unter {round(dicecheck.NOTABLE * 100)} %" in TEXT and f"weniger als {dicecheck.MIN_EXPECTED} Würfe" in TEXT
    assert all(f"{dicecheck.MIN_EXPECTED * sides} {name}" in TEXT for sides, name in
               ((6, "Würfen eines W6"), (20, "eines W20"), (100, "eines W%")))


def test_reading_only(notebook, tmp_path):
    with Campaign.open(tmp_path / "kampagne.sqlite") as camp:
        camp.add_character("Alrik", resources={"LP": 14})
    [status] = notebook.ok(READ_ONLY_MAGIC.text)
    assert "(nur zum Lesen)" in status
    [error] = notebook.run("%%figuren\n- name: Bruni\n")
    assert error.startswith("Fehler: ")
    notebook.ok("%roll 3W6")
    camp = run_python(READ_ONLY.text + "kampagne", {"rpgkernel": rpgkernel})
    assert camp.read_only and len(camp.journal(kind="wurf")) == 0 and set(camp.characters) == {"Alrik"}
    with pytest.raises(RpgError):
        camp.change("Alrik", "LP", -1)
    camp.close()
    with pytest.raises(RpgError):
        Campaign.open(tmp_path / "gibtesnicht.sqlite", read_only=True)


def damage_it(path):
    """Sixty entries, the fiftieth's data no JSON."""
    with Campaign.open(path) as camp:
        camp.add_character("Ritter", resources={"LP": 100})
        for _ in range(59):
            camp.change("Ritter", "LP", -1)
    conn = sqlite3.connect(path)
    conn.execute("UPDATE rpg_events SET data = '{x' WHERE seq = 50")
    conn.commit()
    conn.close()


def test_a_damaged_campaign_says_what_and_how_to_rescue(notebook, tmp_path):
    damage_it(tmp_path / "kampagne.sqlite")
    [error] = notebook.run(SQLITE.text)
    assert_shown(DAMAGED.text, error.removeprefix("Fehler: "))
    for line in RESCUE_MAGIC.lines:
        notebook.ok(line)
    camp = rpgkernel.session.current().campaign
    assert camp.store.where == "gerettet.sqlite" and camp.figure("Ritter").resources["LP"]["value"] == 100 - 48
    rows = [json.loads(x) for x in (tmp_path / "alles.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [r["seq"] for r in rows if r.get("table") == "rpg_events" and "damage" in r] == [50]


def test_the_rescue_block(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    damage_it(tmp_path / "kampagne.sqlite")
    namespace = {"rpgkernel": rpgkernel}
    run_python(RESCUE.text, namespace)
    [damage] = namespace["alt"].damage
    assert (damage.table, damage.seq) == ("rpg_events", 50)
    namespace["alt"].close()
    with Campaign.open("gerettet.sqlite") as saved:
        assert saved.store.last_seq() == 49
    assert (tmp_path / "alles.jsonl").read_text(encoding="utf-8").count("\n") >= 60


LIMITS_EXAMPLE, LIMITS_SHOWN, BOUNDS_EXAMPLE, BOUNDS_SHOWN = PAGE.take(None, after="## Grenzen der Ressourcen", count=4)


def test_the_limits_blocks(tmp_path):
    with Campaign.open(tmp_path / "g.sqlite") as camp:
        texts = run_python(LIMITS_EXAMPLE.text, {"kampagne": camp})
        assert_shown(LIMITS_SHOWN.text, "\n".join(texts))
        assert camp.figure("Goblin").resources["LP"] == {"value": 5, "max": 5}
        assert camp.undo() == ["Goblin: LP 0 → 5 (höchstens 5)"]
        assert_shown(BOUNDS_SHOWN.text, repr(run_python(BOUNDS_EXAMPLE.text, {"kampagne": camp})))
        assert camp.data("untergrenzen") == {"TP": -10, "LP": -5} and camp.data("frei") == {"ressource": "LP"}


def test_the_limits_table_names_the_rules_the_rulesets_apply():
    from rpgkernel import rules
    from rpgkernel.rules.figure import view
    rows, section, title = {}, PAGE.text.split("## Grenzen der Ressourcen")[1].split("\n## ")[0], ""
    for line in [x for x in section.splitlines() if x.startswith("|")][2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        title = cells[0] or title      # a row without a ruleset continues the one above
        rows.setdefault(title, []).append(cells[1:])
    assert set(rows) >= {"Mythic Bastionland", "AdZ", "Midgard", "OSR", "Kampfwerte"}
    for title, key, resource in [("Mythic Bastionland", "bastionland", "VIG"), ("Mythic Bastionland", "bastionland", "GD"),
                                 ("AdZ", "adz", "geistig"), ("AdZ", "adz", "Glückspool"), ("Midgard", "midgard", "GG"),
                                 ("Midgard", "midgard", "LP"), ("Midgard", "midgard", "AP"), ("OSR", "osr", "TP"), ("Kampfwerte", "kampfwerte", "AD"),
                                 ("Kampfwerte", "kampfwerte", "BP"), ("Kampfwerte", "kampfwerte", "LP")]:
        lim = rules.get(key).sheet.limits(view({"name": "A", "resources": {resource: {"value": 3, "max": 7}}}), resource, {})
        [row] = [r for r in rows[title] if resource in r[0]]
        rule = lim.low_rule if lim.low_rule != rules.limits.untergrenze(resource, {})[1] else "–"
        assert rule.split(":")[0] in row[2] and (lim.high is None) == ("ohne Obergrenze" in row[1]), (key, resource)
