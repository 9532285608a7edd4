"""Combat (seed 004): initiative, the melee chain, two weapons, ranged attacks.

Seed sections: "Initiative", "Runden", "Angriffswurf", "Verteidigungswurf",
"Schadensermittlung", "Widerstandswurf", "Auswirkungen", "Rüstungen,
Parierwaffen und Schilde", "Beidhändiger Kampf", "Fernkampf". The order of
given dice is listed in ``docs/adz.md`` ("Eingegebene Würfel").
"""

from __future__ import annotations

import copy
import itertools
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, Mapping, Sequence

from ...dice import Dist, Roller
from ...messages import t
from rpgkernel.rules.kit import (DECLINE, Advice, Choice, Figure, Option, Resolution, Take, clauses, counted,
                                 higher_initiative, listing)
from . import sheet as bogen
from .core import (Pool, Wurf, glueck_angebot, glueck_einsetzen, glueck_satz, halbiert, handlungsmali, mit_glueck,
                   reaktion, reaktionen, reaktionswuerfel, wuerfeln, zusammen)
from .damage import folge_satz, schaden, schadensstufen, schwelle, verletzungsmalus
from .exact import (angeboten, angriff_dist, endschaden, erfolge_dist, kette, p_treffer, uebrig,
                    vor_widerstand)
from .settings import EINSTELLUNGEN, AdzError, Ausruestung, Daten, Waffe
from .sheet import GEISTIG, GLUECK, KOERPERLICH

VERTEIDIGUNGSARTEN = ("ausweichen", "parade", "schildblock")
#: the open choice whether the target defends (Verteidigungswurf: a reaction to the attack roll)
VERTEIDIGEN = "verteidigen"


# -- initiative ---------------------------------------------------------------------------
def initiativebasis(figure: Figure, daten: Daten | None = None) -> int:
    """Initiativebasiswert: the sheet's value, else (attribute + skill) × factor from the GM data
    (default: the defaults)."""
    own = figure.value("initiativebasis", None)
    if own is not None:
        return int(own)
    rule = (daten or EINSTELLUNGEN.defaults()).initiative
    return (bogen.attribut(figure, rule["attribut"])
            + bogen.wert(figure, "fertigkeiten", rule["fertigkeit"], required=False)[1]) * int(rule["faktor"])


def reihenfolge(werte: Mapping[str, int], roller: Roller, res: Resolution | None = None) -> list[str]:
    """Descending initiative; participants with equal initiative roll W6 among themselves, again
    while tied (Initiative)."""
    return [n for v, names in gleichstaende(werte) for n in _ausgewuerfelt(names, v, roller, res)]


def gleichstaende(werte: Mapping[str, int]) -> list[tuple[int, list[str]]]:
    """The participants by equal initiative, the highest first."""
    groups: dict[int, list[str]] = {}
    for name, v in werte.items():
        groups.setdefault(v, []).append(name)
    return sorted(groups.items(), reverse=True)


def reihenfolge_chancen(werte: Mapping[str, int]) -> list[tuple[float, list[str]]]:
    """The chance of every order ``reihenfolge`` gives: the roll-off W6, again while tied, treats all
    tied alike, so each order of a tied group is as likely as any other."""
    orders: list[tuple[float, list[str]]] = [(1.0, [])]
    for _, names in gleichstaende(werte):
        ways = list(itertools.permutations(names))
        orders = [(p / len(ways), [*o, *w]) for p, o in orders for w in ways]
    return orders


def _ausgewuerfelt(names: list[str], value: int, roller: Roller, res: Resolution | None) -> list[str]:
    if len(names) == 1:
        return names
    rolls = {n: roller.roll("W6") for n in names}
    if res is not None:
        res.step(t("adz.initiative_tie", value=value, rolls=", ".join(f"{n} {r.total}" for n, r in rolls.items())),
                 "Initiative", *rolls.values())
    by: dict[int, list[str]] = {}
    for n, r in rolls.items():
        by.setdefault(r.total, []).append(n)
    return [m for face in sorted(by, reverse=True) for m in _ausgewuerfelt(by[face], value, roller, res)]


