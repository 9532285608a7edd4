"""The campaign magics in a real IPython shell: %rpg --kampagne, undo, redo, journal, %%figuren, logged rolls."""

import pytest
from IPython.utils.capture import capture_output

import rpgkernel
from rpgkernel import Campaign, session
from rpgkernel.render import Notice
from rpgkernel.statblocks import Loaded
from rpgkernel.state import Journal

FIGUREN = """\
%%figuren
figuren:
  - name: Alrik
    ressourcen: {LP: 12}
begegnung:
  name: Hinterhalt
  teilnehmer:
    - figur: Alrik
      seite: Helden
    - name: Goblin
      anzahl: 2
      ressourcen: {LP: 5}
"""




@pytest.fixture(autouse=True)
def fresh_session():
    session._current = None
    yield
    session.current().close_campaign()
    session._current = None


@pytest.fixture
def path(tmp_path):
    return tmp_path / "kampagne.sqlite"


def run(shell, source):
    """Run a cell; return (result, captured output). Every cell must run without a traceback."""
    with capture_output() as out:
        result = shell.run_cell(source)
    assert result.success and result.error_in_exec is None, out.stdout + out.stderr
    assert "Traceback" not in out.stdout + out.stderr
    return result, out


def error_box(shell, source) -> str:
    """The text of the German error box a cell shows instead of a traceback."""
    _, out = run(shell, source)
    [shown] = out.outputs
    text = shown.data["text/plain"]
    assert text.startswith("Fehler: ")
    assert 'class="rpgk-card rpgk-error"' in shown.data["text/html"]
    return text


def test_kampagne_opens_or_creates_and_shows_where(shell, path):
    res, _ = run(shell, f"s = %rpg --kampagne {path}")
    camp = session.current().campaign
    assert isinstance(camp, Campaign) and path.exists()
    status = shell.user_ns["s"]
    assert f"Kampagne: {path}" in repr(status)
    assert str(path) in status._repr_mimebundle_()["text/html"]
    run(shell, f"%rpg --kampagne {path}")   # opening again replaces it and closes the old one
    assert session.current().campaign is not camp and camp.store.closed


def test_paths_with_spaces_in_quotes(shell, tmp_path):
    path = tmp_path / "meine kampagne.sqlite"
    run(shell, f'%rpg --kampagne "{path}"')
    assert path.exists()
    assert "nicht geschlossen" in error_box(shell, '%rpg --kampagne "offen.sqlite')


def test_ruleset_is_recorded_in_the_campaign_once(shell, path):
    run(shell, f"%rpg midgard --kampagne {path}")
    run(shell, "%rpg midgard")
    with Campaign.open(path) as other:
        assert other.ruleset == "midgard"
        assert [e.data["text"] for e in other.journal(kind="einstellung")] == ["Regelwerk: midgard"]
    run(shell, "%rpg osr --wechseln")
    assert session.current().campaign.ruleset == "osr"
    # reopening in a fresh session takes the campaign's ruleset
    session.current().close_campaign()
    session._current = None
    run(shell, f"%rpg --kampagne {path}")
    assert session.current().ruleset == "osr"


def test_figuren_creates_and_a_second_campaign_sees_it(shell, path):
    run(shell, f"%rpg --kampagne {path}")
    res, out = run(shell, FIGUREN)
    loaded = res.result
    assert isinstance(loaded, Loaded) and loaded.combatants == ("Alrik", "Goblin 1", "Goblin 2")
    with Campaign.open(path) as other:
        assert set(other.characters) == {"Alrik"}
        assert set(other.encounter.combatants) == {"Alrik", "Goblin 1", "Goblin 2"}


def test_figuren_with_encounter_option(shell, path):
    run(shell, f"%rpg --kampagne {path}")
    run(shell, '%%figuren --begegnung "Am Fluss"\n- name: Krokodil\n  ressourcen: {LP: 20}\n')
    assert list(session.current().campaign.encounters["Am Fluss"].combatants) == ["Krokodil"]
    # IPython's {var} expansion is off: braces and dollars stay as written
    shell.user_ns["x"] = "kaputt"
    run(shell, "%%figuren --begegnung {x}$x\n- name: Wolf\n")
    assert "{x}$x" in session.current().campaign.encounters


