"""Magic (seed 004): spell tests, Krafteinsatz, drain, saving throws, duration, concentration.

Seed sections: "Magiebereich und Technik", "Mindestwurf", "Krafteinsatz",
"Zauberdauer", "Rettungswurf", "Wirkungsdauer", "Triviale Zauber",
"Vergleichende Proben". The order of given dice is listed in ``docs/adz.md``
("Eingegebene Würfel").
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from ...dice import Dist, Roller
from ...messages import t
from rpgkernel.rules.kit import Effect, Figure, Resolution, clauses, counted
from . import sheet as bogen
from .core import (KONZENTRATION, Plan, Pool, Wurf, ergebnis, glueck_angebot, glueck_einsetzen, glueck_satz,
                   handlungsmali, mindestwurf, mit_glueck, vergleiche, wuerfeln, zusammen)
from .damage import folge_satz, schaden, schadensstufen, schwelle, verletzungsmalus
from .exact import erfolge_dist, entzug, p_gelingt, vergleich_chancen
from .einheiten import Ungueltig
from .settings import EINSTELLUNGEN, AdzError, Daten
from .sheet import GEISTIG, GLUECK
from .zauberparameter import Festlegung, festlegen


def krafteinsatz(kp: int | None, stufe: int | None, daten: Daten | None = None) -> int:
    """KP given directly (linear effects scale freely), or a step of the standard scale of the GM's data
    (default: the defaults) (Krafteinsatz)."""
    if kp is not None and stufe is not None:
        raise AdzError(t("adz.kp_twice"))
    if stufe is not None:
        scale = (daten or EINSTELLUNGEN.defaults()).standardskala
        if not 1 <= stufe <= len(scale):
            raise AdzError(t("adz.bad_scale_step", step=stufe, max=len(scale),
                             scale=", ".join(str(v) for v in scale)))
        return scale[stufe - 1]
    if kp is None:
        raise AdzError(t("adz.needs_kp"))
    if kp < 0:
        raise AdzError(t("adz.bad_kp", kp=kp))
    return kp


def _names(value: str | Sequence[str]) -> list[str]:
    items = value.split("+") if isinstance(value, str) else list(value)
    return [x.strip() for x in items if x.strip()]


@dataclass
class Zauberplan:
    """A spell set up before the roll."""

    test: Plan
    kp: int
    trivial: bool
    name: str
    entzug_wuerfel: int
    daten: Daten
    ziel: Figure | None = None
    rw_wuerfel: int = 0
    festlegung: Festlegung | None = None


def _festlegung(daten: Daten, effekt: str | None, kp: int | None, stufe: int | None,
                parameter: str | None) -> Festlegung | None:
    """What the KP buy of the effect's parameters, or what the named parameters cost
    (``zauberparameter.festlegen``); None for an effect without parameters and no parameter named."""
    wirkung = daten.wirkung(effekt) if effekt is not None else None
    if wirkung is None:
        if parameter:
            raise AdzError(t("adz.param_needs_effect", effect=effekt or "–"))
        return None
    given = krafteinsatz(kp, stufe, daten) if kp is not None or stufe is not None else None
    if given is None and not parameter:
        return None
    try:
        return festlegen(wirkung, given, parameter)
    except Ungueltig as err:
        raise AdzError(str(err)) from None


@dataclass(frozen=True)
class Zauberansage:
    """What is declared for a spell: the keyword arguments of ``zauberplan``."""

    bereich: str | Sequence[str] | None = None
    technik: str | Sequence[str] | None = None
    fokus: str | None = None
    effekt: str | None = None
    mw: int | None = None
    schwierigkeit: str | None = None
    kp: int | None = None
    stufe: int | None = None
    unterstuetzung: Sequence[str] = ()
    bonus: int = 0
    malus: int = 0
    zulassen: bool = False
    ziel: Figure | None = None
    rw_attribut: str | None = None
    rw_bonus: int = 0
    kampf: bool = False
    wuerfeln_: bool = False
    name: str | None = None
    zauberdauer: str | None = None
    parameter: str | None = None
    daten: Daten | None = None


def zauberplan(figure: Figure, **ansage: Any) -> Zauberplan:
    """The spell test's dice (Magiebereich + Technik + Fokus), Mindestwurf, Krafteinsatz and preview.

    ``ansage``: the fields of ``Zauberansage``. With several areas or techniques (``"Pflanze+Luft"``)
    the first is the primary property, which gives the dice. ``effekt`` names an entry of the
    GM's effect lists (area, technique, Mindestwurf, KP, casting time); for an effect with parameters
    ``kp``/``stufe`` say what the spell reaches, ``parameter`` (``"sinne=2 dauer=30s"``) what it shall
    reach, and without ``kp`` its KP (``zauberparameter``); ``daten``: the GM's data (default: the defaults).
    """
    z = Zauberansage(**ansage)
    daten = z.daten or EINSTELLUNGEN.defaults()
    res = Resolution("adz", "zauber", (figure.name,), (z.ziel.name,) if z.ziel is not None else ())
    z, fest = aus_effekt(z, daten)
    if not z.bereich or not z.technik:
        raise AdzError(t("adz.needs_area_technique"))
    areas, techs = _names(z.bereich), _names(z.technik)
    pool = zauberpool(res, figure, z, daten)
    total_mw = mindestwurf(z.mw, z.schwierigkeit, "fertigkeit", daten)
    power = krafteinsatz(z.kp, z.stufe, daten)
    spell = z.name or z.effekt or f"{areas[0]} {techs[0]}"
    res.step(t("adz.spell_pool", figure=figure.name, spell=spell, parts=pool.text(), dice=pool.wuerfel, mw=total_mw,
               kp=power), "Magiebereich und Technik; Mindestwurf; Krafteinsatz")
    for text in fest.schritte if fest is not None else ():
        res.step(text, "Krafteinsatz")
    if z.zauberdauer:
        res.step(t("adz.casting_time", time=z.zauberdauer), "Zauberdauer")
    trivial = total_mw <= 1 and power <= 1 and pool.wuerfel >= 3 and not (z.kampf or z.ziel is not None or z.wuerfeln_)
    plan = Zauberplan(Plan(res, figure, pool.wuerfel, total_mw, t("adz.art_zauber"), z.zulassen), power, trivial,
                      spell, entzugswuerfel(figure, daten), daten, festlegung=fest)
    rettungswurf(plan, z)
    res.preview = zauber_vorschau(plan)
    return plan


def aus_effekt(z: Zauberansage, daten: Daten) -> tuple[Zauberansage, Festlegung | None]:
    """A named effect of the GM's lists fills in what the line leaves open (area, technique,
    Mindestwurf, casting time, KP); what its KP buy of the effect's parameters (Krafteinsatz)."""
    row: Mapping[str, Any] = {}
    if z.effekt is not None:
        found = daten.effekt(z.effekt)
        if found is None:
            raise AdzError(t("adz.unknown_effect", name=z.effekt))
        area, row = found
        z = replace(z, bereich=z.bereich or area, technik=z.technik or row.get("technik"),
                    mw=z.mw if z.mw is not None or z.schwierigkeit is not None else row.get("mw"),
                    zauberdauer=z.zauberdauer or row.get("zauberdauer"))
    fest = _festlegung(daten, z.effekt, z.kp, z.stufe, z.parameter)
    if fest is not None:
        z = replace(z, kp=fest.kp, stufe=None)
    elif z.effekt is not None and z.kp is None and z.stufe is None:
        z = replace(z, kp=row.get("kp", 1 if daten.wirkung(z.effekt) else None))
    return z, fest