def umstellung_verweigert(change: str, figure: Figure, overtaken: Sequence[Figure],
                          werte: Mapping[str, int]) -> str | None:
    """Why the order may not change so, or None: the action phases follow the initiative in descending
    order (Runden), and equal values are rolled off, not set by hand (Initiative)."""
    if change not in ("vor", "jetzt"):
        return None
    higher, tied = higher_initiative(figure, overtaken, werte)
    if higher:
        return t("adz.order_descending", figure=figure.name, others=listing(higher))
    if tied:
        return t("adz.order_tie", figure=figure.name, others=listing(tied))
    return None


def initiative(figures: Sequence[Figure], roller: Roller, modifikator: int = 0,
               daten: Daten | None = None) -> Resolution:
    """Initiative = Initiativebasiswert + situational modifier + 2W6; ties rolled off (Initiative).

    The outcome's ``reihenfolge`` is the order of the action phases; after
    notable changes the GM has it rolled again.
    """
    res = Resolution("adz", "initiative", tuple(f.name for f in figures))
    werte = {}
    for f in figures:
        base = initiativebasis(f, daten)
        roll = roller.roll("2W6")
        werte[f.name] = base + modifikator + roll.total
        res.step(t("adz.initiative", figure=f.name, base=base, mod=f"{modifikator:+d}" if modifikator else "",
                   roll=roll.total, total=werte[f.name]), "Initiative", roll, value=werte[f.name])
    order = reihenfolge(werte, roller, res)
    res.step(t("adz.initiative_order", order=", ".join(order)), "Runden")
    res.outcome = {"reihenfolge": order, "initiative": werte}
    if len(order) == 1:
        res.summary = clauses([t("adz.satz.initiative_einzeln", figure=order[0], wert=werte[order[0]])])
    else:
        res.summary = clauses([t("adz.satz.initiative", order=", ".join(
            t("adz.satz.initiative_eintrag", figure=n, wert=werte[n]) for n in order))])
    return res


# -- the melee chain ----------------------------------------------------------------------
@dataclass
class Kampfplan:
    """The pools of one attack, set up before the roll, with the preview."""

    res: Resolution
    angreifer: Figure
    verteidiger: Figure
    waffe: Waffe
    mw: int
    angriff: int
    angriff2: int | None
    verteidigt: bool
    verteidigung: int
    verteidigung2: int | None
    rs: int
    widerstand: int
    leiste: str


def _beidhaendig(figur: Figure, daten: Daten) -> int:
    """The Beidhändiger Kampf value; a figure without the skill cannot fight with two weapons."""
    bk = bogen.wert(figur, "fertigkeiten", daten.beidhaendig, required=False)[1]
    if bk <= 0:
        raise AdzError(t("adz.no_two_weapons_skill", figure=figur.name, skill=daten.beidhaendig))
    return bk


def _zweitwaffe(figur: Figure, erste: Waffe, name: str | None, daten: Daten) -> Waffe:
    """Another weapon entry of the same type as the first (Beidhändiger Kampf)."""
    weapons = bogen.waffen(figur, daten)
    first = weapons.index(erste)
    for i, w in enumerate(weapons):
        if i != first and (name is None or w.name.casefold() == name.casefold()) \
                and w.fertigkeit.casefold() == erste.fertigkeit.casefold():
            return w
    raise AdzError(t("adz.two_weapons_type", figure=figur.name, weapon=erste.name))


def _fernkampf_mw(res: Resolution, waffe: Waffe, mw: int, ziel: Figure, distanz: int | None,
                  entfernung: str | None, groesse: str | None, daten: Daten) -> int:
    """Mindestwurf 1 (or a manoeuvre's) + distance class + size of the target, at least 1 (Fernkampf)."""
    classes = list(daten.distanz)
    if entfernung is not None:
        cls = next((c for c in classes if c.casefold() == entfernung.casefold().replace("_", " ")), None)
        if cls is None:
            raise AdzError(t("adz.unknown_distance", name=entfernung, known=", ".join(classes)))
    elif distanz is not None:
        limits = daten.reichweitenklassen[waffe.reichweitenklasse]
        cls = next((c for c, m in zip(classes, limits) if distanz <= m), None)
        if cls is None or distanz < 0:
            raise AdzError(t("adz.out_of_range", weapon=waffe.name, distance=distanz, max=limits[-1]))
    else:
        raise AdzError(t("adz.needs_distance"))
    size = groesse or ziel.value("groesse", None) or "mittel"
    if size not in daten.groesse:
        raise AdzError(t("adz.unknown_size", name=size, known=", ".join(daten.groesse)))
    total = max(1, mw + daten.distanz[cls] + daten.groesse[size])
    res.step(t("adz.ranged_mw", weapon=waffe.name, rk=waffe.reichweitenklasse, cls=cls,
               dist=f" ({distanz} m)" if distanz is not None and entfernung is None else "",
               cls_mod=f"{daten.distanz[cls]:+d}", size=size, size_mod=f"{daten.groesse[size]:+d}", mw=total),
             "Fernkampf")
    return total


