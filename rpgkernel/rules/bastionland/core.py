"""Mythic Bastionland basics (seed 003): saves, virtues, recovery, morale.

Seed sections: "Proben", "Virtues", "Reaktion", "Überraschung",
"Virtue Loss", "Erholung", "Wankender Kampfeswille".
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from ...dice import Roller
from ...messages import Text, Texts, t
from rpgkernel.rules.kit import Effect, Figure, Resolution, SheetError, clauses, listing, sentence, spread
from .settings import BastionlandError
from .sheet import VIRTUE_LIMITS, VIRTUES, is_player, kind, virtue, virtue_max


def save_chance(value: int) -> float:
    """P(W20 <= value) (Proben)."""
    return max(0, min(value, 20)) / 20


def _check_virtue(name: str) -> str:
    name = name.upper()
    if name not in VIRTUES:
        raise SheetError(t("bastionland.bad_virtue", name=name, known=", ".join(VIRTUES)))
    return name


def save(res: Resolution, figure: Figure, name: str, roller: Roller, rule: str = "Proben") -> bool:
    """Roll a save into ``res``: W20 equal to or under the virtue (Proben)."""
    name = _check_virtue(name)
    value = virtue(figure, name)
    roll = roller.roll("W20")
    ok = roll.total <= value
    res.step(t("bastionland.save", figure=figure.name, roll=roll.total, virtue=name, value=value,
               result=t("bastionland.success" if ok else "bastionland.failure")), rule, roll, value=roll.total)
    return ok


def probe(figure: Figure, name: str, roller: Roller) -> Resolution:
    """A save: W20 equal to or under the virtue (Proben)."""
    name = _check_virtue(name)
    value = virtue(figure, name)
    res = Resolution("bastionland", "probe", (figure.name,))
    res.preview = save_chance(value)
    roll = roller.roll("W20")
    ok = roll.total <= value
    res.step(t("bastionland.save", figure=figure.name, roll=roll.total, virtue=name, value=value,
               result=t("bastionland.success" if ok else "bastionland.failure")), "Proben", roll, value=roll.total)
    res.outcome = {"erfolg": ok, "wurf": roll.total, "wert": value}
    res.summary = t("bastionland.satz.probe_bestanden" if ok else "bastionland.satz.probe_misslungen",
                    wer=figure.name, virtue=name)
    return res


def reaction(figure: Figure, roller: Roller) -> Resolution:
    """An NPC's reaction when in doubt: SPI save to avoid an unfavourable one (Reaktion)."""
    res = probe(figure, "SPI", roller)
    res.action = "reaktion"
    ok = res.outcome["erfolg"]
    res.step(t("bastionland.reaction_ok" if ok else "bastionland.reaction_bad", figure=figure.name), "Reaktion")
    res.outcome["reaktion"] = "nicht ungünstig" if ok else "ungünstig"
    res.summary = t("bastionland.satz.reaktion_gut" if ok else "bastionland.satz.reaktion_schlecht",
                    wer=figure.name)
    return res


def surprise(figures: Sequence[Figure], roller: Roller) -> Resolution:
    """Whoever was not ready makes a CLA save or loses the first turn (Überraschung).

    ``figures`` are those not ready; the players' side acts first anyway.
    """
    res = Resolution("bastionland", "überraschung", tuple(f.name for f in figures))
    res.preview = {f"CLA {f.name}": save_chance(virtue(f, "CLA")) for f in figures}
    lost = []
    for f in figures:
        if not save(res, f, "CLA", roller, "Überraschung"):
            lost.append(f.name)
            res.effects.append(Effect(f.name, condition="setzt aus", rounds=1))
            res.step(t("bastionland.loses_turn", figure=f.name), "Überraschung")
    res.outcome = {"setzt_aus": lost}
    ready = [n for n in res.actors if n not in lost]
    res.summary = clauses([sentence("bastionland.satz.setzt_aus", lost) if lost else "",
                           sentence("bastionland.satz.kampfbereit", ready) if ready else ""])
    return res


SPIELER = "Spieler"   # the players' side, which takes the first turn (Überraschung)


def reihenfolge(figures: Mapping[str, Figure]) -> list[str]:
    """The players' side first, then the others in the order they joined (Überraschung: "Normalerweise
    führen die Spielenden im Kampf den ersten Zug aus. Sie besprechen ihren Plan und handeln in
    beliebiger Reihenfolge."); no initiative is rolled."""
    return sorted(figures, key=lambda name: figures[name].side != SPIELER)


def umstellung_verweigert(change: str, figure: Figure, overtaken: Sequence[Figure]) -> str | None:
    """Why the order may not change so (Überraschung), or None: there is no initiative to roll anew or
    for a group; the players act in any order among themselves, and nobody else before them."""
    if change in ("neu", "gruppe"):
        return t("bastionland.no_initiative")
    players = [o.name for o in overtaken if o.side == SPIELER]
    if figure.side != SPIELER and players:
        return t("bastionland.order_players_first", figure=figure.name, others=listing(players))
    return None


