"""Attacks with their modifiers and exact previews (seed 001).

Seed sections: "Nahkampf-Angriff", "Fernkampf-Angriffe", "Sturmangriff", "Waffe gegen einen
Sturmangriff positionieren", "Aus dem Kampf fliehen", "Parieren", "Unbewaffneter Kampf",
"Ringen und Überwältigen", "Zaubersprüche", "Modifikatoren im Kampf". An attack hits when W20 +
modifiers >= ``core.mindestwurf``. The order of given dice is listed in ``docs/osr.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...dice import Dist, Roller
from ...messages import t
from rpgkernel.rules.kit import Effect, Figure, Resolution, clauses, sentence
from .core import RINGEN, mindestwurf, p_treffer, schaden_dist
from .settings import Einstellungen, OsrError
from .sheet import Waffe, waffe_von, waffen

DECKUNG = {25: 2, 50: 4, 75: 7, 90: 10}     # Deckung: % -> AC points better
TARNUNG = {25: 1, 50: 2, 75: 3, 90: 4}      # Tarnung: a quarter, half, three quarters, nine tenths
KEIN_ANGRIFF = ("pariert", "zieht sich zurück", "rückt vor", "kein Angriff")


@dataclass
class Plan:
    """One attack before the dice: the roll needed, every modifier, the damage."""

    angreifer: str
    ziel: str
    waffe: Waffe
    mindestwurf: int
    rk: int
    herkunft: str
    mods: list[tuple[str, int]] = field(default_factory=list)
    rk_notes: list[str] = field(default_factory=list)
    faktor: int = 1
    bonus: int = 0
    schaden_expr: str = ""

    @property
    def mod(self) -> int:
        return sum(v for _, v in self.mods)

    @property
    def p(self) -> float:
        return p_treffer(self.mindestwurf, self.mod)

    @property
    def schaden(self) -> Dist:
        return schaden_dist(self.schaden_expr, self.faktor, self.bonus)

    def mods_text(self) -> str:
        return ", ".join(f"{label} {v:+d}" for label, v in self.mods) or t("osr.no_mods")

    def preview(self, into: dict[str, Any], tag: str = "", ueberlebt: float = 1.0) -> None:
        """P(hit) with every modifier, the damage on a hit and overall (a miss counts 0);
        ``ueberlebt``: the chance the attacker is still standing to strike (charge, first strike)."""
        p = self.p
        into[t("osr.p_hit", attacker=self.angreifer, target=self.ziel, weapon=self.waffe.name, tag=tag,
               mod=self.mod, need=self.mindestwurf, mods=self.mods_text(), rk=self.rk)] = p
        if ueberlebt < 1:
            p *= ueberlebt
            into[t("osr.p_survives_and_hits", attacker=self.angreifer, target=self.ziel, weapon=self.waffe.name,
                   tag=tag)] = p
        into[f"schaden{tag}:{self.ziel}"] = self.schaden.labelled(
            t("osr.damage_on_hit", weapon=self.waffe.name, target=self.ziel))
        into[f"erwartet{tag}:{self.ziel}"] = _mix(self.schaden, p).labelled(
            t("osr.damage_overall", weapon=self.waffe.name, target=self.ziel))


def _mix(d: Dist, p: float) -> Dist:
    """The damage of an attack that hits with probability p (a miss: 0)."""
    pmf = {v: q * p for v, q in d.pmf().items()}
    pmf[0] = pmf.get(0, 0.0) + (1 - p)
    return Dist.from_pmf({v: q for v, q in pmf.items() if q > 0})


def _besser(rk: int, punkte: int, settings: Einstellungen) -> int:
    """The armour class ``punkte`` better (descending: lower)."""
    return rk + punkte if settings.rk_aufsteigend else rk - punkte


def darf_angreifen(attacker: Figure, target: Figure) -> None:
    """Refuse an attack the seed does not allow this round."""
    a = attacker.name
    if attacker.has("festgehalten"):
        raise OsrError(t("osr.held_cannot_fight", figure=a))
    for c in KEIN_ANGRIFF:
        if attacker.has(c):
            raise OsrError(t("osr.no_attack_now", figure=a, condition=c))
    if attacker.has("gegen Sturm gestemmt") and not target.has("stürmt"):
        raise OsrError(t("osr.set_only_against_charge", figure=a))


@dataclass(frozen=True)
class _Lage:
    """One attack's request: the figures, the line's options, the weapon and what they imply."""

    attacker: Figure
    target: Figure
    o: Mapping[str, Any]
    settings: Einstellungen
    waffe: Waffe

    @property
    def melee(self) -> bool:
        return not self.waffe.fernkampf

    @property
    def sturm(self) -> bool:
        return bool(self.o.get("sturmangriff"))

    @property
    def hinten(self) -> bool:
        return bool(self.o.get("hinten"))

    @property
    def flanke(self) -> bool:
        return bool(self.o.get("flanke"))

    @property
    def unsichtbar(self) -> bool:
        return self.target.has("unsichtbar") and not self.o.get("sieht_unsichtbar")


def plan(attacker: Figure, target: Figure, o: Mapping[str, Any], settings: Einstellungen,
         *, waffe: Waffe | None = None, zusatz: Sequence[tuple[str, int]] = ()) -> Plan:
    """The attack of ``attacker`` on ``target`` with the options of the line (see the module docstring)."""
    lage = _Lage(attacker, target, o, settings, waffe or waffe_von(attacker, o.get("waffe")))
    zulaessig(lage)
    rk, notes = ruestungsklasse(lage)
    need, herkunft = mindestwurf(attacker, rk, settings)
    mods = modifikatoren(lage, zusatz)
    faktor, bonus = schadensfaktor(lage, notes)
    return Plan(attacker.name, target.name, lage.waffe, need, rk, herkunft, mods, notes, faktor, bonus,
                lage.waffe.schaden)


def zulaessig(lage: _Lage) -> None:
    """Refuse what the seed forbids: a charge is a melee attack (Sturmangriff); an invisible target
    needs its position known and has no rear or flank (Unsichtbarer Gegner)."""
    a, z = lage.attacker.name, lage.target.name
    if lage.sturm and not lage.melee:
        raise OsrError(t("osr.charge_melee_only", figure=a))
    if lage.unsichtbar:
        if not lage.o.get("position_bekannt"):
            raise OsrError(t("osr.invisible_position", target=z))
        if lage.hinten or lage.flanke:
            raise OsrError(t("osr.invisible_no_rear", target=z))


def ruestungsklasse(lage: _Lage) -> tuple[int, list[str]]:
    """The target's effective armour class: what it loses (shield, Dex), then Deckung and Tarnung."""
    target, settings, o = lage.target, lage.settings, lage.o
    rk, notes = int(target.value("rk")), []
    schild, ges = int(target.value("schild", 0)), int(target.value("ges_rk", 0))
    ohne_schild = [c for c, on in (("flanke", lage.flanke), ("hinten", lage.hinten),
                                   ("liegend", target.has("liegend")), ("betäubt", target.has("betäubt"))) if on]
    ohne_ges = [c for c, on in (("hinten", lage.hinten), ("liegend", target.has("liegend")),
                                ("betäubt", target.has("betäubt")), ("zaubert", target.has("zaubert")),
                                ("stürmt", target.has("stürmt"))) if on]
    if ohne_schild and schild:
        rk = _besser(rk, -schild, settings)
        notes.append(t("osr.ac_no_shield", points=schild, why=", ".join(ohne_schild)))
    if ohne_ges and ges > 0:
        rk = _besser(rk, -ges, settings)
        notes.append(t("osr.ac_no_dex", points=ges, why=", ".join(ohne_ges)))
    if target.has("stürmt") and ges <= 0:
        rk = _besser(rk, -1, settings)
        notes.append(t("osr.ac_charging_no_dex"))
    for key, table, label in (("deckung", DECKUNG, "osr.ac_cover"), ("tarnung", TARNUNG, "osr.ac_concealment")):
        if o.get(key):
            if o[key] not in table:
                raise OsrError(t("osr.bad_percent", option=key, value=o[key],
                                 allowed=", ".join(map(str, table))))
            rk = _besser(rk, table[o[key]], settings)
            notes.append(t(label, percent=o[key], points=table[o[key]]))
    return rk, notes


