"""Advice on an attack's open choices (seed 003: "Angriffe", "Feats", "Gambits", "Strong Gambit",
"Schaden"): Deny, Gambits, Focus.

Each option stands alone (every other open choice declined), with the dice as they fell: the
damage after armour and what it does to the target, the chance of Fatigue and of the gambit's
effect, exact over the dice still to roll. A huge pool's advice names at most ``SHOWN`` dice to
deny and Bolster counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ...dice import Dist
from ...messages import t
from rpgkernel.rules.kit import (DECLINE, Advice, Figure, Option, Request, Resolution, Take, effect_text, listing,
                                 mixture)
from .attack import GAMBIT_MIN, SAVE_EXEMPT, STRONG, STRONG_GAMBIT_MIN, damage_total
from .core import save_chance
from .damage import FOLGEN, OUT_OF_FIGHT, damage
from .settings import gambit_text
from .sheet import virtue

THROWN = Dist.die(6)   # Berittener Kampf: a Dismount's W6 joins the damage dice
SHOWN = 8              # the most dice a Deny's options name and the most Bolster counts (a huge pool's advice
                       # stays short: the dice below the highest all deny to the same end)


@dataclass(frozen=True)
class _Attack:
    """An open attack on one target as its advice reads it (``attack.open_choices`` records it)."""

    key: str                 # the choice's key suffix: "" or ":target"
    target: Figure
    faces: tuple[int, ...]
    armour: int
    melee: bool
    bloodless: bool
    unhurt: bool              # the attack cannot hurt the target (Kriegsscharen; Holz und Stein)
    gambits: Mapping[str, Mapping[str, Any]]

    def effect(self, gambit: str, strong: str | None = None) -> float:
        """The chance a gambit takes effect: certain for Bolster and Move and for a Strong Gambit without
        a save (``keine_probe``), else the target's VIG save fails (Gambits; Strong Gambit)."""
        certain = gambit in SAVE_EXEMPT or strong == "keine_probe"
        return 1.0 if certain else 1 - save_chance(virtue(self.target, "VIG"))

    def damage(self, kept: Sequence[int], bolster: int = 0, thrown: float = 0.0) -> Dist:
        """The damage with ``kept`` dice left and ``bolster``; ``thrown``: the chance a Dismount's W6
        joins the dice."""
        top = max(kept, default=0)
        hits = Dist.const(top).map(lambda x: damage_total(x, self.armour, bolster))
        if not thrown:
            return hits
        joined = THROWN.maximum(top).map(lambda x: damage_total(x, self.armour, bolster))
        return mixture([(1 - thrown, hits), (thrown, joined)])

    def option(self, label: str, takes: Sequence[Take], dealt: Dist, *extra: tuple[str, float],
               more: Sequence[str] = ()) -> Option:
        """An option whose attack deals ``dealt``: what it does to the target, as chances (falls, each
        consequence) and, where the damage is certain, the changes as a note; ``more``: further notes."""
        name = self.target.name
        falls, befalls, notes = 0.0, {}, []
        for amount, p in dealt.pmf().items():
            sub = Resolution("bastionland", "schaden")
            if self.unhurt:
                sub.outcome["folge"] = "unversehrt"
            else:
                damage(self.target, amount, sub, bloodless=self.bloodless)
            befalls[sub.outcome["folge"]] = befalls.get(sub.outcome["folge"], 0.0) + p
            if any(e.on and e.condition in OUT_OF_FIGHT for e in sub.effects):
                falls += p
            if p == 1.0 and sub.effects:
                notes.append(t("bastionland.advice.folgen", ziel=name,
                               effekte=", ".join(effect_text(e) for e in sub.effects)))
        chances = [(t("bastionland.advice.faellt", ziel=name), falls),
                   *((t("bastionland.advice.folge", ziel=name, folge=FOLGEN.get(f, f)), p) for f, p in befalls.items()), *extra]
        return Option(label, tuple(takes), dealt, tuple(chances), (*notes, *more))

    def decline(self, who: str, label: str) -> Option:
        return self.option(label, [Take(DECLINE, who)], self.damage(self.faces))


def _without(faces: Sequence[int], spent: Sequence[int]) -> list[int]:
    left = list(faces)
    for f in spent:
        left.remove(f)
    return left


def _fatigued(figure: Figure, virtue_name: str) -> tuple[str, float]:
    """The chance the user of a feat fails its save and is Fatigued (Feats)."""
    return t("bastionland.advice.fatigued", figure=figure.name), 1 - save_chance(virtue(figure, virtue_name))


def _deny(a: _Attack, who: Figure) -> Advice:
    """Deny each die that fell (one per face) or none: for the target or an ally (Angriffe, Schritt 2; Deny)."""
    key = "deny" + a.key
    options = [a.decline(who.name, t("bastionland.advice.kein_deny"))]
    for face in sorted(set(a.faces), reverse=True)[:SHOWN]:
        options.append(a.option(t("bastionland.advice.deny", face=face), [Take(key, who.name, {"würfel": face})],
                                a.damage(_without(a.faces, [face])), _fatigued(who, "SPI")))
    return Advice(key, who.name, t("bastionland.advice.ziel_deny", ziel=a.target.name), tuple(options),
                  tuple(dict.fromkeys((a.target.name, who.name))), t("advice.alone"))


