"""Movement on the hex map (Bewegungspunkte, Bewegungskosten): positions as figure state,
the reachable fields of a figure, a move with the test its movement type requires, and the BP
refilled each round.

A position is the condition ``"Feld q,r"``, a paid but unused part of a BP the condition
``"BP-Rest 1/2"``, both journalled and undone like every change.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Iterable, Sequence

from ...dice import Roller
from ...messages import t
from rpgkernel.rules.kit import Effect, Figure, Resolution, sentence
from .map import Hex, HexKarte
from .probe import p_gelingt, wuerfeln
from .settings import EINSTELLUNGEN, Bewegungsart, Einstellungen, KampfwerteError

FELD = "Feld "
REST = "BP-Rest "


def feld_name(h: Hex) -> str:
    return f"{FELD}{h[0]},{h[1]}"


def position(figure: Figure) -> Hex | None:
    """The figure's field, from its ``Feld q,r`` condition."""
    for name in figure.conditions:
        if name.startswith(FELD):
            q, _, r = name[len(FELD):].partition(",")
            return int(q), int(r)
    return None


def rest(figure: Figure) -> Fraction:
    """The part of a BP the figure paid this round and did not use yet (its ``BP-Rest`` condition)."""
    for name in figure.conditions:
        if name.startswith(REST):
            return Fraction(name[len(REST):])
    return Fraction(0)


def _rest_setzen(res: Resolution, figure: Figure, neu: Fraction) -> None:
    """Effects that replace the figure's ``BP-Rest`` by ``neu`` (none left: 0)."""
    alt = rest(figure)
    if alt == neu:
        return
    if alt:
        res.effects.append(Effect(figure.name, condition=f"{REST}{_bp(alt)}", on=False))
    if neu:
        res.effects.append(Effect(figure.name, condition=f"{REST}{_bp(neu)}"))


def art(name: str, *, daten: Einstellungen | None = None) -> Bewegungsart:
    """The movement type ``name`` of the GM's rule data."""
    arten = (daten or EINSTELLUNGEN.defaults()).bewegungsarten
    if name not in arten:
        raise KampfwerteError(t("kampfwerte.unknown_movement", name=str(name)[:40], known=", ".join(arten)))
    return arten[name]


def verfuegbar(figure: Figure, a: Bewegungsart, daten: Einstellungen) -> Fraction:
    """The BP a figure has left for this movement; riding adds Reittier-Stufe × ½ BP, so its range on
    plain ground is 2 × BP + Reittier-Stufe fields (Bewegungskosten: Reiten); where the fractions of
    the round's moves add up (``bp_bruchteile: summe``), the part of a BP paid and not used counts."""
    bp = Fraction(figure.current("BP")) + (rest(figure) if daten.bp_bruchteile == "summe" else 0)
    if a.name == "Reiten" and daten.reiten_reichweite == "zusatz_bp":
        bp += Fraction(figure.value("reittier_stufe"), 2)
    return bp


def probe_wuerfel(figure: Figure, a: Bewegungsart) -> int:
    """The test's pool: the talent + its modifier (Bewegungskosten: Würfelprobe)."""
    return max(0, figure.value(a.probe) + (figure.value(a.modifikator) if a.modifikator else 0))


def erreichbar(figure: Figure, karte: HexKarte, art_name: str = "Gehen", besetzt: Iterable[Hex] = (), *,
               daten: Einstellungen | None = None) -> dict[Hex, Fraction]:
    """The fields the figure can reach this round with its BP left, with their exact costs."""
    daten = daten or EINSTELLUNGEN.defaults()
    start = position(figure)
    if start is None:
        raise KampfwerteError(t("kampfwerte.no_position", figure=figure.name))
    a = art(art_name, daten=daten)
    return karte.erreichbar(start, a, verfuegbar(figure, a, daten), besetzt, daten=daten)


def platzieren(figure: Figure, karte: HexKarte, ziel: Hex) -> Resolution:
    """Put a figure on a field without cost (placement before the fight)."""
    karte.pruefe(ziel)
    name = figure.name
    res = Resolution("kampfwerte", "platzieren", (name,))
    old = position(figure)
    if old is not None:
        res.effects.append(Effect(name, condition=feld_name(old), on=False))
    res.effects.append(Effect(name, condition=feld_name(ziel), text=t("kampfwerte.placed", q=ziel[0], r=ziel[1])))
    res.step(t("kampfwerte.step_placed", figure=name, q=ziel[0], r=ziel[1]), "Bewegungskosten")
    res.outcome = {"feld": list(ziel)}
    res.summary = t("kampfwerte.satz.platziert", wer=name, q=ziel[0], r=ziel[1])
    return res


