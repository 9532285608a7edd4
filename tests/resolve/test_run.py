"""Carrying out %%resolve cells: checks before any roll, one dice stream, one transaction, open choices."""

import dataclasses
import re

import pytest
from IPython.utils.capture import capture_output

import rpgkernel
from rpgkernel import Campaign, GivenDiceError, ResolveError, RpgError, rules, session
from rpgkernel.dice import Dist, dist
from rpgkernel.numerals import integer
from rpgkernel.resolve import Resolutions, pending
from rpgkernel.resolve.language import MAX_ACTIONS, MAX_CHARS, MAX_LINE
from rpgkernel.rules.base import Ruleset
from rpgkernel.rules.resolution import Choice, Effect, Resolution, Verb
from rpgkernel.rules.sheet import Field, Sheet


# -- a small ruleset with a save and an attack that leaves choices open --------------
ARTEN = {"normal": 0, "leicht": 4}


def probe(req):
    """W20 (+bonus) under Stärke, or ``würfel`` W20 of which one must be; a failure makes the figure erschöpft."""
    [fig] = req.actors
    if req.options.get("art", "normal") not in ARTEN:
        raise RpgError(f"Unbekannte Art {req.options['art']!r}.")
    res = Resolution("übung", "probe", (fig.name,))
    r = req.roller.roll(f"{req.options['würfel']}W20kl1" if "würfel" in req.options else "W20")
    total = r.total + req.options.get("bonus", 0)
    ok = total <= fig.value("stärke")
    res.step(f"{fig.name}: W20 = {r.total}", "Probe", r, value=total)
    res.outcome = {"erfolg": ok}
    if not ok:
        res.effects.append(Effect(fig.name, condition="erschöpft"))
    return res


def attack_pool(req):
    return ["W6"] * len(req.actors) + list(req.options.get("bonus", []))


def attack(req):
    """Every attacker's W6 plus bonus dice; open: deny (remove the highest) and gambit (bolster with a 4+).

    A deny costs the denier a save (W20 under Stärke, rolled after the attack dice) or erschöpft.
    """
    [target] = req.targets
    res = Resolution("übung", "angriff", tuple(a.name for a in req.actors), (target.name,))
    pool = attack_pool(req)
    rolls = [req.roller.roll(d) for d in pool]
    faces = [r.total for r in rolls]
    res.step("Würfel: " + ", ".join(map(str, faces)), "Angriff", *rolls)
    if not req.decisions:
        res.choices.append(Choice("deny", "Deny", (target.name,)))
        if any(f >= 4 for f in faces):
            res.choices.append(Choice("gambit", "Gambit", res.actors, tuple(str(f) for f in faces if f >= 4)))
        res.outcome = {"würfel": faces}
        return res
    left = list(faces)
    for d in req.decisions.get("deny", []):
        left.remove(max(left))
        save = req.roller.roll("W20")
        res.step(f"Deny, Probe {save.total}", "Deny", save)
        if save.total > 10:
            res.effects.append(Effect(d["figures"][0], condition="erschöpft"))
    bolster = 0
    for g in req.decisions.get("gambit", []):
        if g.get("bolster") not in left or g["bolster"] < 4:
            raise RpgError(f"Kein Würfel {g.get('bolster')} zum Ablegen.")
        left.remove(g["bolster"])
        bolster += 1
    damage = (max(left) if left else 0) + bolster + req.options.get("wucht", 0)
    res.outcome = {"würfel": faces, "schaden": damage}
    res.effects.append(Effect(target.name, "LP", -damage))
    return res


def attack_preview(req):
    return dist("{" + ",".join(attack_pool(req)) + "}kh1")


class UebungBogen(Sheet):
    def resources(self, sheet, data):
        return {"LP": {"value": sheet["stärke"], "max": sheet["stärke"]}}


class Uebung(Ruleset):
    key = "übung"
    title = "Übung"
    sheet = UebungBogen({"stärke": Field("int", "Stärke", 1, 20, required=True)})
    verbs = {
        "probe": Verb("probe", probe, "Probe", aliases=("check",), actors="one",
                      options={"bonus": "int", "schwer": "flag", "art": "text", "würfel": "int"},
                      preview=lambda req: min(req.actors[0].value("stärke")
                                              + ARTEN[req.options.get("art", "normal")], 20) / 20,
                      bounds={"würfel": (1, 5000)}, example="probe Ritter bonus=2"),
        "angriff": Verb("angriff", attack, "Angriff", aliases=("attack",), targets="one",
                        options={"bonus": "pool", "wucht": "int", "hinweis": "text", "helfer": "name",
                                 "formel": "dice"}, preview=attack_preview),
        "deny": Verb("deny", None, "Deny", aliases=("abwehr",), actors="one", choice="deny"),
        "gambit": Verb("gambit", None, "Gambit", actors="one", options={"bolster": "int"}, choice="gambit"),
    }


