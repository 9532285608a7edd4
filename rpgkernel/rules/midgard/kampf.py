"""Attacks and defences (seed 000: "AP-Verluste bei gelungener Abwehr",
"Abwehr mehrerer Angriffe", "Neue Regelung der Göttlichen Gnade",
"Ersetzen des festen Schadensbonus"; EW/WW as the basic-roll defaults).

An attack: EW: Angriff, the defender's WW: Abwehr, the damage, the GM's critical tables
(``kritisch``), each roll open to divine grace. Order of given dice: EW: Angriff, WW: Abwehr, the
damage dice, the critical tables.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from typing import Any, Callable, Mapping, NamedTuple, Sequence

from ...dice import Dist, Roll, Roller, dist
from ...errors import DiceLimitError
from ...messages import t
from rpgkernel.rules.kit import Effect, Figure, Resolution, clauses
from .core import Grundregeln, MidgardError, ew_gelingt, kritisch, ww_gelingt
from .settings import EINSTELLUNGEN, Einstellungen
from .gnade import Chance, Offen, Wurfkette, gelingen, schadenswurf
from .kritisch import tabelle_satz, tabelle_wuerfeln
from .proben import ew_satz, ew_text, ww_satz, ww_text
from .schaden import ap_verlust_leicht, kampfunfaehig, schadensausdruck, verlust_schwer
from .sheet import Eintrag, feld, waffe

VOLLE_ABWEHR = "volle Abwehr"
_ABWEHREN = re.compile(r"^(\d+)\. Abwehr$")
W20 = "W20"             # the die of EW: Angriff and WW: Abwehr
RULE_AP = "AP-Verluste bei gelungener Abwehr"
RULE_MEHR = "Abwehr mehrerer Angriffe"
PREVIEW_VALUES = 10_000   # values of a damage roll the exact preview of AP and LP loss may take


def abwehr_zustand(condition: str) -> bool:
    """Whether ``condition`` counts the defences of the round (``N. Abwehr``)."""
    return _ABWEHREN.match(condition) is not None


def abwehren(figure: Figure) -> int:
    """How many defences the figure has made this round (its condition ``N. Abwehr``)."""
    found = [int(m.group(1)) for c in figure.conditions if (m := _ABWEHREN.match(c))]
    return max(found, default=0)


def abwehr_wm(nummer: int, volle_abwehr: bool = False, nicht_kumulativ: bool = False) -> int:
    """The WM of the ``nummer``-th defence in a round (Abwehr mehrerer Angriffe)."""
    k = nummer - 1 if volle_abwehr else nummer
    if k <= 1:
        return 0
    return -2 if nicht_kumulativ else -2 * (k - 1)


def _zero_or_shift(weights: Mapping[int | None, float], damage: Dist, cap: int | None) -> Dist:
    """The loss: with each weight, max(0, damage - shift) (None: no loss), capped at ``cap``."""
    parts = [(w, Dist.const(0) if shift is None else (damage - shift).clip(lower=0, upper=cap))
             for shift, w in weights.items()]
    low = min(d.min for _, d in parts)
    probs = np.zeros(max(d.max for _, d in parts) - low + 1)
    for w, d in parts:  # a mixture, face by face as arrays (a damage roll may have millions of values)
        probs[d.min - low:d.max - low + 1] += w * d.probabilities
    return Dist(low, probs)


def angriff_vorschau(ew_wert: int, abwehr_wert: int, damage: Dist, *, rs: int = 0, schild_ap: int = 0,
                     ap: int | None = None, regeln: Grundregeln | None = None) -> dict[str, Any]:
    """Before the roll, exact: P(EW: Angriff), P(WW: Abwehr | hit), P(schwerer/leichter Treffer),
    and the distributions of AP and LP lost (AP capped at the ``ap`` the defender has)."""
    if damage.max - damage.min + 1 > PREVIEW_VALUES:
        raise DiceLimitError(t("midgard.preview_too_costly", n=damage.max - damage.min + 1, max=PREVIEW_VALUES))
    w = _treffer(ew_wert, abwehr_wert, rs, schild_ap, regeln or Grundregeln())
    return {t("midgard.p_attack"): w.hit, t("midgard.p_defence"): w.light / w.hit if w.hit else 0.0,
            t("midgard.p_heavy"): w.heavy, t("midgard.p_light"): w.light,
            "ap": _zero_or_shift(dict(w.ap), damage, ap).labelled(t("midgard.ap_lost")),
            "lp": _zero_or_shift(dict(w.lp), damage, None).labelled(t("midgard.lp_lost"))}


class Treffer(NamedTuple):
    """An attack's two W20 over every face: P(hit), P(schwerer/leichter Treffer), and the chance of
    each shift of the damage into AP and LP lost (None: nothing lost)."""

    hit: float
    heavy: float
    light: float
    ap: tuple[tuple[int | None, float], ...]
    lp: tuple[tuple[int | None, float], ...]


@lru_cache(maxsize=1024)
def _treffer(ew_wert: int, abwehr_wert: int, rs: int, schild_ap: int, regeln: Grundregeln) -> Treffer:
    ap_w: dict[int | None, float] = defaultdict(float)
    lp_w: dict[int | None, float] = defaultdict(float)
    hit = heavy = light = 0.0
    for a in range(1, 21):
        total_a = a + ew_wert
        if not ew_gelingt(a, total_a, regeln):
            ap_w[None] += 1 / 20
            lp_w[None] += 1 / 20
            continue
        hit += 1 / 20
        for d in range(1, 21):
            total_d = d + abwehr_wert
            p = 1 / 400
            if ww_gelingt(d, total_d, total_a, regeln):
                light += p
                lp_w[None] += p
                if kritisch(d, regeln) == "kritischer Erfolg":
                    ap_w[None] += p
                else:
                    ap_w[(total_d - total_a) // 2 + schild_ap] += p
            else:
                heavy += p
                ap_w[rs] += p
                lp_w[rs] += p
    return Treffer(hit, heavy, light, tuple(ap_w.items()), tuple(lp_w.items()))


@dataclass(frozen=True)
class Angriffslage:
    """An attack before its first die: the weapon and its damage roll, which defence of the round
    it meets with what WM, and the defender's values."""

    waffe: Eintrag
    wm: int
    schaden: str            # the damage roll, with the bonus dice (Ersetzen des festen Schadensbonus)
    bonus_note: str
    nummer: int             # the defender's defence this round
    volle: bool             # the defender is in full defence
    flat: bool              # several ranged attacks from one direction against a large shield
    multi: int              # the WM of this defence (Abwehr mehrerer Angriffe)
    abwehr: int
    ww_wm: int
    rs: int
    schild_ap: int
    ap: int | None          # the defender's AP now (None: he has none)
    regeln: Grundregeln

    @property
    def ew_wert(self) -> int:
        return self.waffe.wert + self.wm

    def vorschau(self) -> dict[str, Any]:
        """The attack's exact preview (``angriff_vorschau``)."""
        return angriff_vorschau(self.ew_wert, self.abwehr + self.ww_wm, dist(self.schaden), rs=self.rs,
                                schild_ap=self.schild_ap, ap=self.ap, regeln=self.regeln)


