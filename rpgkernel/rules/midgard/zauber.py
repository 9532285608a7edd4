"""Spells and summonings (seed 000: "Auswahl von Zaubersprüchen", "Beschwörungen").

Learning points of spells from the GM's table ``zauber`` (by category, class and level), a
bard's songs at level x FP / 100; which summonings a class learns at standard cost; a
sacrifice's WM and the ritual's time. Told in ``docs/midgard.md`` (``zauber``,
``beschwörungslehre``, ``beschwörung``).
"""

from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

from ...dice import Roller
from ...messages import t
from rpgkernel.rules.kit import Figure, Resolution, clauses, counted, listing
from .core import MidgardError
from .settings import EINSTELLUNGEN, Einstellungen
from .proben import ew
from .sheet import feld

RULE_ZAUBER = "Auswahl von Zaubersprüchen"
RULE_BESCHWOERUNG = "Beschwörungen"
BARDE, ORDENSKRIEGER = "Barde", "Ordenskrieger"
ERSCHAFFUNG_STUFE3 = 1          # höchstens 1 Zauberspruch der 3. Spruchstufe
ORDENSKRIEGER_HOECHSTENS = 2    # Ordenskrieger maximal 2 Zaubersprüche
DAEMONEN = ("dunkle Dämonen", "finstere Dämonen")
FORMEN = ("Beschwörung", "Bannzauber", "Schutzkreis")
ELEMENTARBESCHWOERER, DAEMONENBESCHWOERER = "Elementarbeschwörer", "Dämonenbeschwörer"
OPFER_WM = {1: 0, 2: 1, 3: 2, 4: 3}   # einfaches bis vierfaches Opfer
MINUTEN_JE_GRAD = 10
WIRKUNGSDAUER_STUNDEN = 4


def lernpunkte(klasse: str, spruch: str, cfg: Einstellungen) -> tuple[int, str, int]:
    """(learning points, category or "Lied", level) of one spell for ``klasse``."""
    table = cfg.tabellen.teil("zauber")
    spell = table["sprueche"].get(spruch)
    if spell is None:
        raise MidgardError(t("midgard.unknown_spell", spell=spruch, known=", ".join(table["sprueche"]) or "–"))
    level = spell["stufe"]
    if klasse == BARDE:
        if "fp" not in spell:
            raise MidgardError(t("midgard.song_needs_fp", spell=spruch))
        return math.ceil(level * spell["fp"] / 100), "Lied", level
    cat = table["kategorien"].get(klasse, {}).get(spruch)
    if cat is None:
        raise MidgardError(t("midgard.not_on_list", spell=spruch, klasse=klasse))
    cost = table["kosten"].get(cat, {}).get(level)
    if cost is None:
        raise MidgardError(t("midgard.no_spell_cost", category=cat, level=level))
    return cost, cat, level


def zauber_lernen(figure: Figure, sprueche: Sequence[str], *, erschaffung: bool = False,
                  klasse: str | None = None, cfg: Einstellungen | None = None) -> Resolution:
    """The learning points of ``sprueche`` for the figure's class, with the limits at creation."""
    cfg = cfg or EINSTELLUNGEN.defaults()
    klasse = klasse or feld(figure, "klasse")
    res = Resolution("midgard", "zauber", (figure.name,))
    total, level3 = 0, 0
    for spruch in sprueche:
        cost, cat, level = lernpunkte(klasse, spruch, cfg)
        total += cost
        level3 += level == 3
        key = "midgard.song_cost" if cat == "Lied" else "midgard.spell_cost"
        fp = cfg.tabellen.teil("zauber")["sprueche"][spruch].get("fp")
        res.step(t(key, spell=spruch, category=cat, level=level, cost=cost, fp=fp), RULE_ZAUBER, value=cost)
    if erschaffung and level3 > ERSCHAFFUNG_STUFE3:
        raise MidgardError(t("midgard.too_many_level3", n=level3))
    if erschaffung and klasse == ORDENSKRIEGER and len(sprueche) > ORDENSKRIEGER_HOECHSTENS:
        raise MidgardError(t("midgard.templar_limit", n=len(sprueche), limit=ORDENSKRIEGER_HOECHSTENS))
    res.step(t("midgard.spells_total", total=total), RULE_ZAUBER, value=total)
    res.outcome = {"lernpunkte": total, "sprüche": list(sprueche)}
    res.summary = clauses([counted("midgard.satz.sprueche", total, figure=figure.name, spells=listing(sprueche))
                           if sprueche else t("midgard.satz.keine_sprueche", figure=figure.name)])
    return res


def _stern(cfg: Einstellungen) -> dict[str, Any]:
    return cfg.tabellen.teil("elementarstern")


def nachbarn(element: str, cfg: Einstellungen) -> list[str]:
    """The element and its two neighbours in the element star."""
    ring = _stern(cfg)["ring"]
    if element not in ring:
        raise MidgardError(t("midgard.unknown_element", element=element, known=", ".join(ring)))
    i = ring.index(element)
    return [element, ring[i - 1], ring[(i + 1) % len(ring)]]


