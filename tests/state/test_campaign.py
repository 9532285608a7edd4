"""The campaign model: figures, encounters, conditions, undo/redo, the fold."""

import json
import multiprocessing

import pytest

import rpgkernel
from rpgkernel.errors import GivenDiceError
from rpgkernel.rules.kit import Initiative, Ruleset
from rpgkernel.rules.sheet import Field, Sheet, SheetError
from rpgkernel.state import Campaign, CampaignError, campaign as campaign_module, model


class ProbeInitiative(Initiative):
    def expression(self, combatant):
        return f"W6+{combatant.value('flink')}"


class ProbeBogen(Sheet):
    def resources(self, sheet, data):
        return {"LP": {"value": sheet["stärke"] * 2, "max": sheet["stärke"] * 2}}


class Probe(Ruleset):
    """A ruleset for tests: two fields, resources from them, initiative W6+flink."""

    key = "probe"
    title = "Probe"
    sheet = ProbeBogen({"stärke": Field("int", "Stärke", 1, 20, required=True),
                        "flink": Field("int", "Flink", 0, 5, default=0),
                        "klasse": Field("text", "Klasse", choices=("Krieger", "Magier"))})

    initiative = ProbeInitiative()


@pytest.fixture(autouse=True)
def probe_ruleset(add_ruleset):
    add_ruleset(Probe)


@pytest.fixture
def camp(tmp_path):
    with Campaign.open(tmp_path / "k.sqlite") as c:
        yield c


def test_characters_with_validated_sheets(camp):
    ritter = camp.add_character("Ritter", {"stärke": 7, "klasse": "Krieger"}, ruleset="probe")
    assert ritter.sheet == {"stärke": 7, "klasse": "Krieger", "flink": 0}
    assert ritter.resources == {"LP": {"value": 14, "max": 14}}
    with pytest.raises(SheetError, match="Feld 'stärke' \\(Stärke\\): erlaubt ist eine ganze Zahl von 1 bis 20"):
        camp.add_character("Riese", {"stärke": 99}, ruleset="probe")
    with pytest.raises(SheetError, match="Meinten Sie 'stärke'"):
        camp.add_character("Zwerg", {"stärkee": 3}, ruleset="probe")
    with pytest.raises(SheetError, match="einer der Werte Krieger, Magier"):
        camp.add_character("Dieb", {"stärke": 3, "klasse": "Dieb"}, ruleset="probe")
    with pytest.raises(CampaignError, match="gibt es schon"):
        camp.add_character("Ritter", {"stärke": 3}, ruleset="probe")
    assert list(camp.characters) == ["Ritter"]


@pytest.mark.parametrize("name", ["", "   ", "a" * 101, "Zeile\nUmbruch", 5, None])
def test_bad_names_are_refused(camp, name):
    with pytest.raises(CampaignError, match="Ungültiger Name"):
        camp.add_character(name)


def test_hostile_names_are_stored_verbatim_and_escaped(camp, tmp_path):
    nasty = ["<img src=x onerror=alert(1)>", "'); DROP TABLE rpg_events;--", "Ölf \"Zitat\" & Co"]
    for n in nasty:
        camp.add_character(n, resources={"TP": 3})
    again = Campaign.open(tmp_path / "k.sqlite")
    assert list(again.characters) == nasty
    html = again.figure(nasty[0])._repr_mimebundle_()["text/html"]
    assert "<img" not in html and "&lt;img src=x" in html
    assert "<img" not in again.journal()._repr_mimebundle_()["text/html"]


def test_resources_must_be_whole_numbers(camp):
    for bad in (1.5, "3", True, 10**12):
        with pytest.raises(CampaignError, match="ganze Zahl"):
            camp.add_character("X", resources={"TP": bad})


def encounter(camp, goblin_sheet=None):
    camp.add_character("Ritter", {"stärke": 6, "flink": 2}, ruleset="probe")
    enc = camp.new_encounter("Hinterhalt")
    enc.add("Ritter", side="Spieler", character="Ritter")
    enc.add("Goblin", side="Feinde", sheet=goblin_sheet, resources={"TP": 4}, count=2)
    return enc



