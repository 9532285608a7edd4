"""Each player link's limit: actions and work in buckets refilled over time (a roll's work is the dice
engine's estimate), tighter than the GM's; refused beyond it in German before anything is rolled or
written, journalled for the GM, who sees it in the links' list and lifts it. On a real Jupyter server
whose buckets do not refill (the count exact, whatever the machine's speed)."""

from __future__ import annotations

import pytest
from panel_driving import make_campaign

from rpgkernel.messages import t
from rpgkernel.server import quota
from rpgkernel.widgets.players import PlayerLinks

from .test_actions import act, frame
from .test_live import Page, Server, run

#: in the server's process: no refill during the test, every refusal journalled at once
STILL = """
import rpgkernel.server.quota as q
q.ACTION_SECONDS, q.WORK_PER_SECOND, q.REPORT_SECONDS = 1e9, 1e-9, 0.0
"""
TOO_FAST = "Zu viele Aktionen in kurzer Zeit: wieder möglich in "


def test_the_buckets_refill_and_a_lift_fills_them(monkeypatch):
    clock = [100.0]
    monkeypatch.setattr(quota.time, "monotonic", lambda: clock[0])
    q = quota.Quota()
    for _ in range(quota.ACTIONS):
        q.spend("a", 1, 0)
    with pytest.raises(quota.QuotaError, match="wieder möglich in 3 s"):
        q.spend("a", 1, 0)
    q.spend("b", 1, 0)                       # another link has its own buckets
    clock[0] += quota.ACTION_SECONDS
    q.spend("a", 1, 0)
    with pytest.raises(quota.QuotaError, match="zu aufwendig .Aufwand 1001, höchstens 1000"):
        q.spend("b", 1, quota.WORK + 1)
    q.spend("b", 1, 600)
    with pytest.raises(quota.QuotaError, match=r"dieser Wurf: 600\): wieder möglich in 12 s"):
        q.spend("b", 1, 600)                 # 400 left, 200 more needed at 1000 a minute
    assert q.due() == [("a", 1), ("b", 2)] and q.due() == []
    q.sync("b", 0)                           # the GM has not lifted it
    with pytest.raises(quota.QuotaError):
        q.spend("b", 1, 600)
    q.sync("b", 1)                           # lifted: full again, its count anew
    q.spend("b", 1, 1000)
    clock[0] += 1
    assert q.due() == []


@pytest.mark.slow
def test_a_flooding_link_is_refused_the_gm_sees_it_and_lifts_it(tmp_path, monkeypatch):
    server = Server(config=STILL)
    try:
        monkeypatch.setenv("JUPYTER_RUNTIME_DIR", server.runtime)
        with make_campaign(tmp_path / "kampagne.sqlite") as camp:
            ritter, knappe = camp.new_player_link("Ritter"), camp.new_player_link("Knappe")

            async def flood(link, rolls):
                page = await Page(server, link.key).open(link.token)
                await frame(page, "view")
                answers = [await act(page, type="wurf", ausdruck=expression) for expression in rolls]
                page.ws.close()
                return answers

            answers = run(flood(ritter, ["1000W10000!20kh999"] + ["2W6"] * (quota.ACTIONS + 9)))
            assert answers[0] == {"refused": t("quota.too_costly", work=2002, max=quota.WORK)}
            rolled = quota.ACTIONS - 1   # the costly roll was an action too
            assert [a.get("result", "")[:len("Ritter würfelt: 2W6 = ")] for a in answers[1:rolled + 1]] == \
                ["Ritter würfelt: 2W6 = "] * rolled
            assert len(answers[rolled + 1:]) == 10 and all(a["refused"].startswith(TOO_FAST) for a in answers[rolled + 1:])
            assert len(camp.journal(kind="wurf")) == rolled     # nothing of the refused ones written
            [other] = run(flood(knappe, ["W6"]))                 # another link is not held up
            assert other["result"].startswith("Knappe würfelt: W6 = ")

            [limit] = [link["limit"] for link in camp.player_links() if link["id"] == ritter.id]
            assert limit["hits"] == 11
            listed = PlayerLinks(camp).text()
            assert f"{ritter.id}  Ritter" in listed and "11× über der Grenze abgewiesen" in listed
            noted = [e.data["text"] for e in camp.journal(kind="spielerlink")]
            assert f"Spielerlink {ritter.id} für Ritter: 1× über der Grenze abgewiesen" in noted
            camp.lift_player_limit(ritter.id)
            assert [link["limit"] for link in camp.player_links()] == [None, None]
            [again] = run(flood(ritter, ["2W6"]))
            assert again["result"].startswith("Ritter würfelt: 2W6 = ")
            assert len(camp.journal(kind="wurf")) == rolled + 2
    finally:
        server.stop()