def verteidigungspools(v: Figure, daten: Daten, verteidigung: str | None = None, v_waffe: str | None = None,
                       v_bonus: int = 0, v_malus: int = 0, v_beidhaendig: bool = False
                       ) -> tuple[Pool, Pool | None, list[Waffe], int, list[Ausruestung]]:
    """The defence roll's pool before halving (Verteidigungswurf: GE + Verteidigung, a specialisation
    ``verteidigung``, the VM of the wielded weapons, shields and parrying weapons), the extra roll's of two
    weapons (Beidhändiger Kampf; else None), the weapons wielded, the Beidhändiger Kampf value and the
    shields and parrying weapons left unused."""
    rule = daten.verteidigung
    art = (verteidigung or "").casefold()
    if art and art not in VERTEIDIGUNGSARTEN:
        raise AdzError(t("adz.unknown_defence", name=verteidigung, known=", ".join(VERTEIDIGUNGSARTEN)))
    spec_name = next((s for s in rule["spezialisierungen"] if s.casefold() == art), None)
    d_spec = bogen.wert(v, "spezialisierungen", spec_name, required=False)[1] if spec_name else 0
    d_skill = bogen.wert(v, "fertigkeiten", rule["fertigkeit"], required=False)[1]
    wielded = _gefuehrt(v, daten, verteidigung, v_waffe, v_beidhaendig)
    gear = bogen.ausruestung_von(v, daten)
    unused = _ungenutzt(gear, v_beidhaendig)
    vm = sum(x.vm for x in wielded) + sum(g.vm for g in gear if g not in unused)
    parts = [(spec_name or "", d_spec), ("VM", vm), (t("adz.part_bonus"), v_bonus), (t("adz.part_malus"), -v_malus)]
    bk = _beidhaendig(v, daten) if v_beidhaendig else 0
    first = _verteidigungspool(v, daten, d_skill, parts)
    second = _verteidigungspool(v, daten, min(d_skill, bk), parts) if v_beidhaendig else None
    return first, second, wielded, bk, unused


def _gefuehrt(v: Figure, daten: Daten, verteidigung: str | None, v_waffe: str | None,
              v_beidhaendig: bool) -> list[Waffe]:
    """The weapons the defence is made with: the named one or the first melee weapon, and with two
    weapons a second of its type, "nicht um Ausweichen oder den Einsatz eines Schildes" (Beidhändiger Kampf)."""
    art = (verteidigung or "").casefold()
    melee = [x for x in bogen.waffen(v, daten) if not x.fernkampf]
    wielded = [bogen.waffe_von(v, v_waffe, daten)] if v_waffe else melee[:1]
    if v_beidhaendig:
        if art in ("ausweichen", "schildblock"):
            raise AdzError(t("adz.two_weapons_not_for", figure=v.name, art=verteidigung))
        if not wielded:
            raise AdzError(t("adz.no_weapon", figure=v.name))
        wielded.append(_zweitwaffe(v, wielded[0], None, daten))
    return wielded


def _ungenutzt(gear: Sequence[Ausruestung], v_beidhaendig: bool) -> list[Ausruestung]:
    """A defence with two weapons counts no shield or parrying weapon: the gear whose VM is an advantage
    ("Schilde und ... Parierwaffen ... bieten einen Vorteil für die Defensive") counts in neither roll."""
    return [g for g in gear if g.vm > 0] if v_beidhaendig else []


def _verteidigungspool(v: Figure, daten: Daten, skill_dice: int, parts: Sequence[tuple[str, int]]) -> Pool:
    rule = daten.verteidigung
    pool = Pool().add(rule["attribut"], bogen.attribut(v, rule["attribut"])).add(rule["fertigkeit"], skill_dice)
    for label, dice in parts:
        pool.add(label, dice)
    handlungsmali(v, pool, daten)
    return pool


