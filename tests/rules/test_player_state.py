"""The kit slot ``player_state``: what players are told of a figure, in its seed's words, never a number."""

from __future__ import annotations

import re

import pytest

from rpgkernel import rules


def fig(conditions=(), **resources):
    return {"name": "Gegner 7", "conditions": {c: {} for c in conditions},
            "resources": {k: {"value": v, "max": m} for k, (v, m) in resources.items()}}


KOERPER, GEIST = "körperlich", "geistig"
CASES = [
    ("bastionland", fig(VIG=(12, 12), GD=(4, 4)), "unversehrt"),
    ("bastionland", fig(VIG=(12, 12), GD=(1, 4)), "GD verloren"),
    ("bastionland", fig(VIG=(9, 12), GD=(0, 4)), "verwundet"),
    ("bastionland", fig(["Todeswunde"], VIG=(3, 12), GD=(0, 4)), "Todeswunde"),
    ("bastionland", fig(["tot", "Todeswunde"], VIG=(0, 12), GD=(0, 4)), "tot"),
    ("bastionland", fig(["flieht oder ergibt sich"], VIG=(12, 12), GD=(4, 4)), "flieht oder ergibt sich"),
    ("adz", fig(**{KOERPER: (12, 12), GEIST: (12, 12)}), "unversehrt"),
    ("adz", fig(**{KOERPER: (9, 12), GEIST: (12, 12)}), "verletzt"),
    ("adz", fig(**{KOERPER: (9, 12), GEIST: (10, 12)}), "verletzt, erschöpft"),
    ("adz", fig(**{KOERPER: (0, 12), GEIST: (12, 12)}), "bewusstlos, dem Tod nahe"),
    ("adz", fig(["jenseits der letzten Stufe"], **{KOERPER: (0, 12), GEIST: (12, 12)}),
     "bewusstlos, jenseits der letzten Stufe"),
    ("adz", fig(**{KOERPER: (12, 12), GEIST: (0, 12)}), "bewusstlos"),
    ("midgard", fig(LP=(14, 14), AP=(25, 25)), "unversehrt"),
    ("midgard", fig(LP=(14, 14), AP=(3, 25)), "unversehrt"),
    ("midgard", fig(LP=(9, 14), AP=(0, 25)), "verletzt, erschöpft"),
    ("midgard", fig(LP=(0, 14), AP=(0, 25)), "kampfunfähig"),
    ("osr", fig(TP=(6, 6)), "unversehrt"),
    ("osr", fig(TP=(2, 6)), "verletzt"),
    ("osr", fig(TP=(0, 6)), "tot"),
    ("osr", fig(["schläft"], TP=(6, 6)), "schläft"),
    ("kampfwerte", fig(LP=(20, 20)), "unversehrt"),
    ("kampfwerte", fig(LP=(5, 20)), "verletzt"),
    ("kampfwerte", fig(LP=(0, 20)), "kampfunfähig"),
    ("kampfwerte", fig(["niedergeworfen"], LP=(5, 20)), "niedergeworfen: steht auf"),
    (None, fig(HP=(8, 8)), "unversehrt"),
    (None, fig(HP=(3, 8)), "verletzt"),
    (None, fig(HP=(0, 8)), "kampfunfähig"),
    (None, fig(), None),
]


@pytest.mark.parametrize("key, record, said", CASES)
def test_each_ruleset_tells_players_its_seeds_word_and_no_number(key, record, said):
    text = rules.get(key).status.player_state(record, {})
    assert text == said
    assert text is None or not re.search(r"\d", text)


def test_the_gms_thresholds_move_the_state_as_they_move_the_fight():
    """Midgard's basic roll and OSR's setting, read from the GM's data as out_of_fight reads them."""
    hurt = fig(TP=(2, 6))
    assert rules.get("osr").status.player_state(hurt, {"osr": {"bewusstlos_schwelle": 2}}) == "bewusstlos"
    assert rules.get("osr").status.out_of_fight(hurt, {"osr": {"bewusstlos_schwelle": 2}}).startswith("bewusstlos (TP 2")
