"""The manoeuvres (seed: the manoeuvre tables of Athletik and Körperbeherrschung) as data
(``data/manoever.yaml``): AD cost per level, targets, conditions (``[Stufe] > NK des Gegners``),
weapon requirements, the reaction each allows and its effects.

The attack test is the W10 test of the GM data (pool: the sheet's ``angriff``); a pending Finte
gives the next attack 6 successes without a roll. Defences ("Verteidigung") are not in the seed:
the GM marks a defended attack with ``abgewehrt``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from ...dice import Roller
from ...messages import t
from rpgkernel.rules.kit import Effect, Figure, Resolution, clauses, listing, sentence
from .bewegung import feld_name, position
from .initiative import INI_BONUS, ini_bonus
from .map import RICHTUNGEN, Hex, HexKarte, abstand
from .probe import erfolge_dist, p_gelingt, wuerfeln
from .settings import EINSTELLUNGEN, Einstellungen, KampfwerteError

MAX_STUFE = 5
FINTE = "Finte +"
RIPOSTE = "Riposte "
FINTE_ERFOLGE = 6
#: what a hitting Riposte leaves on its target until the round's end, for a Konterparade to undo:
#: the negated Finte (``Finte +N negiert``) and the LP its counter-attack took (``Riposte-Schaden N``)
NEGIERT = " negiert"
RIPOSTE_SCHADEN = "Riposte-Schaden "
#: the condition that records a pending attack a reaction may answer (name -> prefix + level)
VERMERK = {"Finte": FINTE, "Riposte": RIPOSTE}
#: attacks a reaction can only answer while their record is pending (a Finte never lapses)
NUR_VERMERKT = ("Finte",)


def eintrag(name: str, daten: Einstellungen) -> dict[str, Any]:
    """The manoeuvre ``name`` of the GM's catalogue."""
    cat = daten.manoever
    if name not in cat:
        raise KampfwerteError(t("kampfwerte.unknown_manoeuvre", name=str(name)[:40], known=", ".join(cat)))
    return cat[name]


def _stufe(m: Mapping[str, Any], key: str, stufe: int, ziele: int = 0) -> int:
    """A per-level value of an entry: "stufe" is the level itself, a table maps level -> value."""
    v = m.get(key)
    if v == "stufe":
        return stufe
    if v == "gegner":
        return ziele
    return int(v[stufe]) if isinstance(v, Mapping) else int(v or 0)


def kosten(name: str, stufe: int, ziele: int = 1, *, daten: Einstellungen | None = None) -> int:
    """The AD a manoeuvre costs at a level (Kosten); Rundumschlag per the GM's choice of its two forms."""
    daten = daten or EINSTELLUNGEN.defaults()
    m = eintrag(name, daten)
    if name == "Rundumschlag" and daten.rundumschlag_kosten == "gegner":
        return ziele
    return _stufe(m, "kosten", stufe, ziele)


def beherrscht(figure: Figure, name: str) -> int:
    """The level the sheet lists for the manoeuvre ("Finte 3"), 0 if none."""
    for entry in figure.value("manoever", []):
        head, _, level = entry.rpartition(" ")
        if head.strip() == name and level.isdigit():
            return int(level)
    return 0


def reaktion_erlaubt(angriff: str, angriff_stufe: int, reaktion: str, stufe: int, *,
                     daten: Einstellungen | None = None) -> bool:
    """Whether ``reaktion`` answers ``angriff``: the attack allows it, and a Riposte/Konterparade
    needs the same or a higher level ("gleiche oder höhere Stufe")."""
    daten = daten or EINSTELLUNGEN.defaults()
    m = eintrag(reaktion, daten)
    return eintrag(angriff, daten).get("reaktion") == reaktion and (angriff not in m.get("antwort_auf", ())
                                                                  or stufe >= angriff_stufe)


def vermerkt(figure: Figure, angriff: str) -> int | None:
    """The level of the figure's pending ``angriff`` (condition ``Finte +N``, ``Riposte N``), None if none."""
    prefix = VERMERK.get(angriff)
    for c in figure.conditions if prefix else ():
        if c.startswith(prefix) and c[len(prefix):].isdigit():
            return int(c[len(prefix):])
    return None


