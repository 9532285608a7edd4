"""Declared actions that set a condition for the round (seed 001, "Aktionen im Kampf").

Seed sections: "In den Kampf vorrücken", "Kämpfender Rückzug", "Parieren",
"Initiative verzögern", "Verhandlung und Diplomatie", "Waffe gegen einen
Sturmangriff positionieren", "Zaubersprüche", "Ringen und Überwältigen"
(breaking free).
"""

from __future__ import annotations

from collections.abc import Sequence

from ...dice import Roller
from ...messages import t
from rpgkernel.rules.kit import Effect, Figure, Resolution, clauses, listing, sentence
from .core import SEGMENTE
from .settings import OsrError
from .sheet import in_der_hand


def vorruecken(figure: Figure, gegner: Sequence[Figure]) -> Resolution:
    """Cautious advance: full move, no attack this round; the opponents may not attack it either."""
    res = Resolution("osr", "vorrücken", (figure.name,), tuple(g.name for g in gegner))
    res.effects.append(Effect(figure.name, condition="rückt vor", rounds=1))
    res.effects += [Effect(g.name, condition="kein Angriff", rounds=1) for g in gegner]
    if gegner:
        res.step(t("osr.advance_many" if len(gegner) > 1 else "osr.advance", figure=figure.name,
                   foes=", ".join(g.name for g in gegner)), "In den Kampf vorrücken")
        res.summary = t("osr.satz.vorrücken", wer=figure.name, gegner=listing(res.targets))
    else:
        res.step(t("osr.advance_alone", figure=figure.name), "In den Kampf vorrücken")
        res.summary = t("osr.satz.vorrücken_allein", wer=figure.name)
    return res


def rueckzug(figure: Figure, tausch: Figure | None = None, pariert: bool = False) -> Resolution:
    """Fighting withdrawal: may parry, not attack; an ally may take its place (swap)."""
    res = Resolution("osr", "rückzug", (figure.name,))
    res.effects.append(Effect(figure.name, condition="zieht sich zurück", rounds=1))
    res.step(t("osr.withdraw", figure=figure.name), "Kämpfender Rückzug")
    if tausch is not None:
        res.step(t("osr.swap", figure=figure.name, ally=tausch.name), "Kämpfender Rückzug")
    if pariert:
        res.effects.append(Effect(figure.name, condition="pariert", rounds=1))
        res.step(t("osr.parry", figure=figure.name, bonus=max(0, int(figure.value("angriffsbonus", 0)))),
                 "Parieren")
    res.summary = clauses([t("osr.satz.rückzug_pariert" if pariert else "osr.satz.rückzug", wer=figure.name),
                           t("osr.satz.tausch", wer=tausch.name) if tausch is not None else ""])
    return res


def parieren(figure: Figure) -> Resolution:
    """Parry: no attack; the opponents' rolls drop by its attack bonus (Str or specialisation)."""
    res = Resolution("osr", "parieren", (figure.name,))
    bonus = max(0, int(figure.value("angriffsbonus", 0)))
    res.effects.append(Effect(figure.name, condition="pariert", rounds=1))
    res.step(t("osr.parry", figure=figure.name, bonus=bonus), "Parieren")
    if not bonus:
        res.step(t("osr.parry_useless", figure=figure.name), "Parieren")
    res.summary = t("osr.satz.pariert" if bonus else "osr.satz.pariert_umsonst", wer=figure.name, bonus=bonus)
    return res


def abwarten(figure: Figure) -> Resolution:
    """Delay: wait until the other side has acted."""
    res = Resolution("osr", "abwarten", (figure.name,))
    res.effects.append(Effect(figure.name, condition="wartet ab", rounds=1))
    res.step(t("osr.delay", figure=figure.name), "Initiative verzögern")
    res.summary = t("osr.satz.abwarten", wer=figure.name)
    return res


