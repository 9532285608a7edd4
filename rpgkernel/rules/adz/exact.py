"""Exact previews (seed 004), computed with the dice core's ``Dist`` before any die falls.

- one test: P(success) for any pool and Mindestwurf (``p_gelingt``), also
  with the luck pool's dice added;
- opposed tests: P(win), P(draw), P(loss), P(neither succeeds) (Vergleichende Proben);
- the melee chain: the full distribution of the final damage from the
  attack, defence and resistance successes, base damage and RS (Nahkampf);
- spells: the mental damage after the drain roll, whose bonus dice are the
  surplus successes of the spell test (Krafteinsatz; Triviale Zauber).
"""

from __future__ import annotations

from functools import lru_cache

from ...dice import Dist

ERFOLG_AB = 5   # Erfolge: every die showing 5 or 6 is a success
#: one W6 as a success count: 1 on 5 or 6, else 0
ERFOLG = Dist.die(6).map(lambda face: int(face >= ERFOLG_AB))


@lru_cache(maxsize=256)
def erfolge_dist(wuerfel: int) -> Dist:
    """The number of successes of ``wuerfel`` W6 (Erfolge), exactly: the binomial as a convolution power."""
    return ERFOLG.repeat_sum(wuerfel) if wuerfel > 0 else Dist.const(0)


def gelingt(erfolge: int, wuerfel: int, mw: int, zulassen: bool) -> bool:
    """Whether a test succeeds (Erfolge): at least the Mindestwurf; a Mindestwurf above the dice only
    when the GM allows the test, and then only if every die is a success."""
    if mw > wuerfel:
        return zulassen and wuerfel > 0 and erfolge == wuerfel
    return erfolge >= mw


def p_gelingt(wuerfel: int, mw: int, zulassen: bool = False) -> float:
    """P(the test succeeds) for a pool and Mindestwurf, exactly."""
    if mw > wuerfel:
        return (1 / 3) ** wuerfel if zulassen and wuerfel > 0 else 0.0
    return erfolge_dist(wuerfel).p_at_least(mw)


def vergleich_chancen(a: Dist, wuerfel_a: int, mw_a: int, b: Dist, wuerfel_b: int, mw_b: int,
                      gleichwertig: bool = False) -> dict[str, float]:
    """The initiator's chances in an opposed test from both success distributions (Vergleichende Proben)."""
    out = {"p_sieg": 0.0, "p_unentschieden": 0.0, "p_niederlage": 0.0, "p_keiner_gelingt": 0.0}
    pb = b.pmf()
    for x, p in a.pmf().items():
        ok_a = gelingt(x, wuerfel_a, mw_a, False)
        for y, q in pb.items():
            ok_b = gelingt(y, wuerfel_b, mw_b, False)
            if ok_a != ok_b:
                key = "p_sieg" if ok_a else "p_niederlage"
            elif not ok_a:
                key = "p_keiner_gelingt"
            elif x != y:
                key = "p_sieg" if x > y else "p_niederlage"
            else:
                key = "p_unentschieden" if gleichwertig else "p_sieg"
            out[key] += p * q
    return out


def angriff_dist(wuerfel: int, zweitwurf: int | None = None, glueck: int = 0) -> Dist:
    """Attack (or defence) successes: one roll, or the better of two (Beidhändiger Kampf), plus luck dice."""
    d = erfolge_dist(wuerfel)
    if zweitwurf is not None:
        d = d.maximum(erfolge_dist(zweitwurf))
    return d + erfolge_dist(glueck) if glueck else d


def kette(angriff: Dist, verteidigung: Dist, grundschaden: int, rs: int, widerstand: Dist, mw: int = 1) -> Dist:
    """The final damage of the melee chain (Angriffswurf to Widerstandswurf).

    An attack below its Mindestwurf misses; else each defence success cancels
    one attack success, a hit needs one left; damage = Grundschaden + the
    remaining successes − RS (at least 0), then each resistance success −1
    (at least 0).
    """
    left = _erreicht(angriff, mw) - verteidigung
    before = left.map(lambda x: max(0, grundschaden + x - rs) if x >= 1 else 0)
    return (before - widerstand).clip(lower=0)


def p_treffer(angriff: Dist, verteidigung: Dist, mw: int = 1) -> float:
    """P(at least one attack success remains) (Verteidigungswurf)."""
    return (_erreicht(angriff, mw) - verteidigung).p_at_least(1)


def _erreicht(angriff: Dist, mw: int) -> Dist:
    """Attack successes that count: an attack below its Mindestwurf leaves none (with Mindestwurf 1
    that changes nothing)."""
    return angriff if mw <= 1 else angriff.map(lambda a: a if a >= mw else 0)


def entzug(zauber: Dist | None, wuerfel: int, mw: int, wk: int, kp: int, bonus_je_erfolg: int = 1,
           bei_misslingen: bool = True) -> Dist:
    """The mental damage of a spell: KP − drain successes (at least 0); the drain roll pools ``wk`` dice
    plus bonus dice for surplus successes (``zauber``: the spell test's successes; None: no test)."""
    if zauber is None:
        return (Dist.const(kp) - erfolge_dist(wk)).clip(lower=0)
    pmf: dict[int, float] = {}
    for s, p in zauber.pmf().items():
        ok = gelingt(s, wuerfel, mw, False)
        if not ok and not bei_misslingen:
            pmf[0] = pmf.get(0, 0.0) + p
            continue
        extra = (s - mw) * bonus_je_erfolg if ok else 0
        for v, q in (Dist.const(kp) - erfolge_dist(wk + extra)).clip(lower=0).pmf().items():
            pmf[v] = pmf.get(v, 0.0) + p * q
    return Dist.from_pmf(pmf)