@pytest.mark.parametrize("cell, fragment", [
    ("%%figuren\n- name: Alrik\n  ressorcen: {LP: 3}\n", "Figur 1 ('Alrik'): Unbekanntes Feld 'ressorcen' – "
                                                        "meinten Sie 'ressourcen'?"),
    ("%%figuren\n- name: Alrik: der Alte\n", "YAML-Fehler in Zeile 1, Spalte 14"),
    ("%%figuren\n- name: Alrik\n- name: <b>Bruni</b>\n  ressourcen: {LP: 1e99}\n", "Figur 2 ('<b>Bruni</b>')"),
    ("%%figuren --gruppe X\n- name: Alrik\n", "Unbekannte Option '--gruppe'"),
    ("%%figuren Hinterhalt\n- name: Alrik\n", "Zu viele Angaben: Hinterhalt"),
    ("%%figuren\n# nur ein Kommentar\n", "Der Block legt nichts an"),
])
def test_figuren_errors_show_a_box_and_create_nothing(shell, path, cell, fragment):
    run(shell, f"%rpg --kampagne {path}")
    camp = session.current().campaign
    before = camp.store.last_seq()
    text = error_box(shell, cell)
    assert fragment in text
    assert camp.store.last_seq() == before and camp.characters == {}


def test_error_box_escapes_html(shell, path):
    run(shell, f"%rpg --kampagne {path}")
    _, out = run(shell, "%%figuren\n- name: <script>x</script>\n  xy: 1\n")
    [shown] = out.outputs
    assert "<script>x" not in shown.data["text/html"] and "&lt;script&gt;x" in shown.data["text/html"]


def test_figuren_without_campaign(shell):
    assert "keine Kampagne geöffnet" in error_box(shell, "%%figuren\n- name: Alrik\n")


def test_undo_and_redo_with_confirmation(shell, path):
    run(shell, f"%rpg --kampagne {path}")
    run(shell, FIGUREN)
    camp = session.current().campaign
    camp.change("Goblin 1", "LP", -3, "Schwerthieb")
    res, _ = run(shell, "n = %rpg rückgängig")
    notice = shell.user_ns["n"]
    assert isinstance(notice, Notice)
    assert repr(notice) == "Rückgängig gemacht: Goblin 1: LP 5 → 2 (Schwerthieb)"
    assert "Rückgängig gemacht" in notice._repr_mimebundle_()["text/html"]
    with Campaign.open(path) as other:
        assert other.figure("Goblin 1").resources["LP"]["value"] == 5
    run(shell, "n = %rpg wiederholen")
    assert repr(shell.user_ns["n"]) == "Wiederholt: Goblin 1: LP 5 → 2 (Schwerthieb)"
    assert camp.figure("Goblin 1").resources["LP"]["value"] == 2
    run(shell, "n = %rpg undo")
    run(shell, "n = %rpg undo")   # the whole %%figuren block in one step
    assert repr(shell.user_ns["n"]).startswith(
        "Rückgängig gemacht: Figur Alrik angelegt; Begegnung Hinterhalt angelegt; Alrik nimmt an Hinterhalt teil"
        " (und 1 weitere)")
    with Campaign.open(path) as other:
        assert other.characters == {} and other.encounter is None
    run(shell, "n = %rpg redo")
    assert set(camp.characters) == {"Alrik"}


