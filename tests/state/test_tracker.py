"""The encounter's order (rpgkernel/state/tracker.py): remove and restore, join a running fight,
delay and act now, move, roll one anew, group initiative, hide and reveal; each one transaction that
one undo takes back; and what each ruleset's seed forbids, refused in German with its rule."""

import re

import pytest

from rpgkernel import Campaign, RpgError


@pytest.fixture
def camp(tmp_path):
    c = Campaign.open(tmp_path / "k.sqlite")
    yield c
    c.close()


ROLLS = {"Alrik": 17, "Bruni": 9, "Ork": 12, "Söldner 1": 5, "Söldner 2": 14, "Söldner 3": 3}


def fight(camp, rolls=ROLLS):
    """Without a ruleset: Alrik 17, Söldner 2 14, Ork 12, Bruni 9, Söldner 1 5, Söldner 3 3."""
    enc = camp.new_encounter("Furt")
    for name in ("Alrik", "Bruni", "Ork"):
        enc.add(name, side="Helden" if name != "Ork" else "Feinde", resources={"LP": 10})
    enc.add("Söldner", side="Feinde", count=3, resources={"LP": 6})
    enc.start(rolls=rolls)
    return enc


def state_of(enc):
    """What the order operations change, to compare before and after an undo."""
    r = enc.record
    return {k: r.get(k) or None for k in ("combatants", "order", "turn", "round", "initiative", "held", "removed")}


def undone(camp, enc, before):
    camp.undo()
    return state_of(enc) == before


# -- remove and restore ---------------------------------------------------------------------------------
def test_remove_and_restore_put_it_back_where_it_stood(camp):
    enc = fight(camp)
    assert enc.order == ["Alrik", "Söldner 2", "Ork", "Bruni", "Söldner 1", "Söldner 3"]
    enc.next_turn()                                      # Söldner 2's turn
    before = state_of(enc)
    enc.remove("Alrik")                                  # had acted: the turn stays with Söldner 2
    assert enc.order == ["Söldner 2", "Ork", "Bruni", "Söldner 1", "Söldner 3"] and enc.current == "Söldner 2"
    assert enc.removed == ["Alrik"] and "Alrik" not in enc.combatants
    [entry] = camp.journal(last=1)
    assert (entry.kind, entry.data["text"]) == ("kampfteilnehmer", "Alrik aus Furt entfernt")
    enc.remove("Bruni")
    enc.restore("Alrik")
    assert enc.order == ["Alrik", "Söldner 2", "Ork", "Söldner 1", "Söldner 3"] and enc.current == "Söldner 2"
    enc.restore("Bruni")                                 # before the one that followed it
    assert enc.order == ["Alrik", "Söldner 2", "Ork", "Bruni", "Söldner 1", "Söldner 3"]
    assert list(enc.combatants) == ["Alrik", "Bruni", "Ork", "Söldner 1", "Söldner 2", "Söldner 3"]  # as they joined
    assert enc.removed == [] and enc.initiative["Alrik"] == 17
    assert camp.journal(last=1)[0].data["text"] == "Bruni ist zurück in Furt"
    for _ in range(3):
        camp.undo()
    assert undone(camp, enc, before)


def test_removing_whose_turn_it_is_passes_the_turn(camp):
    enc = fight(camp)
    enc.remove("Alrik")
    assert enc.current == "Söldner 2" and enc.round == 1
    assert [e.kind for e in camp.journal(last=2)] == ["kampfteilnehmer", "zug"]
    for _ in range(4):
        enc.next_turn()
    assert enc.current == "Söldner 3"
    enc.remove("Söldner 3")                              # the last of the round: the next round begins
    assert (enc.round, enc.current) == (2, "Söldner 2")
    with pytest.raises(RpgError, match="wurde nicht aus der Begegnung entfernt; entfernt sind: Alrik, Söldner 3"):
        enc.restore("Ork")
    camp.undo()
    assert (enc.round, enc.current, enc.removed) == (1, "Söldner 3", ["Alrik"])