def modifikatoren(lage: _Lage, zusatz: Sequence[tuple[str, int]]) -> list[tuple[str, int]]:
    """The modifiers of the W20 (Modifikatoren im Kampf): strength or missile bonus, charge, rear,
    prone, stunned, invisible, the target's parry, ``zusatz`` (two weapons), the GM's bonus."""
    attacker, target, o = lage.attacker, lage.target, lage.o
    mods: list[tuple[str, int]] = []
    if lage.melee and attacker.value("angriffsbonus", 0):
        mods.append((t("osr.mod_strength"), int(attacker.value("angriffsbonus"))))
    if not lage.melee and attacker.value("fernkampfbonus", 0):
        mods.append((t("osr.mod_missile"), int(attacker.value("fernkampfbonus"))))
    for label, on, v in (("osr.mod_charge", lage.sturm, 2), ("osr.mod_rear", lage.hinten, 2),
                         ("osr.mod_prone", target.has("liegend"), 4), ("osr.mod_stunned", target.has("betäubt"), 4),
                         ("osr.mod_invisible", lage.unsichtbar, -4)):
        if on:
            mods.append((t(label), v))
    if target.has("pariert") and target.value("angriffsbonus", 0) > 0:
        mods.append((t("osr.mod_parry", target=target.name), -int(target.value("angriffsbonus"))))
    mods += list(zusatz)
    if o.get("bonus"):
        mods.append((t("osr.mod_gm"), int(o["bonus"])))
    return mods