def finte_bonus(figure: Figure) -> int:
    """The damage bonus of a pending Finte (condition ``Finte +N``), 0 if none."""
    return vermerkt(figure, "Finte") or 0


def finte_gilt(actor: Figure, m: Mapping[str, Any]) -> int:
    """The Finte bonus for this manoeuvre: a Finte serves the next attack, never a reaction."""
    return 0 if m.get("antwort_auf") else finte_bonus(actor)


def pruefen(actor: Figure, targets: Sequence[Figure], name: str, stufe: int, gegen: tuple[str, int] | None,
            schaden: str | None, daten: Einstellungen) -> int:
    """Check a manoeuvre before any die falls; its AD cost (Kosten, Bedingung, Reaktion)."""
    m = eintrag(name, daten)
    _pruefe_stufe(actor, name, stufe)
    n, want = len(targets), m.get("ziele", "eins")
    if (want == "eins" and n != 1) or (want == "keine" and n) or (want == "stufe" and not 1 <= n <= stufe):
        raise KampfwerteError(t(f"kampfwerte.targets_{want}", name=name, stufe=stufe))
    ad = kosten(name, stufe, n, daten=daten)
    have = actor.current("AD")
    if ad > have:
        raise KampfwerteError(t("kampfwerte.no_ad", figure=actor.name, name=name, cost=ad, have=have))
    _pruefe_bedingung(actor, targets, name, stufe, m)
    if schaden and (m.get("schaden") is False or not targets):
        raise KampfwerteError(t("kampfwerte.no_damage", name=name))
    if m.get("waffe") and not any(m["waffe"].lower() in w.lower() for w in actor.value("waffen", [])):
        raise KampfwerteError(t("kampfwerte.needs_weapon", name=name, weapon=m["waffe"]))
    if m.get("angrenzend") or m.get("stossen"):
        _pruefe_angrenzend(actor, targets, name)
    if m.get("antwort_auf"):
        _pruefe_reaktion(targets, name, stufe, gegen, daten)
    return ad


def _pruefe_stufe(actor: Figure, name: str, stufe: int) -> None:
    """The level: 1 to 5, and no higher than the sheet lists."""
    if not 1 <= stufe <= MAX_STUFE:
        raise KampfwerteError(t("kampfwerte.bad_level", max=MAX_STUFE))
    if beherrscht(actor, name) < stufe:
        raise KampfwerteError(t("kampfwerte.not_mastered", figure=actor.name, name=name, stufe=stufe,
                                has=beherrscht(actor, name)))


def _pruefe_bedingung(actor: Figure, targets: Sequence[Figure], name: str, stufe: int,
                      m: Mapping[str, Any]) -> None:
    """The conditions on each target: ``[Stufe] > NK des Gegners``; disarming no higher Angriffsstufe."""
    for tgt in targets:
        nk = tgt.value("NK")
        if m.get("bedingung") == "nk" and not stufe > nk:
            raise KampfwerteError(t("kampfwerte.nk", name=name, stufe=stufe, target=tgt.name, nk=nk))
        if m.get("entwaffnen") and tgt.value("angriffsstufe") > actor.value("angriffsstufe"):
            raise KampfwerteError(t("kampfwerte.disarm_level", target=tgt.name))


def _pruefe_angrenzend(actor: Figure, targets: Sequence[Figure], name: str) -> None:
    """Every target stands on an adjacent field."""
    here = position(actor)
    for tgt in targets:
        there = position(tgt)
        if here is None or there is None or abstand(here, there) != 1:
            raise KampfwerteError(t("kampfwerte.not_adjacent", name=name, target=tgt.name))


def _pruefe_reaktion(targets: Sequence[Figure], name: str, stufe: int, gegen: tuple[str, int] | None,
                     daten: Einstellungen) -> None:
    """A reaction names the attack it answers, pending on its target at that level, and allowed by it."""
    m = eintrag(name, daten)
    if gegen is None:
        raise KampfwerteError(t("kampfwerte.reaction_needs", name=name, to=", ".join(m["antwort_auf"])))
    echt = vermerkt(targets[0], gegen[0])
    if echt is None and gegen[0] in NUR_VERMERKT:
        raise KampfwerteError(t("kampfwerte.reaction_nothing_pending", name=name, to=gegen[0],
                                target=targets[0].name))
    if echt is not None and echt != gegen[1]:
        raise KampfwerteError(t("kampfwerte.reaction_wrong_level", name=name, to=gegen[0], said=gegen[1],
                                target=targets[0].name, stufe=echt))
    if not reaktion_erlaubt(gegen[0], gegen[1], name, stufe, daten=daten):
        raise KampfwerteError(t("kampfwerte.reaction_refused", name=name, to=gegen[0], stufe=gegen[1]))


