"""No answer to a player's page depends on hidden data: a property over random hidden names and
player texts (twin campaigns, one of them hiding figures of those names: every roll, suggestion and
choice gets the same answer in both), and the report's example through a real Jupyter server."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from panel_driving import FURT_NAMES, make_campaign

import rpgkernel
from rpgkernel.server import actions
from rpgkernel.state import player_view

from .test_actions import ATTACK, DICE, act, frame
from .test_live import Page, Server, run

TOKEN = "der-schlüssel-der-seite"
PAGES = ("Ritter", "Söldner")
WORDS = ["Goblin", "Wolf", "Oger", "W6", "2W6+1", "Repel", "deny", "gambit", "focus", *FURT_NAMES, "+", ":"]
NAMES = st.text(st.sampled_from("abdeghilnorstuwäöüßDGKORSW -"), min_size=1, max_size=12) \
    .map(str.strip).filter(lambda n: n and n not in FURT_NAMES)


@st.composite
def probes(draw):
    """A hidden name, the figure of a page, and a message whose text may name it."""
    name = draw(NAMES)
    text = " ".join(draw(st.lists(st.sampled_from([name, *WORDS]) | st.text(max_size=6), min_size=1, max_size=6)))
    message = draw(st.sampled_from([
        {"type": "wurf", "ausdruck": f"W6 {text}", "wuerfel": [4]}, {"type": "wurf", "ausdruck": text, "wuerfel": [4]},
        {"type": "vorschlag", "text": text}, {"type": "wahl", "key": text.replace(" ", ":", 1)},
        *({"type": "wahl", "key": key, "optionen": {"gambit": text}} for key in ("deny", "gambit", "focus"))]))
    return name, draw(st.sampled_from(PAGES)), json.dumps(message, ensure_ascii=False)


def test_no_answer_depends_on_whether_the_text_names_a_hidden_figure(tmp_path):
    with make_campaign(tmp_path / "ohne.sqlite") as seen, make_campaign(tmp_path / "verborgen.sqlite") as hiding:
        for camp in (seen, hiding):
            rpgkernel.resolve(ATTACK, campaign=camp, dice=DICE)   # a Deny for the Ritter, gambits for the Söldner
        shown = json.dumps([player_view.view(seen.state, f) for f in PAGES], ensure_ascii=False)

        @settings(max_examples=150, deadline=None, derandomize=True,
                  suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
        @given(probes())
        def same_answer(probe):
            name, figure, message = probe
            assume(name not in shown)   # a name inside the view's own words changes the view, not the answers
            if name not in hiding.state["encounters"]["Furt"]["combatants"]:
                hiding.encounter.add(name, side="Feinde", sheet={"vig": 9, "cla": 9, "spi": 9, "gd": 5})
                hiding.encounter.hide(name)
            answers = [actions.act(camp, figure, message, TOKEN, lambda count, work: None) for camp in (seen, hiding)]
            assert answers[0] == answers[1], message

        same_answer()


@pytest.mark.slow
def test_a_roll_naming_a_hidden_figure_rolls_as_any_other(tmp_path, monkeypatch):
    """The report's probe: ``W6 Goblin Wolf Drache`` with a hidden Drache rolls like ``W6 Goblin Wolf Oger``."""
    server = Server()
    try:
        monkeypatch.setenv("JUPYTER_RUNTIME_DIR", server.runtime)
        with make_campaign(tmp_path / "kampagne.sqlite") as camp:
            camp.encounter.add("Drache", side="Feinde", sheet={"vig": 18, "cla": 12, "spi": 14, "gd": 12})
            camp.encounter.hide("Drache")
            link = camp.new_player_link("Ritter")

            async def play():
                page = await Page(server, link.key).open(link.token)
                await frame(page, "view")
                answers = [await act(page, type="wurf", ausdruck=f"W6 Goblin Wolf {name}", wuerfel=[4])
                           for name in ("Drache", "Oger")]
                page.ws.close()
                return answers

            drache, oger = run(play())
            assert "refused" not in drache and set(drache) == set(oger)   # the text, the card's parts
            assert json.dumps(drache, ensure_ascii=False) == json.dumps(oger, ensure_ascii=False).replace("Oger", "Drache")
            assert oger["result"].startswith("Ritter würfelt: W6 Goblin Wolf Oger = [4] = 4")
    finally:
        server.stop()