class Zweit(Uebung):
    key = "zweit"


class Leer(Ruleset):
    """A ruleset without verbs."""

    key = "leer"
    title = "Leer"


@pytest.fixture(autouse=True)
def uebung(add_ruleset):
    add_ruleset(Uebung)


@pytest.fixture
def camp(tmp_path):
    with Campaign.open(tmp_path / "k.sqlite") as c:
        c.set_ruleset("übung")
        c.add_character("Ritter", {"stärke": 12})
        c.add_character("Knappe", {"stärke": 8})
        c.add_character("Söldner", {"stärke": 10})
        yield c


def lp(camp, name):
    return camp.figure(name).resources["LP"]["value"]


def journal_size(camp):
    return len(camp.journal())


# -- checks before any roll --------------------------------------------------------
@pytest.mark.parametrize("cell, line, col, fragment", [
    ("angrif Ritter -> Söldner", 1, 1, "Unbekanntes Verb 'angrif' – meinten Sie 'angriff'?"),
    ("probe Ritter\nangriff Ritter -> Sölner", 2, 19, "Unbekannte Figur 'Sölner' – meinten Sie 'Söldner'?"),
    ("angriff Ritter -> Söldner bonsu=W8", 1, 27, "Unbekannte Option 'bonsu' für angriff – meinten Sie 'bonus'?"),
    ("probe Ritter schwr", 1, 14, "Unbekannte Angabe 'schwr' für probe – meinten Sie 'schwer'?"),
    ("angriff Ritter -> Söldner bonus=W8,", 1, 35, "gehört hier nicht hin"),
    ("angriff Ritter -> Söldner bonus={W8,3X6}", 1, 38, "Meinten Sie '3W6'?"),
    ("angriff Ritter -> Söldner bonus=W8kh1", 1, 33, "einzelne Würfel"),
    ("angriff Ritter -> Söldner formel=2W6+", 1, 38, "Der Ausdruck endet zu früh"),
    ("angriff Ritter -> Söldner wucht=viel", 1, 33, "erwartet wird eine ganze Zahl"),
    ("angriff Ritter -> Söldner helfer=Knape", 1, 34, "Unbekannte Figur 'Knape' – meinten Sie 'Knappe'?"),
    ("probe Ritter schwer=1", 1, 14, "ist ein Schalter"),
    ("angriff Ritter -> Söldner hinweis", 1, 27, "braucht einen Wert"),
    ("probe Ritter, Knappe", 1, 15, "genau eine Figur"),
    ("probe Ritter -> Söldner", 1, 17, "hat kein Ziel"),
    ("angriff Ritter", 1, 16, "braucht ein Ziel"),
    ("angriff Ritter -> Söldner, Knappe", 1, 28, "genau ein Ziel"),
    ("# nur ein Kommentar\n\ndeny Söldner", 3, 1, "Keine offene Auflösung wartet auf 'deny'"),
])
def test_errors_name_line_and_column_and_apply_nothing(camp, cell, line, col, fragment):
    before, events = camp.state, journal_size(camp)
    with pytest.raises(ResolveError) as info:
        rpgkernel.resolve(cell, campaign=camp, dice=[1] * 20)
    err = info.value
    assert fragment in str(err)
    assert (err.line, err.column) == (line, col), str(err)
    assert str(err).splitlines()[2] == "  " + " " * (col - 1) + "^"
    assert camp.state == before and journal_size(camp) == events


def test_a_figure_removed_from_the_encounter_is_named_so_with_the_way_back(camp):
    enc = camp.new_encounter("Furt")
    enc.add("Wache", sheet={"stärke": 9})
    enc.add("Ritter", character="Ritter")
    enc.remove("Wache")
    before = camp.state
    with pytest.raises(ResolveError) as info:
        rpgkernel.resolve("angriff Ritter -> Wache", campaign=camp, dice=[1] * 20)
    assert "'Wache' wurde aus der Begegnung 'Furt' entfernt; zurückholen mit: %begegnung zurück Wache" in str(info.value)
    assert (info.value.line, info.value.column) == (1, 19) and camp.state == before