def angriffslage(angreifer: Figure, verteidiger: Figure, *, waffe_name: str | None = None, wm: int = 0,
                 abwehr_wm_extra: int = 0, schaden: str | None = None, abwehr_nr: int | None = None,
                 fernkampf: bool = False, eine_richtung: bool = False,
                 cfg: Einstellungen | None = None) -> Angriffslage:
    """What ``angriff`` reads before its first die (its preview: ``.vorschau()``)."""
    cfg = cfg or EINSTELLUNGEN.defaults()
    weapon = waffe(angreifer, waffe_name)
    expr, bonus_note = schadensausdruck(angreifer, weapon, cfg, schaden)
    nummer = abwehr_nr or abwehren(verteidiger) + 1
    if nummer < 1:
        raise MidgardError(t("midgard.bad_defence_number", value=nummer))
    volle = verteidiger.has(VOLLE_ABWEHR)
    flat = fernkampf and eine_richtung and feld(verteidiger, "schild", "") == "groß"
    multi = abwehr_wm(nummer, volle, flat)
    return Angriffslage(weapon, wm, expr, bonus_note, nummer, volle, flat, multi, feld(verteidiger, "abwehr"),
                        multi + abwehr_wm_extra, feld(verteidiger, "rs", 0), feld(verteidiger, "schild_ap", 0),
                        verteidiger.current("AP") if "AP" in verteidiger.resources else None, cfg.regeln)


