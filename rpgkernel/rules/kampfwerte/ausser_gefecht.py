"""Who is out of the fight: a figure knocked down needs a combat round to get up (Wuchtschlag,
Starker Tritt: "Niedergeworfene Gegner brauchen eine Kampfrunde, um wieder aufzustehen"), and, where the
seed is silent, one at the LP of the GM's rule ``kampfunfaehig_lp`` or fewer (default 0).

The knock-down lasts until the end of the figure's next turn: that turn is skipped and ends it.
"""

from __future__ import annotations

from ...messages import t
from ..figure import Figure
from .settings import Einstellungen


def out_of_fight(figure: Figure, daten: Einstellungen) -> str | None:
    """Why ``figure`` can no longer act, or None: at ``daten.kampfunfaehig_lp`` LP or fewer (named in the
    reason), or knocked down."""
    lp = figure.resource("LP")
    if lp is not None and lp.value <= daten.kampfunfaehig_lp:
        return t("kampfwerte.out_kampfunfaehig", lp=lp.value, schwelle=daten.kampfunfaehig_lp)
    return t("kampfwerte.out_niedergeworfen") if figure.has("niedergeworfen") else None