@pytest.mark.parametrize("cell, line, col, fragment, hint", [
    ('angriff Ritter "Söldner"', 1, 16, "'Söldner' gehört hier nicht hin.",
     "Fehlt '->'? So ginge es: angriff Ritter -> \"Söldner\""),
    ("angriff Ritter Söldner wucht=2", 1, 32, "angriff braucht ein Ziel",
     "Fehlt '->'? So ginge es: angriff Ritter -> Söldner wucht=2"),
    ("angriff Ritter, Söldner", 1, 25, "angriff braucht ein Ziel",
     "Fehlt '->'? So ginge es: angriff Ritter -> Söldner"),
    ("angriff Ritter -> Söldner Knappe", 1, 27, "'Knappe' gehört hier nicht hin.",
     "Fehlt ','? So ginge es: angriff Ritter -> Söldner, Knappe"),
])
def test_a_forgotten_arrow_or_comma_is_suggested(camp, cell, line, col, fragment, hint):
    with pytest.raises(ResolveError) as info:
        rpgkernel.resolve(cell, campaign=camp, dice=[])
    assert (info.value.line, info.value.column) == (line, col) and fragment in info.value.message
    assert info.value.suggestion == hint and str(info.value).endswith(hint)


@pytest.mark.parametrize("cell, col, message, hint", [
    ("angriff Ritter -> Räuber 2", 19,
     "Unbekannte Figur 'Räuber' – gemeint ist wohl 'Räuber 2': Ein Name mit Leerzeichen steht in Anführungszeichen.",
     'So geht es: angriff Ritter -> "Räuber 2"'),
    ("angriff Ritter -> räuber 2 wucht=1", 19, "gemeint ist wohl 'Räuber 2'",
     'So geht es: angriff Ritter -> "Räuber 2" wucht=1'),
    ("angriff Räuber 3 -> Ritter", 18, "'->' gehört hier nicht hin.", 'So geht es: angriff "Räuber 3" -> Ritter'),
    ("angriff Ritter -> Räuber 2, Räuber 3", 27, "',' gehört hier nicht hin.",
     'So geht es: angriff Ritter -> "Räuber 2", "Räuber 3"'),
])
def test_a_name_with_a_space_unquoted_is_recognised_with_the_quoted_line(camp, cell, col, message, hint):
    """``angriff Elfe -> Räuber 2``: the GM meant "Räuber 2" (not the nearest spelling, "Räuber 3")."""
    enc = camp.new_encounter("Hohlweg")
    enc.add("Ritter", character="Ritter")
    for name in ("Räuber 2", "Räuber 3"):
        enc.add(name, sheet={"stärke": 9})
    with pytest.raises(ResolveError) as info:
        rpgkernel.resolve(cell, campaign=camp, dice=[])
    assert (info.value.line, info.value.column) == (1, col) and message in info.value.message
    assert info.value.suggestion == hint


def test_integer_options_are_bounded(camp):
    """A value beyond the verb's range (or INT_RANGE) is refused before anything is rolled, shortened."""
    for line, fragment in (("probe Ritter bonus=101", "bonus=101: erlaubt ist −100 bis 100."),
                           ("probe Ritter bonus=-" + "1" * 311, "bonus=-11111111111111… (311 Stellen): erlaubt ist"),
                           ("probe Ritter würfel=0", "würfel=0: erlaubt ist 1 bis 5.000."),
                           ("probe Ritter bonus=1.5", "bonus='1.5': erwartet wird eine ganze Zahl.")):
        with pytest.raises(ResolveError, match=re.escape(fragment)):
            rpgkernel.resolve(line, campaign=camp, dice=[])
    for text in ("+2", "−2", "100"):
        res = rpgkernel.resolve(f"probe Ritter bonus={text}", campaign=camp, dice=[10])
        assert res.outcome["erfolg"] == (10 + int(text.replace("−", "-")) <= 12)
    assert journal_size(camp) == 4 + 3


def test_a_pool_counts_its_dice_across_items(camp):
    with pytest.raises(ResolveError, match=r"bonus: zu viele Würfel im Pool \(höchstens 1\.000 zusammen\)"):
        rpgkernel.resolve("angriff Ritter -> Söldner bonus={500W6,501W6}", campaign=camp, preview=True)
    res = rpgkernel.resolve("angriff Ritter -> Söldner bonus={500W6,499W6}", campaign=camp, seed=1)
    assert len(res.outcome["würfel"]) == 1 + 999