@dataclass(frozen=True)
class Kampfansage:
    """What is declared for an attack: the keyword arguments of ``kampfplan`` (the attacker's weapon,
    specialisation, Mindestwurf, bonus and malus, two weapons; the defender's defence, weapon, bonus and
    malus, two weapons, no defence; the resistance bonus; a ranged attack's distance and target size)."""

    waffe: str | None = None
    spezialisierung: str | None = None
    mw: int = 1
    bonus: int = 0
    malus: int = 0
    beidhaendig: bool = False
    zweitwaffe: str | None = None
    verteidigung: str | None = None
    v_waffe: str | None = None
    v_bonus: int = 0
    v_malus: int = 0
    v_beidhaendig: bool = False
    keine_verteidigung: bool = False
    w_bonus: int = 0
    distanz: int | None = None
    entfernung: str | None = None
    groesse: str | None = None
    daten: Daten | None = None
    vorschau: bool = True


def kampfplan(a: Figure, v: Figure, **ansage: Any) -> Kampfplan:
    """The pools of the melee chain (or a ranged attack), and the exact preview of its damage (unless
    ``vorschau`` is off); ``ansage``: the fields of ``Kampfansage``; ``daten``: the GM's data (default:
    the defaults)."""
    k = Kampfansage(**ansage)
    daten = k.daten or EINSTELLUNGEN.defaults()
    if a.name == v.name:
        raise AdzError(t("adz.attack_self", figure=a.name))
    if k.mw < 1:
        raise AdzError(t("adz.bad_mw", mw=k.mw))
    res = Resolution("adz", "angriff", (a.name,), (v.name,))
    w = bogen.waffe_von(a, k.waffe, daten)
    pool, mw = angriffswurf(res, a, v, w, k, daten)
    angriff2 = beidhaendiger_kampf(res, a, w, k, daten)
    defends, d_dice, d2_dice = verteidigungswurf(res, v, k, daten)
    rs, wb = bogen.summe(v, "rs", daten), bogen.summe(v, "wb", daten)
    resist = daten.widerstand["attribut"]
    wpool = Pool().add(resist, bogen.attribut(v, resist)).add("WB", wb)
    wpool.add(t("adz.part_bonus"), k.w_bonus)
    plan = Kampfplan(res, a, v, w, mw, pool.wuerfel, angriff2, defends, d_dice, d2_dice, rs, wpool.wuerfel,
                     GEISTIG if w.geistig else KOERPERLICH)
    res.step(t("adz.damage_plan", gs=w.grundschaden, rs=rs, parts=wpool.text(), dice=wpool.wuerfel,
               track=t(f"adz.track_{plan.leiste}")), "Schadensermittlung")
    if k.vorschau:
        res.preview = kampf_vorschau(plan)
    return plan


def _angriffspool(a: Figure, w: Waffe, k: Kampfansage, daten: Daten, skill_dice: int) -> Pool:
    """Angriffswurf: the damage code's attribute (FF at range) + weapon skill + specialisation − AM."""
    attr = "FF" if w.fernkampf else w.attribut
    spec = bogen.wert(a, "spezialisierungen", k.spezialisierung)[1] if k.spezialisierung else 0
    pool = Pool().add(attr, bogen.attribut(a, attr)).add(w.fertigkeit, skill_dice)
    pool.add(k.spezialisierung or "", spec).add("AM", -bogen.summe(a, "am", daten))
    pool.add(t("adz.part_bonus"), k.bonus).add(t("adz.part_malus"), -k.malus)
    handlungsmali(a, pool, daten)
    return pool


def angriffswurf(res: Resolution, a: Figure, v: Figure, w: Waffe, k: Kampfansage, daten: Daten) -> tuple[Pool, int]:
    """Angriffswurf (Fernkampf: its Mindestwurf by distance and size): the pool and the Mindestwurf."""
    pool = _angriffspool(a, w, k, daten, bogen.wert(a, "fertigkeiten", w.fertigkeit, required=False)[1])
    mw = _fernkampf_mw(res, w, k.mw, v, k.distanz, k.entfernung, k.groesse, daten) if w.fernkampf else k.mw
    res.step(t("adz.attack_pool", figure=a.name, weapon=w.name, parts=pool.text(), dice=pool.wuerfel, mw=mw),
             "Fernkampf" if w.fernkampf else "Angriffswurf")
    return pool, mw