def bewegen(figure: Figure, karte: HexKarte, ziel: Hex, art_name: str, roller: Roller,
            besetzt: Iterable[Hex] = (), schwierigkeit: int | None = None, *,
            daten: Einstellungen | None = None) -> Resolution:
    """Move along the cheapest path (Bewegungskosten): the cost never exceeds the BP left; every type
    but Gehen needs its test (Würfelprobe) first, and a failed test leaves the figure where it stands
    without spending BP. A fraction of a BP is paid in full and its rest pays the next move
    (``BP-Rest``), unless ``bp_bruchteile: aufrunden``.
    """
    daten = daten or EINSTELLUNGEN.defaults()
    name = figure.name
    a = art(art_name, daten=daten)
    start = position(figure)
    if start is None:
        raise KampfwerteError(t("kampfwerte.no_position", figure=name))
    bp = verfuegbar(figure, a, daten)
    weg = karte.weg(start, ziel, a, bp, besetzt, daten=daten)
    if weg is None:
        raise KampfwerteError(t("kampfwerte.unreachable", figure=name, q=ziel[0], r=ziel[1], art=a.name,
                                bp=_bp(bp)))
    res = Resolution("kampfwerte", "bewegen", (name,))
    kosten = bp if weg.hindernis else weg.kosten
    res.step(t("kampfwerte.step_path", art=a.name, fields=len(weg.felder) - 1, cost=_bp(weg.kosten),
               bp=_bp(bp)), "Bewegungskosten")
    if weg.hindernis:
        res.step(t("kampfwerte.step_obstacle"), "Bewegungskosten")
    gelungen = True
    if a.probe:
        n = probe_wuerfel(figure, a)
        w = wuerfeln(n, roller, schwierigkeit, daten=daten)
        gelungen = w.gelungen
        res.preview = p_gelingt(n, w.schwierigkeit, daten=daten)
        res.step(t("kampfwerte.step_test", talent=a.probe, n=n, sw=w.schwierigkeit, erfolge=w.erfolge,
                   result=t("kampfwerte.ok" if gelungen else "kampfwerte.failed")),
                 "Bewegungskosten: Würfelprobe", *(() if w.roll is None else (w.roll,)), value=w.erfolge)
    summe = daten.bp_bruchteile == "summe"
    paid = rest(figure) if summe else Fraction(0)
    due = max(Fraction(0), kosten - paid)
    spent = math.ceil(due) if gelungen else 0
    if gelungen:
        res.effects += [Effect(name, condition=feld_name(start), on=False),
                        Effect(name, condition=feld_name(ziel), text=t("kampfwerte.placed", q=ziel[0], r=ziel[1]))]
        if spent:
            res.effects.append(Effect(name, resource="BP", by=-spent))
        left = spent - due if summe and not weg.hindernis else Fraction(0)
        if paid or left:
            res.step(t("kampfwerte.step_rest", paid=_bp(paid), cost=_bp(kosten), spent=spent, left=_bp(left)),
                     "Bewegungskosten")
        _rest_setzen(res, figure, left)
    res.outcome = {"gelungen": gelungen, "von": list(start), "nach": list(ziel) if gelungen else list(start),
                   "kosten": _bp(kosten), "bp_abgezogen": spent, "weg": [list(h) for h in weg.felder]}
    res.summary = (t("kampfwerte.satz.bewegt", wer=name, art=a.name, q=ziel[0], r=ziel[1], bp=spent) if gelungen
                   else t("kampfwerte.satz.bewegung_misslungen", wer=name, art=a.name, q=start[0], r=start[1]))
    return res


def neue_runde(figures: Sequence[Figure]) -> Resolution:
    """BP refilled per round (Bewegungspunkte: "pro Runde")."""
    res = Resolution("kampfwerte", "neue Runde", tuple(f.name for f in figures))
    for f in figures:
        _rest_setzen(res, f, Fraction(0))
        bp = f.resources["BP"]
        if bp.max > bp.value:
            res.effects.append(Effect(f.name, resource="BP", by=bp.max - bp.value))
        res.step(t("kampfwerte.step_bp", figure=f.name, bp=bp.max), "Bewegungspunkte")
    res.summary = sentence("kampfwerte.satz.bp", res.actors)
    return res


def _bp(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"
