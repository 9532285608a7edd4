"""One German term per concept in every text the package shows, and German words for the journal's kinds."""

import re

import pytest

import rpgkernel
from rpgkernel.state import model
from rpgkernel import Campaign, statblocks
from rpgkernel.messages import labels, t
from rpgkernel.state.journal import journal_kinds, kind_label
from rpgkernel.widgets.chart import DistributionChart

# the term not used -> the term used instead (the catalogue's header comment names the same choices)
REJECTED = {
    r"\bMittel\b": "Mittelwert", r"\bStreuung\b": "Standardabweichung", r"Kampfteilnehmer": "Teilnehmer",
    r"Ereignis": "Eintrag", r"\bSL\b": "Spielleitung", r"\bSpielleiter": "Spielleitung",
    r"Spielerfigur": "Spielfigur", r"eingegebene Würfel|gegebene Würfel": "echte Würfel",
    r"\bbestanden\b": "gelungen", r"\bKarte \{": "Hexkarte", r"Begegnung \{name\} begonnen": "angelegt",
}


@pytest.mark.parametrize("pattern", sorted(REJECTED))
def test_the_catalogue_uses_one_term_per_concept(pattern):
    hits = [key for key, text in labels("").items() if re.search(pattern, text)]
    assert not hits, f"{pattern} statt {REJECTED[pattern]!r} in {hits}"


def test_the_catalogue_documents_its_choices():
    from pathlib import Path
    core = Path(rpgkernel.__file__).parent / "locale" / "messages.pot"
    header = core.read_text(encoding="utf-8").split('msgid ""', 1)[0]
    for chosen in ("Mittelwert", "Standardabweichung", "Teilnehmer", "Eintrag", "Spielleitung", "Spielfigur",
                   "echte Würfel", "gelungen", "Hexkarte", "angelegt"):
        assert chosen in header, chosen


def test_mean_and_spread_have_the_same_words_on_every_card():
    rolls = rpgkernel.roll_many("3W6", 4, dice=[1, 2, 3] * 4)
    d = rpgkernel.dist("3W6")
    shown = [repr(rolls), rolls._repr_mimebundle_()["text/html"], repr(d), d._repr_mimebundle_()["text/html"],
             DistributionChart(d).text()]
    for text in shown:
        assert not re.search(r"\bMittel\b|Streuung", text), text
    assert all("Mittelwert" in text for text in shown)
    assert all("Standardabweichung" in text for text in shown[2:])


def test_every_kind_the_journal_writes_has_a_german_word(tmp_path, monkeypatch):
    """A campaign that writes every kind of entry: each shows as its capitalised German word."""
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "runtime"))   # where a player link is registered
    with Campaign.open(tmp_path / "k.sqlite") as camp:
        camp.set_ruleset("bastionland")
        statblocks.load(camp, "figuren:\n  - name: Ritter\n    werte: {vig: 12, cla: 10, spi: 10, gd: 4}\n"
                              "begegnung:\n  name: Furt\n  teilnehmer:\n    - figur: Ritter\n")
        camp.encounter.start()
        camp.encounter.next_turn()
        rpgkernel.resolve("probe Ritter virtue=vig", campaign=camp, dice=[3])
        camp.log_roll(rpgkernel.roll("W6", dice=[2]))
        camp.change("Ritter", "GD", -1)
        camp.add_condition("Ritter", "liegend")
        camp.set_sheet("Ritter", {**camp.figure("Ritter").sheet, "vig": 11})
        camp.set_data("notiz", {"text": "x"})
        camp.new_player_link("Ritter")
        camp.accept_suggestion(camp.suggest("Ritter", "Deny für Ritter"))
        camp.undo()
        camp.redo()
        kinds = {e.kind for e in camp.journal()}
    rescued = {model.DAMAGED, model.REPAIR}  # only a rescued campaign writes these (tests/state/test_damage.py)
    assert kinds == set(journal_kinds()) - rescued, kinds ^ (set(journal_kinds()) - rescued)
    kinds |= rescued
    for kind in kinds:
        word = kind_label(kind)
        assert word != kind and word[0].isupper() and " " not in word, (kind, word)


def test_an_unknown_kind_shows_as_it_is():
    assert kind_label("eigene_art") == "eigene_art"


def test_the_help_lists_the_kinds_by_their_words():
    doc = t("magic.help_rpg")
    for word in journal_kinds().values():
        assert word in doc, word
    assert "kampfteilnehmer" not in doc


def test_the_panel_journal_shows_the_kinds_words(tmp_path):
    from rpgkernel.widgets.encounter import EncounterPanel
    with Campaign.open(tmp_path / "k.sqlite") as camp:
        statblocks.load(camp, "begegnung:\n  name: Furt\n  teilnehmer:\n    - name: Wolf\n")
        panel = EncounterPanel(camp)
        assert [(e["kind"], e["label"]) for e in panel.journal] == [("begegnung", "Begegnung"),
                                                                   ("kampfteilnehmer", "Teilnehmer")]


def test_an_unnamed_distribution_is_a_verteilung_not_a_python_type():
    d = rpgkernel.dist("3W6") + rpgkernel.dist("W4")
    assert d.label is None
    shown = [repr(d), d._repr_mimebundle_()["text/html"], DistributionChart(d).text()]
    assert all("Dist" not in text for text in shown)
    assert repr(d).startswith("Verteilung: 4 bis 22, Mittelwert 13,00")
    assert DistributionChart(d).text() == "Verteilung: Mittelwert 13,00, Standardabweichung 3,16"
