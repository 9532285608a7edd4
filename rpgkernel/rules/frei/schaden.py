"""Damage and healing without a ruleset: an amount, given or rolled, changes the resource that counts
(``sheet.ressource_von``: HP by default) of each named figure, within its limits
(``rules.limits``); at 0 or below a figure is out of the fight (``Frei.out_of_fight``).
One roll for all the figures of a line; an amount below 0 counts as 0.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...dice import Dist, Roller, dist
from ...messages import t
from rpgkernel.rules.kit import Effect, Figure, Resolution, RulesError, clauses, hurt, spread, vorgabe, word
from .settings import DATEN, EINSTELLUNGEN
from .sheet import UNGENANNT, ressource_von


class FreiError(RulesError):
    """Damage or healing the free mode cannot carry out (a figure without the resource that counts)."""


def ressource(figure: Figure, data: Mapping[str, Any]) -> str:
    """The resource that counts for ``figure``, or a German error naming how the GM sets it."""
    name = ressource_von(figure, data)
    if name is None:
        wanted = EINSTELLUNGEN.of(data).ressource if data.get(DATEN) else "/".join(UNGENANNT)
        raise FreiError(t("frei.no_resource", figure=figure.name, resource=wanted, name=DATEN))
    return name


def nach(figure: Figure, name: str, by: int, data: Mapping[str, Any]) -> int:
    """The value of ``figure``'s resource ``name`` after a change by ``by``, within its limits (the
    kit's default limits, which the free mode keeps)."""
    landed = spread(figure, name, by, lambda r: vorgabe(figure, r, data))
    return figure.current(name) + sum(s.by for s in landed if s.resource == name)


def betrag(menge: str) -> Dist:
    """The distribution of the amount ``menge`` changes a resource by: rolled, below 0 counted as 0."""
    return dist(menge).clip(lower=0)


def out_of_fight(figure: Figure, data: Mapping[str, Any]) -> str | None:
    """``kampfunfähig`` at 0 or below of the resource that counts (``sheet.ressource_von``), else None;
    a figure with none of them never leaves the fight by itself."""
    name = ressource_von(figure, data)
    found = None if name is None else figure.resource(name)
    return t("rules.free_out", resource=name, value=found.value) if found is not None and found.value <= 0 \
        else None


def _menge(res: Resolution, key: str, ausdruck: str, roller: Roller) -> int:
    """The amount: ``ausdruck`` rolled (a number stands for itself), below 0 counted as 0."""
    roll = roller.roll(ausdruck)
    amount = max(0, roll.total)
    text = t(f"frei.{key}_menge", expr=ausdruck, amount=roll.total)
    res.step(text + (" " + t("frei.unter_null") if roll.total < 0 else ""), "", roll, value=amount)
    return amount


def schaden(figuren: Sequence[Figure], menge: str, roller: Roller, data: Mapping[str, Any]) -> Resolution:
    """``menge`` (rolled once) off the resource that counts for each of ``figuren``, within its limits."""
    res = Resolution("", "schaden", tuple(f.name for f in figuren))
    names = {f.name: ressource(f, data) for f in figuren}
    amount = _menge(res, "schaden", menge, roller)
    said, after, out = [], {}, []
    for fig in figuren:
        name = names[fig.name]
        old, new = fig.current(name), nach(fig, name, -amount, data)
        after[fig.name] = new
        if amount:
            res.effects.append(Effect(fig.name, name, -amount))
        res.step(t("frei.schaden_figur", figure=fig.name, resource=name, amount=amount, old=old), "")
        clause = t("frei.satz.schaden" if old != new else "frei.satz.kein_schaden", figure=fig.name,
                   resource=name, n=old - new, old=old, new=new)
        if new <= 0:
            why = t("rules.free_out", resource=name, value=new)
            res.step(t("frei.ausser_gefecht", figure=fig.name, why=why), "")
            clause += " " + t("frei.satz.ausser_gefecht", why=why)
            out.append(fig.name)
        said.append(clause)
    res.outcome = {"schaden": amount, "danach": after, "außer_gefecht": out}
    res.summary = clauses(said)
    return res


def heilung(figuren: Sequence[Figure], menge: str, roller: Roller, data: Mapping[str, Any]) -> Resolution:
    """``menge`` (rolled once) back onto the resource that counts for each of ``figuren``, never
    above its maximum; a figure above 0 again is back in the fight."""
    res = Resolution("", "heilung", tuple(f.name for f in figuren))
    names = {f.name: ressource(f, data) for f in figuren}
    amount = _menge(res, "heilung", menge, roller)
    said, after = [], {}
    for fig in figuren:
        name = names[fig.name]
        old, new = fig.current(name), nach(fig, name, amount, data)
        after[fig.name] = new
        if amount:
            res.effects.append(Effect(fig.name, name, amount))
        res.step(t("frei.heilung_figur", figure=fig.name, resource=name, amount=amount, old=old), "")
        clause = t("frei.satz.heilung" if new != old else "frei.satz.keine_heilung", figure=fig.name,
                   resource=name, n=new - old, old=old, new=new)
        if old <= 0 < new:
            clause += " " + t("frei.satz.wieder_im_kampf")
        said.append(clause)
    res.outcome = {"heilung": amount, "danach": after}
    res.summary = clauses(said)
    return res


def vorschau(figuren: Sequence[Figure], menge: str, data: Mapping[str, Any], heilen: bool = False) -> dict[str, Any]:
    """Before the roll: for each figure, the distribution of its resource after the change (within its
    limits) and, for damage, the chance it ends at 0 or below, out of the fight."""
    amount = betrag(menge)
    out: dict[str, Any] = {}
    for fig in figuren:
        name = ressource(fig, data)
        lim = vorgabe(fig, name, data)
        old = fig.current(name)
        after: Dist = (old + amount) if heilen else (old - amount)
        # a change never moves a value against its sign: beyond a bound already, it stays
        after = after.clip(upper=max(old, lim.high)) if heilen and lim.high is not None else after
        after = after.clip(lower=min(old, lim.low)) if not heilen and lim.low is not None else after
        out[f"{name} ({fig.name})"] = after.labelled(t("frei.preview_after", resource=name, figure=fig.name))
        if not heilen:
            out[f"p_ausser_gefecht ({fig.name})"] = after.p_at_most(0)
    return out


def player_state(figure: Figure, data: Mapping[str, Any]) -> str | None:
    """What players are told of ``figure``: kampfunfähig at 0 or below of the resource that counts,
    verletzt below its maximum, else unversehrt (``player_words``); None without that resource."""
    name = ressource_von(figure, data)
    found = None if name is None else figure.resource(name)
    if found is None:
        return None
    return word("kampfunfaehig") if found.value <= 0 else hurt(figure, name)