@dataclass
class _Kampf:
    """One attack being rolled: the figures, its situation, the chain of rolls and the rolls so far."""

    res: Resolution
    chain: Wurfkette
    lage: Angriffslage
    angreifer: Figure
    verteidiger: Figure
    cfg: Einstellungen
    a_total: int = 0
    d_roll: Roll | None = None
    d_total: int = 0
    defended: bool = False
    damage: Roll | None = None

    @property
    def both(self) -> list[str]:
        return [self.angreifer.name, self.verteidiger.name]


def angriff(angreifer: Figure, verteidiger: Figure, roller: Roller | None, *,
            decisions: Mapping[str, Sequence[Mapping[str, Any]]] | None = None, ohne_gnade: bool = False,
            cfg: Einstellungen | None = None, **lage: Any) -> Resolution:
    """An attack with the defender's WW: Abwehr and the AP/LP it costs (see the module docstring).

    ``lage``: the keyword arguments of ``angriffslage`` (weapon, WM, damage,
    ``abwehr_nr``: which defence of the round this is, default one more than
    the defender's ``N. Abwehr``). Without a roller only the preview
    (``angriffslage(…).vorschau()``).
    """
    cfg = cfg or EINSTELLUNGEN.defaults()
    situation = angriffslage(angreifer, verteidiger, cfg=cfg, **lage)
    res = Resolution("midgard", "angriff", (angreifer.name,), (verteidiger.name,))
    try:
        res.preview = situation.vorschau()
    except DiceLimitError as err:
        if roller is None:  # the preview alone: refused with its reason
            raise
        res.step(t("midgard.no_preview", reason=err.message), "Grundwürfe (Vorgabe)")
    if roller is None:
        return res
    if situation.bonus_note:
        res.step(situation.bonus_note, "Ersetzen des festen Schadensbonus")
    chain = Wurfkette(res, roller, decisions or {}, {angreifer.name: angreifer, verteidiger.name: verteidiger},
                      ohne_gnade)
    k = _Kampf(res, chain, situation, angreifer, verteidiger, cfg)
    try:
        if not angriffswurf(k):
            return res
        abwehrwurf(k)
        schaden_wuerfeln(k)
        kritische_folgen(k)
    except Offen:
        return res
    res.effects += _abwehr_gezaehlt(verteidiger, situation.nummer)
    assert k.d_roll is not None and k.damage is not None
    res.outcome.update({"abwehr": k.d_total, "schaden": k.damage.total})
    _verlust(res, verteidiger, k.defended, k.a_total, k.d_roll, k.d_total, k.damage, situation)
    res.effects += chain.effekte()
    return res


