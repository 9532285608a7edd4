"""The compact model of a fight (``rules.bastionland.compact``) against the attack procedure itself: every
face of the attack dice and of the save, played through ``attack`` with given dice under the tactics'
Deny, then every face of the morale save the tactics demand after it, played through ``morale``, gives
the model's chances exactly; a warband's Blast on two individuals, decided as the procedure path
decides it, gives the product of each target's turn."""

import itertools
import math

import pytest

from rpgkernel.dice import Roller
from rpgkernel.rules import bastionland as bl
from rpgkernel.rules.bastionland import Bastionland
from rpgkernel.rules.bastionland.compact import Stand, covers
from rpgkernel.rules.bastionland.sheet import virtue, weapon_dice
from rpgkernel.rules.figure import view
from rpgkernel.rules.tactics import Action, Fight

from .test_rules import RITTER, conds, figure

TACTICS = Bastionland.tactics


def fight_of(*figures):
    return Fight({f.name: f for f in figures}, {f.name: why for f in figures if (why := bl.damage.out_of_fight(f))}, 1, {},
                 Roller(dice=[]))


def enumerated(attacker, target, state, tactics=TACTICS):
    """The target's states after ``attacker``'s attack, by playing every roll through the procedures: the
    attack, then the morale the tactics demand after it."""
    me = target.changed({"GD": state.gd, "VIG": state.vig}, state.zustaende)
    pool = bl.attack.attack_pool([attacker], me)
    armour = me.value("ruestung", 0)
    found: dict = {}
    for faces in itertools.product(*[range(1, int(d[1:]) + 1) for d in pool]):
        denies = tactics.denies(me, sorted(faces, reverse=True), armour)
        for save in range(1, 21) if denies else [None]:
            dice = [*faces, *([save] if denies else []), 1]   # the scar die last
            res = bl.attack.attack([attacker], me, Roller(dice=dice), deny=[me.name] if denies else None)
            lost = {e.resource: -e.by for e in res.effects if e.figure == me.name and e.resource}
            added = conds(res, me.name) - {"Narbe"}
            hit = Stand(state.gd - lost.get("GD", 0), state.vig - lost.get("VIG", 0), state.zustaende | added)
            after = target.changed({"GD": hit.gd, "VIG": hit.vig}, hit.zustaende)
            demanded = tactics.morale(fight_of(attacker, me), fight_of(attacker, after)) if tactics.moral else []
            assert demanded in ([], [Action("moral", (me.name,))])
            p = 1 / math.prod(int(d[1:]) for d in pool) / (20 if denies else 1)
            for face in range(1, 21) if demanded else [None]:
                fled = conds(bl.core.morale([after], Roller(dice=[face])), me.name) if demanded else set()
                nxt = hit._replace(zustaende=hit.zustaende | fled)
                found[nxt] = found.get(nxt, 0.0) + p / (20 if demanded else 1)
    return found


KNIGHT = figure("Ritter", vig=6, spi=13, gd=3, armour=2, extra={"spielfigur": True}, **RITTER)
SÖLDNER = figure("Söldner", vig=5, spi=9, gd=2, armour=2, weapons=["Speer (W8)", "Schild (W4)"])
MILIZ = figure("Miliz", vig=6, spi=7, gd=2, weapons=["Knüppel (W4)"], side="Haufen", extra={"art": "Kriegsschar"})