def test_the_last_one_in_the_order_is_not_removed_and_unknown_names_get_a_suggestion(camp):
    enc = camp.new_encounter("Zweikampf")
    enc.add("Alrik")
    enc.add("Ork")
    enc.start(order=["Alrik", "Ork"])
    enc.remove("Ork")
    with pytest.raises(RpgError, match="steht nur noch Alrik"):
        enc.remove("Alrik")
    with pytest.raises(RpgError, match="Unbekannte Figur 'Alirk'. Meinten Sie 'Alrik'"):
        enc.remove("Alirk")


def test_a_removed_combatant_is_named_so_with_the_way_back(camp):
    camp.add_character("Ritter", resources={"LP": 10})
    enc = fight(camp)
    enc.add("Ritter", character="Ritter", initiative=4)
    enc.remove("Ritter")
    enc.remove("Söldner 1")
    said = ("'Ritter' wurde aus der Begegnung 'Furt' entfernt; zurückholen mit: %begegnung zurück Ritter"
            ' (in Python: begegnung.restore("Ritter")).')
    calls = [lambda: enc.remove("Ritter"), lambda: enc.delay("Ritter"), lambda: enc.act_now("Ritter"),
             lambda: enc.move("Ritter", before="Ork"), lambda: enc.move("Ork", after="Ritter"),
             lambda: enc.reroll("Ritter", 3), lambda: enc.group(["Ritter", "Ork"]), lambda: enc.hide("Ritter"),
             lambda: enc.reveal("Ritter"), lambda: enc.add("Ritter", character="Ritter")]
    seq = camp.store.last_seq()
    for call in calls:
        with pytest.raises(RpgError) as error:
            call()
        assert str(error.value) == said                  # not "unknown figure ... did you mean 'Ritter'?"
    with pytest.raises(RpgError, match=r"'Söldner 1' wurde aus der Begegnung 'Furt' entfernt; .* zurück \"Söldner 1\""):
        camp.figure("Söldner 1")
    assert camp.store.last_seq() == seq
    camp.new_encounter("Weg")                            # another active encounter: the way back names Furt
    with pytest.raises(RpgError, match=re.escape('zurück Ritter --begegnung Furt (in Python: '
                                                 'kampagne.encounters["Furt"].restore("Ritter"))')):
        enc.hide("Ritter")
    enc.restore("Ritter")
    assert "Ritter" in enc.order


def test_removed_before_the_start_and_restored_in_the_fight_joins_it(camp):
    enc = camp.new_encounter("Furt")
    for name in ("Alrik", "Bruni", "Ork"):
        enc.add(name)
    enc.remove("Bruni")
    enc.start(rolls={"Alrik": 10, "Ork": 5})
    enc.restore("Bruni", dice=[7])                       # W20 without a ruleset
    assert enc.order == ["Alrik", "Bruni", "Ork"] and enc.initiative["Bruni"] == 7
    assert camp.journal(last=1)[0].data["text"] == "Bruni: Initiative 7, handelt nach Alrik"


