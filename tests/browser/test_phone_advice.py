"""The player page on a phone (390×844): the advice on the Ritter's Deny arrives with the card, each
option's chance of winning follows once the server has weighed it ("wird berechnet …" until then),
written in place: what the player typed into the choice's form stays."""

from __future__ import annotations

import pytest
from forecast.test_options import ATTACK, FACES, duel

import rpgkernel
from rpgkernel.forecast import weighing
from rpgkernel.messages import t
from rpgkernel.numerals import percent

from .fixtures import expect
from .test_phone import fixture_phone  # noqa: F401 - the phone's page

pytestmark = pytest.mark.browser

WAIT = 120_000   # ms the server's weighing may take on a loaded machine


def test_the_chances_of_winning_follow_on_the_phone(phone, tmp_path):
    camp = duel(tmp_path / "k.sqlite")
    camp.undo()   # the attack comes once the page is open
    camp.encounter.set_player_sight("Söldner", "genau")
    page = phone(camp, "Ritter")
    rpgkernel.resolve(ATTACK, campaign=camp, dice=FACES)
    [pid] = camp.state["pending"]
    gm = weighing.ask(camp.state, pid)   # the same numbers, weighed here for comparison
    form = page.locator("#wahlformen")
    expect(form.locator(".wahltitel").first).to_be_visible()
    given = form.get_by_label("Eigene Würfel")
    given.fill("14")   # typed while the numbers are still being weighed
    advice = form.locator("details.rat")
    advice.locator("summary").click()
    assert gm is not None and gm.wait(WAIT / 1000)
    for label in ("Kein Deny", "Deny auf die 7"):
        option = advice.locator("li", has=page.locator(".wahltitel", has_text=label))
        expect(option.locator(".sieg")).to_have_text(t("advice.win", p=percent(gm.wins["deny", "Ritter", label])),
                                                      timeout=WAIT)
    expect(given).to_have_value("14")                 # the form was not built anew
    expect(advice).to_have_attribute("open", "")      # nor the advice folded
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    assert t("advice.win_waiting") not in form.inner_text()
