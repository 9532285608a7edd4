"""%roll in a real JupyterLab: what the page shows, escaping of hostile text, the campaign journal."""

from __future__ import annotations

import itertools

import pytest

import rpgkernel

from .fixtures import expect
from .notebook import LIVE, POLL, gallery

pytestmark = pytest.mark.browser

# the roll card: the widget's container in a kernel, the HTML card where no widget manager runs
CARD = ".rpgk-w, .rpgk-card"
# per die: the face as shown, and whether it is drawn struck through
_FACES = """dice => dice.map(d => { const face = d.querySelector('s') || d;
  return [face.childNodes[0].textContent, getComputedStyle(face).textDecorationLine.includes('line-through')]; })"""


def _chance(sides: int, n: int, keep: int, at_least: int) -> str:
    """P(sum of the ``keep`` highest of ``n`` dice >= at_least), counted over all outcomes, in German."""
    outcomes = list(itertools.product(range(1, sides + 1), repeat=n))
    hits = sum(sum(sorted(o)[n - keep:]) >= at_least for o in outcomes)
    return f"P(≥ {at_least}) = " + f"{100 * hits / len(outcomes):.2f}".replace(".", ",") + " %"


def test_roll_cards_show_dice_total_and_chance(notebook):
    nb = notebook(["%load_ext rpgkernel", "%roll 3W6 --seed 1", "%roll 4W6kh3 --würfel 6,2,5,1"])
    seeded = rpgkernel.roll("3W6", seed=1)  # the same seed in this process gives the same dice
    faces = [d.value for d in seeded.dice]

    card = nb.output(1).locator(CARD).first
    expect(card.locator(".rpgk-total")).to_have_text(str(sum(faces)))
    assert sum(faces) == seeded.total
    assert card.locator(".rpgk-die").evaluate_all(_FACES) == [[str(f), False] for f in faces]
    expect(card.locator(".rpgk-chance")).to_have_text(_chance(6, 3, 3, seeded.total))
    expect(card.locator("svg")).to_have_count(1)  # the distribution chart

    card = nb.output(2).locator(CARD).first
    expect(card.locator(".rpgk-total")).to_have_text("13")
    expect(card.locator(".rpgk-head")).to_have_text("4W6kh3 · echte Würfel")
    assert card.locator(".rpgk-die").evaluate_all(_FACES) == [["6", False], ["2", False], ["5", False],
                                                              ["1", True]]
    expect(card.locator(".rpgk-dropped")).to_have_attribute("title", "W6 – verworfen")
    expect(card.locator(".rpgk-chance")).to_have_text(_chance(6, 4, 3, 13))
    gallery(card, "wurf")


# Each payload sets a flag if it ever runs. The last cell shows the same markup unescaped:
# the flags it sets prove that these payloads do run in this page, and that they had the time to.
_PAYLOADS = {
    "img": '<img src=x onerror="window.__pwned_img=1">',
    "details": '<details open ontoggle="window.__pwned_details=1">',
    "script": "<script>window.__pwned_script=1</script>",
}
_PROBE = "".join(p.replace("__pwned_", "__probe_") for p in _PAYLOADS.values())


def test_hostile_text_shows_literally_and_runs_nothing(notebook, page):
    nb = notebook([
        "%load_ext rpgkernel",
        f"x = type({_PAYLOADS['img']!r}, (), {{}})()  # an object whose type name is markup",
        "%roll @x",
        f"%roll 2W6 + {_PAYLOADS['details']}",
        f'%rpg "{_PAYLOADS["script"]}"',
        f"from IPython.display import HTML\nHTML({_PROBE!r})",
    ])
    page.wait_for_function("() => window.__probe_img && window.__probe_details && window.__probe_script",
                           timeout=LIVE, polling=POLL)
    for cell, key, message in ((2, "img", "@x muss eine ganze Zahl oder ein Würfelausdruck sein, nicht "),
                               (3, "details", "Hier wird eine Zahl, ein Würfel oder eine Klammer erwartet"),
                               (4, "script", "Unbekanntes Regelwerk oder unbekannter Befehl")):
        box = nb.output(cell).locator(".rpgk-card.rpgk-error")
        expect(box).to_contain_text(_PAYLOADS[key])
        assert box.inner_text().startswith("Fehler: " + message), box.inner_text()
        expect(box.locator("img, details, script")).to_have_count(0)
    flags = page.evaluate("() => [window.__pwned_img, window.__pwned_details, window.__pwned_script]")
    assert flags == [None, None, None]


def test_roll_lands_in_the_campaign_journal(notebook, tmp_path):
    path = tmp_path / "k.sqlite"
    nb = notebook(["%load_ext rpgkernel", f"%rpg --kampagne {path}", "%roll 2W6+3 --würfel 5,6"])
    expect(nb.output(1)).to_contain_text(str(path))
    expect(nb.output(2).locator(".rpgk-total")).to_have_text("14")
    with rpgkernel.Campaign.open(path) as campaign:
        events = list(campaign.journal())
    assert [e.kind for e in events] == ["wurf"]
    roll = events[0].data["roll"]
    assert (roll["expression"], roll["total"], roll["given"]) == ("2W6+3", 14, True)
    assert [d["faces"] for d in roll["dice"]] == [[5], [6]]
