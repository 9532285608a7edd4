"""The advice on an attack's open choices (Deny, Gambits, Focus) against brute force: for small pools,
each option's decisions are carried out by the attack procedure itself over every face of every die
still to roll (the saves, a Dismount's W6, the scar die), and the outcomes counted."""

from __future__ import annotations

import pytest
from brute_force import leaves
from german_numbers import english_in_bundle

import rpgkernel
from rpgkernel import rules
from rpgkernel.dice import Roller
from rpgkernel.messages import t
from rpgkernel.rules.advice import DECLINE
from rpgkernel.rules.bastionland.damage import out_of_fight
from rpgkernel.rules.figure import view
from rpgkernel.rules.resolution import Request

ENGINE = rules.get("bastionland")


@pytest.fixture(autouse=True)
def resolutions_speak_german():
    """Brute force makes thousands of resolutions: instead of rendering each when the test ends (the
    suite's check), ``opened`` checks the numbers of each advised resolution's card itself."""


def figure(name, side="", **sheet):
    checked = ENGINE.sheet.validate(sheet)
    return {"name": name, "ruleset": "bastionland", "side": side, "sheet": checked,
            "resources": ENGINE.sheet.resources(checked, {}), "conditions": {}}


RITTER = figure("Ritter", "Spieler", vig=13, cla=10, spi=13, gd=5, waffen=["Streitkolben (W8)", "Schild (W4)"])
KNAPPE = figure("Knappe", "Spieler", vig=10, cla=7, spi=10, gd=3, waffen=["Dolch (W6)", "Dolch (W6)"])
SOELDNER = figure("Söldner", "Feinde", vig=13, cla=10, spi=10, gd=4, ruestung=2, waffen=["Speer (W8)"])
WACHE = figure("Wache", "Feinde", vig=10, cla=10, spi=12, gd=3, waffen=["Keule (W6)"])
SCHWACH = figure("Bandit", "Feinde", vig=4, cla=8, spi=6, gd=2, waffen=["Messer (W4)"])
SCHAR = figure("Schar", "Feinde", vig=8, cla=8, spi=8, gd=4, art="Kriegsschar", waffen=["Speere (W8)"])


def request(attackers, targets, options=None, decisions=None, roller=None, combatants=()):
    everyone = {f["name"]: f for f in (*attackers, *targets, *combatants)}
    return Request(list(attackers), list(targets), dict(options or {}), roller, decisions or {}, everyone, {},
                   ENGINE.settings, {f["name"]: f for f in combatants})


def opened(attackers, targets, faces, options=None, combatants=()):
    """The open attack on the given faces and its advice."""
    req = request(attackers, targets, options, roller=Roller(dice=faces), combatants=combatants)
    res = ENGINE.verbs["angriff"].procedure(req)
    assert res.open
    res.advice = ENGINE.tactics.advice(req, res)
    assert not english_in_bundle(res)
    return res, res.advice


def decisions(res, option):
    """The decisions the option's lines stand for, every other open choice declined (as %%resolve takes them)."""
    out = {c.key: [] for c in res.choices}
    for take in option.takes:
        if take.key != DECLINE:
            target = take.key.partition(":")[2]
            out[take.key].append({"figures": [take.who], "targets": [target] if target else [], **take.options})
    return out



def applied(record, effects):
    """The record with the effects on it folded in (resources within 0 and their maximum)."""
    out = {**record, "resources": {k: dict(v) for k, v in record["resources"].items()},
           "conditions": dict(record["conditions"])}
    for e in effects:
        if e.figure != record["name"]:
            continue
        if e.resource:
            r = out["resources"][e.resource]
            r["value"] = max(0, min(r["max"], r["value"] + e.by))
        elif e.condition:
            if e.on:
                out["conditions"][e.condition] = {}
            else:
                out["conditions"].pop(e.condition, None)
    return out


def played(attackers, targets, faces, res, option, options=None, combatants=()):
    """(probability, closed resolution) of the option's decisions over every remaining die."""
    def run(more):
        req = request(attackers, targets, options, decisions(res, option), Roller(dice=[*faces, *more]), combatants)
        closed = ENGINE.verbs["angriff"].procedure(req)
        assert not closed.open
        return closed
    return leaves(run)


def brute(outcomes, target):
    """What the outcomes (``played``) mean for the target: damage, its consequence, whether it falls, who is
    Fatigued, which gambits took effect."""
    damage, chances = {}, {}
    falls = t("bastionland.advice.faellt", ziel=target["name"])

    def count(name, p):
        chances[name] = chances.get(name, 0.0) + p
    for p, closed in outcomes:
        seen = closed.outcome["ziele"][target["name"]] if "ziele" in closed.outcome else closed.outcome
        damage[seen["schaden"]] = damage.get(seen["schaden"], 0.0) + p
        count(falls, p * (out_of_fight(view(applied(target, closed.effects))) is not None))
        count(t("bastionland.advice.folge", ziel=target["name"], folge=seen["folge"]), p)
        for e in closed.effects:
            if e.condition == "Fatigued":
                count(t("bastionland.advice.fatigued", figure=e.figure), p)
        for g in seen.get("gambits", []):
            if g["gambit"] != "Bolster":
                count(t("bastionland.advice.wirkt", gambit=g["gambit"]), p * (not g["widerstanden"]))
    return damage, chances