def test_a_cell_is_bounded(camp):
    """Too many actions, too long a line or cell: refused at once, naming the limit."""
    many = "\n".join(["probe Ritter"] * (MAX_ACTIONS + 1))
    with pytest.raises(ResolveError, match=f"Zu viele Handlungen in einer Zelle: höchstens {MAX_ACTIONS}") as info:
        rpgkernel.resolve(many, campaign=camp, dice=[])
    assert info.value.line == MAX_ACTIONS + 1
    with pytest.raises(ResolveError, match=re.escape(f"Die Zeile ist zu lang: {integer(MAX_LINE + 1)} Zeichen "
                                                     f"(höchstens {integer(MAX_LINE)})")):
        rpgkernel.resolve("probe Ritter # " + "x" * (MAX_LINE - 14), campaign=camp, dice=[])
    with pytest.raises(ResolveError, match=re.escape(f"höchstens {integer(MAX_CHARS)} Zeichen")) as info:
        rpgkernel.resolve("\n" * 10**6 + "probe Ritter", campaign=camp, dice=[])
    assert info.value.line == MAX_CHARS + 1
    out = rpgkernel.resolve("\n".join(["probe Ritter"] * MAX_ACTIONS), campaign=camp, preview=True)
    assert len(out) == MAX_ACTIONS and journal_size(camp) == 4


def test_a_cell_plays_by_the_ruleset_of_its_figures(camp, add_ruleset):
    """A cell of another ruleset than the campaign's, the active encounter's or a figure's is refused."""
    add_ruleset(Zweit)
    with pytest.raises(RpgError, match="Die Zelle spielt nach Übung \\(zweit\\), die Kampagne nach Übung "
                                       "\\(übung\\);.*Für sie: %%resolve übung"):
        rpgkernel.resolve("probe Ritter", ruleset="zweit", campaign=camp, dice=[1])
    camp.add_character("Gast", {"stärke": 5}, ruleset="zweit")
    with pytest.raises(ResolveError, match="Die Figur 'Gast' gehört zu Übung \\(zweit\\), die Zelle spielt nach "
                                           "Übung \\(übung\\)") as info:
        rpgkernel.resolve("probe Ritter\nprobe Gast", campaign=camp, dice=[1, 1])
    assert (info.value.line, info.value.column) == (2, 7)
    enc = camp.new_encounter("Alt")
    enc.activate()
    camp.set_ruleset("zweit")  # the encounter keeps the ruleset it began with
    with pytest.raises(RpgError, match="die aktive Begegnung 'Alt' nach Übung \\(übung\\)"):
        rpgkernel.resolve("probe Ritter", campaign=camp, dice=[1])
    assert rpgkernel.resolve("probe Ritter", ruleset="übung", campaign=camp, dice=[1]).outcome["erfolg"]


def test_the_last_line_is_checked_before_the_first_rolls(camp):
    """A bad third line: found before line 1 asks for its (missing) die; nothing applied."""
    with pytest.raises(ResolveError) as info:
        rpgkernel.resolve("probe Ritter\nprobe Knappe\nprobe Bär", campaign=camp, dice=[])
    assert info.value.line == 3
    assert not camp.figure("Ritter").conditions and journal_size(camp) == 4


def test_aliases_and_case(camp):
    res = rpgkernel.resolve("CHECK Ritter bonus=-2", campaign=camp, dice=[13])
    assert res.action == "probe" and res.outcome == {"erfolg": True}


@pytest.fixture
def without_verbs(add_ruleset):
    """An installed ruleset that has no verbs yet."""
    add_ruleset(Leer)


def test_no_ruleset_no_campaign_no_verbs(camp, without_verbs):
    with pytest.raises(RpgError, match="Kein Regelwerk gewählt"):
        rpgkernel.resolve("probe Ritter")
    with pytest.raises(RpgError, match="'leer' kennt noch keine %%resolve-Verben"):
        rpgkernel.resolve("probe Ritter", ruleset="leer")
    with pytest.raises(ResolveError, match="keine Kampagne geöffnet") as info:
        rpgkernel.resolve("probe Ritter", ruleset="übung", dice=[3])
    assert info.value.column == 7


