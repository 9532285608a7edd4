"""The player's view (state.player_view): an allow-list per viewer, asserted on its JSON text.

Each ruleset's campaign runs a fight; what must not reach a player is proven by invariance: the
view's JSON stays the same, character for character, while a hidden combatant joins, acts, rolls and
is named, and while an enemy's exact values change within one description.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from doc_blocks import assert_shown, page
from hypothesis import HealthCheck, given, settings, strategies as st

import rpgkernel
from rpgkernel import Campaign
from rpgkernel.state import CampaignError
from rpgkernel.state.player_view import view

from resolve_campaigns import campaign as ruleset_campaign

#: per ruleset: the player's figure, an enemy, the enemy's resource, the enemy's side
FIGHTS = {
    "bastionland": ("Ritter", "Söldner", "VIG", "Feinde"),
    "adz": ("Alrik", "Ork", "körperlich", "Feinde"),
    "midgard": ("Wolfgang Krentz", "Schattenelf", "LP", "Schatten"),
    "osr": ("Hauptmann", "Goblin 1", "TP", "Goblins"),
    "kampfwerte": ("Kael", "Goblin", "LP", "Feinde"),
    "frei": ("Held", "Wolf", "HP", "Rudel"),
}


def fight(key: str, path: Path) -> Campaign:
    """The ruleset's campaign with its fight started (a given order: no dice needed)."""
    if key == "frei":
        c = Campaign.open(path)
        enc = c.new_encounter("Wald")
        enc.add("Held", side="Spieler", sheet={"hp": 10})
        enc.add("Wolf", side="Rudel", sheet={"hp": 8})
        enc.add("Wölfin", side="Rudel", sheet={"hp": 8})
    else:
        c = ruleset_campaign(key, path)
    if key == "adz":
        enc = c.new_encounter("Hof")
        enc.add("Alrik", side="Spieler", character="Alrik")
        enc.add("Magierin", side="Spieler", character="Magierin")
        enc.add("Ork", side="Feinde", character="Ork")
    if key == "kampfwerte":   # an enemy on a side beside the sideless Ork of the shared campaign
        c.encounters["Gefecht"].add("Goblin", side="Feinde", like="Ork")
    enc = c.encounter or c.encounters[next(iter(c.encounters))]
    enc.activate()
    enc.start(order=list(enc.record["combatants"]))
    return c


def seen(c: Campaign, figure: str) -> str:
    """The player's view as the server would send it: JSON text."""
    return json.dumps(view(c.state, figure, c.store.events()), ensure_ascii=False, allow_nan=False)


@pytest.fixture(params=sorted(FIGHTS))
def table(request, tmp_path):
    c = fight(request.param, tmp_path / "k.sqlite")
    yield request.param, c
    c.close()


def entry(text: str, name: str) -> dict:
    return next(p for p in json.loads(text)["begegnung"]["teilnehmer"] if p["name"] == name)


def test_the_view_is_json_the_same_for_the_same_state_and_shows_the_own_side_exactly(table, tmp_path):
    key, c = table
    player, enemy, resource, side = FIGHTS[key]
    text = seen(c, player)
    assert text == seen(c, player)
    reopened = Campaign.open(c.store.address if hasattr(c.store, "address") else tmp_path / "k.sqlite")
    try:
        assert seen(reopened, player) == text                         # from the journal alone
    finally:
        reopened.close()
    shown = json.loads(text)
    assert shown["figur"]["name"] == player and shown["begegnung"]["runde"] == 1
    mine = entry(text, player)
    assert "ressourcen" in mine and "zustand" not in mine               # own side: genau
    other = entry(text, enemy)
    assert set(other) == {"name", "seite", "zustaende", "zustand"}      # others: beschreibung
    assert other["zustand"] == "unversehrt" and not re.search(r"\d", other["zustand"])


def test_the_own_sheet_carries_the_labels_the_gms_sheet_shows(table):
    """Each sheet field of the player's figure with the German label of the GM's sheet widget."""
    from rpgkernel.widgets import CharacterSheet
    key, c = table
    player = FIGHTS[key][0]
    mine = json.loads(seen(c, player))["figur"]
    assert mine["sheet"] and list(mine["labels"]) == list(mine["sheet"])
    gm = {f["name"]: f["label"] for f in CharacterSheet(c, player).fields}
    assert mine["labels"] == {k: gm[k] for k in mine["sheet"]}
    assert any(label != name for name, label in mine["labels"].items())   # a label, not the key
    assert not [label for label in mine["labels"].values() if "z. B." in label]   # the example stays in the editor
    if key == "bastionland":
        assert mine["labels"]["waffen"] == "Waffen und Schild"