def test_initiative_takes_the_seed_and_dice_that_resolve_takes(tmp_path):
    """start/next_round roll with Roller(seed, dice), as every %%resolve line does."""
    from rpgkernel.dice import Roller
    seen = []
    for i in range(2):
        with Campaign.open(tmp_path / f"{i}.sqlite") as c:
            c.set_ruleset("probe")
            enc = encounter(c, goblin_sheet={"stärke": 3})
            enc.start(seed=11)
            first = {n: r["total"] for n, r in c.journal(kind="initiative")[-1].data["rolls"].items()}
            enc.next_round(new_initiative=True, seed=12)
            seen.append((first, enc.order))
    assert seen[0] == seen[1]
    roller = Roller(seed=11)
    assert seen[0][0] == {n: roller.roll(e).total for n, e in (("Ritter", "W6+2"), ("Goblin 1", "W6+0"),
                                                               ("Goblin 2", "W6+0"))}

def test_encounter_and_initiative_rolled_by_the_ruleset(camp):
    camp.set_ruleset("probe")
    with pytest.raises(SheetError, match="Das Feld 'stärke' \\(Stärke\\) fehlt"):
        encounter(camp)
    assert [camp.undo() for _ in range(3)] == [["Ritter nimmt an Hinterhalt teil"],
                                               ["Begegnung Hinterhalt angelegt"], ["Figur Ritter angelegt"]]
    assert camp.encounters == {} and camp.characters == {}
    enc = encounter(camp, goblin_sheet={"stärke": 3})
    assert list(enc.combatants) == ["Ritter", "Goblin 1", "Goblin 2"]
    # W6+flink: Ritter 3+2, Goblins 6 and 1 (in the order they were added)
    order = enc.start(dice=[3, 6, 1])
    assert order == ["Goblin 1", "Ritter", "Goblin 2"]
    assert enc.round == 1 and enc.current == "Goblin 1"
    assert str(enc) == "Hinterhalt – Runde 1 – am Zug: Goblin 1"
    rolls = camp.journal(kind="initiative")[-1].data["rolls"]
    assert rolls["Ritter"]["total"] == 5 and rolls["Goblin 1"]["dice"][0]["faces"] == [6]


def test_turns_and_rounds(camp):
    enc = encounter(camp)
    enc.start(order=["Ritter", "Goblin 1", "Goblin 2"])
    assert [enc.next_turn() for _ in range(4)] == ["Goblin 1", "Goblin 2", "Ritter", "Goblin 1"]
    assert enc.round == 2
    assert enc.next_round() == 3 and enc.current == "Ritter"
    with pytest.raises(CampaignError, match="genau einmal"):
        enc.start(order=["Ritter"])


def test_given_rolls_must_name_every_combatant_and_no_one_else(camp):
    """Rolls for some combatants only were refused as "Unbekannte Figur 'Goblin 1'. Meinten Sie 'Goblin 1'?"."""
    enc = encounter(camp)
    with pytest.raises(CampaignError, match="^Es fehlen Initiativewürfe für Goblin 1, Goblin 2[.]$"):
        enc.start(rolls={"Ritter": 17})
    with pytest.raises(CampaignError, match="^Unbekannte Figur 'Goblin 3'[.] Meinten Sie 'Goblin \\d'[?]$"):
        enc.start(rolls={"Ritter": 17, "Goblin 1": 3, "Goblin 2": 5, "Goblin 3": 9})
    assert enc.round == 0
    assert enc.start(rolls={"Ritter": 17, "Goblin 1": 3, "Goblin 2": 5}) == ["Ritter", "Goblin 2", "Goblin 1"]


