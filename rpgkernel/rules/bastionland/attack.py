"""Attacks, feats and gambits (seed 003).

Seed sections: "Angriffe" (steps 1-7), "Besondere Angriffe", "Feats"
(Smite, Deny, Focus, Fatigued), "Gambits", "Strong Gambit", "Besondere
Kampfsituationen", "Kriegsscharen", "An vorderster Front".

Order of the dice, for given dice (``Roller(dice=[...])``): the attack dice
(each attacker's weapons and shield in sheet order, the mount's trample die,
bonus dice, Smite's W12, a warband's W12); then per target: each Deny's SPI
save; each gambit's VIG save (and a Dismount's W6); each Focus: its gambit's
VIG save, then the CLA save; Smite's VIG save; the scar die. Smite's save
comes after the attack resolves (simpler to play with given dice; its
effect holds either way). A Blast rolls the attack dice per target, every
target's before the decisions on the first are carried out.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Callable, Mapping, Sequence

from ...dice import Dist, Roll, Roller, dist
from ...dice.exact import nth_highest, top_two
from ...errors import DiceLimitError
from ...messages import t
from rpgkernel.rules.kit import Choice, Effect, Figure, Resolution, listing, sentence
from .core import names, save, save_chance
from .damage import damage, ignores, out_of_fight
from .settings import EINSTELLUNGEN, BastionlandError
from .sheet import kind, mount_die, mounted, virtue, weapons

GAMBIT_MIN = 4                          # Gambits: a discarded die showing 4+
STRONG_GAMBIT_MIN = 8                   # Strong Gambit: a die of 8+ in melee
SAVE_EXEMPT = ("Bolster", "Move")      # Gambits: no VIG save against these
STRONG = ("keine_probe", "größer")      # Strong Gambit: the two options
WARBAND_BONUS = "W12"                   # Kriegsscharen: attacks on individuals
SMITE_BONUS = "W12"                     # Smite
IMPAIRED_DIE = "W4"                     # Besondere Angriffe: Beeinträchtigt
PREVIEW_CELLS = 10_000                  # dice x faces an exact preview may take (about 0.1 s)


def _as_list(value: Any) -> list:
    if value is None or value == ():
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _feat_user(name: str, feat: str, ctx: "_Context") -> bool:
    """Checks one use of a feat: not Fatigued before, once per attack per participant."""
    fig = ctx.figures.get(name)
    if fig is None:
        raise BastionlandError(t("bastionland.unknown_figure", figure=name))
    if fig.has("Fatigued"):
        raise BastionlandError(t("bastionland.fatigued", figure=name, feat=feat))
    if (name, feat) in ctx.used:
        raise BastionlandError(t("bastionland.feat_twice", figure=name, feat=feat))
    ctx.used.add((name, feat))
    return name not in ctx.fatigued


@dataclass
class _Context:
    figures: dict[str, Figure]
    roller: Roller
    melee: bool
    gambits: Mapping[str, Mapping[str, Any]]
    used: set = field(default_factory=set)
    fatigued: set = field(default_factory=set)
    impaired: set = field(default_factory=set)     # attackers whose attacks are impaired: no feats


def impaired(figure: Figure, declared: Sequence[str] = ()) -> str | None:
    """Why ``figure``'s attacks are impaired, or None (Besondere Angriffe; Virtue Loss; Waffenloser Kampf)."""
    if figure.name in declared:
        return t("bastionland.impaired_declared")
    if figure.has("beeinträchtigt"):
        return t("bastionland.impaired_condition")
    if kind(figure) in ("Person", "Kriegsschar") and virtue(figure, "SPI") == 0:
        return t("bastionland.impaired_spi")
    if not figure.value("waffen", None) and not figure.value("natuerliche_waffen", False):
        return t("bastionland.impaired_unarmed")
    return None