@pytest.mark.parametrize("line, fragment", [
    ("%rpg rückgängig", "Es gibt nichts rückgängig zu machen."),
    ("%rpg wiederholen", "Es gibt nichts zu wiederholen."),
    ("%rpg undo jetzt", "Zu viele Angaben: jetzt"),
    ("%rpg journal 0", "Ungültiger Wert für journal N: '0' (eine Zahl von 1 bis 10.000)"),
    ("%rpg journal viele", "Ungültiger Wert für journal N: 'viele'"),
    ("%rpg journal 5 6", "Zu viele Angaben: 6"),
    ("%rpg journal --farbe rot", "Unbekannte Option '--farbe'"),
    ("%rpg journal --art", "Die Option --art braucht einen Wert"),
    ("%rpg midgard osr", "Zu viele Angaben: osr"),
])
def test_bad_campaign_lines_show_a_box(shell, path, line, fragment):
    run(shell, f"%rpg --kampagne {path}")
    assert fragment in error_box(shell, f"x = {line}")
    assert shell.user_ns["x"] is None


@pytest.mark.parametrize("line", ["%rpg rückgängig", "%rpg wiederholen", "%rpg journal", "%rpg würfelcheck"])
def test_campaign_commands_without_campaign(shell, line):
    assert "Es ist keine Kampagne geöffnet" in error_box(shell, line)


def test_kampagne_that_cannot_be_opened(shell, tmp_path):
    text = error_box(shell, f"%rpg --kampagne {tmp_path}/fehlt/k.sqlite")
    assert "existiert nicht" in text
    (tmp_path / "notiz.sqlite").write_text("kein SQLite")
    assert "ist keine rpgkernel-Kampagne" in error_box(shell, f"%rpg --kampagne {tmp_path}/notiz.sqlite")
    assert "Unbekannte Adresse" in error_box(shell, "%rpg --kampagne mysql://x/y")
    assert session.current().campaign is None


def test_a_bad_option_opens_nothing(shell, path):
    assert "Unbekannte Sprache" in error_box(shell, f"%rpg --kampagne {path} --sprache xx")
    assert session.current().campaign is None and not path.exists()


def test_journal_shows_the_last_entries(shell, path):
    run(shell, f"%rpg --kampagne {path} --seed 5")
    run(shell, FIGUREN)
    for _ in range(25):
        run(shell, "%roll W20")
    res, _ = run(shell, "j = %rpg journal")
    journal = shell.user_ns["j"]
    assert isinstance(journal, Journal) and len(journal) == 20
    assert all(e.kind == "wurf" for e in journal)
    bundle = journal._repr_mimebundle_()
    assert bundle["text/plain"].count("\n") == 20 and "<table" in bundle["text/html"]   # a header and 20 rows
    run(shell, "j = %rpg journal 3")
    assert len(shell.user_ns["j"]) == 3 and shell.user_ns["j"][-1].seq == journal[-1].seq
    run(shell, "j = %rpg journal 100 --art kampfteilnehmer")
    assert [e.data["figures"] for e in shell.user_ns["j"]] == [["Alrik"], ["Goblin 1", "Goblin 2"]]
    run(shell, '%rpg journal --figur "Goblin 2"')
    run(shell, 'j = %rpg journal --figur "Goblin 2"')
    assert [e.kind for e in shell.user_ns["j"]] == ["kampfteilnehmer"]
    run(shell, "j = %rpg journal --begegnung Hinterhalt --art begegnung")
    assert [e.data["text"] for e in shell.user_ns["j"]] == ["Begegnung Hinterhalt angelegt"]
    run(shell, "j = %rpg journal --figur Alrik --art zug")
    assert repr(shell.user_ns["j"]) == "Keine passenden Einträge im Journal (--art zug, --figur Alrik)."