def test_initiative_anew_each_round_or_on_request(camp, monkeypatch):
    camp.set_ruleset("probe")
    enc = encounter(camp, goblin_sheet={"stärke": 3})
    enc.start(dice=[3, 6, 1])                                   # Ritter 5, Goblin 1 6, Goblin 2 1
    assert enc.order == ["Goblin 1", "Ritter", "Goblin 2"]
    # a ruleset that keeps its order: the next round keeps it, unless asked for a new one
    assert enc.next_round() == 2 and enc.order == ["Goblin 1", "Ritter", "Goblin 2"]
    with pytest.raises(GivenDiceError):                           # three dice needed, two given: nothing changes
        enc.next_round(new_initiative=True, dice=[1, 2])
    assert enc.round == 2 and enc.current == "Goblin 1"
    assert enc.next_round(new_initiative=True, dice=[1, 2, 6]) == 3
    assert enc.order == ["Goblin 2", "Ritter", "Goblin 1"] and enc.current == "Goblin 2"   # 6, 1+2=3, 2
    # a ruleset that determines initiative every round: rolled when a round begins, from given values too
    monkeypatch.setattr(Probe.initiative, "each_round", True)
    assert enc.next_turn() == "Ritter" and enc.order == ["Goblin 2", "Ritter", "Goblin 1"]   # same round
    enc.next_turn()
    assert enc.next_turn(rolls={"Ritter": 9, "Goblin 1": 4, "Goblin 2": 7}) == "Ritter"
    assert enc.round == 4 and enc.order == ["Ritter", "Goblin 2", "Goblin 1"]
    assert camp.journal(kind="initiative")[-1].data["rolls"] == {"Ritter": 9, "Goblin 1": 4, "Goblin 2": 7}
    camp.undo()                                                  # the new order goes with the turn
    assert enc.round == 3 and enc.order == ["Goblin 2", "Ritter", "Goblin 1"] and enc.current == "Goblin 1"
    enc.next_turn()                                              # rolled from the session's stream
    assert enc.round == 4 and sorted(enc.order) == ["Goblin 1", "Goblin 2", "Ritter"]
    assert enc.current == enc.order[0]


def test_damage_persists_on_the_character(camp):
    enc = encounter(camp)
    enc.start(order=["Ritter", "Goblin 1", "Goblin 2"])
    camp.change("Ritter", "LP", -5, reason="Keule")
    camp.change("Goblin 2", "TP", -4)
    assert camp.characters["Ritter"].resources["LP"]["value"] == 7
    assert enc.combatants["Goblin 2"].resources["TP"]["value"] == 0
    assert "Ritter: LP 12 → 7 (Keule)" in repr(camp.journal(kind="ressource"))
    with pytest.raises(CampaignError, match="keine Ressource 'GD'; vorhanden: LP"):
        camp.change("Ritter", "GD", -1)
    with pytest.raises(CampaignError, match="Meinten Sie 'Goblin [12]'"):
        camp.change("Goblin 3", "TP", -1)


@pytest.mark.parametrize("ends, of, lasts_until", [
    # (moment, whose turn counts, number of next_turn calls until it is gone)
    ("zugende", None, 2),            # on Goblin 1: its own turn ends at the 2nd next_turn
    ("zugbeginn", None, 1),          # its own turn starts at the 1st
    ("zugende", "Ritter", 1),        # the Ritter's turn ends first
    ("rundenende", None, 3),         # the round ends at the 3rd
    ("rundenbeginn", None, 3),
])
def test_conditions_expire_at_the_right_moment(camp, ends, of, lasts_until):
    enc = encounter(camp)
    enc.start(order=["Ritter", "Goblin 1", "Goblin 2"])
    camp.add_condition("Goblin 1", "betäubt", rounds=1, ends=ends, of=of)
    for i in range(1, 6):
        enc.next_turn()
        present = "betäubt" in camp.figure("Goblin 1").conditions
        assert present == (i < lasts_until), (i, present)


def test_conditions_count_rounds_down(camp):
    enc = encounter(camp)
    enc.start(order=["Ritter", "Goblin 1", "Goblin 2"])
    camp.add_condition("Ritter", "gesegnet", rounds=2)
    camp.add_condition("Ritter", "verflucht")  # without a duration: stays
    enc.next_round()
    assert camp.figure("Ritter").conditions["gesegnet"]["remaining"] == 1
    enc.next_round()
    assert set(camp.figure("Ritter").conditions) == {"verflucht"}
    camp.remove_condition("Ritter", "verflucht")
    assert camp.figure("Ritter").conditions == {}
    with pytest.raises(CampaignError, match="Unbekannte Angabe 'dauer'"):
        camp.add_character("Y", conditions={"x": {"dauer": 2}})
    with pytest.raises(CampaignError, match="endet bei einem von"):
        camp.add_condition("Ritter", "x", rounds=1, ends="mittags")


