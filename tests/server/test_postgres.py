"""A campaign in PostgreSQL through the real Jupyter server: a player link opens its page, the page
gets its view, a GM change reaches it live, a player's roll lands in the PostgreSQL journal. The
registry holds the full address on the server; no frame, answer or line of the server's log shows
the password, nor does a campaign whose address the server cannot open."""

from __future__ import annotations

import json
import secrets

import pytest

from rpgkernel import Campaign
from rpgkernel.state import registry

from .test_actions import act, frame
from .test_live import Page, Server, run

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server():
    running = Server()
    yield running
    running.stop()


def test_a_postgres_campaign_plays_live_and_its_password_shows_nowhere(server, pg_cluster, monkeypatch):
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", server.runtime)
    url = pg_cluster.new_database()
    assert pg_cluster.password in url
    frames = []
    with Campaign.open(url) as camp:
        camp.set_ruleset("bastionland")
        camp.add_character("Alrik", {"vig": 12, "cla": 10, "spi": 8, "gd": 4})
        enc = camp.new_encounter("Keller")
        enc.add("Alrik", side="Helden", character="Alrik")
        enc.add("Ratte", side="Ratten", sheet={"vig": 5, "cla": 5, "spi": 5, "gd": 1})
        enc.activate()
        link = camp.new_player_link("Alrik")
        assert registry.lookup(link.key) == (url, camp.store.campaign)   # the full address, server-side
        assert pg_cluster.password not in str(link) + repr(link) + camp.store.where

        async def play():
            page = await Page(server, link.key).open(link.token)
            frames.append(await frame(page, "view"))
            shown = frames[-1]["view"]
            assert shown["figur"]["name"] == "Alrik" and shown["begegnung"]["name"] == "Keller"
            assert [c["name"] for c in shown["begegnung"]["teilnehmer"]] == ["Alrik", "Ratte"]
            camp.change("Alrik", "GD", -1)                                  # the GM's change, live
            frames.append(await frame(page, "view", 60.0))
            assert frames[-1]["view"]["figur"]["resources"]["GD"]["value"] == 3
            frames.append(await act(page, type="wurf", ausdruck="2W6", wuerfel=[5, 2]))
            assert frames[-1]["result"] == "Alrik würfelt: 2W6 = [5, 2] = 7  ·  P(≥ 7) = 58,33 %"
            assert frames[-1]["wurf"]["ergebnis"] == "7" and frames[-1]["wurf"]["figur"] == "Alrik"
            page.ws.close()

        run(play())
    with Campaign.open(url) as journal:                                     # in the PostgreSQL journal
        (rolled,) = journal.journal(kind="wurf")
        assert rolled.data["figures"] == ["Alrik"] and rolled.data["text"] == "2W6 = [5, 2] = 7  ·  P(≥ 7) = 58,33 %"
        assert rolled.data["encounter"] == "Keller" and rolled.data["roll"]["total"] == 7

    # a campaign the server cannot open (a wrong password): refused, and neither password in its log
    wrong = "falsch-" + secrets.token_hex(4)
    registry.register("e" * 32, url.replace(pg_cluster.password, wrong), None)

    async def refused():
        page = await Page(server, "e" * 32).open(secrets.token_urlsafe(32))
        frames.append(await page.next())
        assert "gilt nicht" in frames[-1]["error"] and await page.next() is None

    run(refused())
    log = server.log()
    (line,) = [line for line in log.splitlines() if "campaign eeeeeeee cannot be opened" in line]
    assert f"rpg@127.0.0.1:{pg_cluster.port}" in line, line          # the address, without its password
    text = json.dumps(frames, ensure_ascii=False) + log
    assert pg_cluster.password not in text and wrong not in text and link.token not in text
