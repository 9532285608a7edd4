"""The Kampfwerte engine's GM data: ``data/regeln.yaml`` (test mechanic, movement types,
terrain, the decisions on ambiguous passages) and ``data/manoever.yaml`` (the manoeuvre
catalogue). ``use_data(regeln=…, manoever=…)`` replaces sections with the GM's own.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Mapping

import yaml

from ...errors import RpgError
from ...messages import t

DATA = Path(__file__).with_name("data")


class KampfwerteError(RpgError, ValueError):
    """A Kampfwerte action, map or GM data the rules do not allow."""


@dataclass(frozen=True)
class Bewegungsart:
    """A movement type (Bewegungskosten): BP per field, the talent tested and the sheet field of its modifier."""

    name: str
    kosten: Fraction
    probe: str | None
    modifikator: str | None


@dataclass(frozen=True)
class Daten:
    regeln: dict[str, Any]
    manoever: dict[str, dict[str, Any]]

    @property
    def schwierigkeit(self) -> int:
        return int(self.regeln["probe"]["schwierigkeit"])

    @property
    def mindest_erfolge(self) -> int:
        return int(self.regeln["probe"]["mindest_erfolge"])

    @property
    def bewegungsarten(self) -> dict[str, Bewegungsart]:
        return {name: Bewegungsart(name, Fraction(str(v["kosten"])), v.get("probe"), v.get("modifikator"))
                for name, v in self.regeln["bewegungsarten"].items()}

    @property
    def gelaende(self) -> dict[str, int]:
        return dict(self.regeln["gelaende"])


def _load(name: str) -> dict[str, Any]:
    return yaml.safe_load((DATA / name).read_text(encoding="utf-8"))


def _check(regeln: Mapping[str, Any], manoever: Mapping[str, Any]) -> None:
    try:
        assert 1 <= int(regeln["probe"]["schwierigkeit"]) <= 10
        assert int(regeln["probe"]["mindest_erfolge"]) >= 0
        for v in regeln["bewegungsarten"].values():
            assert Fraction(str(v["kosten"])) > 0
        assert all(isinstance(c, int) and c >= 1 for c in regeln["gelaende"].values())
        assert regeln["rundumschlag_kosten"] in ("stufe", "gegner")
        assert regeln["reiten_reichweite"] in ("zusatz_bp", "keiner")
        assert all(isinstance(m, Mapping) and "kosten" in m for m in manoever.values())
    except (AssertionError, KeyError, TypeError, ValueError, ZeroDivisionError) as err:
        raise KampfwerteError(t("kampfwerte.bad_data", detail=type(err).__name__)) from None


_DATA = Daten(_load("regeln.yaml"), _load("manoever.yaml"))


def data() -> Daten:
    """The GM data in use."""
    return _DATA


def use_data(regeln: Mapping[str, Any] | None = None, manoever: Mapping[str, Any] | None = None) -> Daten:
    """Replace sections of the rules and/or the whole manoeuvre catalogue; checked before use."""
    global _DATA
    new_regeln = {**_load("regeln.yaml"), **(regeln or {})}
    new_manoever = dict(manoever) if manoever is not None else _load("manoever.yaml")
    _check(new_regeln, new_manoever)
    _DATA = Daten(new_regeln, new_manoever)
    return _DATA