def test_the_dice_check_tests_the_real_dice_of_the_journal(shell, path):
    run(shell, f"%rpg --kampagne {path}")
    run(shell, FIGUREN)
    run(shell, "%roll --würfel " + ",".join(["1", "2", "3", "4", "5", "6"] * 5) + " 30W6")
    run(shell, "%roll --würfel 20 W20")
    run(shell, "%roll W20")   # random dice: not counted
    session.current().campaign.log_roll(rpgkernel.roll("W20", dice=[3]), figure="Alrik")   # as a player's page
    run(shell, "c = %rpg würfelcheck")
    check = shell.user_ns["c"]
    assert [(x.who, x.sides, x.throws) for x in check.tests] == [("Spielleitung", 6, 30), ("Spielleitung", 20, 1),
                                                                ("Alrik", 20, 1)]
    text, html = (check._repr_mimebundle_()[k] for k in ("text/plain", "text/html"))
    assert text.startswith("Würfelcheck: echte Würfel gegen faire Würfel\n\nSpielleitung, W6: 30 Würfe")
    assert "  kein Hinweis auf einen unfairen Würfel (p = > 99,99 %)" not in text and "p > 99,99 %" in text
    assert html.count("<svg ") == 3
    run(shell, "c = %rpg würfelcheck --figur Alrik --würfel w20")
    assert [(x.who, x.sides, x.counts[2]) for x in shell.user_ns["c"].tests] == [("Alrik", 20, 1)]
    run(shell, "c = %rpg wuerfelcheck --begegnung Hinterhalt --figur Spielleitung --würfel 6")
    assert [(x.who, x.sides) for x in shell.user_ns["c"].tests] == [("Spielleitung", 6)]
    run(shell, "c = %rpg dicecheck --würfel=W%")
    assert repr(shell.user_ns["c"]) == "Im Journal stehen keine passenden echten Würfel (W100)."


@pytest.mark.parametrize("line, fragment", [
    ("%rpg würfelcheck --figur Alirk", "Unbekannte Figur 'Alirk'. Meinten Sie 'Alrik'?"),
    ("%rpg würfelcheck --begegnung Hinterhallt", "Unbekannte Begegnung 'Hinterhallt'. Meinten Sie 'Hinterhalt'?"),
    ("%rpg würfelcheck --würfel sechs", "Ungültiger Wert für --würfel: 'sechs' (ein Würfel wie W6 oder W20)."),
    ("%rpg würfelcheck --würfel W1", "Ungültige Würfelgröße 'W1': gemeint ist ein Würfel von W2 bis W10.000"),
    ("%rpg würfelcheck Alrik", "Zu viele Angaben: Alrik."),
    ("%rpg würfelcheck --figur", "Die Option --figur braucht einen Wert"),
    ("%rpg würfelchek", "Meinten Sie 'würfelcheck'?"),
    ("%rpg würfelcheck --wüfel W6", "Unbekannte Option '--wüfel'.\nMeinten Sie '--würfel'?"),
])
def test_bad_dice_check_lines_show_a_box(shell, path, line, fragment):
    run(shell, f"%rpg --kampagne {path}")
    run(shell, FIGUREN)
    assert fragment in error_box(shell, f"x = {line}")
    assert shell.user_ns["x"] is None


def test_rolls_are_logged_but_not_previews(shell, path):
    run(shell, f"%rpg --kampagne {path}")
    camp = session.current().campaign
    run(shell, "r = %roll --würfel 6,2,5 3W6")
    run(shell, "%roll --vorschau 3W6")
    run(shell, "%roll 3X6")                   # an error box, nothing logged
    run(shell, "rs = %roll -n 3 --seed 2 W6")
    rolls = camp.journal(kind="wurf")
    assert [e.data["roll"]["total"] for e in rolls] == [13] + [r.total for r in shell.user_ns["rs"]]
    assert rolls[0].data["text"] == str(shell.user_ns["r"]) and rolls[0].data["roll"]["given"] is True
    assert len({e.tx for e in rolls[1:]}) == 1   # the rolls of -n in one transaction
    run(shell, FIGUREN)
    run(shell, "%roll W20")
    assert camp.journal(kind="wurf")[-1].data["encounter"] == "Hinterhalt"
    with Campaign.open(path) as other:
        assert len(other.journal(kind="wurf")) == 5


