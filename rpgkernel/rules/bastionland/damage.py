"""Damage, scars, warbands and structures (seed 003).

Seed sections: "Schaden", "Schutzlos", "Narben", "Kriegsscharen",
"Holz und Stein", "Berittener Kampf"; who is out of the fight by them and what players are told (with
"Wankender Kampfeswille" and "Überraschung").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from ...dice import Roller
from ...messages import Text, Texts, t
from rpgkernel.rules.kit import Effect, Figure, Resolution, below_max, word
from .sheet import BEINGS, kind, virtue, virtue_max

#: what damage of 0 or less does (Schaden): the outcome's ``folge``
KEIN_SCHADEN = "kein Schaden"
#: the words of each ``folge`` (an attack's consequence) as the advice shows it
FOLGEN = Texts({name: Text(f"bastionland.folge_{key}") for name, key in (
    (KEIN_SCHADEN, "kein_schaden"), ("entgangen", "entgangen"), ("Narbe", "narbe"), ("verwundet", "verwundet"),
    ("Todeswunde", "todeswunde"), ("tot", "tot"), ("vertrieben", "vertrieben"), ("vernichtet", "vernichtet"),
    ("beschädigt", "beschaedigt"), ("zerstört", "zerstoert"), ("unversehrt", "unversehrt"))})

#: causes that hurt wooden structures and ships (Holz und Stein)
WOOD_CAUSES = ("feuer", "belagerung", "groß")

#: the conditions that take a figure out of the fight, the gravest first, with their catalogue keys
#: (bastionland.out_<key>): killed, a warband destroyed, a ship or structure destroyed (Schaden;
#: Kriegsscharen; Holz und Stein), dying of a mortal wound, a warband routed or broken (Schaden;
#: Kriegsscharen; Anwerbung), fled or surrendered (Wankender Kampfeswille), the first turn lost
#: (Überraschung)
OUT_OF_FIGHT = {"tot": "tot", "vernichtet": "vernichtet", "zerstört": "zerstoert", "Todeswunde": "todeswunde",
                "vertrieben": "vertrieben", "gebrochen": "gebrochen", "flieht oder ergibt sich": "flieht",
                "setzt aus": "setzt_aus"}


def out_of_fight(figure: Figure) -> str | None:
    """Why ``figure`` can no longer act, or None: a condition of ``OUT_OF_FIGHT``; a warband at VIG 0
    (destroyed) or SPI 0 (broken: it follows no orders any more, Kriegsscharen; Anwerbung); a ship or
    structure at 0 GD (Holz und Stein). VIG 0 and CLA 0 of a person only restrict its acting (Virtue
    Loss: no attack after moving; exposed), so it stays in the fight."""
    k = kind(figure)
    states = set(figure.conditions)
    if k == "Kriegsschar":
        states |= {c for c, v in (("vernichtet", "VIG"), ("gebrochen", "SPI")) if virtue(figure, v) == 0}
    elif k in ("Schiff", "Bauwerk") and virtue(figure, "GD") == 0:
        states.add("zerstört")
    found = next((key for c, key in OUT_OF_FIGHT.items() if c in states), None)
    return None if found is None else t(f"bastionland.out_{found}")


def player_state(figure: Figure) -> str:
    """What players are told of ``figure`` (Schaden): tot, Todeswunde, the other ways out of the
    fight in ``out_of_fight``'s words, verwundet (damage beyond GD took VIG), GD verloren (GD below its
    maximum: the seed has no word, ``player_words``), else unversehrt."""
    if figure.has("tot"):
        return t("bastionland.state_tot")
    if figure.has("Todeswunde"):
        return t("bastionland.state_todeswunde")
    out = out_of_fight(figure)
    if out is not None:
        return out
    if below_max(figure, "VIG") or figure.has("verwundet"):
        return t("bastionland.state_verwundet")
    return t("bastionland.state_gd_verloren") if below_max(figure, "GD") else word("unversehrt")


def exposed(figure: Figure) -> bool:
    """Schutzlos: unprepared (the condition) or CLA 0 (Virtue Loss); only living beings."""
    return kind(figure) in BEINGS and (figure.has("schutzlos") or virtue(figure, "CLA") == 0)


def scar(figure: Figure, die: str | None, roller: Roller | None, res: Resolution,
         table: Mapping[int, str] | None = None, bloodless: bool = False) -> None:
    """A scar: roll the die that caused it again and read the table (Narben).

    The table is GM data; without it the step gives the roll and says the
    table is missing. No scars in training or bloodless duels. Virtue loss
    from a scar is not damage: the GM applies it with ``virtue_loss``.
    """
    name = figure.name
    if bloodless:
        res.step(t("bastionland.scar_bloodless", figure=name), "Narben")
        res.outcome["folge"] = "entgangen"
        return
    res.outcome["folge"] = "Narbe"
    if die is None or roller is None:
        res.step(t("bastionland.scar", figure=name), "Schaden; Narben", value=0)
        res.effects.append(Effect(name, condition="Narbe"))
        return
    roll = roller.roll(die)
    res.outcome["narbe"] = roll.total
    if table is None:
        text = t("bastionland.scar_no_table", figure=name, die=die, roll=roll.total)
    elif roll.total in table:
        text = t("bastionland.scar_entry", figure=name, die=die, roll=roll.total, entry=table[roll.total])
        res.outcome["narbe_text"] = table[roll.total]
    else:
        text = t("bastionland.scar_no_entry", figure=name, die=die, roll=roll.total)
    res.step(text, "Schaden; Narben", roll, value=roll.total)
    res.effects.append(Effect(name, condition="Narbe", text=res.outcome.get("narbe_text", f"{die}: {roll.total}")))


def ignores(figure: Figure, *, blast: bool = False, large_scale: bool = False,
            cause: str | None = None) -> str | None:
    """Why an attack cannot hurt ``figure``, or None (Kriegsscharen; Holz und Stein)."""
    k = kind(figure)
    material = (figure.value("material", None) or "").lower()
    if k == "Kriegsschar" and not (blast or large_scale):
        return t("bastionland.warband_ignores", figure=figure.name)
    if k in ("Schiff", "Bauwerk"):
        if material == "stein" and cause != "außergewöhnlich":
            return t("bastionland.stone_ignores", figure=figure.name)
        if material != "stein" and cause not in WOOD_CAUSES:
            return t("bastionland.wood_ignores", figure=figure.name, causes=", ".join(WOOD_CAUSES))
    return None


@dataclass(frozen=True)
class Folge:
    """What an amount of damage does to a figure (Schaden; Kriegsscharen; Holz und Stein): its ``name``
    (the outcome's ``folge``: kein Schaden, entgangen, Narbe, verwundet, Todeswunde, tot, vertrieben,
    vernichtet, beschädigt, zerstört), the Guard and Vigour it takes, and the conditions it brings."""

    name: str
    gd: int = 0
    vig: int = 0
    zustaende: tuple[str, ...] = ()


def folge(amount: int, gd: int, vig: int, *, art: str = "Person", schutzlos: bool = False) -> Folge:
    """What ``amount`` damage does to a figure of kind ``art`` with ``gd`` Guard and ``vig`` Vigour
    (Schaden; Kriegsscharen; Holz und Stein): avoided, a scar, a wound, a mortal wound or death.
    ``schutzlos``: it counts as 0 GD (Schutzlos).
    """
    if amount <= 0:
        return Folge(KEIN_SCHADEN)
    if art in ("Schiff", "Bauwerk"):
        lost = min(amount, gd)
        return Folge("zerstört", lost, 0, ("zerstört",)) if amount >= gd else Folge("beschädigt", lost)
    guard = 0 if schutzlos else gd
    if amount < guard:
        return Folge("entgangen", amount)
    if amount == guard:
        return Folge("Narbe", amount)
    lost = min(amount - guard, vig)
    warband = art == "Kriegsschar"
    if vig - lost == 0:
        end: tuple[str, ...] = ("vernichtet" if warband else "tot",)
    elif 2 * lost >= vig:
        end = ("vertrieben" if warband else "Todeswunde",)
    else:
        end = ()
    return Folge(end[0] if end else "verwundet", gd, lost, ("verwundet", *end))


def damage(figure: Figure, amount: int, res: Resolution, *, die: str | None = None,
           roller: Roller | None = None, table: Mapping[int, str] | None = None, bloodless: bool = False) -> str:
    """Apply damage against GD, then VIG (Schaden; the consequence is ``folge``'s); records steps and
    effects on ``res`` and returns what befell the figure as a clause of the summary ("Söldner verliert
    2 VIG und ist verwundet"). A scar rolls ``die`` again (Narben)."""
    name = figure.name
    k = kind(figure)
    gd = 0 if exposed(figure) else virtue(figure, "GD")
    f = folge(amount, virtue(figure, "GD"), virtue(figure, "VIG"), art=k, schutzlos=exposed(figure))
    res.outcome["folge"] = f.name
    if f.name == KEIN_SCHADEN:
        res.step(t("bastionland.no_damage", figure=name), "Schaden")
        return t("bastionland.satz.kein_schaden", ziel=name)
    who = name
    if exposed(figure):
        res.step(t("bastionland.exposed", figure=name), "Schutzlos")
        who = t("bastionland.satz.schutzlos", ziel=name)
    if f.gd:
        res.effects.append(Effect(name, "GD", -f.gd))
    if k in ("Schiff", "Bauwerk"):
        if f.name == "zerstört":
            res.effects.append(Effect(name, condition="zerstört"))
            res.step(t("bastionland.destroyed", figure=name), "Holz und Stein")
            return t("bastionland.satz.zerstört", ziel=who)
        res.step(t("bastionland.avoided", figure=name, gd=gd - amount), "Holz und Stein", value=gd - amount)
        return t("bastionland.satz.beschädigt", ziel=who, gd=amount, rest=gd - amount)
    if f.name == "entgangen":
        res.step(t("bastionland.avoided", figure=name, gd=gd - amount), "Schaden", value=gd - amount)
        return t("bastionland.satz.entgangen", ziel=who, gd=amount)
    if f.name == "Narbe":
        scar(figure, die, roller, res, table, bloodless)
        return t("bastionland.satz.narbe" if res.outcome["folge"] == "Narbe" else "bastionland.satz.ohne_narbe",
                 ziel=who, gd=amount)
    vig = virtue(figure, "VIG")
    res.effects.append(Effect(name, "VIG", -f.vig))
    res.effects += [Effect(name, condition=c) for c in f.zustaende]
    res.step(t("bastionland.wounded", figure=name, excess=amount - gd, vig=vig - f.vig), "Schaden", value=vig - f.vig)
    warband = k == "Kriegsschar"
    if f.name in ("tot", "vernichtet"):
        res.step(t("bastionland.warband_destroyed" if warband else "bastionland.dead", figure=name),
                 "Kriegsscharen" if warband else "Schaden")
    elif f.name in ("Todeswunde", "vertrieben"):
        res.step(t("bastionland.warband_routed" if warband else "bastionland.mortal", figure=name),
                 "Kriegsscharen" if warband else "Schaden")
    return t("bastionland.satz." + f.name.lower(), ziel=who, vig=f.vig)


def repair(figure: Figure) -> Resolution:
    """A day of repair restores a ship's or structure's GD (Holz und Stein)."""
    res = Resolution("bastionland", "reparatur", (figure.name,))
    gap = virtue_max(figure, "GD") - virtue(figure, "GD")
    if gap:
        res.effects.append(Effect(figure.name, "GD", gap))
    if figure.has("zerstört"):
        res.effects.append(Effect(figure.name, condition="zerstört", on=False))
    res.step(t("bastionland.repaired", figure=figure.name, gd=virtue_max(figure, "GD")), "Holz und Stein")
    res.summary = t("bastionland.satz.repariert", wer=figure.name)
    return res


def collide(a: Figure, b: Figure, roller: Roller, much_larger: str | None = None) -> Resolution:
    """Colliding ships take W12 each; a much larger one takes W6 instead (Holz und Stein).

    ``much_larger``: the name of the much larger ship, if any. Armour does not
    apply (the seed gives the damage plainly).
    """
    res = Resolution("bastionland", "zusammenstoß", (a.name, b.name))
    said = []
    for ship in (a, b):
        die = "W6" if ship.name == much_larger else "W12"
        roll = roller.roll(die)
        res.step(t("bastionland.collision", figure=ship.name, die=die, roll=roll.total), "Holz und Stein",
                 roll, value=roll.total)
        sub = Resolution("bastionland", "schaden")
        said.append(damage(ship, roll.total, sub))
        res.steps += sub.steps
        res.effects += sub.effects
        res.outcome[ship.name] = {"schaden": roll.total, "folge": sub.outcome.get("folge")}
    res.summary = t("bastionland.satz.zusammenstoß", a=a.name, b=b.name, folgen="; ".join(said))
    return res


def thrown_from_saddle(figure: Figure, roller: Roller) -> Resolution:
    """Thrown from the saddle outside a fight: W6 damage (Berittener Kampf).

    In a fight the W6 joins the attack's damage dice instead (``attack``, Dismount).
    """
    res = Resolution("bastionland", "abwurf", (figure.name,))
    roll = roller.roll("W6")
    res.step(t("bastionland.thrown", figure=figure.name, roll=roll.total), "Berittener Kampf", roll,
             value=roll.total)
    res.effects.append(Effect(figure.name, condition="abgeworfen"))
    res.summary = t("bastionland.satz.abwurf", wer=figure.name,
                    folge=damage(figure, roll.total, res, die="W6", roller=roller))
    return res