def beidhaendiger_kampf(res: Resolution, a: Figure, w: Waffe, k: Kampfansage, daten: Daten) -> int | None:
    """Beidhändiger Kampf: the extra attack roll's dice, its skill no higher than the Beidhändiger Kampf
    value; None with one weapon."""
    if not k.beidhaendig:
        return None
    skill = bogen.wert(a, "fertigkeiten", w.fertigkeit, required=False)[1]
    bk = _beidhaendig(a, daten)
    second = _zweitwaffe(a, w, k.zweitwaffe, daten)
    extra = _angriffspool(a, w, k, daten, min(skill, bk))
    res.step(t("adz.two_weapons", figure=a.name, weapons=f"{w.name}, {second.name}", bk=bk,
               parts=extra.text(), dice=extra.wuerfel), "Beidhändiger Kampf")
    return extra.wuerfel


def verteidigungswurf(res: Resolution, v: Figure, k: Kampfansage, daten: Daten) -> tuple[bool, int, int | None]:
    """Verteidigungswurf: Verteidigung (+ Ausweichen/Parade/Schildblock) + VM of weapons, shields and
    parrying weapons, halved per reaction; whether the target can defend, its dice and its extra roll's."""
    if k.keine_verteidigung or verletzungsmalus(v, daten) is None:
        res.step(t("adz.no_defence" if k.keine_verteidigung else "adz.no_defence_unconscious", figure=v.name),
                 "Verteidigungswurf")
        return False, 0, None
    dpool, extra, wielded, bk, unused = verteidigungspools(v, daten, k.verteidigung, k.v_waffe, k.v_bonus,
                                                           k.v_malus, k.v_beidhaendig)
    if unused:
        res.step(t("adz.two_weapons_no_shield", figure=v.name,
                   gear=", ".join(f"{g.name} (VM {g.vm:+d})" for g in unused)), "Beidhändiger Kampf")
    res.step(t("adz.defence_pool", figure=v.name, parts=dpool.text(), dice=dpool.wuerfel), "Verteidigungswurf")
    d_dice, d2_dice = reaktionswuerfel(res, v, dpool), None
    if extra is not None:
        d2_dice = halbiert(v, extra.wuerfel)
        res.step(t("adz.two_weapons", figure=v.name, weapons=", ".join(x.name for x in wielded), bk=bk,
                   parts=extra.text(), dice=d2_dice), "Beidhändiger Kampf")
    return True, d_dice, d2_dice


def kampf_vorschau(plan: Kampfplan) -> dict[str, Any]:
    """P(hit) and the exact distribution of the final damage, also without the defence (a reaction: the
    next one this round has its dice halved once more) and with the attacker's luck pool."""
    att = angriff_dist(plan.angriff, plan.angriff2)
    dfn = angriff_dist(plan.verteidigung, plan.verteidigung2) if plan.verteidigt else Dist.const(0)
    res_d = erfolge_dist(plan.widerstand)
    out: dict[str, Any] = {
        "p_trifft": p_treffer(att, dfn, plan.mw),
        "schaden": kette(att, dfn, plan.waffe.grundschaden, plan.rs, res_d, plan.mw).labelled(t("adz.preview_damage")),
    }
    if plan.verteidigt:   # the defence is a reaction: its chances without it, and what it costs (Runden)
        none = Dist.const(0)
        out["p_trifft_ohne_verteidigung"] = p_treffer(att, none, plan.mw)
        out["schaden_ohne_verteidigung"] = kette(att, none, plan.waffe.grundschaden, plan.rs, res_d, plan.mw).labelled(
            t("adz.preview_damage_no_defence", figure=plan.verteidiger.name))
        n = reaktionen(plan.verteidiger) + 1
        out["reaktion"] = [t("adz.preview_reaction", figure=plan.verteidiger.name, n=n, teil=2 ** n)]
    luck = plan.angreifer.current(GLUECK)
    if luck > 0:
        lucky = angriff_dist(plan.angriff, plan.angriff2, luck)
        out["p_trifft_mit_glück"] = p_treffer(lucky, dfn, plan.mw)
        out["schaden_mit_glück"] = kette(lucky, dfn, plan.waffe.grundschaden, plan.rs, res_d, plan.mw).labelled(
            t("adz.preview_damage_luck", figure=plan.angreifer.name, dice=luck))
    return out