def attack_pool(attackers: Sequence[Figure], target: Figure, *, bonus: Sequence[str] = (),
                impaired_by: Sequence[str] = (), charge: Sequence[str] = (), smite_w12: bool = False,
                res: Resolution | None = None) -> list[str]:
    """The attack dice: weapons and shield, trample, bonus dice, Smite, warband (Angriffe; Bonuswürfel).

    An impaired attacker adds a single W4; bonus dice need at least one
    attacker who is not impaired. A charging rider adds the mount's trample
    die against a target on foot (Berittener Kampf).
    """
    pool: list[str] = []
    any_whole = False
    for a in attackers:
        why = impaired(a, impaired_by)
        if why:
            pool.append(IMPAIRED_DIE)
            if res is not None:
                res.step(t("bastionland.impaired", figure=a.name, why=why), "Besondere Angriffe")
            continue
        any_whole = True
        pool += [w.die for w in weapons(a)]
        if a.name in charge and mounted(a) and not mounted(target):
            die = mount_die(a)
            if die:
                pool.append(die)
                if res is not None:
                    res.step(t("bastionland.trample", figure=a.name, die=die), "Berittener Kampf")
    if bonus and not any_whole and res is not None:
        res.step(t("bastionland.no_bonus_impaired"), "Besondere Angriffe")
    if any_whole:
        pool += list(bonus)
        if smite_w12:
            pool.append(SMITE_BONUS)
        if any(kind(a) == "Kriegsschar" for a in attackers) and kind(target) == "Person":
            pool.append(WARBAND_BONUS)
            if res is not None:
                res.step(t("bastionland.warband_bonus"), "Kriegsscharen")
    return pool


def _die(d: str) -> Dist:
    return Dist.die(int(d[1:])) if d[1:].isdigit() else dist(d)


def damage_dist(pool: Sequence[str], armour: int, bolster: int = 0, denied: int = 0) -> Dist:
    """The exact damage after armour: the highest die left after ``denied`` Denies (Angriffe, steps 4-7)."""
    return (nth_highest([_die(d) for d in pool], 1 + denied) + (bolster - armour)).clip(lower=0)


def damage_total(highest: int, armour: int, bolster: int = 0) -> int:
    """The damage of an attack (Angriffe, steps 4-7): the highest remaining die (0 if none is left)
    plus Bolster minus the target's armour, at least 0."""
    return max(0, highest + bolster - armour)


def deny_outcomes(pool: Sequence[str], armour: int,
                  denies: Callable[[Sequence[int]], bool]) -> dict[tuple[int, bool], float]:
    """The exact chance of each (damage, denied) of an attack without gambits whose target denies the
    highest die where ``denies(faces)`` says so, given the two highest faces, highest first (one face
    for a single die; Angriffe, steps 1, 2 and 4-7)."""
    out: dict[tuple[int, bool], float] = {}
    for (top, second), p in top_two([_die(d) for d in pool]).items():
        denied = bool(denies([top] if second is None else [top, second]))
        kept = (0 if second is None else second) if denied else top
        key = (damage_total(kept, armour), denied)
        out[key] = out.get(key, 0.0) + p
    return out


@lru_cache(maxsize=64)
def _highest_two(pool: tuple[str, ...]) -> tuple[Dist, Dist | None]:
    """The highest and the second highest die of a pool (None for one die), for every target of a
    Blast at once; refused beyond ``PREVIEW_CELLS`` (nth_highest walks every face of every die)."""
    dice = [_die(d) for d in pool]
    cells = len(dice) * (max(d.max for d in dice) - min(d.min for d in dice) + 1)
    if cells > PREVIEW_CELLS:
        raise DiceLimitError(t("bastionland.preview_too_costly", n=len(dice), cells=cells, max=PREVIEW_CELLS))
    return nth_highest(dice, 1), nth_highest(dice, 2) if len(dice) > 1 else None