def schaden_dist_wuerfel(name: str, stufe: int, *, daten: Einstellungen | None = None) -> int:
    """Extra W6 of Schadenserhöhung at a level."""
    m = eintrag(name, daten or EINSTELLUNGEN.defaults())
    return _stufe(m, "bonus_wuerfel", stufe) if "bonus_wuerfel" in m else 0


def multiplikator(name: str, erfolge: int, *, daten: Einstellungen | None = None) -> int:
    """Schattensprung: ×2 at 3-4 successes, ×3 at 5 or more (the table's thresholds)."""
    steps = eintrag(name, daten or EINSTELLUNGEN.defaults()).get("multiplikator") or {}
    return max([f for at, f in steps.items() if erfolge >= int(at)], default=1)


def vorschau(actor: Figure, targets: Sequence[Figure], name: str, stufe: int, wuerfel: int | None = None, *,
             daten: Einstellungen | None = None) -> dict[str, Any]:
    """Exact before the roll: the attack's successes, P(hit), P(×2)/P(×3), P(knocked down)."""
    daten = daten or EINSTELLUNGEN.defaults()
    m = eintrag(name, daten)
    out: dict[str, Any] = {}
    if finte_gilt(actor, m):
        out["p_treffer"] = 1.0
        return out
    n = actor.value("angriff") if wuerfel is None else wuerfel
    e = erfolge_dist(n, daten.schwierigkeit)
    out["erfolge"] = e
    out["p_treffer"] = e.p_at_least(daten.mindest_erfolge)
    for at, f in sorted((m.get("multiplikator") or {}).items()):
        upper = [int(a) for a in m["multiplikator"] if int(a) > int(at)]
        out[f"p_x{f}"] = e.p_at_least(int(at)) - (e.p_at_least(min(upper)) if upper else 0.0)
    if m.get("niederwerfen") and targets:
        out["p_niedergeworfen"] = out["p_treffer"] * (1 - p_pariert(targets[0], stufe, daten))
    return out


def parade_sw(stufe: int, daten: Einstellungen) -> int:
    """The difficulty of the parry against a Wuchtschlag of ``stufe`` (Parade gegen 8/9/0)."""
    return daten.wuchtschlag_parade[stufe]


def p_pariert(target: Figure, stufe: int, daten: Einstellungen) -> float:
    """P(``target`` parries a Wuchtschlag of ``stufe`` and stays on its feet), exactly."""
    return p_gelingt(target.value("parade"), parade_sw(stufe, daten), daten=daten)


def schaden_ausdruck(schaden: str, name: str, stufe: int, daten: Einstellungen) -> str:
    """What a hit rolls: the weapon's damage and a Schadenserhöhung's extra W6."""
    extra = schaden_dist_wuerfel(name, stufe, daten=daten)
    return f"{schaden}+{extra}W6" if extra else schaden


def schaden_summe(name: str, stufe: int, wurf: int, erfolge: int, finte: int, daten: Einstellungen) -> int:
    """A hit's damage before armour: the roll, a pending Finte's +1 per level, a Gezielte Attacke's
    +2 per level, times a Schattensprung's multiplier."""
    m = eintrag(name, daten)
    return (wurf + finte + int(m.get("schaden_pro_stufe", 0)) * stufe) * multiplikator(name, erfolge, daten=daten)


def ruestung_gegen(target: Figure, name: str, stufe: int, erfolge: int, daten: Einstellungen) -> int:
    """The armour that counts against a hit: the target's, less [Stufe] where a Schattenhieb has
    at least 3 successes (never below 0)."""
    m = eintrag(name, daten)
    armour = target.value("ruestung")
    if m.get("ruestung_ignorieren") and erfolge >= int(m["ruestung_ignorieren"]):
        armour = max(0, armour - stufe)
    return armour