def zauberpool(res: Resolution, figure: Figure, z: Zauberansage, daten: Daten) -> Pool:
    """Magiebereich und Technik: the primary area + technique + Fokus, supporting skills, bonus, malus
    and the action penalties."""
    areas, techs = _names(z.bereich or ""), _names(z.technik or "")
    pool = Pool().add(*bogen.wert(figure, "magiebereiche", areas[0]))
    pool.add(techs[0], bogen.technik(figure, techs[0], daten))
    if z.fokus is not None:
        pool.add(*bogen.wert(figure, "foki", z.fokus))
    for support in z.unterstuetzung:
        label, dice = bogen.unterstuetzung(figure, support, daten)
        pool.add(t("adz.part_support", name=label), dice)
    pool.add(t("adz.part_bonus"), z.bonus).add(t("adz.part_malus"), -z.malus)
    handlungsmali(figure, pool, daten)
    if len(areas) > 1 or len(techs) > 1:
        res.step(t("adz.primary", areas=" + ".join(areas), techs=" + ".join(techs), area=areas[0], tech=techs[0]),
                 "Magiebereich und Technik")
    return pool


def entzugswuerfel(figure: Figure, daten: Daten) -> int:
    """The drain roll's dice: the GM's attribute (WK), less the injury penalty where the data say so."""
    rule = daten.entzug
    drain = Pool().add(rule["attribut"], bogen.attribut(figure, rule["attribut"]))
    if daten.malus_auf_entzug:
        drain.add(t("adz.part_injury"), -(verletzungsmalus(figure, daten) or 0))
    return drain.wuerfel