def attack_preview(pool: Sequence[str], armour: int, bolster: int = 0, melee: bool = True) -> dict[str, Any]:
    """Before the roll: damage after armour with and without Deny, and gambit chances (Angriffe).

    ``p_gambit``: at least one die shows 4+ (a die that may be discarded for
    a gambit); ``p_gambit_mit_deny``: the same after Deny removed the highest
    (the second highest shows 4+); ``p_strong``: a die of 8+ (melee only).
    """
    highest, second = _highest_two(tuple(pool))
    out: dict[str, Any] = {
        "schaden": (highest + (bolster - armour)).clip(lower=0).labelled(t("bastionland.preview_damage"))}
    if second is not None:
        out["schaden_mit_deny"] = (second + (bolster - armour)).clip(lower=0).labelled(t("bastionland.preview_deny"))
    out["p_gambit"] = highest.p_at_least(GAMBIT_MIN)
    if second is not None:
        out["p_gambit_mit_deny"] = second.p_at_least(GAMBIT_MIN)
    if melee:
        out["p_strong"] = highest.p_at_least(STRONG_GAMBIT_MIN)
    return out


def _gambit(res: Resolution, ctx: _Context, target: Figure, name: str, face: int | None,
            strong: str | None, extra: list[tuple[str, int]], by: str = "") -> int:
    """One gambit's effect on the target; returns its Bolster damage (Gambits; Strong Gambit)."""
    spec = ctx.gambits.get(name)
    if spec is None:
        raise BastionlandError(t("bastionland.unknown_gambit", gambit=name, known=", ".join(ctx.gambits)))
    if strong is not None:
        if strong not in STRONG:
            raise BastionlandError(t("bastionland.bad_strong", option=strong, known=", ".join(STRONG)))
        if face is None or face < STRONG_GAMBIT_MIN or not ctx.melee:
            raise BastionlandError(t("bastionland.not_strong", face=face if face is not None else "–"))
    tname = target.name
    res.step(t("bastionland.gambit", gambit=name, text=spec.get("text", ""), figure=tname,
               face=face if face is not None else "Focus", strong=t(f"bastionland.strong_{strong}") if strong else ""),
             "Gambits" + ("; Strong Gambit" if strong else ""))
    resisted = False
    if name not in SAVE_EXEMPT and strong != "keine_probe":
        resisted = save(res, target, "VIG", ctx.roller, "Gambits")
    if resisted:
        res.step(t("bastionland.gambit_resisted", figure=tname, gambit=name), "Gambits")
        res.outcome.setdefault("gambits", []).append({"gambit": name, "widerstanden": True, "von": by})
        return 0
    res.outcome.setdefault("gambits", []).append({"gambit": name, "widerstanden": False, "von": by,
                                                  "stark": strong})
    if strong == "größer" and spec.get("groesser"):
        res.step(t("bastionland.gambit_bigger", text=spec["groesser"]), "Strong Gambit")
    if spec.get("zustand"):
        res.effects.append(Effect(tname, condition=spec["zustand"]))
    if spec.get("abwurf"):
        roll = ctx.roller.roll("W6")
        extra.append(("W6", roll.total))
        res.step(t("bastionland.thrown_in_fight", figure=tname, roll=roll.total), "Berittener Kampf", roll,
                 value=roll.total)
    return 1 if name == "Bolster" else 0  # a bigger effect never raises Bolster's damage


def _norm_deny(value: Any) -> list[dict[str, Any]]:
    out = []
    for d in _as_list(value):
        out.append({"by": d, "würfel": None} if isinstance(d, str) else {"würfel": None, **d})
    return out


def _norm_gambits(gambits: Any, bolster: Sequence[int]) -> list[dict[str, Any]]:
    out = [{"würfel": f, "gambit": "Bolster"} for f in bolster]
    for g in _as_list(gambits):
        if isinstance(g, (tuple, list)):
            g = {"würfel": g[0], "gambit": g[1], **({"stark": g[2]} if len(g) > 2 else {})}
        out.append(dict(g))
    return out


def _norm_focus(focus: Any) -> list[dict[str, Any]]:
    out = []
    for f in _as_list(focus):
        out.append({"by": f[0], "gambit": f[1]} if isinstance(f, (tuple, list)) else dict(f))
    return out


