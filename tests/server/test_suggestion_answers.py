"""The GM's answers on the player's page, on a real Jupyter server: a page's suggestion comes back in
its view as ``offen``, the GM's answer (from the kernel's campaign) reaches the open page live, and
another player's page never carries it (no frame of it names the text)."""

from __future__ import annotations

import pytest

from .test_actions import act, camp, frame, server   # noqa: F401  (fixtures)
from .test_live import Page, run

pytestmark = pytest.mark.slow
SECRET = "Geheimer Plan: ich verrate die Wache <script>x</script>"


def test_the_gms_answer_reaches_the_page_and_no_other(server, camp):   # noqa: F811
    knight, squire = camp.new_player_link("Ritter"), camp.new_player_link("Knappe")
    frames: list[str] = []

    async def play():
        page = await Page(server, knight.key).open(knight.token)
        other = await Page(server, squire.key).open(squire.token)
        assert (await frame(page, "view"))["view"]["vorschlaege"] == []
        assert (await act(page, type="vorschlag", text=SECRET))["result"]
        while True:   # the new view follows the answer
            mine = (await frame(page, "view"))["view"]["vorschlaege"]
            if mine:
                break
        [shown] = mine
        assert (shown["text"], shown["antwort"]) == (SECRET, "offen")
        camp.accept_suggestion(shown["id"])   # the GM, in the kernel
        while (await frame(page, "view"))["view"]["vorschlaege"][0]["antwort"] != "angenommen":
            pass
        while True:   # the other page's frames until none is left in a short while
            try:
                msg = await other.next(timeout=0.5)
            except TimeoutError:
                break
            frames.append(str(msg))
        page.ws.close()
        other.ws.close()

    run(play())
    assert frames and all("Geheimer Plan" not in f for f in frames)
    assert all(f.count("'vorschlaege': []") == 1 for f in frames)