def rettungswurf(plan: Zauberplan, z: Zauberansage) -> None:
    """The target's saving throw (Rettungswurf): the GM's attribute + bonus − action penalties; an
    unconscious target makes none."""
    ziel, res, daten = z.ziel, plan.test.res, plan.daten
    if ziel is None:
        return
    if verletzungsmalus(ziel, daten) is None:
        res.step(t("adz.save_unconscious", figure=ziel.name), "Rettungswurf")
        return
    attr = z.rw_attribut or daten.rettungswurf["attribut"]
    rw = Pool().add(attr.upper(), bogen.attribut(ziel, attr)).add(t("adz.part_bonus"), z.rw_bonus)
    handlungsmali(ziel, rw, daten)
    plan.ziel, plan.rw_wuerfel = ziel, rw.wuerfel
    res.step(t("adz.save_pool", figure=ziel.name, parts=rw.text(), dice=rw.wuerfel), "Rettungswurf")


def zauber_vorschau(plan: Zauberplan) -> dict[str, Any]:
    """P(the spell test succeeds), P(it beats the saving throw), the mental damage's distribution;
    what the KP buy of the effect's parameters (``krafteinsatz``: the steps saying it)."""
    p, rule = plan.test, plan.daten.entzug
    power = {"krafteinsatz": list(plan.festlegung.schritte)} if plan.festlegung is not None else {}
    if plan.trivial:
        return {"p_gelingt": 1.0, **power}
    out: dict[str, Any] = {"p_gelingt": p_gelingt(p.wuerfel, p.mw, p.zulassen)}
    luck = p.figur.current(GLUECK)
    if luck > 0 and (p.mw <= p.wuerfel or p.zulassen):
        out["p_gelingt_mit_glück"] = p_gelingt(p.wuerfel + luck, p.mw, p.zulassen)
    spell = erfolge_dist(p.wuerfel)
    if plan.ziel is not None:
        out["p_wirkt"] = vergleich_chancen(spell, p.wuerfel, p.mw, erfolge_dist(plan.rw_wuerfel), plan.rw_wuerfel,
                                           1)["p_sieg"]
    out["geistiger_schaden"] = entzug(spell, p.wuerfel, p.mw, plan.entzug_wuerfel, plan.kp,
                                      int(rule["bonus_je_erfolg"]), bool(rule["bei_misslingen"])).labelled(
        t("adz.preview_drain", kp=plan.kp))
    return {**out, **power}