def angriffswurf(k: _Kampf) -> bool:
    """EW: Angriff; whether it hits. A miss ends the attack here (a critical one with its table)."""
    res, lage, regeln = k.res, k.lage, k.cfg.regeln
    a_name, v_name, weapon, ew_wert = k.angreifer.name, k.verteidiger.name, lage.waffe, lage.ew_wert
    ew_label = t("midgard.ew_label", what=t("midgard.attack_with", weapon=weapon.name))
    ew_gegen = t("midgard.satz.angriff_gegen", label=ew_label, ziel=v_name)
    a_roll = k.chain.wurf(W20, ew_label, k.both, "Grundwürfe (Vorgabe)",
                          lambda r: ew_text(a_name, ew_label, r, weapon.wert, lage.wm, regeln),
                          lambda r: ew_satz(a_name, ew_gegen, r, weapon.wert, lage.wm, regeln),
                          gelingen(ew_label, a_name, lambda face: ew_gelingt(face, face + ew_wert, regeln)))
    k.a_total = a_roll.total + ew_wert
    res.outcome = {"angriff": k.a_total, "kritisch": kritisch(a_roll.total, regeln)}
    if ew_gelingt(a_roll.total, k.a_total, regeln):
        return True
    res.outcome["treffer"] = "kein Treffer"
    if kritisch(a_roll.total, regeln):
        res.step(t("midgard.attack_fumble", figure=a_name), "Grundwürfe (Vorgabe)")
        _tabelle(res, k.chain, k.cfg, "fehler_angriff", a_name, [a_name])
    res.effects += k.chain.effekte()
    missed = "midgard.satz.verfehlt_krit" if kritisch(a_roll.total, regeln) else "midgard.satz.verfehlt"
    res.summary = clauses([t(missed, angreifer=a_name, ziel=v_name), *_tabellen(res)])
    return False


def abwehrwurf(k: _Kampf) -> None:
    """WW: Abwehr against the attack's total, with the WM of this defence of the round (Abwehr
    mehrerer Angriffe)."""
    lage, regeln, v_name, a_total = k.lage, k.cfg.regeln, k.verteidiger.name, k.a_total
    abwehr, ww_wm = lage.abwehr, lage.ww_wm
    if lage.multi:
        k.res.step(t("midgard.multi_defence", figure=v_name, n=lage.nummer, wm=lage.multi,
                     how=t("midgard.multi_flat") if lage.flat else t("midgard.multi_full") if lage.volle else ""),
                   RULE_MEHR)
    ww_label = t("midgard.ww_label", what=t("midgard.defence"))
    k.d_roll = k.chain.wurf(W20, ww_label, k.both, "Grundwürfe (Vorgabe)",
                            lambda r: ww_text(v_name, ww_label, r, abwehr, ww_wm, a_total, regeln),
                            lambda r: ww_satz(v_name, ww_label, r, abwehr, ww_wm, a_total, regeln),
                            gelingen(ww_label, v_name,
                                     lambda face: ww_gelingt(face, face + abwehr + ww_wm, a_total, regeln)))
    k.d_total = k.d_roll.total + abwehr + ww_wm
    k.defended = ww_gelingt(k.d_roll.total, k.d_total, a_total, regeln)


def schaden_wuerfeln(k: _Kampf) -> None:
    """The damage roll (with the bonus dice of Ersetzen des festen Schadensbonus)."""
    a_name, v_name, expr = k.angreifer.name, k.verteidiger.name, k.lage.schaden
    assert k.d_roll is not None
    k.damage = k.chain.wurf(expr, t("midgard.damage_label"), k.both, "Grundwürfe (Vorgabe)",
                            lambda r: t("midgard.damage", figure=a_name, expr=expr, total=r.total),
                            lambda r: t("midgard.satz.schaden_wurf", figure=a_name, total=r.total, ziel=v_name),
                            schadenswurf(t("midgard.damage_label"), a_name,
                                         _faellt(k.verteidiger, k.lage, k.a_total, k.d_roll.total, k.d_total,
                                                 k.defended)))


def kritische_folgen(k: _Kampf) -> None:
    """A critical hit not defended, a critical failure of the defence: their tables."""
    res, v_name = k.res, k.verteidiger.name
    assert k.d_roll is not None
    if not k.defended and res.outcome["kritisch"] == "kritischer Erfolg":
        res.step(t("midgard.critical_hit", figure=v_name), "Grundwürfe (Vorgabe)")
        _tabelle(res, k.chain, k.cfg, "treffer", v_name, k.both)
    if kritisch(k.d_roll.total, k.cfg.regeln) == "kritischer Fehler":
        res.step(t("midgard.defence_fumble", figure=v_name), "Grundwürfe (Vorgabe)")
        _tabelle(res, k.chain, k.cfg, "fehler_abwehr", v_name, [v_name])