@pytest.mark.parametrize("attacker, target, state", [
    (SÖLDNER, KNIGHT, Stand(3, 6)),                                   # Deny and the SPI save
    (SÖLDNER, KNIGHT, Stand(0, 4, frozenset({"verwundet"}))),         # damage beyond GD: VIG, Todeswunde, tot
    (SÖLDNER, KNIGHT, Stand(1, 6, frozenset({"Fatigued"}))),          # Fatigued: no Deny
    (KNIGHT, SÖLDNER, Stand(2, 5)),                                   # no Knight: no Deny; wounded: morale
    (KNIGHT, SÖLDNER, Stand(0, 4, frozenset({"verwundet"}))),         # wounded before: no morale again
    (figure("Bandit", weapons=["Knüppel (W6)"]), KNIGHT, Stand(3, 6)),   # one die: a Deny leaves nothing
    (figure("Bandit", spi=0, weapons=["Axt (W10)"], side="Banditen"), SÖLDNER, Stand(2, 5)),   # SPI 0: impaired, a W4
    (KNIGHT, figure("Wache", cla=0, gd=4, vig=7, weapons=["Speer (W8)"]), Stand(4, 7)),   # CLA 0: exposed
    (MILIZ, KNIGHT, Stand(3, 6)),                                     # a warband on an individual: +W12, Deny
    (MILIZ, SÖLDNER, Stand(2, 5)),                                    # the same, no Deny; morale
    (KNIGHT, MILIZ, Stand(2, 6)),                                     # an individual's attack: unhurt
    (figure("Haufen", weapons=["Spieß (W8)"], extra={"art": "Kriegsschar"}), MILIZ, Stand(2, 6)),   # warband on
    (figure("Haufen", weapons=["Spieß (W8)"], extra={"art": "Kriegsschar"}), MILIZ, Stand(0, 2)),   # warband:
])                                                                    # hurt, vertrieben, vernichtet
@pytest.mark.parametrize("tactics", [TACTICS, TACTICS.without_morale()], ids=["moral", "ohne_moral"])
def test_one_attack_as_the_procedure_plays_it(attacker, target, state, tactics):
    model = tactics.compact([attacker, target], {})
    got = dict((s, p) for p, s in model.hit(0, 1, state))
    expected = enumerated(attacker, target, state, tactics)
    assert set(got) == set(expected)
    assert all(got[s] == pytest.approx(p, abs=1e-12) for s, p in expected.items())
    assert sum(got.values()) == pytest.approx(1.0, abs=1e-12)


def test_a_wounded_individual_flees_on_a_failed_spi_save():
    """Wankender Kampfeswille in the model: a Söldner (SPI 9) wounded by the Knight flees with 11 in 20;
    the Knight, a player character, never; without morale nobody."""
    flees = frozenset({"verwundet", "flieht oder ergibt sich"})
    for tactics, chance in ((TACTICS, 11 / 20), (TACTICS.without_morale(), 0)):
        model = tactics.compact([KNIGHT, SÖLDNER], {})
        after = dict((s, p) for p, s in model.hit(0, 1, Stand(2, 5)))
        wounded = sum(p for s, p in after.items() if "verwundet" in s.zustaende and model.standing(1, s._replace(
            zustaende=s.zustaende - {"flieht oder ergibt sich"})))
        assert wounded > 0.2
        assert sum(p for s, p in after.items() if s.zustaende == flees) == pytest.approx(wounded * chance, abs=1e-12)
        assert all(not model.standing(1, s) for s in after if "flieht oder ergibt sich" in s.zustaende)
        assert not any("flieht oder ergibt sich" in s.zustaende for _, s in model.hit(1, 0, Stand(0, 6)))


def test_states_views_and_who_stands():
    model = TACTICS.compact([KNIGHT, SÖLDNER], {})
    assert model.start(0) == Stand(3, 6) and model.start(1) == Stand(2, 5)
    hurt = model.view(0, Stand(0, 2, frozenset({"verwundet", "Todeswunde", "Fatigued"})))
    assert (hurt.current("GD"), hurt.current("VIG"), hurt.current("SPI")) == (0, 2, 13)
    assert hurt.has("Fatigued") and weapon_dice(hurt) == ["W8", "W4"]
    assert not model.standing(0, Stand(0, 2, frozenset({"Todeswunde"}))) and model.standing(0, Stand(0, 2))
    assert model.resources(1, Stand(1, 4)) == {"GD": 1, "VIG": 4, "CLA": 10, "SPI": 9}