def agrees(attackers, targets, faces, options=None, combatants=()):
    """Every option of the advice agrees with brute force (of the gambits and Focus, those of the first
    attacker who may take them: another's differ only in the name the lines write); returns the advice."""
    res, advice = opened(attackers, targets, faces, options, combatants)
    everyone = {f["name"]: f for f in (*attackers, *targets)}
    firsts, enumerated = {}, {}
    for a in advice:
        if firsts.setdefault(a.key, a.who) != a.who and not a.key.startswith("deny"):
            continue
        target = everyone[a.key.partition(":")[2] or targets[0]["name"]]
        for option in a.options:
            # options standing for the same decisions (each "none" declines everything) are played once
            key = repr(decisions(res, option))
            if key not in enumerated:
                outcomes = played(attackers, targets, faces, res, option, options, combatants)
                enumerated[key] = {f["name"]: brute(outcomes, f) for f in targets}
            damage, chances = enumerated[key][target["name"]]
            assert option.damage.pmf() == pytest.approx(damage, abs=1e-12), (a.key, a.who, option.label)
            said = {name: p for name, p in option.chances if p}
            assert said == pytest.approx({k: p for k, p in chances.items() if p > 1e-15}, abs=1e-12), \
                (a.key, a.who, option.label)
    return advice


def test_deny_gambits_and_focus_of_the_seed_example_agree_with_brute_force():
    """W8, W4, 2W6 show 8, 3, 1, 5 against armour 2 (melee: the 8 makes Strong Gambits); the guard at
    arm's reach may Deny for the Söldner."""
    advice = agrees([RITTER, KNAPPE], [SOELDNER], [8, 3, 1, 5], combatants=[RITTER, KNAPPE, SOELDNER, WACHE])
    keys = [(a.key, a.who) for a in advice]
    assert keys == [("deny", "Söldner"), ("deny", "Wache"), ("gambit", "Ritter"), ("gambit", "Knappe"),
                    ("focus", "Ritter"), ("focus", "Knappe")]
    deny = advice[0]
    assert deny.objective == "Möglichst wenig Schaden für Söldner" and deny.reads == ("Söldner",)
    assert [o.label for o in deny.options] == ["Kein Deny", "Deny auf die 8", "Deny auf die 5", "Deny auf die 3",
                                               "Deny auf die 1"]
    assert [o.damage.pmf() for o in deny.options[:2]] == [{6: 1.0}, {3: 1.0}]
    assert deny.options[1].notes == ("Söldner: GD -3",)
    gambit = advice[2]
    labels = [o.label for o in gambit.options]
    assert labels[:4] == ["Alle Würfel für den Schaden behalten", "Bolster mit 5", "Bolster mit 5 und 8",
                          "Move mit der 5"]
    assert "Repel mit der 8, Strong Gambit ohne Probe" in labels and "Move mit der 8, Strong Gambit ohne Probe" \
        not in labels
    assert gambit.options[1].takes[0].options == {"würfel": 5, "gambit": "Bolster"}
    # the Strong Gambit's other option: a bigger effect, for every gambit but Bolster (Move has no save to waive)
    bigger = [o for o in gambit.options if o.label.endswith("Strong Gambit mit größerem Effekt")]
    assert [o.label.partition(" ")[0] for o in bigger] == ["Move", "Repel", "Stop", "Impair", "Trap", "Dismount"]
    assert all(o.takes[0].options["würfel"] == 8 and o.takes[0].options["stark"] == "größer" for o in bigger)
    impair = bigger[3]
    assert impair.notes[-1] == ("Größerer Effekt, wenn Impair wirkt: Die Waffe entwenden oder zerbrechen "
                                "(wenn aus Holz)")
    assert dict(impair.chances)["Impair wirkt"] == pytest.approx(7 / 20)   # the save stays: W20 over VIG 13
    assert not any("größer" in note for o in bigger if o.label.startswith(("Move", "Repel")) for note in o.notes)


def test_a_weak_target_may_die_be_mortally_wounded_or_scarred_and_a_dismount_mixes_the_w6_in():
    advice = agrees([RITTER], [SCHWACH], [8, 3])   # GD 2, VIG 4: 4 or 5 damage is a mortal wound, 6 kills
    gambit = next(a for a in advice if a.key == "gambit")
    dismount = next(o for o in gambit.options if o.label == "Dismount mit der 8, Strong Gambit ohne Probe")
    assert dismount.damage.pmf() == pytest.approx({3: 1 / 2, 4: 1 / 6, 5: 1 / 6, 6: 1 / 6})   # the W6 joins the 3
    assert dict(dismount.chances) == pytest.approx({"Bandit fällt": 1 / 2, "Bandit: verwundet": 1 / 2,
                                                    "Bandit: Todeswunde": 1 / 3, "Bandit: tot": 1 / 6,
                                                    "Dismount wirkt": 1.0})
    deny = next(a for a in advice if a.key == "deny")
    assert [(o.label, o.damage.pmf(), o.notes) for o in deny.options[:2]] == [
        ("Kein Deny", {8: 1.0}, ("Bandit: GD -2, VIG -4, verwundet, tot",)),
        ("Deny auf die 8", {3: 1.0}, ("Bandit: GD -2, VIG -1, verwundet",))]