def beschwoerung_kategorie(klasse: str, ziel: str, form: str, *, wahl: str | None = None,
                           cfg: Einstellungen | None = None) -> str | None:
    """How ``klasse`` learns ``form`` (Beschwörung, Bannzauber, Schutzkreis) of ``ziel`` (an element or
    a kind of demon): "Standard", "Ausnahme", "Klasse" (as the class learns it by the basic rules) or
    None (not at all). ``wahl``: the summoner's primary element, or another Zauberer's one element or
    kind of demon at standard cost."""
    cfg = cfg or EINSTELLUNGEN.defaults()
    if form not in FORMEN:
        raise MidgardError(t("midgard.bad_form", value=form, known=", ".join(FORMEN)))
    demon = ziel in DAEMONEN
    if not demon:
        nachbarn(ziel, cfg)           # a known element
    if klasse == ELEMENTARBESCHWOERER:
        if not wahl:
            raise MidgardError(t("midgard.needs_primary"))
        own = nachbarn(wahl, cfg)
        if not demon and ziel in own:
            return "Klasse"
        return None if form == "Beschwörung" else "Ausnahme"
    if klasse == DAEMONENBESCHWOERER:
        if demon:
            return "Klasse"
        return None if form == "Beschwörung" else "Ausnahme"
    if not wahl:
        raise MidgardError(t("midgard.needs_choice"))
    return "Standard" if ziel == wahl else "Ausnahme"


def beschwoerungslehre(figure: Figure, ziel: str, form: str = "Beschwörung", *, wahl: str | None = None,
                       klasse: str | None = None, cfg: Einstellungen | None = None) -> Resolution:
    """How the figure's class learns a summoning, banishment or circle (``beschwoerung_kategorie``)."""
    klasse = klasse or feld(figure, "klasse")
    cat = beschwoerung_kategorie(klasse, ziel, form, wahl=wahl, cfg=cfg)
    res = Resolution("midgard", "beschwörungslehre", (figure.name,))
    res.step(t("midgard.summon_category", klasse=klasse, form=form, ziel=ziel,
               category=t(f"midgard.category_{(cat or 'keine').lower()}")), RULE_BESCHWOERUNG)
    res.outcome = {"kategorie": cat}
    res.summary = clauses([t("midgard.satz.lehre", figure=figure.name, form=form, ziel=ziel,
                               category=t(f"midgard.category_{cat.lower()}")) if cat else
                           t("midgard.satz.lehre_keine", figure=figure.name, form=form, ziel=ziel)])
    return res


def beschwoerung(figure: Figure, roller: Roller | None, *, grad: int, opfer: int = 1,
                 fesselung: int | None = None, decisions: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
                 ohne_gnade: bool = False, cfg: Einstellungen | None = None) -> Resolution:
    """A summoning: duration, effect time and the sacrifice's WM; with ``fesselung`` (the EW's value)
    the binding EW with that WM."""
    cfg = cfg or EINSTELLUNGEN.defaults()
    if opfer not in OPFER_WM:
        raise MidgardError(t("midgard.bad_sacrifice", value=opfer))
    if grad < 1:
        raise MidgardError(t("midgard.bad_grade", value=grad))
    wm = OPFER_WM[opfer]
    res = Resolution("midgard", "beschwörung", (figure.name,))
    res.step(t("midgard.summon_time", grad=grad, minutes=grad * MINUTEN_JE_GRAD, hours=WIRKUNGSDAUER_STUNDEN),
             RULE_BESCHWOERUNG, value=grad * MINUTEN_JE_GRAD)
    res.step(t("midgard.summon_sacrifice", opfer=opfer, wm=wm), RULE_BESCHWOERUNG, value=wm)
    res.outcome = {"dauer_minuten": grad * MINUTEN_JE_GRAD, "wirkungsdauer_stunden": WIRKUNGSDAUER_STUNDEN,
                   "wm_fesselung": wm}
    summoned = t("midgard.satz.beschwoerung", figure=figure.name, grad=grad, minuten=grad * MINUTEN_JE_GRAD,
                     stunden=WIRKUNGSDAUER_STUNDEN)
    res.summary = clauses([summoned])
    if fesselung is None:
        return res
    binding = ew(figure, roller, fertigkeit=t("midgard.binding"), wert=fesselung, wm=wm, decisions=decisions,
                 ohne_gnade=ohne_gnade, cfg=cfg)
    res.preview = binding.preview
    res.steps += binding.steps
    res.choices += binding.choices
    res.advice += binding.advice
    res.effects += binding.effects
    if binding.outcome:
        res.outcome["fesselung"] = binding.outcome["erfolg"]
    res.summary = clauses([summoned, binding.summary.removesuffix(".")])
    return res