def test_a_damaged_campaign_read_only_and_rescued_from_the_magic(shell, path, tmp_path):
    """%rpg --kampagne names the damage; --nur-lesen shows the intact part; --exportieren rescues it."""
    import sqlite3
    run(shell, f"%rpg --kampagne {path}")
    run(shell, FIGUREN)
    for _ in range(3):
        session.current().campaign.change("Alrik", "LP", -1)
    total = session.current().campaign.store.last_seq()
    session.current().close_campaign()
    conn = sqlite3.connect(path)
    conn.execute("DELETE FROM rpg_events WHERE seq = 3")
    conn.commit()
    conn.close()
    text = error_box(shell, f"%rpg --kampagne {path}")
    assert "ist beschädigt: Eintrag Nr. 3 (Tabelle rpg_events): nicht vorhanden" in text
    assert f"%rpg --kampagne {path} --nur-lesen" in text and session.current().campaign is None
    run(shell, f"s = %rpg osr --kampagne {path} --nur-lesen")
    status = repr(shell.user_ns["s"])
    assert f"Kampagne: {path} (nur zum Lesen)" in status and "Schäden: Eintrag Nr. 3 (Tabelle rpg_events)" in status
    camp = session.current().campaign
    assert camp.read_only and camp.state["seq"] == 2 and camp.ruleset is None  # osr is the session's only
    run(shell, "%roll W20")  # rolled, not journalled
    assert "nur zum Lesen" in error_box(shell, "%rpg rückgängig")
    run(shell, "j = %rpg journal")
    assert [e.seq for e in shell.user_ns["j"]] == [1, 2, *range(4, total + 1)]  # every readable entry
    rescued = tmp_path / "gerettet.sqlite"
    run(shell, f"n = %rpg --kampagne {path} --nur-lesen --exportieren {rescued}")
    notice = repr(shell.user_ns["n"])
    assert isinstance(shell.user_ns["n"], Notice) and f"Exportiert nach {rescued}: 2 Einträge." in notice
    assert f"Nr. 3 bis {total}" in notice and f"Weiterspielen: %rpg --kampagne {rescued}" in notice
    run(shell, f"%rpg --kampagne {rescued}")
    assert session.current().campaign.state["seq"] == 2 and not session.current().campaign.damage
    assert "--nur-lesen gilt für die Kampagne" in error_box(shell, "%rpg --nur-lesen")


@pytest.mark.parametrize("line, hint", [
    ("%rpg kampagne {path}", "%rpg --kampagne {path}"),
    ("%rpg {path}", "%rpg --kampagne {path}"),
    ("%rpg midgard kampagne", "%rpg --kampagne DATEI_ODER_URL"),
])
def test_a_campaign_named_without_the_option_gets_a_hint(shell, path, line, hint):
    text = error_box(shell, line.format(path=path))
    assert "öffnet die Option --kampagne (mit zwei Strichen davor)" in text and hint.format(path=path) in text
    assert session.current().campaign is None and not path.exists()


def test_rolls_without_campaign_are_not_logged(shell, path):
    run(shell, "%roll W20")
    run(shell, f"%rpg --kampagne {path}")
    assert len(session.current().campaign.journal()) == 0


def test_help_names_the_campaign_commands(shell):
    rpg = shell.magics_manager.magics["line"]["rpg"].__doc__
    for word in ("--kampagne", "--wechseln", "rückgängig", "wiederholen", "journal", "--art", "--figur",
                 "--begegnung"):
        assert word in rpg
    figuren = shell.magics_manager.magics["cell"]["figuren"].__doc__
    for word in ("--begegnung", "figuren:", "begegnung:", "teilnehmer:", "anzahl", "zustände", "docs/kampagne.md"):
        assert word in figuren


def test_unload_removes_the_cell_magic(shell):
    shell.run_line_magic("unload_ext", "rpgkernel")
    assert "figuren" not in shell.magics_manager.magics["cell"]
    shell.run_line_magic("load_ext", "rpgkernel")
    assert "figuren" in shell.magics_manager.magics["cell"]


def test_shared_campaign_over_postgres(shell, pg_cluster):
    url = pg_cluster.new_database()
    run(shell, f"s = %rpg --kampagne {url}")
    assert pg_cluster.password not in repr(shell.user_ns["s"])
    run(shell, FIGUREN)
    run(shell, "%roll --würfel 4 W6")
    with rpgkernel.Campaign.open(url) as other:
        assert set(other.encounter.combatants) == {"Alrik", "Goblin 1", "Goblin 2"}
        other.change("Alrik", "LP", -4)
    run(shell, "n = %rpg rückgängig")
    assert repr(shell.user_ns["n"]) == "Rückgängig gemacht: Alrik: LP 12 → 8"
    run(shell, "j = %rpg journal 2")
    assert [e.kind for e in shell.user_ns["j"]] == ["ressource", "rückgängig"]