def test_without_campaign_on_given_figures():
    ritter = {"sheet": {"stärke": 12}, "resources": {"LP": {"value": 12, "max": 12}}}
    res = rpgkernel.resolve("probe Ritter", ruleset="übung", dice=[15], figures={"Ritter": ritter})
    assert res.outcome == {"erfolg": False} and res.effects == [Effect("Ritter", condition="erschöpft")]
    assert "conditions" not in ritter or not ritter["conditions"]


# -- one stream, one transaction -------------------------------------------------------
def test_a_cell_is_one_transaction_and_one_undo(camp):
    cell = """
    # drei Handlungen
    probe Ritter
    angriff Ritter, Knappe -> Söldner bonus=W8 wucht=1
    gambit Ritter bolster=5
    probe Knappe schwer
    """
    # probe 15 (fails), attack dice 3, 5, 2 (W6, W6, W8), gambit spends the 5, probe 4
    out = rpgkernel.resolve(cell, campaign=camp, dice=[15, 3, 5, 2, 4])
    assert isinstance(out, Resolutions) and [r.action for r in out] == ["probe", "angriff", "probe"]
    assert out[1].outcome == {"würfel": [3, 5, 2], "schaden": 3 + 1 + 1}
    assert lp(camp, "Söldner") == 5 and "erschöpft" in camp.figure("Ritter").conditions
    assert not camp.figure("Knappe").conditions and not pending(camp)
    entries = camp.journal(kind="auflösung")
    assert len(entries) == 3 and len({e.tx for e in entries}) == 1
    assert entries[1].data["outcome"]["schaden"] == 5 and entries[1].data["actors"] == ["Ritter", "Knappe"]
    assert entries[1].data["text"] == "angriff: Ritter, Knappe → Söldner – Söldner LP -5"
    camp.undo()
    assert lp(camp, "Söldner") == 10 and not camp.figure("Ritter").conditions
    camp.redo()
    assert lp(camp, "Söldner") == 5


def test_later_lines_see_earlier_effects(camp):
    rpgkernel.resolve("angriff Ritter -> Söldner\nverzicht Ritter\nangriff Knappe -> Söldner\npass Knappe",
                      campaign=camp, dice=[6, 3])
    assert lp(camp, "Söldner") == 1


def test_given_dice_run_across_lines_and_must_fit(camp):
    out = rpgkernel.resolve("probe Ritter\nprobe Knappe", campaign=camp, dice=[12, 9])
    assert [r.outcome["erfolg"] for r in out] == [True, False]
    events = journal_size(camp)
    with pytest.raises(GivenDiceError, match="Zu viele Würfelergebnisse: 3 angegeben, der Wurf hat nur 2"):
        rpgkernel.resolve("probe Ritter\nprobe Knappe", campaign=camp, dice=[20, 20, 5])
    with pytest.raises(GivenDiceError, match="Zeile 2: Zu wenige Würfelergebnisse"):
        rpgkernel.resolve("probe Ritter\nprobe Knappe", campaign=camp, dice=[20])
    with pytest.raises(GivenDiceError, match="kann keine 21 zeigen"):
        rpgkernel.resolve("probe Ritter", campaign=camp, dice=[21])
    assert journal_size(camp) == events and "erschöpft" not in camp.figure("Ritter").conditions


def test_a_seed_repeats_the_cell(camp):
    a = rpgkernel.resolve("probe Ritter\nprobe Knappe", ruleset="übung", campaign=camp, seed=5)
    camp.undo()
    b = rpgkernel.resolve("probe Ritter\nprobe Knappe", ruleset="übung", campaign=camp, seed=5)
    assert [r.to_dict() for r in a] == [r.to_dict() for r in b]


def test_procedure_errors_name_the_line_and_apply_nothing(camp):
    with pytest.raises(ResolveError) as info:
        rpgkernel.resolve("probe Ritter\n  angriff Ritter -> Söldner\n  gambit Ritter bolster=6",
                          campaign=camp, dice=[3, 5])
    assert (info.value.line, info.value.column) == (3, 3) and "Kein Würfel 6" in str(info.value)
    assert not camp.figure("Ritter").conditions and not pending(camp)


