"""A fight in each of the five rulesets, in the encounter panel in JupyterLab: loaded with %%figuren, begun and
played a move or two with given dice; then a target picked by a click on its row and a verb of the ruleset
chosen. The table shows whose turn and round it is, damage on a meter, conditions with their remaining
duration and who is out of the fight with the reason; legible in the light and dark themes. The screenshots
are the README's gallery ``kampf_<key>.png`` and ``kampf_<key>_dunkel.png``."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

import pytest
from panel_driving import FURT
from rules.adz.test_resolve import FIGURES as ADZ_FIGURES
from rules.kampfwerte.test_manoever import KAEL, ORK
from rules.midgard.test_out_of_fight import FIGHT as MIDGARD_FIGHT
from rules.osr.test_out_of_fight import FIGHT as OSR_FIGHT

from rpgkernel import Campaign, rules

from .fixtures import expect
from .notebook import gallery, theme
from .panel_view import illegible, illegible_meters, row

pytestmark = pytest.mark.browser

PANEL_CELL = 3


@dataclass(frozen=True)
class Fight:
    figures: str                  # the %%figuren block
    play: str                     # Python with ``kampagne`` and ``b`` (its encounter): start and moves, dice given
    round: int
    current: str                  # whose turn it is then
    out: dict[str, str]           # who is out of the fight (one at least), with the reason
    meter: tuple[str, str]        # a row and the name of a meter the moves changed
    condition: tuple[str, str]    # a row and a condition it shows, with its remaining duration
    target: str                   # the row clicked
    verb: str                     # the verb chosen in the form
    line: str                     # the action line the form then stands for


def _resolve(line: str, dice: list[int]) -> str:
    return f"rpgkernel.resolve({line!r}, campaign=kampagne, dice={dice})\n"


# the AdZ figures of tests/rules/adz/test_resolve.py in the camp of tests/rules/adz/test_out_of_fight.py
ADZ_CAMP = ADZ_FIGURES + """begegnung:
  name: Lager
  teilnehmer:
    - figur: Alrik
      seite: Spieler
    - figur: Ork
      seite: Feinde
    - name: Goblin
      anzahl: 2
      seite: Feinde
      werte: {KK: 3, KO: 2, GE: 5, FF: 3, KL: 2, WK: 2, IN: 4, CH: 1, GL: 1}