class _Kette:
    """The rolls of one attack; defence and resistance are rolled when first needed. ``verteidigen``: the
    target's decision whether to defend (None: not taken yet; the chain stops before the defence roll)."""

    ROLLS = ("angriff", "verteidigung", "widerstand")

    def __init__(self, plan: Kampfplan, roller: Roller, verteidigen: bool | None = True) -> None:
        self.plan, self.roller, self.res = plan, roller, plan.res
        self.verteidigen, self.verzichtet = verteidigen, False
        p = plan
        self.angriff = self._better("angriff", p.angreifer, p.angriff, p.angriff2, p.mw,
                                    "Fernkampf" if p.waffe.fernkampf else "Angriffswurf", t("adz.roll_attack"))
        self.verteidigung: Wurf | None = None
        self.widerstand: Wurf | None = None
        self.nach_bedarf()

    def _better(self, key: str, figur: Figure, n: int, n2: int | None, mw: int, rule: str, label: str) -> Wurf:
        first = wuerfeln(self.res, key, figur, n, mw, self.roller, rule, label, gm_test=False)
        if n2 is None:
            return first
        second = wuerfeln(self.res, key, figur, n2, mw, self.roller, "Beidhändiger Kampf", t("adz.roll_extra"),
                          gm_test=False)
        best = max((first, second), key=lambda w: w.erfolge)
        self.res.step(t("adz.better_roll", figure=figur.name, successes=best.erfolge), "Beidhändiger Kampf")
        return Wurf(key, figur.name, best.wuerfel, best.erfolge, mw, rolls=first.rolls + second.rolls)

    def braucht_verteidigung(self) -> bool:
        """The defender can defend and has not declined, the attack reached its Mindestwurf, but no defence
        is rolled yet."""
        p = self.plan
        return p.verteidigt and self.verteidigen is not False and self.verteidigung is None \
            and self.angriff.erfolge >= p.mw

    def frage(self) -> bool:
        """The defender is still to decide whether to defend (Verteidigungswurf: a reaction to the attack
        roll): nothing more is rolled until it has."""
        return self.braucht_verteidigung() and self.verteidigen is None

    def braucht_widerstand(self) -> bool:
        """Damage is left after RS, but no resistance is rolled yet."""
        return self.vor_widerstand() > 0 and self.widerstand is None

    def nach_bedarf(self, _changed: Wurf | None = None) -> None:
        p = self.plan
        if self.frage():
            return
        if p.verteidigt and self.verteidigen is False and self.angriff.erfolge >= p.mw and not self.verzichtet:
            self.verzichtet = True
            self.res.step(t("adz.defence_declined", figure=p.verteidiger.name), "Verteidigungswurf")
        if self.braucht_verteidigung():
            reaktion(self.res, p.verteidiger)
            self.verteidigung = self._better("verteidigung", p.verteidiger, p.verteidigung, p.verteidigung2, 0,
                                             "Verteidigungswurf", t("adz.roll_defence"))
        if self.braucht_widerstand():
            self.widerstand = wuerfeln(self.res, "widerstand", p.verteidiger, p.widerstand, 0, self.roller,
                                       "Widerstandswurf", t("adz.roll_resistance"), gm_test=False)

    def weiter(self) -> list[tuple[float, _Kette]]:
        """Every way the rolls the attack still calls for fall (``nach_bedarf``: the defence, where the
        target has not declined it, then the resistance), with its chance, exactly."""
        p = self.plan
        out = []
        for d, pd in _neu(self.braucht_verteidigung(), angriff_dist(p.verteidigung, p.verteidigung2)):
            defended = copy.copy(self)
            if d is not None:
                defended.verteidigung = Wurf("verteidigung", p.verteidiger.name, p.verteidigung, d, 0)
            for r, pr in _neu(defended.braucht_widerstand(), erfolge_dist(p.widerstand)):
                done = copy.copy(defended)
                if r is not None:
                    done.widerstand = Wurf("widerstand", p.verteidiger.name, p.widerstand, r, 0)
                out.append((pd * pr, done))
        return out

    def ausgang(self, faelle: Sequence[tuple[float, _Kette]]) -> tuple[Dist, list[tuple[str, float]]]:
        """The final damage over ``faelle``, the chance of a hit and that the target falls (``damage.faellt``)."""
        v = self.plan.verteidiger
        dealt, chances = zusammen(faelle, lambda k: (k.endschaden(), [(t("adz.advice.treffer", ziel=v.name),
                                                                       k.uebrig() >= 1)]))
        return dealt, [*chances, (t("adz.advice.faellt", figure=v.name), dealt.p_at_least(self.schwelle))]

    @cached_property
    def schwelle(self) -> int:
        """The least damage that takes the target out of the fight (``damage.schwelle``)."""
        return schwelle(self.plan.verteidiger, self.plan.leiste)

    def folgen(self, wurf: Wurf | None, n: int) -> tuple[Dist, list[tuple[str, float]]]:
        """The final damage, the chance of a hit and that the target falls once ``n`` luck dice are added
        to ``wurf`` (None: none), exact over the luck dice and the defence and resistance the changed result
        newly calls for (Glückspool; the chain as ``nach_bedarf`` carries it on; a target yet to decide
        defends)."""
        return self.ausgang([(p * q, done) for p, lucky in mit_glueck(self, self.ROLLS, wurf, n)
                             for q, done in lucky.weiter()])

    def uebrig(self) -> int:
        return uebrig(self.angriff.erfolge, self.verteidigung.erfolge if self.verteidigung else 0, self.plan.mw)

    def vor_widerstand(self) -> int:
        return vor_widerstand(self.uebrig(), self.plan.waffe.grundschaden, self.plan.rs)

    def endschaden(self) -> int:
        return endschaden(self.vor_widerstand(), self.widerstand.erfolge if self.widerstand else 0)

    def wuerfe(self) -> list[Wurf]:
        return [w for w in (self.angriff, self.verteidigung, self.widerstand) if w is not None]

    def offen(self) -> list[Wurf]:
        """The rolls the luck pool could improve (``exact.angeboten``)."""
        keys = angeboten(self.uebrig(), self.endschaden())
        return [w for w in self.wuerfe() if w.key in keys]


