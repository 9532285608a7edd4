"""Midgard's basic rolls (seed 000, "Haus der Regeln"): EW, WW and PW as documented, configurable
defaults (``data/grundregeln.yaml``), and the engine's error, ``MidgardError`` (here, as the
settings are built from the basic rolls and tables that raise it).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...messages import t
from rpgkernel.rules.kit import RulesError, read_yaml

DATA = Path(__file__).with_name("data")


class MidgardError(RulesError):
    """Something the rules do not allow, or GM data that is missing or malformed."""


@dataclass(frozen=True)
class Grundregeln:
    """The basic rolls the seed presupposes (defaults: data/grundregeln.yaml)."""

    mindestwurf: int = 20
    kritischer_erfolg: int = 20
    kritischer_fehler: int = 1
    ww_bei_gleichstand: bool = True
    pw_wuerfel: str = "W%"
    kampfunfaehig_lp: int = 0      # at this many LP or fewer a figure can no longer act


def grundregeln_laden(path: str | Path | None = None) -> Grundregeln:
    """The basic rolls from YAML (default: data/grundregeln.yaml); unknown keys are refused."""
    source = Path(path) if path else DATA / "grundregeln.yaml"
    return grundregeln_pruefen(read_yaml(source, MidgardError) or {}, str(source))


def grundregeln_pruefen(data: Any, quelle: str) -> Grundregeln:
    """The basic rolls from a mapping (read from ``quelle``), every key and type checked."""
    known = Grundregeln.__dataclass_fields__
    if not isinstance(data, dict) or set(data) - set(known):
        extra = sorted(set(data) - set(known)) if isinstance(data, dict) else ["?"]
        raise MidgardError(t("midgard.bad_rules", path=quelle, key=extra[0], known=", ".join(known)))
    for key, value in data.items():
        want = type(getattr(Grundregeln, key))
        if not isinstance(value, want) or (want is int and isinstance(value, bool)):
            raise MidgardError(t("midgard.bad_rules_value", path=quelle, key=key, value=repr(value)[:40]))
    return Grundregeln(**data)


# -- the rolls -------------------------------------------------------------------
def kritisch(face: int, regeln: Grundregeln) -> str | None:
    """"kritischer Erfolg", "kritischer Fehler" or None for a natural W20 face."""
    if face == regeln.kritischer_erfolg:
        return "kritischer Erfolg"
    if face == regeln.kritischer_fehler:
        return "kritischer Fehler"
    return None


def ew_gelingt(face: int, total: int, regeln: Grundregeln) -> bool:
    """EW: a critical success always succeeds, a critical failure always fails, else total >= mindestwurf."""
    krit = kritisch(face, regeln)
    return krit == "kritischer Erfolg" or (krit is None and total >= regeln.mindestwurf)


def ww_gelingt(face: int, total: int, gegen: int, regeln: Grundregeln) -> bool:
    """WW against an EW's total ``gegen``: the criticals as for EW, else total >= gegen (> without ties)."""
    krit = kritisch(face, regeln)
    if krit is not None:
        return krit == "kritischer Erfolg"
    return total >= gegen if regeln.ww_bei_gleichstand else total > gegen


def p_ew(wert: int, regeln: Grundregeln) -> float:
    """P(EW succeeds) for W20 + ``wert`` (Erfolgswert and every WM), exact."""
    return sum(ew_gelingt(f, f + wert, regeln) for f in range(1, 21)) / 20


def p_ww(wert: int, gegen: int, regeln: Grundregeln) -> float:
    """P(WW succeeds) for W20 + ``wert`` against the total ``gegen``, exact."""
    return sum(ww_gelingt(f, f + wert, gegen, regeln) for f in range(1, 21)) / 20


def p_pw(wert: int) -> float:
    """P(W% <= ``wert``), exact."""
    return max(0, min(wert, 100)) / 100