"""
# the Kampfwerte figures of tests/rules/kampfwerte/test_out_of_fight.py (JSON is YAML)
KAMPFWERTE_FIGHT = "\n".join([
    "figuren:", "  - " + json.dumps({"name": "Kael", "werte": KAEL}, ensure_ascii=False),
    "begegnung:", "  name: Gefecht", "  teilnehmer:", "    - {figur: Kael, seite: Spieler}",
    "    - " + json.dumps({"name": "Ork", "seite": "Feinde", "werte": ORK}, ensure_ascii=False),
    "    - " + json.dumps({"name": "Goblin", "seite": "Feinde", "werte": {**ORK, "NK": 3, "LP": 8}},
                          ensure_ascii=False), ""])

FIGHTS = {
    "bastionland": Fight(
        FURT,
        "b.start()\n"
        + _resolve("angriff Ritter -> Wache entschieden", [8, 4])        # 8 against GD 3, VIG 10 -> 5: Todeswunde
        + "b.next_turn()\n"
        + _resolve("angriff Knappe -> Söldner entschieden", [5, 3]),     # 5 - Armour 2: GD 4 -> 1
        1, "Knappe", {"Wache": "sterbend (Todeswunde)"}, ("Söldner", "GD 1 von 4"),
        ("Wache", "beeinträchtigt (noch 2)"), "Söldner", "angriff", "angriff Knappe -> Söldner"),
    "adz": Fight(
        ADZ_CAMP,
        "b.start(rolls={'Alrik': 14, 'Ork': 11, 'Goblin 1': 9, 'Goblin 2': 7})\n"
        # 8 successes; the Ork defends with 1 of 6 W6 and resists with none of 5: 12 steps, the last physical one
        + _resolve("angriff Alrik -> Ork entschieden", [6] * 8 + [1] * 2 + [6] + [1] * 5 + [1] * 5)
        + "b.next_turn()\n"                                             # the Ork skipped
        + _resolve('schaden "Goblin 1" menge=4 leiste=geistig', []),
        1, "Goblin 1", {"Ork": "bewusstlos, dem Tod nahe"}, ("Goblin 1", "geistig 8 von 12"),
        ("Ork", "Reaktionen: 1 (noch 1)"), "Alrik", "angriff", 'angriff "Goblin 1" -> Alrik'),
    "midgard": Fight(
        MIDGARD_FIGHT,
        "b.start(dice=[4, 2, 1])\n"
        + _resolve('angriff Wolfgang -> "Räuber 1"', [15, 3, 6])        # 8 damage - RS 1: LP 8 -> 1
        + "b.next_turn()\nb.next_turn()\nb.next_turn(dice=[1, 3, 5])\n"  # round 2: Räuber 2, Wolfgang, Räuber 1
        + _resolve('angriff "Räuber 2" -> Wolfgang', [17, 3, 5])        # LP 16 -> 14
        + "b.next_turn()\n"
        + _resolve('angriff Wolfgang -> "Räuber 1"', [15, 3, 4]),       # LP 1 -> 0
        2, "Wolfgang", {"Räuber 1": "kampfunfähig (LP 0 ≤ 0, Grundregel kampfunfaehig_lp)"},
        ("Wolfgang", "LP 14 von 16"), ("Wolfgang", "1. Abwehr (noch 1)"), "Räuber 2", "angriff",
        'angriff Wolfgang -> "Räuber 2"'),
    "osr": Fight(
        OSR_FIGHT,
        "b.start(dice=[5, 2])\n"
        + _resolve('angriff Hauptmann -> "Goblin 1"', [18, 6])          # 6 + 1 = 7 against 4 TP
        + "b.next_turn()\n"
        + "kampagne.add_condition('Goblin 2', 'schläft')\n",            # the Magier's sleep spell
        1, "Magier", {"Goblin 1": "tot (TP 0 ≤ 0, Einstellung todesschwelle)", "Goblin 2": "schläft"},
        ("Goblin 1", "TP 0 von 4"), ("Hauptmann", "hat gehandelt (noch 1)"), "Ork", "angriff", "angriff Magier -> Ork"),
    "kampfwerte": Fight(
        KAMPFWERTE_FIGHT,
        "from rpgkernel.rules import kampfwerte as kw\n"
        "kw.karte_setzen(b, kw.HexKarte(10, 10))\n"
        "rpgkernel.resolve('platziere Kael auf=(2,2)\\nplatziere Ork auf=(3,2)\\nplatziere Goblin auf=(2,3)', "
        "campaign=kampagne)\n"
        "b.start(rolls={'Kael': 20, 'Ork': 15, 'Goblin': 12})\n"
        # a Wuchtschlag 5 hits with 2 successes; the Ork's parry fails: knocked down
        + _resolve("manöver Kael -> Ork manöver=Wuchtschlag stufe=5", [8, 8, 2, 2, 2, 9, 9, 9]),
        1, "Kael", {"Ork": "niedergeworfen: steht auf"}, ("Kael", "AD 15 von 20"), ("Ork", "niedergeworfen (noch 1)"),
        "Goblin", "manöver", "manöver Kael -> Goblin"),
}


def _cells(path, key: str, fight: Fight) -> list[str]:
    return ["%load_ext rpgkernel", f"%rpg --kampagne {path}\n%rpg {key}", "%%figuren\n" + fight.figures,
            "import rpgkernel\nfrom rpgkernel.widgets import EncounterPanel\n"
            "kampagne = rpgkernel.session.current().campaign\nb = kampagne.encounter\n"
            + fight.play + "EncounterPanel(kampagne)"]


@pytest.mark.parametrize("key", list(FIGHTS))
def test_a_fight_in_each_ruleset(key, notebook, page, lab, tmp_path):
    fight, path = FIGHTS[key], tmp_path / "k.sqlite"
    nb = notebook(_cells(path, key, fight))
    panel = nb.output(PANEL_CELL).locator(".rpgk-panel")
    with Campaign.open(path) as camp:      # what the moves left in the campaign file
        enc = camp.encounter
        assert (camp.ruleset, enc.round, enc.current) == (key, fight.round, fight.current)
        assert enc.out_of_fight() == fight.out
        heading = f"{enc.name} {rules.get(key).title}"

    expect(panel.locator("h3").first).to_have_text(heading)
    expect(panel.locator(".rpgk-panel-facts")).to_have_text(
        f"Runde {fight.round} · am Zug: {fight.current} · {len(fight.out)} außer Gefecht")
    expect(panel.locator("tbody tr[aria-current='true'] th")).to_have_text(fight.current)
    for name, reason in fight.out.items():
        expect(row(panel, name)).to_have_class(re.compile(r"\brpgk-out\b"))
        expect(row(panel, name).locator(".rpgk-out-reason")).to_have_text(reason)
    expect(panel.locator("tbody tr.rpgk-out")).to_have_count(len(fight.out))
    expect(row(panel, fight.meter[0]).get_by_role("meter", name=fight.meter[1], exact=True)).to_be_visible()
    expect(row(panel, fight.condition[0]).locator(".rpgk-cond", has_text=fight.condition[1])).to_have_count(1)

    # a target picked by a click on its row, a verb of the ruleset: the line the form stands for
    line = panel.get_by_text("Als Zelle geschrieben").locator("xpath=following-sibling::pre")
    panel.locator("[data-focus='verb']").select_option(fight.verb)
    row(panel, fight.target).locator("td.rpgk-side").click()
    expect(row(panel, fight.target)).to_have_attribute("aria-selected", "true")
    expect(panel.locator("[data-picked='targets'] strong")).to_have_text(fight.target)
    expect(line).to_have_text(f"%%resolve\n{fight.line}")
    expect(panel.get_by_role("alert")).to_have_count(0)
    # the whole table in view: no column pushed out of its box (the reason under a name wraps)
    wrap = panel.locator(".rpgk-order-wrap")
    assert wrap.evaluate("el => el.scrollWidth - el.clientWidth") <= 0, wrap.evaluate("el => el.scrollWidth")

    assert illegible(panel) == [] and illegible_meters(panel) == []
    gallery(panel, f"kampf_{key}")
    with theme(page, lab, "JupyterLab Dark"):
        assert illegible(panel) == [] and illegible_meters(panel) == []
        gallery(panel, f"kampf_{key}_dunkel")