def test_undo_and_redo_append_and_never_delete(camp):
    enc = encounter(camp)
    enc.start(order=["Ritter", "Goblin 1", "Goblin 2"])
    before = camp.state
    camp.change("Ritter", "LP", -5)
    enc.next_turn()
    n = len(camp.journal())
    assert camp.undo() == ["Runde 1: Goblin 1 ist am Zug"] and enc.current == "Ritter"
    assert camp.undo() == ["Ritter: LP 12 → 7"]
    after_undo = camp.state
    assert {k: v for k, v in after_undo.items() if k not in ("seq", "history")} == \
        {k: v for k, v in before.items() if k not in ("seq", "history")}
    assert camp.redo() == ["Ritter: LP 12 → 7"]
    assert camp.characters["Ritter"].resources["LP"]["value"] == 7
    assert len(camp.journal()) == n + 3
    # a new change after an undo clears what could be redone
    camp.undo()
    camp.change("Ritter", "LP", -1)
    with pytest.raises(CampaignError, match="nichts zu wiederholen"):
        camp.redo()
    kinds = [e.kind for e in camp.journal()]
    assert kinds.count("rückgängig") == 3 and kinds.count("wiederholt") == 1


def test_undo_on_an_empty_campaign(camp):
    with pytest.raises(CampaignError, match="nichts rückgängig"):
        camp.undo()
    camp.log_roll(rpgkernel.roll("3W6", dice=[1, 2, 3]))
    with pytest.raises(CampaignError, match="nichts rückgängig"):
        camp.undo()  # a roll changes nothing


def test_state_survives_reopening_and_equals_the_fold(camp, tmp_path, monkeypatch):
    monkeypatch.setattr(campaign_module, "SNAPSHOT_EVERY", 5)
    enc = encounter(camp)
    enc.start(order=["Ritter", "Goblin 1", "Goblin 2"])
    for _ in range(7):
        enc.next_turn()
    camp.change("Ritter", "LP", -3)
    camp.undo()
    assert camp.store.latest_snapshot() is not None
    reopened = Campaign.open(tmp_path / "k.sqlite")
    scratch = model.fold(model.initial(), camp.store.events())
    assert reopened.state == camp.state == scratch
    assert reopened.encounter.current == enc.current


def _writer(path, name, n):
    with Campaign.open(path) as c:
        for _ in range(n):
            c.change(name, "TP", -1)


def test_two_notebooks_write_at_the_same_time(tmp_path):
    path = tmp_path / "k.sqlite"
    with Campaign.open(path) as c:
        c.add_character("A", resources={"TP": 100})
        c.add_character("B", resources={"TP": 100})
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(path, who, 40)) for who in ("A", "A", "B")]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    c = Campaign.open(path)
    assert c.characters["A"].resources["TP"]["value"] == 20
    assert c.characters["B"].resources["TP"]["value"] == 60
    assert len(c.journal(kind="ressource")) == 120


def test_a_second_campaign_object_sees_changes(tmp_path):
    a = Campaign.open(tmp_path / "k.sqlite")
    b = Campaign.open(tmp_path / "k.sqlite")
    a.add_character("Ritter", resources={"GD": 4})
    assert b.figure("Ritter").resources["GD"]["value"] == 4
    b.change("Ritter", "GD", -4)
    assert a.characters["Ritter"].resources["GD"]["value"] == 0
    a.undo()
    assert b.characters["Ritter"].resources["GD"]["value"] == 4


def test_watchers_see_own_and_other_writes_and_can_stop(tmp_path):
    a = Campaign.open(tmp_path / "k.sqlite")
    b = Campaign.open(tmp_path / "k.sqlite")

    class Panel:
        def __init__(self):
            self.seen = []

        def changed(self, campaign):
            self.seen.append(campaign.state["seq"])

    panel, plain = Panel(), []
    a.watch(panel.changed)
    stop = a.watch(lambda campaign: plain.append(campaign.state["seq"]))
    a.add_character("Ritter", resources={"GD": 4})
    b.change("Ritter", "GD", -1)
    assert panel.seen == [1] and plain == [1]       # b's write is seen when a reads
    a.refresh()
    assert panel.seen == [1, 2] and plain == [1, 2]
    stop()
    del panel                                        # a bound method is held weakly
    a.change("Ritter", "GD", -1)
    assert plain == [1, 2] and a._watchers == []