def _one_target(res: Resolution, ctx: _Context, attackers: Sequence[Figure],
                target: Figure, pool: list[str], faces: Sequence[int] | None, armour: int,
                decisions: Mapping[str, Any], decided: bool, blast: bool, large_scale: bool,
                cause: str | None, bloodless: bool, scar_table: Mapping[int, str] | None,
                front: Sequence[Figure], allies: Sequence[str] = (), rolls: Sequence[Roll] | None = None) -> list[str]:
    """Steps 1-7 of an attack against one target (Angriffe); what befell the target (and those leading
    from the front) as clauses of the summary, none while the attack is open; ``allies`` may Deny
    besides the target (in arm's reach: the table's call); ``rolls``: its attack dice, rolled already
    (a Blast's), else rolled here unless ``faces`` are given."""
    tname = target.name
    if faces is None:
        rolls = list(rolls) if rolls is not None else [ctx.roller.roll(d) for d in pool]
        faces = [r.total for r in rolls]
        res.step(t("bastionland.pool", dice=", ".join(f"{d}: {f}" for d, f in zip(pool, faces))),
                 "Angriffe, Schritt 1", *rolls)
    else:
        faces = list(faces)
        if len(faces) != len(pool) or any(not 1 <= f <= int(d[1:]) for d, f in zip(pool, faces)):
            raise BastionlandError(t("bastionland.bad_faces", faces=", ".join(map(str, faces)),
                                     pool=", ".join(pool)))
        res.step(t("bastionland.pool", dice=", ".join(f"{d}: {f}" for d, f in zip(pool, faces))),
                 "Angriffe, Schritt 1")
    res.outcome["würfel"] = list(faces)
    why = ignores(target, blast=blast, large_scale=large_scale, cause=cause)
    if not decided:
        # what the open choices' advice reads (``advice``): the armour, melee, whether the attack can hurt
        res.outcome.update({"armour": armour, "nahkampf": ctx.melee, "unblutig": bloodless,
                            **({"unverletzbar": why} if why else {})})
        shown = tuple(dict.fromkeys(str(f) for f in sorted(faces, reverse=True)))
        res.choices.append(Choice("deny", t("bastionland.choice_deny"), (tname,), also=tuple(allies),
                                  also_label=t("bastionland.choice_deny_ally", figure=tname) if allies else "",
                                  values={"würfel": shown}))
        spendable = tuple(str(f) for f in faces if f >= GAMBIT_MIN)
        if spendable:
            unique = tuple(dict.fromkeys(spendable))
            strong = STRONG if ctx.melee and any(f >= STRONG_GAMBIT_MIN for f in faces) else ()
            res.choices.append(Choice("gambit", t("bastionland.choice_gambit"), names(attackers), spendable,
                                      values={"würfel": unique, "bolster": unique, "gambit": tuple(ctx.gambits),
                                              "stark": strong}))
        able = tuple(a.name for a in attackers if not a.has("Fatigued") and a.name not in ctx.impaired)
        if able:
            res.choices.append(Choice("focus", t("bastionland.choice_focus"), able, tuple(ctx.gambits),
                                      values={"gambit": tuple(ctx.gambits)}))
        return []
    remaining = list(zip(pool, faces))
    # 2. Deny
    for d in _norm_deny(decisions.get("deny")):
        who = d["by"]
        works = _feat_user(who, "Deny", ctx)
        if not works:
            res.step(t("bastionland.fatigued_now", figure=who, feat="Deny"), "Feats")
            continue
        if not remaining:
            break
        face = d["würfel"]
        if face is None:
            idx = max(range(len(remaining)), key=lambda i: remaining[i][1])
        else:
            idx = next((i for i, r in enumerate(remaining) if r[1] == face), None)
            if idx is None:
                raise BastionlandError(t("bastionland.bad_deny", face=face,
                                         faces=", ".join(str(r[1]) for r in remaining)))
        removed = remaining.pop(idx)
        res.step(t("bastionland.deny", figure=who, face=removed[1]), "Angriffe, Schritt 2; Deny")
        if not save(res, ctx.figures[who], "SPI", ctx.roller, "Deny"):
            ctx.fatigued.add(who)
            res.effects.append(Effect(who, condition="Fatigued"))
            res.step(t("bastionland.now_fatigued", figure=who), "Feats")
    # 3. Gambits and Focus
    bolster = 0
    extra: list[tuple[str, int]] = []
    for g in _norm_gambits(decisions.get("gambits"), decisions.get("bolster", ())):
        face = g.get("würfel")
        idx = next((i for i, r in enumerate(remaining) if r[1] == face), None)
        if idx is None or face < GAMBIT_MIN:
            raise BastionlandError(t("bastionland.bad_gambit", face=face,
                                     faces=", ".join(str(r[1]) for r in remaining)))
        remaining.pop(idx)
        bolster += _gambit(res, ctx, target, g.get("gambit", "Bolster"), face, g.get("stark"), extra,
                           g.get("by", ""))
    for f in _norm_focus(decisions.get("focus")):
        who = f["by"]
        if who not in names(attackers):
            raise BastionlandError(t("bastionland.focus_not_attacker", figure=who))
        if not _feat_user(who, "Focus", ctx):
            res.step(t("bastionland.fatigued_now", figure=who, feat="Focus"), "Feats")
            continue
        if who in ctx.impaired:
            raise BastionlandError(t("bastionland.impaired_no_feats", figure=who))
        res.step(t("bastionland.focus", figure=who), "Feats; Focus")
        bolster += _gambit(res, ctx, target, f.get("gambit", "Bolster"), None, None, extra, who)
        if not save(res, ctx.figures[who], "CLA", ctx.roller, "Focus"):
            ctx.fatigued.add(who)
            res.effects.append(Effect(who, condition="Fatigued"))
            res.step(t("bastionland.now_fatigued", figure=who), "Feats")
    remaining += extra
    # 4.-7. highest remaining die + Bolster - armour
    kept = max(remaining, key=lambda r: r[1]) if remaining else (None, 0)
    total = damage_total(kept[1], armour, bolster)
    res.step(t("bastionland.total", top=kept[1], bolster=bolster, armour=armour, total=total),
             "Angriffe, Schritte 4-7", value=total)
    res.outcome.update({"höchster": kept[1], "schaden": total, "bolster": bolster, "armour": armour})
    if why:
        res.step(why, "Kriegsscharen" if kind(target) == "Kriegsschar" else "Holz und Stein")
        res.outcome["folge"] = "unversehrt"
        return [t("bastionland.satz.unversehrt", ziel=tname)]
    said = [damage(target, total, res, die=kept[0], roller=ctx.roller, table=scar_table, bloodless=bloodless)]
    for leader in front:  # An vorderster Front: the same damage
        res.step(t("bastionland.front_damage", figure=leader.name, warband=tname, total=total),
                 "An vorderster Front")
        sub = Resolution("bastionland", "schaden")
        said.append(damage(leader, total, sub, die=kept[0], roller=ctx.roller, table=scar_table,
                           bloodless=bloodless))
        res.steps += sub.steps
        res.effects += sub.effects
        res.outcome.setdefault("vorderste_front", {})[leader.name] = sub.outcome.get("folge")
    return said


