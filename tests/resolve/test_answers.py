"""Several resolutions open at once: a choice line naming a resolution (``auflösung=ID``) goes exactly
there or is refused with the reason in German; a line without an id keeps the rule of the newest open
resolution that offers the choice. Three Bastionland attacks open, one of them reopened by an undo."""

import pytest
from panel_driving import FIRST_ATTACK as FIRST
from panel_driving import SECOND_ATTACK as SECOND
from panel_driving import THIRD_ATTACK as THIRD

import rpgkernel
from rpgkernel import ResolveError
from rpgkernel.resolve import pending


@pytest.fixture
def camp(two_mercenaries):
    return two_mercenaries


def _three_open(camp):
    """The first attack closed and reopened by an undo, then two newer ones: ids oldest first."""
    first = rpgkernel.resolve(FIRST, campaign=camp, dice=[7, 3, 5, 1, 2])
    rpgkernel.resolve(f"verzicht Ritter auflösung={first.id}", campaign=camp)
    assert first.id not in pending(camp)
    camp.undo()                                  # reopens the first attack with its dice
    second = rpgkernel.resolve(SECOND, campaign=camp, dice=[6, 4])
    third = rpgkernel.resolve(THIRD, campaign=camp, dice=[3, 2])
    ids = [first.id, second.id, third.id]
    assert list(pending(camp)) and set(pending(camp)) == set(ids) and len(set(ids)) == 3
    return ids


def _journalled(camp):
    """The resolution entries of the journal: (the open resolution's id, still open)."""
    return [(e.data.get("pending"), e.data.get("open")) for e in camp.journal("auflösung")]


def test_each_decision_lands_on_the_resolution_it_names(camp):
    first, second, third = _three_open(camp)
    # the Ritter's gambit on the oldest attack, though two newer attacks are open (one offers gambits)
    res = rpgkernel.resolve(f"gambit Ritter würfel=5 gambit=Bolster auflösung={first}", campaign=camp)
    assert res.id == first and res.targets == ("Söldner 1",) and not res.open
    assert set(pending(camp)) == {second, third}
    assert _journalled(camp)[-1] == (first, False)
    # Söldner 1 denies on the Knappe's attack on Söldner 2 (an ally's Deny), named by its id
    res = rpgkernel.resolve(f'deny "Söldner 1" würfel=6 auflösung={second}', campaign=camp, seed=2)
    assert res.id == second and res.targets == ("Söldner 2",) and not res.open
    assert set(pending(camp)) == {third}
    assert _journalled(camp)[-1] == (second, False)


def test_a_line_without_an_id_takes_the_newest_open_resolution_that_offers_the_choice(camp):
    first, second, third = _three_open(camp)
    res = rpgkernel.resolve("gambit Knappe würfel=6 gambit=Bolster", campaign=camp)   # the third offers none
    assert res.id == second and set(pending(camp)) == {first, third}
    res = rpgkernel.resolve('verzicht "Söldner 2"', campaign=camp, seed=1)             # every one offers it
    assert res.id == third and set(pending(camp)) == {first}


def test_decisions_for_several_resolutions_in_one_cell_each_go_to_their_own(camp):
    first, second, third = _three_open(camp)
    out = rpgkernel.resolve(f"verzicht Ritter auflösung={third}\n"
                            f"gambit Ritter würfel=5 gambit=Bolster auflösung={first}\n"
                            f"verzicht Knappe auflösung={second}", campaign=camp, seed=4)
    assert [r.id for r in out] == [third, first, second] and not any(r.open for r in out)
    assert [r.targets for r in out] == [("Ritter",), ("Söldner 1",), ("Söldner 2",)]
    assert pending(camp) == {}


@pytest.mark.parametrize("case", ["closed", "undone", "unknown", "not_offered", "closed_in_cell"])
def test_a_named_resolution_that_is_not_open_is_refused_with_the_reason(camp, case):
    first, second, third = _three_open(camp)
    if case == "closed":
        rpgkernel.resolve(f"verzicht Knappe auflösung={second}", campaign=camp)
        line, said = f"gambit Knappe würfel=6 auflösung={second}", f"Die Auflösung {second} ist schon abgeschlossen"
    elif case == "undone":
        camp.undo()   # the third attack
        line, said = f"deny Ritter auflösung={third}", f"Die Auflösung {third} wurde rückgängig gemacht"
    elif case == "unknown":
        line, said = "deny Ritter auflösung=0123456789ab", "Eine offene Auflösung 0123456789ab gibt es"
    elif case == "not_offered":   # the Söldner's attack on the Ritter offers no gambit to anyone
        line, said = f"gambit Ritter würfel=5 auflösung={third}", f"Die Auflösung {third} ({THIRD}) bietet die Wahl"
    else:
        line, said = (f"verzicht Knappe auflösung={second}\nverzicht Ritter auflösung={third}\n"   # the second closed
                      f"gambit Knappe würfel=6 auflösung={second}", f"Die Auflösung {second} ist schon abgeschlossen")
    before = camp.state["seq"]
    with pytest.raises(ResolveError) as err:
        rpgkernel.resolve(line, campaign=camp)
    assert said in err.value.message
    assert camp.state["seq"] == before   # nothing applied
    if case == "not_offered":
        assert third in pending(camp)


def test_an_id_option_belongs_to_choice_lines_only(camp):
    with pytest.raises(ResolveError) as err:
        rpgkernel.resolve(f"{SECOND} auflösung=0123456789ab", campaign=camp, dice=[1, 1])
    assert "Unbekannte Option 'auflösung'" in err.value.message