# -- joining a running fight ------------------------------------------------------------------------------
def test_a_newcomer_stands_where_its_initiative_puts_it(camp):
    enc = fight(camp)
    enc.next_turn()
    before = state_of(enc)
    assert enc.add("Wolf", resources={"LP": 6}, initiative=13) == ["Wolf"]
    assert enc.order == ["Alrik", "Söldner 2", "Wolf", "Ork", "Bruni", "Söldner 1", "Söldner 3"]
    assert enc.current == "Söldner 2" and enc.initiative["Wolf"] == 13
    entry = camp.journal(last=1)[0]
    assert (entry.kind, entry.data["text"]) == ("initiative", "Wolf: Initiative 13, handelt nach Söldner 2")
    assert undone(camp, enc, before)
    enc.add("Rabe", dice=[20])                           # rolled: W20 without a ruleset
    assert enc.order[0] == "Rabe" and enc.current == "Söldner 2"
    assert camp.journal(last=1)[0].data["rolls"]["Rabe"]["total"] == 20
    enc.add("Krähe", count=2, group=True, dice=[1])     # one roll for both
    assert enc.order[-2:] == ["Krähe 1", "Krähe 2"] and enc.initiative["Krähe 2"] == 1
    with pytest.raises(RpgError, match="ganze Zahl"):
        enc.add("Geist", initiative="schnell")
    with pytest.raises(RpgError, match="Zu viele Würfelergebnisse"):
        enc.add("Geist", dice=[3, 4])
    with pytest.raises(RpgError, match="noch nicht begonnen"):     # before the start, the start rolls
        camp.new_encounter("Später").add("Geist", initiative=3)
    with pytest.raises(TypeError):                                  # how a newcomer joins: ``Joining``'s fields
        enc.add("Geist", initiativ=3)


def test_a_newcomer_like_another_takes_its_sheet_side_and_full_resources(camp):
    enc = fight(camp)
    camp.change("Ork", "LP", -7)
    assert enc.add("Ork 2", like="Ork", initiative=1) == ["Ork 2"]
    twin = camp.figure("Ork 2")
    assert (enc.record["combatants"]["Ork 2"]["side"], twin.resources["LP"]) == ("Feinde", {"value": 10, "max": 10})
    enc.add("Späher", like="Ork", side="Helden", initiative=2)
    assert enc.record["combatants"]["Späher"]["side"] == "Helden"
    with pytest.raises(RpgError, match="Meinten Sie 'Ork'"):
        enc.add("Ork 3", like="Orks", initiative=1)


def test_a_newcomer_after_a_hand_given_order_goes_last(camp):
    enc = camp.new_encounter("Furt")
    enc.add("Alrik")
    enc.add("Ork")
    enc.start(order=["Ork", "Alrik"])
    enc.add("Wolf", initiative=30)
    assert enc.order == ["Ork", "Alrik", "Wolf"]


# -- delay and act now ------------------------------------------------------------------------------------
def test_delay_holds_until_act_now_and_the_turn_passes(camp):
    enc = fight(camp)
    before = state_of(enc)
    enc.delay("Alrik")
    assert enc.held == ["Alrik"] and "Alrik" not in enc.order and enc.current == "Söldner 2"
    assert [e.data["text"] for e in camp.journal(last=2)] == ["Alrik wartet ab", "Runde 1: Söldner 2 ist am Zug"]
    enc.next_turn()                                      # Ork
    enc.act_now("Alrik")
    assert enc.order == ["Söldner 2", "Ork", "Alrik", "Bruni", "Söldner 1", "Söldner 3"]
    assert enc.current == "Alrik" and enc.held == []
    with pytest.raises(RpgError, match="schon am Zug"):
        enc.act_now("Alrik")
    with pytest.raises(RpgError, match="hat in Runde 1 schon gehandelt"):
        enc.act_now("Ork")
    with pytest.raises(RpgError, match="hat in Runde 1 schon gehandelt"):
        enc.delay("Söldner 2")
    enc.act_now("Söldner 3")                             # out of turn, from further down
    assert enc.order == ["Söldner 2", "Ork", "Alrik", "Söldner 3", "Bruni", "Söldner 1"]
    for _ in range(3):
        camp.undo()
    assert undone(camp, enc, before)


def test_the_last_of_a_round_who_delays_does_not_act_in_it(camp):
    enc = fight(camp)
    enc.next_round()
    enc.delay("Bruni")                                   # not whose turn: waits out of the order
    for _ in range(4):
        enc.next_turn()
    assert enc.current == "Söldner 3"
    enc.delay("Söldner 3")
    assert (enc.round, enc.current, enc.held) == (3, "Alrik", ["Bruni"])  # the order is kept: Bruni still waits
    [entry] = camp.journal(kind="initiative", last=1)
    assert entry.data["text"] == "Söldner 3 wartet ab und handelt in Runde 2 nicht mehr"
    enc.next_round(new_initiative=True, rolls=ROLLS)     # a new initiative: everyone is back in the order
    assert enc.held == [] and sorted(enc.order) == sorted(ROLLS)