def test_a_fatigued_target_is_offered_no_deny_and_an_impaired_attacker_no_focus():
    tired = {**SOELDNER, "conditions": {"Fatigued": {}}}
    res, advice = opened([RITTER, KNAPPE], [tired], [3, 4], {"beeinträchtigt": True})   # W4 each
    assert [(a.key, a.who) for a in advice] == [("gambit", "Ritter"), ("gambit", "Knappe")]
    assert not any(c.key == "focus" for c in res.choices)


def test_ranged_attacks_offer_no_strong_gambit_and_a_warband_is_unhurt_by_a_single_attack():
    advice = agrees([KNAPPE], [SCHAR], [6, 5], {"fernkampf": True})
    gambit = next(a for a in advice if a.key == "gambit")
    assert not any("Strong" in o.label for o in gambit.options)
    assert dict(gambit.options[0].chances)["Schar: unversehrt"] == 1.0


@pytest.mark.slow
def test_a_blast_advises_each_target_apart():
    # 5, 2 leave the Söldner 3 short of its GD 4 and 7, 3 wound the Wache (GD 3), so a scar die joins only the
    # options that move a damage onto the GD (Focus: Bolster on the Söldner; the Wache's Deny or gambit with
    # the 7), not every Focus's two W20 saves: 7,448 outcomes instead of the 48,396 of 6, 2, 7, 1 (the Söldner
    # scarred by every option), and the branches of rpgkernel reached are the same 5,576 (branch coverage).
    advice = agrees([RITTER], [SOELDNER, WACHE], [5, 2, 7, 3], {"blast": True})
    assert {a.key for a in advice} == {"deny:Söldner", "deny:Wache", "gambit:Söldner", "gambit:Wache",
                                       "focus:Söldner", "focus:Wache"}


def test_a_bigger_effect_is_the_one_the_gambit_table_names(tmp_path):
    """Through %%resolve: the bigger Trap, its save failed, writes the effect the advice named."""
    camp = rpgkernel.Campaign.open(tmp_path / "k.sqlite")
    camp.set_ruleset("bastionland")
    for f in (RITTER, SOELDNER):
        camp.add_character(f["name"], f["sheet"])
    opened_ = rpgkernel.resolve("angriff Ritter -> Söldner", campaign=camp, dice=[8, 2])
    gambit = next(a for a in opened_.advice if a.key == "gambit")
    option = next(o for o in gambit.options if o.label == "Trap mit der 8, Strong Gambit mit größerem Effekt")
    assert option.lines == ("gambit Ritter würfel=8 gambit=Trap stark=größer",)
    closed = rpgkernel.resolve("\n".join(option.lines), campaign=camp, dice=[20])   # the VIG save fails
    assert option.notes[-1].endswith(": Den Schild zerbrechen (wenn aus Holz)")
    assert any("Den Schild zerbrechen (wenn aus Holz)" in s.text for s in closed.steps)
    assert closed.outcome["schaden"] == option.damage.min == 0
    assert "Schild festgesetzt" in camp.figure("Söldner").conditions
    camp.close()


def test_the_advice_lines_are_what_resolve_takes(tmp_path):
    """Through %%resolve: the lines of an option, sent alone, close the attack as the advice says."""
    camp = rpgkernel.Campaign.open(tmp_path / "k.sqlite")
    camp.set_ruleset("bastionland")
    for f in (RITTER, SOELDNER):
        camp.add_character(f["name"], f["sheet"])
    opened_ = rpgkernel.resolve("angriff Ritter -> Söldner", campaign=camp, dice=[7, 4])
    deny = next(a for a in opened_.advice if a.key == "deny")
    option = next(o for o in deny.options if o.label == "Deny auf die 7")
    assert option.lines == ("deny Söldner würfel=7",)
    closed = rpgkernel.resolve("\n".join(option.lines), campaign=camp, dice=[20])   # the SPI save fails
    assert closed.outcome["schaden"] == option.damage.min == 2
    assert "Fatigued" in camp.figure("Söldner").conditions
    camp.close()


def test_a_big_pool_names_at_most_a_few_dice_to_deny_and_bolster_counts():
    from rpgkernel.rules.bastionland.advice import SHOWN
    faces = [8, 4, *range(20, 4, -1)]   # Streitkolben, Schild, 16 bonus W20
    res, advice = opened([RITTER], [SOELDNER], faces, {"bonus": ["W20"] * 16})
    deny, gambit = advice[0], advice[1]
    assert [o.label for o in deny.options][1:] == [f"Deny auf die {f}" for f in range(20, 20 - SHOWN, -1)]
    bolster = [o for o in gambit.options if o.label.startswith("Bolster")]
    assert len(bolster) == SHOWN and bolster[-1].damage.pmf() == {20 + SHOWN - 2: 1.0}
