"""Carrying capacity and load (seed 000, "Tragkraft und Belastung").

TK = floor(St / 10) kg. Everything carried except the basic clothing
(shirt, trousers, shoes) and the armour (counted separately) is weighed
against it: up to TK unburdened, up to 3 x TK merklich, up to 10 x TK
schwer, above that übermäßig (a Kraftakt).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ...messages import t
from rpgkernel.rules.kit import Effect, Figure, Resolution, clauses
from .core import MidgardError
from .sheet import attribut

RULE = "Tragkraft und Belastung"
STUFEN = ((1, "unbelastet"), (3, "merklich belastet"), (10, "schwer belastet"))
UEBERMAESSIG = "übermäßig belastet"
ZUSTAENDE = tuple(s for _, s in STUFEN[1:]) + (UEBERMAESSIG,)


def tragkraft(st: int) -> int:
    """TK in kg: the strength divided by 10, rounded down."""
    return max(0, st) // 10


def belastung_von(gewicht: Fraction, st: int) -> str:
    tk = tragkraft(st)
    return next((label for factor, label in STUFEN if gewicht <= factor * tk), UEBERMAESSIG)


def gewicht_lesen(text: Any) -> Fraction:
    """A weight in kg: 12, 12.5 or 12,5."""
    try:
        value = Fraction(str(text).strip().replace(",", "."))
    except (ValueError, ZeroDivisionError):
        raise MidgardError(t("midgard.bad_weight", value=text)) from None
    if value < 0:
        raise MidgardError(t("midgard.bad_weight", value=text))
    return value


def belastung(figure: Figure, gewicht: Any) -> Resolution:
    """The load of ``gewicht`` kg for the figure; the condition for it (merklich/schwer/übermäßig belastet)."""
    who = figure.name
    kg = gewicht_lesen(gewicht)
    st = attribut(figure, "st")
    label = belastung_von(kg, st)
    res = Resolution("midgard", "belastung", (who,))
    res.step(t("midgard.load", figure=who, st=st, tk=tragkraft(st), kg=float(kg),
               label=label), RULE)
    if label == UEBERMAESSIG:
        res.step(t("midgard.load_feat"), RULE)
    res.effects += [Effect(who, condition=c, on=False) for c in ZUSTAENDE if figure.has(c) and c != label]
    if label in ZUSTAENDE and not figure.has(label):
        res.effects.append(Effect(who, condition=label))
    res.outcome = {"tk": tragkraft(st), "belastung": label}
    key = "midgard.satz.kraftakt" if label == UEBERMAESSIG else "midgard.satz.belastung"
    res.summary = clauses([t(key, figure=who, label=label, tk=tragkraft(st))])
    return res