def _neu(needed: bool, successes: Dist) -> list[tuple[int | None, float]]:
    """The successes of a roll newly called for, with their chances; [(None, 1)] when it is not."""
    return list(successes.pmf().items()) if needed else [(None, 1.0)]


def verteidigung_angebot(res: Resolution, chain: _Kette, arten: Mapping[str, Kampfplan]) -> None:
    """Ask the target whether it defends (Verteidigungswurf: "kann als Reaktion"), after the attack roll:
    the choice ``verteidigen``. The advice: defend (as the line sets it up, and with each specialisation
    ``arten`` gives other dice for) or not, each with the chance of a hit, the final damage and the chance the
    target falls, exact over the defence and resistance still to roll, and what it leaves the next
    reactions this round (Runden)."""
    p, v = chain.plan, chain.plan.verteidiger
    before = reaktionen(v)
    res.choices.append(Choice(VERTEIDIGEN, t("adz.choice_defend", figure=v.name, dice=p.verteidigung,
                                             erfolge=chain.angriff.erfolge), (v.name,), VERTEIDIGUNGSARTEN))
    cost = t("adz.advice.reaktion", figure=v.name, n=before + 1, teil=2 ** (before + 1))
    spared = t("adz.advice.keine_reaktion", figure=v.name, teil=2 ** before) if before else t(
        "adz.advice.keine_reaktion_voll", figure=v.name)

    def option(label: str, take: Take, plan: Kampfplan, defends: bool, note: str) -> Option:
        asked = copy.copy(chain)
        asked.plan, asked.verteidigen = plan, defends
        damage, chances = chain.ausgang(asked.weiter())
        return Option(label, (take,), damage, tuple(chances), (note,))

    options = [option(t("adz.advice.verteidigen", dice=p.verteidigung), Take("verteidigen", v.name), p, True, cost)]
    options += [option(t("adz.advice.verteidigen_art", art=art.capitalize(), dice=q.verteidigung),
                       Take("verteidigen", v.name, {"verteidigung": art}), q, True, cost) for art, q in arten.items()]
    options.append(option(t("adz.advice.nicht_verteidigen"), Take(DECLINE, v.name), p, False, spared))
    res.advice.append(Advice("verteidigen", v.name, t("adz.advice.ziel_abwehr"), tuple(options),
                             (p.angreifer.name, v.name), t("adz.advice.hinweis_verteidigen")))


def _arten(plan: Kampfplan, kwargs: Mapping[str, Any]) -> dict[str, Kampfplan]:
    """The defences by a specialisation (Ausweichen, Parade, Schildblock) that give the target other dice
    than the line's, each as its plan; none the line's setup does not allow (``verteidigungspools``)."""
    v = plan.verteidiger
    daten = kwargs.get("daten") or EINSTELLUNGEN.defaults()
    how = {k: kwargs[k] for k in ("v_waffe", "v_bonus", "v_malus", "v_beidhaendig") if k in kwargs}
    out = {}
    for art in VERTEIDIGUNGSARTEN:
        try:
            pool, extra, *_ = verteidigungspools(v, daten, art, **how)
        except AdzError:
            continue
        dice = (halbiert(v, pool.wuerfel), halbiert(v, extra.wuerfel) if extra is not None else None)
        if dice != (plan.verteidigung, plan.verteidigung2):
            out[art] = replace(plan, verteidigung=dice[0], verteidigung2=dice[1])
    return out


