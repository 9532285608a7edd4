"""Quantities of spell parameters in German units: ``30 s``, ``0,5 min``, ``zwei Sinne``, ``5 m``.

The units and number words are the GM's data (section ``einheiten`` and ``zahlwoerter`` of
``data/krafteinsatz.yaml``); each unit belongs to a quantity (Zeit, Länge, …) and has a factor to
the quantity's first unit, so amounts compare and scale exactly (``Fraction``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping

from ...messages import t
from ...numerals import decimal

class Ungueltig(ValueError):
    """An amount, a unit or an effect's parameter that cannot be read; the message is the German reason."""


_NUMBER = re.compile(r"[+-]?(?:\d{1,3}(?:\.\d{3})+(?!\d)|\d+(?:[.,]\d+)?)")


@dataclass(frozen=True)
class Einheit:
    """A unit: its name, its quantity, its factor to the quantity's first unit, singular and plural."""

    name: str
    groesse: str
    faktor: Fraction
    zeige: tuple[str, str]
    umrechnen: bool = True

    def wort(self, wert: Fraction) -> str:
        return self.zeige[0] if wert == 1 else self.zeige[1]


@dataclass(frozen=True)
class Menge:
    """An amount as read: its value in the quantity's first unit (a count: the number), its unit
    (None: a count), and the words after the number that name no unit (a count's word)."""

    wert: Fraction
    einheit: Einheit | None
    wort: str = ""


def zahl(text: str) -> Fraction | None:
    """A German number: ``2``, ``0,5``, ``1.200``; None if ``text`` is none."""
    if not _NUMBER.fullmatch(text):
        return None
    if re.fullmatch(r"[+-]?\d{1,3}(?:\.\d{3})+", text):
        return Fraction(text.replace(".", ""))
    return Fraction(text.replace(",", "."))


def zeigen(wert: Fraction) -> str:
    """A value as a German reads it, at most two decimals: ``Fraction(1, 2)`` -> ``"0,5"``."""
    return decimal(round(float(wert), 2))


def _einheit_gueltig(spec: Any) -> bool:
    """One unit's entry: a factor above 0, spellings, optionally how it shows (two words) and whether
    amounts convert to it."""
    return bool(isinstance(spec, Mapping) and set(spec) <= {"faktor", "schreibweisen", "zeige", "umrechnen"}
                and isinstance(spec.get("umrechnen", True), bool)
                and isinstance(spec.get("faktor"), (int, float)) and spec["faktor"] > 0
                and isinstance(spec.get("schreibweisen"), list) and spec["schreibweisen"]
                and all(isinstance(s, str) and s.strip() for s in spec["schreibweisen"])
                and (spec.get("zeige") is None or (isinstance(spec["zeige"], list) and len(spec["zeige"]) == 2
                                                   and all(isinstance(s, str) for s in spec["zeige"]))))


class Einheiten:
    """The units of the GM's data: spelling -> unit, the number words; ``Einheiten.pruefen`` says
    what is wrong with the data, ``lesen`` reads an amount."""

    def __init__(self, table: Mapping[str, Any], words: Mapping[str, Any]) -> None:
        self.groessen: dict[str, list[Einheit]] = {}
        self.schreibweisen: dict[str, Einheit] = {}
        for groesse, units in table.items():
            for name, spec in units.items():
                unit = Einheit(str(name), str(groesse), Fraction(str(spec["faktor"])),
                               tuple(spec.get("zeige") or (name, name)), bool(spec.get("umrechnen", True)))
                self.groessen.setdefault(str(groesse), []).append(unit)
                for spelling in spec["schreibweisen"]:
                    self.schreibweisen[str(spelling).casefold()] = unit
        self.zahlwoerter = {str(k).casefold(): Fraction(str(v)) for k, v in words.items()}

    @staticmethod
    def pruefen(table: Any, words: Any) -> str | None:
        """What is wrong with the units and number words (a German reason), or None."""
        if not isinstance(table, Mapping) or not table:
            return t("adz.units_bad")
        for groesse, units in table.items():
            if not isinstance(units, Mapping) or not units:
                return t("adz.units_quantity", quantity=groesse)
            for name, spec in units.items():
                if not _einheit_gueltig(spec):
                    return t("adz.units_unit", quantity=groesse, unit=name)
        if not isinstance(words, Mapping) or not all(isinstance(v, (int, float)) and v > 0 for v in words.values()):
            return t("adz.units_words")
        return None

    def lesen(self, text: Any) -> Menge:
        """``"30 Sekunden"``, ``"0,5 min"``, ``"2 Sinne"``, ``"Ein KP"``-style number words, a bare
        number (``2``): the amount; a missing number before a unit is 1 (``"Stunde"``)."""
        if isinstance(text, bool) or not isinstance(text, (int, float, str)):
            raise Ungueltig(t("adz.amount_bad", value=str(text)))
        if not isinstance(text, str):
            return Menge(Fraction(str(text)), None)
        rest, value, seen = text.strip(), Fraction(1), False
        while rest:
            m = _NUMBER.match(rest)
            word = rest.split(maxsplit=1)[0]
            if m is not None and (m.end() == len(rest) or not rest[m.end()].isdigit()):
                value, rest, seen = value * zahl(m.group()), rest[m.end():].strip(), True
            elif word.casefold() in self.zahlwoerter:
                value, rest, seen = value * self.zahlwoerter[word.casefold()], rest[len(word):].strip(), True
            else:
                break
        if not seen and not rest:
            raise Ungueltig(t("adz.amount_bad", value=text))
        unit = self.schreibweisen.get(rest.casefold())
        if unit is not None:
            return Menge(value * unit.faktor, unit)
        if not seen:
            raise Ungueltig(t("adz.amount_bad", value=text))
        return Menge(value, None, rest)

    def bekannt(self, groesse: str) -> str:
        """The units of a quantity, for a message: ``s, Runde, min, h, Tag, Woche``."""
        return ", ".join(u.name for u in self.groessen.get(groesse, ()))

    def anzeigen(self, wert: Fraction, einheit: Einheit) -> str:
        """A value of ``einheit``'s quantity in that unit, or the next smaller one where it would
        show less than 1 (``Fraction(30)`` seconds like ``min`` -> ``"30 s"``)."""
        shown = einheit
        if wert < einheit.faktor:
            smaller = [u for u in self.groessen.get(einheit.groesse, ()) if u.faktor < einheit.faktor and u.umrechnen]
            fitting = [u for u in smaller if wert >= u.faktor]
            if fitting or smaller:
                shown = max(fitting, key=lambda u: u.faktor) if fitting else min(smaller, key=lambda u: u.faktor)
        amount = wert / shown.faktor
        return f"{zeigen(amount)} {shown.wort(amount)}"
