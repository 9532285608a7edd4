"""docs/resolve.md: every cell of the page run in a notebook on the Bastionland figures it names, every
card and error it shows compared with what the cell shows, the Python block run, and the tables of
option kinds and number ranges checked against the verbs of every ruleset."""

import re

import pytest
from doc_blocks import assert_shown, page, run_python

import rpgkernel
from rpgkernel import Campaign, rules, statblocks
from rpgkernel.errors import RpgError
from rpgkernel.messages import t
from rpgkernel.numerals import integer
from rpgkernel.resolve import Resolutions, pending
from rpgkernel.resolve.language import parse
from rpgkernel.rules.resolution import INT_RANGE, Resolution

PAGE = page("resolve.md")
TEXT = PAGE.text
SYNOPSIS = PAGE.block("", "%%resolve [REGELWERK]")
OTHER_RULESET, OTHER_RULESET_ERROR = PAGE.take("", after="## Das Regelwerk einer Zelle", count=2)
ONE_LINE = PAGE.block("", after="## Eine Zeile")
UNKNOWN, UNKNOWN_ERROR, NO_ARROW, NO_ARROW_ERROR = PAGE.take("", after="## Prüfen vor dem ersten Wurf", count=4)
PYTHON = PAGE.block("python", "import rpgkernel")
OPEN, OPEN_CARD, DECIDE, NAMED = PAGE.take("", after="## Offene Entscheidungen", count=4)
PREVIEW = PAGE.block("", "%%resolve --vorschau")
GIVEN = PAGE.block("", after="## Echte Würfel: `--würfel`")
RULESETS = [rules.get(key) for key in ("adz", "bastionland", "kampfwerte", "midgard", "osr")]

#: Ritter, Knappe and Söldner of the rules' example, in the active encounter "Furt"
FURT = """\
figuren:
  - name: Ritter
    werte: {vig: 14, cla: 12, spi: 13, gd: 5, ruestung: 2, waffen: ["Streitkolben (W8, wuchtig)", "Schild (W4)"],
            spielfigur: true}
  - name: Knappe
    werte: {vig: 10, cla: 9, spi: 11, gd: 3, ruestung: 1, waffen: ["Dolch (W6)", "Dolch (W6)"]}
begegnung:
  name: Furt
  teilnehmer:
    - figur: Ritter
      seite: Spieler
    - figur: Knappe
      seite: Spieler
    - name: Söldner
      seite: Feinde
      werte: {vig: 13, cla: 10, spi: 10, gd: 4, ruestung: 2, waffen: ["Speer (W8, wuchtig)", "Schild (W4)"]}
"""
MORE = """\
- name: Söldner 2
  werte: {vig: 13, cla: 10, spi: 10, gd: 4, ruestung: 2, waffen: ["Speer (W8)"]}
- name: Sir Aldric
  werte: {vig: 12, cla: 12, spi: 12, gd: 4, waffen: ["Langschwert (W8)"]}
- name: Wolf
  werte: {vig: 8, cla: 6, spi: 6, gd: 2, natuerliche_waffen: true, waffen: ["Biss (W6)"]}
"""


@pytest.fixture
def furt(notebook):
    notebook.ok("%rpg bastionland --kampagne kampagne.sqlite")
    notebook.ok("%%figuren\n" + FURT)
    notebook.camp = rpgkernel.session.current().campaign
    return notebook


def test_the_synopsis_is_the_magics_own(furt):
    head, verbs = SYNOPSIS.lines
    assert head in furt.shell.magics_manager.magics["cell"]["resolve"].__doc__
    assert verbs in furt.shell.magics_manager.magics["cell"]["resolve"].__doc__
    [error] = furt.run("%%resolve --vorschauen\nprobe Ritter")
    assert error.startswith("Fehler: ") and f"Aufruf: {head}" in error


def test_a_cell_of_another_ruleset_changes_nothing_and_says_why(furt):
    before = furt.camp.store.last_seq()
    assert furt.run(OTHER_RULESET.text) == [OTHER_RULESET_ERROR.text.strip()]
    assert furt.camp.store.last_seq() == before


def test_the_line_syntax_cell_runs(furt):
    furt.ok(f"%%figuren --begegnung Furt\n{MORE}")
    body = ONE_LINE.magic[2]
    commands = parse(body)
    assert [c.verb.text for c in commands] == ["probe", "angriff", "angriff", "angriff", "ATTACK"]
    assert [c.actors[0].text for c in commands[2:4]] == ["Ritter", "Sir Aldric"]
    assert [t.text for t in commands[2].targets] == ["Söldner 2"] and commands[2].flags[0].text == "deckung"
    [cards] = furt.ok(ONE_LINE.text)
    assert cards.count("angriff: ") == 4 and "probe: Ritter" in cards


def test_errors_name_line_and_column_and_change_nothing(furt):
    before = furt.camp.store.last_seq()
    assert furt.run(UNKNOWN.text) == [UNKNOWN_ERROR.text.strip()]
    assert furt.run(NO_ARROW.text) == [NO_ARROW_ERROR.text.strip()]
    [error] = furt.run("%%resolve\nprobe Ritter virtue=VIG\nprobe Ritter virtue=FOO")
    assert "Zeile 3" in error and furt.camp.store.last_seq() == before   # the line before stays unrolled


