"""``%rpg spieler``: the links widget; the token reaches the front end in custom messages only, so no
saved notebook, text or HTML output and no widget state carries it."""

from __future__ import annotations

import base64
import json
from urllib.parse import unquote

import pytest

from doc_blocks import page, run_python
from kernel_notebook import executed

from rpgkernel.state import players
from rpgkernel.widgets.players import PlayerLinks


@pytest.fixture(autouse=True)
def runtime_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "runtime"))


@pytest.fixture
def table(notebook):
    notebook.ok("%rpg --kampagne k.sqlite")
    notebook.ok("import rpgkernel\nkampagne = rpgkernel.session.current().campaign\nkampagne.add_character('Alrik')")
    return notebook


def front_end(widget):
    """What the widget sends the front end, by message type."""
    sent = []
    widget.send = lambda content, buffers=None: sent.append(content)
    return sent


def test_a_new_link_in_the_widget(table):
    [shown] = table.ok("%rpg spieler Alrik")
    widget = table.value
    assert isinstance(widget, PlayerLinks) and widget.fresh_figure == "Alrik"
    camp = table.ns["kampagne"]
    [row] = camp.player_links()
    token = widget._fresh.token
    assert players.figure_for(camp.state, token) == "Alrik"
    bundle = widget._repr_mimebundle_()
    everything = json.dumps([shown, bundle, widget.get_state()], default=str)
    assert token not in everything and row["id"] in shown and "Alrik" in shown
    sent = front_end(widget)
    widget._dispatch(widget, {"type": "link"})
    assert sent == [{"type": "link", "key": widget._fresh.key, "token": token, "path": "rpgkernel/spieler/"}]
    url = f"http://192.168.1.5:8888/user/gm/rpgkernel/spieler/{widget._fresh.key}/#{token}"
    widget._dispatch(widget, {"type": "qr", "url": url})
    svg = sent[-1]["svg"]
    assert sent[-1]["type"] == "qr" and svg.startswith("data:image/svg+xml")
    body = unquote(svg.split(",", 1)[1]) if ";base64" not in svg else base64.b64decode(svg.split(",", 1)[1]).decode()
    assert "<svg" in body and "<script" not in body
    for bad in ("http://example.org/", url.replace(token, "x" * len(token)), "javascript:alert(1)//" + url):
        widget._dispatch(widget, {"type": "qr", "url": bad})
        assert "nur für die Adresse des neuen Links" in widget.error
        assert sent[-1]["svg"] == svg   # nothing new sent


@pytest.mark.parametrize("listen", ["0.0.0.0", "127.0.0.1"])
def test_a_loopback_link_is_offered_the_network_addresses_the_server_answers_on(table, listen):
    """Reached by 127.0.0.1, the front end asks for the machine's network addresses on its port: those of a
    server that listens on every interface, none of one that listens on loopback (the page then shows the
    start command)."""
    import socket

    from rpgkernel import local_addresses
    mine = local_addresses.addresses()
    if not mine:
        pytest.skip("this machine has no network address besides loopback")
    assert all(not a.startswith("127.") for a in mine)
    table.ok("%rpg spieler Alrik")
    widget = table.value
    sent = front_end(widget)
    with socket.socket() as server:
        server.bind((listen, 0))
        server.listen()
        widget._dispatch(widget, {"type": "netz", "port": server.getsockname()[1]})
    assert sent == [{"type": "netz", "addresses": mine if listen == "0.0.0.0" else []}]
    for bad in (0, 70000, "8888", None):
        widget._dispatch(widget, {"type": "netz", "port": bad})
        assert "Portnummer von 1 bis 65535" in widget.error and len(sent) == 1


def test_list_revoke_renew(table):
    table.ok("%rpg spieler Alrik")
    link_id = table.value.fresh_id
    table.ok(f"%rpg spieler --widerrufen {link_id}")
    assert table.value._fresh is None and table.value.rows[0]["revoked"]
    table.ok(f"%rpg spieler --erneuern {link_id}")
    renewed = table.value
    assert renewed.fresh_figure == "Alrik" and renewed.fresh_id != link_id
    [shown] = table.ok("%rpg spieler")
    assert link_id in shown and renewed.fresh_id in shown and "widerrufen" in shown and "gültig" in shown
    [error] = table.run("%rpg spieler Nimand")
    assert "Nimand" in error
    [error] = table.run("%rpg spieler --widerrufen 00000000")
    assert "gibt es nicht" in error
    [error] = table.run("%rpg spieler Alrik --erneuern x")
    assert error.startswith("Fehler")


HEADING = "## Spieler live: Links für Spielerseiten"
MAGIC = page("kampagne.md").block("", first="%rpg spieler Alrik", after=HEADING)
PYTHON = page("kampagne.md").block("python", first="link = kampagne.new_player_link", after=HEADING)


def test_the_docs_blocks(table):
    lines = MAGIC.lines
    assert lines[0] == "%rpg spieler Alrik"
    table.ok(lines[0])
    link_id = table.value.fresh_id
    for line in lines[1:]:
        table.ok(line.replace("5fcf7385", link_id))
    assert [row["revoked"] is not None for row in table.ns["kampagne"].player_links()] == [True, False]
    run_python(PYTHON.text, table.ns)
    camp, new = table.ns["kampagne"], table.ns["neu"]
    assert players.figure_for(camp.state, table.ns["link"].token) is None
    assert players.figure_for(camp.state, new.token) == "Alrik"


@pytest.mark.slow
def test_the_saved_notebook_never_holds_the_token(tmp_path):
    import nbformat

    cells = [
        "%load_ext rpgkernel\n%rpg --kampagne k.sqlite",
        "import rpgkernel\nrpgkernel.session.current().campaign.add_character('Alrik')",
        "%rpg spieler Alrik",
        # what a front end would ask for; the token written aside for the test only
        "w = _\nw.send = lambda c, b=None: None\nw._dispatch(w, {'type': 'link'})\n"
        "open('token.txt', 'w').write(w._fresh.token)",
        "%rpg spieler",
    ]
    env = {"JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime")}
    import os
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        nb = executed(cells, tmp_path, timeout=120, store_widget_state=True)
    finally:
        for k, v in old.items():
            os.environ.pop(k) if v is None else os.environ.__setitem__(k, v)
    path = tmp_path / "gm.ipynb"
    nbformat.write(nb, path)
    token = (tmp_path / "token.txt").read_text()
    assert len(token) >= 43
    saved = path.read_text(encoding="utf-8")
    assert "application/vnd.jupyter.widget-view+json" in saved and "Spielerlink" in saved
    assert token not in saved
    from rpgkernel import Campaign
    with Campaign.open(tmp_path / "k.sqlite") as camp:
        assert token not in camp.journal().to_jsonl()
        assert players.figure_for(camp.state, token) == "Alrik"
