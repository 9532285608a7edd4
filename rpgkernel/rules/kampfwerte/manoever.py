"""The manoeuvres (seed: the manoeuvre tables of Athletik and Körperbeherrschung) as data
(``data/manoever.yaml``): AD cost per level, targets, conditions (``[Stufe] > NK des Gegners``),
weapon requirements, the reaction each allows and its effects.

The attack test is the W10 test of the GM data (pool: the sheet's ``angriff``); a pending Finte
gives the next attack 6 successes without a roll. Defences ("Verteidigung") are not in the seed:
the GM marks a defended attack with ``abgewehrt``.
"""

from __future__ import annotations

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
    who = actor.name
    if not 1 <= stufe <= MAX_STUFE:
        raise KampfwerteError(t("kampfwerte.bad_level", max=MAX_STUFE))
    if beherrscht(actor, name) < stufe:
        raise KampfwerteError(t("kampfwerte.not_mastered", figure=who, name=name, stufe=stufe,
                                has=beherrscht(actor, name)))
    n, want = len(targets), m.get("ziele", "eins")
    if (want == "eins" and n != 1) or (want == "keine" and n) or (want == "stufe" and not 1 <= n <= stufe):
        raise KampfwerteError(t(f"kampfwerte.targets_{want}", name=name, stufe=stufe))
    ad = kosten(name, stufe, n, daten=daten)
    have = actor.current("AD")
    if ad > have:
        raise KampfwerteError(t("kampfwerte.no_ad", figure=who, name=name, cost=ad, have=have))
    for tgt in targets:
        nk = tgt.value("NK")
        if m.get("bedingung") == "nk" and not stufe > nk:
            raise KampfwerteError(t("kampfwerte.nk", name=name, stufe=stufe, target=tgt.name, nk=nk))
        if m.get("entwaffnen") and tgt.value("angriffsstufe") > actor.value("angriffsstufe"):
            raise KampfwerteError(t("kampfwerte.disarm_level", target=tgt.name))
    if schaden and (m.get("schaden") is False or not targets):
        raise KampfwerteError(t("kampfwerte.no_damage", name=name))
    if m.get("waffe") and not any(m["waffe"].lower() in w.lower() for w in actor.value("waffen", [])):
        raise KampfwerteError(t("kampfwerte.needs_weapon", name=name, weapon=m["waffe"]))
    if m.get("angrenzend") or m.get("stossen"):
        here = position(actor)
        for tgt in targets:
            there = position(tgt)
            if here is None or there is None or abstand(here, there) != 1:
                raise KampfwerteError(t("kampfwerte.not_adjacent", name=name, target=tgt.name))
    if m.get("antwort_auf"):
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
    return ad


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