def test_journal_filters_and_exports(camp, tmp_path):
    enc = encounter(camp)
    enc.start(order=["Ritter", "Goblin 1", "Goblin 2"])
    camp.change("Goblin 1", "TP", -2)
    camp.log_roll(rpgkernel.roll("W20", dice=[17]), figure="Ritter")
    assert [e.kind for e in camp.journal(figure="Goblin 1")] == ["kampfteilnehmer", "initiative", "ressource"]
    assert len(camp.journal(encounter="Hinterhalt")) == 6
    assert [e.kind for e in camp.journal(last=2)] == ["ressource", "wurf"]
    assert camp.journal(kind="wurf")[0].data["roll"]["total"] == 17
    out = tmp_path / "journal.jsonl"
    text = camp.journal().to_jsonl(out)
    lines = out.read_text(encoding="utf-8").splitlines()
    assert text.splitlines() == lines and len(lines) == len(camp.journal())
    assert [json.loads(line)["seq"] for line in lines] == list(range(1, len(lines) + 1))
    pd = pytest.importorskip("pandas")
    frame = camp.journal().to_dataframe()
    assert isinstance(frame, pd.DataFrame) and list(frame["kind"])[-1] == "wurf"
    assert "Das Journal ist leer." == repr(camp.journal(kind="nichts"))


def test_segments_for_rulesets_that_split_rounds(camp, monkeypatch):
    monkeypatch.setattr(Probe.initiative, "segments", 10)
    camp.set_ruleset("probe")
    enc = camp.new_encounter("Gefecht")
    enc.set_segment(4)
    assert enc.segment == 4
    with pytest.raises(CampaignError, match="Segment"):
        enc.set_segment(11)
    camp.set_ruleset(None)
    free = camp.new_encounter("Ohne Segmente")
    with pytest.raises(CampaignError, match="nicht in Segmente"):
        free.set_segment(1)


def test_nested_transactions_are_one_step(camp):
    with camp.transaction():
        camp.add_character("A", resources={"TP": 1})
        enc = camp.new_encounter("Kampf")
        enc.add("Wolf", resources={"TP": 2}, count=2)
        enc.add("A", character="A")
    assert len({e.tx for e in camp.journal()}) == 1
    assert camp.undo() == ["Figur A angelegt", "Begegnung Kampf angelegt", "Wolf 1, Wolf 2 nehmen an Kampf teil",
                           "A nimmt an Kampf teil"]
    assert camp.characters == {} and camp.encounters == {}
    with pytest.raises(CampaignError, match="gibt es schon"):
        with camp.transaction():
            camp.add_character("B")
            camp.add_character("B")
    assert camp.characters == {}


def test_a_write_based_on_stale_state_is_refused_or_retried(tmp_path):
    from rpgkernel.errors import StoreConflict
    a = Campaign.open(tmp_path / "k.sqlite")
    b = Campaign.open(tmp_path / "k.sqlite")
    a.add_character("A", resources={"GD": 10})
    enc = a.new_encounter("Kampf")
    enc.add("A", character="A")
    enc.add("Wolf", resources={"TP": 3})
    enc.start(order=["A", "Wolf"])
    # b advances the turn while a's transaction is open: a's append would rest on stale state
    with pytest.raises(StoreConflict, match="inzwischen anderswo geändert"):
        with a.transaction():
            a.encounter.next_turn()
            b.encounter.next_turn()
    assert a.encounter.current == "Wolf" and a.encounter.round == 1  # only b's turn happened
    # a plain call that meets another writer's events is run again on fresh state
    stale = a.folded["seq"]
    b.encounter.next_turn()
    assert a.folded["seq"] == stale  # a has not seen b's turn yet
    a.encounter.next_turn()
    assert a.encounter.round == 2 and a.encounter.current == "Wolf"


def test_calls_inside_a_transaction_see_its_changes(camp):
    camp.add_character("A", resources={"GD": 10})
    with camp.transaction():
        camp.change("A", "GD", -3)
        camp.change("A", "GD", -2)
        camp.add_character("B", resources={"TP": 4})
        camp.change("B", "TP", -1)
        enc = camp.new_encounter("E")
        camp.add_condition("A", "müde")
    texts = [e.data["text"] for e in camp.journal()][-6:]
    assert texts[:2] == ["A: GD 10 → 7", "A: GD 7 → 5"] and texts[3] == "B: TP 4 → 3"
    assert camp.journal()[-1].data["encounter"] == "E"
    assert camp.figure("A").resources["GD"]["value"] == 5 and enc.name == "E"


def test_only_the_latest_snapshots_are_kept(camp, monkeypatch):
    monkeypatch.setattr(campaign_module, "SNAPSHOT_EVERY", 2)
    camp.add_character("A", resources={"GD": 10})
    for _ in range(12):
        camp.change("A", "GD", -1)
    rows = camp.store._conn.execute("SELECT count(*) FROM rpg_snapshots").fetchone()[0]
    assert rows == 2 and camp.state["seq"] - camp.store.latest_snapshot()[0] < 2