def schadensfaktor(lage: _Lage, notes: list[str]) -> tuple[int, int]:
    """The damage's factor and bonus: double for a lance charge on a warhorse and for a weapon set
    against a charge; the strength bonus in melee."""
    attacker, target = lage.attacker, lage.target
    faktor, bonus = 1, int(attacker.value("schadensbonus", 0)) if lage.melee else 0
    if lage.sturm and lage.waffe.lanze and attacker.value("beritten", False) and attacker.value("schlachtross", False):
        faktor = 2
        notes.append(t("osr.lance_double"))
    if attacker.has("gegen Sturm gestemmt") and target.has("stürmt"):
        faktor = 2
        notes.append(t("osr.set_double"))
    return faktor, bonus


def ringen_plan(attacker: Figure, target: Figure, o: Mapping[str, Any],
                settings: Einstellungen) -> Plan:
    """A wrestling attack: 1W2-1 damage, no damage bonus (Ringen und Überwältigen)."""
    p = plan(attacker, target, {**o, "waffe": None}, settings, waffe=Waffe(t("osr.wrestling"), RINGEN))
    p.bonus = 0
    return p


def zwei_waffen(attacker: Figure, target: Figure, o: Mapping[str, Any],
                settings: Einstellungen) -> list[Plan]:
    """Zwei-Waffen-Kampf: the first two weapons, main -2, off hand (dagger or hand axe) -4, each
    plus the missile Dex adjustment, never a net bonus; both against the same target."""
    alle = waffen(attacker)
    if len(alle) < 2 or not alle[1].nebenhand_tauglich or alle[0].fernkampf:
        raise OsrError(t("osr.two_weapons", figure=attacker.name))
    dex = int(attacker.value("fernkampfbonus", 0))
    return [plan(attacker, target, o, settings, waffe=w, zusatz=[(t(label), min(0, base + dex))])
            for w, label, base in ((alle[0], "osr.mod_main_hand", -2), (alle[1], "osr.mod_off_hand", -4))]


