"""Attacks, feats and gambits (seed 003).

Seed sections: "Angriffe" (steps 1-7), "Besondere Angriffe", "Feats"
(Smite, Deny, Focus, Fatigued), "Gambits", "Strong Gambit", "Besondere
Kampfsituationen", "Kriegsscharen", "An vorderster Front". The order of given
dice is listed in ``docs/bastionland.md`` ("Eingegebene Würfel").
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Callable, Mapping, Sequence

from ...dice import Dist, Roll, Roller, dist
from ...errors import DiceLimitError
from ...messages import t
from rpgkernel.rules.kit import Choice, Effect, Figure, Resolution, listing, nth_highest, sentence, top_two
from .core import names, save, save_chance
from .damage import damage, ignores, out_of_fight
from .settings import EINSTELLUNGEN, BastionlandError, gambit_text
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


@dataclass(frozen=True)
class Angriff:
    """What is declared for an attack: the keyword arguments of ``attack``.

    ``deny``: a name, ``{"by": name, "würfel": face}`` or a list; ``gambits``: ``{"würfel": face,
    "gambit": name, "stark": "keine_probe"|"größer"}`` (or tuples); ``bolster``: faces spent on
    Bolster; ``focus``: ``{"by": name, "gambit": name}``; ``smite``: ``{"by": name, "art":
    "W12"|"Blast"}``. ``per_target`` holds each Blast target's decisions; ``combatants`` (turn
    order): the target's allies among them are offered its Deny too.
    """
    bonus: Sequence[str] = ()
    deny: Any = None
    bolster: Sequence[int] = ()
    cover: bool = False
    decided: bool = True
    gambits: Any = ()
    focus: Any = ()
    smite: Mapping[str, str] | None = None
    blast: bool = False
    ranged: bool = False
    shield_wall: bool = False
    spear_wall: bool = False
    charge: Sequence[str] = ()
    started_in_melee: Sequence[str] = ()
    moved: Sequence[str] = ()
    impaired_by: Sequence[str] = ()
    faces: Sequence[int] | None = None
    per_target: Mapping[str, Mapping[str, Any]] | None = None
    large_scale: bool = False
    cause: str | None = None
    bloodless: bool = False
    front: Sequence[Figure] = ()
    figures: Mapping[str, Figure] | None = None
    scar_table: Mapping[int, str] | None = None
    gambit_table: Mapping[str, Mapping[str, Any]] | None = None
    combatants: Sequence[Figure] = ()


@dataclass
class _Context:
    """One attack's shared state: the request, the figures, the feats used so far."""
    req: Angriff
    attackers: Sequence[Figure]
    targets: list[Figure]
    figures: dict[str, Figure]
    roller: Roller
    gambits: Mapping[str, Mapping[str, Any]]
    impaired: set[str] = field(default_factory=set)     # attackers whose attacks are impaired: no feats
    used: set[tuple[str, str]] = field(default_factory=set)   # (participant, feat): once per attack
    fatigued: set[str] = field(default_factory=set)     # Fatigued during this attack: their feats fail
    blast: bool = False
    smite_w12: bool = False

    @property
    def melee(self) -> bool:
        return not self.req.ranged

    @property
    def warband(self) -> bool:
        """A warband attacks (Kriegsscharen)."""
        return any(kind(a) == "Kriegsschar" for a in self.attackers)


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
    res.step(t("bastionland.gambit", gambit=name, text=gambit_text(name, spec), figure=tname,
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
    if strong == "größer" and (bigger := gambit_text(name, spec, "groesser")):
        res.step(t("bastionland.gambit_bigger", text=bigger), "Strong Gambit")
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


@dataclass
class _Target:
    """One target of the attack: its card, its dice and what was decided against it."""
    res: Resolution
    figure: Figure
    pool: list[str]
    armour: int
    decisions: dict[str, Any]
    faces: list[int] = field(default_factory=list)
    remaining: list[tuple[str, int]] = field(default_factory=list)   # (die, face) not yet spent
    extra: list[tuple[str, int]] = field(default_factory=list)       # dice a gambit added (Dismount's W6)
    bolster: int = 0
    kept: tuple[str | None, int] = (None, 0)
    total: int = 0


def attack(attackers: Sequence[Figure], target: Figure | Sequence[Figure], roller: Roller,
           **declared: Any) -> Resolution:
    """An attack of one or more attackers (Angriffe, steps 1-7; Besondere Angriffe; Feats; Gambits).

    All attackers on one target roll together; ``declared``: the fields of
    ``Angriff`` (deny, gambits, focus, smite, blast, …). ``decided`` False:
    roll and list the open choices, apply nothing; the closing call passes
    the rolled ``faces``.
    """
    req = Angriff(**declared)
    targets = [target] if isinstance(target, Figure) else list(target)
    res = Resolution("bastionland", "angriff", names(attackers), names(targets))
    refuse(attackers, req)
    ctx = _context(attackers, targets, roller, req)
    smite(res, ctx)
    blast_on_individuals(ctx)
    rolled = blast_dice(ctx)
    outcomes, said = {}, []
    for tg in targets:
        z = _target(res, ctx, tg)
        said += _one_target(ctx, z, rolled.get(tg.name))
        _gather(res, ctx, z)
        outcomes[tg.name] = z.res.outcome
    smite_save(res, ctx)
    lead_from_front(res, ctx)
    res.outcome = outcomes[targets[0].name] if len(targets) == 1 else {"ziele": outcomes}
    if ctx.blast:
        res.outcome["blast"] = True
    res.summary = _summary(res, said)
    return res


def refuse(attackers: Sequence[Figure], req: Angriff) -> None:
    """The attacks the rules forbid (Virtue Loss: VIG 0 and moved; Fernkampf; Schild- und Speerwälle)."""
    for a in attackers:
        if kind(a) in ("Person", "Kriegsschar") and virtue(a, "VIG") == 0 and a.name in req.moved:
            raise BastionlandError(t("bastionland.vig0_moved", figure=a.name))
        if req.ranged and a.name in req.started_in_melee:
            raise BastionlandError(t("bastionland.ranged_in_melee", figure=a.name))
        if req.spear_wall and a.name in req.charge:
            raise BastionlandError(t("bastionland.spear_wall", figure=a.name))


def _context(attackers: Sequence[Figure], targets: list[Figure], roller: Roller, req: Angriff) -> _Context:
    everyone: dict[str, Figure] = {**(req.figures or {})}
    for f in (*attackers, *targets, *req.front):
        everyone[f.name] = f
    return _Context(req, attackers, targets, everyone, roller,
                    gambits=req.gambit_table or EINSTELLUNGEN.defaults().gambits,
                    impaired={a.name for a in attackers if impaired(a, req.impaired_by)}, blast=req.blast)


def smite(res: Resolution, ctx: _Context) -> None:
    """Before a melee attack: Smite adds +W12 or Blast (Feats; Smite); its VIG save follows the attack."""
    if not ctx.req.smite:
        return
    art = str(ctx.req.smite.get("art", "W12")).upper()
    if not ctx.req.decided:   # the closing call takes the feat
        ctx.smite_w12 = art == "W12"
        ctx.blast = ctx.blast or not ctx.smite_w12
        return
    who = ctx.req.smite["by"]
    if ctx.req.ranged:
        raise BastionlandError(t("bastionland.smite_melee", figure=who))
    if who in ctx.impaired:
        raise BastionlandError(t("bastionland.impaired_no_feats", figure=who))
    if who not in names(ctx.attackers):
        raise BastionlandError(t("bastionland.focus_not_attacker", figure=who))
    _feat_user(who, "Smite", ctx)
    if art == "BLAST":
        ctx.blast = True
    elif art == "W12":
        ctx.smite_w12 = True
    else:
        raise BastionlandError(t("bastionland.bad_smite", art=str(ctx.req.smite.get("art", "W12"))))
    res.step(t("bastionland.smite", figure=who, art="Blast" if ctx.blast else "+W12"), "Feats; Smite")


def blast_on_individuals(ctx: _Context) -> None:
    """A warband's attack on individuals causes Blast (Kriegsscharen); only a Blast has several targets."""
    if ctx.warband and any(kind(x) == "Person" for x in ctx.targets):
        ctx.blast = True
    if len(ctx.targets) > 1 and not ctx.blast:
        raise BastionlandError(t("bastionland.one_target"))


def _pool(ctx: _Context, target: Figure, res: Resolution | None = None) -> list[str]:
    req = ctx.req
    return attack_pool(ctx.attackers, target, bonus=req.bonus, impaired_by=req.impaired_by, charge=req.charge,
                       smite_w12=ctx.smite_w12, res=res)


def blast_dice(ctx: _Context) -> dict[str, list[Roll]]:
    """A Blast rolls per target, every target's dice before any decision is carried out (Besondere Angriffe)."""
    rolled: dict[str, list[Roll]] = {}
    if len(ctx.targets) > 1:
        for tg in ctx.targets:
            if "faces" not in (ctx.req.per_target or {}).get(tg.name, {}):
                rolled[tg.name] = [ctx.roller.roll(d) for d in _pool(ctx, tg)]
    return rolled


def armour(res: Resolution, ctx: _Context, target: Figure) -> int:
    """The target's armour, +1 behind cover against a ranged attack (Fernkampf), +1 in a shield wall."""
    total = target.value("ruestung", 0)
    if ctx.req.cover and ctx.req.ranged:
        total += 1
        res.step(t("bastionland.cover"), "Fernkampf")
    if ctx.req.shield_wall:
        total += 1
        res.step(t("bastionland.shield_wall", figure=target.name), "Schild- und Speerwälle")
    return total


def _decided_on(ctx: _Context, name: str) -> dict[str, Any]:
    """The decisions on one target: its own (``per_target``), else those of the only target."""
    own, req, one = (ctx.req.per_target or {}).get(name, {}), ctx.req, len(ctx.targets) == 1
    return {"deny": own.get("deny", req.deny if one else None),
            "gambits": own.get("gambits", req.gambits if one else ()),
            "bolster": own.get("bolster", req.bolster if one else ()),
            "focus": own.get("focus", req.focus if one else ()),
            "faces": own.get("faces", req.faces if one else None)}


def _target(res: Resolution, ctx: _Context, target: Figure) -> _Target:
    """One target's dice, armour, decisions and the preview of its card."""
    sub = Resolution("bastionland", "angriff", res.actors, (target.name,))
    z = _Target(sub, target, _pool(ctx, target, sub), armour(sub, ctx, target), _decided_on(ctx, target.name))
    d = z.decisions
    bolster_n = len(d["bolster"]) + sum(
        1 for g in [*_norm_gambits(d["gambits"], ()), *_norm_focus(d["focus"])]
        if g.get("gambit", "Bolster") == "Bolster")
    try:
        preview = attack_preview(z.pool, z.armour, bolster_n, melee=ctx.melee)
    except DiceLimitError as err:  # the attack goes on; its card says why it shows no preview
        preview = {}
        sub.step(err.message, "Angriffe")
    preview.update(_save_previews(target, d, ctx.figures))
    sub.preview = preview
    return z


def _gather(res: Resolution, ctx: _Context, z: _Target) -> None:
    """One target's card into the attack's: steps, effects, choices and preview (named per target in a Blast)."""
    sub, name, many = z.res, z.figure.name, len(ctx.targets) > 1
    res.steps += sub.steps
    res.effects += sub.effects
    res.choices += [replace(c, key=c.key + (f":{name}" if many else ""), label=c.label + (f" – {name}" if many else ""))
                    for c in sub.choices]
    res.preview = sub.preview if not many else {**(res.preview or {}), **{
        f"{k} ({name})": v for k, v in sub.preview.items() if isinstance(v, float)}}


def _one_target(ctx: _Context, z: _Target, rolls: Sequence[Roll] | None) -> list[str]:
    """Steps 1-7 of an attack against one target (Angriffe); what befell the target (and those leading
    from the front) as clauses of the summary, none while the attack is open; ``rolls``: its attack
    dice, rolled already (a Blast's), else rolled here unless faces are given."""
    take_dice(ctx, z, rolls)
    why = ignores(z.figure, blast=ctx.blast, large_scale=ctx.req.large_scale or ctx.warband, cause=ctx.req.cause)
    if not ctx.req.decided:
        open_choices(ctx, z, why)
        return []
    z.remaining = list(zip(z.pool, z.faces))
    deny(ctx, z)
    gambits(ctx, z)
    focus(ctx, z)
    z.remaining += z.extra
    highest_die(z)
    return cause_damage(ctx, z, why)


def take_dice(ctx: _Context, z: _Target, rolls: Sequence[Roll] | None) -> None:
    """Step 1: all attackers on one target roll together; given faces are checked against the pool."""
    given = z.decisions["faces"]
    if given is None:
        rolls = list(rolls) if rolls is not None else [ctx.roller.roll(d) for d in z.pool]
        z.faces = [r.total for r in rolls]
    else:
        z.faces, rolls = list(given), []
        if len(z.faces) != len(z.pool) or any(not 1 <= f <= int(d[1:]) for d, f in zip(z.pool, z.faces)):
            raise BastionlandError(t("bastionland.bad_faces", faces=", ".join(map(str, z.faces)),
                                     pool=", ".join(z.pool)))
    z.res.step(t("bastionland.pool", dice=", ".join(f"{d}: {f}" for d, f in zip(z.pool, z.faces))),
               "Angriffe, Schritt 1", *rolls)
    z.res.outcome["würfel"] = list(z.faces)


def open_choices(ctx: _Context, z: _Target, why: str | None) -> None:
    """An open attack: the choices of steps 2 and 3 (Deny, Gambits, Focus), nothing applied yet."""
    res, tname, faces = z.res, z.figure.name, z.faces
    allies = allies_of(z.figure, ctx.attackers, ctx.req.combatants)
    # what the open choices' advice reads (``advice``): the armour, melee, whether the attack can hurt
    res.outcome.update({"armour": z.armour, "nahkampf": ctx.melee, "unblutig": ctx.req.bloodless,
                        **({"unverletzbar": why} if why else {})})
    shown = tuple(dict.fromkeys(str(f) for f in sorted(faces, reverse=True)))
    res.choices.append(Choice("deny", t("bastionland.choice_deny"), (tname,), also=tuple(allies),
                              also_label=t("bastionland.choice_deny_ally", figure=tname) if allies else "",
                              values={"würfel": shown}))
    spendable = tuple(str(f) for f in faces if f >= GAMBIT_MIN)
    if spendable:
        unique = tuple(dict.fromkeys(spendable))
        strong = STRONG if ctx.melee and any(f >= STRONG_GAMBIT_MIN for f in faces) else ()
        res.choices.append(Choice("gambit", t("bastionland.choice_gambit"), names(ctx.attackers), spendable,
                                  values={"würfel": unique, "bolster": unique, "gambit": tuple(ctx.gambits),
                                          "stark": strong}))
    able = tuple(a.name for a in ctx.attackers if not a.has("Fatigued") and a.name not in ctx.impaired)
    if able:
        res.choices.append(Choice("focus", t("bastionland.choice_focus"), able, tuple(ctx.gambits),
                                  values={"gambit": tuple(ctx.gambits)}))


def _feat_save(ctx: _Context, res: Resolution, who: str, virtue_name: str, feat: str) -> None:
    """The save after a feat; failed, its user is Fatigued (Feats)."""
    if not save(res, ctx.figures[who], virtue_name, ctx.roller, feat):
        ctx.fatigued.add(who)
        res.effects.append(Effect(who, condition="Fatigued"))
        res.step(t("bastionland.now_fatigued", figure=who), "Feats")


def _index_of(remaining: Sequence[tuple[str, int]], face: int | None) -> int | None:
    return next((i for i, r in enumerate(remaining) if r[1] == face), None)


def deny(ctx: _Context, z: _Target) -> None:
    """Step 2: the target or an ally in arm's reach removes one die, the decider's pick or the highest;
    then the SPI save (Deny)."""
    for d in _norm_deny(z.decisions.get("deny")):
        who = d["by"]
        if not _feat_user(who, "Deny", ctx):
            z.res.step(t("bastionland.fatigued_now", figure=who, feat="Deny"), "Feats")
            continue
        if not z.remaining:
            break
        face = d["würfel"]
        idx = max(range(len(z.remaining)), key=lambda i: z.remaining[i][1]) if face is None \
            else _index_of(z.remaining, face)
        if idx is None:
            raise BastionlandError(t("bastionland.bad_deny", face=face,
                                     faces=", ".join(str(r[1]) for r in z.remaining)))
        removed = z.remaining.pop(idx)
        z.res.step(t("bastionland.deny", figure=who, face=removed[1]), "Angriffe, Schritt 2; Deny")
        _feat_save(ctx, z.res, who, "SPI", "Deny")


def gambits(ctx: _Context, z: _Target) -> None:
    """Step 3: each discarded die of 4+ buys a gambit, Bolster among them (Gambits; Strong Gambit)."""
    for g in _norm_gambits(z.decisions.get("gambits"), z.decisions.get("bolster", ())):
        face = g.get("würfel")
        idx = _index_of(z.remaining, face)
        if idx is None or face < GAMBIT_MIN:
            raise BastionlandError(t("bastionland.bad_gambit", face=face,
                                     faces=", ".join(str(r[1]) for r in z.remaining)))
        z.remaining.pop(idx)
        z.bolster += _gambit(z.res, ctx, z.figure, g.get("gambit", "Bolster"), face, g.get("stark"), z.extra,
                             g.get("by", ""))


def focus(ctx: _Context, z: _Target) -> None:
    """Step 3: Focus, a gambit without spending a die; then the CLA save (Feats; Focus)."""
    for f in _norm_focus(z.decisions.get("focus")):
        who = f["by"]
        if who not in names(ctx.attackers):
            raise BastionlandError(t("bastionland.focus_not_attacker", figure=who))
        if not _feat_user(who, "Focus", ctx):
            z.res.step(t("bastionland.fatigued_now", figure=who, feat="Focus"), "Feats")
            continue
        if who in ctx.impaired:
            raise BastionlandError(t("bastionland.impaired_no_feats", figure=who))
        z.res.step(t("bastionland.focus", figure=who), "Feats; Focus")
        z.bolster += _gambit(z.res, ctx, z.figure, f.get("gambit", "Bolster"), None, None, z.extra, who)
        _feat_save(ctx, z.res, who, "CLA", "Focus")


def highest_die(z: _Target) -> None:
    """Steps 4-6: the highest remaining die, plus Bolster, minus the target's armour."""
    z.kept = max(z.remaining, key=lambda r: r[1]) if z.remaining else (None, 0)
    z.total = damage_total(z.kept[1], z.armour, z.bolster)
    z.res.step(t("bastionland.total", top=z.kept[1], bolster=z.bolster, armour=z.armour, total=z.total),
               "Angriffe, Schritte 4-7", value=z.total)
    z.res.outcome.update({"höchster": z.kept[1], "schaden": z.total, "bolster": z.bolster, "armour": z.armour})


def cause_damage(ctx: _Context, z: _Target, why: str | None) -> list[str]:
    """Step 7: the attack causes the damage left, to the target and those leading it from the front
    (An vorderster Front); none where the target ignores the attack (Kriegsscharen; Holz und Stein)."""
    res, tname = z.res, z.figure.name
    if why:
        res.step(why, "Kriegsscharen" if kind(z.figure) == "Kriegsschar" else "Holz und Stein")
        res.outcome["folge"] = "unversehrt"
        return [t("bastionland.satz.unversehrt", ziel=tname)]
    table, bloodless = ctx.req.scar_table, ctx.req.bloodless
    said = [damage(z.figure, z.total, res, die=z.kept[0], roller=ctx.roller, table=table, bloodless=bloodless)]
    for leader in ctx.req.front:
        res.step(t("bastionland.front_damage", figure=leader.name, warband=tname, total=z.total),
                 "An vorderster Front")
        sub = Resolution("bastionland", "schaden")
        said.append(damage(leader, z.total, sub, die=z.kept[0], roller=ctx.roller, table=table,
                           bloodless=bloodless))
        res.steps += sub.steps
        res.effects += sub.effects
        res.outcome.setdefault("vorderste_front", {})[leader.name] = sub.outcome.get("folge")
    return said


def smite_save(res: Resolution, ctx: _Context) -> None:
    """Smite's VIG save, after the attack resolved (Smite)."""
    if ctx.req.smite and ctx.req.decided:
        _feat_save(ctx, res, ctx.req.smite["by"], "VIG", "Smite")


def lead_from_front(res: Resolution, ctx: _Context) -> None:
    """The persons attacking with a warband lead it from the front until their next turn (An vorderster Front)."""
    for lead in [a for a in ctx.attackers if kind(a) == "Person"] if ctx.warband else []:
        res.effects.append(Effect(lead.name, condition="führt von vorn", rounds=1, ends="zugbeginn"))
        res.step(t("bastionland.front", figure=lead.name), "An vorderster Front")


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
