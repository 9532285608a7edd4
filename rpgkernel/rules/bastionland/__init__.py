"""Mythic Bastionland (seed 003_4352dfa8b10f7007.txt): saves, attacks, damage.

Procedures read figures (the campaign's records: ``sheet``, ``resources``,
``conditions``), roll through a ``Roller`` and return a ``Resolution`` with
steps, outcome and effects; they change nothing themselves. Decisions after
the roll (Deny, gambits, Bolster) are given by the caller; while one is
undecided the resolution stays open and applies nothing.
"""

from __future__ import annotations

import re
from typing import Any, Mapping, Sequence

from ...dice import Dist, Roller, dist
from ...dice.exact import nth_highest
from ...messages import t
from .. import register
from ..base import Ruleset
from ..resolution import Choice, Effect, Resolution
from ..sheet import Field, Sheet, SheetError

VIRTUES = ("VIG", "CLA", "SPI")
GAMBIT_MIN = 4          # a discarded die showing 4+ buys a gambit (Gambits)
STRONG_GAMBIT_MIN = 8   # 8+ in melee: a Strong Gambit (Strong Gambit)
_WEAPON = re.compile(r"^(?P<name>.*?)\s*\((?P<die>[Ww]\d+)(?:\s*,\s*(?P<qualities>[^)]*))?\)\s*$")


class Bastionland(Ruleset):
    key = "bastionland"
    title = "Mythic Bastionland"
    sheet = Sheet({
        "vig": Field("int", "Vigour", 0, 19, required=True),
        "cla": Field("int", "Clarity", 0, 19, required=True),
        "spi": Field("int", "Spirit", 0, 19, required=True),
        "gd": Field("int", "Guard", 0, 99, required=True),
        "ruestung": Field("int", "Armour", 0, 99, default=0),
        "waffen": Field("list", "Waffen und Schild, z. B. 'Streitkolben (W8, wuchtig)'"),
    })
    conditions = {
        "Fatigued": "keine Feats bis zu einem ruhigen Augenblick",
        "schutzlos": "gilt, als besäße die Figur 0 GD",
        "verwundet": "Schaden ging über die GD hinaus",
        "Todeswunde": "stirbt, wenn eine Stunde unversorgt",
        "tot": "VIG 0 durch Schaden",
    }

    def resources(self, sheet: Mapping[str, Any]) -> dict[str, dict[str, int]]:
        values = {"GD": sheet["gd"], "VIG": sheet["vig"], "CLA": sheet["cla"], "SPI": sheet["spi"]}
        return {k: {"value": v, "max": v} for k, v in values.items()}

    def initiative_expression(self, combatant: Mapping[str, Any]) -> str | None:
        return None  # no initiative roll: the players' side acts first (Überraschung)

    def initiative_order(self, combatants: Mapping[str, Mapping[str, Any]],
                         rolls: Mapping[str, int]) -> list[str]:
        """The players' side ("Spieler") first, then the others in the order they joined."""
        return sorted(combatants, key=lambda n: combatants[n].get("side", "") != "Spieler")


def weapon_dice(figure: Mapping[str, Any]) -> list[str]:
    """The attack dice of a figure's weapons and shield ("Streitkolben (W8, wuchtig)" -> "W8")."""
    out = []
    for entry in figure.get("sheet", {}).get("waffen", ()):
        m = _WEAPON.match(entry)
        if m is None:
            raise SheetError(t("bastionland.bad_weapon", entry=entry))
        out.append("W" + m.group("die")[1:])
    return out


def virtue(figure: Mapping[str, Any], name: str) -> int:
    return figure["resources"][name]["value"]


def probe(figure: Mapping[str, Any], name: str, roller: Roller) -> Resolution:
    """A save: W20 equal to or under the virtue (Proben)."""
    name = name.upper()
    if name not in VIRTUES:
        raise SheetError(t("bastionland.bad_virtue", name=name, known=", ".join(VIRTUES)))
    value = virtue(figure, name)
    res = Resolution("bastionland", "probe", (figure["name"],))
    res.preview = min(value, 20) / 20
    roll = roller.roll("W20")
    ok = roll.total <= value
    res.step(t("bastionland.save", figure=figure["name"], roll=roll.total, virtue=name, value=value,
               result=t("bastionland.success" if ok else "bastionland.failure")), "Proben", roll, value=roll.total)
    res.outcome = {"erfolg": ok, "wurf": roll.total, "wert": value}
    return res


def exposed(figure: Mapping[str, Any]) -> bool:
    """Schutzlos: unprepared (the condition) or CLA 0 (Virtue Loss)."""
    return "schutzlos" in figure.get("conditions", {}) or virtue(figure, "CLA") == 0


