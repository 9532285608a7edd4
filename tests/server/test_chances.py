"""The advice's chances of winning on a player's page: weighed after the card from the fight as that
player knows it, shown once weighed; nothing of a hidden combatant or a value the GM does not show
decides them (twin campaigns, one hiding an enemy, show the same page)."""

from __future__ import annotations

import json
import time

from forecast.test_options import duel

from rpgkernel.forecast import weighing
from rpgkernel.messages import t
from rpgkernel.numerals import percent
from rpgkernel.server import live

WAIT = 120   # seconds the weighing may take on a loaded machine before the test gives up


def _deny_options(view):
    [deny] = [c for c in view["wahlen"] if c["key"] == "deny"]
    [advice] = deny["rat"]
    return advice["optionen"]


def weighed_view(c, figure):
    """The page's view once every option of its advice is weighed (as the watcher pushes it then)."""
    ends = time.monotonic() + WAIT
    while True:
        view = live.view(c, figure, [])
        options = [o for ch in view["wahlen"] for r in ch["rat"] for o in r["optionen"]]
        if all(o.get("sieg") != t("advice.win_waiting") for o in options) or time.monotonic() > ends:
            return view
        time.sleep(0.05)


def test_the_page_shows_the_chances_once_weighed(tmp_path):
    c = duel(tmp_path / "k.sqlite")
    c.encounter.set_player_sight("Söldner", "genau")
    pid = next(iter(c.state["pending"]))
    first = changes = weighing.changes()
    assert all(o["sieg"] == t("advice.win_waiting") for o in _deny_options(live.view(c, "Ritter", [])))
    view = weighed_view(c, "Ritter")
    assert weighing.changes() > changes   # the watcher looks again when this grew
    gm = weighing.ask(c.state, pid)        # the GM's own weighing: the same numbers where nothing is hidden
    assert gm is not None and gm.wait(WAIT)
    for o in _deny_options(view):
        assert o["sieg"] == t("advice.win", p=percent(gm.wins["deny", "Ritter", o["label"]])), o
    assert first == changes
    c.close()


def test_no_chances_where_the_player_does_not_see_the_enemy_exactly(tmp_path):
    c = duel(tmp_path / "k.sqlite")   # the Söldner's side as players see it by default: described, not exact
    assert all("sieg" not in o for o in _deny_options(live.view(c, "Ritter", [])))
    c.close()


def test_a_hidden_enemy_changes_nothing_on_the_page(tmp_path):
    seen, hiding = duel(tmp_path / "ohne.sqlite"), duel(tmp_path / "verborgen.sqlite")
    for camp in (seen, hiding):
        camp.encounter.set_player_sight("Söldner", "genau")
    hiding.encounter.add("Drache", side="Söldner", sheet={"vig": 18, "cla": 12, "spi": 14, "gd": 12})
    hiding.encounter.hide("Drache")
    pages = []
    for camp in (seen, hiding):
        [pid] = camp.state["pending"]
        view = weighed_view(camp, "Ritter")
        pages.append(json.dumps(view, ensure_ascii=False).replace(pid, "ID"))
    assert "Sieg im Kampf: " in pages[0] and t("advice.win_waiting") not in pages[0]
    assert pages[0] == pages[1]
    seen.close()
    hiding.close()