def test_the_python_block(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with Campaign.open("kampagne.sqlite") as c:
        c.set_ruleset("bastionland")
        statblocks.load(c, FURT)
    namespace = {}
    last = run_python(PYTHON.text, namespace)
    assert isinstance(last, Resolution) and last.actors == ("Ritter",)
    alone = rpgkernel.resolve("probe Ritter virtue=VIG", ruleset="bastionland",
                              figures={"Ritter": namespace["ritter"]}, dice=[14])
    assert alone.outcome == {"erfolg": True, "wurf": 14, "wert": 14}   # VIG 14 from the sheet
    assert isinstance(rpgkernel.resolve("probe Ritter virtue=VIG\nprobe Ritter virtue=CLA", ruleset="bastionland",
                                        figures={"Ritter": namespace["ritter"]}), Resolutions)
    with Campaign.open("kampagne.sqlite") as c:   # the figures passed in are not stored
        assert len(c.journal(kind="auflösung")) == 1


def gd(camp, name):
    return camp.figure(name).resources["GD"]["value"]


def test_an_open_resolution_is_shown_kept_closed_and_undone(furt):
    [card] = furt.ok(OPEN.text)
    assert_shown(OPEN_CARD.text, card)
    [(pid, record)] = pending(furt.camp).items()
    assert gd(furt.camp, "Söldner") == 4   # nothing changed yet
    furt.ok("%rpg --seed 3")
    [closed] = furt.ok(DECIDE.text)
    assert "\n  ? " not in closed and closed.startswith("angriff: Ritter, Knappe → Söldner\n")
    assert not pending(furt.camp) and "Söldner setzt Deny ein und entfernt die 7." in closed
    after = gd(furt.camp, "Söldner")
    furt.ok("%rpg rückgängig")   # opens it again, with its dice
    assert pending(furt.camp)[pid]["faces"] == record["faces"] == [7, 3, 1, 5] and gd(furt.camp, "Söldner") == 4
    furt.ok("%rpg rückgängig")   # and the attack itself
    assert not pending(furt.camp) and after < 4


def test_a_resolution_opened_and_closed_in_one_cell_shows_only_the_closed_card(furt):
    source = OPEN.text + "".join(line + "\n" for line in DECIDE.lines[1:])
    [cards] = furt.ok(source.replace("%%resolve --würfel 7,3,1,5", "%%resolve --würfel 7,3,1,5,20"))
    assert cards.count("angriff: ") == 1 and "\n  ? " not in cards and not pending(furt.camp)


def test_the_preview_cell_rolls_and_changes_nothing(furt):
    before = furt.camp.store.last_seq()
    [cards] = furt.ok(PREVIEW.text)
    assert furt.camp.store.last_seq() == before
    probe, angriff = cards.split("\n\n")
    assert "Erfolgschance 60,00 %" in probe   # CLA 12: 1 to 12 on the W20, 12/20
    assert "mit Deny" in angriff and "Gambit" in angriff
    for flag in ("--vorschau\n", "\n"):
        [error] = furt.run(f"%%resolve {flag}probe Ritter virtue=FOO")
        assert "Unbekannte Virtue 'FOO'" in error


def test_given_dice_are_taken_in_order_and_must_fit(furt):
    [card] = furt.ok(GIVEN.text)
    assert_shown(OPEN_CARD.text, card)
    furt.ok("%rpg rückgängig")
    before = furt.camp.store.last_seq()
    for dice in ("7,3,1,5,6", "7,3,1", "9,3,1,5"):   # one too many, one too few, a 9 on a W8
        [error] = furt.run(GIVEN.text.replace("7,3,1,5", dice))
        assert error.startswith("Fehler: ")
    assert furt.camp.store.last_seq() == before and not pending(furt.camp)


def test_a_seed_repeats_the_cell(furt):
    cell = "%%resolve --seed 7\nprobe Ritter virtue=VIG\nprobe Knappe virtue=SPI"
    first = furt.ok(cell)
    assert furt.ok(cell) == first and furt.ok(cell.replace("7", "8")) != first


def test_an_empty_cell_says_so_with_an_example(furt):
    [notice] = furt.ok("%%resolve\n")
    assert "keine Handlung" in notice and rules.get("bastionland").verbs["probe"].example in notice


def test_the_table_of_option_kinds_names_real_options():
    kinds = {"Würfelausdruck": "dice", "Würfel": "pool", "Zahl": "int", "Text": "text", "Figur": "name",
             "Schalter": "flag"}
    rows = re.findall(r"^  \| (\w+) \| (.*?) \| .* \|$", TEXT.split("Die Art eines Werts legt das Verb fest:")[1],
                      re.M)
    assert [kind for kind, _ in rows][1:] == list(kinds)
    known = {(name, kind) for r in RULESETS for v in r.verbs.values() for name, kind in v.options.items()}
    for kind, examples in rows[1:]:
        for example in re.findall(r"`(\w+)(?:=[^`]*)?`", examples):
            assert (example, kinds[kind]) in known, f"{example} ({kind}) ist keine Option dieser Art"


def test_the_number_ranges_the_page_names_are_the_verbs():
    def bounds(key, verb, option):
        return rules.get(key).verbs[verb].bounds.get(option, INT_RANGE)
    named = {"eine Virtue": bounds("bastionland", "verlust", "um"), "W%": bounds("osr", "losreißen", "chance"),
             "ein Segment": bounds("osr", "zaubern", "segment"),
             "die Stufe eines Manövers": bounds("kampfwerte", "manöver", "stufe"),
             "die Schwierigkeit eines W10": bounds("kampfwerte", "probe", "schwierigkeit"),
             "der Krafteinsatz": bounds("adz", "zauber", "kp"), "ein Alter": bounds("midgard", "altern", "bis"),
             "sonst": INT_RANGE}
    said = " ".join(TEXT.split())
    for what, (low, high) in named.items():
        low = f"−{integer(-low)}" if low < 0 else integer(low)
        assert re.search(rf"{re.escape(what)} {re.escape(low)} bis {re.escape(integer(high))}\b", said), what


def test_the_limits(furt):
    with pytest.raises(RpgError, match="Handlungen in einer Zelle: höchstens 100"):
        rpgkernel.resolve("probe Ritter virtue=VIG\n" * 101, campaign=furt.camp)
    with pytest.raises(RpgError, match=r"zu viele Würfel im Pool \(höchstens 1\.000 zusammen\)"):
        rpgkernel.resolve("angriff Ritter -> Söldner bonus={1000W6,1000W6}", campaign=furt.camp)
    with pytest.raises(RpgError, match=r"4\.025 Zeichen \(höchstens 4\.000\)"):
        rpgkernel.resolve("probe Ritter virtue=VIG " + "x" * 4001, campaign=furt.camp)
    with pytest.raises(RpgError, match=r"höchstens 100\.000 Zeichen"):
        rpgkernel.resolve(("probe Ritter virtue=VIG" + " " * 3000 + "\n") * 40, campaign=furt.camp)
    adz = {"Magierin": {"sheet": {"KK": 2, "KO": 3, "GE": 3, "FF": 4, "KL": 6, "WK": 5, "IN": 4, "CH": 3, "GL": 3,
                                  "erschaffen": 4, "magiebereiche": ["Feuer 5"]}}}
    with pytest.raises(RpgError) as info:
        rpgkernel.resolve("zauber Magierin bereich=Feuer technik=erschaffen mw=2 kp=" + "9" * 311, ruleset="adz",
                          figures=adz)
    assert "kp=999999999999999… (311 Stellen): erlaubt ist 0 bis 10.000." in str(info.value)
    assert "`kp=999999999999999… (311 Stellen): erlaubt ist 0 bis 10.000.`" in " ".join(TEXT.split())


def test_choice_lines_name_their_resolution_as_the_page_shows(furt):
    furt.ok(f"%%figuren --begegnung Furt\n{MORE}")
    # the page's ids stand for an older attack (Gambits for the Ritter) and a newer one on Söldner 2
    older = rpgkernel.resolve("angriff Ritter, Knappe -> Söldner", campaign=furt.camp, dice=[7, 3, 1, 5]).id
    newer = rpgkernel.resolve('angriff Knappe -> "Söldner 2"', campaign=furt.camp, dice=[6, 4]).id
    shown = re.findall(r"auflösung=(\w+)", NAMED.text)
    assert len(shown) == 2 and all(re.fullmatch("[0-9a-f]{12}", x) for x in shown)
    [cards] = furt.ok(NAMED.text.replace(shown[0], older).replace(shown[1], newer))
    assert cards.count("angriff: ") == 2 and not pending(furt.camp)
    assert "Gambit Bolster (+1 Schaden) gegen Söldner mit der 7." in cards
    [refused] = furt.run(NAMED.text.replace(shown[0], older).replace(shown[1], newer))
    assert t("resolve.answer_closed", id=older) in refused
    # the page's reasons are the catalogue's
    words = " ".join(TEXT.split())
    for key in ("closed", "undone", "unknown"):
        assert t(f"resolve.answer_{key}", id="…") in words
    assert t("resolve.answer_not_offered", id="…", action="angriff …", choice="gambit") in words


def test_the_advice_quoted_on_the_page_is_the_codes(furt):
    """The page quotes a Deny option's consequences and line for the ford's Ritter rolling 7 and 4."""
    prose = " ".join(PAGE.text.split("Unter jeder Wahl steht der **Rat**", 1)[1].split("\n\n", 1)[0].split())
    quoted = re.search(r"„(Deny auf die 7: .*?) … → (.*?)“", prose)
    res = rpgkernel.resolve("angriff Ritter -> Söldner", campaign=furt.camp, dice=[7, 4])
    [option] = [o for a in res.advice if a.key == "deny" for o in a.options if o.label == "Deny auf die 7"]
    assert f"{option.label}: {'; '.join(option.said())}".startswith(quoted[1])
    assert option.lines == (quoted[2],)
