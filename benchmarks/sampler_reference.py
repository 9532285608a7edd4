"""The compact sampler against a vectorised numpy reference (section G of ``bench.py``).

The fights: for each ruleset with a compact model, two sides of equal figures, 1 + 1, 3 + 3 and
10 + 10 combatants, the encounter begun with the order given (figure after figure, the sides taking
turns); where the rules roll initiative every round (OSR), the forecast rolls it as the rules do.

The reference plays the same fights from the rules as the docs state them (docs/*.md, "Prognose: die
Taktik" of each ruleset and the verbs' sections), without the sampler, the board or the compact
model: every fight a row of numpy arrays (a column per combatant and value), every turn the dice of
the attack rolled for all fights at once, the target the standing foe with the least left (OSR: one
at random), the fight over when one side is left. It is written for the figures below and nothing
else (their weapons, no options), as a numpy programmer would write a simulation of them.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np

SIZES = (1, 3, 10)   # figures per side: 2, 6 and 20 combatants
RULESETS = ("frei", "bastionland", "osr", "kampfwerte", "midgard", "adz")
MAX_ROUNDS = 100     # as the forecast: undecided after 100 rounds
#: the fights whose compact model is not built, and why (none: AdZ's 10 + 10, whose turns change the
#: attacker too, builds its tables per pair of the parts of two foes' states a turn reads, ``Compact.reads``:
#: some 590,000 rows instead of 23.5 million, built in about two minutes of CPU on a loaded machine)
UNBUILT: dict[tuple[str, int], str] = {}

#: the sheets of each ruleset's two sides (the players first), and the GM's data the fight needs
SHEETS = {
    "frei": ({"hp": 14}, {"hp": 10}, {"prognose": {"alle": {"schaden": "W6+1", "treffer": "W20>=9"}}}),
    "bastionland": ({"vig": 12, "cla": 12, "spi": 13, "gd": 4, "ruestung": 1, "spielfigur": True,
                     "waffen": ["Streitkolben (W8)", "Schild (W4)"]},
                    {"vig": 12, "cla": 10, "spi": 9, "gd": 3, "ruestung": 1, "waffen": ["Speer (W10)", "Schild (W4)"]},
                    {}),
    "osr": ({"etw0": 17, "rk": 5, "tp": 10, "waffen": ["Langschwert (W8)"]},
            {"etw0": 18, "rk": 6, "tp": 12, "waffen": ["Krummsäbel (W8)"]}, {}),
    "kampfwerte": ({"AUFMERKSAMKEIT": 3, "GEWANDTHEIT": 3, "INSTINKT": 3, "HEIMLICHKEIT": 3, "AD": 6, "LP": 7,
                    "angriff": 3, "parade": 2, "ruestung": 1, "manoever": ["Gezielte Attacke 2"]},
                   {"AUFMERKSAMKEIT": 3, "GEWANDTHEIT": 3, "INSTINKT": 3, "HEIMLICHKEIT": 3, "AD": 6, "LP": 7,
                    "angriff": 3, "parade": 1, "ruestung": 1, "manoever": ["Gezielte Attacke 2"]},
                   {"prognose": {"alle": {"abwehr": "W10>=9", "schaden": "W6+2", "manöver": "Gezielte Attacke 2"}}}),
    "midgard": ({"rw": 50, "kampftaktik": 1, "waffen": ["Langschwert +10 (W6+2)"], "abwehr": 5, "rs": 1, "lp": 8,
                 "ap": 12},
                {"rw": 40, "kampftaktik": 1, "waffen": ["Keule +9 (W6+1)"], "abwehr": 4, "rs": 0, "lp": 9, "ap": 12}, {}),
    "adz": ({"KK": 5, "KO": 4, "GE": 6, "FF": 3, "KL": 3, "WK": 4, "IN": 5, "CH": 2, "GL": 2,
             "fertigkeiten": ["Schwerter 6", "Verteidigung 5"], "waffen": ["Langschwert (Schwerter, KK, GS 5)"],
             "ausruestung": ["Kettenhemd (RS 2, WB 1, AM 1)"]},
            {"KK": 6, "KO": 5, "GE": 4, "FF": 2, "KL": 2, "WK": 3, "IN": 3, "CH": 1, "GL": 1,
             "fertigkeiten": ["Äxte 5", "Verteidigung 3"], "waffen": ["Axt (Äxte, KK, GS 6, VM -1)"],
             "ausruestung": ["Lederwams (RS 1, WB 1)"]}, {}),
}
#: the rulesets whose figures follow the first of their side (Midgard's leaders: one initiative roll a side)
LEADERS = {"midgard"}


def encounter(ruleset: str, per_side: int):
    """The fight of ``ruleset`` with ``per_side`` figures a side, begun (a fresh campaign)."""
    from rpgkernel import Campaign
    c = Campaign.open(Path(tempfile.mkdtemp()) / "k.sqlite")
    c.set_ruleset(None if ruleset == "frei" else ruleset)
    players, foes, data = SHEETS[ruleset]
    for key, value in data.items():
        c.set_data(key, value)
    enc = c.new_encounter("Gefecht")
    order = []
    for k in range(1, per_side + 1):
        for who, side, sheet in (("Held", "Spieler", players), ("Feind", "Feinde", foes)):
            follows = {f"folgt {who} 1": {}} if ruleset in LEADERS and k > 1 else None
            enc.add(f"{who} {k}", side=side, sheet=sheet, conditions=follows)
            order.append(f"{who} {k}")
    enc.start(order=order)
    return enc


def sampler(enc):
    """The compact sampler of the encounter, as ``forecast`` builds it (its tables made once)."""
    from rpgkernel import rules
    from rpgkernel.forecast.fight import Table
    from rpgkernel.forecast.mixture import board as compact_board
    from rpgkernel.forecast.sample import Sampler
    record = enc.campaign.state["encounters"][enc.name]
    table = Table(enc.campaign.state, enc.name, rules.get(record["ruleset"] or None), "schwächste", True)
    board = compact_board(table, np.random.default_rng(0))
    if board is None:
        raise SystemExit(f"{record['ruleset']}: the compact model does not cover the benchmark's fight")
    return Sampler(board)


def sampler_wins(s, batch) -> np.ndarray:
    """Whether the players' side (index 0) won each fight of a sampler's batch."""
    return batch.winner == 0


# -- the reference -------------------------------------------------------------------------------------

class Rules:
    """One ruleset's fight for the reference: the values each combatant starts with (a column of
    each array per combatant), who stands, the rank as a target, an attack, a new round."""

    random_target = False
    each_round = False

    def __init__(self, per_side: int) -> None:
        self.size = 2 * per_side
        self.side = np.arange(self.size) % 2   # the players on even places, as added
        self.foe = self.side[:, None] != self.side[None, :]

    def start(self, n: int) -> dict[str, np.ndarray]:
        raise NotImplementedError

    def up(self, s: dict[str, np.ndarray]) -> np.ndarray:
        raise NotImplementedError

    def rank(self, s: dict[str, np.ndarray]) -> np.ndarray:
        raise NotImplementedError

    def attack(self, s: dict[str, np.ndarray], k: np.ndarray, a: np.ndarray, t: np.ndarray,
               rng: np.random.Generator) -> None:
        raise NotImplementedError

    def new_round(self, s: dict[str, np.ndarray]) -> None:
        pass

    def order(self, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """Each fight's order of this round and whether each place acts at once with the one before."""
        return np.tile(np.arange(self.size), (n, 1)), np.zeros((n, self.size), dtype=bool)