# -- moving, rolling anew -----------------------------------------------------------------------------------
def test_move_before_and_after_keeps_whose_turn_it_is(camp):
    enc = fight(camp)
    enc.next_turn()
    assert enc.move("Bruni", before="Söldner 2") == ["Alrik", "Bruni", "Söldner 2", "Ork", "Söldner 1", "Söldner 3"]
    assert enc.current == "Söldner 2"
    assert camp.journal(last=1)[0].data["text"] == "Bruni handelt vor Söldner 2"
    enc.move("Alrik", after="Söldner 3")
    assert enc.order[-1] == "Alrik" and enc.current == "Söldner 2"
    assert enc.move("Alrik", after="Söldner 3") == enc.order       # already there: nothing written
    assert camp.journal(last=1)[0].data["text"] == "Alrik handelt nach Söldner 3"
    with pytest.raises(RpgError, match="Entweder vor"):
        enc.move("Alrik")
    with pytest.raises(RpgError, match="nach sich selbst"):
        enc.move("Alrik", before="Alrik")


def test_a_tie_broken_by_hand_says_so(camp):
    enc = fight(camp, {**ROLLS, "Bruni": 17})
    assert enc.order[:2] == ["Alrik", "Bruni"]          # ties by name without a ruleset
    enc.move("Bruni", before="Alrik")
    assert enc.order[:2] == ["Bruni", "Alrik"] and enc.current == "Alrik"
    assert camp.journal(last=1)[0].data["text"] == "Gleichstand bei 17 von Hand entschieden: Bruni vor Alrik"


def test_reroll_places_it_anew(camp):
    enc = fight(camp)
    before = state_of(enc)
    assert enc.reroll("Söldner 3", dice=[20]) == 20
    assert enc.order[0] == "Söldner 3" and enc.current == "Alrik" and enc.initiative["Söldner 3"] == 20
    assert camp.journal(last=1)[0].data["text"] == "Söldner 3: Initiative neu 3 → 20, handelt zuerst"
    enc.reroll("Alrik", 1)                               # whose turn it is: keeps the turn at its new place
    assert enc.order[-1] == "Alrik" and enc.current == "Alrik"
    camp.undo()
    assert undone(camp, enc, before)
    with pytest.raises(RpgError, match="noch nicht begonnen"):
        camp.new_encounter("Leer").reroll("Alrik")


# -- group initiative ------------------------------------------------------------------------------------
def test_a_group_rolls_once_and_acts_together(camp):
    enc = camp.new_encounter("Furt")
    enc.add("Alrik")
    enc.add("Söldner", count=3)
    assert enc.group(["Söldner"]) == ["Söldner 1", "Söldner 2", "Söldner 3"]   # "Söldner" stands for all
    assert camp.journal(last=1)[0].data["text"] == ("Söldner 1, Söldner 2, Söldner 3 würfeln die Initiative als "
                                                    "Gruppe Söldner")
    enc.start(dice=[11, 15])                             # two rolls: Alrik's and the group's
    assert enc.order == ["Söldner 1", "Söldner 2", "Söldner 3", "Alrik"]
    assert enc.initiative == {"Alrik": 11, "Söldner 1": 15, "Söldner 2": 15, "Söldner 3": 15}
    enc.next_turn()
    enc.reroll("Söldner 2", dice=[2])                    # a member rolls anew for its group
    assert enc.order == ["Alrik", "Söldner 1", "Söldner 2", "Söldner 3"] and enc.current == "Söldner 2"
    enc.ungroup(["Söldner 1"])                           # the whole group
    assert all("group" not in c for c in enc.record["combatants"].values())
    enc.next_round(new_initiative=True, dice=[1, 2, 3, 4])
    assert enc.initiative == {"Alrik": 1, "Söldner 1": 2, "Söldner 2": 3, "Söldner 3": 4}
    with pytest.raises(RpgError, match="mindestens zwei"):
        enc.group(["Alrik"])
    with pytest.raises(RpgError, match="keine Gruppe"):
        enc.ungroup(["Alrik"])


