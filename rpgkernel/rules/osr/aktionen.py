"""Declared actions that set a condition for the round (seed 001, "Aktionen im Kampf").

Seed sections: "In den Kampf vorrücken", "Kämpfender Rückzug", "Parieren",
"Initiative verzögern", "Verhandlung und Diplomatie", "Waffe gegen einen
Sturmangriff positionieren", "Zaubersprüche", "Ringen und Überwältigen"
(breaking free).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...dice import Roller
from ...messages import t
from ..resolution import Effect, Resolution, clauses, listing, sentence
from .core import SEGMENTE, OsrError, in_der_hand, name, wert


def vorruecken(figure: Mapping[str, Any], gegner: Sequence[Mapping[str, Any]]) -> Resolution:
    """Cautious advance: full move, no attack this round; the opponents may not attack it either."""
    res = Resolution("osr", "vorrücken", (name(figure),), tuple(name(g) for g in gegner))
    res.effects.append(Effect(name(figure), condition="rückt vor", rounds=1))
    res.effects += [Effect(name(g), condition="kein Angriff", rounds=1) for g in gegner]
    if gegner:
        res.step(t("osr.advance_many" if len(gegner) > 1 else "osr.advance", figure=name(figure),
                   foes=", ".join(name(g) for g in gegner)), "In den Kampf vorrücken")
        res.summary = t("osr.satz.vorrücken", wer=name(figure), gegner=listing(res.targets))
    else:
        res.step(t("osr.advance_alone", figure=name(figure)), "In den Kampf vorrücken")
        res.summary = t("osr.satz.vorrücken_allein", wer=name(figure))
    return res


def rueckzug(figure: Mapping[str, Any], tausch: Mapping[str, Any] | None = None, pariert: bool = False) -> Resolution:
    """Fighting withdrawal: may parry, not attack; an ally may take its place (swap)."""
    res = Resolution("osr", "rückzug", (name(figure),))
    res.effects.append(Effect(name(figure), condition="zieht sich zurück", rounds=1))
    res.step(t("osr.withdraw", figure=name(figure)), "Kämpfender Rückzug")
    if tausch is not None:
        res.step(t("osr.swap", figure=name(figure), ally=name(tausch)), "Kämpfender Rückzug")
    if pariert:
        res.effects.append(Effect(name(figure), condition="pariert", rounds=1))
        res.step(t("osr.parry", figure=name(figure), bonus=max(0, int(wert(figure, "angriffsbonus", 0)))),
                 "Parieren")
    res.summary = clauses([t("osr.satz.rückzug_pariert" if pariert else "osr.satz.rückzug", wer=name(figure)),
                           t("osr.satz.tausch", wer=name(tausch)) if tausch is not None else ""])
    return res


def parieren(figure: Mapping[str, Any]) -> Resolution:
    """Parry: no attack; the opponents' rolls drop by its attack bonus (Str or specialisation)."""
    res = Resolution("osr", "parieren", (name(figure),))
    bonus = max(0, int(wert(figure, "angriffsbonus", 0)))
    res.effects.append(Effect(name(figure), condition="pariert", rounds=1))
    res.step(t("osr.parry", figure=name(figure), bonus=bonus), "Parieren")
    if not bonus:
        res.step(t("osr.parry_useless", figure=name(figure)), "Parieren")
    res.summary = t("osr.satz.pariert" if bonus else "osr.satz.pariert_umsonst", wer=name(figure), bonus=bonus)
    return res


def abwarten(figure: Mapping[str, Any]) -> Resolution:
    """Delay: wait until the other side has acted."""
    res = Resolution("osr", "abwarten", (name(figure),))
    res.effects.append(Effect(name(figure), condition="wartet ab", rounds=1))
    res.step(t("osr.delay", figure=name(figure)), "Initiative verzögern")
    res.summary = t("osr.satz.abwarten", wer=name(figure))
    return res