# -- open choices ------------------------------------------------------------------------
def test_open_choices_are_stored_and_closed_later_with_the_same_dice(camp, tmp_path):
    res = rpgkernel.resolve("angriff Ritter, Knappe -> Söldner", campaign=camp, dice=[6, 4])
    assert res.open and [c.key for c in res.choices] == ["deny", "gambit"]
    assert lp(camp, "Söldner") == 10
    [(pid, record)] = pending(camp).items()
    assert record["faces"] == [6, 4] and record["verb"] == "angriff"
    # another notebook sees it and closes it: deny removes the 6; the denier's save (W20) comes after
    with Campaign.open(tmp_path / "k.sqlite") as other:
        closed = rpgkernel.resolve("deny Söldner\ngambit Knappe bolster=4", campaign=other, dice=[17])
    assert not closed.open and closed.outcome == {"würfel": [6, 4], "schaden": 0 + 1}
    assert [s.text for s in closed.steps][:2] == ["Würfel: 6, 4", "Deny, Probe 17"]
    assert lp(camp, "Söldner") == 9 and "erschöpft" in camp.figure("Söldner").conditions
    assert not pending(camp)
    [event] = camp.journal(kind="auflösung", last=1)
    assert event.data["pending"] == pid and event.data["open"] is False
    # one undo reopens it, with its dice
    camp.undo()
    assert lp(camp, "Söldner") == 10 and pending(camp)[pid]["faces"] == [6, 4]
    closed = rpgkernel.resolve("verzicht Söldner", campaign=camp, dice=[])
    assert closed.outcome["schaden"] == 6 and lp(camp, "Söldner") == 4
    # undoing the opening cell too removes the open resolution
    camp.undo()
    camp.undo()
    assert not pending(camp)


def test_open_and_closed_in_one_cell_shows_one_card(camp):
    out = rpgkernel.resolve("angriff Ritter -> Söldner\nprobe Knappe\ndeny Söldner", campaign=camp,
                            dice=[5, 3, 2])
    assert [r.action for r in out] == ["angriff", "probe"]
    assert out[0].outcome["schaden"] == 0 and not out[0].open
    assert "erschöpft" not in camp.figure("Söldner").conditions  # save 2 passed
    assert not pending(camp)


def test_a_choice_line_takes_the_latest_open_resolution(camp):
    out = rpgkernel.resolve("angriff Ritter -> Söldner\nangriff Knappe -> Ritter\ngambit Knappe bolster=5",
                            campaign=camp, dice=[3, 5])
    first, second = out
    assert first.open and not second.open and second.outcome["schaden"] == 1
    assert lp(camp, "Ritter") == 11 and len(pending(camp)) == 1
    with pytest.raises(ResolveError, match="Keine offene Auflösung wartet auf 'gambit'"):
        rpgkernel.resolve("gambit Ritter bolster=3", campaign=camp, dice=[])


def test_open_choices_without_campaign_live_in_the_cell():
    figs = {n: {"sheet": {"stärke": 10}, "resources": {"LP": {"value": 10, "max": 10}}} for n in ("A", "B")}
    res = rpgkernel.resolve("angriff A -> B", ruleset="übung", figures=figs, dice=[4])
    assert res.open
    res = rpgkernel.resolve("angriff A -> B\nverzicht A", ruleset="übung", figures=figs, dice=[4])
    assert not res.open and res.outcome["schaden"] == 4


# -- previews ----------------------------------------------------------------------------
def test_a_preview_is_checked_like_its_roll(camp):
    """The procedure's own checks run for --vorschau too: up to its first die, whose expression
    is read like a roll's (the preview alone would raise KeyError, or compute 2000 dice)."""
    for line, fragment in (("probe Ritter art=schwer", "Unbekannte Art 'schwer'."),
                           ("probe Ritter würfel=2000", "Zu viele Würfel: 2.000 (höchstens 1.000")):
        for preview in (True, False):
            with pytest.raises(ResolveError, match=re.escape(fragment)):
                rpgkernel.resolve(line, campaign=camp, dice=[], preview=preview)
    assert rpgkernel.resolve("probe Ritter art=leicht", campaign=camp, dice=[], preview=True).preview == 0.8
    assert journal_size(camp) == 4


def test_previews_are_computed_only_where_shown(camp, monkeypatch):
    """A roll never calls a verb's preview; --vorschau calls it once per line."""
    calls = []
    verbs = rules.get("übung").verbs
    spy = dataclasses.replace(verbs["angriff"], preview=lambda req: calls.append(req.roller) or attack_preview(req))
    monkeypatch.setitem(verbs, "angriff", spy)
    rpgkernel.resolve("angriff Ritter -> Söldner bonus=W8\nverzicht Ritter", campaign=camp, dice=[3, 5])
    assert calls == []
    rpgkernel.resolve("angriff Ritter -> Söldner bonus=W8", campaign=camp, preview=True)
    assert calls == [None]