def blasted(attacker, targets, states, tactics=TACTICS):
    """The targets' joint states after ``attacker``'s Blast on all of them, by playing every face of every
    attack die through the open attack, the tactics' decisions on it (``decide``: a Deny per target),
    the closing attack, then the morale the tactics demand. A Deny's SPI save is played with the lowest
    failing face and with every succeeding face, weighted by their number."""
    us = [t.changed({"GD": s.gd, "VIG": s.vig}, s.zustaende) for t, s in zip(targets, states)]
    pools = [bl.attack.attack_pool([attacker], me) for me in us]
    faces_of = [list(itertools.product(*[range(1, int(d[1:]) + 1) for d in pool])) for pool in pools]
    everyone = [attacker, *us]
    found: dict = {}
    for faces in itertools.product(*faces_of):
        p = 1 / math.prod(len(f) for f in faces_of)
        rolled = bl.attack.attack([attacker], us, Roller(dice=[x for f in faces for x in f]), decided=False,
                                  combatants=everyone)
        taken = tactics.decide(rolled, fight_of(*everyone))
        denied = {a.targets[0] for a in taken if a.verb == "deny"}
        assert all(a.actors == a.targets for a in taken if a.verb == "deny")   # each denies for itself
        saves = [[(q, [face]) for q, face in ((virtue(me, "SPI") / 20, virtue(me, "SPI")),
                                              (1 - virtue(me, "SPI") / 20, virtue(me, "SPI") + 1)) if q]
                 if me.name in denied else [(1.0, [])] for me in us]
        for chosen in itertools.product(*saves):
            q = math.prod(c[0] for c in chosen)
            dice = [x for c in chosen for x in (*c[1], 1)]   # each target's save, then its scar die
            res = bl.attack.attack([attacker], us, Roller(dice=dice), per_target={
                me.name: {"faces": list(f), "deny": [me.name] if me.name in denied else []}
                for me, f in zip(us, faces)}, combatants=everyone)
            hit = []
            for me, state in zip(us, states):
                lost = {e.resource: -e.by for e in res.effects if e.figure == me.name and e.resource}
                hit.append(Stand(state.gd - lost.get("GD", 0), state.vig - lost.get("VIG", 0),
                                 state.zustaende | (conds(res, me.name) - {"Narbe"})))
            after = [t.changed({"GD": h.gd, "VIG": h.vig}, h.zustaende) for t, h in zip(targets, hit)]
            demanded = tactics.morale(fight_of(attacker, *us), fight_of(attacker, *after)) if tactics.moral else []
            wavering = [n for a in demanded for n in a.actors]
            for fates in itertools.product(*[range(1, 21) if me.name in wavering else [None] for me in us]):
                nxt = tuple(h._replace(zustaende=h.zustaende | (conds(bl.core.morale([a], Roller(dice=[face])), a.name)
                                                                 if face else set()))
                            for h, a, face in zip(hit, after, fates))
                found[nxt] = found.get(nxt, 0.0) + p * q / 20 ** sum(f is not None for f in fates)
    return found


LEADER = figure("Ritter", vig=6, spi=13, gd=3, armour=2, side="Spieler", extra={"spielfigur": True}, **RITTER)
KNAPPE = figure("Knappe", vig=5, spi=8, gd=2, armour=1, weapons=["Dolch (W6)"], side="Spieler")


def test_a_warbands_blast_on_two_individuals_as_the_procedure_plays_it(tactics=TACTICS):
    """The Miliz's attack (a W2 and the warband's W12, few faces) on the Knight (Deny, its save) and the
    squire (wounded: morale) hits both, each rolled for on its own: the joint chances are the product
    of each target's turn."""
    miliz = figure("Miliz", vig=6, spi=7, gd=2, weapons=["Stock (W2)"], side="Haufen", extra={"art": "Kriegsschar"})
    model = tactics.compact([miliz, LEADER, KNAPPE], {})
    assert model.area(0, 1, [1, 2]) == (1, 2) and model.area(1, 0, [0]) == (0,)
    states = (Stand(3, 6), Stand(2, 5))
    expected = blasted(miliz, [LEADER, KNAPPE], states, tactics)
    got: dict = {}
    for p, a in model.hit(0, 1, states[0]):
        for q, b in model.hit(0, 2, states[1]):
            got[(a, b)] = got.get((a, b), 0.0) + p * q
    assert set(got) == set(expected)
    assert all(got[s] == pytest.approx(p, abs=1e-12) for s, p in expected.items())
    assert sum(expected.values()) == pytest.approx(1.0, abs=1e-12)