def lp_verlust(schaden: int, ruestung: int) -> int:
    """The LP a hit takes: its damage beyond the armour, never below 0."""
    return max(0, schaden - ruestung)


@dataclass(frozen=True)
class Einsatz:
    """What is declared for a manoeuvre: its name and level, the weapon's damage (``schaden``), a
    defence the GM marks (``abgewehrt``), the field the actor moves to (``nach``), the attack a
    reaction answers (``gegen``: name, level) and the dice of the test (``wuerfel``, default the
    sheet's ``angriff``)."""
    name: str
    stufe: int = 1
    schaden: str | None = None
    abgewehrt: bool = False
    nach: Hex | None = None
    gegen: tuple[str, int] | None = None
    wuerfel: int | None = None


@dataclass
class _Zug:
    """One manoeuvre being carried out: the request, the figures, its entry, the test so far."""
    actor: Figure
    targets: Sequence[Figure]
    e: Einsatz
    roller: Roller
    daten: Einstellungen
    karte: HexKarte | None
    m: Mapping[str, Any]
    res: Resolution
    out: dict[str, Any]
    said: list[str] = field(default_factory=list)
    erfolge: int = 0
    treffer: bool = False
    bonus: int = 0      # a pending Finte's bonus this attack uses


def ausfuehren(actor: Figure, targets: Sequence[Figure], einsatz: Einsatz, roller: Roller, *,
               karte: HexKarte | None = None, daten: Einstellungen | None = None) -> Resolution:
    """Carry out a manoeuvre (the manoeuvre tables): cost, test, effects; ``karte``: the fight's map
    (needed for pushes and position changes)."""
    daten = daten or EINSTELLUNGEN.defaults()
    e = einsatz
    ad = pruefen(actor, targets, e.name, e.stufe, e.gegen, e.schaden, daten)
    res = Resolution("kampfwerte", e.name, (actor.name,), tuple(x.name for x in targets),
                     preview=vorschau(actor, targets, e.name, e.stufe, e.wuerfel, daten=daten))
    z = _Zug(actor, targets, e, roller, daten, karte, eintrag(e.name, daten), res, {"stufe": e.stufe, "ad": ad})
    kosten_zahlen(z, ad)
    angriffsprobe(z)
    abwehr(z)
    z.out.update(erfolge=z.erfolge, treffer=z.treffer)
    for wirkung in WIRKUNGEN:
        wirkung(z)
    res.outcome = z.out
    res.summary = clauses(z.said)
    return res


def kosten_zahlen(z: _Zug, ad: int) -> None:
    """Kosten: the manoeuvre's AD are spent."""
    z.res.effects.append(Effect(z.actor.name, resource="AD", by=-ad))
    z.res.step(t("kampfwerte.step_cost", name=z.e.name, stufe=z.e.stufe, ad=ad), "Manöver: Kosten")


def angriffsprobe(z: _Zug) -> None:
    """The attack test (W10, pool ``angriff``); a pending Finte gives 6 successes without a roll.
    A manoeuvre without targets needs none."""
    who, m = z.actor.name, z.m
    z.bonus = finte_gilt(z.actor, m)
    z.treffer = not z.targets
    z.said = [t("kampfwerte.satz.setzt_ein", wer=who, manoever=z.e.name)]
    if not z.targets:
        return
    if z.bonus:
        z.erfolge, z.treffer = FINTE_ERFOLGE, True
        z.res.effects.append(Effect(who, condition=f"{FINTE}{z.bonus}", on=False))
        z.res.step(t("kampfwerte.step_feint_used", erfolge=FINTE_ERFOLGE, bonus=z.bonus), "Finte")
    else:
        n = z.actor.value("angriff") if z.e.wuerfel is None else z.e.wuerfel
        w = wuerfeln(n, z.roller, daten=z.daten)
        z.erfolge, z.treffer = w.erfolge, w.gelungen
        z.res.step(t("kampfwerte.step_test", talent=t("kampfwerte.attack"), n=n, sw=w.schwierigkeit,
                     erfolge=z.erfolge, result=t("kampfwerte.ok" if z.treffer else "kampfwerte.failed")),
                   "Manöver", *(() if w.roll is None else (w.roll,)), value=z.erfolge)
    z.said = [t("kampfwerte.satz.verfehlt" if not z.treffer else "kampfwerte.satz.kontert" if m.get("wehrt_ab")
                else "kampfwerte.satz.trifft", wer=who, ziel=listing([x.name for x in z.targets]),
                manoever=z.e.name)]