def change_virtue(figure: Figure, name: str, by: int) -> Effect | None:
    """The effect of a virtue change, kept within 0-19 (Virtues, as every change of a virtue:
    ``sheet.VIRTUE_LIMITS``); None if nothing changes."""
    name = _check_virtue(name)
    landed, = spread(figure, name, by, lambda _: VIRTUE_LIMITS)
    return Effect(figure.name, name, landed.by) if landed.by else None


def virtue_loss(figure: Figure, name: str, amount: int, cause: str = "") -> Resolution:
    """Virtue loss that is not damage: never kills, never a mortal wound (Virtue Loss).

    At 0: VIG - cannot attack after moving; CLA - exposed; SPI - attacks
    impaired; a warband at SPI 0 is broken (Kriegsscharen).
    """
    name = _check_virtue(name)
    res = Resolution("bastionland", "virtue-verlust", (figure.name,))
    eff = change_virtue(figure, name, -abs(amount))
    new = virtue(figure, name) + (eff.by if eff else 0)
    res.step(t("bastionland.virtue_loss", figure=figure.name, virtue=name, amount=abs(amount), value=new,
               cause=f" ({cause})" if cause else ""), "Virtue Loss", value=new)
    if eff:
        res.effects.append(eff)
    said = "bastionland.satz.verlust"
    if new == 0:
        if kind(figure) == "Kriegsschar" and name == "SPI":
            res.effects.append(Effect(figure.name, condition="gebrochen"))
            res.step(t("bastionland.warband_broken", figure=figure.name), "Kriegsscharen; Anwerbung")
            said = "bastionland.satz.verlust_gebrochen"
        else:
            res.step(t(f"bastionland.zero_{name.lower()}", figure=figure.name), "Virtue Loss")
            if name == "VIG":
                res.effects.append(Effect(figure.name, condition="entkräftet"))
            said = f"bastionland.satz.verlust_{name.lower()}_null"
    res.outcome = {"virtue": name, "wert": new, "tödlich": False}
    res.summary = t(said, wer=figure.name, um=abs(amount), virtue=name, wert=new)
    return res


def virtue_gain(figure: Figure, name: str, amount: int) -> Resolution:
    """A virtue rises, never above 19 (Virtues)."""
    name = _check_virtue(name)
    res = Resolution("bastionland", "virtue-gewinn", (figure.name,))
    eff = change_virtue(figure, name, abs(amount))
    new = virtue(figure, name) + (eff.by if eff else 0)
    if eff:
        res.effects.append(eff)
    res.step(t("bastionland.virtue_gain", figure=figure.name, virtue=name, value=new), "Virtues", value=new)
    res.outcome = {"virtue": name, "wert": new}
    res.summary = t("bastionland.satz.gewinn", wer=figure.name, virtue=name, wert=new)
    return res


def calm_moment(figures: Sequence[Figure]) -> Resolution:
    """A calm moment after the danger: GD fully restored, Fatigued ends (Erholung; Feats)."""
    res = Resolution("bastionland", "ruhe", tuple(f.name for f in figures))
    rested = []
    for f in figures:
        gap = virtue_max(f, "GD") - virtue(f, "GD")
        if gap:
            res.effects.append(Effect(f.name, "GD", gap))
        if f.has("Fatigued"):
            res.effects.append(Effect(f.name, condition="Fatigued", on=False))
            rested.append(f.name)
        res.step(t("bastionland.calm", figure=f.name, gd=virtue_max(f, "GD")), "Erholung")
    res.summary = clauses([sentence("bastionland.satz.ruhe", res.actors),
                           t("bastionland.satz.fatigued_endet", wer=listing(rested)) if rested else ""])
    return res


RESTORE_MEANS = ("stärkungsmittel", "handlung", "jahreszeit")
FITTING = Texts({  # Erholung: what restores each virtue
    "VIG": Text("bastionland.fitting_vig"),
    "CLA": Text("bastionland.fitting_cla"),
    "SPI": Text("bastionland.fitting_spi"),
})


def restore(figures: Sequence[Figure], name: str | None, means: str) -> Resolution:
    """Virtues fully restored (Erholung; Stärkungsmittel).

    ``means``: a fitting restorative (one serves the whole company present,
    takes a whole phase of the day), a fitting action, or a new season
    (``jahreszeit``: all three virtues). ``name`` is the virtue (not for a season).
    """
    means = means.lower()
    if means not in RESTORE_MEANS:
        raise BastionlandError(t("bastionland.bad_means", means=means, known=", ".join(RESTORE_MEANS)))
    names = VIRTUES if means == "jahreszeit" else (_check_virtue(name or ""),)
    res = Resolution("bastionland", "erholung", tuple(f.name for f in figures))
    for f in figures:
        for v in names:
            gap = virtue_max(f, v) - virtue(f, v)
            if gap > 0:
                res.effects.append(Effect(f.name, v, gap))
            res.step(t("bastionland.restored", figure=f.name, virtue=v, value=virtue_max(f, v),
                       how=FITTING[v] if means != "jahreszeit" else t("bastionland.season")), "Erholung")
    res.outcome = {"mittel": means, "virtues": list(names)}
    res.summary = sentence("bastionland.satz.erholung", res.actors, virtues=listing(names))
    return res