def test_a_group_formed_in_the_fight_rolls_now(camp):
    enc = fight(camp)
    enc.group(["Söldner 1", "Söldner 3"], initiative=13)
    assert enc.order == ["Alrik", "Söldner 2", "Söldner 1", "Söldner 3", "Ork", "Bruni"]
    assert camp.journal(last=1)[0].data["text"] == ("Söldner 1, Söldner 3 würfeln die Initiative als Gruppe "
                                                    "Söldner 1: Initiative 13, handelt nach Söldner 2")


# -- hidden ------------------------------------------------------------------------------------------------
def test_hide_and_reveal(camp):
    enc = fight(camp)
    enc.hide("Ork")
    assert enc.hidden == ["Ork"] and "Ork" in enc.order            # acts for the GM as before
    assert camp.journal(last=1)[0].data["text"] == "Ork ist verborgen"
    with pytest.raises(RpgError, match="schon verborgen"):
        enc.hide("Ork")
    enc.reveal("Ork")
    assert enc.hidden == [] and camp.journal(last=1)[0].data["text"] == "Ork ist nicht mehr verborgen"
    with pytest.raises(RpgError, match="nicht verborgen"):
        enc.reveal("Ork")
    camp.undo()
    assert enc.hidden == ["Ork"]


# -- the rulesets' rules -------------------------------------------------------------------------------------
def test_bastionland_players_first_and_no_initiative(camp):
    camp.set_ruleset("bastionland")
    enc = camp.new_encounter("Furt")
    knight = {"vig": 12, "cla": 10, "spi": 10, "gd": 4}
    enc.add("Ritter", side="Spieler", sheet=knight)
    enc.add("Knappe", side="Spieler", sheet=knight)
    enc.add("Söldner", side="Feinde", sheet=knight)
    enc.start()
    enc.move("Knappe", before="Ritter")                  # any order among the players
    with pytest.raises(RpgError, match=r"Söldner kann nicht vor Knappe und Ritter handeln: Normalerweise führen die "
                                       r"Spielenden .* \(Überraschung\)"):
        enc.move("Söldner", before="Knappe")
    with pytest.raises(RpgError, match="würfelt keine Initiative"):
        enc.reroll("Söldner")
    enc.add("Wache", side="Feinde", sheet=knight)
    enc.add("Pilger", side="Spieler", sheet=knight)     # a player who joins acts with the players
    assert enc.order == ["Knappe", "Ritter", "Pilger", "Söldner", "Wache"]
    with pytest.raises(RpgError, match="würfelt keine Initiative"):
        enc.group(["Söldner", "Wache"])


OSR_SHEET = {"rk": 5, "tp": 8}


def osr_fight(camp):
    camp.set_ruleset("osr")
    enc = camp.new_encounter("Schlucht")
    enc.add("Held", side="Spieler", sheet=OSR_SHEET)
    enc.add("Magier", side="Spieler", sheet=OSR_SHEET)
    enc.add("Ork", side="Orks", sheet=OSR_SHEET, count=2)
    enc.start(dice=[5, 2])                               # Spieler 5 (segment 2), Orks 2 (segment 5)
    return enc