def abwehr(z: _Zug) -> None:
    """Reaktion: an attack the GM marks as defended does not hit (unless it allows no defence)."""
    if z.targets and z.e.abgewehrt and not z.m.get("keine_verteidigung"):
        z.treffer = False
        z.res.step(t("kampfwerte.step_defended", reaction=z.m.get("reaktion") or "–"), "Manöver: Reaktion")
        z.said = [sentence("kampfwerte.satz.abgewehrt", [x.name for x in z.targets], von=z.actor.name,
                           manoever=z.e.name)]


def finte(z: _Zug) -> None:
    """Finte: a hit leaves +[Stufe] for the actor's next attack (6 successes, no roll)."""
    if z.treffer and z.m.get("finte"):
        z.res.effects.append(Effect(z.actor.name, condition=f"{FINTE}{z.e.stufe}", ends="zugende"))
        z.res.step(t("kampfwerte.step_feint", stufe=z.e.stufe), "Finte")
        z.said.append(t("kampfwerte.satz.finte", wer=z.actor.name, erfolge=FINTE_ERFOLGE))


def schaden(z: _Zug) -> None:
    """The damage of a hit on each target; the LP each loses."""
    if not (z.treffer and z.e.schaden):
        return
    name, stufe, daten, m = z.e.name, z.e.stufe, z.daten, z.m
    roll = z.roller.roll(schaden_ausdruck(z.e.schaden, name, stufe, daten))
    total = schaden_summe(name, stufe, roll.total, z.erfolge, z.bonus, daten)
    each = total // len(z.targets) if m.get("schaden_geteilt") else total
    if m.get("waffe_art"):  # Dreckiger Rückzug, Schattendolch: "Waffenschaden mit Nahkampfwaffe/Wurfwaffe"
        z.res.step(t("kampfwerte.step_weapon_kind", name=name, art=m["waffe_art"]), name)
    z.res.step(t("kampfwerte.step_damage", total=total, each=each), "Manöver: Schaden", roll, value=total)
    z.out["schaden"] = {}
    for tgt in z.targets:
        armour = ruestung_gegen(tgt, name, stufe, z.erfolge, daten)
        lp = lp_verlust(each, armour)
        z.out["schaden"][tgt.name] = lp
        if lp:
            z.res.effects.append(Effect(tgt.name, resource="LP", by=-lp))
        z.res.step(t("kampfwerte.step_hit", target=tgt.name, armour=armour, lp=lp), "Manöver: Schaden")
        z.said.append(t("kampfwerte.satz.lp" if lp else "kampfwerte.satz.keine_lp", ziel=tgt.name, lp=lp))


def niederwerfen(z: _Zug) -> None:
    """Wuchtschlag: the target parries against 8/9/0 or is knocked down."""
    if not (z.treffer and z.m.get("niederwerfen")):
        return
    sw = parade_sw(z.e.stufe, z.daten)
    tgt = z.targets[0]
    w = wuerfeln(tgt.value("parade"), z.roller, sw, daten=z.daten)
    z.res.step(t("kampfwerte.step_test", talent=t("kampfwerte.parade", target=tgt.name), n=w.wuerfel, sw=sw,
                 erfolge=w.erfolge, result=t("kampfwerte.ok" if w.gelungen else "kampfwerte.failed")),
               "Wuchtschlag", *(() if w.roll is None else (w.roll,)), value=w.erfolge)
    if not w.gelungen:
        z.res.effects.append(Effect(tgt.name, condition="niedergeworfen", rounds=1, ends="zugende"))
    z.said.append(t("kampfwerte.satz.steht" if w.gelungen else "kampfwerte.satz.niedergeworfen", ziel=tgt.name))


