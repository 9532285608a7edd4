"""Player notebooks and Binder links: %rpg binder, %rpg teilen, and the notebook a player runs.

Player notebooks are checked over generated figures of every ruleset (sheets of the ruleset's
fields with booleans, quotes, unicode, long and hostile text; lowered resources; conditions):
many for the data's round trip through the written file, a few run in a real kernel.
"""

import json
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import unquote

import nbformat
import pytest
from hypothesis import HealthCheck, example, given, reject, settings
from hypothesis import strategies as st
from IPython.core.inputtransformer2 import TransformerManager
from IPython.utils.capture import capture_output
from nbclient import NotebookClient

from rpgkernel import Campaign, rules, session
from rpgkernel.errors import RpgError
from rpgkernel.render import Notice
from rpgkernel.rules.sheet import MAX_NUMBER, MAX_TEXT
from rpgkernel.sharing import (Binder, Shared, configure, configured, figure_of, file_name, player_notebook, share, snapshot,
                               take_figure)
from rpgkernel.state.transaction import MAX_NAME

RITTER = {"vig": 12, "cla": 10, "spi": 8, "gd": 4, "spielfigur": True}
CODE_LINES = 8   # no code cell of a player notebook is longer: the figure is data, not code

# -- generated figures ------------------------------------------------------------------------------

HOSTILE = ['"', "'", '"""', "'''", "\\", "\\n", "{x}", "{{", "$x$", "@", "%", "#", "<script>alert(1)</script>",
           "</textarea>", "&amp;", "`", "*", "_", "[a](b)", "\u2028", "\u00a0", "\u200b", "ß", "Ä", "€", "🎲",
           "null", "true", "None", "\r\n", "\t", "\x00"]
_PIECES = st.one_of(st.text(max_size=20), st.sampled_from(HOSTILE))
texts = st.lists(_PIECES, max_size=6).map("".join).filter(lambda x: len(x) <= MAX_TEXT)
long_texts = st.one_of(texts, st.builds(lambda a, n: ((a or "x") * n)[:n], texts, st.integers(MAX_TEXT - 20, MAX_TEXT)))
_NAME_PIECES = st.one_of(st.text(st.characters(blacklist_categories=["Cc", "Cs"]), max_size=12),
                         st.sampled_from([x for x in HOSTILE if not any(ord(c) < 32 for c in x)]))
names = st.lists(_NAME_PIECES, min_size=1, max_size=5).map("".join).map(str.strip) \
    .filter(lambda n: 0 < len(n) <= MAX_NAME)

#: list fields whose entries the ruleset reads (AdZ's entries, Midgard's weapons and skills): valid entries
ENTRIES = {
    ("adz", "fertigkeiten"): ["Schwerter 6", "Klettern 4", "Äxte 5"],
    ("adz", "magiebereiche"): ["Feuer 5", "Licht 3"],
    ("adz", "spezialisierungen"): ["Parade 2"],
    ("adz", "foki"): ["Flammen 2"],
    ("adz", "waffen"): ["Langschwert (Schwerter, KK, GS 5)", "Axt (Äxte, KK, GS 6, VM -1)"],
    ("adz", "ausruestung"): ["Kettenhemd (RS 2, WB 1, AM 1)", "Lederrüstung (RS 1)"],
    ("midgard", "waffen"): ["Langschwert +10 (W6+2)", "Dolch +7 (W6)"],
    ("midgard", "fertigkeiten"): ["Balancieren +12", "Klettern +10"],
}


def field_values(ruleset, name, spec):
    if spec.choices:
        return st.sampled_from(spec.choices)
    if spec.kind == "int":
        return st.integers(-MAX_NUMBER if spec.minimum is None else spec.minimum,
                           MAX_NUMBER if spec.maximum is None else spec.maximum)
    if spec.kind == "bool":
        return st.booleans()
    if spec.kind == "text":
        return long_texts
    entries = ENTRIES.get((ruleset, name))
    return st.lists(texts if entries is None else st.sampled_from(entries), max_size=4, unique=True)


