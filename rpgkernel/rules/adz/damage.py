"""Damage tracks, injury malus and healing (seed 004).

Seed sections: "Körperlicher Schaden", "Geistiger Schaden" (and who is out of the fight by
them, and what players are told). The tracks are
the resources ``körperlich`` and ``geistig``: the value is the steps still
free (the maximum: unhurt; 0: the last step is marked). Their length and the
malus per step are GM data (``schadensleiste``, default 12 steps).
"""

from __future__ import annotations

from typing import NamedTuple

from ...messages import t
from rpgkernel.rules.kit import Effect, Figure, Landed, Resolution, clauses, counted, spread, word
from .settings import EINSTELLUNGEN, AdzError, Daten
from .sheet import GEISTIG, KOERPERLICH, leistengrenzen

LEISTEN = (KOERPERLICH, GEISTIG)
BEWUSSTLOS = "bewusstlos"
TOD_NAHE = "dem Tod nahe"                  # the last physical step: saved if treated at once
JENSEITS = "jenseits der letzten Stufe"    # beyond it: only immediate healing magic


def leiste(name: str) -> str:
    key = name.casefold().replace("ö", "o").replace("oe", "o")
    for track in LEISTEN:
        if track.replace("ö", "o") == key or track.replace("ö", "o").startswith(key) and len(key) >= 4:
            return track
    raise AdzError(t("adz.unknown_track", name=name, known=", ".join(LEISTEN)))


def angekreuzt(figur: Figure, track: str) -> int:
    """Marked steps of a track."""
    found = figur.resource(track)
    return max(0, found.max - found.value) if found else 0


def verletzungsmalus(figur: Figure, daten: Daten | None = None) -> int | None:
    """The injury malus: the higher of both tracks' (never on resistance rolls); None at the last step
    ("X": unconscious). ``daten``: the GM's data with the malus per step (default: the defaults)."""
    table = (daten or EINSTELLUNGEN.defaults()).malus
    worst = 0
    for track in LEISTEN:
        n = angekreuzt(figur, track)
        if n == 0:
            continue
        m = table[min(n, len(table)) - 1]
        if m == "X":
            return None
        worst = max(worst, int(m))
    return worst


def verteilen(figur: Figure, track: str, menge: int) -> list[Landed]:
    """How ``menge`` steps of damage land on the tracks: marked on ``track`` down to its last step,
    mental damage beyond it on the physical track; the physical share's cut is what goes beyond its
    last step. The campaign lands every change of a track so (``sheet.leistengrenzen``); the numbers
    alone, without the notes (``limits.spread``)."""
    return spread(figur, track, -menge, lambda name: leistengrenzen(figur, name), noted=False)


class Wirkung(NamedTuple):
    """What ``menge`` > 0 steps of damage on a track do (``wirkung``): how they land (``verteilen``: the
    track's share, then the physical track's of mental damage beyond the last step), the effects in
    order, and the physical track's end reached (``TOD_NAHE`` or ``JENSEITS``, with the steps beyond)."""

    anteile: list[Landed]
    effekte: list[Effect]
    ende: tuple[str, int] | None


def wirkung(figur: Figure, menge: int, track: str = KOERPERLICH) -> Wirkung:
    """The numbers of ``schaden`` (``menge`` > 0 steps on ``track``, a track's name), no words: the
    effects of Körperlicher Schaden and Geistiger Schaden (``Wirkung``)."""
    anteile = verteilen(figur, track, menge)
    effekte: list[Effect] = []
    share = anteile[0]
    if share.by:
        effekte.append(Effect(figur.name, track, share.by))
    if track == GEISTIG:
        if share.new == 0:
            _condition(effekte, figur, BEWUSSTLOS)
        if len(anteile) == 1:
            return Wirkung(anteile, effekte, None)
        share = anteile[1]
        if share.by:
            effekte.append(Effect(figur.name, KOERPERLICH, share.by))
    if share.new > 0:
        return Wirkung(anteile, effekte, None)
    beyond = share.by - share.asked
    _condition(effekte, figur, BEWUSSTLOS)
    ende = JENSEITS if beyond > 0 or figur.has(JENSEITS) else TOD_NAHE
    _condition(effekte, figur, ende)
    return Wirkung(anteile, effekte, (ende, beyond))