def test_osr_joiners_take_their_sides_die_and_a_new_side_rolls(camp):
    enc = osr_fight(camp)
    assert enc.order == ["Held", "Magier", "Ork 1", "Ork 2"]
    enc.add("Ork 3", side="Orks", sheet=OSR_SHEET)      # no die rolled: the orcs' of this round
    assert enc.order[-1] == "Ork 3" and enc.initiative["Ork 3"] == 2
    assert camp.journal(last=1)[0].data["text"] == ("Ork 3: Initiative 2, handelt nach Ork 2 (Seite Orks: Würfel 2, "
                                                    "handelt im Segment 5)")
    enc.add("Wolf", side="Wölfe", sheet=OSR_SHEET, dice=[4])   # a side that comes in rolls its own die
    assert enc.order == ["Held", "Magier", "Wolf", "Ork 1", "Ork 2", "Ork 3"]
    assert "Seite Wölfe: Würfel 4, handelt im Segment 5" in camp.journal(last=1)[0].data["text"]


def test_osr_delay_waits_for_the_other_side(camp):
    enc = osr_fight(camp)
    enc.delay("Held")                                    # whose turn it is: after the orcs' last
    assert enc.order == ["Magier", "Ork 1", "Ork 2", "Held"] and enc.current == "Magier"
    assert camp.journal(kind="initiative", last=1)[0].data["text"] == "Held wartet ab, bis Ork 2 gehandelt hat"
    with pytest.raises(RpgError, match="handelt schon nach Ork 2"):
        enc.delay("Held")
    enc.add("Knappe", side="Spieler", sheet=OSR_SHEET)
    enc.move("Knappe", after="Held")                    # … Ork 2, Held, Knappe: delaying moves nobody earlier
    with pytest.raises(RpgError, match="Knappe handelt schon nach Ork 2"):
        enc.delay("Knappe")
    enc.remove("Knappe")
    enc.next_turn()
    enc.next_turn()
    enc.next_turn()
    assert enc.current == "Held"
    with pytest.raises(RpgError, match=r"die andere Seite hat in dieser Runde schon gehandelt \(Initiative verzögern"):
        enc.delay("Held")


def test_osr_refuses_what_its_side_initiative_rules_out(camp):
    enc = osr_fight(camp)
    with pytest.raises(RpgError, match=r"Ork 1 kann nicht vor Held und Magier handeln: Die Partei mit der "
                                       r"Initiative handelt zuerst \(Kampf\)"):
        enc.move("Ork 1", before="Held")
    enc.move("Magier", before="Held")                   # within a side: the same die
    with pytest.raises(RpgError, match="jede Partei ihre Initiative"):
        enc.reroll("Ork 1")
    with pytest.raises(RpgError, match="ohnehin jede Partei einmal"):
        enc.group(["Ork"])
    enc.act_now("Ork 2")                                 # an interruption (Kampf, Hinweis)
    assert enc.current == "Ork 2"


MIDGARD = {"Hauptmann": {"rw": 60, "kampftaktik": 2}, "Fritz": {"rw": 50}, "Franz": {"rw": 40}}


def midgard_fight(camp):
    camp.set_ruleset("midgard")
    enc = camp.new_encounter("Hof")
    for name, sheet in MIDGARD.items():
        enc.add(name, side="Gruppe", sheet=sheet)
    enc.add("Räuber", side="Räuber", sheet={"rw": 30})
    enc.start(rolls={"Hauptmann": 12, "Fritz": 9, "Franz": 7, "Räuber": 5})
    return enc


def test_midgard_later_or_not_at_all_never_earlier(camp):
    enc = midgard_fight(camp)
    with pytest.raises(RpgError, match=r"Franz kann nicht vor Fritz handeln: Es steht jedem Charakter frei, erst "
                                       r"später in dieser Reihenfolge oder gar nicht zu handeln, früher nicht"):
        enc.move("Franz", before="Fritz")
    with pytest.raises(RpgError, match="Räuber kann nicht vor Fritz und Franz handeln"):
        enc.act_now("Räuber")
    enc.move("Fritz", after="Räuber")                   # later: as he likes
    enc.delay("Hauptmann")
    enc.act_now("Hauptmann")                             # waited, acts now: later than his place
    assert enc.order == ["Franz", "Hauptmann", "Räuber", "Fritz"] and enc.current == "Hauptmann"
    with pytest.raises(RpgError, match="Gruppeninitiative entfällt .* anführer"):
        enc.group(["Fritz", "Franz"])