def attack(attackers: Sequence[Figure], target: Figure | Sequence[Figure],
           roller: Roller, bonus: Sequence[str] = (), deny: Any = None, bolster: Sequence[int] = (),
           cover: bool = False, decided: bool = True, *, gambits: Any = (), focus: Any = (),
           smite: Mapping[str, str] | None = None, blast: bool = False, ranged: bool = False,
           shield_wall: bool = False, spear_wall: bool = False, charge: Sequence[str] = (),
           started_in_melee: Sequence[str] = (), moved: Sequence[str] = (), impaired_by: Sequence[str] = (),
           faces: Sequence[int] | None = None, per_target: Mapping[str, Mapping[str, Any]] | None = None,
           large_scale: bool = False, cause: str | None = None, bloodless: bool = False,
           front: Sequence[Figure] = (), figures: Mapping[str, Figure] | None = None,
           scar_table: Mapping[int, str] | None = None, gambit_table: Mapping[str, Mapping[str, Any]] | None = None,
           combatants: Sequence[Figure] = ()) -> Resolution:
    """An attack of one or more attackers (Angriffe, steps 1-7; Besondere Angriffe; Feats; Gambits).

    All attackers on one target roll together. ``deny``: a name, or
    ``{"by": name, "würfel": face}`` (the decider picks the die; default the
    highest), or a list (each participant once); then the denier's SPI save or
    Fatigued. ``gambits``: ``{"würfel": face, "gambit": name, "stark":
    "keine_probe"|"größer"}`` (or tuples); ``bolster``: faces spent on Bolster.
    ``focus``: ``{"by": name, "gambit": name}`` (CLA save or Fatigued).
    ``smite``: ``{"by": name, "art": "W12"|"Blast"}`` before a melee attack
    (VIG save or Fatigued). Blast rolls per target; ``per_target`` holds each
    target's decisions (deny, gambits, bolster, focus, faces).
    ``decided`` False: roll and list the open choices, apply nothing; the
    closing call passes the rolled ``faces``. ``combatants`` (in turn order): the target's
    allies among them are offered its Deny too (Angriffe, Schritt 2).
    """
    targets = [target] if isinstance(target, Figure) else list(target)
    res = Resolution("bastionland", "angriff", names(attackers), names(targets))
    everyone: dict[str, Figure] = {**(figures or {})}
    for f in (*attackers, *targets, *front):
        everyone[f.name] = f
    # refusals (Virtue Loss; Fernkampf; Schild- und Speerwälle)
    for a in attackers:
        if kind(a) in ("Person", "Kriegsschar") and virtue(a, "VIG") == 0 and a.name in moved:
            raise BastionlandError(t("bastionland.vig0_moved", figure=a.name))
        if ranged and a.name in started_in_melee:
            raise BastionlandError(t("bastionland.ranged_in_melee", figure=a.name))
        if spear_wall and a.name in charge:
            raise BastionlandError(t("bastionland.spear_wall", figure=a.name))
    impaired_names = {a.name for a in attackers if impaired(a, impaired_by)}
    ctx = _Context(everyone, roller, melee=not ranged, gambits=gambit_table or EINSTELLUNGEN.defaults().gambits,
                   impaired=impaired_names)
    # Smite: before a melee attack, +W12 or Blast
    smite_w12 = False
    if smite and decided:
        who, art = smite["by"], str(smite.get("art", "W12"))
        if ranged:
            raise BastionlandError(t("bastionland.smite_melee", figure=who))
        if who in impaired_names:
            raise BastionlandError(t("bastionland.impaired_no_feats", figure=who))
        if who not in names(attackers):
            raise BastionlandError(t("bastionland.focus_not_attacker", figure=who))
        _feat_user(who, "Smite", ctx)
        if art.upper() == "BLAST":
            blast = True
        elif art.upper() == "W12":
            smite_w12 = True
        else:
            raise BastionlandError(t("bastionland.bad_smite", art=art))
        res.step(t("bastionland.smite", figure=who, art="Blast" if blast else "+W12"), "Feats; Smite")
    elif smite:
        smite_w12 = str(smite.get("art", "W12")).upper() == "W12"
        blast = blast or not smite_w12
    warband_attack = any(kind(a) == "Kriegsschar" for a in attackers)
    if warband_attack and any(kind(x) == "Person" for x in targets):
        blast = True  # Kriegsscharen: attacks on individuals cause Blast
    if len(targets) > 1 and not blast:
        raise BastionlandError(t("bastionland.one_target"))
    per_target = per_target or {}
    rolled: dict[str, list[Roll]] = {}   # a Blast: every target's dice fall before any decision is carried out
    if len(targets) > 1:
        for tg in targets:
            if "faces" not in per_target.get(tg.name, {}):
                pool = attack_pool(attackers, tg, bonus=bonus, impaired_by=impaired_by, charge=charge,
                                   smite_w12=smite_w12)
                rolled[tg.name] = [roller.roll(d) for d in pool]
    outcomes, said = {}, []
    for tg in targets:
        sub = Resolution("bastionland", "angriff", res.actors, (tg.name,))
        pool = attack_pool(attackers, tg, bonus=bonus, impaired_by=impaired_by, charge=charge,
                           smite_w12=smite_w12, res=sub)
        armour = tg.value("ruestung", 0)
        if cover and ranged:
            armour += 1
            sub.step(t("bastionland.cover"), "Fernkampf")
        if shield_wall:
            armour += 1
            sub.step(t("bastionland.shield_wall", figure=tg.name), "Schild- und Speerwälle")
        own = per_target.get(tg.name, {})
        decisions = {"deny": own.get("deny", deny if len(targets) == 1 else None),
                     "gambits": own.get("gambits", gambits if len(targets) == 1 else ()),
                     "bolster": own.get("bolster", bolster if len(targets) == 1 else ()),
                     "focus": own.get("focus", focus if len(targets) == 1 else ())}
        bolster_n = len(decisions["bolster"]) + sum(
            1 for g in [*_norm_gambits(decisions["gambits"], ()), *_norm_focus(decisions["focus"])]
            if g.get("gambit", "Bolster") == "Bolster")
        try:
            preview = attack_preview(pool, armour, bolster_n, melee=not ranged)
        except DiceLimitError as err:  # the attack goes on; its card says why it shows no preview
            preview = {}
            sub.step(err.message, "Angriffe")
        preview.update(_save_previews(tg, decisions, everyone))
        sub.preview = preview
        said += _one_target(sub, ctx, attackers, tg, pool, own.get("faces", faces if len(targets) == 1 else None),
                            armour, decisions, decided, blast, large_scale or warband_attack, cause, bloodless,
                            scar_table, front, allies_of(tg, attackers, combatants), rolled.get(tg.name))
        res.steps += sub.steps
        res.effects += sub.effects
        res.choices += [replace(c, key=c.key + (f":{tg.name}" if len(targets) > 1 else ""),
                                label=c.label + (f" – {tg.name}" if len(targets) > 1 else ""))
                        for c in sub.choices]
        outcomes[tg.name] = sub.outcome
        res.preview = sub.preview if len(targets) == 1 else {**(res.preview or {}), **{
            f"{k} ({tg.name})": v for k, v in sub.preview.items() if isinstance(v, float)}}
    if smite and decided:
        who = smite["by"]
        if not save(res, everyone[who], "VIG", roller, "Smite"):
            res.effects.append(Effect(who, condition="Fatigued"))
            res.step(t("bastionland.now_fatigued", figure=who), "Feats")
    leaders = [a for a in attackers if kind(a) == "Person"] if warband_attack else []
    for lead in leaders:  # An vorderster Front
        res.effects.append(Effect(lead.name, condition="führt von vorn", rounds=1, ends="zugbeginn"))
        res.step(t("bastionland.front", figure=lead.name), "An vorderster Front")
    res.outcome = outcomes[targets[0].name] if len(targets) == 1 else {"ziele": outcomes}
    if blast:
        res.outcome["blast"] = True
    res.summary = _summary(res, said)
    return res