def test_an_enemys_exact_values_reach_no_player_while_its_description_stands(table):
    key, c = table
    player, enemy, resource, side = FIGHTS[key]
    c.change(enemy, resource, -1)
    once = seen(c, player)
    assert entry(once, enemy)["zustand"] == "verletzt" if key != "bastionland" else "verwundet"
    c.change(enemy, resource, -1)
    assert seen(c, player) == once                                      # another value, the same JSON
    c.change(player, FIGHTS[key][2] if key != "bastionland" else "GD", -1)
    assert seen(c, player) != once                                      # the player's own values do show


def test_the_gm_chooses_per_side_journalled_and_undoable(table):
    key, c = table
    player, enemy, resource, side = FIGHTS[key]
    enc = c.encounter
    before = seen(c, player)
    enc.set_player_sight(side, "nichts")
    assert set(entry(seen(c, player), enemy)) == {"name", "seite"}
    assert list(c.store.events())[-1].data["text"] == f"{enc.name}: Spieler sehen die Seite {side} – nichts"
    enc.set_player_sight(side, "genau")
    exact = entry(seen(c, player), enemy)
    assert exact["ressourcen"][resource] == c.figure(enemy).resources[resource]
    assert enc.player_sight == {side: "genau"}
    c.undo()
    c.undo()
    assert seen(c, player) == before and enc.player_sight == {}
    own_side = entry(before, player)["seite"]
    enc.set_player_sight(own_side, "beschreibung")                    # the GM may hide the own side's numbers too
    assert "ressourcen" not in entry(seen(c, player), player) and "resources" in json.loads(seen(c, player))["figur"]
    with pytest.raises(CampaignError, match="genau, beschreibung, nichts"):
        enc.set_player_sight(side, "alles")


def test_a_hidden_combatant_leaves_no_trace_while_it_joins_acts_rolls_and_is_named(table):
    key, c = table
    player, enemy, resource, side = FIGHTS[key]
    enc = c.encounter
    enc.next_turn(seed=7)                                 # the first visible turn passes: a turn line
    current = json.loads(seen(c, player))["begegnung"]["am_zug"]
    assert current is not None
    like = enemy
    enc.add("Xorg", like=like, initiative=10**6)    # acts first in the next round
    enc.hide("Xorg")
    before = seen(c, player)
    assert "Xorg" not in before
    c.add_condition(player, "belauert von Xorg")
    c.add_condition(enemy, "wachsam", rounds=2, ends="zugende", of="Xorg")
    c.change("Xorg", resource, -1)
    assert seen(c, player) == before
    for _ in range(len(enc.order)):                 # round by round until the hidden one acts
        if enc.current == "Xorg":
            break
        enc.next_turn(seed=7)
    assert enc.current == "Xorg"
    during = json.loads(seen(c, player))
    assert "Xorg" not in seen(c, player)
    assert during["begegnung"]["am_zug"] == enc.order[enc.order.index("Xorg") - 1]    # the last visible one
    assert not any("Xorg" in line for line in during["journal"])
    enc.next_turn(seed=7)
    after = seen(c, player)
    assert "Xorg" not in after and json.loads(after)["journal"][-1].endswith(f"{enc.current} ist am Zug")
    enc.reveal("Xorg")
    assert "Xorg" in [p["name"] for p in json.loads(seen(c, player))["begegnung"]["teilnehmer"]]


def _turn(c: Campaign, player: str) -> tuple:
    """What a player's view says of the turns: the round, whose turn, the journal's turn lines."""
    shown = json.loads(seen(c, player))
    return shown["begegnung"]["runde"], shown["begegnung"]["am_zug"], shown["journal"]