def routine(attacker: Figure, target: Figure, o: Mapping[str, Any],
            settings: Einstellungen) -> list[Plan]:
    """Several attacks of one routine (claw/claw/bite): every listed weapon, all against the same target."""
    if o.get("zwei_waffen") or o.get("waffe"):
        raise OsrError(t("osr.routine_alone", figure=attacker.name))
    alle = waffen(attacker)
    if len(alle) < 2:
        raise OsrError(t("osr.routine_needs_weapons", figure=attacker.name))
    return [plan(attacker, target, o, settings, waffe=w) for w in alle]


def angriff_plaene(attacker: Figure, target: Figure, o: Mapping[str, Any],
                   settings: Einstellungen) -> list[Plan]:
    darf_angreifen(attacker, target)
    if o.get("sturmangriff"):
        _darf_stuermen(attacker)
    if o.get("ringen"):
        return [ringen_plan(attacker, target, o, settings)]
    if o.get("routine"):
        return routine(attacker, target, o, settings)
    if o.get("zwei_waffen"):
        return zwei_waffen(attacker, target, o, settings)
    return [plan(attacker, target, o, settings)]


def stuermend(figure: Figure) -> Figure:
    """The figure as it stands in its charge (condition ``stürmt``)."""
    return figure.with_condition("stürmt")


def erstschlag(attacker: Figure, target: Figure, o: Mapping[str, Any],
               settings: Einstellungen) -> tuple[Plan | None, str]:
    """Sturmangriff: a defender with a longer weapon strikes first unless it already acted this round.

    Returns the defender's attack on the charging figure (None when it does not strike first)
    and, when a longer weapon does not strike first, why not."""
    if not o.get("sturmangriff"):
        return None, ""
    mine = Waffe(t("osr.wrestling"), RINGEN) if o.get("ringen") else waffe_von(attacker, o.get("waffe"))
    theirs, z = waffe_von(target), target.name
    if theirs.fernkampf or (theirs.laenge or 0) <= (mine.laenge or 0):
        return None, ""
    if target.has("hat gehandelt"):
        return None, t("osr.first_strike_acted", target=z, weapon=theirs.name)
    for c in ("schläft", "tot"):
        if target.has(c):
            return None, t("osr.first_strike_cannot", target=z, weapon=theirs.name, why=c)
    charger = stuermend(attacker)
    try:
        darf_angreifen(target, charger)
    except OsrError as why:
        return None, t("osr.first_strike_cannot", target=z, weapon=theirs.name, why=str(why))
    return plan(target, charger, {}, settings, waffe=theirs), ""


def p_faellt(erst: Plan, charger: Figure) -> float:
    """P(the first strike takes the charging figure to 0 TP or below): it then does not strike."""
    return erst.p * erst.schaden.p_at_least(charger.current("TP"))


def _darf_stuermen(attacker: Figure) -> None:
    """Sturmangriff: once every 10 rounds; maximally encumbered only mounted on an unencumbered mount."""
    a = attacker.name
    if attacker.has("hat gestürmt"):
        raise OsrError(t("osr.charge_once", figure=a))
    if attacker.value("maximal_belastet", False) and not (
            attacker.value("beritten", False) and not attacker.value("reittier_maximal_belastet", False)):
        raise OsrError(t("osr.charge_encumbered", figure=a))