class Folge(NamedTuple):
    """What one attack leaves: the LP and AP it takes from the defender (``verluste``, before the AP
    he has left cap them), the points of divine grace the attacker and the defender spent on their own
    rolls, and whether the defender rolled his WW: Abwehr (a defence of the round, counted)."""

    lp: int
    ap: int
    gnade_angreifer: int
    gnade_verteidiger: int
    abgewehrt: bool


#: how a W20 roll of an attack falls (``folgen``): given whether a face succeeds, each face it
#: stands at with the points of grace spent on it, and the chance of that
Wurf = Callable[[Callable[[int], bool]], Mapping[tuple[int, int], float]]


def folgen(lage: Angriffslage, angreifer_wurf: Wurf, verteidiger_wurf: Wurf) -> dict[Folge, float]:
    """The exact chances of what an attack in ``lage`` leaves (``angriff``: EW: Angriff, the WW: Abwehr
    if it hit, the damage), the attacker's EW and the defender's WW falling as ``angreifer_wurf`` and
    ``verteidiger_wurf`` say (how each takes divine grace on it). The critical tables change nothing
    here: their rows are shown, never applied."""
    regeln = lage.regeln
    schaden = dist(lage.schaden).pmf().items()
    out: dict[Folge, float] = defaultdict(float)

    def trifft(face: int) -> bool:
        return ew_gelingt(face, face + lage.ew_wert, regeln)

    for (a, a_gnade), p_a in angreifer_wurf(trifft).items():
        a_total = a + lage.ew_wert
        if not trifft(a):
            out[Folge(0, 0, a_gnade, 0, False)] += p_a
            continue

        def wehrt(face: int) -> bool:
            return ww_gelingt(face, face + lage.abwehr + lage.ww_wm, a_total, regeln)

        for (d, d_gnade), p_d in verteidiger_wurf(wehrt).items():
            d_total, defended = d + lage.abwehr + lage.ww_wm, wehrt(d)
            for x, p_x in schaden:
                lp, ap = verluste(lage, a_total, d, d_total, defended, x)
                out[Folge(lp, ap, a_gnade, d_gnade, True)] += p_a * p_d * p_x
    return dict(out)


def _tabellen(res: Resolution) -> list[str]:
    """The clauses of the rows taken on the GM's critical tables in this attack."""
    return [tabelle_satz(row) for row in res.outcome.get("kritische_tabellen", ())]


def _tabelle(res: Resolution, chain: Wurfkette, cfg: Einstellungen, situation: str, who: str,
             beteiligte: Sequence[str]) -> None:
    """Roll the GM's critical table (if any); the row taken goes to ``outcome["kritische_tabellen"]``."""
    row = tabelle_wuerfeln(chain, cfg, situation, who, beteiligte)
    if row is not None:
        res.outcome.setdefault("kritische_tabellen", []).append(row)


def _abwehr_gezaehlt(verteidiger: Figure, nummer: int) -> list[Effect]:
    v = verteidiger.name
    old = [Effect(v, condition=c, on=False) for c in verteidiger.conditions if abwehr_zustand(c)]
    return old + [Effect(v, condition=f"{nummer}. Abwehr", rounds=1, ends="rundenende")]


def verluste(lage: Angriffslage, a_total: int, d_face: int, d_total: int, defended: bool,
             schaden: int) -> tuple[int, int]:
    """The LP and AP an attack that hit takes from the defender (before the AP he has left caps them):
    a successful defence (a light hit) costs AP alone (``ap_verlust_leicht``, none after a critical
    defence), a failed one LP and AP alike (``verlust_schwer``)."""
    if defended:
        crit = kritisch(d_face, lage.regeln) == "kritischer Erfolg"
        return 0, ap_verlust_leicht(schaden, a_total, d_total, lage.schild_ap, crit)
    lost = verlust_schwer(schaden, lage.rs)
    return lost, lost


