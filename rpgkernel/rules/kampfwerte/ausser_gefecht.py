"""Who is out of the fight, and what players are told: a figure knocked down needs a combat round to get up (Wuchtschlag,
Starker Tritt: "Niedergeworfene Gegner brauchen eine Kampfrunde, um wieder aufzustehen"), and, where the
seed is silent, one at the LP of the GM's rule ``kampfunfaehig_lp`` or fewer (default 0).

The knock-down lasts until the end of the figure's next turn: that turn is skipped and ends it.
"""

from __future__ import annotations

from ...messages import t
from rpgkernel.rules.kit import Figure, hurt, word
from .settings import Einstellungen


def out_of_fight(figure: Figure, daten: Einstellungen) -> str | None:
    """Why ``figure`` can no longer act, or None: at ``daten.kampfunfaehig_lp`` LP or fewer (named in the
    reason), or knocked down."""
    lp = figure.resource("LP")
    if lp is not None and lp.value <= daten.kampfunfaehig_lp:
        return t("kampfwerte.out_kampfunfaehig", lp=lp.value, schwelle=daten.kampfunfaehig_lp)
    return t("kampfwerte.out_niedergeworfen") if figure.has("niedergeworfen") else None


def player_state(figure: Figure, daten: Einstellungen) -> str:
    """What players are told of ``figure``: kampfunfähig, niedergeworfen (``out_of_fight``, without the
    LP), else verletzt (LP lost) or unversehrt (the seed has no words for these, ``player_words``)."""
    lp = figure.resource("LP")
    if lp is not None and lp.value <= daten.kampfunfaehig_lp:
        return word("kampfunfaehig")
    return out_of_fight(figure, daten) or hurt(figure, "LP")
