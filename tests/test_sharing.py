"""Player notebooks and Binder links: %rpg binder, %rpg teilen, and the notebook a player runs."""

import json
import subprocess
from urllib.parse import unquote

import nbformat
import pytest
from IPython.utils.capture import capture_output
from nbclient import NotebookClient

from rpgkernel import Campaign, session
from rpgkernel.errors import RpgError
from rpgkernel.render import Notice
from rpgkernel.sharing import Binder, Shared, configured, file_name, share, snapshot, take_figure

RITTER = {"vig": 12, "cla": 10, "spi": 8, "gd": 4}


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
