"""Midgard's verbs: every preview (``--vorschau``, computed without dice) is the preview the procedure
records when it rolls."""

import pytest
from resolve_campaigns import campaign

import rpgkernel
from rpgkernel.dice import Dist
from rpgkernel.rules.midgard.verbs import VERBS

LINES = {
    "ew": "ew Marvelus fertigkeit=Balancieren wm=-3",
    "ww": 'ww "Wolfgang Krentz" gegen=23 wm=2',
    "pw": "pw Marvelus eigenschaft=ge wm=5",
    "angriff": 'angriff "Wolfgang Krentz" -> Schattenelf wm=1 abwehr_nr=2',
    "initiative": 'initiative "Wolfgang Krentz", Schattenelf, Bilbo angriffsrang',
    "attributkauf": "attributkauf Bilbo punkte=8 ge=100 ko=+1",
    "lp_wurf": "lp_wurf Marvelus",
    "ap_wurf": "ap_wurf Bilbo grad=12",
    "angeboren": "angeboren Bilbo",
}


def test_every_verb_with_a_preview_is_played_here():
    assert set(LINES) == {name for name, verb in VERBS.items() if verb.preview is not None}


def _same(a, b):
    if isinstance(a, Dist):
        return isinstance(b, Dist) and a.isclose(b) and a.label == b.label
    if isinstance(a, dict):
        return isinstance(b, dict) and list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    return a == b


@pytest.mark.parametrize("verb", sorted(LINES))
def test_the_preview_is_the_procedures(verb, tmp_path):
    with campaign("midgard", tmp_path / "m.sqlite") as camp:
        shown = rpgkernel.resolve(LINES[verb], campaign=camp, preview=True).preview
        assert shown, verb
        rolled = rpgkernel.resolve(LINES[verb], campaign=camp, seed=7)
        assert rolled.steps and _same(shown, rolled.preview), verb