def ausfuehren(actor: Figure, targets: Sequence[Figure], name: str, stufe: int, roller: Roller, *,
               schaden: str | None = None, abgewehrt: bool = False, nach: Hex | None = None,
               gegen: tuple[str, int] | None = None, wuerfel: int | None = None, karte: HexKarte | None = None,
               daten: Einstellungen | None = None) -> Resolution:
    """Carry out a manoeuvre (the manoeuvre tables): cost, test, effects; ``karte``: the fight's map
    (needed for pushes and position changes)."""
    daten = daten or EINSTELLUNGEN.defaults()
    m = eintrag(name, daten)
    ad = pruefen(actor, targets, name, stufe, gegen, schaden, daten)
    who = actor.name
    res = Resolution("kampfwerte", name, (who,), tuple(x.name for x in targets),
                     preview=vorschau(actor, targets, name, stufe, wuerfel, daten=daten))
    res.effects.append(Effect(who, resource="AD", by=-ad))
    res.step(t("kampfwerte.step_cost", name=name, stufe=stufe, ad=ad), "Manöver: Kosten")
    out: dict[str, Any] = {"stufe": stufe, "ad": ad}
    erfolge, treffer = 0, not targets
    bonus = finte_gilt(actor, m)
    ziele = [x.name for x in targets]
    said = [t("kampfwerte.satz.setzt_ein", wer=who, manoever=name)]
    if targets:
        if bonus:
            erfolge, treffer = FINTE_ERFOLGE, True
            res.effects.append(Effect(who, condition=f"{FINTE}{bonus}", on=False))
            res.step(t("kampfwerte.step_feint_used", erfolge=FINTE_ERFOLGE, bonus=bonus), "Finte")
        else:
            n = actor.value("angriff") if wuerfel is None else wuerfel
            w = wuerfeln(n, roller, daten=daten)
            erfolge, treffer = w.erfolge, w.gelungen
            res.step(t("kampfwerte.step_test", talent=t("kampfwerte.attack"), n=n, sw=w.schwierigkeit,
                       erfolge=erfolge, result=t("kampfwerte.ok" if treffer else "kampfwerte.failed")),
                     "Manöver", *(() if w.roll is None else (w.roll,)), value=erfolge)
        said = [t("kampfwerte.satz.verfehlt" if not treffer else "kampfwerte.satz.kontert" if m.get("wehrt_ab")
                  else "kampfwerte.satz.trifft", wer=who, ziel=listing(ziele), manoever=name)]
        if abgewehrt and not m.get("keine_verteidigung"):
            treffer = False
            res.step(t("kampfwerte.step_defended", reaction=m.get("reaktion") or "–"), "Manöver: Reaktion")
            said = [sentence("kampfwerte.satz.abgewehrt", ziele, von=who, manoever=name)]
    out.update(erfolge=erfolge, treffer=treffer)
    if treffer and m.get("finte"):
        res.effects.append(Effect(who, condition=f"{FINTE}{stufe}", ends="zugende"))
        res.step(t("kampfwerte.step_feint", stufe=stufe), "Finte")
        said.append(t("kampfwerte.satz.finte", wer=who, erfolge=FINTE_ERFOLGE))
    if treffer and schaden:
        said += _schaden(res, out, targets, name, stufe, roller, schaden, erfolge, bonus, daten)
    if treffer and m.get("niederwerfen"):
        sw = parade_sw(stufe, daten)
        tgt = targets[0]
        w = wuerfeln(tgt.value("parade"), roller, sw, daten=daten)
        res.step(t("kampfwerte.step_test", talent=t("kampfwerte.parade", target=tgt.name), n=w.wuerfel, sw=sw,
                   erfolge=w.erfolge, result=t("kampfwerte.ok" if w.gelungen else "kampfwerte.failed")),
                 "Wuchtschlag", *(() if w.roll is None else (w.roll,)), value=w.erfolge)
        if not w.gelungen:
            res.effects.append(Effect(tgt.name, condition="niedergeworfen", rounds=1, ends="zugende"))
        said.append(t("kampfwerte.satz.steht" if w.gelungen else "kampfwerte.satz.niedergeworfen", ziel=tgt.name))
    if treffer and m.get("negiert_finte") and finte_bonus(targets[0]):
        finte = f"{FINTE}{finte_bonus(targets[0])}"
        res.effects += [Effect(targets[0].name, condition=finte, on=False),
                        Effect(targets[0].name, condition=finte + NEGIERT, rounds=1, ends="rundenende")]
        res.step(t("kampfwerte.step_feint_negated", target=targets[0].name), "Riposte")
        said.append(t("kampfwerte.satz.finte_negiert", ziel=targets[0].name))
    if gegen is not None and (echt := vermerkt(targets[0], gegen[0])) is not None and not m.get("negiert_finte"):
        res.effects.append(Effect(targets[0].name, condition=f"{VERMERK[gegen[0]]}{echt}", on=False))
    if treffer and m.get("antwort_auf") and m.get("reaktion") and name in VERMERK:  # a Riposte that hit
        res.effects.append(Effect(who, condition=f"{VERMERK[name]}{stufe}", rounds=1, ends="rundenende"))
        lp = out.get("schaden", {}).get(targets[0].name, 0)
        if lp:
            res.effects.append(Effect(targets[0].name, condition=f"{RIPOSTE_SCHADEN}{lp}", rounds=1,
                                      ends="rundenende"))
        res.step(t("kampfwerte.step_pending", figure=who, name=name, stufe=stufe), name)
        said.append(t("kampfwerte.satz.anhängig", ziel=targets[0].name, reaktion=m["reaktion"]))
    if m.get("wehrt_ab"):
        said += _riposte_abwehren(res, actor, treffer)
    if treffer and m.get("entwaffnen"):
        res.effects.append(Effect(targets[0].name, condition="entwaffnet"))
        said.append(t("kampfwerte.satz.entwaffnet", ziel=targets[0].name))
    if treffer and m.get("stossen"):
        said += _stossen(res, actor, targets, stufe, _noetig(karte))
    if m.get("paraden"):
        res.effects.append(Effect(who, condition="Klingenschild", rounds=1, ends="zugbeginn"))
        out["paraden"] = stufe
        said.append(t("kampfwerte.satz.klingenschild", wer=who, n=stufe))
    if m.get("initiative"):
        alt = ini_bonus(actor)
        if alt:
            res.effects.append(Effect(who, condition=f"{INI_BONUS}{alt}", on=False))
        res.effects.append(Effect(who, condition=f"{INI_BONUS}{alt + stufe}"))
        out["initiative"] = stufe
        res.step(t("kampfwerte.step_initiative", figure=who, stufe=stufe, total=alt + stufe), "Mantel-Parade")
        said.append(t("kampfwerte.satz.initiative", wer=who, stufe=stufe))
    if nach is not None:
        _versetzen(res, actor, nach, stufe, bool(m.get("felder")), name, _noetig(karte))
        said.append(t("kampfwerte.satz.versetzt", wer=who, q=nach[0], r=nach[1]))
    res.outcome = out
    res.summary = clauses(said)
    return res


def _schaden(res: Resolution, out: dict[str, Any], targets: Sequence[Figure], name: str, stufe: int,
             roller: Roller, schaden: str, erfolge: int, finte: int, daten: Einstellungen) -> list[str]:
    """The damage of a hit on each target; the LP each loses as clauses of the summary."""
    m = eintrag(name, daten)
    roll = roller.roll(schaden_ausdruck(schaden, name, stufe, daten))
    total = schaden_summe(name, stufe, roll.total, erfolge, finte, daten)
    each = total // len(targets) if m.get("schaden_geteilt") else total
    if m.get("waffe_art"):  # Dreckiger Rückzug, Schattendolch: "Waffenschaden mit Nahkampfwaffe/Wurfwaffe"
        res.step(t("kampfwerte.step_weapon_kind", name=name, art=m["waffe_art"]), name)
    res.step(t("kampfwerte.step_damage", total=total, each=each), "Manöver: Schaden", roll, value=total)
    out["schaden"], said = {}, []
    for tgt in targets:
        armour = ruestung_gegen(tgt, name, stufe, erfolge, daten)
        lp = lp_verlust(each, armour)
        out["schaden"][tgt.name] = lp
        if lp:
            res.effects.append(Effect(tgt.name, resource="LP", by=-lp))
        res.step(t("kampfwerte.step_hit", target=tgt.name, armour=armour, lp=lp), "Manöver: Schaden")
        said.append(t("kampfwerte.satz.lp" if lp else "kampfwerte.satz.keine_lp", ziel=tgt.name, lp=lp))
    return said


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
