"""Who is out of the fight, and what players are told (seed 001, "Kampf"): killed, asleep ("Schlafender Gegner"), fleeing ("Aus dem
Kampf fliehen"), and, where the text is silent, at the hit points the GM's settings name: dead at
``todesschwelle`` TP or fewer (default 0), unconscious at ``bewusstlos_schwelle`` or fewer (default: none).

A held figure ("Ringen und Überwältigen") cannot fight but may try to break free on its turn, so it
stays in the fight.
"""

from __future__ import annotations

from ...messages import t
from rpgkernel.rules.kit import Figure, hurt
from .settings import Einstellungen

#: the conditions that take a figure out of the fight, with their catalogue keys (osr.out_<key>)
ZUSTAENDE = {"tot": "tot", "schläft": "schlaeft", "flieht": "flieht"}


def out_of_fight(figure: Figure, settings: Einstellungen) -> str | None:
    """Why ``figure`` can no longer act, or None: killed, its TP at the death threshold or below, at the
    threshold of unconsciousness or below, asleep, fleeing."""
    found = _grund(figure, settings)
    if found is None or found[0] not in SCHWELLEN:
        return None if found is None else t(f"osr.out_{found[0]}")
    return t(f"osr.out_{found[0]}", tp=figure.current("TP"), schwelle=found[1])


def player_state(figure: Figure, settings: Einstellungen) -> str:
    """What players are told of ``figure``: tot, bewusstlos, schläft, flieht aus dem Kampf (as
    ``out_of_fight``, without the TP), else verletzt (TP lost) or unversehrt (the seed has no words
    for these, ``player_words``)."""
    found = _grund(figure, settings)
    return hurt(figure, "TP") if found is None else t(f"osr.state_{found[0]}")


SCHWELLEN = ("todesschwelle", "bewusstlos_schwelle")


def _grund(figure: Figure, settings: Einstellungen) -> tuple[str, int | None] | None:
    """The key of why ``figure`` is out of the fight (``ZUSTAENDE`` or ``SCHWELLEN``) with the threshold."""
    if figure.has("tot"):
        return "tot", None
    tp = figure.resource("TP")
    if tp is not None:
        for key, schwelle in zip(SCHWELLEN, (settings.todesschwelle, settings.bewusstlos_schwelle)):
            if schwelle is not None and tp.value <= schwelle:
                return key, schwelle
    found = next((key for c, key in ZUSTAENDE.items() if figure.has(c)), None)
    return None if found is None else (found, None)
