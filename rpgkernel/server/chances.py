"""The chance of winning after each option of a player's advice, on their page once it is weighed
(``forecast.weighing``, in the server's own background thread): computed from the fight as that player
knows it (``player_view.known_fight``), never from a hidden combatant or a value the GM does not show
them, and weighed apart from anyone else's (its own scope and only the player's own options), so that
not even how soon a number arrives tells anything the page does not show."""

from __future__ import annotations

from typing import Any, Callable, Mapping

from ..forecast import weighing
from ..rules.advice import win_said
from ..state import player_view

SCOPE = "spieler"


def with_chances(state: Mapping[str, Any], figure: str, choices: list[dict[str, Any]],
                 current: Callable[[], Mapping[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The view's open choices (``player_view``'s ``wahlen``), each option of their advice with ``sieg``:
    its line "Sieg im Kampf: …" as far as it is weighed ("wird berechnet …" until then), where the
    player knows the whole fight; the weighing is started where none is known (and stops once the
    choice is no longer open in ``current()``, the campaign's state as it is now)."""
    if not any(c.get("rat") for c in choices):
        return choices
    known = player_view.known_fight(state, figure)
    if known is None:
        return choices
    out = []
    for c in choices:
        w = _weighing(known, c["id"], figure, current) if c.get("rat") else None
        if w is None:
            out.append(c)
            continue
        rat = []
        for r in c["rat"]:
            options = []
            for o in r["optionen"]:
                line = win_said(*w.known((c["key"], figure, o["label"])))
                options.append({**o, **({"sieg": line} if line else {})})
            rat.append({**r, "optionen": options})
        out.append({**c, "rat": rat})
    return out


def _weighing(known: dict[str, Any], pid: str, figure: str,
              current: Callable[[], Mapping[str, Any]] | None) -> weighing.Weighing | None:
    """The weighing of ``figure``'s own options of the open resolution ``pid`` on the ``known`` state."""
    record = known.get("pending", {}).get(pid)
    if record is None:
        return None
    own = {**known, "pending": {**known["pending"], pid: {
        **record, "advice": [a for a in record.get("advice", []) if a.get("who") == figure]}}}
    return weighing.ask(own, pid, SCOPE, current=current)