def schaden(res: Resolution, figur: Figure, menge: int, track: str = KOERPERLICH, rule: str = "") -> None:
    """Mark ``menge`` steps on a track (Körperlicher Schaden; Geistiger Schaden): the effects of
    ``wirkung``, told. Mental damage beyond the last mental step goes on the physical track; the
    last step of either means unconsciousness; beyond the last physical step only immediate healing
    magic can save the figure."""
    track = leiste(track)
    if menge < 0:
        raise AdzError(t("adz.bad_amount", value=menge))
    if menge == 0:
        res.step(t("adz.no_damage", figure=figur.name), rule or "Auswirkungen", value=0)
        return
    found = wirkung(figur, menge, track)
    for effect in found.effekte:
        if effect.condition is None:
            res.effects.append(effect)
        else:
            _condition(res.effects, figur, effect.condition)
    share, *over = found.anteile
    res.step(t("adz.damage", figure=figur.name, n=menge, track=t(f"adz.track_{track}"), left=share.new),
             rule or ("Körperlicher Schaden" if track == KOERPERLICH else "Geistiger Schaden"), value=menge)
    if track == GEISTIG and share.new == 0:
        res.step(t("adz.mental_unconscious", figure=figur.name), "Geistiger Schaden")
    if track == GEISTIG and over:
        res.step(t("adz.mental_overflow", figure=figur.name, n=-over[0].asked), "Geistiger Schaden")
    if found.ende is not None:
        ende, beyond = found.ende
        res.step(t("adz.beyond_last", figure=figur.name, n=beyond) if ende == JENSEITS
                 else t("adz.last_step", figure=figur.name), "Körperlicher Schaden")


def _condition(effects: list[Effect], figur: Figure, name: str) -> None:
    """``name`` given to ``figur`` among ``effects``, unless it has it or is given it there already."""
    if not figur.has(name) and not any(e.condition == name and e.figure == figur.name for e in effects):
        effects.append(Effect(figur.name, condition=name))


def out_of_fight(figur: Figure) -> str | None:
    """Why ``figur`` can no longer act, or None (Körperlicher Schaden; Geistiger Schaden): beyond the
    last physical step, at it (unconscious and near death), at the last mental step (unconscious);
    read from the tracks and from the conditions the damage gave."""
    if figur.has(JENSEITS):
        return t("adz.out_beyond")
    if figur.has(TOD_NAHE) or _am_ende(figur, KOERPERLICH):
        return t("adz.out_near_death")
    if figur.has(BEWUSSTLOS) or _am_ende(figur, GEISTIG):
        return t("adz.out_unconscious")
    return None


def faellt(figur: Figure, menge: int, track: str = KOERPERLICH) -> bool:
    """Whether ``menge`` steps on ``track`` leave ``figur`` out of the fight (``out_of_fight``), as
    ``schaden`` marks them."""
    res = Resolution("adz", "schaden")
    schaden(res, figur, menge, track)
    return out_of_fight(figur) is not None or any(
        e.on and e.figure == figur.name and e.condition in (BEWUSSTLOS, TOD_NAHE, JENSEITS) for e in res.effects)


def schwelle(figur: Figure, track: str = KOERPERLICH) -> int:
    """The least damage on ``track`` that leaves ``figur`` out of the fight (``faellt``; more does too, and
    marking every free step of the track does): a damage distribution's chance to take it out is its
    chance of at least this."""
    low, high = 0, max(0, figur.current(track))
    while low < high:
        mid = (low + high) // 2
        low, high = (low, mid) if faellt(figur, mid, track) else (mid + 1, high)
    return low


def player_state(figur: Figure) -> str:
    """What players are told of ``figur`` (Körperlicher Schaden; Geistiger Schaden): the seed's states
    of the last steps (``out_of_fight``'s words), else verletzt (physical steps marked: "Verletzungen")
    and erschöpft (mental steps marked: "unkonzentrierter und erschöpfter"), else unversehrt (no step
    marked: the seed has no word, ``player_words``)."""
    out = out_of_fight(figur)
    if out is not None:
        return out
    marked = [w for track, w in ((KOERPERLICH, "verletzt"), (GEISTIG, "erschoepft")) if angekreuzt(figur, track)]
    return ", ".join(word(w) for w in marked) or word("unversehrt")


def _am_ende(figur: Figure, track: str) -> bool:
    """Whether the last step of ``track`` is marked (a figure without the track: no)."""
    found = figur.resource(track)
    return found is not None and found.value <= 0


def schadensstufen(n: int, track: str) -> str:
    """``1 Stufe körperlichen Schaden``, ``3 Stufen geistigen Schaden`` (for the card's sentence)."""
    return counted("adz.satz.stufen", n, art=t(f"adz.satz.art_{track}"))


