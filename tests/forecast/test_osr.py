"""The forecast of an OSR fight: attacks with the weapon in hand, targets at random as the seed says."""

from __future__ import annotations

from collections import Counter

import pytest

from rpgkernel import Campaign, rules
from rpgkernel.dice import Roller
from rpgkernel.forecast import ForecastError
from rpgkernel import messages
from rpgkernel.messages import t
from rpgkernel.rules.figure import view
from rpgkernel.rules.tactics import Fight

from .duel import a_wins, attack, die

HAUPTMANN = {"stufe": 1, "rk": 6, "tp": 8, "waffen": ["Langschwert (W8)"]}
ORK = {"tw": "1", "rk": 6, "tp": 6, "waffen": ["Krummsäbel (W6)"]}


def encounter(tmp_path, *figures):
    c = Campaign.open(tmp_path / "k.sqlite")
    c.set_ruleset("osr")
    enc = c.new_encounter("Höhle")
    for name, side, sheet in figures:
        enc.add(name, side=side, sheet=sheet)
    return c, enc


def test_a_duel_as_a_markov_chain(tmp_path):
    """Level 1 and a 1-HD orc (level 2) both need 14 against AC 6 (the example fighter matrix): 7/20.
    Each round the sides roll 1W6, the higher acts first; a tie (6 of 36) and both act at once
    (``gleichzeitig``): both blows land, both may fall."""
    _, enc = encounter(tmp_path, ("Hauptmann", "Gruppe", HAUPTMANN), ("Ork", "Orks", ORK))
    f = enc.forecast(n=600, seed=1)
    hauptmann, ork = (lambda *_: attack(7 / 20, die(8))), (lambda *_: attack(7 / 20, die(6)))
    exact = a_wins(8, 6, hauptmann, ork, 15 / 36, 6 / 36)
    lost = a_wins(6, 8, ork, hauptmann, 15 / 36, 6 / 36)
    for sampled, p in ((f.win["Gruppe"], exact), (f.win["Orks"], lost), (f.draw, 1 - exact - lost)):
        assert abs(sampled.p - p) <= 4 * (p * (1 - p) / f.fights) ** 0.5, (sampled, p)   # a seeded sample
    assert f.figures["Ork"].falls.p == pytest.approx(f.win["Gruppe"].p + f.draw.p)


def figures(tmp_path):
    c, enc = encounter(tmp_path, ("Hauptmann", "Gruppe", HAUPTMANN),
                       ("Schütze", "Gruppe", {"stufe": 1, "rk": 7, "tp": 6, "waffen": ["Kurzbogen (W6, Fernkampf)"]}),
                       *((f"Goblin {i}", "Goblins", {**ORK, "tp": i}) for i in (1, 2, 3)))
    return {n: view(c.figure(n, "Höhle").record) for n in enc.record["combatants"]}


def fight(combatants, roller, zielwahl="schwächste"):
    return Fight(combatants, {}, 1, {}, roller, zielwahl)


def test_a_melee_target_is_a_foe_rolled_on_a_die(tmp_path):
    """Nahkampf-Angriff: the GM's target picking has no say; a W3 through the fight's dice picks the foe."""
    tactics = rules.get("osr").tactics
    everyone = figures(tmp_path)
    goblins = [everyone[f"Goblin {i}"] for i in (1, 2, 3)]
    for zielwahl in ("schwächste", "verteilen", "gefährlichste"):
        picked = tactics.target(everyone["Hauptmann"], goblins, fight(everyone, Roller(dice=[3]), zielwahl))
        assert picked.name == "Goblin 3"
    roller = Roller(seed=5)
    seen = Counter(tactics.target(everyone["Hauptmann"], goblins, fight(everyone, roller)).name for _ in range(3000))
    assert set(seen) == {"Goblin 1", "Goblin 2", "Goblin 3"} and all(900 < k < 1100 for k in seen.values())
    assert tactics.target(everyone["Hauptmann"], goblins[:1], fight(everyone, Roller(dice=[]))) is goblins[0]


def test_a_missile_into_the_melee_may_hit_a_friend(tmp_path):
    """Fernkampf-Angriffe: the shooter's target is rolled among everyone else in the melee, friends too."""
    tactics = rules.get("osr").tactics
    everyone = figures(tmp_path)
    goblins = [everyone[f"Goblin {i}"] for i in (1, 2, 3)]
    picked = [tactics.target(everyone["Schütze"], goblins, fight(everyone, Roller(dice=[k]))).name for k in (1, 2, 4)]
    assert picked == ["Hauptmann", "Goblin 1", "Goblin 3"]


def test_friendly_fire_in_a_forecast(tmp_path):
    """A squire nobody else can hit falls only to his own side's arrows; the orc never wins."""
    untouchable = {"stufe": 1, "rk": -20, "tp": 1}
    schuetze = {**untouchable, "etw0": -20, "waffen": ["Bogen (W6, Fernkampf)"]}
    _, enc = encounter(tmp_path, ("Schütze", "Gruppe", schuetze), ("Knappe", "Gruppe", untouchable),
                       ("Ork", "Orks", {**ORK, "rk": 10}))
    f = enc.forecast(n=200, seed=2)
    assert f.win["Orks"].p == 0 and f.figures["Schütze"].falls.p == 0
    assert 0.1 < f.figures["Knappe"].falls.p < 1


def test_the_rule_overrides_the_gms_target_picking(tmp_path):
    _, enc = encounter(tmp_path, ("Hauptmann", "Gruppe", HAUPTMANN),
                       *((f"Goblin {i}", "Goblins", {**ORK, "tp": i}) for i in (1, 2, 3)))
    shown = [{**enc.forecast(n=40, seed=4, zielwahl=z).to_dict(), "zielwahl": ""}
             for z in ("schwächste", "verteilen", "gefährlichste")]
    assert shown[0] == shown[1] == shown[2]
    assert rules.get("osr").tactics.target_rule == t("osr.forecast_target_rule")
    f = enc.forecast(n=5, seed=4)
    assert str(f.target_rule) == t("osr.forecast_target_rule")
    assert "die Ziele bestimmt die Regel" in repr(f).splitlines()[0] and "Zielwahl" not in repr(f).splitlines()[0]
    assert repr(f).splitlines()[-1] == str(f.target_rule)
    german = repr(f).splitlines()[-1]
    with messages.using("en"):   # the rule in the language the card is shown in, not the one it was made in
        assert repr(f).splitlines()[-1] == t("osr.forecast_target_rule") != german


def test_a_missing_attack_matrix_is_named(tmp_path):
    _, enc = encounter(tmp_path, ("Hauptmann", "Gruppe", {**HAUPTMANN, "klasse": "Dieb"}), ("Ork", "Orks", ORK))
    with pytest.raises(ForecastError, match="Keine Angriffsmatrix 'Dieb'.*Daten der Spielleitung"):
        enc.forecast(n=5, seed=1)