class Frei(Rules):
    """The free mode (kampagne.md, "Ohne Regelwerk: Prognose"): a hit on W20 >= 9 takes W6+1 off the
    HP, not below 0; out at 0; the weakest is the one with the fewest HP."""

    def start(self, n):
        return {"hp": np.tile(np.where(self.side == 0, 14, 10), (n, 1))}

    def up(self, s):
        return s["hp"] > 0

    def rank(self, s):
        return s["hp"]

    def attack(self, s, k, a, t, rng):
        hit = rng.integers(1, 21, len(k)) >= 9
        s["hp"][k, t] = np.maximum(s["hp"][k, t] - hit * (rng.integers(1, 7, len(k)) + 1), 0)


class Bastionland(Rules):
    """Mythic Bastionland (bastionland.md): the attack dice, the highest counts; a Knight not Fatigued
    denies it where the second die or the armour leaves less, then saves with SPI or is Fatigued; the
    damage beyond the armour comes off GD, the rest off VIG (wounded; losing half the VIG left: a
    mortal wound, VIG 0: dead, both out). Morale: a lone foe who became wounded saves with SPI or
    flees; a group of foes that lost half saves once with its first standing member's SPI, else all
    flee. The weakest: the fewest GD + VIG."""

    def __init__(self, per_side):
        super().__init__(per_side)
        self.die = np.where(self.side == 0, 8, 10)
        self.knight = self.side == 0
        self.group = per_side > 1

    def start(self, n):
        return {"gd": np.tile(np.where(self.side == 0, 4, 3), (n, 1)), "vig": np.full((n, self.size), 12),
                "fatigued": np.zeros((n, self.size), dtype=bool), "wounded": np.zeros((n, self.size), dtype=bool),
                "out": np.zeros((n, self.size), dtype=bool), "rolled": np.zeros(n, dtype=bool)}

    def up(self, s):
        return ~s["out"]

    def rank(self, s):
        return s["gd"] + s["vig"]

    def attack(self, s, k, a, t, rng):
        m = len(k)
        first, second = rng.integers(1, self.die[a] + 1), rng.integers(1, 5, m)
        top, low = np.maximum(first, second), np.minimum(first, second)
        armour = 1
        denies = self.knight[t] & ~s["fatigued"][k, t] & (top > np.maximum(low, armour))
        kept = np.where(denies, low, top)
        s["fatigued"][k[denies], t[denies]] = rng.integers(1, 21, int(denies.sum())) > 13
        amount = np.maximum(kept - armour, 0)
        gd, vig = s["gd"][k, t], s["vig"][k, t]
        through = amount > gd
        lost = np.where(through, np.minimum(amount - gd, vig), 0)
        s["gd"][k, t] = np.where(amount >= gd, 0, gd - amount)
        s["vig"][k, t] = vig - lost
        was = s["wounded"][k, t]
        s["wounded"][k, t] |= through
        out = through & ((vig - lost == 0) | (2 * lost >= vig))
        s["out"][k, t] |= out
        if not self.group:   # a lone foe, newly wounded and standing: SPI 9 or flees
            waver = through & ~was & ~out & (self.side[t] == 1)
            s["out"][k[waver], t[waver]] = rng.integers(1, 21, int(waver.sum())) > 9
        else:
            foes = self.side == 1
            left = (~s["out"][k][:, foes]).sum(1)
            now = ~s["rolled"][k] & (2 * (foes.sum() - left) >= foes.sum())
            s["rolled"][k[now]] = True
            fled = k[now][rng.integers(1, 21, int(now.sum())) > 9]
            s["out"][np.ix_(fled, np.flatnonzero(foes))] = True