@st.composite
def sheets(draw, ruleset):
    """A sheet of the ruleset's fields: the required ones, some others (an open sheet: fields of its own)."""
    sheet = rules.get(ruleset).sheet
    out = {}
    for name, spec in sheet.fields.items():
        if spec.required or draw(st.booleans()):
            out[name] = draw(field_values(ruleset, name, spec))
    if sheet.open:
        own = st.one_of(st.booleans(), st.integers(-MAX_NUMBER, MAX_NUMBER), long_texts, st.lists(texts, max_size=3))
        out.update(draw(st.dictionaries(names, own, max_size=4)))
    return out


@st.composite
def figures(draw):
    """(ruleset, name, sheet, damage per resource, conditions) of one character."""
    ruleset = draw(st.sampled_from([*rules.rulesets(), None]))
    sheet = draw(sheets(ruleset))
    try:
        checked = rules.get(ruleset).sheet.validate(sheet)
    except RpgError:   # a combination the ruleset refuses (e.g. an AdZ pool over its limit): another one
        reject()
    damage = {k: draw(st.integers(0, 3)) for k in rules.get(ruleset).sheet.resources(checked, {})}
    conditions = draw(st.dictionaries(names, st.one_of(st.just({}), st.fixed_dictionaries({
        "runden": st.integers(1, 9), "endet": st.sampled_from(["rundenbeginn", "rundenende", "zugbeginn", "zugende"])})),
        max_size=3))
    return ruleset, draw(names), sheet, damage, conditions


def gm_campaign(folder: Path, figure) -> Campaign:
    """The GM's campaign with the figure: its sheet, lowered resources, conditions."""
    ruleset, name, sheet, damage, conditions = figure
    camp = Campaign.open(folder / "gm.sqlite")
    camp.set_ruleset(ruleset)
    camp.add_character(name, sheet)
    for key, n in damage.items():
        if n:
            camp.change(name, key, -n)
    for cname, spec in conditions.items():
        camp.add_condition(name, cname, rounds=spec.get("runden"), ends=spec.get("endet", "zugende"))
    return camp


RITTER_FIGURE = ("bastionland", "Sir Übel", RITTER, {"VIG": 3}, {"erschöpft": {"runden": 2, "endet": "zugende"}})
HOSTILE_FIGURE = (None, "\"); import os #\\'", {"notiz": '"""\n}\'; raise SystemExit #', "wahr": True, "nichts": False,
                                                 "liste": ["<b>", "{{x}}", "\u2028"], "zahl": -5},
                  {}, {"<i>verflucht</i>": {}})


@pytest.fixture
def campaign(tmp_path):
    c = Campaign.open(tmp_path / "gm.sqlite")
    c.set_ruleset("bastionland")
    c.add_character("Sir Übel", RITTER)
    c.change("Sir Übel", "VIG", -3)
    c.add_condition("Sir Übel", "erschöpft", rounds=2, ends="zugende")
    yield c
    c.close()