def vorschau(attacker: Figure, targets: Sequence[Figure], o: Mapping[str, Any],
             settings: Einstellungen) -> dict[str, Any]:
    """Exact before the roll, per possible target (each 1/n when chosen at random)."""
    out: dict[str, Any] = {}
    if len(targets) > 1:
        for z in targets:
            out[t("osr.p_target", target=z.name)] = 1 / len(targets)
    for z in targets:
        plaene = angriff_plaene(attacker, z, o, settings)
        erst, _ = erstschlag(attacker, z, o, settings)
        ueberlebt = 1.0
        if erst is not None:
            erst.preview(out, tag=t("osr.first_strike_tag"))
            faellt = p_faellt(erst, attacker)
            out[t("osr.p_charger_falls", attacker=attacker.name, target=z.name)] = faellt
            ueberlebt = 1 - faellt
        for i, p in enumerate(plaene):
            p.preview(out, tag=f" #{i + 1}" if i else "", ueberlebt=ueberlebt)
    return out


def zufallsziel(res: Resolution, targets: Sequence[Figure], roller: Roller,
                fernkampf: bool) -> Figure:
    """The target of an attack into a melee: chosen at random (W<n>) among those named."""
    if len(targets) == 1:
        return targets[0]
    roll = roller.roll(f"W{len(targets)}")
    chosen = targets[roll.total - 1]
    res.step(t("osr.random_target_missile" if fernkampf else "osr.random_target", n=len(targets),
               roll=roll.total, target=chosen.name),
             "Fernkampf-Angriffe" if fernkampf else "Nahkampf-Angriff", roll, value=roll.total)
    return chosen


def schlag(res: Resolution, p: Plan, roller: Roller, rule: str) -> tuple[bool, int]:
    """Roll one attack into ``res``: whether it hit, and the damage (0 on a miss)."""
    for note in p.rk_notes:
        res.step(note, "Modifikatoren im Kampf")
    roll = roller.roll("W20")
    total = roll.total + p.mod
    hit = total >= p.mindestwurf
    res.step(t("osr.attack_roll" if p.mods else "osr.attack_roll_plain", attacker=p.angreifer, target=p.ziel,
               weapon=p.waffe.name, roll=roll.total, mods=p.mods_text(), total=total, need=p.mindestwurf,
               how=p.herkunft, result=t("osr.hit" if hit else "osr.miss")), rule, roll, value=total)
    if not hit:
        return False, 0
    dmg = roller.roll(p.schaden_expr)
    amount = max(0, dmg.total * p.faktor + p.bonus)
    if p.faktor == 1 and not p.bonus and amount == dmg.total:
        res.step(t("osr.damage_plain", amount=amount, target=p.ziel), rule, dmg, value=amount)
    else:
        res.step(t("osr.damage_roll", roll=dmg.total, faktor=f" × {p.faktor}" if p.faktor > 1 else "",
                   bonus=f" {p.bonus:+d}" if p.bonus else "", amount=amount, target=p.ziel), rule, dmg,
                 value=amount)
    return True, amount


def schaden_anwenden(res: Resolution, target: Figure, amount: int) -> list[str]:
    """Hit points down; a caster who takes damage loses the spell (Zaubersprüche). Returns what
    befell the target as clauses of the summary (the TP left, a lost spell). How far below 0 the TP
    may fall the seed does not say: the campaign keeps them within their limits (0, or the GM's
    ``untergrenzen``), and the card says where that held the damage back."""
    if amount <= 0:
        return []
    z = target.name
    res.effects.append(Effect(z, "TP", -amount))
    left = target.current("TP") - amount
    said = [t("osr.satz.tp", ziel=z, tp=left) if left > 0 else t("osr.satz.tp_null", ziel=z)]
    if left <= 0:
        res.step(t("osr.hp_zero", target=z), "Kampf")
    if target.has("zaubert"):
        res.effects.append(Effect(z, condition="zaubert", on=False))
        res.step(t("osr.spell_lost", target=z), "Zaubersprüche")
        said.append(t("osr.satz.zauber_verloren", ziel=z))
    return said


