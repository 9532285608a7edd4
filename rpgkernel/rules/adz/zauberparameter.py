"""An effect's parameters and its Krafteinsatz, computed both ways (Festlegen der Zauberparameter:
"Krafteinsatz"; Wirkungsdauer).

A parameter of the GM's effect lists (``magiebereiche``) has one kind: ``je_kp`` (linear),
``basis`` with ``je_weiteren_kp``, ``standardskala`` or ``punkte`` (listed points, never
interpolated). Several parameters multiply: the KP are the listed KP times each parameter's factor.
The kinds are told in ``docs/adz.md`` ("Krafteinsatz der Effekte").
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping, Sequence

from ...messages import t
from rpgkernel.rules.kit import renamed
from .einheiten import Einheit, Einheiten, Menge, Ungueltig, zeigen

LINEAR, ZUWACHS, SKALA, PUNKTE = "je_kp", "je_weiteren_kp", "standardskala", "punkte"
_KEYS = {LINEAR: {LINEAR}, ZUWACHS: {"basis", ZUWACHS}, SKALA: {SKALA}, PUNKTE: {PUNKTE}}
#: the English names of a parameter's fields, read as aliases (the parameters' own names stay as written)
ENGLISH_PARAMETER = {"per_kp": LINEAR, "base": "basis", "per_further_kp": ZUWACHS, "standard_scale": SKALA,
                     "points": PUNKTE, "unit": "einheit"}
_PRO = re.compile(r"(?P<n>.*?)\s*KP\s+(?:pro|je)\s+(?P<per>.+)", re.I)
_PAIR = re.compile(r"([^\W\d][\w-]*)\s*=")


@dataclass(frozen=True)
class Parameter:
    """One parameter: its kind, its quantity and unit (None: a count, with its word), its amount at the
    effect's KP, the amount per (further) KP or per step, the listed points (amount, KP) of a non-linear one."""

    name: str
    art: str
    einheit: Einheit | None
    wort: tuple[str, str]
    basis: Fraction
    schritt: Fraction = Fraction(0)
    punkte: tuple[tuple[Fraction, int], ...] = ()


@dataclass(frozen=True)
class Wirkung:
    """An effect with parameters: its listed KP, its parameters, the Standardskala and the units."""

    effekt: str
    kp: int
    parameter: Mapping[str, Parameter]
    skala: tuple[int, ...]
    einheiten: Einheiten

    def zeige(self, p: Parameter, wert: Fraction, einheit: Einheit | None = None) -> str:
        """An amount of ``p`` in its unit (or ``einheit``, the one the GM named): ``30 s``, ``2 Sinne``."""
        if p.einheit is not None:
            return self.einheiten.anzeigen(wert, einheit or p.einheit)
        return f"{zeigen(wert)} {p.wort[0] if wert == 1 else p.wort[1]}".strip()


# -- reading the GM's entry -------------------------------------------------------
def wirkung_lesen(effekt: str, bereich: str, row: Mapping[str, Any], skala: Sequence[int],
                  einheiten: Einheiten) -> Wirkung:
    """The effect ``row`` of the GM's list with its ``parameter`` checked; ``Ungueltig`` names the bad entry."""
    kp = row.get("kp", 1)
    if isinstance(kp, bool) or not isinstance(kp, int) or kp < 1:
        raise Ungueltig(t("adz.param_where", effect=effekt, area=bereich, why=t("adz.param_effect_kp", kp=kp)))
    spec = row["parameter"]
    if not isinstance(spec, Mapping) or not spec:
        raise Ungueltig(t("adz.param_where", effect=effekt, area=bereich, why=t("adz.param_mapping")))
    out = {}
    for name, entry in spec.items():
        try:
            out[str(name).casefold()] = _parameter(str(name), entry, kp, einheiten)
        except Ungueltig as err:
            raise Ungueltig(t("adz.param_where", effect=effekt, area=bereich,
                              why=t("adz.param_named", name=name, why=str(err)))) from None
    return Wirkung(effekt, kp, out, tuple(skala), einheiten)


