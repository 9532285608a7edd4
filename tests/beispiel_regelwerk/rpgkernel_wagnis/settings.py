"""What the GM sets: the Schwelle a roll must reach (default in data/einstellungen.yaml)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rpgkernel.messages import t
from rpgkernel.rules.kit import RulesError, Settings, read_yaml

VORGABEN = Path(__file__).with_name("data") / "einstellungen.yaml"


class WagnisError(RulesError):
    """A value Wagnis does not allow."""


@dataclass(frozen=True)
class Einstellungen:
    schwelle: int


def _bauen(kept: Any) -> Einstellungen:
    """The settings of the GM's kept data (``{}``: the defaults), checked."""
    werte = {**read_yaml(VORGABEN, WagnisError), **kept} if isinstance(kept, dict) else None
    if werte is None or set(werte) != {"schwelle"}:
        raise WagnisError(t("wagnis.falsche_daten"))
    schwelle = werte["schwelle"]
    if isinstance(schwelle, bool) or not isinstance(schwelle, int) or not 2 <= schwelle <= 9:
        raise WagnisError(t("wagnis.falsche_schwelle", wert=repr(schwelle)[:20]))
    return Einstellungen(schwelle)


EINSTELLUNGEN = Settings("wagnis", _bauen)


def einrichten(schwelle: int | None = None, *, kampagne: Any = None, begegnung: str | None = None) -> Einstellungen:
    """Keep the GM's Schwelle in ``kampagne`` (for ``begegnung`` only, if given); None: the default."""
    return EINSTELLUNGEN.keep({} if schwelle is None else {"schwelle": schwelle}, kampagne, begegnung)