def finte_negieren(z: _Zug) -> None:
    """Riposte: a hit negates the target's pending Finte until the round's end."""
    if not (z.treffer and z.m.get("negiert_finte") and finte_bonus(z.targets[0])):
        return
    tgt = z.targets[0].name
    gone = f"{FINTE}{finte_bonus(z.targets[0])}"
    z.res.effects += [Effect(tgt, condition=gone, on=False),
                      Effect(tgt, condition=gone + NEGIERT, rounds=1, ends="rundenende")]
    z.res.step(t("kampfwerte.step_feint_negated", target=tgt), "Riposte")
    z.said.append(t("kampfwerte.satz.finte_negiert", ziel=tgt))


def beantwortet(z: _Zug) -> None:
    """A reaction answers the pending attack: its record goes (a Riposte's negation keeps the Finte's)."""
    gegen = z.e.gegen
    if gegen is not None and (echt := vermerkt(z.targets[0], gegen[0])) is not None and not z.m.get("negiert_finte"):
        z.res.effects.append(Effect(z.targets[0].name, condition=f"{VERMERK[gegen[0]]}{echt}", on=False))


def riposte_vermerken(z: _Zug) -> None:
    """A Riposte that hit stays pending until the round's end, with the LP it took, for a Konterparade."""
    name, m, who = z.e.name, z.m, z.actor.name
    if not (z.treffer and m.get("antwort_auf") and m.get("reaktion") and name in VERMERK):
        return
    z.res.effects.append(Effect(who, condition=f"{VERMERK[name]}{z.e.stufe}", rounds=1, ends="rundenende"))
    lp = z.out.get("schaden", {}).get(z.targets[0].name, 0)
    if lp:
        z.res.effects.append(Effect(z.targets[0].name, condition=f"{RIPOSTE_SCHADEN}{lp}", rounds=1,
                                    ends="rundenende"))
    z.res.step(t("kampfwerte.step_pending", figure=who, name=name, stufe=z.e.stufe), name)
    z.said.append(t("kampfwerte.satz.anhängig", ziel=z.targets[0].name, reaktion=m["reaktion"]))


def konterparade(z: _Zug) -> None:
    """Konterparade: kontert eine Riposte und wehrt sie ab."""
    if z.m.get("wehrt_ab"):
        z.said += _riposte_abwehren(z.res, z.actor, z.treffer)


def entwaffnen(z: _Zug) -> None:
    """Entwaffnen: a hit leaves the target disarmed."""
    if z.treffer and z.m.get("entwaffnen"):
        z.res.effects.append(Effect(z.targets[0].name, condition="entwaffnet"))
        z.said.append(t("kampfwerte.satz.entwaffnet", ziel=z.targets[0].name))


def stossen(z: _Zug) -> None:
    """Starker Tritt: a hit pushes each target back."""
    if z.treffer and z.m.get("stossen"):
        z.said += _stossen(z.res, z.actor, z.targets, z.e.stufe, _noetig(z.karte))


def klingenschild(z: _Zug) -> None:
    """Klingenschild: [Stufe] parries until the actor's next turn."""
    if z.m.get("paraden"):
        z.res.effects.append(Effect(z.actor.name, condition="Klingenschild", rounds=1, ends="zugbeginn"))
        z.out["paraden"] = z.e.stufe
        z.said.append(t("kampfwerte.satz.klingenschild", wer=z.actor.name, n=z.e.stufe))


def initiative(z: _Zug) -> None:
    """Mantel-Parade: +[Stufe] initiative, added to a bonus already held."""
    if not z.m.get("initiative"):
        return
    who, stufe = z.actor.name, z.e.stufe
    alt = ini_bonus(z.actor)
    if alt:
        z.res.effects.append(Effect(who, condition=f"{INI_BONUS}{alt}", on=False))
    z.res.effects.append(Effect(who, condition=f"{INI_BONUS}{alt + stufe}"))
    z.out["initiative"] = stufe
    z.res.step(t("kampfwerte.step_initiative", figure=who, stufe=stufe, total=alt + stufe), "Mantel-Parade")
    z.said.append(t("kampfwerte.satz.initiative", wer=who, stufe=stufe))