def verhandeln(figures: Sequence[Figure], gegner: Sequence[Figure]) -> Resolution:
    """Verhandlung und Diplomatie: a few well-chosen words (lies included) to avert the fight or
    delay it. The seed names no roll and no table: the GM plays out how the foes respond."""
    names = tuple(f.name for f in figures)
    res = Resolution("osr", "verhandeln", names, tuple(g.name for g in gegner))
    res.effects += [Effect(n, condition="verhandelt", rounds=1) for n in names]
    res.step(t("osr.parley_many" if len(names) > 1 else "osr.parley", figures=", ".join(names),
               foes=", ".join(g.name for g in gegner) or t("osr.parley_no_foes")), "Verhandlung und Diplomatie")
    res.summary = sentence("osr.satz.verhandeln", names, gegner=listing(res.targets) or t("osr.parley_no_foes"))
    return res


def stemmen(figure: Figure) -> Resolution:
    """Set a weapon against a charge: spears, lances not from a mount, most polearms, tridents
    (quality ``Sturm``); attacks only a charging foe, for double damage."""
    w = in_der_hand(figure)
    if w is None or not w.sturm or (w.lanze and figure.value("beritten", False)):
        raise OsrError(t("osr.cannot_set", figure=figure.name))
    res = Resolution("osr", "stemmen", (figure.name,))
    res.effects.append(Effect(figure.name, condition="gegen Sturm gestemmt", rounds=1))
    res.step(t("osr.set", figure=figure.name, weapon=w.name), "Waffe gegen einen Sturmangriff positionieren")
    res.summary = t("osr.satz.stemmen", wer=figure.name, waffe=w.name)
    return res


def zaubern(figure: Figure, spruch: str, zeit: int, segment: int) -> Resolution:
    """A spell starts in the caster's segment and takes effect after its casting time (in segments);
    damage meanwhile loses it; no Dex bonus to AC while casting; allowed within 10 ft of a foe."""
    if not 1 <= segment <= SEGMENTE or zeit < 0:
        raise OsrError(t("osr.bad_casting", segment=segment, zeit=zeit))
    end = segment + zeit
    rounds = (end - 1) // SEGMENTE + 1
    res = Resolution("osr", "zaubern", (figure.name,))
    res.effects.append(Effect(figure.name, condition="zaubert", rounds=rounds, text=spruch))
    wann = t("osr.round_this" if rounds == 1 else "osr.round_next" if rounds == 2 else "osr.round_later",
             n=rounds - 1)
    res.step(t("osr.casting", figure=figure.name, spell=spruch, start=segment,
               zeit=t("osr.segments_one" if zeit == 1 else "osr.segments_many", n=zeit),
               when=wann, segment=(end - 1) % SEGMENTE + 1), "Zaubersprüche")
    res.outcome = {"zauber": spruch, "runden": rounds}
    res.summary = t("osr.satz.zaubern", wer=figure.name, zauber=spruch, wann=wann, segment=(end - 1) % SEGMENTE + 1)
    return res


def losreissen_vorschau(figure: Figure, chance: int) -> dict[str, float]:
    """P(breaking free): the GM's chance, exact before the roll."""
    if not 0 <= chance <= 100:
        raise OsrError(t("osr.bad_chance", value=chance))
    return {t("osr.p_break_free", figure=figure.name): chance / 100}


def losreissen(figure: Figure, chance: int, roller: Roller | None) -> Resolution:
    """Break free from a hold: W% against the chance the GM sets by relative strength (without
    ``roller``: only the preview, ``losreissen_vorschau``)."""
    res = Resolution("osr", "losreißen", (figure.name,))
    res.preview = losreissen_vorschau(figure, chance)
    if roller is None:
        return res
    roll = roller.roll("W%")
    ok = roll.total <= chance
    res.step(t("osr.break_free" if ok else "osr.still_held", figure=figure.name, roll=roll.total, chance=chance),
             "Ringen und Überwältigen", roll, value=roll.total)
    if ok:
        res.effects.append(Effect(figure.name, condition="festgehalten", on=False))
    res.outcome = {"frei": ok}
    res.summary = t("osr.satz.losgerissen" if ok else "osr.satz.festgehalten_bleibt", wer=figure.name)
    return res
