"""Damage and what it costs (seed 000: "AP-Verluste bei gelungener Abwehr", "Ersetzen des festen
Schadensbonus"; the basic rules they presuppose).

A heavy hit (failed defence) costs LP and AP, a light hit only AP; a positive damage bonus
becomes extra dice (``schadensbonus``); out of the fight at ``kampfunfaehig_lp`` LP or fewer.
Told in ``docs/midgard.md``.
"""

from __future__ import annotations

from ...dice import dist
from ...errors import DiceLimitError
from ...messages import t
from rpgkernel.rules.kit import Figure, below_max, word
from .core import Grundregeln, MidgardError
from .settings import Einstellungen
from .sheet import Eintrag, feld


def ap_verlust_leicht(schaden: int, angriff: int, abwehr: int, schild_ap: int = 0, kritisch: bool = False) -> int:
    """AP lost after a successful defence: damage - floor((abwehr - angriff) / 2) - shield; 0 if critical."""
    if kritisch:
        return 0
    return max(0, schaden - (abwehr - angriff) // 2 - schild_ap)


def verlust_schwer(schaden: int, rs: int = 0) -> int:
    """LP and AP lost after a failed defence: damage - Rüstungsschutz (basic rule)."""
    return max(0, schaden - rs)


def kampfunfaehig(lp: int, regeln: Grundregeln) -> bool:
    """A figure with ``lp`` LP can no longer act: at ``regeln.kampfunfaehig_lp`` or fewer (the GM's
    basic roll)."""
    return lp <= regeln.kampfunfaehig_lp


def out_of_fight(figure: Figure, regeln: Grundregeln) -> str | None:
    """``kampfunfähig`` (``kampfunfaehig``, the threshold named in the reason); None for a figure
    without LP."""
    lp = figure.resource("LP")
    if lp is None or not kampfunfaehig(lp.value, regeln):
        return None
    return t("midgard.out_kampfunfaehig", lp=lp.value, schwelle=regeln.kampfunfaehig_lp)


def player_state(figure: Figure, regeln: Grundregeln) -> str:
    """What players are told of ``figure``: kampfunfähig (``out_of_fight``), else verletzt (LP lost)
    and erschöpft (no AP left: "völlig erschöpft", AP-Verluste bei gelungener Abwehr), else
    unversehrt (the seed has no word, ``player_words``)."""
    if out_of_fight(figure, regeln) is not None:
        return word("kampfunfaehig")
    ap = figure.resource("AP")
    marked = [w for w, is_so in (("verletzt", below_max(figure, "LP")), ("erschoepft", ap is not None and ap.value <= 0))
              if is_so]
    return ", ".join(word(w) for w in marked) or word("unversehrt")


def bonus_wuerfel(schb: int, cfg: Einstellungen) -> str:
    """The damage bonus as dice: the GM's list for a positive bonus, the number itself otherwise."""
    if schb <= 0:
        return f"{schb:+d}" if schb else ""
    table = cfg.tabellen.teil("schadensbonus")
    if schb not in table:
        raise MidgardError(t("midgard.no_bonus_dice", bonus=schb, known=", ".join(f"+{k}" for k in sorted(table))))
    return "+" + table[schb]


def schadensausdruck(figure: Figure, weapon: Eintrag, cfg: Einstellungen,
                     override: str | None = None) -> tuple[str, str]:
    """The damage roll of ``weapon`` (or ``override``) with the figure's bonus, floored at 0, and a note."""
    base = override or weapon.schaden or ""
    schb = feld(figure, "schb", 0)
    extra = bonus_wuerfel(schb, cfg)
    note = t("midgard.bonus_dice", figure=figure.name, bonus=schb, dice=extra[1:]) if schb > 0 else ""
    expr = f"{base}{extra}"
    return (f"max(0, {expr})" if _may_be_negative(expr) else expr), note


def _may_be_negative(expr: str) -> bool:
    """Whether a damage roll can fall below 0: only with a minus in it (dice, numbers, sums,
    products, max and min of them are never negative); then its exact distribution tells, or,
    when that is too large to compute, the floor at 0 is kept (it is right either way)."""
    if "-" not in expr and "−" not in expr:
        return False
    try:
        return dist(expr).min < 0
    except DiceLimitError:
        return True
