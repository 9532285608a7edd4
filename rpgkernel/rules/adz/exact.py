"""Exact previews (seed 004), computed with the dice core's ``Dist`` before any die falls.

One test's P(success) (``p_gelingt``, also with luck dice); opposed tests' P(win/draw/loss/
neither); the melee chain's final damage and every end of an attack with the luck pool
(``ausgaenge``), by the same steps the rolled chain (``combat``) takes; a spell's mental damage
after the drain roll.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, Mapping

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


def uebrig(angriff: int, verteidigung: int, mw: int = 1) -> int:
    """The attack successes left after the defence's (Verteidigungswurf); an attack below its
    Mindestwurf leaves none. One left is a hit."""
    return angriff - verteidigung if angriff >= mw else 0


def vor_widerstand(uebrig_: int, grundschaden: int, rs: int) -> int:
    """The damage of a hit before the resistance roll (Schadensermittlung): Grundschaden + the remaining
    successes − RS, at least 0; none without a hit."""
    return max(0, grundschaden + uebrig_ - rs) if uebrig_ >= 1 else 0


def endschaden(vor: int, widerstand: int) -> int:
    """The final damage (Widerstandswurf): each resistance success takes one off, at least 0."""
    return max(0, vor - widerstand)


def angeboten(uebrig_: int, schaden: int) -> tuple[str, ...]:
    """The rolls of an attack the luck pool could improve (Glückspool), of those made: the attack; the
    defence and resistance of a hit (the defence once a success is left, the resistance once damage is)."""
    return ("angriff",) + (("verteidigung",) if uebrig_ >= 1 else ()) + (("widerstand",) if schaden > 0 else ())


def kette(angriff: Dist, verteidigung: Dist, grundschaden: int, rs: int, widerstand: Dist, mw: int = 1) -> Dist:
    """The final damage of the melee chain (Angriffswurf to Widerstandswurf).

    An attack below its Mindestwurf misses; else each defence success cancels
    one attack success, a hit needs one left; damage = Grundschaden + the
    remaining successes − RS (at least 0), then each resistance success −1
    (at least 0).
    """
    left = _erreicht(angriff, mw) - verteidigung
    before = left.map(lambda x: vor_widerstand(x, grundschaden, rs))
    return (before - widerstand).clip(lower=0)


#: one end of an attack (``ausgaenge``): the final damage, whether the target rolled its defence (a
#: reaction, Runden), and the roll the luck pool went on (None: none)
Ausgang = tuple[int, bool, "str | None"]
#: the luck pool's rule (``ausgaenge``): the roll luck goes on after an attack's rolls, from whether it
#: hit, its final damage and whether the target defended; None: on none
Glueck = Callable[[bool, int, bool], "str | None"]


def ausgaenge(angriff: Dist, verteidigung: Dist | None, grundschaden: int, rs: int, widerstand: Dist, mw: int,
              glueck: Glueck, pools: Mapping[str, int]) -> dict[Ausgang, float]:
    """Every end of one attack with its chance, exactly: the melee chain's rolls as it calls for them,
    then the luck pool (Glückspool) as ``glueck`` spends it (Angriffswurf to Widerstandswurf; ``Rest``
    and ``Ausgaenge``, whose rolls after the defence serve every attack with these numbers alike)."""
    return Rest(grundschaden, rs, widerstand, mw, glueck).angriff(angriff, verteidigung).mit(pools)


#: a chain of an attack (``Enden``): its successes so far, of the attack, the defence and the resistance
#: (None: not rolled)
Kette = tuple[int, "int | None", "int | None"]


class Rest:
    """What follows an attack's roll (Verteidigungswurf, Schadensermittlung, Widerstandswurf, Glückspool):
    by the attack successes the defence left (``enden``), or by those of an attack without a defence roll
    and its defence's dice (``ohne_abwehr``); the same for every attack with these numbers, whatever the dice
    of its attack (and, after the defence, of its defence: a malus changes those alone,
    Umstandsmodifikatoren, never the resistance's or the luck pool's), so each is worked out once for all
    of them (``angriff``)."""

    def __init__(self, grundschaden: int, rs: int, widerstand: Dist, mw: int, glueck: Glueck) -> None:
        self.mw = mw
        self.zahlen = (grundschaden, rs, widerstand, mw, glueck)
        self._enden: dict[int, Enden] = {}
        self._ohne_abwehr: dict[tuple[int, Dist | None], Enden] = {}

    def angriff(self, angriff: Dist, verteidigung: Dist | None) -> Ausgaenge:
        """The ends of an attack with these attack and defence successes (None: no defence), by the pools."""
        return Ausgaenge(self, angriff, verteidigung)

    def enden(self, uebrig_: int) -> Enden:
        """The ends after a defence that left ``uebrig_`` attack successes (``uebrig``; fewer than one: a
        parry), the chain as those that go on alike (``Enden._merged``)."""
        found = self._enden.get(uebrig_)
        if found is None:
            a = max(self.mw, uebrig_)
            found = self._enden[uebrig_] = Enden({(a, a - uebrig_, None): 1.0}, None, *self.zahlen)
        return found

    def ohne_abwehr(self, angriff: int, verteidigung: Dist | None) -> Enden:
        """The ends of ``angriff`` attack successes without a defence roll: below the Mindestwurf (the
        defence ``verteidigung`` falls where luck lifts the attack to it) or with no defence (None)."""
        key = (angriff, verteidigung)
        found = self._ohne_abwehr.get(key)
        if found is None:
            found = self._ohne_abwehr[key] = Enden({(angriff, None, None): 1.0}, verteidigung, *self.zahlen)
        return found


class Ausgaenge:
    """The ends of one attack by the luck pools (``mit``): its chains once the attack has fallen and, where it
    reached its Mindestwurf, the defence, each one's ends those of the ``Rest`` every such attack shares."""

    def __init__(self, rest: Rest, angriff: Dist, verteidigung: Dist | None) -> None:
        mw, dfn = rest.mw, verteidigung.pmf() if verteidigung is not None else None
        #: by the attack successes the defence left, the chance
        uebrig_: dict[int, float] = {}
        #: each chain's ends and chance: those without a defence roll, then by the successes left
        self.teile: list[tuple[Enden, float]] = []
        for a, p in angriff.pmf().items():
            if dfn is None or a < mw:
                self.teile.append((rest.ohne_abwehr(a, verteidigung), p))
                continue
            for d, q in dfn.items():
                uebrig_[a - d] = uebrig_.get(a - d, 0.0) + p * q
        self.teile += [(rest.enden(left), p) for left, p in uebrig_.items()]

    def mit(self, pools: Mapping[str, int]) -> dict[Ausgang, float]:
        """The ends with these luck pools (by roll; a roll without a pool: no luck on it)."""
        out: dict[Ausgang, float] = {}
        get = out.get
        for enden, p in self.teile:
            for key, q in enden.mit(pools).items():
                out[key] = get(key, 0.0) + p * q
        return out