def _spent(a: _Attack, who: str, spent: Sequence[int], gambit: str, strong: str | None = None) -> Option:
    """The dice ``spent`` on ``gambit`` (several: all on Bolster), the rest kept for the damage (Gambits);
    ``strong``: the Strong Gambit's option (``STRONG``)."""
    key = "gambit" + a.key
    takes = [Take(key, who, {"würfel": f, "gambit": gambit, **({"stark": strong} if strong else {})})
             for f in spent]
    kept = _without(a.faces, spent)
    if gambit == "Bolster":
        return a.option(t("bastionland.advice.bolster", faces=listing([str(f) for f in spent])), takes,
                        a.damage(kept, bolster=len(spent)))
    p = a.effect(gambit, strong)
    label = t(f"bastionland.advice.gambit_{strong}" if strong else "bastionland.advice.gambit", gambit=gambit,
              face=spent[0])
    bigger = gambit_text(gambit, a.gambits[gambit], "groesser") if strong == "größer" else None
    return a.option(label, takes, a.damage(kept, thrown=p if a.gambits[gambit].get("abwurf") else 0.0),
                    (t("bastionland.advice.wirkt", gambit=gambit), p),
                    more=[t("bastionland.advice.groesser", gambit=gambit, text=bigger)] if bigger else [])


def _gambit(a: _Attack, who: str) -> Advice:
    """Keep every die, Bolster with the lowest one, two, ... dice of 4+, each other gambit with the lowest
    such die, and as a Strong Gambit with the lowest melee die of 8+: without a save (where the target has
    one) and with a bigger effect (Gambits; Strong Gambit)."""
    spendable = sorted(f for f in a.faces if f >= GAMBIT_MIN)
    options = [a.decline(who, t("bastionland.advice.behalten"))]
    options += [_spent(a, who, spendable[:k], "Bolster") for k in range(1, min(len(spendable), SHOWN) + 1)]
    strong = [f for f in spendable if f >= STRONG_GAMBIT_MIN] if a.melee else []
    for gambit in a.gambits:
        if gambit == "Bolster":
            continue
        options.append(_spent(a, who, spendable[:1], gambit))
        options += [_spent(a, who, strong[:1], gambit, how) for how in (STRONG if strong else ())
                    if how != "keine_probe" or gambit not in SAVE_EXEMPT]
    return Advice("gambit" + a.key, who, t("bastionland.advice.ziel_angriff", ziel=a.target.name), tuple(options),
                  (a.target.name,), t("advice.alone"))


def _focus(a: _Attack, who: Figure) -> Advice:
    """No Focus, or Focus on each gambit: a gambit without spending a die, then a CLA save (Feats; Focus)."""
    key = "focus" + a.key
    options = [a.decline(who.name, t("bastionland.advice.kein_focus"))]
    for gambit, spec in a.gambits.items():
        p = a.effect(gambit)
        dealt = a.damage(a.faces, bolster=int(gambit == "Bolster"), thrown=p if spec.get("abwurf") else 0.0)
        effect = () if gambit == "Bolster" else ((t("bastionland.advice.wirkt", gambit=gambit), p),)
        options.append(a.option(t("bastionland.advice.focus", gambit=gambit), [Take(key, who.name, {"gambit": gambit})],
                                dealt, *effect, _fatigued(who, "CLA")))
    return Advice(key, who.name, t("bastionland.advice.ziel_angriff", ziel=a.target.name), tuple(options),
                  tuple(dict.fromkeys((a.target.name, who.name))), t("advice.alone"))


def advise(req: Request, res: Resolution) -> list[Advice]:
    """The advice on an open attack's choices: for each choice and each figure who may take it (a Deny
    for the target and each ally offered it; not for one who is Fatigued, who may use no feat)."""
    if res.action != "angriff":
        return []
    everyone = {**req.combatants, **req.figures}
    out = []
    for choice in res.choices:
        base, sep, name = choice.key.partition(":")
        name = name or res.targets[0]
        seen = res.outcome["ziele"][name] if sep else res.outcome
        a = _Attack(":" + name if sep else "", everyone[name], tuple(seen["würfel"]), seen["armour"],
                    seen["nahkampf"], seen["unblutig"], "unverletzbar" in seen, req.settings.gambits)
        deciders = [everyone[n] for n in (*choice.who, *choice.also) if n in everyone]
        if base == "deny":
            out += [_deny(a, f) for f in deciders if not f.has("Fatigued")]
        elif base == "gambit":
            out += [_gambit(a, f.name) for f in deciders]
        elif base == "focus":
            out += [_focus(a, f) for f in deciders]
    return out