def test_preview_rolls_and_applies_nothing(camp):
    events, state = journal_size(camp), camp.state
    out = rpgkernel.resolve("probe Ritter\nangriff Ritter -> Söldner bonus={W8,W4}\ndeny Söldner",
                            campaign=camp, dice=[], preview=True)
    assert out[0].preview == pytest.approx(0.6)
    assert isinstance(out[1].preview, Dist) and out[1].preview.p_at_least(8) == pytest.approx(1 / 8)
    assert "Nur Vorschau" in repr(out[1]) and "keine Vorschau" in repr(out[2])
    assert journal_size(camp) == events and camp.state == state


def test_the_preview_shows_the_hints_of_the_dice_typed_into_the_line(camp):
    out = rpgkernel.resolve("angriff Ritter -> Söldner formel=2W6>7\nangriff Ritter -> Söldner formel=2W6+1",
                            campaign=camp, preview=True)
    warned = [s.text for s in out[0].steps if s.text.startswith("formel: Warnung: kein Würfel")]
    assert len(warned) == 1 and "(2W6)>7" in warned[0] and "formel: Warnung" in repr(out[0])
    assert not any(s.text.startswith("formel:") for s in out[1].steps)


# -- rendering and the magic in a real shell ----------------------------------------------


@pytest.fixture
def magic_camp(tmp_path, uebung):
    session._current = None
    s = session.current()
    s.open_campaign(tmp_path / "k.sqlite")
    s.set_ruleset("übung")
    camp = s.campaign
    camp.add_character("Ritter", {"stärke": 12})
    camp.add_character("<b>Söldner</b>", {"stärke": 10})
    yield camp
    s.close_campaign()
    session._current = None


def run(shell, source):
    """Run a cell without a traceback; return its result as Jupyter formats it, and the displayed outputs."""
    with capture_output() as out:
        result = shell.run_cell(source)
    assert result.success and result.error_in_exec is None, out.stdout + out.stderr
    assert "Traceback" not in out.stdout + out.stderr
    shown = shell.display_formatter.format(result.result)[0] if result.result is not None else None
    return shown, out


def test_magic_resolves_and_renders_cards(shell, magic_camp):
    shown, _ = run(shell, '%%resolve --würfel 12,6\nprobe Ritter\nangriff Ritter -> "<b>Söldner</b>"\n'
                          'pass Ritter')
    text, html = shown["text/plain"], shown["text/html"]
    assert text.startswith("probe: Ritter\n") and "angriff: Ritter → <b>Söldner</b>" in text
    assert "<b>Söldner</b>" not in html and "&lt;b&gt;Söldner&lt;/b&gt;" in html
    assert html.count('class="rpgk-card rpgk-resolution"') == 2
    assert magic_camp.figure("<b>Söldner</b>").resources["LP"]["value"] == 4
    run(shell, "%rpg rückgängig")
    assert magic_camp.figure("<b>Söldner</b>").resources["LP"]["value"] == 10


def test_magic_ruleset_seed_and_preview(shell, magic_camp):
    run(shell, "%%resolve übung --seed 3\nprobe Ritter")
    [a] = magic_camp.journal(kind="auflösung")
    magic_camp.undo()
    run(shell, "%%resolve --seed 3\nprobe Ritter")
    b = magic_camp.journal(kind="auflösung", last=1)[0]
    assert a.data["steps"] == b.data["steps"]
    shown, _ = run(shell, "%%resolve --vorschau\nprobe Ritter")
    assert "Erfolgschance 60,00 %" in shown["text/plain"]
    assert len(magic_camp.journal(kind="auflösung")) == 2


@pytest.mark.parametrize("cell, fragment", [
    ("%%resolve\nprobe Ritter\nangrif Ritter -> Ritter", "Zeile 3, Spalte 1: Unbekanntes Verb 'angrif'"),
    ("%%resolve --würfel 1,2\nprobe Ritter", "Zu viele Würfelergebnisse"),
    ("%%resolve --würfel x\nprobe Ritter", "Ungültiger Wert für --würfel"),
    ("%%resolve leer\nprobe Ritter", "kennt noch keine"),
    ("%%resolve übung extra\nprobe Ritter", "Zu viele Angaben"),
    ("%%resolve\nprobe <b>Söldner</b>", "Unerwartetes '<'"),
])
def test_magic_errors_show_a_box_without_traceback(shell, magic_camp, cell, fragment, without_verbs):
    events = len(magic_camp.journal())
    _, out = run(shell, cell)
    [shown] = out.outputs
    text = shown.data["text/plain"]
    assert text.startswith("Fehler: ") and fragment in text, text
    assert 'class="rpgk-card rpgk-error"' in shown.data["text/html"] and "<b>Söldner" not in shown.data["text/html"]
    assert len(magic_camp.journal()) == events