def test_the_tactics_attack_every_individual_with_a_warbands_blast():
    """A warband's attack on an individual names every standing foe individual (a Blast); on a warband,
    or any individual's attack, the target alone."""
    haufen = figure("Haufen", weapons=["Spieß (W8)"], side="Spieler", extra={"art": "Kriegsschar"})
    fight = fight_of(MILIZ, LEADER, haufen, KNAPPE)
    assert TACTICS.action(MILIZ, KNAPPE, fight).targets == ("Ritter", "Knappe")
    fallen = fight_of(MILIZ, LEADER.changed({"VIG": 0}, {"tot"}), haufen, KNAPPE)
    assert TACTICS.action(MILIZ, KNAPPE, fallen).targets == ("Knappe",)
    assert TACTICS.action(MILIZ, haufen, fight).targets == ("Haufen",)
    assert TACTICS.action(KNAPPE, MILIZ, fight).targets == ("Miliz",)


def test_the_target_picking_passes_over_a_warband_an_individual_cannot_hurt():
    """"schwächste": the Knight's attack cannot hurt the Miliz, the weakest, so it picks the Söldner while
    he stands and the Miliz once nobody else does; a warband's attack hurts anyone, so it picks the weakest."""
    miliz = figure("Miliz", vig=2, spi=7, gd=1, weapons=["Knüppel (W4)"], side="Haufen", extra={"art": "Kriegsschar"})
    haufen = figure("Haufen", weapons=["Spieß (W8)"], side="Spieler", extra={"art": "Kriegsschar"})
    fight = fight_of(KNIGHT, haufen, miliz, SÖLDNER)
    assert TACTICS.rank(miliz, fight) < TACTICS.rank(SÖLDNER, fight)
    assert not TACTICS.hurts(KNIGHT, miliz) and TACTICS.hurts(KNIGHT, SÖLDNER) and TACTICS.hurts(haufen, miliz)
    assert TACTICS.target(KNIGHT, [miliz, SÖLDNER], fight) is SÖLDNER
    assert TACTICS.target(KNIGHT, [miliz], fight) is miliz
    assert TACTICS.target(haufen, [miliz, SÖLDNER], fight) is miliz


def test_what_the_model_covers():
    assert covers([KNIGHT, SÖLDNER, figure("Wache", conditions=("schutzlos", "beeinträchtigt"), side="Wache")])
    assert covers([KNIGHT, MILIZ])   # warbands: Blast, +W12, unhurt by individuals
    for art in ("Schiff", "Bauwerk"):   # ships and structures take rules of their own (Holz und Stein)
        assert not covers([KNIGHT, figure("Kogge", extra={"art": art})])
        assert TACTICS.compact([KNIGHT, figure("Kogge", extra={"art": art})], {}) is None
    späher = figure("Späher")
    timed = view({"name": "Späher", "sheet": dict(späher.sheet), "resources": {k: {"value": r.value, "max": r.max}
                  for k, r in späher.resources.items()}, "conditions": {"setzt aus": {"remaining": 1}}})
    assert not covers([KNIGHT, timed])   # a condition that ends changes the fight mid-way
    assert TACTICS.compact([KNIGHT, timed], {}) is None


def test_groups_whose_morale_wavers_together():
    """A side's NPC persons are a group where the encounter has none of its own; its leader saves with
    SPI for all, and a member who flees is out of the fight."""
    s1, s2 = (figure(f"Söldner {i}", side="Söldner") for i in (1, 2))
    model = TACTICS.compact([KNIGHT, s1, s2], {})
    assert model.groups() == [(1, 2)] and TACTICS.without_morale().compact([KNIGHT, s1, s2], {}).groups() == []
    assert model.holds(1, model.start(1)) == bl.core.save_chance(bl.sheet.virtue(s1, "SPI"))
    assert not model.standing(2, model.flees(2, model.start(2))) and model.standing(2, model.start(2))
    assert TACTICS.compact([KNIGHT, s1, figure("Räuber", side="Räuber")], {}).groups() == []   # one alone: individual
    assert TACTICS.compact([figure("Ritter", side="Spieler"), figure("Knappe", side="Spieler"), s1],
                           {}).groups() == []   # players are exempt
    grouped = [view({**{k: getattr(f, k) for k in ("name", "side")}, "sheet": dict(f.sheet), "group": g,
                     "resources": {k: {"value": r.value, "max": r.max} for k, r in f.resources.items()}})
               for f, g in ((s1, "Wache"), (s2, None))]
    assert TACTICS.compact([KNIGHT, *grouped], {}).groups() == []   # the encounter's groups: one member, one none
    assert [f.name for f in bl.core.einzelne([KNIGHT, *grouped])] == ["Söldner 1", "Söldner 2"]