@pytest.mark.parametrize("place", [0, 2, 4])
def test_players_see_the_same_turns_whether_or_not_a_hidden_one_acts(tmp_path, place):
    """A hidden combatant acting first, in the middle or last: over two rounds the players see the very
    sequence of turns (whose turn, which round, the journal's lines) they see in the fight without it."""
    from panel_driving import FURT_NAMES, make_campaign
    plain = make_campaign(tmp_path / "ohne.sqlite", start=False)
    plain.encounter.start(order=FURT_NAMES)
    ambushed = make_campaign(tmp_path / "mit.sqlite", start=False)
    ambushed.encounter.add("Xorg", like="Söldner", side="Feinde")
    ambushed.encounter.hide("Xorg")
    ambushed.encounter.start(order=[*FURT_NAMES[:place], "Xorg", *FURT_NAMES[place:]])
    try:
        with_hidden = {p: [_turn(ambushed, p)] for p in ("Ritter", "Knappe")}
        without = {p: [_turn(plain, p)] for p in ("Ritter", "Knappe")}
        for _ in range(2 * len(FURT_NAMES) + 2):
            ambushed.encounter.next_turn(seed=7)
            if ambushed.encounter.current not in ("Xorg", plain.encounter.current):
                plain.encounter.next_turn(seed=7)
                assert plain.encounter.current == ambushed.encounter.current
            for p in with_hidden:
                for turns, c in ((with_hidden[p], ambushed), (without[p], plain)):
                    if _turn(c, p) != turns[-1]:   # a turn shown on: seen once
                        turns.append(_turn(c, p))
        assert with_hidden == without
        assert with_hidden["Ritter"][0] == (1, "Ritter", []) and len(with_hidden["Ritter"]) >= 2 * len(FURT_NAMES)
    finally:
        plain.close()
        ambushed.close()


def test_an_undone_turn_leaves_the_journal_the_players_read(table):
    key, c = table
    player = FIGHTS[key][0]
    before = json.loads(seen(c, player))["journal"]
    c.encounter.next_turn(seed=7)
    assert len(json.loads(seen(c, player))["journal"]) == len(before) + 1
    c.undo()
    assert json.loads(seen(c, player))["journal"] == before


def test_the_own_open_choices_and_none_of_a_hidden_attacker(tmp_path):
    c = ruleset_campaign("bastionland", tmp_path / "k.sqlite")
    try:
        c.encounter.start(order=list(c.encounter.record["combatants"]))
        rpgkernel.resolve("angriff Ritter, Knappe -> Söldner", campaign=c, dice=[7, 3, 1, 5])
        choices = json.loads(seen(c, "Ritter"))["wahlen"]
        assert {ch["key"] for ch in choices} == {"gambit", "focus"} and all(ch["label"] and ch["options"] for ch in choices)
        assert json.loads(seen(c, "Söldner"))["wahlen"][0]["key"] == "deny"
        rpgkernel.resolve("verzicht Söldner\nverzicht Ritter", campaign=c)
        c.encounter.add("Xorg", like="Söldner")
        c.encounter.hide("Xorg")
        before = seen(c, "Ritter")
        rpgkernel.resolve("angriff Xorg -> Ritter", campaign=c, dice=[7, 3])
        assert seen(c, "Ritter") == before          # its attack, its roll, the Deny it offers: nothing
    finally:
        c.close()


def test_an_allys_page_offers_its_deny_labelled_for_the_target_and_names_no_hidden_ally(tmp_path):
    c = ruleset_campaign("bastionland", tmp_path / "k.sqlite")
    try:
        c.encounter.add("Xorg", side="Spieler", sheet={"vig": 9, "cla": 9, "spi": 9, "gd": 3})
        c.encounter.hide("Xorg")
        c.encounter.start(order=list(c.encounter.record["combatants"]))
        rpgkernel.resolve("angriff Söldner -> Ritter", campaign=c, dice=[6, 3])
        own = json.loads(seen(c, "Ritter"))["wahlen"]
        assert [(ch["key"], ch["label"]) for ch in own] == [
            ("deny", "Deny: das Ziel oder ein Verbündeter in Armreichweite entfernt einen Würfel")]
        ally = json.loads(seen(c, "Knappe"))["wahlen"]
        assert [(ch["key"], ch["label"]) for ch in ally] == [
            ("deny", "Deny für Ritter, wenn in Armreichweite: einen Würfel entfernen")]
        hidden = json.loads(seen(c, "Xorg"))["wahlen"]                  # the hidden ally's own page: its Deny
        assert without_advice(hidden) == without_advice(ally)
        assert [o["zeilen"] for o in hidden[0]["rat"][0]["optionen"][:2]] == [["verzicht Xorg"], ["deny Xorg würfel=6"]]
        assert [o["zeilen"] for o in ally[0]["rat"][0]["optionen"][:2]] == [["verzicht Knappe"], ["deny Knappe würfel=6"]]
        assert [ch["key"] for ch in json.loads(seen(c, "Söldner"))["wahlen"]] == ["gambit", "focus"]
        for foe in ("Räuber 1", "Kogge"):                                    # another side: never
            assert json.loads(seen(c, foe))["wahlen"] == []
        for page in ("Ritter", "Knappe", "Söldner", "Räuber 1"):
            assert "Xorg" not in seen(c, page)
        rpgkernel.resolve("deny Knappe würfel=6", campaign=c, dice=[14])
        assert all(json.loads(seen(c, n))["wahlen"] == [] for n in ("Ritter", "Knappe", "Xorg"))
    finally:
        c.close()