class Enden:
    """The ends of an attack's chains ``ketten`` (each with its chance; the rolls they still call for fall
    here) with luck on the roll ``glueck`` names, by the luck pools (``mit``). The rolls without luck are
    taken once, each roll's luck once per pool size; how the chains are rolled and merged: docs/mitwirken.md,
    "AdZ: die Ausgänge eines Angriffs exakt"."""

    def __init__(self, ketten: Mapping[Kette, float], verteidigung: Dist | None, grundschaden: int, rs: int,
                 widerstand: Dist, mw: int, glueck: Glueck) -> None:
        self.dfn = verteidigung.pmf() if verteidigung is not None else None
        self.res = widerstand.pmf()
        self.grundschaden, self.rs, self.mw = grundschaden, rs, mw
        #: by the roll luck would go on (None: none): the chains that end there, and those ends without luck
        self.kettenenden: dict[str | None, list[tuple[Kette, float]]] = {}
        self.ohne: dict[str | None, dict[Ausgang, float]] = {}
        for (a, d, r), p in self._rolled(dict(ketten)).items():
            left, final = self._schaden(a, d, r)
            roll = glueck(left >= 1, final, d is not None)
            made = roll == "angriff" or roll == "verteidigung" and d is not None or roll == "widerstand" and r is not None
            key = roll if made and roll in angeboten(left, final) else None
            self.kettenenden.setdefault(key, []).append(((a, d, r), p))
            ohne = self.ohne.setdefault(key, {})
            ohne[final, d is not None, None] = ohne.get((final, d is not None, None), 0.0) + p
        self._mit: dict[tuple[int, ...], dict[Ausgang, float]] = {}   # by the pool on each roll of ``kettenenden``
        self._je_pool: dict[tuple[str, int], dict[Ausgang, float]] = {}
        self._plus: dict[tuple[str, int], dict[Ausgang, float]] = {}
        self._nach: dict[int, dict[int, float]] = {}   # by the damage before the resistance roll

    def mit(self, pools: Mapping[str, int]) -> dict[Ausgang, float]:
        """The ends with these luck pools (by roll; a roll without a pool: no luck on it); not to be changed."""
        sizes = tuple(pools.get(roll, 0) if roll is not None else 0 for roll in self.kettenenden)
        found = self._mit.get(sizes)
        if found is None:
            found = self._mit[sizes] = {}
            for roll, n in zip(self.kettenenden, sizes):
                for key, p in (self._glueck(roll, n) if roll is not None and n > 0 else self.ohne[roll]).items():
                    found[key] = found.get(key, 0.0) + p
        return found

    def _glueck(self, roll: str, n: int) -> dict[Ausgang, float]:
        """The ends of the chains whose luck goes on ``roll``, with ``n`` bonus dice on it: those with each
        number of bonus successes (``_mehr``, shared by every pool size), by its chance."""
        if (roll, n) not in self._je_pool:
            out: dict[Ausgang, float] = {}
            for k, q in erfolge_dist(n).pmf().items():
                for key, p in self._mehr(roll, k).items():
                    out[key] = out.get(key, 0.0) + p * q
            self._je_pool[roll, n] = out
        return self._je_pool[roll, n]

    def _mehr(self, roll: str, k: int) -> dict[Ausgang, float]:
        """The ends of the chains whose luck goes on ``roll``, with ``k`` successes more on it, the defence
        and resistance the new result calls for fallen (each chain on its own: they end in few rolls)."""
        if (roll, k) not in self._plus:
            out: dict[Ausgang, float] = {}
            for (a, d, r), p in self.kettenenden[roll]:
                if roll == "angriff":
                    a += k
                elif roll == "verteidigung":
                    d = (d or 0) + k
                else:
                    r = (r or 0) + k
                if d is None and self.dfn is not None and a >= self.mw:
                    for x, q in self.dfn.items():
                        self._ende(out, a, x, r, p * q, roll)
                else:
                    self._ende(out, a, d, r, p, roll)
            self._plus[roll, k] = out
        return self._plus[roll, k]

    def _ende(self, out: dict[Ausgang, float], a: int, d: int | None, r: int | None, p: float, roll: str) -> None:
        """Add the ends of the chain ``a``, ``d``, ``r`` with chance ``p`` to ``out``, its resistance rolled
        where damage is left after RS and it was not yet."""
        vor = vor_widerstand(uebrig(a, d or 0, self.mw), self.grundschaden, self.rs)
        defended = d is not None
        if r is None and vor:
            for final, q in self._widerstanden(vor).items():
                out[final, defended, roll] = out.get((final, defended, roll), 0.0) + p * q
        else:
            final = endschaden(vor, r or 0)
            out[final, defended, roll] = out.get((final, defended, roll), 0.0) + p

    def _widerstanden(self, vor: int) -> dict[int, float]:
        """The final damage after the resistance roll from ``vor`` (``endschaden``), by its chance."""
        if vor not in self._nach:
            found: dict[int, float] = {}
            for x, q in self.res.items():
                found[endschaden(vor, x)] = found.get(endschaden(vor, x), 0.0) + q
            self._nach[vor] = found
        return self._nach[vor]

    def _merged(self, a: int, d: int | None, r: int | None) -> tuple[int, int | None, int | None]:
        """A chain as those that go on alike: once the defence is rolled, only the successes left count."""
        if d is not None:
            left = uebrig(a, d, self.mw)
            a, d = max(self.mw, left), max(self.mw, left) - left
        return a, d, r

    def _rolled(self, chains: dict) -> dict:
        """The chains once every roll they call for has fallen (the luck after them still to come)."""
        done: dict = {}
        mw, dfn = self.mw, self.dfn
        while chains:
            more: dict = {}
            for (a, d, r), p in chains.items():
                if d is None and dfn is not None and a >= mw:
                    falls = [((a, x, r), q) for x, q in dfn.items()]
                elif r is None and vor_widerstand(uebrig(a, d or 0, mw), self.grundschaden, self.rs):
                    falls = [((a, d, x), q) for x, q in self.res.items()]
                else:
                    done[a, d, r] = done.get((a, d, r), 0.0) + p
                    continue
                for chain, q in falls:
                    key = self._merged(*chain)
                    more[key] = more.get(key, 0.0) + p * q
            chains = more
        return done

    def _schaden(self, a: int, d: int | None, r: int | None) -> tuple[int, int]:
        left = uebrig(a, d or 0, self.mw)
        return left, endschaden(vor_widerstand(left, self.grundschaden, self.rs), r or 0)


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
