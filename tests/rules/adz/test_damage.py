"""AdZ damage tracks: malus per step, unconsciousness, mental overflow, beyond the last step, healing."""

import pytest

from rpgkernel.rules import adz

from .test_core import figure

MALUS = [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 6]   # steps 1-11 of the default track; step 12 is X


def effects(res):
    return ({(e.figure, e.resource, e.by) for e in res.effects if e.resource},
            {(e.figure, e.condition, e.on) for e in res.effects if e.condition})


@pytest.mark.parametrize("marked", range(0, 13))
def test_injury_malus_per_marked_step(marked):
    malus = adz.damage.verletzungsmalus(figure(physical=12 - marked))
    assert malus == (0 if marked == 0 else None if marked == 12 else MALUS[marked - 1])


@pytest.mark.parametrize("track", ["körperlich", "geistig"])
def test_the_numbers_of_damage_are_the_effects_the_rolled_damage_lands(track):
    for fig in (figure("Ork", physical=3, mental=2), figure("Ork", physical=0, conditions=["bewusstlos"])):
        for menge in range(1, 8):
            res = adz.damage.Resolution("adz", "schaden", ("Ork",))
            adz.damage.schaden(res, fig, menge, track)
            assert adz.damage.wirkung(fig, menge, track).effekte == res.effects
            assert res.steps and not any(s.note for s in adz.damage.wirkung(fig, menge, track).anteile)


def test_physical_damage_marks_steps():
    res = adz.damage.schaden_nehmen(figure("Ork", physical=12), 4)
    assert effects(res) == ({("Ork", "körperlich", -4)}, set())


def test_the_last_physical_step_means_unconscious_and_near_death():
    res = adz.damage.schaden_nehmen(figure("Ork", physical=3), 3)
    assert effects(res) == ({("Ork", "körperlich", -3)}, {("Ork", "bewusstlos", True), ("Ork", "dem Tod nahe", True)})


def test_beyond_the_last_step_only_healing_magic_saves():
    res = adz.damage.schaden_nehmen(figure("Ork", physical=2), 5)
    res_c = effects(res)
    assert res_c[0] == {("Ork", "körperlich", -2)}
    assert ("Ork", "jenseits der letzten Stufe", True) in res_c[1] and ("Ork", "bewusstlos", True) in res_c[1]
    dying = figure("Ork", physical=0, conditions=["bewusstlos", "jenseits der letzten Stufe"])
    with pytest.raises(adz.AdzError, match="nur Heilungsmagie"):
        adz.damage.heilung(dying, 1, phasen=1)
    healed = adz.damage.heilung(dying, 2, magisch=True)
    assert effects(healed) == ({("Ork", "körperlich", 2)}, {("Ork", "jenseits der letzten Stufe", False),
                                                             ("Ork", "bewusstlos", False)})


def test_mental_damage_overflows_onto_the_physical_track():
    res = adz.damage.schaden_nehmen(figure(mental=2, physical=12), 5, "geistig")
    assert effects(res) == ({("Alrik", "geistig", -2), ("Alrik", "körperlich", -3)}, {("Alrik", "bewusstlos", True)})
    res = adz.damage.schaden_nehmen(figure(mental=2, physical=1), 5, "geistig")
    conds = effects(res)[1]
    assert ("Alrik", "jenseits der letzten Stufe", True) in conds


def test_natural_healing_times():
    res = adz.damage.heilung(figure(physical=6), 2, phasen=3)
    assert effects(res)[0] == {("Alrik", "körperlich", 2)} and "zusammen 6" in res.steps[0].text
    res = adz.damage.heilung(figure(mental=6), 4, "geistig")
    assert "120 Minuten" in res.steps[0].text
    assert adz.damage.heilung(figure(physical=11), 3, phasen=1).outcome["geheilt"] == 1  # never above the track
    with pytest.raises(adz.AdzError, match="phasen= von 1 bis 3"):
        adz.damage.heilung(figure(physical=6), 1, phasen=4)


def test_waking_up_needs_both_tracks_free():
    f = figure(mental=0, physical=12, conditions=["bewusstlos"])
    res = adz.damage.heilung(f, 1, "geistig")
    assert ("Alrik", "bewusstlos", False) in effects(res)[1]
    f = figure(mental=0, physical=0, conditions=["bewusstlos", "dem Tod nahe"])
    res = adz.damage.heilung(f, 1, "geistig")
    assert ("Alrik", "bewusstlos", False) not in effects(res)[1]


def test_the_campaign_carries_mental_damage_over_as_the_procedure_does(tmp_path):
    """Geistiger Schaden: damage beyond the last mental step goes on to the physical track, for a GM's
    change as for the procedure (one implementation, adz.sheet.leistengrenzen); the tracks stay within
    their steps, the luck pool never falls below 0 but has no upper bound (Glückspool)."""
    from rpgkernel import Campaign
    from rpgkernel.rules.figure import view
    with Campaign.open(tmp_path / "k.sqlite") as camp:
        camp.set_ruleset("adz")
        camp.add_character("Alrik", {a: 3 for a in ("KK", "KO", "GE", "FF", "KL", "WK", "IN", "CH", "GL")})
        camp.change("Alrik", "geistig", -10)
        procedure = adz.damage.schaden_nehmen(view(camp.figure("Alrik").record), 5, "geistig")
        camp.change("Alrik", "geistig", -5)
        assert camp.figure("Alrik").resources["geistig"] == {"value": 0, "max": 12}
        assert camp.figure("Alrik").resources["körperlich"] == {"value": 9, "max": 12}
        assert effects(procedure)[0] == {("Alrik", "geistig", -2), ("Alrik", "körperlich", -3)}
        assert camp.journal(last=1)[0].data["text"] == ("Alrik: geistig 2 → 0 (mindestens 0: Geistiger Schaden; "
                                                        "3 weiter auf körperlich); körperlich 12 → 9")
        camp.change("Alrik", "körperlich", -20)
        camp.change("Alrik", "körperlich", 30)
        assert [e.data["text"] for e in camp.journal(last=2)] == [
            "Alrik: körperlich 9 → 0 (mindestens 0: Körperlicher Schaden)", "Alrik: körperlich 0 → 12 (höchstens 12)"]
        camp.change("Alrik", "Glückspool", -5)
        camp.change("Alrik", "Glückspool", 7)
        assert camp.figure("Alrik").resources["Glückspool"] == {"value": 7, "max": 3}
        assert camp.journal(last=2)[0].data["text"] == "Alrik: Glückspool 3 → 0 (mindestens 0: Glückspool)"