def test_readme_campaign_section_runs(shell, tmp_path, monkeypatch):
    """The README's campaign walkthrough, block by block (except the server address), shows no error."""
    import re
    from pathlib import Path
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Kampagne und Journal", 1)[1].split("\n## ", 1)[0]
    blocks = [b for b in re.findall(r"```(?:python)?\n(.*?)```", section, re.S) if "postgresql://" not in b]
    assert len(blocks) == 8
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "runtime"))   # the player link's registry
    for block in blocks:
        block = block.strip()
        cells = [block] if not block.startswith("%rpg") else [line.strip() for line in block.splitlines()]
        for cell in cells:
            res, out = run(shell, cell)
            for shown in out.outputs:
                assert not shown.data["text/plain"].startswith("Fehler"), (cell, shown.data["text/plain"])
    camp = session.current().campaign
    assert (tmp_path / "kampagne.sqlite").exists() and (tmp_path / "journal.jsonl").exists()
    fallen = camp.figure("Goblin 1").resources["LP"]["value"] <= 0   # W6+1 damage against 6 LP: out of the fight
    assert camp.encounter.current == ("Bruni" if fallen else "Goblin 1") and camp.ruleset == "midgard"
    assert ("Goblin 1 – oder Bruni, wenn der Goblin bei 0 LP außer Gefecht ist") in readme
    assert camp.data("binder")["spec"] == "gh/meine-runde/kampagne"
    assert [link["figure"] for link in camp.player_links()] == ["Alrik"]
    assert len(shell.user_ns["tabelle"]) == len(camp.journal(kind=None)) - 2  # the link and the binder setting came later


# -- the journal in German words, with aligned columns ------------------------------------------
BASTION = """\
%%figuren
figuren:
  - name: Ritter
    werte: {vig: 12, cla: 10, spi: 10, gd: 4, waffen: ["Langschwert (W8)"]}
begegnung:
  name: Furt 渡し
  teilnehmer:
    - figur: Ritter
    - name: Zoe\u0308
      werte: {vig: 10, cla: 8, spi: 8, gd: 3}
"""


def columns(text: str) -> int:
    """Display columns of ``text`` in a terminal (wide characters two, combining marks none)."""
    import unicodedata
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def test_journal_kinds_show_as_german_words(shell, path):
    run(shell, f"%rpg bastionland --kampagne {path}")
    run(shell, BASTION)
    run(shell, "%%resolve --würfel 3\nprobe Ritter virtue=vig")
    run(shell, "%roll --würfel 4 W6")
    session.current().campaign.change("Ritter", "GD", -1)
    run(shell, "%rpg rückgängig")
    res, _ = run(shell, "j = %rpg journal")
    journal = shell.user_ns["j"]
    assert [e.kind for e in journal] == ["einstellung", "figur", "begegnung", "kampfteilnehmer", "kampfteilnehmer",
                                         "auflösung", "wurf", "ressource", "rückgängig"]
    words = ["Einstellung", "Figur", "Begegnung", "Teilnehmer", "Teilnehmer", "Auflösung", "Wurf", "Ressource",
             "Rückgängig"]
    rows = repr(journal).splitlines()[1:]
    assert [row.split()[1] for row in rows] == words
    html = journal._repr_mimebundle_()["text/html"]
    for word in words:
        assert f'<td style="text-align:left">{word}</td>' in html
    for key in ("auflösung", "kampfteilnehmer", "einstellung"):
        assert f">{key}<" not in html
    undone, undo = journal[-2].data, journal[-1].data      # the undo says what it undid, and where
    assert undo["text"] == "rückgängig: " + undone["text"] and undone["text"].startswith("Ritter")
    assert (undo["figures"], undo["encounter"]) == (undone["figures"], undone["encounter"]) == (["Ritter"], "Furt 渡し")


