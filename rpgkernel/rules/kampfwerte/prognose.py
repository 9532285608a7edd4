"""Each combatant's attack in a forecast, from the GM's data ``prognose`` (``rules.forecast_data``):
``manöver`` (one or a list of the catalogue's manoeuvres), ``schaden`` (a dice expression) and
``abwehr`` (the chance the target defends). ``angriff``, ``gewaehlt``, ``schaden_von`` and
``abwehr_von`` are what the tactics and the compact model read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from ...messages import Text, t
from rpgkernel.rules.kit import AttackData, Dice, EntryField, Figure, Odds, dice, odds
from .manoever import MAX_STUFE, beherrscht, eintrag, finte_bonus, kosten
from .settings import Einstellungen, KampfwerteError

MANOEVER, SCHADEN, ABWEHR = "manöver", "schaden", "abwehr"


def _wahl(value: Any) -> tuple[tuple[str, int | None], ...] | None:
    """``"Gezielte Attacke 2"``, ``"Finte"`` or a list of them: (name, level or None) each."""
    listed = [value] if isinstance(value, str) else value
    if not isinstance(listed, list) or not listed or not all(isinstance(x, str) and x.strip() for x in listed):
        return None
    found = []
    for text in listed:
        head, _, level = text.strip().rpartition(" ")
        if level.isdigit() and not 1 <= int(level) <= MAX_STUFE:
            return None
        found.append((head.strip(), int(level)) if level.isdigit() and head.strip() else (text.strip(), None))
    return tuple(found)


DATEN = AttackData({
    MANOEVER: EntryField(_wahl, Text("kampfwerte.forecast_expect_manoeuvre"), "Gezielte Attacke 2"),
    SCHADEN: EntryField(dice, Text("prognose.expect_dice"), "W6+2"),
    ABWEHR: EntryField(odds, Text("prognose.expect_chance"), "W10>=8"),
}, example={"alle": {MANOEVER: ["Schadenserhöhung 1", "Wuchtschlag 1"], SCHADEN: "W6+2", ABWEHR: "W10>=8"},
            "figuren": {"Ork": {SCHADEN: "W6+1", ABWEHR: 0.2}}}, why=Text("kampfwerte.forecast_why"),
    aliases={"manoeuvre": MANOEVER, "maneuver": MANOEVER, "manoever": MANOEVER, "damage": SCHADEN,
             "defence": ABWEHR, "defense": ABWEHR})


@dataclass(frozen=True)
class Angriff:
    """A combatant's attack in a forecast, checked: its manoeuvres with their levels in order, the
    damage and the chance that the target defends (None where no manoeuvre of the list needs it)."""

    wahl: tuple[tuple[str, int], ...]
    schaden: Dice | None
    abwehr: Odds | None


def _kein_angriff(m: Mapping[str, Any]) -> str | None:
    """Why the forecast cannot play a manoeuvre as an attack (a message key), None where it can."""
    if m.get("ziele") == "keine":
        return "kampfwerte.forecast_no_target"
    if m.get("antwort_auf"):
        return "kampfwerte.forecast_reaction"
    return "kampfwerte.forecast_needs_fields" if m.get("angrenzend") or m.get("stossen") else None


def _schaden(m: Mapping[str, Any]) -> bool:
    """Whether a manoeuvre deals damage of its own (``schaden=``; not Finte, Entwaffnen)."""
    return m.get("schaden") is not False


def _abwehr(m: Mapping[str, Any]) -> bool:
    """Whether a defence counts against a manoeuvre (``abgewehrt``; not Schattensprung)."""
    return not m.get("keine_verteidigung")


def schaden_von(m: Mapping[str, Any], a: Angriff) -> Dice | None:
    """The damage the tactics give manoeuvre ``m`` (``schaden=``), None where it deals none."""
    return a.schaden if _schaden(m) else None


def abwehr_von(m: Mapping[str, Any], a: Angriff) -> Odds | None:
    """The chance the tactics roll that the target defends ``m`` (``abgewehrt``), None where no
    defence counts against it."""
    return a.abwehr if _abwehr(m) else None


def angriff(figure: Figure, daten: Einstellungen, data: Mapping[str, Any]) -> Angriff:
    """``figure``'s attack from the GM's data ``prognose``, or a German error saying what to add."""
    entry = DATEN.entry(figure, data)
    wahl = []
    needs: set[str] = set()
    for name, level in DATEN.needed(figure, entry, MANOEVER):
        m = eintrag(name, daten)
        refused = _kein_angriff(m)
        if refused is not None:
            raise KampfwerteError(t(refused, figure=figure.name, name=name))
        has = beherrscht(figure, name)
        stufe = level or has
        if not 1 <= stufe <= has:
            raise KampfwerteError(t("kampfwerte.not_mastered", figure=figure.name, name=name, stufe=stufe or 1,
                                    has=has))
        needs |= {SCHADEN} if _schaden(m) else set()
        needs |= {ABWEHR} if _abwehr(m) else set()
        wahl.append((name, stufe))
    found = {key: DATEN.needed(figure, entry, key) for key in (SCHADEN, ABWEHR) if key in needs}
    return Angriff(tuple(wahl), found.get(SCHADEN), found.get(ABWEHR))


def gewaehlt(figure: Figure, a: Angriff, daten: Einstellungen) -> tuple[str, int] | None:
    """The manoeuvre ``figure`` uses now: the first of its list whose AD it still has (one target),
    a Finte only while none of its own is pending (its next attack takes that); None: none."""
    return next(((n, s) for n, s in a.wahl if kosten(n, s, 1, daten=daten) <= figure.current("AD")
                 and not (eintrag(n, daten).get("finte") and finte_bonus(figure))), None)