class _Zauber:
    """The rolls of one spell; the drain dice follow the surplus successes."""

    def __init__(self, plan: Zauberplan, roller: Roller) -> None:
        self.plan, self.roller, self.res = plan, roller, plan.test.res
        p = plan.test
        self.test = wuerfeln(self.res, "zauber", p.figur, p.wuerfel, p.mw, roller, "Mindestwurf", p.label,
                             p.zulassen)
        if self.test is not None:
            ergebnis(self.res, self.test, p.label)
        self.rw: Wurf | None = None
        self.entzug: Wurf | None = None
        self.nach_bedarf()

    def entzugswuerfel(self) -> int | None:
        """Drain dice now called for; None: no drain roll (no test, or a failure the data spares)."""
        rule = self.plan.daten.entzug
        if self.test is None or (not self.test.gelungen and not rule["bei_misslingen"]):
            return None
        return self.plan.entzug_wuerfel + self.test.ueberzaehlig * int(rule["bonus_je_erfolg"])

    def gefordert(self) -> tuple[str, int] | None:
        """The roll the spell newly calls for and its dice: the target's saving throw once the test
        succeeded, the drain roll, the drain dice more surplus successes bring; None: nothing."""
        plan = self.plan
        if plan.ziel is not None and self.rw is None and self.test is not None and self.test.gelungen:
            return "rettungswurf", plan.rw_wuerfel
        need = self.entzugswuerfel()
        if need is None:
            return None
        if self.entzug is None:
            return "entzug", need
        more = need - (self.entzug.wuerfel - self.entzug.glueck)
        return ("entzug", more) if more > 0 else None

    def gewuerfelt(self, key: str, w: Wurf) -> None:
        """Take ``w``, the roll ``gefordert`` called for (more drain dice join the drain roll)."""
        if key == "rettungswurf":
            self.rw = w
        elif self.entzug is None:
            self.entzug = w
        else:
            self.entzug.wuerfel += w.wuerfel
            self.entzug.erfolge += w.erfolge
            self.entzug.rolls += w.rolls

    def nach_bedarf(self, _changed: Wurf | None = None) -> None:
        while (need := self.gefordert()) is not None:
            key, dice = need
            if key == "rettungswurf":
                w = wuerfeln(self.res, key, self.plan.ziel, dice, 1, self.roller, "Rettungswurf", t("adz.roll_save"),
                             gm_test=False)
            else:
                w = wuerfeln(self.res, key, self.plan.test.figur, dice, 0, self.roller, "Krafteinsatz",
                             t("adz.roll_drain" if self.entzug is None else "adz.roll_drain_more"), gm_test=False)
            self.gewuerfelt(key, w)

    def weiter(self) -> list[tuple[float, _Zauber]]:
        """Every way the rolls the spell still calls for (``gefordert``) fall, with its chance, exactly."""
        need = self.gefordert()
        if need is None:
            return [(1.0, self)]
        key, dice = need
        figur = self.plan.ziel if key == "rettungswurf" else self.plan.test.figur
        out = []
        for k, p in erfolge_dist(dice).pmf().items():
            fall = copy.copy(self)
            if fall.entzug is not None:
                fall.entzug = replace(fall.entzug, rolls=list(fall.entzug.rolls))
            fall.gewuerfelt(key, Wurf(key, figur.name, dice, k, 1 if key == "rettungswurf" else 0))
            out += [(p * q, x) for q, x in fall.weiter()]
        return out

    def folgen(self, wurf: Wurf | None, n: int) -> tuple[Dist, list[tuple[str, float]]]:
        """The mental damage, the chance the spell works (or succeeds, without a target) and the caster
        falls once ``n`` luck dice are added to ``wurf`` (None: none), exactly over the luck dice and what
        the changed result newly calls for (Glückspool; ``gefordert``)."""
        f = self.plan.test.figur
        worked = t("adz.advice.wirkt" if self.plan.ziel is not None else "adz.advice.gelingt", wurf="zauber")
        faelle = [(p * q, done) for p, lucky in mit_glueck(self, ("test", "rw", "entzug"), wurf, n)
                  for q, done in lucky.weiter()]
        dealt, chances = zusammen(faelle, lambda z: (z.geistiger_schaden(), [(worked, z.wirkt())]))
        return dealt, [*chances, (t("adz.advice.faellt", figure=f.name), dealt.p_at_least(schwelle(f, GEISTIG)))]

    def wirkt(self) -> bool:
        if self.test is None or not self.test.gelungen:
            return False
        return self.rw is None or vergleiche(self.test, self.rw, False) == "a"

    def geistiger_schaden(self) -> int:
        return max(0, self.plan.kp - self.entzug.erfolge) if self.entzug is not None else 0

    def wuerfe(self) -> list[Wurf]:
        return [w for w in (self.test, self.rw, self.entzug) if w is not None]

    def offen(self) -> list[Wurf]:
        """The rolls the luck pool could improve: a test that did not work, a saving throw that lost,
        a drain roll that left mental damage."""
        out = [] if self.wirkt() else [self.test]
        if self.rw is not None and self.wirkt():
            out.append(self.rw)
        if self.geistiger_schaden() > 0:
            out.append(self.entzug)
        return out