def schlag_satz(angreifer: str, ziel: str, treffer: int, angriffe: int, schaden: int) -> str:
    """An attack's hits (of ``angriffe`` attacks) and damage as a clause of the summary."""
    if angriffe > 1:
        return t("osr.satz.trifft_mehrfach" if treffer else "osr.satz.verfehlt_mehrfach", wer=angreifer,
                 ziel=ziel, treffer=treffer, angriffe=angriffe, schaden=schaden)
    key = "osr.satz.verfehlt" if not treffer else "osr.satz.trifft" if schaden else "osr.satz.trifft_ohne"
    return t(key, wer=angreifer, ziel=ziel, schaden=schaden)


def angriff(attacker: Figure, targets: Sequence[Figure], roller: Roller,
            o: Mapping[str, Any], settings: Einstellungen) -> Resolution:
    """A melee or missile attack, a charge, two weapons, a wrestling or overbearing attack."""
    res = Resolution("osr", "angriff", (attacker.name,), tuple(z.name for z in targets))
    res.preview = vorschau(attacker, targets, o, settings)
    fern = waffe_von(attacker, o.get("waffe")).fernkampf and not o.get("ringen")
    target = zufallsziel(res, targets, roller, fern)
    a, z = attacker.name, target.name
    said: list[str] = []
    res.effects.append(Effect(a, condition="hat gehandelt", rounds=1))
    if o.get("sturmangriff"):
        res.effects += [Effect(a, condition="stürmt", rounds=1), Effect(a, condition="hat gestürmt", rounds=10)]
        if not zuerst_getroffen(res, attacker, target, roller, o, settings, said):
            res.outcome = {"ziel": z, "treffer": 0, "schaden": 0, "gefallen": True}
            res.summary = clauses([*said, t("osr.satz.greift_nicht_an", wer=a)])
            return res
    if target.has("schläft"):
        if o.get("toetung") is None:
            raise OsrError(t("osr.sleeping_needs_chance", target=z))
        roll = roller.roll("W%")
        killed = roll.total <= o["toetung"]
        res.step(t("osr.sleeping_kill" if killed else "osr.sleeping_no_kill", target=z, roll=roll.total,
                   chance=o["toetung"]), "Schlafender Gegner", roll, value=roll.total)
        if killed:
            res.effects.append(Effect(z, condition="tot"))
            res.outcome = {"ziel": z, "getötet": True}
            res.summary = t("osr.satz.im_schlaf", wer=a, ziel=z)
            return res
    rule = "Ringen und Überwältigen" if o.get("ringen") else (
        "Fernkampf-Angriffe" if fern else "Sturmangriff" if o.get("sturmangriff") else "Nahkampf-Angriff")
    total, hits = 0, 0
    plaene = angriff_plaene(attacker, target, o, settings)
    for p in plaene:
        hit, dmg = schlag(res, p, roller, rule)
        hits, total = hits + hit, total + dmg
    said.append(schlag_satz(a, z, hits, len(plaene), total))
    folgen = schaden_anwenden(res, target, total)
    if o.get("ringen") and hits:
        res.effects.append(Effect(z, condition="festgehalten"))
        res.step(t("osr.held", target=z, by=a), "Ringen und Überwältigen")
        said.append(t("osr.satz.festgehalten", ziel=z))
        if o.get("sturmangriff"):
            res.effects.append(Effect(z, condition="liegend"))
            res.step(t("osr.overborne", target=z), "Ringen und Überwältigen")
            said[-1] = t("osr.satz.überwältigt", ziel=z)
    res.outcome = {"ziel": z, "treffer": hits, "schaden": total}
    res.summary = clauses([*said, *folgen])
    return res