#: the condition of a figure that failed its morale save (Wankender Kampfeswille)
FLIEHT = "flieht oder ergibt sich"


def wankt(figure: Figure) -> bool:
    """Whether ``figure`` as an individual must save against wavering morale (Wankender Kampfeswille):
    wounded (verwundet, Todeswunde) and no player character."""
    return not is_player(figure) and (figure.has("verwundet") or figure.has("Todeswunde"))


def gruppen(figures: Sequence[Figure]) -> list[list[Figure]]:
    """The groups among ``figures`` whose morale wavers together (Wankender Kampfeswille): the NPC
    persons (player characters are exempt; warbands, ships and structures take rules of their own) of
    one group of the encounter (``Figure.group``) where it has any, else of one side; at least two
    (one alone is an individual)."""
    npcs = [f for f in figures if not is_player(f) and kind(f) == "Person"]
    labelled = any(f.group is not None for f in npcs)
    found: dict[str, list[Figure]] = {}
    for f in npcs:
        key = f.group if labelled else f.side
        if key is not None:
            found.setdefault(key, []).append(f)
    return [members for members in found.values() if len(members) > 1]


def einzelne(figures: Sequence[Figure]) -> list[Figure]:
    """The individuals among ``figures`` whose morale wavers alone (Wankender Kampfeswille): the NPC
    persons in none of the ``gruppen``."""
    grouped = {f.name for g in gruppen(figures) for f in g}
    return [f for f in figures if not is_player(f) and kind(f) == "Person" and f.name not in grouped]


def morale(figures: Sequence[Figure], roller: Roller, *, group: bool = False,
           organised: bool = True, leader: Figure | None = None,
           lost: int = 0, size: int = 0) -> Resolution:
    """Wavering morale (Wankender Kampfeswille).

    An individual who is wounded, or a group that has lost at least half its
    members, makes a SPI save or flees/surrenders. An organised group rolls
    once with its leader's SPI, an unorganised one per member with their own.
    Player characters are exempt.
    """
    res = Resolution("bastionland", "moral", tuple(f.name for f in figures))
    npcs = [f for f in figures if not is_player(f)]
    for f in figures:
        if is_player(f):
            res.step(t("bastionland.morale_player", figure=f.name), "Wankender Kampfeswille")
    if group and 2 * lost < size:
        res.step(t("bastionland.morale_group_holds", lost=lost, size=size), "Wankender Kampfeswille")
        res.outcome = {"flieht": []}
        res.summary = sentence("bastionland.satz.gruppe_hält", res.actors)
        return res
    rollers = _morale_rollers(res, npcs, group, organised, leader)
    res.preview = {f"SPI {f.name}": save_chance(virtue(f, "SPI")) for f in rollers}
    fled = _morale_saves(res, rollers, roller, [g.name for g in npcs] if group and organised else None)
    res.outcome = {"flieht": fled}
    held = [n for n in res.actors if n not in fled]
    res.summary = clauses([sentence("bastionland.satz.flieht", fled) if fled else "",
                           sentence("bastionland.satz.hält_stand", held) if held else ""])
    return res


def _morale_rollers(res: Resolution, npcs: list[Figure], group: bool, organised: bool,
                    leader: Figure | None) -> list[Figure]:
    """Who makes the SPI save: an organised group's leader, an unorganised group's every member, or
    each wounded individual (Wankender Kampfeswille)."""
    if group:
        return [leader or npcs[0]] if organised and npcs else npcs
    rollers = [f for f in npcs if wankt(f)]
    for f in npcs:
        if f not in rollers:
            res.step(t("bastionland.morale_unhurt", figure=f.name), "Wankender Kampfeswille")
    return rollers


def _morale_saves(res: Resolution, rollers: list[Figure], roller: Roller,
                  group: list[str] | None) -> list[str]:
    """The SPI saves; who fails flees or surrenders, with the whole ``group`` an organised one rolled for."""
    fled: list[str] = []
    for f in rollers:
        if not save(res, f, "SPI", roller, "Wankender Kampfeswille"):
            fled += group if group is not None else [f.name]
    for name in fled:
        res.effects.append(Effect(name, condition=FLIEHT))
        res.step(t("bastionland.morale_flees", figure=name), "Wankender Kampfeswille")
    return fled


def names(figures: Iterable[Figure]) -> tuple[str, ...]:
    return tuple(f.name for f in figures)