def folge_satz(res: Resolution, figur: Figure) -> str:
    """The clause saying what the damage leaves the figure: beyond the last step, near death,
    unconscious (else "")."""
    now = set(figur.conditions) | {e.condition for e in res.effects if e.figure == figur.name and e.on}
    for cond, key in ((JENSEITS, "adz.satz.jenseits"), (TOD_NAHE, "adz.satz.tod_nahe"),
                      (BEWUSSTLOS, "adz.satz.bewusstlos")):
        if cond in now:
            return t(key, figure=figur.name)
    return ""


def schaden_nehmen(figure: Figure, menge: int, track: str = KOERPERLICH) -> Resolution:
    """Damage from anything but a melee chain or spell: steps marked on a track."""
    res = Resolution("adz", "schaden", (figure.name,))
    schaden(res, figure, menge, track)
    res.outcome = {"schaden": menge, "leiste": leiste(track)}
    if menge:
        said = t("adz.satz.schaden", figure=figure.name, schaden=schadensstufen(menge, leiste(track)))
        res.summary = clauses([said, folge_satz(res, figure)])
    else:
        res.summary = clauses([t("adz.satz.kein_schaden", figure=figure.name)])
    return res


def heilung(figure: Figure, stufen: int, track: str = KOERPERLICH, phasen: int | None = None,
            magisch: bool = False, daten: Daten | None = None) -> Resolution:
    """Healing (Körperlicher Schaden; Geistiger Schaden): steps come off, the last first.

    Natural physical healing takes ``phasen`` rest phases per step (1-3, the
    GM's estimate); mental about 30 minutes per step without exertion.
    Beyond the last physical step only healing magic (``magisch``) helps. ``daten``: the GM's data
    with the healing times (default: the defaults).
    """
    daten = daten or EINSTELLUNGEN.defaults()
    track = leiste(track)
    res = Resolution("adz", "heilung", (figure.name,))
    if stufen < 1:
        raise AdzError(t("adz.bad_steps", value=stufen))
    if figure.has(JENSEITS) and not magisch:
        raise AdzError(t("adz.only_magic", figure=figure.name))
    healed = min(stufen, angekreuzt(figure, track))
    heildauer(res, figure, healed, track, phasen, magisch, daten)
    if healed:
        res.effects.append(Effect(figure.name, track, healed))
    after = {tr: figure.current(tr) + (healed if tr == track else 0) for tr in LEISTEN}
    said = [t("adz.satz.heilung_magisch" if magisch else "adz.satz.heilung", figure=figure.name,
              schaden=schadensstufen(healed, track)) if healed else
            t("adz.satz.heilung_nichts", figure=figure.name, art=t(f"adz.satz.art_{track}"))]
    said += erwachen(res, figure, after)
    res.outcome = {"geheilt": healed, "leiste": track, "frei": after[track]}
    res.summary = clauses(said)
    return res


def heildauer(res: Resolution, figure: Figure, healed: int, track: str, phasen: int | None, magisch: bool,
              daten: Daten) -> None:
    """How long the healing takes: magic at once, physical ``phasen`` rest phases per step (the GM's
    estimate, within the data's range), mental the data's minutes per step."""
    if magisch:
        res.step(t("adz.healed_magic", figure=figure.name, n=healed, track=t(f"adz.track_{track}")),
                 "Körperlicher Schaden")
    elif track == KOERPERLICH:
        low, high = daten.heilung["koerperlich_phasen"]
        if phasen is None or not low <= phasen <= high:
            raise AdzError(t("adz.needs_phases", low=low, high=high))
        res.step(t("adz.healed_rest", figure=figure.name, n=healed, phases=phasen, total=healed * phasen),
                 "Körperlicher Schaden")
    else:
        minutes = daten.heilung["geistig_minuten"]
        res.step(t("adz.healed_mind", figure=figure.name, n=healed, minutes=healed * minutes), "Geistiger Schaden")


def erwachen(res: Resolution, figure: Figure, after: dict[str, int]) -> list[str]:
    """With a free physical box the figure is no longer near death or beyond; with a free box on every
    track it wakes up. Returns the clauses of the summary."""
    if after[KOERPERLICH] > 0:
        for cond in (TOD_NAHE, JENSEITS):
            if figure.has(cond):
                res.effects.append(Effect(figure.name, condition=cond, on=False))
    if all(v > 0 for v in after.values()) and figure.has(BEWUSSTLOS):
        res.effects.append(Effect(figure.name, condition=BEWUSSTLOS, on=False))
        return [t("adz.satz.wach", figure=figure.name)]
    if any(not e.on for e in res.effects):
        return [t("adz.satz.gerettet", figure=figure.name)]
    return []