def zuerst_getroffen(res: Resolution, attacker: Figure, target: Figure, roller: Roller,
                     o: Mapping[str, Any], settings: Einstellungen, said: list[str]) -> bool:
    """The defender's first strike against a charge, applied (its clauses of the summary added to
    ``said``); False when it takes the charging figure out (0 TP or below: it does not strike, and
    gets no +2)."""
    erst, warum = erstschlag(attacker, target, o, settings)
    if warum:
        res.step(warum, "Sturmangriff")
    if erst is None:
        return True
    res.step(t("osr.first_strike", target=erst.angreifer, weapon=erst.waffe.name), "Sturmangriff")
    res.effects.append(Effect(erst.angreifer, condition="hat gehandelt", rounds=1))
    hit, dmg = schlag(res, erst, roller, "Sturmangriff")
    said.append(t("osr.satz.erstschlag_trifft" if hit else "osr.satz.erstschlag_verfehlt", wer=erst.angreifer,
                  ziel=erst.ziel, schaden=dmg))
    said += schaden_anwenden(res, stuermend(attacker), dmg)
    if attacker.current("TP") - dmg > 0:
        return True
    res.step(t("osr.charger_falls", attacker=attacker.name), "Sturmangriff")
    return False


def freie_angriffe(flieher: Figure, gegner: Sequence[Figure], settings: Einstellungen,
                   o: Mapping[str, Any] | None = None) -> tuple[list[Plan], list[str], list[str]]:
    """Aus dem Kampf fliehen: each opponent in melee gets an immediate extra attack at +4.

    Only opponents that may attack this round (``darf_angreifen`` against the fleeing figure):
    one held, parrying, withdrawing, advancing cautiously or with a weapon set against a charge
    (unless the fleeing figure is charging) gets none. Returns the extra attacks, why the others
    get none, and their names."""
    plans, gesperrt, ohne = [], [], []
    for g in gegner:
        try:
            darf_angreifen(g, flieher)
        except OsrError as why:
            gesperrt.append(str(why))
            ohne.append(g.name)
            continue
        plans.append(plan(g, flieher, o or {}, settings, zusatz=[(t("osr.mod_flee"), 4)]))
    return plans, gesperrt, ohne


def _plaene_vorschau(plans: Sequence[Plan]) -> dict[str, Any]:
    preview: dict[str, Any] = {}
    for p in plans:
        p.preview(preview, tag=f" ({p.angreifer})")
    return preview


def flucht_vorschau(flieher: Figure, gegner: Sequence[Figure], settings: Einstellungen,
                    o: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Exact before the roll: each extra attack on the fleeing figure (``freie_angriffe``)."""
    return _plaene_vorschau(freie_angriffe(flieher, gegner, settings, o)[0])


def fliehen(flieher: Figure, gegner: Sequence[Figure], roller: Roller | None,
            settings: Einstellungen, o: Mapping[str, Any] | None = None) -> Resolution:
    """Aus dem Kampf fliehen: the fleeing figure takes each opponent's extra attack at +4
    (``freie_angriffe``); without ``roller`` only the preview (``flucht_vorschau``)."""
    res = Resolution("osr", "fliehen", (flieher.name,), tuple(g.name for g in gegner))
    plans, gesperrt, ohne = freie_angriffe(flieher, gegner, settings, o)
    res.preview = _plaene_vorschau(plans)
    if roller is None:
        return res
    res.effects.append(Effect(flieher.name, condition="flieht", rounds=1))
    res.step(t("osr.flees", figure=flieher.name), "Aus dem Kampf fliehen")
    for why in gesperrt:
        res.step(t("osr.flee_no_free_attack", why=why), "Aus dem Kampf fliehen")
    said, total = [t("osr.satz.flieht", wer=flieher.name)], 0
    if not gegner:
        said.append(t("osr.satz.kein_freier_angriff"))
    for p in plans:
        hit, dmg = schlag(res, p, roller, "Aus dem Kampf fliehen")
        said.append(schlag_satz(p.angreifer, p.ziel, hit, 1, dmg))
        total += dmg
    if ohne:
        said.append(sentence("osr.satz.kein_angriff_mit_vier", ohne))
    said += schaden_anwenden(res, flieher, total)
    res.outcome = {"schaden": total}
    res.summary = clauses(said)
    return res
