"""The Kampfwerte engine's GM data: ``data/regeln.yaml`` (test mechanic, movement types,
terrain, the decisions on ambiguous passages) and ``data/manoever.yaml`` (the manoeuvre
catalogue), shipped as the documented defaults. ``daten_setzen(kampagne, regeln=…, manoever=…)``
keeps the GM's own sections in the campaign (GM data ``kampfwerte``): they survive a restart,
hold in every notebook on the campaign, and are in force while a procedure runs (``in_kraft``).
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator, Mapping

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
        assert all(1 <= int(regeln["wuchtschlag_parade"][stufe]) <= 10 for stufe in range(1, 6))
        assert all(isinstance(m, Mapping) and "kosten" in m for m in manoever.values())
    except (AssertionError, KeyError, TypeError, ValueError, ZeroDivisionError) as err:
        raise KampfwerteError(t("kampfwerte.bad_data", detail=type(err).__name__)) from None


#: the name of the GM's rule data among the campaign's data: {"regeln": {section: …}, "manoever": {…}}
NAME = "kampfwerte"
_DEFAULT = Daten(_load("regeln.yaml"), _load("manoever.yaml"))
_IN_KRAFT: ContextVar[Daten] = ContextVar("kampfwerte_daten", default=_DEFAULT)


def data() -> Daten:
    """The GM data in force: the campaign's while a procedure runs (``in_kraft``), else the defaults."""
    return _IN_KRAFT.get()


def _keys(x: Any) -> Any:
    """Level tables read back from JSON: digit keys as ints ({"1": 8} -> {1: 8})."""
    if isinstance(x, Mapping):
        return {int(k) if isinstance(k, str) and k.isdigit() else k: _keys(v) for k, v in x.items()}
    return [_keys(v) for v in x] if isinstance(x, list) else x


def _build(regeln: Mapping[str, Any] | None, manoever: Mapping[str, Any] | None) -> Daten:
    """The defaults with the given rule sections and/or the whole catalogue replaced, checked."""
    if not isinstance(regeln or {}, Mapping) or not isinstance(manoever or {}, Mapping):
        raise KampfwerteError(t("kampfwerte.bad_data", detail="Mapping"))
    new_regeln = {**_load("regeln.yaml"), **_keys(regeln or {})}
    new_manoever = _keys(manoever) if manoever is not None else _load("manoever.yaml")
    _check(new_regeln, new_manoever)
    return Daten(new_regeln, new_manoever)


@lru_cache(maxsize=16)
def _aus_text(text: str) -> Daten:
    eintrag = json.loads(text)
    if not isinstance(eintrag, dict):
        raise KampfwerteError(t("kampfwerte.bad_data", detail=type(eintrag).__name__))
    return _build(eintrag.get("regeln"), eintrag.get("manoever"))


@contextmanager
def in_kraft(gm: Mapping[str, Any]) -> Iterator[Daten]:
    """Within: the rule data the campaign holds (``gm``: the GM's data a procedure sees,
    ``request.data``), or the defaults when it holds none."""
    eintrag = gm.get(NAME)
    token = _IN_KRAFT.set(_DEFAULT if eintrag is None else _aus_text(json.dumps(eintrag, sort_keys=True)))
    try:
        yield _IN_KRAFT.get()
    finally:
        _IN_KRAFT.reset(token)


def daten_setzen(ziel: Any, regeln: Mapping[str, Any] | None = None,
                 manoever: Mapping[str, Any] | None = None) -> Daten:
    """Keep the GM's rule sections (``regeln``, e.g. ``{"gelaende": {...}, "rundumschlag_kosten":
    "stufe"}``) and/or a whole manoeuvre catalogue in ``ziel`` (a campaign, or an encounter for
    that fight only); checked before they are stored, journalled and undoable. None for both:
    back to the defaults."""
    d = _build(regeln, manoever)
    eintrag = {**({"regeln": dict(regeln)} if regeln else {}),
               **({"manoever": dict(manoever)} if manoever is not None else {})}
    try:
        text = json.dumps(eintrag)
    except (TypeError, ValueError) as err:
        raise KampfwerteError(t("kampfwerte.bad_data", detail=type(err).__name__)) from None
    ziel.set_data(NAME, json.loads(text) if eintrag else None)
    return d
