"""The words players read of a figure's state where its seed has none (``Status.player_state``).

Each is a default, named in the ruleset's docs; the GM replaces any word players read with the
campaign data ``spielersicht`` (word -> the GM's word, ``state.player_view``).
"""

from __future__ import annotations

from ..messages import t
from .figure import Figure


def below_max(figure: Figure, *resources: str) -> bool:
    """Whether one of ``resources`` the figure has stands below its maximum."""
    return any((r := figure.resource(name)) is not None and r.value < r.max for name in resources)


def hurt(figure: Figure, *resources: str) -> str:
    """``verletzt`` while one of ``resources`` stands below its maximum, else ``unversehrt``."""
    return t("rules.state_verletzt" if below_max(figure, *resources) else "rules.state_unversehrt")


def word(key: str) -> str:
    """One of the kit's words: ``unversehrt``, ``verletzt``, ``kampfunfaehig``, ``erschoepft``."""
    return t(f"rules.state_{key}")