def allies_of(target: Figure, attackers: Sequence[Figure], combatants: Sequence[Figure]) -> list[str]:
    """The target's allies who may Deny for it (Angriffe, Schritt 2): the combatants of its side (a
    side named), not the target, not an attacker, not out of the fight; in turn order. Whether they
    are in arm's reach is the table's call."""
    side, skip = target.side, {target.name, *names(attackers)}
    return [f.name for f in combatants
            if side and f.side == side and f.name not in skip and out_of_fight(f) is None]


def _summary(res: Resolution, said: Sequence[str]) -> str:
    """The attack as one sentence: what befell each target and who is Fatigued now; while open, who
    may still take which decision (Deny, Gambits, Focus)."""
    if res.open:
        waiting: dict[tuple[str, ...], list[str]] = {}
        for c in res.choices:
            feat = t("bastionland.satz.wahl_" + c.key.partition(":")[0])
            if feat not in waiting.setdefault(c.who, []):
                waiting[c.who].append(feat)
        return sentence("bastionland.satz.angriff_offen", res.actors, ziel=listing(res.targets),
                        offen=", ".join(sentence("bastionland.satz.kann", list(who), feats=listing(feats))
                                        for who, feats in waiting.items()))
    tired = list(dict.fromkeys(e.figure for e in res.effects if e.condition == "Fatigued" and e.on))
    folgen = [*said, *([sentence("bastionland.satz.fatigued", tired)] if tired else [])]
    return sentence("bastionland.satz.angriff", res.actors, ziel=listing(res.targets), folgen="; ".join(folgen))