class Osr(Rules):
    """OSR (osr.md): side initiative with a W6 each round, the higher side first, a tie at once (both
    sides strike, then who still stands counts); the target one standing foe at random; a hit on W20 >=
    ETW0 - RK takes the weapon's W8 off the TP, not below 0; dead at 0."""

    random_target = True
    each_round = True

    def start(self, n):
        return {"tp": np.tile(np.where(self.side == 0, 10, 12), (n, 1))}

    def up(self, s):
        return s["tp"] > 0

    def rank(self, s):
        return s["tp"]

    def attack(self, s, k, a, t, rng):
        need = np.where(self.side[a] == 0, 17 - 6, 18 - 5)
        hit = rng.integers(1, 21, len(k)) >= need
        s["tp"][k, t] = np.maximum(s["tp"][k, t] - hit * rng.integers(1, 9, len(k)), 0)

    def order(self, n, rng):
        mine, theirs = rng.integers(1, 7, n), rng.integers(1, 7, n)
        players, foes = np.flatnonzero(self.side == 0), np.flatnonzero(self.side == 1)
        order = np.where((theirs > mine)[:, None], np.concatenate([foes, players]), np.concatenate([players, foes]))
        together = np.zeros((n, self.size), dtype=bool)
        together[:, 1:] = (mine == theirs)[:, None]
        return order, together


class Kampfwerte(Rules):
    """Kampfwerte (kampfwerte.md): a Gezielte Attacke 2 while 2 AD are left (none: the turn passes):
    the attack test of 3 W10 against 7 (a 10 two successes, a 1 takes one away) hits with 2; the
    target wards it off with W10 >= 9; a hit takes W6+2, +2 per level, less the armour 1, off the LP
    (not below 0); out at 0."""

    def start(self, n):
        return {"lp": np.full((n, self.size), 7), "ad": np.full((n, self.size), 6)}

    def up(self, s):
        return s["lp"] > 0

    def rank(self, s):
        return s["lp"]

    def attack(self, s, k, a, t, rng):
        pay = s["ad"][k, a] >= 2
        k, a, t = k[pay], a[pay], t[pay]
        s["ad"][k, a] -= 2
        faces = rng.integers(1, 11, (len(k), 3))
        net = ((faces >= 7).astype(int) + (faces == 10) - (faces == 1)).sum(1)
        hit = (net >= 2) & (rng.integers(1, 11, len(k)) < 9)
        damage = np.maximum(rng.integers(1, 7, len(k)) + 2 + 4 - 1, 0)
        s["lp"][k, t] = np.maximum(s["lp"][k, t] - hit * damage, 0)