def zaubern(figure: Figure, roller: Roller, *, glueck: Sequence[Mapping[str, Any]] | None = None,
            aufrecht: bool = False, **kwargs: Any) -> Resolution:
    """Cast a spell (Festlegen der Zauberparameter; Wirken von Zaubern): spell test, the target's saving
    throw, the drain roll; a trivial spell needs no roll.

    ``aufrecht``: the caster maintains it by concentration (one die less on every action).
    ``glueck``: None on the first run, else the luck decisions. Keyword arguments: see
    ``zauberplan``.
    """
    plan = zauberplan(figure, **kwargs)
    res, f = plan.test.res, plan.test.figur
    if plan.trivial:
        res.step(t("adz.trivial", figure=f.name), "Triviale Zauber")
        res.outcome = {"gelungen": True, "trivial": True, "erfolge": 1, "kp": plan.kp, "geistiger_schaden": 0,
                       **_gefordert(plan)}
        res.summary = clauses([t("adz.satz.trivial", figure=f.name, spell=plan.name), _halten(res, f, plan, aufrecht)])
        return res
    spell = _Zauber(plan, roller)
    if spell.test is None:
        res.outcome = {"gelungen": False, "unmöglich": True, "kp": plan.kp, **_gefordert(plan)}
        res.summary = clauses([t("adz.satz.zauber_unmoeglich", figure=f.name, spell=_gezielt(plan))])
        return res
    figures = {f.name: f, **({plan.ziel.name: plan.ziel} if plan.ziel is not None else {})}
    if glueck:
        glueck_einsetzen(res, glueck, spell.wuerfe(), figures, roller, spell.nach_bedarf, spell.offen())
        if spell.test.glueck:
            ergebnis(res, spell.test, plan.test.label)
    if spell.test.ueberzaehlig:
        res.step(t("adz.surplus", n=spell.test.ueberzaehlig), "Krafteinsatz")
    if spell.rw is not None:
        res.step(t("adz.save_result", figure=plan.ziel.name, a=spell.test.erfolge, b=spell.rw.erfolge,
                   result=t("adz.save_fails" if spell.wirkt() else "adz.save_holds")), "Rettungswurf")
    damage = spell.geistiger_schaden()
    if spell.entzug is not None:
        res.step(t("adz.drain", kp=plan.kp, successes=spell.entzug.erfolge, damage=damage), "Krafteinsatz",
                 value=damage)
        schaden(res, f, damage, GEISTIG, "Geistiger Schaden")
    else:
        res.step(t("adz.no_drain"), "Krafteinsatz")
    if glueck is None:
        ziele = {f.name: t("adz.advice.ziel_zauber", spell=plan.name)}
        if plan.ziel is not None:
            ziele[plan.ziel.name] = t("adz.advice.ziel_rettungswurf", spell=plan.name)
        glueck_angebot(res, spell.offen(), figures, spell.folgen, ziele)
    held = _halten(res, f, plan, aufrecht) if spell.wirkt() else ""
    res.outcome = {"gelungen": spell.test.gelungen, "erfolge": spell.test.erfolge,
                   "überzählig": spell.test.ueberzaehlig, "wirkt": spell.wirkt(), "kp": plan.kp,
                   "entzug": spell.entzug.erfolge if spell.entzug else None, "geistiger_schaden": damage,
                   **_gefordert(plan)}
    res.summary = clauses([_zauber_satz(spell), *(_entzug_saetze(res, f, damage) if spell.entzug else ()), held,
                           glueck_satz(res)])
    return res


def _gefordert(plan: Zauberplan) -> dict[str, Any]:
    """The named parameters in the outcome (``parameter``: name -> amount in its unit), if any."""
    fest = plan.festlegung
    return {"parameter": fest.parameter} if fest is not None and fest.parameter else {}


def _gezielt(plan: Zauberplan) -> str:
    """The spell's name, with its target if it has one ("Humanoid beherrschen auf Ork")."""
    return t("adz.satz.zauber_auf", spell=plan.name, ziel=plan.ziel.name) if plan.ziel is not None else plan.name


def _zauber_satz(spell: _Zauber) -> str:
    """The clause of a rolled spell: failed, resisted by its target, or worked."""
    plan, test = spell.plan, spell.test
    who = {"figure": plan.test.figur.name, "erfolge": counted("adz.satz.erfolge", test.erfolge)}
    if not test.gelungen:
        return t("adz.satz.zauber_misslingt", **who, spell=_gezielt(plan))
    if not spell.wirkt():
        return t("adz.satz.zauber_widerstanden", **who, spell=plan.name, ziel=plan.ziel.name)
    return t("adz.satz.zauber", **who, spell=_gezielt(plan))


