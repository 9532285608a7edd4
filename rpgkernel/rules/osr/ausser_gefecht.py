"""Who is out of the fight (seed 001, "Kampf"): killed, asleep ("Schlafender Gegner"), fleeing ("Aus dem
Kampf fliehen"), and, where the text is silent, at the hit points the GM's settings name: dead at
``todesschwelle`` TP or fewer (default 0), unconscious at ``bewusstlos_schwelle`` or fewer (default: none).

A held figure ("Ringen und Überwältigen") cannot fight but may try to break free on its turn, so it
stays in the fight.
"""

from __future__ import annotations

from ...messages import t
from ..figure import Figure
from .settings import Einstellungen

#: the conditions that take a figure out of the fight, with their catalogue keys (osr.out_<key>)
ZUSTAENDE = {"tot": "tot", "schläft": "schlaeft", "flieht": "flieht"}


def out_of_fight(figure: Figure, settings: Einstellungen) -> str | None:
    """Why ``figure`` can no longer act, or None: killed, its TP at the death threshold or below, at the
    threshold of unconsciousness or below, asleep, fleeing."""
    if figure.has("tot"):
        return t("osr.out_tot")
    tp = figure.resource("TP")
    if tp is not None:
        for key, schwelle in (("todesschwelle", settings.todesschwelle),
                              ("bewusstlos_schwelle", settings.bewusstlos_schwelle)):
            if schwelle is not None and tp.value <= schwelle:
                return t(f"osr.out_{key}", tp=tp.value, schwelle=schwelle)
    found = next((key for c, key in ZUSTAENDE.items() if figure.has(c)), None)
    return None if found is None else t(f"osr.out_{found}")