def test_journal_columns_line_up_by_display_width(shell, path):
    run(shell, f"%rpg bastionland --kampagne {path}")
    run(shell, BASTION)
    run(shell, "%roll --würfel 4 W6")
    journal = session.current().campaign.journal()
    header, *rows = repr(journal).splitlines()
    starts = [columns(header[:header.index(word)]) for word in ("Art", "Begegnung", "Eintrag")]
    assert header.startswith("Nr.")
    for event, row in zip(journal, rows):
        text = event.data["text"]
        assert columns(row[:row.index(text)]) == starts[2], row
        assert row[:columns(header[:header.index("Art")])].strip() == str(event.seq)
        encounter = event.data.get("encounter")
        if encounter:
            assert columns(row[:row.index(encounter, 6)]) == starts[1], row
    assert any("Zoe\u0308" in row for row in rows) and any("Furt 渡し" in row for row in rows)


def test_journal_html_headers_align_like_their_cells(shell, path):
    import re
    run(shell, f"%rpg bastionland --kampagne {path}")
    run(shell, BASTION)
    html = session.current().campaign.journal()._repr_mimebundle_()["text/html"]
    head, *rows = re.findall(r"<tr>(.*?)</tr>", html)
    head_styles = re.findall(r"<th([^>]*)>", head)
    assert len(head_styles) == 4
    for row in rows:
        assert re.findall(r"<td([^>]*)>", row) == head_styles


# -- an existing campaign's ruleset changes only on purpose --------------------------------------
def test_a_campaign_keeps_its_ruleset_unless_switched(shell, path):
    run(shell, f"%rpg bastionland --kampagne {path}")
    run(shell, BASTION)
    camp = session.current().campaign
    text = error_box(shell, "x = %rpg midgard")
    for part in ("Die Kampagne", str(path), "Mythic Bastionland (bastionland)", "die Figuren Ritter, Zoe\u0308",
                 "Das Regelwerk bleibt bastionland", "%rpg midgard --wechseln"):
        assert part in text, part
    assert shell.user_ns["x"] is None
    assert camp.ruleset == "bastionland" and session.current().ruleset == "bastionland"
    assert [e.data["text"] for e in camp.journal(kind="einstellung")] == ["Regelwerk: bastionland"]
    run(shell, "s = %rpg midgard --wechseln")
    assert camp.ruleset == "midgard" and session.current().ruleset == "midgard"
    assert "Regelwerk: midgard" in repr(shell.user_ns["s"])
    assert camp.figure("Ritter").ruleset == "bastionland"   # the figures keep their sheets
    run(shell, "%rpg midgard")   # the same ruleset again: nothing to ask
    assert len(camp.journal(kind="einstellung")) == 2


def test_opening_a_campaign_with_another_ruleset_keeps_it(shell, path):
    with Campaign.open(path) as other:
        other.set_ruleset("osr")
    run(shell, "%rpg midgard")
    assert session.current().ruleset == "midgard"       # no campaign yet: the session's choice
    assert "Regelwerk bleibt osr" in error_box(shell, f"%rpg midgard --kampagne {path}")
    assert session.current().campaign.ruleset == "osr" and session.current().ruleset == "osr"
    assert "noch keine Figuren" in error_box(shell, "%rpg adz")


def test_a_campaign_without_ruleset_takes_one_silently(shell, path):
    run(shell, f"%rpg --kampagne {path}")
    run(shell, FIGUREN)
    _, out = run(shell, "s = %rpg midgard")
    assert not out.outputs and session.current().campaign.ruleset == "midgard"


def test_switch_needs_a_ruleset(shell, path):
    run(shell, f"%rpg osr --kampagne {path}")
    assert "--wechseln braucht das neue Regelwerk" in error_box(shell, "%rpg --wechseln")
    assert session.current().campaign.ruleset == "osr"