def _verlust(res: Resolution, verteidiger: Figure, defended: bool, a_total: int, d_roll: Roll,
             d_total: int, damage: Roll, lage: Angriffslage) -> None:
    v, regeln = verteidiger.name, lage.regeln
    lp, ap = verluste(lage, a_total, d_roll.total, d_total, defended, damage.total)
    if defended:
        crit = kritisch(d_roll.total, regeln) == "kritischer Erfolg"
        key = "midgard.light_hit_critical" if crit else "midgard.light_hit"
        res.step(t(key, figure=v, damage=damage.total, half=(d_total - a_total) // 2, diff=d_total - a_total,
                   shield=lage.schild_ap, ap=ap), RULE_AP, value=ap)
        res.outcome["treffer"] = "leichter Treffer"
    else:
        res.step(t("midgard.heavy_hit", figure=v, damage=damage.total, rs=lage.rs, lp=lp), "Grundwürfe (Vorgabe)",
                 value=lp)
        res.outcome["treffer"] = "schwerer Treffer"
    if lage.ap is not None:
        ap = min(ap, lage.ap)
    res.outcome.update({"ap_verlust": ap, "lp_verlust": lp})
    for key, loss in (("LP", lp), ("AP", ap)):
        if loss and key in verteidiger.resources:
            res.effects.append(Effect(v, key, -loss))
    d_krit = kritisch(d_roll.total, regeln)
    res.summary = clauses([_treffer_satz(res, defended, d_krit, lp, ap),
                           t("midgard.satz.abwehr_patzer", ziel=v) if d_krit == "kritischer Fehler" else "",
                           *_tabellen(res), _leer_satz(verteidiger, lp, ap)])


def _faellt(verteidiger: Figure, lage: Angriffslage, a_total: int, d_face: int, d_total: int,
            defended: bool) -> list[Chance]:
    """The damage totals after which the defender falls (kampfunfähig by the LP they leave him), for
    the advice on the damage roll; none for a defender without LP."""
    if "LP" not in verteidiger.resources:
        return []
    lp = verteidiger.current("LP")
    return [(t("midgard.advice.faellt", ziel=verteidiger.name),
             lambda x: kampfunfaehig(lp - verluste(lage, a_total, d_face, d_total, defended, x)[0], lage.regeln))]


def _treffer_satz(res: Resolution, defended: bool, d_krit: str | None, lp: int, ap: int) -> str:
    """The clause of an attack that hit: a light hit (defended: AP only) or a heavy one (LP and AP)."""
    who = {"angreifer": res.actors[0], "ziel": res.targets[0]}
    if defended:
        if d_krit == "kritischer Erfolg":
            return t("midgard.satz.abgewehrt_krit", **who)
        return t("midgard.satz.abgewehrt", **who, ap=ap) if ap else t("midgard.satz.abgewehrt_ohne", **who)
    how = t("midgard.satz.kritisch" if res.outcome["kritisch"] == "kritischer Erfolg" else "midgard.satz.schwer")
    if not lp and not ap:
        return t("midgard.satz.treffer_ohne", **who, wie=how)
    return t("midgard.satz.angriff_treffer", **who, wie=how, lp=lp, ap=ap)


def _leer_satz(verteidiger: Figure, lp: int, ap: int) -> str:
    """The clause saying the defender has no LP or AP left (else "")."""
    out = [key for key, loss in (("LP", lp), ("AP", ap))
           if loss and key in verteidiger.resources and verteidiger.current(key) - loss <= 0]
    return t(f"midgard.satz.keine_{'_'.join(out).lower()}", figure=verteidiger.name) if out else ""


def volle_abwehr(figure: Figure) -> Resolution:
    """The figure gives up all its attacks this round (except open guards after an enemy's fumble):
    its first defence WM comes only with the third defence (Abwehr mehrerer Angriffe)."""
    res = Resolution("midgard", "volle_abwehr", (figure.name,))
    res.effects.append(Effect(figure.name, condition=VOLLE_ABWEHR, rounds=1, ends="rundenende"))
    res.step(t("midgard.full_defence", figure=figure.name), RULE_MEHR)
    res.summary = clauses([t("midgard.satz.volle_abwehr", figure=figure.name)])
    return res
