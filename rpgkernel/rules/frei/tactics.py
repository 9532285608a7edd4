"""How a forecast plays a fight without a ruleset (the kit's ``Tactics``; the rules stay the verbs').

The GM's data ``prognose`` (``rules.forecast_data``) names each combatant's ``schaden`` (a dice
expression) and ``treffer`` (the chance it hits); a hit is the line ``schaden ZIEL
menge=<schaden>``. Every combatant needs the resource that counts. ``compact`` plays the same
tactics exactly or fast.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...messages import Text
from rpgkernel.rules.kit import Action, AttackData, EntryField, Fight, Figure, Tactics, dice, odds
from .compact import FreiCompact, covers
from .schaden import ressource
from .sheet import ressource_von

SCHADEN, TREFFER = "schaden", "treffer"

DATEN = AttackData({
    SCHADEN: EntryField(dice, Text("prognose.expect_dice"), "W6+1"),
    TREFFER: EntryField(odds, Text("prognose.expect_chance"), "W20>=11"),
}, example={"alle": {SCHADEN: "W6", TREFFER: "W20>=11"}, "seiten": {"Räuber": {TREFFER: 0.4}},
            "figuren": {"Alrik": {SCHADEN: "W8+1"}}}, why=Text("frei.forecast_why"),
    aliases={"damage": SCHADEN, "hit": TREFFER})


def angriff(figure: Figure, data: Mapping[str, Any]) -> dict[str, Any]:
    """``figure``'s damage and hit chance from the GM's data ``prognose``, or a German error saying
    what to add."""
    entry = DATEN.entry(figure, data)
    return {key: DATEN.needed(figure, entry, key) for key in (SCHADEN, TREFFER)}


class FreiTactics(Tactics):
    def check(self, fight: Fight) -> None:
        for figure in fight.combatants.values():
            ressource(figure, fight.data)
            angriff(figure, fight.data)

    def action(self, actor: Figure, target: Figure, fight: Fight) -> Action | None:
        a = angriff(actor, fight.data)
        if not a[TREFFER].rolled(fight.roller):
            return None
        return Action("schaden", (target.name,), (), {"menge": a[SCHADEN].expression})

    def rank(self, figure: Figure, fight: Fight) -> float:
        """The weakest by the resource that counts (which the GM's data name), else the kit's rank."""
        if fight.zielwahl != "schwächste":
            return super().rank(figure, fight)
        return float(figure.current(ressource_von(figure, fight.data) or ""))

    def threat(self, figure: Figure, fight: Fight) -> float:
        """The mean damage of its attack: the mean of ``schaden`` times the chance of ``treffer``."""
        a = angriff(figure, fight.data)
        return a[SCHADEN].mean * a[TREFFER].p

    def compact(self, figures: Sequence[Figure], data: Mapping[str, Any]) -> FreiCompact | None:
        """Figures of the free mode with the resource that counts (``compact.covers``), each attack
        from the GM's data."""
        if not covers(figures, data):
            return None
        attacks = [(a[TREFFER].p, a[SCHADEN].expression) for a in (angriff(f, data) for f in figures)]
        return FreiCompact(figures, data, attacks)
