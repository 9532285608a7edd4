"""How the GM's views mark a combatant behind its name (state.marks): hidden, and out of the fight with its
ruleset's reason; read from the state as it stands, so a reveal, a healing or an undo takes the mark away."""

from rpgkernel.state import Campaign
from rpgkernel.state.marks import marked, marks


def keller(camp, rats):
    """Alrik (HP 5) and ``rats`` rats (HP 2) in the cellar."""
    enc = camp.new_encounter("Keller")
    enc.add("Alrik", resources={"HP": 5})
    enc.add("Ratte", resources={"HP": 2}, count=rats)
    return enc


def test_hidden_and_out_of_the_fight_are_marked_in_joining_order(tmp_path):
    with Campaign.open(tmp_path / "k.sqlite") as camp:
        enc = keller(camp, 3)
        enc.hide("Ratte 3")
        enc.hide("Ratte 1")
        camp.change("Ratte 1", "HP", -2)
        camp.change("Alrik", "HP", -9)
        assert marks(camp.folded, "Keller") == {
            "Alrik": ["(außer Gefecht: kampfunfähig (HP 0))"],
            "Ratte 1": ["(verborgen)", "(außer Gefecht: kampfunfähig (HP 0))"],
            "Ratte 3": ["(verborgen)"]}
        assert marked(camp.folded, "Keller", ["Ratte 3", "Ratte 2", "Ratte 1"]) == [
            "Ratte 3 (verborgen)", "Ratte 2", "Ratte 1 (verborgen) (außer Gefecht: kampfunfähig (HP 0))"]
        camp.undo()                                               # Alrik's blow taken back
        enc.reveal("Ratte 1")
        assert marks(camp.folded, "Keller") == {"Ratte 1": ["(außer Gefecht: kampfunfähig (HP 0))"],
                                                 "Ratte 3": ["(verborgen)"]}


def test_the_journals_initiative_line_marks_as_it_was(tmp_path):
    with Campaign.open(tmp_path / "k.sqlite") as camp:
        enc = keller(camp, 2)
        enc.hide("Ratte 2")
        camp.change("Ratte 1", "HP", -2)
        enc.start(order=["Ratte 2", "Alrik", "Ratte 1"])
        said = "Initiative: Ratte 2 (verborgen), Alrik, Ratte 1 (außer Gefecht: kampfunfähig (HP 0))"
        assert camp.journal(kind="initiative")[-1].data["text"] == said
        enc.reveal("Ratte 2")
        camp.change("Ratte 1", "HP", 2)
        enc.next_round(new_initiative=True, rolls={"Alrik": 3, "Ratte 1": 2, "Ratte 2": 1})
        assert [e.data["text"] for e in camp.journal(kind="initiative")] == [
            said, "Initiative: Alrik, Ratte 1, Ratte 2"]