def _entzug_saetze(res: Resolution, f: Figure, damage: int) -> tuple[str, ...]:
    """The clauses of a drain roll: the mental damage and what it leaves the caster."""
    if not damage:
        return (t("adz.satz.entzug_ohne", figure=f.name),)
    return t("adz.satz.entzug", figure=f.name, schaden=schadensstufen(damage, GEISTIG)), folge_satz(res, f)


def _halten(res: Resolution, f: Figure, plan: Zauberplan, aufrecht: bool) -> str:
    """Maintain the spell by concentration (if ``aufrecht``); the clause saying so."""
    if not aufrecht:
        return ""
    res.effects.append(Effect(f.name, condition=KONZENTRATION + plan.name))
    res.step(t("adz.maintained", figure=f.name, spell=plan.name), "Wirkungsdauer")
    return t("adz.satz.aufrecht", figure=f.name, spell=plan.name)


def erneuern(figure: Figure, roller: Roller, kp: int | None = None, stufe: int | None = None,
             name: str | None = None, glueck: Sequence[Mapping[str, Any]] | None = None,
             daten: Daten | None = None) -> Resolution:
    """A spell's duration ran out: supplied with new power it goes on, with a new drain roll (Wirkungsdauer);
    ``daten``: the GM's data (default: the defaults)."""
    daten = daten or EINSTELLUNGEN.defaults()
    power = krafteinsatz(kp, stufe, daten)
    res = Resolution("adz", "erneuern", (figure.name,))
    rule = daten.entzug
    pool = Pool().add(rule["attribut"], bogen.attribut(figure, rule["attribut"]))
    if daten.malus_auf_entzug:
        pool.add(t("adz.part_injury"), -(verletzungsmalus(figure, daten) or 0))
    res.step(t("adz.renew", figure=figure.name, spell=name or "–", kp=power, dice=pool.wuerfel), "Wirkungsdauer")
    res.preview = {"geistiger_schaden": entzug(None, 0, 0, pool.wuerfel, power).labelled(
        t("adz.preview_drain", kp=power))}
    w = wuerfeln(res, "entzug", figure, pool.wuerfel, 0, roller, "Krafteinsatz", t("adz.roll_drain"), gm_test=False)
    if glueck:
        glueck_einsetzen(res, glueck, [w], {figure.name: figure}, roller)
    damage = max(0, power - w.erfolge)
    res.step(t("adz.drain", kp=power, successes=w.erfolge, damage=damage), "Krafteinsatz", value=damage)
    schaden(res, figure, damage, GEISTIG, "Geistiger Schaden")
    if glueck is None and damage > 0:
        falls_at = schwelle(figure, GEISTIG)

        def folgen(wurf: Wurf | None, n: int) -> tuple[Dist, list[tuple[str, float]]]:
            """The mental damage with ``n`` luck dice on the drain roll, and the chance the caster falls."""
            dealt = (Dist.const(power - w.erfolge) - erfolge_dist(n if wurf is not None else 0)).clip(lower=0)
            return dealt, [(t("adz.advice.faellt", figure=figure.name), dealt.p_at_least(falls_at))]
        glueck_angebot(res, [w], {figure.name: figure}, folgen, {figure.name: t("adz.advice.ziel_entzug")})
    res.outcome = {"kp": power, "entzug": w.erfolge, "geistiger_schaden": damage}
    renewed = (t("adz.satz.erneuern", figure=figure.name, spell=name) if name else
               t("adz.satz.erneuern_ohne_name", figure=figure.name))
    res.summary = clauses([renewed, *_entzug_saetze(res, figure, damage), glueck_satz(res)])
    return res


def beenden(figure: Figure, name: str) -> Resolution:
    """The caster stops concentrating: the spell ends at once (Wirkungsdauer)."""
    cond = KONZENTRATION + name
    if not figure.has(cond):
        held = [c[len(KONZENTRATION):] for c in figure.conditions if c.startswith(KONZENTRATION)]
        raise AdzError(t("adz.not_maintained", figure=figure.name, spell=name, held=", ".join(held) or "–"))
    res = Resolution("adz", "beenden", (figure.name,))
    res.effects.append(Effect(figure.name, condition=cond, on=False))
    res.step(t("adz.ended", figure=figure.name, spell=name), "Wirkungsdauer")
    res.summary = clauses([t("adz.satz.beendet", figure=figure.name, spell=name)])
    return res