def versetzen(z: _Zug) -> None:
    """A manoeuvre that moves the actor up to [Stufe] fields (``nach``)."""
    nach = z.e.nach
    if nach is not None:
        _versetzen(z.res, z.actor, nach, z.e.stufe, bool(z.m.get("felder")), z.e.name, _noetig(z.karte))
        z.said.append(t("kampfwerte.satz.versetzt", wer=z.actor.name, q=nach[0], r=nach[1]))


#: the effects of a manoeuvre, in the order they apply
WIRKUNGEN = (finte, schaden, niederwerfen, finte_negieren, beantwortet, riposte_vermerken, konterparade,
             entwaffnen, stossen, klingenschild, initiative, versetzen)


def _riposte_abwehren(res: Resolution, actor: Figure, gelungen: bool) -> list[str]:
    """Konterparade ("Kontert eine Riposte und wehrt sie ab"): when it succeeds, what the Riposte did
    to the actor is undone (its negated Finte holds again, the LP its counter-attack took come back).
    Either way the Riposte is answered: its marks go, so a second Konterparade has nothing to undo.
    Returns what was undone as clauses of the summary."""
    who, said = actor.name, []
    for c in actor.conditions:
        if c.startswith(FINTE) and c.endswith(NEGIERT) and c[len(FINTE):-len(NEGIERT)].isdigit():
            res.effects.append(Effect(who, condition=c, on=False))
            if gelungen:
                res.effects.append(Effect(who, condition=c[:-len(NEGIERT)]))
                res.step(t("kampfwerte.step_feint_back", figure=who, stufe=c[len(FINTE):-len(NEGIERT)]),
                         "Konterparade")
                said.append(t("kampfwerte.satz.finte_zurück", wer=who))
        elif c.startswith(RIPOSTE_SCHADEN) and c[len(RIPOSTE_SCHADEN):].isdigit():
            res.effects.append(Effect(who, condition=c, on=False))
            if gelungen:
                lp = int(c[len(RIPOSTE_SCHADEN):])
                res.effects.append(Effect(who, resource="LP", by=lp))
                res.step(t("kampfwerte.step_riposte_parried", figure=who, lp=lp), "Konterparade")
                said.append(t("kampfwerte.satz.lp_zurück", wer=who, lp=lp))
    return said


def _noetig(karte: HexKarte | None) -> HexKarte:
    if karte is None:
        raise KampfwerteError(t("kampfwerte.no_map"))
    return karte


def _versetzen(res: Resolution, actor: Figure, nach: Hex, stufe: int, erlaubt: bool, name: str,
               k: HexKarte) -> None:
    here = position(actor)
    if not erlaubt or here is None or abstand(here, nach) > stufe:
        raise KampfwerteError(t("kampfwerte.bad_shift", name=name, stufe=stufe))
    k.pruefe(nach)
    res.effects += [Effect(actor.name, condition=feld_name(here), on=False),
                    Effect(actor.name, condition=feld_name(nach))]
    res.step(t("kampfwerte.step_placed", figure=actor.name, q=nach[0], r=nach[1]), name)


def _stossen(res: Resolution, actor: Figure, targets: Sequence[Figure], stufe: int,
             k: HexKarte) -> list[str]:
    """Starker Tritt: each target [Stufe] fields straight back (stopping at the map's edge or an
    obstacle); several targets are knocked down. Returns where each lands as clauses of the summary."""
    here, said = position(actor), []
    for tgt in targets:
        there = position(tgt)
        d = (there[0] - here[0], there[1] - here[1])
        assert d in RICHTUNGEN
        to = there
        for _ in range(stufe):
            nxt = (to[0] + d[0], to[1] + d[1])
            if not k.enthaelt(nxt) or nxt in k.hindernisse:
                break
            to = nxt
        res.effects += [Effect(tgt.name, condition=feld_name(there), on=False),
                        Effect(tgt.name, condition=feld_name(to))]
        res.step(t("kampfwerte.step_placed", figure=tgt.name, q=to[0], r=to[1]), "Starker Tritt")
        if len(targets) > 1:
            res.effects.append(Effect(tgt.name, condition="niedergeworfen", rounds=1, ends="zugende"))
        said.append(t("kampfwerte.satz.gestoßen_nieder" if len(targets) > 1 else "kampfwerte.satz.gestoßen",
                      ziel=tgt.name, q=to[0], r=to[1]))
    return said