def verhandeln(figures: Sequence[Mapping[str, Any]], gegner: Sequence[Mapping[str, Any]]) -> Resolution:
    """Verhandlung und Diplomatie: a few well-chosen words (lies included) to avert the fight or
    delay it. The seed names no roll and no table: the GM plays out how the foes respond."""
    names = tuple(name(f) for f in figures)
    res = Resolution("osr", "verhandeln", names, tuple(name(g) for g in gegner))
    res.effects += [Effect(n, condition="verhandelt", rounds=1) for n in names]
    res.step(t("osr.parley_many" if len(names) > 1 else "osr.parley", figures=", ".join(names),
               foes=", ".join(name(g) for g in gegner) or t("osr.parley_no_foes")), "Verhandlung und Diplomatie")
    res.summary = sentence("osr.satz.verhandeln", names, gegner=listing(res.targets) or t("osr.parley_no_foes"))
    return res


def stemmen(figure: Mapping[str, Any]) -> Resolution:
    """Set a weapon against a charge: spears, lances not from a mount, most polearms, tridents
    (quality ``Sturm``); attacks only a charging foe, for double damage."""
    w = in_der_hand(figure)
    if w is None or not w.sturm or (w.lanze and wert(figure, "beritten", False)):
        raise OsrError(t("osr.cannot_set", figure=name(figure)))
    res = Resolution("osr", "stemmen", (name(figure),))
    res.effects.append(Effect(name(figure), condition="gegen Sturm gestemmt", rounds=1))
    res.step(t("osr.set", figure=name(figure), weapon=w.name), "Waffe gegen einen Sturmangriff positionieren")
    res.summary = t("osr.satz.stemmen", wer=name(figure), waffe=w.name)
    return res


def zaubern(figure: Mapping[str, Any], spruch: str, zeit: int, segment: int) -> Resolution:
    """A spell starts in the caster's segment and takes effect after its casting time (in segments);
    damage meanwhile loses it; no Dex bonus to AC while casting; allowed within 10 ft of a foe."""
    if not 1 <= segment <= SEGMENTE or zeit < 0:
        raise OsrError(t("osr.bad_casting", segment=segment, zeit=zeit))
    end = segment + zeit
    rounds = (end - 1) // SEGMENTE + 1
    res = Resolution("osr", "zaubern", (name(figure),))
    res.effects.append(Effect(name(figure), condition="zaubert", rounds=rounds, text=spruch))
    wann = t("osr.round_this" if rounds == 1 else "osr.round_next" if rounds == 2 else "osr.round_later",
             n=rounds - 1)
    res.step(t("osr.casting", figure=name(figure), spell=spruch, start=segment,
               zeit=t("osr.segments_one" if zeit == 1 else "osr.segments_many", n=zeit),
               when=wann, segment=(end - 1) % SEGMENTE + 1), "Zaubersprüche")
    res.outcome = {"zauber": spruch, "runden": rounds}
    res.summary = t("osr.satz.zaubern", wer=name(figure), zauber=spruch, wann=wann, segment=(end - 1) % SEGMENTE + 1)
    return res


def losreissen(figure: Mapping[str, Any], chance: int, roller: Roller | None) -> Resolution:
    """Break free from a hold: W% against the chance the GM sets by relative strength."""
    if not 0 <= chance <= 100:
        raise OsrError(t("osr.bad_chance", value=chance))
    res = Resolution("osr", "losreißen", (name(figure),))
    res.preview = {t("osr.p_break_free", figure=name(figure)): chance / 100}
    if roller is None:
        return res
    roll = roller.roll("W%")
    ok = roll.total <= chance
    res.step(t("osr.break_free" if ok else "osr.still_held", figure=name(figure), roll=roll.total, chance=chance),
             "Ringen und Überwältigen", roll, value=roll.total)
    if ok:
        res.effects.append(Effect(name(figure), condition="festgehalten", on=False))
    res.outcome = {"frei": ok}
    res.summary = t("osr.satz.losgerissen" if ok else "osr.satz.festgehalten_bleibt", wer=name(figure))
    return res