def _parameter(name: str, entry: Any, kp: int, einheiten: Einheiten) -> Parameter:
    if isinstance(entry, str):
        return _pro(name, entry, kp, einheiten)
    if not isinstance(entry, Mapping):
        raise Ungueltig(t("adz.param_text", text=str(entry)))
    entry = renamed(entry, ENGLISH_PARAMETER)
    wort = _wort(entry.pop("einheit", None))
    kinds = [k for k, keys in _KEYS.items() if keys & set(entry)]
    if len(kinds) != 1 or set(entry) != _KEYS[kinds[0]]:
        raise Ungueltig(t("adz.param_kind", found=", ".join(str(k) for k in entry) or "–"))
    art = kinds[0]
    if art == PUNKTE:
        return _punkte(name, entry[PUNKTE], kp, wort, einheiten)
    amounts = [entry[k] for k in sorted(_KEYS[art])]     # basis before je_weiteren_kp
    read = [_menge(einheiten, a, wort) for a in amounts]
    if len({m.einheit.groesse if m.einheit else None for m in read}) != 1:
        raise Ungueltig(t("adz.param_mixed", values=", ".join(str(a) for a in amounts)))
    unit, first = read[0].einheit, read[0].wert
    if art == LINEAR:
        return Parameter(name, art, unit, wort, first * kp, first)
    return Parameter(name, art, unit, wort, first, read[-1].wert)


def _pro(name: str, text: str, kp: int, einheiten: Einheiten) -> Parameter:
    """``"Ein KP pro Stunde"`` (Wirkungsdauer): linear, one KP buys the period."""
    m = _PRO.fullmatch(text.strip())
    if m is None:
        raise Ungueltig(t("adz.param_text", text=text))
    try:
        count, per = einheiten.lesen(m["n"] or "1"), einheiten.lesen(m["per"])
    except Ungueltig:
        raise Ungueltig(t("adz.param_text", text=text)) from None
    if count.einheit is not None or count.wort or per.einheit is None or per.wort or count.wert <= 0 \
            or per.wert <= 0:
        raise Ungueltig(t("adz.param_text", text=text))
    amount = per.wert / count.wert
    return Parameter(name, LINEAR, per.einheit, ("", ""), amount * kp, amount)


def _wort(word: Any) -> tuple[str, str]:
    """A count's word: ``Sinne`` or ``[Sinn, Sinne]`` -> singular and plural."""
    if word is None:
        return "", ""
    if isinstance(word, str) and word.strip():
        return word.strip(), word.strip()
    if isinstance(word, list) and len(word) == 2 and all(isinstance(w, str) and w.strip() for w in word):
        return word[0].strip(), word[1].strip()
    raise Ungueltig(t("adz.param_word", word=word))


def _menge(einheiten: Einheiten, value: Any, wort: tuple[str, str]) -> Menge:
    m = einheiten.lesen(value)
    if m.wert <= 0:
        raise Ungueltig(t("adz.amount_positive", value=value))
    if m.einheit is None and m.wort and m.wort.casefold() not in {w.casefold() for w in wort}:
        raise Ungueltig(t("adz.amount_unit", value=value, unit=m.wort))
    return m


def _punkte(name: str, points: Any, kp: int, wort: tuple[str, str], einheiten: Einheiten) -> Parameter:
    if not isinstance(points, Mapping) or len(points) < 2:
        raise Ungueltig(t("adz.param_points"))
    read = []
    for amount, cost in points.items():
        if isinstance(cost, bool) or not isinstance(cost, int) or cost < 1:
            raise Ungueltig(t("adz.param_points"))
        read.append((_menge(einheiten, amount, wort), cost))
    read.sort(key=lambda x: x[0].wert)
    if len({m.einheit.groesse if m.einheit else None for m, _ in read}) != 1:
        raise Ungueltig(t("adz.param_mixed", values=", ".join(str(a) for a in points)))
    costs = [c for _, c in read]
    if costs != sorted(set(costs)):
        raise Ungueltig(t("adz.param_points_rise"))
    if kp not in costs:
        raise Ungueltig(t("adz.param_points_kp", kp=kp))
    base = next(m.wert for m, c in read if c == kp)
    unit = next((m.einheit for m, _ in read if m.einheit is not None), None)
    return Parameter(name, PUNKTE, unit, wort, base, punkte=tuple((m.wert, c) for m, c in read))


# -- a cast: desired amounts -> KP, KP -> amounts ---------------------------------
@dataclass(frozen=True)
class Festlegung:
    """The KP of a spell and the steps saying how its parameters set them."""

    kp: int
    schritte: tuple[str, ...]
    parameter: dict[str, str]