def _save_previews(target: Figure, decisions: Mapping[str, Any],
                   figures: Mapping[str, Figure]) -> dict[str, float]:
    """The chance of every save the declared attack may call for (Proben)."""
    out = {t("bastionland.preview_resist", figure=target.name): save_chance(virtue(target, "VIG"))}
    for d in _norm_deny(decisions.get("deny")):
        if d["by"] in figures:
            out[t("bastionland.preview_deny_save", figure=d["by"])] = save_chance(virtue(figures[d["by"]], "SPI"))
    for f in _norm_focus(decisions.get("focus")):
        if f["by"] in figures:
            out[t("bastionland.preview_focus_save", figure=f["by"])] = save_chance(virtue(figures[f["by"]], "CLA"))
    return out


def duel(a: Figure, b: Figure, roller: Roller, *, a_decisions: Mapping[str, Any] | None = None,
         b_decisions: Mapping[str, Any] | None = None, joust: bool = False, bloodless: bool = False,
         scar_table: Mapping[int, str] | None = None) -> Resolution:
    """A duel or (mounted) joust: both attacks rolled and resolved at once (Duelle und Tjoste).

    Both pools are rolled first; feats and gambits of both are taken before
    either attack resolves, and both resolve against the state before the
    exchange. ``*_decisions``: keyword arguments of ``attack`` (deny, gambits,
    focus, smite, bonus, …). No scars in a bloodless duel (Narben).
    """
    res = Resolution("bastionland", "tjost" if joust else "duell", (a.name, b.name), (a.name, b.name))
    pairs = [(a, b, dict(a_decisions or {})), (b, a, dict(b_decisions or {}))]
    rolled = []
    for att, tgt, dec in pairs:
        smite = dec.get("smite")
        pool = attack_pool([att], tgt, bonus=dec.get("bonus", ()), charge=dec.get("charge", ()),
                           smite_w12=bool(smite) and str(smite.get("art", "W12")).upper() == "W12")
        rolls = [roller.roll(d) for d in pool]
        res.step(t("bastionland.duel_pool", figure=att.name,
                   dice=", ".join(f"{d}: {r.total}" for d, r in zip(pool, rolls))), "Duelle und Tjoste", *rolls)
        rolled.append([r.total for r in rolls])
    for (att, tgt, dec), faces in zip(pairs, rolled):
        sub = attack([att], tgt, roller, faces=faces, bloodless=bloodless, scar_table=scar_table,
                     figures={a.name: a, b.name: b}, **dec)
        res.steps += sub.steps
        res.effects += sub.effects
        res.outcome[att.name] = sub.outcome
        res.summary = " ".join(filter(None, (res.summary, sub.summary)))
    return res