def without_advice(choices):
    return [{k: v for k, v in ch.items() if k != "rat"} for ch in choices]


def test_the_advice_reaches_a_player_for_its_own_choices_where_it_tells_nothing_hidden(tmp_path):
    """A Deny's advice rests on the player's own values: shown, each option with what it fills in. A
    gambit's rests on the enemy's armour, Guard and VIG: shown only while the GM shows that side exactly."""
    c = ruleset_campaign("bastionland", tmp_path / "k.sqlite")
    try:
        c.encounter.start(order=list(c.encounter.record["combatants"]))
        rpgkernel.resolve("angriff Söldner -> Ritter", campaign=c, dice=[6, 3])
        [deny] = json.loads(seen(c, "Ritter"))["wahlen"]
        [advice] = deny["rat"]
        assert advice["ziel"] == "Möglichst wenig Schaden für Ritter" and advice["hinweis"]
        first, second = advice["optionen"][:2]
        assert (first["label"], first["zeilen"], first["nehmen"]) == ("Kein Deny", ["verzicht Ritter"], None)
        assert (second["label"], second["zeilen"], second["nehmen"]) == (
            "Deny auf die 6", ["deny Ritter würfel=6"], {"würfel": 6})
        assert second["folgen"][0] == "Schaden 3" and "Ritter wird Fatigued: 35,00 %" in second["folgen"]
        assert set(advice) == {"ziel", "hinweis", "optionen"}                # an allow-list: no reads, no takes
        rpgkernel.resolve("verzicht Ritter", campaign=c)
        rpgkernel.resolve("angriff Ritter -> Söldner", campaign=c, dice=[7, 4])
        assert all(ch["rat"] == [] for ch in json.loads(seen(c, "Ritter"))["wahlen"])
        c.encounter.set_player_sight("Feinde", "genau")
        gambit = next(ch for ch in json.loads(seen(c, "Ritter"))["wahlen"] if ch["key"] == "gambit")
        assert gambit["rat"][0]["ziel"] == "Söldner außer Gefecht setzen, sonst möglichst viel Schaden"
        assert gambit["rat"][0]["optionen"][1]["zeilen"] == ["gambit Ritter würfel=4 gambit=Bolster"]
        assert json.loads(seen(c, "Knappe"))["wahlen"] == []                 # not an attacker: nothing to advise
    finally:
        c.close()


def test_adzs_defence_is_asked_on_the_targets_page_with_its_advice_where_the_attacker_is_shown(tmp_path):
    """The Ork's attack roll: Alrik's player decides whether he defends. The advice rests on the Ork's
    weapon as well: shown once the GM shows the Ork's side exactly."""
    c = fight("adz", tmp_path / "k.sqlite")
    try:
        rpgkernel.resolve("angriff Ork -> Alrik", campaign=c, dice=[6, 6] + [1] * 9)   # KK 6 + Äxte 5
        [asked] = json.loads(seen(c, "Alrik"))["wahlen"]
        assert asked["key"] == "verteidigen" and asked["rat"] == []
        assert json.loads(seen(c, "Magierin"))["wahlen"] == []
        c.encounter.set_player_sight("Feinde", "genau")
        [advice] = json.loads(seen(c, "Alrik"))["wahlen"][0]["rat"]
        assert advice["ziel"] == "Nicht getroffen werden, sonst möglichst wenig Schaden"
        assert [(o["label"], o["zeilen"]) for o in advice["optionen"]] == [
            ("Verteidigen (11 W6)", ["verteidigen Alrik"]),
            ("Verteidigen mit Parade (13 W6)", ["verteidigen Alrik verteidigung=parade"]),
            ("Nicht verteidigen", ["verzicht Alrik"])]
        assert "Alrik getroffen: 100,00 %" in advice["optionen"][2]["folgen"]
    finally:
        c.close()