class Midgard(Rules):
    """Midgard (midgard.md): initiative every round, each side's leader rolls W6 for his followers
    (RW 50 against 40: the players first unless the foes' W6 is higher), within a side by name; EW:
    Angriff W20 + 10 (+9) against 20 (20 always, 1 never), then WW: Abwehr W20 + 5 (+4), WM -2 for
    each defence of the round after the first, against the EW's total (20 always, 1 never): a heavy
    hit takes W6+2 (W6+1) less RS 1 (0) off LP and AP, a light one AP alone, less half the margin of
    the defence (none after a 20); neither below 0; out at 0 LP. The weakest: the fewest LP."""

    each_round = True

    def __init__(self, per_side):
        super().__init__(per_side)
        h = self.side == 0
        self.ew, self.abwehr = np.where(h, 10, 9), np.where(h, 5, 4)
        self.bonus, self.rs = np.where(h, 2, 1), np.where(h, 1, 0)
        name = [f"{'Held' if i % 2 == 0 else 'Feind'} {i // 2 + 1}" for i in range(self.size)]
        by_name = sorted(range(self.size), key=lambda i: name[i])
        self.players = np.array([i for i in by_name if h[i]])
        self.foes = np.array([i for i in by_name if not h[i]])

    def start(self, n):
        return {"lp": np.tile(np.where(self.side == 0, 8, 9), (n, 1)), "ap": np.full((n, self.size), 12),
                "abwehren": np.zeros((n, self.size), dtype=np.int64)}

    def up(self, s):
        return s["lp"] > 0

    def rank(self, s):
        return s["lp"]

    def attack(self, s, k, a, t, rng):
        m = len(k)
        ew = rng.integers(1, 21, m)
        total = ew + self.ew[a]
        hit = (ew == 20) | ((ew != 1) & (total >= 20))
        k, a, t, total = k[hit], a[hit], t[hit], total[hit]
        m = len(k)
        ww = rng.integers(1, 21, m)
        held = s["abwehren"][k, t]
        defence = ww + self.abwehr[t] - 2 * held
        defended = (ww == 20) | ((ww != 1) & (defence >= total))
        s["abwehren"][k, t] = held + 1
        damage = rng.integers(1, 7, m) + self.bonus[a]
        heavy = np.maximum(damage - self.rs[t], 0)
        light = np.where(ww == 20, 0, np.maximum(damage - (defence - total) // 2, 0))
        s["ap"][k, t] = np.maximum(s["ap"][k, t] - np.where(defended, light, heavy), 0)
        s["lp"][k, t] = np.maximum(s["lp"][k, t] - np.where(defended, 0, heavy), 0)

    def new_round(self, s):
        s["abwehren"][:] = 0

    def order(self, n, rng):
        first = rng.integers(1, 7, n) >= rng.integers(1, 7, n)
        order = np.where(first[:, None], np.concatenate([self.players, self.foes]),
                         np.concatenate([self.foes, self.players]))
        return order, np.zeros((n, self.size), dtype=bool)


class Adz(Rules):
    """AdZ (adz.md, "angriff" and "Prognose: die Taktik"): every success a 5 or 6 of a W6. The attack
    (Schwerter 6 + KK 5 - AM 1, Äxte 5 + KK 6) less the injury malus of the more marked track (12
    steps, malus 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 6, X) needs 1 success; then the target defends, a
    reaction (GE + Verteidigung + VM: 6 + 5, 4 + 3 - 1, less the malus, halved per earlier reaction
    this round, rounded up, at least one die), each success cancelling one; one left is a hit of GS
    (5, 6) + the successes left - RS (2, 1), then KO + WB dice each take one off. The luck pool (GL 2,
    1), once an attack: after a miss the attacker's dice on the attack (then the defence and resistance
    the hit calls for), after damage the target's on the defence; it drops by one. The damage marks
    physical steps, out at the last. The weakest: the fewest free steps."""

    MALUS = np.array([0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 6, 0])   # by marked steps (12: out, never read)

    def __init__(self, per_side):
        super().__init__(per_side)
        h = self.side == 0
        self.angriff, self.abwehr = np.where(h, 6 + 5 - 1, 5 + 6), np.where(h, 6 + 5, 4 + 3 - 1)
        self.widerstand, self.gs, self.rs = np.where(h, 4 + 1, 5 + 1), np.where(h, 5, 6), np.where(h, 2, 1)
        self.gl = np.where(h, 2, 1)

    def start(self, n):
        return {"frei": np.full((n, self.size), 12), "glueck": np.tile(self.gl, (n, 1)),
                "reaktionen": np.zeros((n, self.size), dtype=np.int64)}

    def up(self, s):
        return s["frei"] > 0

    def rank(self, s):
        return s["frei"]

    def attack(self, s, k, a, t, rng):
        m = len(k)
        malus = self.MALUS[12 - s["frei"][k, a]], self.MALUS[12 - s["frei"][k, t]]
        hits = rng.binomial(np.maximum(self.angriff[a] - malus[0], 0), 1 / 3)
        dice = np.maximum(self.abwehr[t] - malus[1], 0)
        dice = np.where(dice > 0, np.maximum(-(-dice // 2 ** s["reaktionen"][k, t]), 1), 0)
        defended = np.zeros(m, dtype=np.int64)
        rolled = np.zeros(m, dtype=bool)   # the defence
        resisted = np.full(m, -1)          # the resistance's successes (-1: not rolled)

        def chain():
            """The rolls the chain calls for so far, and the damage: before and after the resistance."""
            now = (hits >= 1) & ~rolled
            defended[now] = rng.binomial(dice[now], 1 / 3)
            rolled[now] = True
            left = np.where(hits >= 1, hits - defended, 0)
            before = np.where(left >= 1, np.maximum(self.gs[a] + left - self.rs[t], 0), 0)
            now = (before > 0) & (resisted < 0)
            resisted[now] = rng.binomial(self.widerstand[t][now], 1 / 3)
            return left, np.maximum(before - np.maximum(resisted, 0), 0)

        left, final = chain()
        mine = (left < 1) & (s["glueck"][k, a] > 0)
        theirs = (left >= 1) & (final > 0) & (s["glueck"][k, t] > 0)
        hits = hits + np.where(mine, rng.binomial(s["glueck"][k, a], 1 / 3), 0)
        defended += np.where(theirs, rng.binomial(s["glueck"][k, t], 1 / 3), 0)
        s["glueck"][k, a] -= mine
        s["glueck"][k, t] -= theirs
        left, final = chain()
        s["reaktionen"][k, t] += rolled
        s["frei"][k, t] = np.maximum(s["frei"][k, t] - final, 0)

    def new_round(self, s):
        s["reaktionen"][:] = 0


REFERENCE = {"frei": Frei, "bastionland": Bastionland, "osr": Osr, "kampfwerte": Kampfwerte, "midgard": Midgard,
             "adz": Adz}


def reference(rules: Rules, n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` fights of ``rules`` at once, to their end: whether the players' side won each. The arrays
    hold the fights still going; a fight that ended leaves them."""
    s = rules.start(n)
    won = np.zeros(n, dtype=bool)
    ids = np.arange(n)
    order, together = Rules.order(rules, n, rng)   # the first round as the encounter began it
    stood = rules.up(s)   # who stood when the turns acting at once began
    for _ in range(MAX_ROUNDS):
        for place in range(rules.size):
            rows = np.arange(len(ids))
            actor = order[:, place]
            now = rules.up(s)
            stood = np.where(together[:, place][:, None], stood, now) if place else now
            foes = now & rules.foe[actor]
            if rules.random_target:
                pick = (rng.random(len(ids)) * foes.sum(1)).astype(np.int64)
                target = np.minimum((np.cumsum(foes, 1) <= pick[:, None]).sum(1), rules.size - 1)
            else:
                target = np.where(foes, rules.rank(s), np.inf).argmin(1)
            acts = np.flatnonzero(stood[rows, actor] & foes[rows, target])
            rules.attack(s, acts, actor[acts], target[acts], rng)
            standing = rules.up(s)
            sides = np.stack([standing[:, rules.side == 0].any(1), standing[:, rules.side == 1].any(1)], 1)
            over = sides.sum(1) < 2
            if place + 1 < rules.size:   # those acting at once are looked at after the last of them
                over &= ~together[:, place + 1]
            if over.any():
                won[ids[over]] = sides[over, 0]
                keep = ~over
                s = {key: v[keep] for key, v in s.items()}
                ids, order, together, stood = ids[keep], order[keep], together[keep], stood[keep]
                if not ids.size:
                    return won
        rules.new_round(s)
        if rules.each_round:
            order, together = rules.order(len(ids), rng)
    return won