def gefordert(w: Wirkung, text: str) -> dict[str, Menge]:
    """``"sinne=2 dauer=30s"`` -> each named parameter's amount (``Ungueltig`` for a bad name or amount)."""
    pairs = list(_PAIR.finditer(text))
    if not pairs or text[:pairs[0].start()].strip(" ,;"):
        raise Ungueltig(t("adz.param_syntax", text=text))
    out: dict[str, Menge] = {}
    for i, m in enumerate(pairs):
        key, value = m[1].casefold(), text[m.end():pairs[i + 1].start() if i + 1 < len(pairs) else None]
        value = value.strip(" ,;")
        p = w.parameter.get(key)
        if p is None:
            raise Ungueltig(t("adz.param_unknown", effect=w.effekt, name=m[1], known=", ".join(w.parameter)))
        if key in out:
            raise Ungueltig(t("adz.param_twice", name=m[1]))
        if not value:
            raise Ungueltig(t("adz.param_syntax", text=text))
        try:
            read = _menge(w.einheiten, value, p.wort)
        except Ungueltig as err:
            raise Ungueltig(t("adz.param_value", name=p.name, value=value, why=str(err))) from None
        if (read.einheit.groesse if read.einheit else None) != (p.einheit.groesse if p.einheit else None):
            want = (t("adz.param_quantity", quantity=p.einheit.groesse, units=w.einheiten.bekannt(p.einheit.groesse))
                    if p.einheit else t("adz.param_count"))
            raise Ungueltig(t("adz.param_value", name=p.name, value=value, why=want))
        out[key] = read
    return out


def _faktor(w: Wirkung, p: Parameter, menge: Menge) -> tuple[Fraction, Fraction, str]:
    """What ``p`` at the amount ``menge`` costs alone over the listed KP (lowest, highest: apart only
    between listed points) and the reason as text."""
    wert, shown, base = menge.wert, w.zeige(p, menge.wert, menge.einheit), w.zeige(p, p.basis)
    if p.art == LINEAR:
        f = wert / p.basis
        return f, f, t("adz.factor_linear", name=p.name, value=shown, base=base)
    if p.art == ZUWACHS:
        more = max((wert - p.basis) / p.schritt, Fraction(1 - w.kp))   # each KP less a step off, down to 1 KP
        f = (w.kp + more) / w.kp
        return f, f, t("adz.factor_more" if more >= 0 else "adz.factor_less", name=p.name, value=shown, base=base,
                       more=zeigen(abs(more)), step=w.zeige(p, p.schritt))
    if p.art == SKALA:
        step = next((n for n, v in enumerate(w.skala, 1) if v * p.schritt >= wert), None)
        if step is None:
            raise Ungueltig(t("adz.param_scale_end", name=p.name, value=shown, max=len(w.skala),
                              high=w.zeige(p, w.skala[-1] * p.schritt)))
        f = Fraction(w.kp + step - 1, w.kp)
        return f, f, t("adz.factor_scale", name=p.name, value=shown, step=step, more=step - 1)
    listed = p.punkte
    for amount, cost in listed:
        if amount == wert:
            f = Fraction(cost, w.kp)
            return f, f, t("adz.factor_point", name=p.name, value=shown, kp=cost)
    if not listed[0][0] < wert < listed[-1][0]:
        raise Ungueltig(t("adz.param_outside", name=p.name, value=shown, low=w.zeige(p, listed[0][0]),
                          high=w.zeige(p, listed[-1][0])))
    (a, ka), (b, kb) = next((x, y) for x, y in zip(listed, listed[1:]) if x[0] < wert < y[0])
    return (Fraction(ka, w.kp), Fraction(kb, w.kp),
            t("adz.factor_between", name=p.name, value=shown, low=w.zeige(p, a), low_kp=ka, high=w.zeige(p, b),
              high_kp=kb))


def _reicht(w: Wirkung, p: Parameter, f: Fraction, kp: int) -> tuple[bool, str]:
    """What ``p`` alone reaches when it may cost ``f`` times the listed KP (``kp`` KP in all), below its
    base as well as above, as far as its scale names an amount; False: not even the lowest one."""
    short = False, t("adz.reach_short", kp=kp, name=p.name,
                     base=w.zeige(p, p.punkte[0][0] if p.art == PUNKTE else p.basis))
    if p.art in (LINEAR, ZUWACHS):
        value = p.basis * f if p.art == LINEAR else p.basis + (w.kp * f - w.kp) * p.schritt
        if value <= 0:
            return False, t("adz.reach_none", kp=kp, name=p.name)
        return True, t("adz.reach", kp=kp, name=p.name, value=w.zeige(p, value))
    if p.art == SKALA:
        step = math.floor(w.kp * f) - w.kp + 1
        if step < 1:
            return short
        if step > len(w.skala):
            return True, t("adz.reach_scale_end", kp=kp, name=p.name, max=len(w.skala),
                           high=w.zeige(p, w.skala[-1] * p.schritt))
        return True, t("adz.reach_scale", kp=kp, name=p.name, value=w.zeige(p, w.skala[step - 1] * p.schritt),
                       step=step)
    cost = w.kp * f
    listed = p.punkte
    for amount, c in listed:
        if c == cost:
            return True, t("adz.reach", kp=kp, name=p.name, value=w.zeige(p, amount))
    if cost < listed[0][1]:
        return short
    if cost > listed[-1][1]:
        return True, t("adz.reach_beyond", kp=kp, name=p.name, high=w.zeige(p, listed[-1][0]),
                       high_kp=listed[-1][1])
    (a, ka), (b, kb) = next((x, y) for x, y in zip(listed, listed[1:]) if x[1] < cost < y[1])
    return True, t("adz.reach_between", kp=kp, name=p.name, low=w.zeige(p, a), low_kp=ka, high=w.zeige(p, b),
                   high_kp=kb)