def angriff(angreifer: Figure, verteidiger: Figure, roller: Roller, *, verteidigen: bool | None = True,
            glueck: Sequence[Mapping[str, Any]] | None = None, **kwargs: Any) -> Resolution:
    """One attack through the whole chain (Nahkampf; Fernkampf; Beidhändiger Kampf): attack roll,
    defence, damage, resistance roll.

    ``verteidigen``: whether the target defends (if it can); None: it decides once the attack roll
    reaches the Mindestwurf (the open choice ``verteidigen``). ``glueck``: None on the first run
    (open for the luck pool), else the luck decisions ([]: none). Keyword arguments: see
    ``kampfplan``.
    """
    plan = kampfplan(angreifer, verteidiger, **kwargs)
    res, a, v = plan.res, plan.angreifer, plan.verteidiger
    chain = _Kette(plan, roller, verteidigen)
    figures = {a.name: a, v.name: v}
    if glueck:
        glueck_einsetzen(res, glueck, chain.wuerfe(), figures, roller, chain.nach_bedarf, chain.offen())
    if chain.frage():
        verteidigung_angebot(res, chain, _arten(plan, kwargs))
        res.step(t("adz.defence_open", figure=v.name, successes=chain.angriff.erfolge, dice=plan.verteidigung),
                 "Verteidigungswurf")
        res.outcome = {"angriff": chain.angriff.erfolge}
        res.summary = clauses([t("adz.satz.verteidigen_offen", angreifer=a.name, ziel=v.name,
                                 erfolge=counted("adz.satz.erfolge", chain.angriff.erfolge))])
        return res
    left, before, final = chain.uebrig(), chain.vor_widerstand(), chain.endschaden()
    if chain.angriff.erfolge < plan.mw:
        res.step(t("adz.attack_failed", figure=a.name, successes=chain.angriff.erfolge, mw=plan.mw), "Angriffswurf")
    elif left < 1:
        res.step(t("adz.parried", figure=v.name, a=chain.angriff.erfolge,
                   d=chain.verteidigung.erfolge if chain.verteidigung else 0), "Verteidigungswurf")
    else:
        res.step(t("adz.hit", figure=v.name, left=left, gs=plan.waffe.grundschaden, rs=plan.rs, damage=before),
                 "Schadensermittlung", value=before)
        if chain.widerstand is not None:
            res.step(t("adz.resisted", figure=v.name, successes=chain.widerstand.erfolge, damage=final),
                     "Widerstandswurf", value=final)
    if glueck is None:
        assumed = plan.verteidigt and chain.verteidigen is None   # a defence luck may call for: asked later
        glueck_angebot(res, chain.offen(), figures, chain.folgen,
                       {a.name: t("adz.advice.ziel_angriff", ziel=v.name), v.name: t("adz.advice.ziel_abwehr")},
                       t("adz.advice.hinweis_angriff", ziel=v.name) if assumed else "")
    if left >= 1:
        schaden(res, v, final, plan.leiste, "Auswirkungen")
    who = {"angreifer": a.name, "ziel": v.name}
    if chain.angriff.erfolge < plan.mw:
        said = [t("adz.satz.verfehlt", **who)]
    elif left < 1:
        said = [t("adz.satz.abgewehrt", **who)]
    elif final == 0:
        said = [t("adz.satz.treffer_ohne", **who)]
    else:
        said = [t("adz.satz.treffer", **who, schaden=schadensstufen(final, plan.leiste)), folge_satz(res, v)]
    res.summary = clauses([*said, glueck_satz(res)])
    res.outcome = {"angriff": chain.angriff.erfolge,
                   "verteidigung": chain.verteidigung.erfolge if chain.verteidigung else None,
                   "treffer": left >= 1, "übrig": max(left, 0), "schaden_vor_widerstand": before,
                   "widerstand": chain.widerstand.erfolge if chain.widerstand else None, "schaden": final}
    return res