def test_magic_caret_under_the_column(shell, magic_camp):
    _, out = run(shell, "%%resolve\nprobe Ritter\nprobe Ritter -> Ritter")
    text = out.outputs[0].data["text/plain"]
    assert "Zeile 3, Spalte 17" in text and "\n  probe Ritter -> Ritter\n                  ^" in text


def test_magic_empty_cell_and_help(shell, magic_camp):
    empty = ("Die Zelle enthält keine Handlung. Unter %%resolve steht je Zeile eine Handlung, "
             "z. B.: probe Ritter bonus=2")
    shown, _ = run(shell, "%%resolve\n# nichts\n")
    assert shown["text/plain"] == empty
    # IPython refuses a cell magic with an empty body in English before the magic runs
    for cell in ("%%resolve", "%%resolve\n", "%%resolve --vorschau  \n\n"):
        shown, _ = run(shell, cell)
        assert shown["text/plain"] == empty
    doc = shell.magics_manager.magics["cell"]["resolve"].__doc__
    for example in ("--vorschau", "--würfel", "deny Söldner", "verzicht"):
        assert example in doc


def test_figures_without_a_campaign_get_the_resources_their_sheet_gives():
    """rpgkernel.resolve(figures=...) with sheets only raised a raw KeyError ('VIG') in the attack."""
    figures = {"Ritter": {"sheet": {"vig": 12, "cla": 10, "spi": 9, "gd": 4, "waffen": ["Langschwert (W8)"]}},
               "Söldner": {"sheet": {"vig": 5, "cla": 8, "spi": 7, "gd": 3, "waffen": ["Speer (W8)"]}}}
    res = rpgkernel.resolve("angriff Ritter -> Söldner entschieden", ruleset="bastionland", figures=figures, dice=[8])
    assert res.summary == "Ritter greift Söldner an: Söldner verliert 5 VIG und ist tot."
    with pytest.raises(RpgError, match="vig"):
        rpgkernel.resolve("probe Ritter", ruleset="bastionland", figures={"Ritter": {"sheet": {"vig": 99}}})


def test_figures_without_a_campaign_keep_their_given_resources_over_those_of_their_sheet():
    """A record naming some of its resources lost the others its sheet gives: a raw KeyError ('CLA')."""
    ritter = {"sheet": {"vig": 14, "cla": 12, "spi": 13, "gd": 5}, "resources": {"VIG": {"value": 10, "max": 14}}}
    res = rpgkernel.resolve("probe Ritter virtue=CLA", ruleset="bastionland", figures={"Ritter": ritter}, dice=[12])
    assert res.outcome["erfolg"]
    res = rpgkernel.resolve("probe Ritter virtue=VIG", ruleset="bastionland", figures={"Ritter": ritter}, dice=[11])
    assert not res.outcome["erfolg"]   # against the given VIG 10, not the sheet's 14


def test_the_examples_of_the_magics_help_run(tmp_path):
    """%%resolve? showed 'probe Ritter vig', which reads as an unknown flag."""
    from rpgkernel.messages import t
    block = t("magic.help_resolve").split("Beispiele (Mythic Bastionland)::")[1].split("\n\n")[1]
    cell = "\n".join(line.split("#")[0].rstrip() for line in block.splitlines()[1:])
    with Campaign.open(tmp_path / "b.sqlite") as c:
        c.set_ruleset("bastionland")
        for name, sheet in (("Ritter", {"vig": 12, "cla": 10, "spi": 9, "gd": 4, "waffen": ["Langschwert (W8)"]}),
                            ("Knappe", {"vig": 8, "cla": 8, "spi": 8, "gd": 2, "waffen": ["Dolch (W6)"]}),
                            ("Söldner", {"vig": 9, "cla": 7, "spi": 7, "gd": 3, "waffen": ["Speer (W8)"]})):
            c.add_character(name, sheet)
        results = rpgkernel.resolve(cell, campaign=c, dice=[12, 8, 6, 5, 3])
    assert [r.action for r in results] == ["probe", "angriff"] and not results[1].open
