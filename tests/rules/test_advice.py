"""The advice slot of the ruleset kit (rpgkernel.rules.advice): typed, JSON-ready, written as the lines
%%resolve takes, kept with the open resolution and never taken by itself."""

from __future__ import annotations

import html
import json

import pytest

import rpgkernel
from rpgkernel import Campaign
from rpgkernel.dice import Dist
from rpgkernel.resolve import pending
from rpgkernel.resolve.lines import choice_line
from rpgkernel.rules import kit
from rpgkernel.rules.advice import DECLINE
from rpgkernel.rules.sheet import Field


def attack(req):
    """One W6 per attacker; open: the target may deny the highest die; else the highest die is the damage."""
    [target] = req.targets
    res = kit.Resolution("rat", "angriff", tuple(a.name for a in req.actors), (target.name,))
    faces = [req.roller.roll("W6").total for _ in req.actors]
    res.outcome = {"würfel": faces}
    if not req.decisions:
        res.choices.append(kit.Choice("deny", "Deny", (target.name,), tuple(map(str, faces))))
        return res
    left = sorted(faces)
    if req.decisions.get("deny"):
        left.remove(req.decisions["deny"][0].get("würfel", left[-1]))
    res.effects.append(kit.Effect(target.name, "LP", -(left[-1] if left else 0)))
    return res


class RatBogen(kit.Sheet):
    def resources(self, sheet, data):
        return {"LP": {"value": sheet["stärke"], "max": sheet["stärke"]}}


class RatTaktik(kit.Tactics):
    def advice(self, request, resolution):
        """Deny each die or none: the damage left (exact: nothing is rolled after the choice)."""
        faces, target = resolution.outcome["würfel"], request.targets[0]
        lp = target.current("LP")

        def option(label, takes, left):
            hit = max(left, default=0)
            return kit.Option(label, takes, Dist.const(hit), (("fällt", float(hit >= lp)),))
        options = [option("kein Deny", (kit.Take(DECLINE, target.name),), faces)]
        for f in sorted(set(faces)):
            left = list(faces)
            left.remove(f)
            options.append(option(f"die {f} entfernen", (kit.Take("deny", target.name, {"würfel": f}),), left))
        return [kit.Advice("deny", target.name, "möglichst wenig Schaden", tuple(options), (target.name,))]


class Rat(kit.Ruleset):
    key = "rat"
    title = "Rat"
    sheet = RatBogen({"stärke": Field("int", "Stärke", 1, 20, required=True)})
    verbs = {"angriff": kit.Verb("angriff", attack, "Angriff", targets="one"),
             "deny": kit.Verb("deny", None, "Deny", actors="one", targets="optional", options={"würfel": "int"},
                              choice="deny")}
    tactics = RatTaktik()


@pytest.fixture
def camp(tmp_path, add_ruleset):
    add_ruleset(Rat)
    with Campaign.open(tmp_path / "k.sqlite") as c:
        c.set_ruleset("rat")
        c.add_character("Ritter", {"stärke": 12})
        c.add_character("Knappe", {"stärke": 8})
        c.add_character("Söldner Eins", {"stärke": 5})
        yield c


def test_the_default_slot_gives_no_advice():
    res = kit.Resolution("x", "y", choices=[kit.Choice("deny", "Deny")])
    assert kit.Ruleset().tactics.advice(kit.Request([], [], {}, None), res) == []
    assert res.to_dict()["advice"] == []


def test_an_open_resolution_carries_the_advice_with_the_lines_that_take_each_option(camp):
    res = rpgkernel.resolve('angriff Ritter, Knappe -> "Söldner Eins"', campaign=camp, dice=[6, 2])
    [advice] = res.advice
    assert (advice.key, advice.who, advice.objective, advice.reads) == (
        "deny", "Söldner Eins", "möglichst wenig Schaden", ("Söldner Eins",))
    assert [o.lines for o in advice.options] == [('verzicht "Söldner Eins"',), ('deny "Söldner Eins" würfel=2',),
                                                 ('deny "Söldner Eins" würfel=6',)]
    assert [o.damage.pmf() for o in advice.options] == [{6: 1.0}, {6: 1.0}, {2: 1.0}]
    assert advice.options[0].said() == ["Schaden 6", "fällt: 100,00 %"]
    # JSON-ready, kept with the open resolution; the journal keeps what happened, not the advice
    data = json.loads(json.dumps(res.to_dict()))
    assert data["advice"][0]["options"][2] == {
        "label": "die 6 entfernen", "takes": [{"key": "deny", "who": "Söldner Eins", "options": {"würfel": 6}}],
        "lines": ['deny "Söldner Eins" würfel=6'], "said": ["Schaden 2", "fällt: 0,00 %"]}
    [record] = pending(camp).values()
    assert record["advice"] == data["advice"]
    [event] = camp.journal(kind="auflösung", last=1)
    assert "advice" not in event.data
    # nothing was taken: the advice's line takes it, and then no advice is left
    closed = rpgkernel.resolve(advice.options[2].lines[0], campaign=camp)
    assert not closed.open and closed.advice == [] and camp.figure("Söldner Eins").resources["LP"]["value"] == 3
    assert not pending(camp)


def test_a_choice_of_one_of_several_targets_names_it_and_declining_writes_verzicht():
    verbs = Rat.verbs.values()
    assert choice_line(verbs, "deny:Wache", "Söldner Eins", {"würfel": 5}) == 'deny "Söldner Eins" -> Wache würfel=5'
    assert choice_line(verbs, DECLINE, "Ritter") == "verzicht Ritter"
    assert choice_line(verbs, "gambit", "Ritter") == "" and choice_line(verbs, "deny", "") == ""


def test_a_spread_of_damage_is_said_with_its_range_and_mean():
    option = kit.Option("Dismount", (), Dist.die(6) + 1, (("wirkt", 0.45),), ("GD −3",), win=0.625)
    assert option.said() == ["Schaden 2 bis 7, Mittelwert 4,50", "wirkt: 45,00 %", "GD −3", "Sieg im Kampf: 62,50 %"]


HOSTILE = "<img src=x onerror=alert(1)>"


def test_the_card_shows_the_advice_beside_its_choice_escaped(camp):
    camp.add_character(HOSTILE, {"stärke": 9})
    res = rpgkernel.resolve(f'angriff Ritter -> "{HOSTILE}"', campaign=camp, dice=[4])
    text = repr(res)
    assert f"    Rat für {HOSTILE}: möglichst wenig Schaden\n      – kein Deny: Schaden 4; fällt: 0,00 % → " \
           f'verzicht "{HOSTILE}"' in text
    assert text.index("? Deny") < text.index("Rat für") < text.index("die 4 entfernen")
    markup = res._repr_html_()
    assert HOSTILE not in markup and html.escape(HOSTILE) in markup
    assert '<details class="rpgk-advice"><summary>Rat für ' in markup and "<code>deny &quot;" in markup
    assert markup.index("Noch offen") < markup.index("<details class=\"rpgk-advice\">")