def test_an_unknown_figure_is_refused_in_german(table):
    with pytest.raises(CampaignError, match="Unbekannte Figur"):
        view(table[1].state, "Niemand")


NAMES = st.one_of(st.sampled_from(["Wolf", "Wolfgang", "Ol", "7", "8", "10", "<b>Xorg</b>", "&amp;", "Xo", "\"", "Ritter"]),
                  st.text(st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=12)
                  .filter(lambda s: s.strip() == s and s.strip()))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(hidden_name=NAMES, enemy=NAMES, hp=st.integers(1, 30), hurt=st.integers(1, 29))
def test_odd_names_and_numbers_leak_nothing(tmp_path_factory, hidden_name, enemy, hp, hurt):
    """Names that contain each other, that are numbers or HTML: the hidden one joining, acting and
    being hurt changes nothing players receive; the enemy's numbers change nothing within 'verletzt'."""
    if hidden_name in (enemy, "Held"):
        return
    c = Campaign.open(tmp_path_factory.mktemp("odd") / "k.sqlite")
    try:
        enc = c.new_encounter("Wald")
        enc.add("Held", side="Spieler", sheet={"hp": 10})
        enc.add(enemy, side="Rudel", sheet={"hp": hp + 1})
        enc.activate()
        enc.start(order=["Held", enemy])
        c.change(enemy, "HP", -1)
        before = seen(c, "Held")
        enc.add(hidden_name, side="Rudel", sheet={"hp": 99}, initiative=5)
        enc.hide(hidden_name)
        c.add_condition("Held", f"gebannt von {hidden_name}")
        c.change(enemy, "HP", -min(hurt, hp - 1))
        enc.next_turn(seed=7)
        while enc.current != "Held":
            enc.next_turn(seed=7)
        enc.next_turn(seed=7)
        enc.next_turn(seed=7)
        after = seen(c, "Held")
        shown = json.loads(after)
        assert [p["name"] for p in shown["begegnung"]["teilnehmer"]] == ["Held", enemy]
        assert entry(after, enemy)["zustand"] in ("verletzt", "kampfunfähig")
        if hidden_name not in before:
            assert hidden_name not in after
    finally:
        c.close()


PAGE = page("kampagne.md")
HEADING = "## Was Spieler sehen"
EXAMPLES = [(PAGE.block("python", first, after=HEADING), PAGE.block("text", shown, after=HEADING))
            for first, shown in (("from rpgkernel import Campaign", "('Hauptmann'"), ("tisch.set_data", "[None"))]


def test_the_pages_example_as_it_shows(notebook):
    for code, shown in EXAMPLES:
        [out] = notebook.ok(code.text)
        assert_shown(shown.text, out)
    camp = Campaign.open("sicht.sqlite")
    try:
        assert "Späher" not in seen(camp, "Hauptmann") and camp.journal(last=1)[0].kind == "daten"
    finally:
        camp.close()


@pytest.mark.parametrize("rounds", [None, 2])
def test_a_condition_the_description_names_is_said_once(tmp_path, rounds):
    """Söldner 1 wounded with the condition "verwundet": not "verwundet / verwundet"; a condition that
    counts down keeps its rounds (and the description steps back)."""
    from panel_driving import make_campaign
    c = make_campaign(tmp_path / "k.sqlite")
    try:
        c.change("Söldner", "VIG", -3)
        c.add_condition("Söldner", "verwundet", rounds=rounds, ends="zugende")
        shown = entry(seen(c, "Ritter"), "Söldner")
        said = [shown.get("zustand"), *shown["zustaende"]]
        assert [w for w in said if w is not None] == ["verwundet"], shown
        assert shown["zustaende"] == ({"verwundet": {"runden": 2, "endet": "zugende"}} if rounds else {})
        c.add_condition("Söldner", "liegend")
        assert set(entry(seen(c, "Ritter"), "Söldner")["zustaende"]) == ({"liegend", "verwundet"} if rounds else {"liegend"})
    finally:
        c.close()