def test_midgard_a_follower_joins_with_his_leaders_roll(camp):
    enc = midgard_fight(camp)
    enc.add("Hans", side="Gruppe", sheet={"rw": 20}, conditions={"folgt Hauptmann": {}})
    # the Hauptmann's 12 is Grundwert 6 + W6 + Kampftaktik 2: Hans gets 2 + 6
    assert enc.initiative["Hans"] == 8 and enc.order == ["Hauptmann", "Fritz", "Hans", "Franz", "Räuber"]
    assert camp.journal(last=1)[0].data["text"] == ("Hans: Initiative 8, handelt nach Fritz (folgt Hauptmann: "
                                                    "dessen W6 + Kampftaktik 6)")
    enc.add("Kurt", side="Gruppe", sheet={"rw": 20}, dice=[3])   # no leader: W6 + Grundwert 2
    assert enc.initiative["Kurt"] == 5


ADZ = {"KK": 5, "KO": 4, "GE": 6, "FF": 3, "KL": 3, "WK": 4, "IN": 5, "CH": 2, "GL": 3}


def test_adz_descending_order_and_ties_rolled_off(camp):
    camp.set_ruleset("adz")
    enc = camp.new_encounter("Hohlweg")
    for name in ("Alrik", "Bruni", "Ork"):
        enc.add(name, sheet={**ADZ, "initiativebasis": 10})
    enc.start(rolls={"Alrik": 20, "Bruni": 18, "Ork": 15})
    with pytest.raises(RpgError, match=r"absteigenden Reihenfolge der Initiative \(Runden\)"):
        enc.move("Ork", before="Bruni")
    enc.add("Wolf", sheet={**ADZ, "initiativebasis": 10}, initiative=18, dice=[5, 2])   # the tie rolled off: 5 > 2
    assert enc.order == ["Alrik", "Bruni", "Wolf", "Ork"]
    with pytest.raises(RpgError, match=r"Wolf und Bruni haben die gleiche Initiative: Ihre Reihenfolge wird "
                                       r"untereinander ausgewürfelt"):
        enc.move("Wolf", before="Bruni")
    enc.move("Bruni", after="Wolf")                     # later: the seed is silent, the GM's call


KW = {"AUFMERKSAMKEIT": 5, "GEWANDTHEIT": 5, "INSTINKT": 5, "HEIMLICHKEIT": 2, "AD": 3, "LP": 10}


def test_kampfwerte_ties_follow_the_tie_rules(camp):
    camp.set_ruleset("kampfwerte")
    enc = camp.new_encounter("Lichtung")
    enc.add("Kael", sheet={**KW, "AUFMERKSAMKEIT": 7})
    enc.add("Ork", sheet=KW)
    enc.add("Goblin", sheet=KW)
    enc.start(rolls={"Kael": 20, "Ork": 20, "Goblin": 20})
    assert enc.order == ["Kael", "Goblin", "Ork"]       # AUFMERKSAMKEIT, then the name
    with pytest.raises(RpgError, match=r"Ork kann nicht vor Kael handeln: Bei Gleichstand .* \(Initiative\)"):
        enc.move("Ork", before="Kael")
    enc.move("Ork", before="Goblin")                    # the tie rules leave these two to their names
    assert enc.order == ["Kael", "Ork", "Goblin"]
    enc.reroll("Goblin", dice=[1])                       # "gravierende Änderungen": W10 + 15
    assert enc.initiative["Goblin"] == 16 and enc.order[-1] == "Goblin"