# -- typos get a suggestion, across subcommands, rulesets, kinds, names, languages, options -------
@pytest.mark.parametrize("line, fragments", [
    ("%rpg rückgänig", ["Unbekanntes Regelwerk oder unbekannter Befehl 'rückgänig'", "Meinten Sie 'rückgängig'?",
                        "Befehle: rückgängig, wiederholen, journal, binder, teilen"]),
    ("%rpg wiederholn", ["Meinten Sie 'wiederholen'?"]),
    ("%rpg journl 5", ["Meinten Sie 'journal'?"]),
    ("%rpg Journl --art wurf", ["Meinten Sie 'journal'?"]),
    ("%rpg teilne Alrik", ["Meinten Sie 'teilen'?"]),
    ("%rpg bindr gruppe/kampagne", ["Meinten Sie 'binder'?"]),
    ("%rpg midgrd --seed 3", ["Meinten Sie 'midgard'?", "Regelwerke: adz, bastionland"]),
    ("%rpg --seed 3 bastionlnd", ["Meinten Sie 'bastionland'?"]),
    ("%rpg journal --art wurff", ["Unbekannte Art 'wurff' im Journal", "Bekannt sind: Wurf, Figur, Begegnung,",
                                  "Meinten Sie 'wurf'?"]),
    ("%rpg journal --art kampfteilnehmr", ["Meinten Sie 'kampfteilnehmer'?"]),
    ("%rpg journal --art Auflösng", ["Meinten Sie 'auflösung'?"]),
    ("%rpg journal --figur Alirk", ["Unbekannte Figur 'Alirk'.\nMeinten Sie 'Alrik'?"]),
    ('%rpg journal --figur "Goblin 3"', ["Unbekannte Figur 'Goblin 3'"]),
    ("%rpg journal --begegnung Hinterhallt", ["Unbekannte Begegnung 'Hinterhallt'.\nMeinten Sie 'Hinterhalt'?"]),
    ("%rpg --sprache dee", ["Unbekannte Sprache 'dee'", "Meinten Sie 'de'?"]),
    ("%rpg --kampange neu.sqlite", ["Unbekannte Option '--kampange'", "Meinten Sie '--kampagne'?"]),
    ("%rpg journal --atr wurf", ["Unbekannte Option '--atr'", "Meinten Sie '--art'?"]),
])
def test_typos_get_a_suggestion(shell, path, line, fragments):
    run(shell, f"%rpg --kampagne {path}")
    run(shell, FIGUREN)
    before = session.current().campaign.store.last_seq()
    text = error_box(shell, f"x = {line}")
    for fragment in fragments:
        assert fragment in text, (fragment, text)
    assert shell.user_ns["x"] is None and session.current().campaign.store.last_seq() == before


@pytest.mark.parametrize("spelling", ["Teilnehmer", "teilnehmer", "TEILNEHMER", "kampfteilnehmer"])
def test_journal_kinds_by_word_or_key(shell, path, spelling):
    run(shell, f"%rpg --kampagne {path}")
    run(shell, FIGUREN)
    run(shell, f"j = %rpg journal --art {spelling}")
    assert [e.kind for e in shell.user_ns["j"]] == ["kampfteilnehmer", "kampfteilnehmer"]


def test_umlauts_may_be_written_out(shell, path):
    run(shell, f"%rpg osr --kampagne {path}")
    run(shell, FIGUREN)
    run(shell, "%rpg rueckgaengig")
    run(shell, "j = %rpg journal --art Rueckgaengig")
    assert [e.kind for e in shell.user_ns["j"]] == ["rückgängig"]
    run(shell, "%rpg --sprache DE")


@pytest.mark.parametrize("line", ["%rpg kampagne.sqlite", "%rpg postgresql://rpg:geheim@server/runde",
                                  "%rpg rpg:geheim@server/runde", "%rpg ./k.sqlite", "%rpg C:\\kampagnen\\k.sqlite"])
def test_a_bare_place_is_not_echoed_and_says_how_to_open(shell, line):
    text = error_box(shell, line)
    assert "%rpg --kampagne " in text and "geheim" not in text