def festlegen(w: Wirkung, kp: int | None, text: str | None) -> Festlegung:
    """The spell's KP and the steps: from ``kp`` what each parameter reaches (the others at their
    base, or at the amounts ``text`` names), from the amounts in ``text`` the KP they cost (rounded
    up to whole KP); between listed points the GM chooses the KP (``kp``), the engine shows the
    neighbours. ``Ungueltig``: a bad amount, too few KP, or no choice where one is needed."""
    named = gefordert(w, text) if text and text.strip() else {}
    if not named:
        assert kp is not None
        return Festlegung(kp, tuple(_alone(w, p, kp) for p in w.parameter.values()), {})
    low, high, calc = _kosten(w, named)
    shown = {w.parameter[k].name: w.zeige(w.parameter[k], m.wert, m.einheit) for k, m in named.items()}
    wanted = ", ".join(f"{k} {v}" for k, v in shown.items())
    free = [p for k, p in w.parameter.items() if k not in named]
    need_low, need_high = math.ceil(low), math.ceil(high)
    if low != high:
        if kp is None:
            raise Ungueltig(t("adz.param_choose", calc=calc, low=need_low, high=need_high))
        if free:
            raise Ungueltig(t("adz.param_place_first", wanted=wanted))
        if kp < need_low:
            raise Ungueltig(t("adz.param_short", kp=kp, wanted=wanted, need=need_low))
        return Festlegung(kp, (t("adz.cost_between", calc=calc, low=zeigen(low), high=zeigen(high)),
                               t("adz.cost_choice", kp=kp, low=need_low, high=need_high)), shown)
    result = t("adz.cost_whole", kp=need_low) if low == need_low else t("adz.cost_rounded", exact=zeigen(low),
                                                                         kp=need_low)
    cost = t("adz.cost_step", calc=calc, result=result)
    if kp is None:
        if free:
            cost += " " + t("adz.cost_base", others=_bases(w, free))
        return Festlegung(need_low, (cost,), shown)
    return _mit_kp(w, kp, low, free, cost, wanted, shown)


def _kosten(w: Wirkung, named: Mapping[str, Menge]) -> tuple[Fraction, Fraction, str]:
    """What the named amounts cost: the lowest and the highest exact KP, and the calculation as text."""
    low, high, parts = Fraction(w.kp), Fraction(w.kp), []
    for key, menge in named.items():
        lo, hi, why = _faktor(w, w.parameter[key], menge)
        low, high = low * lo, high * hi
        factor = t("adz.factor", low=zeigen(lo), high=zeigen(hi)) if lo != hi else t("adz.factor_one",
                                                                                       factor=zeigen(lo))
        parts.append(f"{factor} {why}")
    return low, high, t("adz.cost_calc", kp0=w.kp, factors=" ".join(parts))


def _mit_kp(w: Wirkung, kp: int, low: Fraction, free: list[Parameter], cost: str, wanted: str,
            shown: dict[str, str]) -> Festlegung:
    """Given KP against a cost of ``low``: enough for the named amounts, and with parameters left free
    what those reach (fewer KP: they scale down)."""
    need_low = math.ceil(low)
    if not free:
        if kp < need_low:
            raise Ungueltig(t("adz.param_short", kp=kp, wanted=wanted, need=need_low))
        return Festlegung(kp, (cost, t("adz.cost_given", kp=kp, need=need_low)), shown)
    reached = [_reicht(w, p, Fraction(kp) / low, kp) for p in free]
    if not any(ok for ok, _ in reached):
        raise Ungueltig(t("adz.param_short", kp=kp, wanted=wanted, need=need_low))
    return Festlegung(kp, (cost, *(t("adz.reach_step_with", reach=text, wanted=wanted) for _, text in reached)),
                      shown)


def _alone(w: Wirkung, p: Parameter, kp: int) -> str:
    """What ``p`` reaches with ``kp`` KP, the other parameters at their base."""
    _, reach = _reicht(w, p, Fraction(kp, w.kp), kp)
    rest = [q for q in w.parameter.values() if q is not p]
    return t("adz.reach_step_base", reach=reach, others=_bases(w, rest)) if rest else t("adz.reach_step", reach=reach)


def _bases(w: Wirkung, params: Sequence[Parameter]) -> str:
    return "; ".join(f"{p.name} {w.zeige(p, p.basis)}" for p in params)