def damage(figure: Mapping[str, Any], amount: int, res: Resolution) -> None:
    """Apply an attack's damage against GD, then VIG (Schaden); records steps and effects on ``res``."""
    name = figure["name"]
    gd = 0 if exposed(figure) else virtue(figure, "GD")
    vig = virtue(figure, "VIG")
    if amount <= 0:
        res.step(t("bastionland.no_damage", figure=name), "Schaden")
        res.outcome["folge"] = "kein Schaden"
        return
    if exposed(figure):
        res.step(t("bastionland.exposed", figure=name), "Schutzlos")
    if amount < gd:
        res.effects.append(Effect(name, "GD", -amount))
        res.step(t("bastionland.avoided", figure=name, gd=gd - amount), "Schaden", value=gd - amount)
        res.outcome["folge"] = "entgangen"
    elif amount == gd:
        res.effects.append(Effect(name, "GD", -amount))
        res.step(t("bastionland.scar", figure=name), "Schaden; Narben", value=0)
        res.outcome["folge"] = "Narbe"
    else:
        excess = amount - gd
        lost = min(excess, vig)
        if gd:
            res.effects.append(Effect(name, "GD", -gd))
        res.effects.append(Effect(name, "VIG", -lost))
        res.effects.append(Effect(name, condition="verwundet"))
        res.step(t("bastionland.wounded", figure=name, excess=excess, vig=vig - lost), "Schaden", value=vig - lost)
        res.outcome["folge"] = "verwundet"
        if vig - lost == 0:
            res.effects.append(Effect(name, condition="tot"))
            res.step(t("bastionland.dead", figure=name), "Schaden")
            res.outcome["folge"] = "tot"
        elif 2 * lost >= vig:
            res.effects.append(Effect(name, condition="Todeswunde"))
            res.step(t("bastionland.mortal", figure=name), "Schaden")
            res.outcome["folge"] = "Todeswunde"


def attack_preview(pool: Sequence[str], armour: int, bolster: int = 0) -> dict[str, Any]:
    """Before the roll: damage after armour with and without Deny, and P(a gambit die)."""
    dice = [dist(d) for d in pool]
    highest = nth_highest(dice, 1)
    out: dict[str, Any] = {"schaden": (highest + (bolster - armour)).clip(lower=0).labelled(t("bastionland.preview_damage"))}
    if len(dice) > 1:
        out["schaden_mit_deny"] = (nth_highest(dice, 2) + (bolster - armour)).clip(lower=0).labelled(
            t("bastionland.preview_deny"))
    miss = 1.0
    for d in dice:
        miss *= d.p_less(GAMBIT_MIN)
    out["p_gambit"] = 1.0 - miss
    return out


def attack(attackers: Sequence[Mapping[str, Any]], target: Mapping[str, Any], roller: Roller,
           bonus: Sequence[str] = (), deny: str | None = None, bolster: Sequence[int] = (),
           cover: bool = False, decided: bool = True) -> Resolution:
    """An attack of one or more attackers on one target (Angriffe, steps 1-7).

    ``deny``: who denies (removes the highest die); ``bolster``: the faces
    of dice discarded for Bolster (+1 damage each). With ``decided`` False
    the dice are rolled and the open choices listed, but nothing is applied.
    """
    names = tuple(a["name"] for a in attackers)
    res = Resolution("bastionland", "angriff", names, (target["name"],))
    pool = [d for a in attackers for d in weapon_dice(a)] + list(bonus)
    if not pool:
        raise SheetError(t("bastionland.no_dice", figures=", ".join(names)))
    armour = target.get("sheet", {}).get("ruestung", 0) + (1 if cover else 0)
    res.preview = attack_preview(pool, armour, len(bolster))
    rolls = [roller.roll(d) for d in pool]
    faces = [r.total for r in rolls]
    res.step(t("bastionland.pool", dice=", ".join(f"{d}: {f}" for d, f in zip(pool, faces))),
             "Angriffe, Schritt 1", *rolls)
    remaining = list(faces)
    if not decided:
        res.choices.append(Choice("deny", t("bastionland.choice_deny"), (target["name"],)))
        spendable = tuple(str(f) for f in faces if f >= GAMBIT_MIN)
        if spendable:
            res.choices.append(Choice("gambit", t("bastionland.choice_gambit"), names, spendable))
        res.outcome = {"würfel": faces}
        return res
    if deny:
        removed = max(remaining)
        remaining.remove(removed)
        res.step(t("bastionland.deny", figure=deny, face=removed), "Angriffe, Schritt 2; Deny")
    for face in bolster:
        if face not in remaining or face < GAMBIT_MIN:
            raise SheetError(t("bastionland.bad_gambit", face=face, faces=", ".join(map(str, remaining))))
        remaining.remove(face)
        res.step(t("bastionland.bolster", face=face), "Angriffe, Schritt 3; Gambits")
    top = max(remaining) if remaining else 0
    total = max(0, top + len(bolster) - armour)
    res.step(t("bastionland.total", top=top, bolster=len(bolster), armour=armour, total=total),
             "Angriffe, Schritte 4-7", value=total)
    res.outcome = {"würfel": faces, "höchster": top, "schaden": total}
    damage(target, total, res)
    return res


register(Bastionland())
