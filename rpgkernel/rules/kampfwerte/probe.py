"""Proben (GM data, not in the seed): a pool of W10, each die at or above the difficulty is a
success, a 0 (the ten) counts twice, each 1 cancels a success; the test needs the
``mindest_erfolge`` (normally 2). Exact distributions with the dice core's ``Dist``; the GM's
test of a talent (``talentprobe``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ...dice import Dist, Roll, Roller
from ...messages import t
from rpgkernel.rules.kit import Figure, Resolution
from .settings import EINSTELLUNGEN, Einstellungen, KampfwerteError
from .sheet import TALENTE

MAX_POOL = 60


def wert(face: int, schwierigkeit: int) -> int:
    """What one W10 face counts: 0 (the ten) +2, a 1 −1, at or above the difficulty +1."""
    if face == 10:
        return 2
    if face == 1:
        return -1
    return int(face >= schwierigkeit)


@lru_cache(maxsize=512)
def erfolge_dist(wuerfel: int, schwierigkeit: int) -> Dist:
    """The net successes of ``wuerfel`` W10 against ``schwierigkeit``, never below 0, exactly."""
    if wuerfel <= 0:
        return Dist.const(0)
    one = Dist.die(10).map(lambda f: wert(f, schwierigkeit))
    return one.repeat_sum(wuerfel).clip(lower=0)


def check_pool(wuerfel: int) -> int:
    if not 0 <= wuerfel <= MAX_POOL:
        raise KampfwerteError(t("kampfwerte.bad_pool", n=wuerfel, max=MAX_POOL))
    return wuerfel


@dataclass(frozen=True)
class Wurf:
    """A rolled test: its roll, difficulty, net successes and the successes it needed."""

    roll: Roll | None
    wuerfel: int
    schwierigkeit: int
    erfolge: int
    mindest_erfolge: int

    @property
    def gelungen(self) -> bool:
        return self.erfolge >= self.mindest_erfolge


def wuerfeln(wuerfel: int, roller: Roller, schwierigkeit: int | None = None, *,
             daten: Einstellungen | None = None) -> Wurf:
    """Roll a test of ``wuerfel`` W10 (Probe) by the GM's test mechanic; an empty pool has 0 successes."""
    daten = daten or EINSTELLUNGEN.defaults()
    sw = daten.schwierigkeit if schwierigkeit is None else schwierigkeit
    check_pool(wuerfel)
    if wuerfel == 0:
        return Wurf(None, 0, sw, 0, daten.mindest_erfolge)
    roll = roller.roll(f"{wuerfel}W10")
    net = sum(wert(d.value, sw) for d in roll.dice)
    return Wurf(roll, wuerfel, sw, max(0, net), daten.mindest_erfolge)


def ausgaenge(wuerfel: int, schwierigkeit: int | None = None, *,
              daten: Einstellungen | None = None) -> list[tuple[float, Wurf]]:
    """Every outcome of a test of ``wuerfel`` W10 (``wuerfeln``) with its chance, exactly: one ``Wurf``
    (without a roll) for each number of net successes."""
    daten = daten or EINSTELLUNGEN.defaults()
    sw = daten.schwierigkeit if schwierigkeit is None else schwierigkeit
    return [(p, Wurf(None, wuerfel, sw, e, daten.mindest_erfolge))
            for e, p in erfolge_dist(check_pool(wuerfel), sw).pmf().items()]


def p_gelingt(wuerfel: int, schwierigkeit: int | None = None, *, daten: Einstellungen | None = None) -> float:
    """P(at least the needed successes), exactly."""
    daten = daten or EINSTELLUNGEN.defaults()
    sw = daten.schwierigkeit if schwierigkeit is None else schwierigkeit
    return erfolge_dist(check_pool(wuerfel), sw).p_at_least(daten.mindest_erfolge)


def talent(figure: Figure, name: str, mod: int = 0) -> tuple[str, int]:
    """The talent ``name`` (any case) and its pool: the sheet's value + ``mod``, at least 0."""
    key = str(name).upper()
    if key not in TALENTE:
        raise KampfwerteError(t("kampfwerte.unknown_talent", name=key[:40], known=", ".join(TALENTE)))
    return key, max(0, figure.value(key) + mod)


def talentprobe(figure: Figure, name: str, roller: Roller, mod: int = 0, schwierigkeit: int | None = None, *,
                daten: Einstellungen | None = None) -> Resolution:
    """The GM's test of a talent (Probe (Spielleitung)): its value + ``mod`` W10 by the GM's test mechanic."""
    key, n = talent(figure, name, mod)
    w = wuerfeln(n, roller, schwierigkeit, daten=daten)
    who = figure.name
    res = Resolution("kampfwerte", "probe", (who,), preview=erfolge_dist(n, w.schwierigkeit))
    res.step(t("kampfwerte.step_test", talent=key, n=n, sw=w.schwierigkeit, erfolge=w.erfolge,
               result=t("kampfwerte.ok" if w.gelungen else "kampfwerte.failed")), "Probe (Spielleitung)",
             *(() if w.roll is None else (w.roll,)), value=w.erfolge)
    res.outcome = {"erfolge": w.erfolge, "gelungen": w.gelungen}
    res.summary = t("kampfwerte.satz.probe_gelungen" if w.gelungen else "kampfwerte.satz.probe_misslungen",
                    wer=who, talent=key)
    return res
