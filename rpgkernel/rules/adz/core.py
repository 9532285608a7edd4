"""Tests, opposed tests and the luck pool (seed 004).

Seed sections: "Probenart und Würfelanzahl", "Umstandsmodifikatoren",
"Mindestwurf", "Erfolge", "Unterstützende Eigenschaften", "Vergleichende
Proben", "Glückspool", "Runden" (reactions halve the dice), "Wirkungsdauer"
(concentration).

Order of the dice, for given dice: each test's pool (initiator first in an
opposed test); then the luck dice of each ``glück`` decision, in the order
taken.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Mapping, Sequence, TypeVar

from ...dice import Dist, Roll, Roller
from ...messages import t
from ...numerals import percent
from rpgkernel.rules.kit import (DECLINE, Advice, Choice, Effect, Figure, Option, Resolution, Take, clauses, counted,
                                 sentence)
from .damage import verletzungsmalus
from .exact import ERFOLG_AB, erfolge_dist, gelingt, p_gelingt, vergleich_chancen
from . import sheet as bogen
from .settings import EINSTELLUNGEN, AdzError, Daten
from .sheet import GLUECK

REAKTION = "Reaktionen: "       # condition: reactions so far this round
KONZENTRATION = "Konzentration: "  # condition: a maintained spell
TESTS = ("probe", "zauber")       # rolls that succeed or fail against a Mindestwurf


@dataclass
class Pool:
    """The dice of a test, part by part (for the step text)."""

    teile: list[tuple[str, int]] = field(default_factory=list)

    def add(self, label: str, n: int) -> Pool:
        if n:
            self.teile.append((label, n))
        return self

    @property
    def summe(self) -> int:
        return sum(n for _, n in self.teile)

    @property
    def wuerfel(self) -> int:
        return max(0, self.summe)

    def text(self) -> str:
        parts = []
        for i, (label, n) in enumerate(self.teile):
            sign = ("− " if n < 0 else "+ ") if i else ("−" if n < 0 else "")
            parts.append(f"{sign}{label} {abs(n)}")
        return " ".join(parts) or "0"


def mindestwurf(mw: int | None, schwierigkeit: str | None, art: str, daten: Daten, default: int | None = None) -> int:
    """The Mindestwurf: given, from the guideline (``art`` "fertigkeit" or "attribut"), or ``default``."""
    if mw is not None:
        if mw < 1:
            raise AdzError(t("adz.bad_mw", mw=mw))
        return mw
    if schwierigkeit is not None:
        table = daten.mindestwurf
        key = schwierigkeit.strip().casefold().replace(" ", "_")
        row = next((v for k, v in table.items() if k.casefold() == key), None)
        if row is None:
            raise AdzError(t("adz.unknown_difficulty", name=schwierigkeit, known=", ".join(table)))
        value = row.get(art)
        if value is None:
            raise AdzError(t("adz.difficulty_not_for", name=schwierigkeit, art=t(f"adz.art_{art}")))
        return value
    if default is None:
        raise AdzError(t("adz.needs_mw"))
    return default


def konzentration(figur: Figure) -> int:
    """Maintained spells: one die less on every action per spell (Wirkungsdauer)."""
    return sum(1 for c in figur.conditions if c.startswith(KONZENTRATION))


def handlungsmali(figur: Figure, pool: Pool, daten: Daten) -> None:
    """Injury malus (the higher of both tracks) and concentration on an action or reaction."""
    malus = verletzungsmalus(figur, daten)
    if malus is None:
        raise AdzError(t("adz.unconscious", figure=figur.name))
    pool.add(t("adz.part_injury"), -malus)
    pool.add(t("adz.part_concentration"), -konzentration(figur))


def reaktionen(figur: Figure) -> int:
    """Reactions this round so far (the condition ``Reaktionen: n``, ending with the round)."""
    return max((int(c[len(REAKTION):]) for c in figur.conditions
                if c.startswith(REAKTION) and c[len(REAKTION):].isdigit()), default=0)


def halbiert(figur: Figure, wuerfel: int) -> int:
    """A reaction's dice: halved once per earlier reaction this round, rounded up, at least one (Runden)."""
    before = reaktionen(figur)
    return max(1, -(-wuerfel // 2 ** before)) if wuerfel > 0 else 0


def reaktion(res: Resolution, figur: Figure) -> None:
    """Record a reaction: the condition ``Reaktionen: n`` until the round ends (Runden)."""
    before = reaktionen(figur)
    if before:
        res.effects.append(Effect(figur.name, condition=f"{REAKTION}{before}", on=False))
    res.effects.append(Effect(figur.name, condition=f"{REAKTION}{before + 1}", rounds=1, ends="rundenende"))


def reaktionswuerfel(res: Resolution, figur: Figure, pool: Pool) -> int:
    """A reaction's dice (``halbiert``), with a step when they are halved."""
    wuerfel = halbiert(figur, pool.wuerfel)
    if wuerfel != pool.wuerfel:
        res.step(t("adz.reaction_halved", figure=figur.name, n=reaktionen(figur) + 1, before=pool.wuerfel,
                   after=wuerfel), "Runden")
    return wuerfel


@dataclass
class Wurf:
    """One rolled test: whose, how many dice, successes, Mindestwurf, luck dice added."""

    key: str
    figur: str
    wuerfel: int
    erfolge: int
    mw: int
    zulassen: bool = False
    rolls: list[Roll] = field(default_factory=list)
    glueck: int = 0

    @property
    def gelungen(self) -> bool:
        return gelingt(self.erfolge, self.wuerfel, self.mw, self.zulassen)

    @property
    def ueberzaehlig(self) -> int:
        """Successes beyond the Mindestwurf of a successful test."""
        return max(0, self.erfolge - self.mw) if self.gelungen else 0


def wuerfeln(res: Resolution, key: str, figur: Figure, wuerfel: int, mw: int, roller: Roller, rule: str,
             label: str, zulassen: bool = False, gm_test: bool = True) -> Wurf | None:
    """Roll ``wuerfel`` W6 for a test (Erfolge); None when the test is impossible and not allowed."""
    if gm_test and mw > wuerfel and not zulassen:
        res.step(t("adz.impossible", figure=figur.name, label=label, mw=mw, dice=wuerfel), "Erfolge")
        return None
    if wuerfel <= 0:
        res.step(t("adz.no_dice", figure=figur.name, label=label), rule, value=0)
        return Wurf(key, figur.name, 0, 0, mw, zulassen)
    roll = roller.roll(f"{wuerfel}W6>={ERFOLG_AB}")
    w = Wurf(key, figur.name, wuerfel, roll.total, mw, zulassen, [roll])
    res.step(t("adz.rolled", figure=figur.name, label=label, dice=wuerfel, successes=roll.total,
               faces=", ".join(str(d.value) for d in roll.dice)), rule, roll, value=roll.total)
    return w


def ergebnis(res: Resolution, w: Wurf, label: str) -> None:
    """The step saying whether the test succeeded (Erfolge)."""
    if w.mw > w.wuerfel and w.zulassen:
        res.step(t("adz.allowed_all", label=label, successes=w.erfolge, dice=w.wuerfel,
                   result=t("adz.success" if w.gelungen else "adz.failure")), "Erfolge")
    else:
        res.step(t("adz.result", label=label, successes=w.erfolge, mw=w.mw,
                   result=t("adz.success" if w.gelungen else "adz.failure")), "Erfolge", value=w.erfolge)


def probe_satz(w: Wurf, label: str) -> str:
    """The clause of a rolled test: "Alrik besteht die Fertigkeitsprobe mit 3 Erfolgen"."""
    return t("adz.satz.besteht" if w.gelungen else "adz.satz.scheitert", figure=w.figur, label=label,
             erfolge=counted("adz.satz.erfolge", w.erfolge))


# -- the luck pool -------------------------------------------------------------------
def p_nach_glueck(w: Wurf, glueck: int) -> float:
    """P(a test succeeds once ``glueck`` luck dice are added; 0: as it stands), exactly (Glückspool)."""
    return sum(p for k, p in erfolge_dist(glueck).pmf().items()
               if gelingt(w.erfolge + k, w.wuerfel + glueck, w.mw, w.zulassen))


#: what spending ``n`` luck dice on a roll (None and 0: none) leads to: the damage (None where there is
#: none) and named chances; a procedure whose rolls lead further than their own success gives its own
Folgen = Callable[[Wurf | None, int], tuple[Dist | None, list[tuple[str, float]]]]
K = TypeVar("K")


def gelingen(offen: Sequence[Wurf]) -> Folgen:
    """The consequences of luck on tests: each offered roll's chance to succeed (Erfolge), exactly."""
    def folgen(wurf: Wurf | None, n: int) -> tuple[Dist | None, list[tuple[str, float]]]:
        return None, [(t("adz.advice.gelingt", wurf=w.key), p_nach_glueck(w, n if w is wurf else 0))
                      for w in offen]
    return folgen


def mit_glueck(kette: K, rolls: Sequence[str], wurf: Wurf | None, n: int) -> list[tuple[float, K]]:
    """``kette`` (an object holding a procedure's rolls in the attributes ``rolls``) once ``n`` luck dice
    are added to ``wurf`` (None: none), for each number of their successes, with its chance (Glückspool):
    shallow copies, as ``glueck_einsetzen`` would leave the roll."""
    out = []
    for k, p in erfolge_dist(n if wurf is not None else 0).pmf().items():
        lucky = copy.copy(kette)
        for name in rolls:
            if wurf is not None and getattr(kette, name) is wurf:
                setattr(lucky, name, replace(wurf, erfolge=wurf.erfolge + k, wuerfel=wurf.wuerfel + n,
                                             glueck=wurf.glueck + n))
        out.append((p, lucky))
    return out


def zusammen(faelle: Iterable[tuple[float, K]],
             ausgang: Callable[[K], tuple[int | None, Sequence[tuple[str, bool]]]]
             ) -> tuple[Dist | None, list[tuple[str, float]]]:
    """The consequences over ``faelle`` (chance, how the rolls ended): ``ausgang`` gives each one's damage
    (None: none) and named outcomes; the damage's distribution and each outcome's chance, exactly."""
    dealt: dict[int, float] = {}
    chances: dict[str, float] = {}
    for p, fall in faelle:
        damage, named = ausgang(fall)
        if damage is not None:
            dealt[damage] = dealt.get(damage, 0.0) + p
        for name, yes in named:
            chances[name] = chances.get(name, 0.0) + (p if yes else 0.0)
    return (Dist.from_pmf(dealt) if dealt else None), list(chances.items())


def vergleich_folgen(wuerfe: Sequence[Wurf], gleichwertig: bool) -> Folgen:
    """The consequences of luck on an opposed test (Vergleichende Proben): each side's chance to win, the
    draw's (equal actions) and that neither test succeeds, exactly over the luck dice."""
    a, b = wuerfe

    def ausgang(pair: tuple[Wurf, Wurf]) -> tuple[None, list[tuple[str, bool]]]:
        won = vergleiche(*pair, gleichwertig)
        named = [(t("adz.advice.gewinnt", figure=a.figur), won == "a"), (t("adz.advice.gewinnt", figure=b.figur),
                                                                         won == "b")]
        if gleichwertig:
            named.append((t("adz.advice.unentschieden"), won == "unentschieden"))
        return None, [*named, (t("adz.advice.keiner"), won == "keiner")]

    def folgen(wurf: Wurf | None, n: int) -> tuple[Dist | None, list[tuple[str, float]]]:
        pair = _Paar(a, b)
        return zusammen(((p, (x.a, x.b)) for p, x in mit_glueck(pair, ("a", "b"), wurf, n)), ausgang)
    return folgen


@dataclass
class _Paar:
    """Both rolls of an opposed test (for ``mit_glueck``)."""

    a: Wurf
    b: Wurf


def glueck_angebot(res: Resolution, offen: Sequence[Wurf], figures: Mapping[str, Figure],
                   folgen: Folgen | None = None, ziele: Mapping[str, str] | None = None,
                   hinweis: str = "") -> None:
    """Offer the luck pool after the roll to whoever has one (Glückspool): one choice ``glück``. A failed
    test shows its chance of success with the luck dice. The advice gives each holder no luck, or luck on
    each of its offered rolls, with ``folgen`` (default, for tests alone: ``gelingen``; a procedure whose
    rolls lead further gives its own) and the objective ``ziele[name]`` (default: the tests succeed); it
    rests on every figure of the rolls; ``hinweis``: what else its consequences assume."""
    offers: dict[str, list[str]] = {}
    for w in offen:
        luck = figures[w.figur].current(GLUECK)
        if luck > 0:
            chance = "" if w.key not in TESTS or w.gelungen else t(
                "adz.choice_luck_chance", p=percent(p_nach_glueck(w, luck)))
            offers.setdefault(w.figur, []).append(w.key + chance)
    if not offers:
        return
    label = t("adz.choice_luck", who="; ".join(
        t("adz.choice_luck_one", figure=n, dice=figures[n].current(GLUECK), rolls=", ".join(keys))
        for n, keys in offers.items()))
    keys = tuple(dict.fromkeys(w.key for w in offen if w.figur in offers))
    res.choices.append(Choice("glück", label, tuple(offers), keys))
    folgen = folgen or gelingen(offen)
    reads = tuple(dict.fromkeys(w.figur for w in offen))
    note = " ".join(x for x in (t("adz.advice.hinweis"), hinweis) if x)
    for name in offers:
        luck = figures[name].current(GLUECK)
        options = [_option(t("adz.advice.kein_glueck"), Take(DECLINE, name), folgen(None, 0))]
        options += [_option(t("adz.advice.glueck", wurf=w.key, n=luck), Take("glück", name, {"wurf": w.key}),
                            folgen(w, luck), t("adz.advice.pool", figure=name, left=luck - 1))
                    for w in offen if w.figur == name]
        res.advice.append(Advice("glück", name, (ziele or {}).get(name, t("adz.advice.ziel_probe")), tuple(options),
                                 reads, note))


def _option(label: str, take: Take, folge: tuple[Dist | None, list[tuple[str, float]]], *notes: str) -> Option:
    damage, chances = folge
    return Option(label, (take,), damage, tuple(chances), notes)


def glueck_satz(res: Resolution) -> str:
    """The clause of an open luck choice: who may still spend the luck pool (else "")."""
    who = next((c.who for c in res.choices if c.key == "glück"), ())
    return sentence("adz.satz.glueck", who) if who else ""


def glueck_einsetzen(res: Resolution, decisions: Sequence[Mapping[str, Any]], wuerfe: Sequence[Wurf],
                     figures: Mapping[str, Figure], roller: Roller, after: Any = None,
                     angeboten: Sequence[Wurf] = ()) -> None:
    """Spend the luck pool (Glückspool): bonus dice equal to the pool on a roll already made, then the
    pool drops by one. ``decisions``: ``{"figures": [name], "wurf": key}`` (``wurf`` may be left out
    when the figure was offered one roll, or made one), in the order taken; ``after(w)`` re-evaluates
    what follows."""
    used: dict[str, int] = {}
    for d in decisions:
        name = d["figures"][0]
        key = d.get("wurf")
        own = [w for w in wuerfe if w.figur == name]
        offered = [w for w in angeboten if w.figur == name]
        fits = [w for w in own if w.key == str(key).casefold()] if key is not None else offered or own
        if len(fits) != 1 or name not in figures:
            message = "adz.luck_which" if key is None and len(own) > 1 else "adz.luck_not_own"
            raise AdzError(t(message, figure=name, roll=key or "–", rolls=", ".join(w.key for w in own) or "–"))
        w = fits[0]
        pool = figures[name].current(GLUECK) - used.get(name, 0)
        if pool <= 0:
            raise AdzError(t("adz.luck_empty", figure=name))
        roll = roller.roll(f"{pool}W6>={ERFOLG_AB}")
        used[name] = used.get(name, 0) + 1
        w.erfolge += roll.total
        w.wuerfel += pool
        w.glueck += pool
        w.rolls.append(roll)
        res.step(t("adz.luck_used", figure=name, dice=pool, roll=w.key, successes=roll.total, total=w.erfolge,
                   left=pool - 1, faces=", ".join(str(x.value) for x in roll.dice)), "Glückspool", roll,
                 value=roll.total)
        res.effects.append(Effect(name, GLUECK, -1))
        if after is not None:
            after(w)


def auffuellen(figures: Sequence[Figure], auf: int | None = None) -> Resolution:
    """The GM refills the luck pool (Glückspool): to GL, or to ``auf``."""
    res = Resolution("adz", "auffüllen", tuple(f.name for f in figures))
    werte = []
    for f in figures:
        target = bogen.attribut(f, "GL") if auf is None else auf
        if target < 0:
            raise AdzError(t("adz.bad_refill", value=target))
        by = target - f.current(GLUECK)
        if by:
            res.effects.append(Effect(f.name, GLUECK, by))
        res.step(t("adz.refilled", figure=f.name, value=target), "Glückspool", value=target)
        werte.append(t("adz.satz.wert", figure=f.name, wert=target))
    res.summary = clauses([t("adz.satz.auffuellen", werte=", ".join(werte))])
    return res


# -- tests ------------------------------------------------------------------------------
def pool_for(figur: Figure, daten: Daten, *, attribut: str | None = None, fertigkeit: str | None = None,
             spezialisierung: str | None = None, unterstuetzung: Sequence[str] = (), bonus: int = 0,
             malus: int = 0) -> Pool:
    """The dice of a skill or attribute test: Attribut (+ Fertigkeit + Spezialisierung), supporting
    properties, circumstance bonus and malus (Probenart und Würfelanzahl; Umstandsmodifikatoren)."""
    pool = Pool()
    if attribut is None:
        raise AdzError(t("adz.needs_attribute"))
    pool.add(attribut.upper(), bogen.attribut(figur, attribut))
    if fertigkeit is not None:
        pool.add(*bogen.wert(figur, "fertigkeiten", fertigkeit))
    elif spezialisierung is not None:
        raise AdzError(t("adz.spec_needs_skill"))
    if spezialisierung is not None:
        pool.add(*bogen.wert(figur, "spezialisierungen", spezialisierung))
    for name in unterstuetzung:
        if fertigkeit is None:
            raise AdzError(t("adz.support_needs_skill"))
        label, dice = bogen.unterstuetzung(figur, name, daten)
        pool.add(t("adz.part_support", name=label), dice)
    pool.add(t("adz.part_bonus"), bonus)
    pool.add(t("adz.part_malus"), -malus)
    return pool


@dataclass
class Plan:
    """A test set up before the roll: its resolution (steps, preview), dice and Mindestwurf."""

    res: Resolution
    figur: Figure
    wuerfel: int
    mw: int
    label: str
    zulassen: bool = False


@dataclass(frozen=True)
class Probenansage:
    """What is declared for a test: the keyword arguments of ``probe_plan``."""

    attribut: str | None = None
    fertigkeit: str | None = None
    spezialisierung: str | None = None
    unterstuetzung: Sequence[str] = ()
    bonus: int = 0
    malus: int = 0
    mw: int | None = None
    schwierigkeit: str | None = None
    verwandt: int = 0
    zulassen: bool = False
    reaktion_: bool = False
    handlung: str | None = None
    daten: Daten | None = None


def probe_plan(figur: Figure, **ansage: Any) -> Plan:
    """The dice, Mindestwurf and preview of a skill or attribute test (see ``probe``); ``ansage``: the
    fields of ``Probenansage``."""
    a = Probenansage(**ansage)
    daten = a.daten or EINSTELLUNGEN.defaults()
    reaktion_ = a.reaktion_ or (a.handlung is not None and daten.handlung(a.handlung) == "reaktion")
    art = "fertigkeit" if a.fertigkeit is not None else "attribut"
    res = Resolution("adz", "probe", (figur.name,))
    pool = pool_for(figur, daten, attribut=a.attribut, fertigkeit=a.fertigkeit, spezialisierung=a.spezialisierung,
                    unterstuetzung=a.unterstuetzung, bonus=a.bonus, malus=a.malus)
    handlungsmali(figur, pool, daten)
    base_mw = mindestwurf(a.mw, a.schwierigkeit, art, daten)
    if a.verwandt:
        if a.verwandt < 1:
            raise AdzError(t("adz.bad_related", value=a.verwandt))
        res.step(t("adz.related", by=a.verwandt, mw=base_mw + a.verwandt), "Mindestwurf")
    total_mw = base_mw + a.verwandt
    res.step(t("adz.pool", figure=figur.name, parts=pool.text(), dice=pool.wuerfel, mw=total_mw,
               art=t(f"adz.art_{art}")), "Probenart und Würfelanzahl")
    wuerfel = pool.wuerfel
    if reaktion_:
        wuerfel = reaktionswuerfel(res, figur, pool)
        reaktion(res, figur)
    res.preview = {"p_gelingt": p_gelingt(wuerfel, total_mw, a.zulassen)}
    luck = figur.current(GLUECK)
    if luck > 0 and (total_mw <= wuerfel or a.zulassen):
        res.preview["p_gelingt_mit_glück"] = p_gelingt(wuerfel + luck, total_mw, a.zulassen)
    return Plan(res, figur, wuerfel, total_mw, t(f"adz.art_{art}"), a.zulassen)


def probe(figure: Figure, roller: Roller, *, glueck: Sequence[Mapping[str, Any]] | None = None,
          **kwargs: Any) -> Resolution:
    """A skill or attribute test (Probenart und Würfelanzahl; Mindestwurf; Erfolge; Unterstützende
    Eigenschaften).

    ``verwandt``: a related skill, raising the Mindestwurf; ``zulassen``: the GM allows a Mindestwurf
    above the dice; ``reaktion_``: the test is a reaction (Runden). ``glueck``: None on the first run
    (a failed test stays open for the luck pool), else the luck decisions ([]: none). ``daten``: the
    GM's data (default: the defaults). Keyword arguments: see ``probe_plan``.
    """
    plan = probe_plan(figure, **kwargs)
    res, figur = plan.res, plan.figur
    w = wuerfeln(res, "probe", figur, plan.wuerfel, plan.mw, roller, "Erfolge", plan.label, plan.zulassen)
    if w is None:
        res.outcome = {"gelungen": False, "unmöglich": True, "würfel": plan.wuerfel, "mindestwurf": plan.mw}
        res.summary = clauses([t("adz.satz.unmoeglich", figure=figur.name, label=plan.label)])
        return res
    ergebnis(res, w, plan.label)
    if glueck:
        glueck_einsetzen(res, glueck, [w], {figur.name: figur}, roller)
        ergebnis(res, w, plan.label)
    elif glueck is None and not w.gelungen:
        glueck_angebot(res, [w], {figur.name: figur})
    res.outcome = {"gelungen": w.gelungen, "erfolge": w.erfolge, "würfel": w.wuerfel, "mindestwurf": plan.mw}
    res.summary = clauses([probe_satz(w, plan.label), glueck_satz(res)])
    return res


def vergleiche(a: Wurf, b: Wurf, gleichwertig: bool) -> str:
    """Who wins an opposed test (Vergleichende Proben): "a" (the initiator), "b", "unentschieden", or
    "keiner" when neither test succeeds (the seed leaves that case open: nobody wins)."""
    if a.gelungen != b.gelungen:
        return "a" if a.gelungen else "b"
    if not a.gelungen:
        return "keiner"
    if a.erfolge != b.erfolge:
        return "a" if a.erfolge > b.erfolge else "b"
    return "unentschieden" if gleichwertig else "a"


@dataclass
class Seite:
    """One side of an opposed test: its test's properties and Mindestwurf (default 1)."""

    attribut: str | None = None
    fertigkeit: str | None = None
    spezialisierung: str | None = None
    bonus: int = 0
    malus: int = 0
    mw: int | None = None


def vergleich_plan(a: Figure, b: Figure, seite_a: Seite, seite_b: Seite, gleichwertig: bool = False,
                   daten: Daten | None = None) -> tuple[Plan, Plan]:
    """Both sides' dice and Mindestwurf (default 1), and the preview (Vergleichende Proben)."""
    daten = daten or EINSTELLUNGEN.defaults()
    if a.name == b.name:
        raise AdzError(t("adz.opposed_self", figure=a.name))
    res = Resolution("adz", "vergleich", (a.name,), (b.name,))
    plans = []
    for figur, seite in ((a, seite_a), (b, seite_b)):
        pool = pool_for(figur, daten, attribut=seite.attribut, fertigkeit=seite.fertigkeit,
                        spezialisierung=seite.spezialisierung, bonus=seite.bonus, malus=seite.malus)
        handlungsmali(figur, pool, daten)
        mw = mindestwurf(seite.mw, None, "fertigkeit", daten, default=1)
        res.step(t("adz.pool", figure=figur.name, parts=pool.text(), dice=pool.wuerfel, mw=mw,
                   art=t("adz.art_vergleich")), "Vergleichende Proben")
        plans.append(Plan(res, figur, pool.wuerfel, mw, t("adz.art_vergleich")))
    pa, pb = plans
    res.preview = vergleich_chancen(erfolge_dist(pa.wuerfel), pa.wuerfel, pa.mw, erfolge_dist(pb.wuerfel),
                                    pb.wuerfel, pb.mw, gleichwertig)
    return pa, pb


def vergleich(a: Figure, b: Figure, roller: Roller, seite_a: Seite, seite_b: Seite, *,
              gleichwertig: bool = False, glueck: Sequence[Mapping[str, Any]] | None = None,
              daten: Daten | None = None) -> Resolution:
    """An opposed test (Vergleichende Proben): both roll (the initiator ``a`` first), Mindestwurf 1
    unless set; the luck pool is offered to whoever did not win."""
    plans = vergleich_plan(a, b, seite_a, seite_b, gleichwertig, daten)
    res = plans[0].res
    wuerfe = [wuerfeln(res, "vergleich", p.figur, p.wuerfel, p.mw, roller, "Vergleichende Proben", p.label,
                       gm_test=False) for p in plans]
    figures = {p.figur.name: p.figur for p in plans}
    if glueck:
        glueck_einsetzen(res, glueck, wuerfe, figures, roller)
    winner = vergleiche(wuerfe[0], wuerfe[1], gleichwertig)
    names = {"a": plans[0].figur.name, "b": plans[1].figur.name}
    res.step(t(f"adz.opposed_{'win' if winner in names else winner}", figure=names.get(winner, ""),
               a=wuerfe[0].erfolge, b=wuerfe[1].erfolge), "Vergleichende Proben")
    if glueck is None:
        glueck_angebot(res, [w for k, w in zip("ab", wuerfe) if winner != k], figures,
                       vergleich_folgen(wuerfe, gleichwertig), dict.fromkeys(figures, t("adz.advice.ziel_vergleich")))
    res.outcome = {"sieger": names.get(winner), "ergebnis": "sieg" if winner in names else winner,
                   "erfolge": {names["a"]: wuerfe[0].erfolge, names["b"]: wuerfe[1].erfolge}}
    if winner in names:
        won, lost = (wuerfe[0], wuerfe[1]) if winner == "a" else (wuerfe[1], wuerfe[0])
        said = t("adz.satz.vergleich_sieg", sieger=won.figur, gegner=lost.figur, a=won.erfolge, b=lost.erfolge)
    else:
        said = t(f"adz.satz.vergleich_{winner}", a_name=names["a"], b_name=names["b"], a=wuerfe[0].erfolge,
                 b=wuerfe[1].erfolge)
    res.summary = clauses([said, glueck_satz(res)])
    return res