@pytest.fixture
def ip(shell, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    session._current = None
    yield shell
    session.current().close_campaign()
    session._current = None


@pytest.mark.parametrize("repository, ref, link", [
    ("meine-gruppe/kampagne", None, "https://mybinder.org/v2/gh/meine-gruppe/kampagne/main"),
    ("https://github.com/a/b.git", "v1.0", "https://mybinder.org/v2/gh/a/b/v1.0"),
    ("gh/a/b", "feature/x", "https://mybinder.org/v2/gh/a/b/feature%2Fx"),
    ("https://gitlab.com/gruppe/sub/projekt", "main", "https://mybinder.org/v2/gl/gruppe%2Fsub%2Fprojekt/main"),
    ("https://git.example.org/runde.git", "main",
     "https://mybinder.org/v2/git/https%3A%2F%2Fgit.example.org%2Frunde.git/main"),
])
def test_binder_links_follow_binders_url_scheme(repository, ref, link):
    binder = Binder.parse(repository, ref)
    assert binder.link("spieler/Sir_Übel.ipynb") == f"{link}?urlpath=lab/tree/spieler/Sir_%C3%9Cbel.ipynb"
    assert unquote(binder.link("a b/c.ipynb").split("urlpath=")[1]) == "lab/tree/a b/c.ipynb"


@pytest.mark.parametrize("repository, ref, message", [
    ("nur-ein-name", None, "BESITZER/NAME"),
    ("ftp://x/y", None, "https-Adresse"),
    ("a/b", "zwei worte", "ohne Leerzeichen"),
])
def test_bad_binder_settings_are_refused_in_german(repository, ref, message):
    with pytest.raises(RpgError, match=message):
        Binder.parse(repository, ref)


@pytest.mark.parametrize("repository, server", [
    ("https://gm:ghp_geheim@github.com/runde/akten", None), ("https://ghp_geheim@gitlab.com/runde/akten", None),
    ("runde/akten", "https://gm:ghp_geheim@binder.example")])
def test_an_address_with_credentials_is_refused_and_never_shown(tmp_path, repository, server):
    with Campaign.open(tmp_path / "k.sqlite") as camp:
        with pytest.raises(RpgError) as err:
            configure(camp, repository, server=server)
        assert "Token" in str(err.value) and "geheim" not in str(err.value)
        assert configured(camp) is None and all("geheim" not in str(e.data) for e in camp.journal())


def test_file_names_are_safe():
    assert file_name("Sir Übel") == "Sir_Übel.ipynb"
    assert file_name("../../etc/passwd") == "etc_passwd.ipynb"
    assert file_name("<img src=x>") == "img_src_x.ipynb"
    assert file_name("...") == "Figur.ipynb"


def test_snapshot_carries_sheet_resources_and_conditions(campaign):
    snap = snapshot(campaign, "Sir Übel")
    assert snap["sheet"]["vig"] == 12 and snap["ruleset"] == "bastionland"
    assert snap["resources"]["VIG"] == {"value": 9, "max": 12}
    assert snap["conditions"] == {"erschöpft": {"runden": 2, "endet": "zugende"}}
    with pytest.raises(RpgError, match="Unbekannte Figur 'Niemand'"):
        snapshot(campaign, "Niemand")


def test_take_figure_rebuilds_the_state_once(campaign, tmp_path):
    player = Campaign.open(tmp_path / "spieler.sqlite")
    player.set_ruleset("bastionland")
    snap = snapshot(campaign, "Sir Übel")
    take_figure(player, snap)
    fig = player.figure("Sir Übel")
    assert fig.resources["VIG"] == {"value": 9, "max": 12}
    assert fig.conditions["erschöpft"]["remaining"] == 2
    player.change("Sir Übel", "VIG", -1)  # the player's own change stays on a second run
    take_figure(player, snap)
    assert player.figure("Sir Übel").resources["VIG"]["value"] == 8
    assert len(player.journal(kind="figur")) == 1


def test_share_writes_the_notebook_with_a_link_relative_to_the_repository(campaign, tmp_path):
    repo = tmp_path / "repo"
    (repo / "kampagne").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    assert share(campaign, "Sir Übel", cwd=repo / "kampagne").link is None  # no Binder set yet
    Campaign.open(tmp_path / "gm.sqlite").set_data("binder", Binder.parse("runde/akten").to_dict())
    shared = share(campaign, "Sir Übel", cwd=repo / "kampagne")
    assert shared.file == repo / "kampagne" / "spieler" / "Sir_Übel.ipynb"
    assert shared.path == "kampagne/spieler/Sir_Übel.ipynb" and shared.in_repository
    assert shared.local == "spieler/Sir_Übel.ipynb"
    assert shared.link == ("https://mybinder.org/v2/gh/runde/akten/main"
                           "?urlpath=lab/tree/kampagne/spieler/Sir_%C3%9Cbel.ipynb")
    text = repr(shared)
    assert shared.link in text and "git add spieler/Sir_Übel.ipynb" in text
    html = shared._repr_mimebundle_()["text/html"]
    assert f'<a href="{shared.link}"' in html
    nb = nbformat.read(shared.file, as_version=4)
    nbformat.validate(nb)
    assert any("DiceTray()" in c.source for c in nb.cells)


def test_share_outside_a_repository_says_so(campaign, tmp_path):
    shared = share(campaign, "Sir Übel", folder="f", cwd=tmp_path)
    assert shared.path == "f/Sir_Übel.ipynb" and not shared.in_repository
    assert "Kein Git-Repository" in repr(shared)


def written(folder: Path, figure) -> tuple[dict, Shared]:
    """The snapshot of a generated figure and its player notebook, shared from the GM's campaign."""
    camp = gm_campaign(folder, figure)
    try:
        return snapshot(camp, camp.figure(figure[1]).name), share(camp, figure[1], cwd=folder)
    finally:
        camp.close()


def code_cells(nb) -> list[str]:
    return [c.source for c in nb.cells if c.cell_type == "code"]


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(figures())
@example(RITTER_FIGURE)
@example(HOSTILE_FIGURE)
def test_player_notebooks_carry_any_figure_as_data_not_code(figure):
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        snap, shared = written(folder, figure)
        nb = nbformat.read(shared.file, as_version=4)
        nbformat.validate(nb)
        assert figure_of(shared.file) == snap == nb.metadata["rpgkernel"]["figur"]
        # the code is the same for every figure but for its file names: nothing of the figure is code
        stem = shared.file.stem
        plain = player_notebook({"name": "FIGUR", "ruleset": snap["ruleset"]})
        same = [c.replace(f"{stem}.ipynb", "FIGUR.ipynb").replace(f"{stem}.sqlite", "FIGUR.sqlite")
                for c in code_cells(nb)]
        assert same == [c["source"] for c in plain["cells"] if c["cell_type"] == "code"]
        for source in code_cells(nb):
            assert len(source.splitlines()) <= CODE_LINES
            compile(TransformerManager().transform_cell(source), "<zelle>", "exec")
        player = Campaign.open(folder / "spieler.sqlite")
        try:
            assert take_figure(player, figure_of(shared.file)) == snap["name"]
            assert snapshot(player, snap["name"]) == snap   # the player's figure is the GM's
        finally:
            player.close()


def test_the_snapshot_is_an_allow_list_of_what_the_players_sheet_shows(campaign, tmp_path):
    campaign.set_data("geheimnis", {"notiz": "Der Knappe ist ein Verräter"})
    campaign.new_encounter("Furt").add("Sir Übel", side="Verräter-Seite", character="Sir Übel")
    snap = snapshot(campaign, "Sir Übel")
    assert set(snap) == {"name", "ruleset", "sheet", "resources", "conditions"}
    assert set(snap["sheet"]) <= set(rules.get("bastionland").sheet.fields)
    assert all(set(r) == {"value", "max"} for r in snap["resources"].values())
    assert all(set(c) <= {"runden", "endet"} for c in snap["conditions"].values())
    text = share(campaign, "Sir Übel", cwd=tmp_path).file.read_text(encoding="utf-8")
    assert "Verräter" not in text and "geheimnis" not in text
    meta = json.loads(text)["metadata"]
    assert set(meta) == {"kernelspec", "language_info", "rpgkernel"} and meta["rpgkernel"] == {"figur": snap}


def test_a_figure_out_of_the_fight_is_shown_so_in_its_notebook(campaign, tmp_path):
    """The reason its ruleset gives (here Bastionland's Todeswunde) is carried and said in the notebook."""
    campaign.add_condition("Sir Übel", "Todeswunde")
    snap = snapshot(campaign, "Sir Übel")
    assert snap["ausser_gefecht"] == "sterbend (Todeswunde)"
    nb = nbformat.read(share(campaign, "Sir Übel", cwd=tmp_path).file, as_version=4)
    said = [c.source for c in nb.cells if c.cell_type == "markdown" and "Außer Gefecht" in c.source]
    assert said == ["**Außer Gefecht:** sterbend \\(Todeswunde\\). Deine Figur kommt im Kampf nicht an die Reihe, "
                    "bis sich das ändert."]
    campaign.undo()                                                    # tended: nothing said any more
    assert "ausser_gefecht" not in snapshot(campaign, "Sir Übel")
    nb = nbformat.read(share(campaign, "Sir Übel", cwd=tmp_path).file, as_version=4)
    assert not any("Außer Gefecht" in c.source for c in nb.cells)


HIDDEN = ("Hinterhalt-Ork", "Späher Xorg")   # an ambush the players must not learn of
ORC = {"vig": 10, "cla": 8, "spi": 6, "gd": 3}


def test_hidden_combatants_reach_no_player(campaign, tmp_path):
    """The player notebook of a knight in an ambush: its file and everything running it shows (text, HTML,
    JSON) name no hidden combatant, not even through a condition, nor say how many foes there are."""
    enc = campaign.new_encounter("Furt")
    enc.add("Sir Übel", side="Spieler", character="Sir Übel")
    for name in (*HIDDEN, "Wache"):
        enc.add(name, side="Feinde", sheet=ORC)
    for name in HIDDEN:
        enc.hide(name)
    campaign.add_condition("Späher Xorg", "Todeswunde")                                  # dying, too
    enc.start()
    marks = ("(verborgen)", "(außer Gefecht: sterbend (Todeswunde))")   # what the GM sees behind its name
    assert campaign.journal(kind="initiative")[-1].data["text"] == (
        "Reihenfolge nach den Regeln: Sir Übel, Hinterhalt-Ork (verborgen), Späher Xorg " + " ".join(marks) + ", Wache")
    campaign.add_condition("Sir Übel", "belauert von Späher Xorg")                       # names a hidden one
    campaign.add_condition("Sir Übel", "gepackt", rounds=1, ends="zugende", of="Hinterhalt-Ork")   # its 'von' does
    with pytest.raises(RpgError, match="Hinterhalt-Ork ist in der aktiven Begegnung verborgen"):
        share(campaign, "Hinterhalt-Ork", cwd=tmp_path)
    shared = share(campaign, "Sir Übel", cwd=tmp_path)
    written = shared.file.read_text(encoding="utf-8")
    assert snapshot(campaign, "Sir Übel")["conditions"] == {"erschöpft": {"runden": 2, "endet": "zugende"},
                                                            "gepackt": {"runden": 1, "endet": "zugende"}}
    nb = nbformat.read(shared.file, as_version=4)
    NotebookClient(nb, timeout=120, kernel_name="python3",
                   resources={"metadata": {"path": str(shared.file.parent)}}).execute()
    shown = {kind: [str(o.get("data", {}).get(kind, "")) for c in nb.cells for o in c.get("outputs", [])]
             for kind in ("text/plain", "text/html", "application/vnd.jupyter.widget-view+json")}
    assert any("Sir Übel" in text for text in shown["text/html"]) and any(shown["text/plain"])
    everything = [written, json.dumps(nb, ensure_ascii=False), *sum(shown.values(), [])]
    for secret in (*HIDDEN, *marks, "Xorg", "Hinterhalt-", "belauert", "Furt"):   # (the labels speak of a Hinterhalt)
        assert not any(secret in text for text in everything), secret
    with Campaign.open(shared.file.with_suffix(".sqlite")) as player:   # what the player's kernel keeps
        assert player.encounters == {} and set(player.characters) == {"Sir Übel"}
        assert all(secret not in e.to_json() for e in player.journal() for secret in (*HIDDEN, *marks))
    enc.reveal("Späher Xorg")                              # shown again: shared as any other name
    assert "belauert von Späher Xorg" in snapshot(campaign, "Sir Übel")["conditions"]


def test_a_notebook_without_its_figure_says_so_in_german(tmp_path):
    with pytest.raises(RpgError, match="ließ sich nicht lesen"):
        figure_of(tmp_path / "Fehlt.ipynb")
    (tmp_path / "Leer.ipynb").write_text(json.dumps({"cells": [], "metadata": {}}))
    with pytest.raises(RpgError, match="trägt keine Figur"):
        figure_of(tmp_path / "Leer.ipynb")


@pytest.mark.slow
@settings(max_examples=4, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(figures())
@example(HOSTILE_FIGURE)
def test_generated_player_notebooks_run_top_to_bottom_in_a_real_kernel(figure):
    with tempfile.TemporaryDirectory() as tmp:
        snap, shared = written(Path(tmp), figure)
        nb = nbformat.read(shared.file, as_version=4)
        NotebookClient(nb, timeout=120, kernel_name="python3",
                       resources={"metadata": {"path": str(shared.file.parent)}}).execute()  # raises on an error
        assert all(o.output_type != "error" for c in nb.cells for o in c.get("outputs", []))
        player = Campaign.open(shared.file.with_suffix(".sqlite"))
        try:
            assert snapshot(player, snap["name"]) == snap
        finally:
            player.close()


def test_the_player_notebook_runs_in_a_real_kernel_twice(campaign, tmp_path):
    shared = share(campaign, "Sir Übel", cwd=tmp_path)
    for run in (1, 2):  # a second run reuses the player's campaign file
        nb = nbformat.read(shared.file, as_version=4)
        NotebookClient(nb, timeout=120, kernel_name="python3",
                       resources={"metadata": {"path": str(shared.file.parent)}}).execute()
        plain = ["\n".join(o.get("data", {}).get("text/plain", "") for o in c.outputs)
                 for c in nb.cells if c.cell_type == "code"]
        assert "Kampagne: Sir_Übel.sqlite" in plain[0]
        assert plain[1] == "Sir Übel – GD 4/4, VIG 9/12, CLA 10/10, SPI 8/8 – erschöpft (noch 2)"
        assert plain[2].startswith("Bogen: Sir Übel (Mythic Bastionland)")
        assert plain[3].startswith("Würfelschale")
        assert "Figur Sir Übel angelegt" in plain[4]
        assert all(o.output_type != "error" for c in nb.cells for o in c.get("outputs", []))
    assert (shared.file.parent / "Sir_Übel.sqlite").exists()
    assert len(Campaign.open(shared.file.parent / "Sir_Übel.sqlite").journal(kind="figur")) == 1


def test_magics_configure_once_and_share(ip, tmp_path):
    ip.run_line_magic("rpg", "bastionland --kampagne gm.sqlite")
    session.current().campaign.add_character("Sir Übel", RITTER)
    assert "kein Binder-Repository" in repr(ip.run_line_magic("rpg", "binder"))
    done = ip.run_line_magic("rpg", "binder runde/akten v2 --server https://binder.example.org/")
    assert isinstance(done, Notice) and "gh/runde/akten @ v2" in repr(done)
    session.current().close_campaign()
    ip.run_line_magic("rpg", "--kampagne gm.sqlite")  # the setting survives a restart
    assert configured(session.current().campaign) == Binder("gh/runde/akten", "v2", "https://binder.example.org")
    shared = ip.run_line_magic("rpg", 'teilen "Sir Übel" --ordner Spieler')
    assert isinstance(shared, Shared)
    assert shared.link.startswith("https://binder.example.org/v2/gh/runde/akten/v2?urlpath=lab/tree/")
    assert json.loads((tmp_path / "Spieler" / "Sir_Übel.ipynb").read_text())["nbformat"] == 4


@pytest.mark.parametrize("line, message", [
    ("teilen", "%rpg teilen FIGUR"),
    ("teilen A B", "Zu viele Angaben: B"),
    ("teilen Niemand", "Unbekannte Figur 'Niemand'"),
    ("binder nur-ein-name", "BESITZER/NAME"),
])
def test_magic_errors_are_german_boxes(ip, line, message):
    ip.run_line_magic("rpg", "bastionland --kampagne gm.sqlite")
    assert message in error_box(ip, f"%rpg {line}")


def test_sharing_needs_a_campaign(ip):
    assert error_box(ip, "%rpg teilen Alrik").startswith("Fehler: Es ist keine Kampagne geöffnet")


def error_box(shell, source: str) -> str:
    """The text of the German error box a cell shows instead of a traceback."""
    with capture_output() as out:
        result = shell.run_cell(source)
    assert result.success and "Traceback" not in out.stdout + out.stderr
    [shown] = out.outputs
    assert 'class="rpgk-card rpgk-error"' in shown.data["text/html"]
    return shown.data["text/plain"]
