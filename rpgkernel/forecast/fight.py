"""One fight played to its end through the ruleset's procedures, on a state of its own.

Each turn is a ``%%resolve`` line carried out as the GM would (docs/mitwirken.md, "Ein Kampf über die
Prozeduren"); the campaign's state stays as it was."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np

from ..dice.roll import Roller
from ..errors import RpgError
from ..messages import t
from ..resolve.lines import line
from ..resolve.run import carry_out, verbs
from ..rules.base import Ruleset
from ..rules.compact import Compact
from ..rules.figure import Figure, view
from ..rules.resolution import Choice, Resolution
from ..rules.tactics import Action, Fight
from ..state import fighting, model
from ..state.transaction import Transaction
from ..state.views import Encounter
from . import faces
from .orders import Kept, order_chances, together

#: the round after which a fight counts as undecided (a draw)
MAX_ROUNDS = 100
#: choice lines one resolution may take before the forecast passes on what is still open (a Midgard
#: attack pauses after each of its rolls for divine grace, and again after each repeated roll)
MAX_CHOICE_ROUNDS = 16


class ForecastError(RpgError, ValueError):
    """An encounter that cannot be forecast (German message)."""


@dataclass(frozen=True)
class Outcome:
    """How one fight ended: the side left standing (None: a draw), the rounds it took from the round it
    stood in (that one counted), who was out
    of the fight at its end, and every combatant's resources then."""

    winner: str | None
    rounds: int
    out: frozenset[str]
    resources: Mapping[str, Mapping[str, int]]


@dataclass(frozen=True)
class Opening:
    """A fight as its first turn finds it, for a compact model: the combatants in the encounter's order,
    every turn order it can take (indices) with who acts at the same time as the one before, the chance of
    each at the first turn (``starts``) and at each later round (``each_round``; None: the order stays),
    and where it stands (``turn``, ``round``; ``first``: the round the forecast began in, 0 before the fight)."""

    names: list[str]
    figures: list[Figure]
    sides: list[str]
    orders: list[list[int]]
    together: list[tuple[bool, ...]]
    starts: dict[int, float]
    each_round: dict[int, float] | None
    turn: int
    round: int
    first: int
    fight: Fight


def rounds_played(first: int, last: int) -> int:
    """The rounds a fight took from the round ``first`` it stood in (0 before it began; that round
    counted) to the round ``last`` it ended in (a draw after ``MAX_ROUNDS``)."""
    return min(last, MAX_ROUNDS) - max(first, 1) + 1


class Table:
    """An encounter as a forecast plays it: the campaign's state, the ruleset and its tactics."""

    def __init__(self, state: dict[str, Any], encounter: str, engine: Ruleset, zielwahl: str,
                 moral: bool = True) -> None:
        self.state, self.name, self.engine, self.zielwahl = state, encounter, engine, zielwahl
        self.verbs = verbs(engine)
        enc = state["encounters"][encounter]
        names = list(enc["combatants"])
        self.sides = {n: model.seen_by_rules(state, n, encounter, copied=False).get("side") or "" for n in names}
        lone = [n for n, side in self.sides.items() if not side]
        if lone:
            raise ForecastError(t("forecast.no_side", names=", ".join(lone)))
        if len(set(self.sides.values())) < 2:
            raise ForecastError(t("forecast.one_side", name=encounter))
        if not engine.tactics.plays():
            raise ForecastError(engine.tactics.no_forecast
                                or t("forecast.no_tactics", ruleset=engine.title or engine.key or "–"))
        self.tactics = engine.tactics if moral else engine.tactics.without_morale()
        self.targeted: dict[str, int] = {}
        self.kept = Kept()   # the turn orders of the openings so far
        self._outcomes: dict[str, dict[str, Any]] = {}   # of the open resolutions in ``state``, by key
        self._asked: tuple[dict[str, Any], dict[str, str]] | None = None
        try:   # the GM's data the tactics read: what is missing stops the forecast before it plays
            self.tactics.check(self._fight(state, self._down(self._reasons(state)), Roller(dice=[])))
        except RpgError as err:
            raise ForecastError(str(err)) from None

    def play(self, rng: np.random.Generator) -> Outcome:
        """Play the fight from the encounter as it stands to its end."""
        roller = Roller(rng=rng)
        self.targeted, self._asked = {}, None
        tx = Transaction(self.state)
        enc = Encounter(None, self.name)  # type: ignore[arg-type]  # its turn order works on tx alone
        first = tx.state["encounters"][self.name]["round"]
        if not first:
            enc._begin(tx, None, None, _seed(rng), None)
        self._close_pending(tx, roller)
        while True:
            record = tx.state["encounters"][self.name]
            out = self._reasons(tx.state)
            down = self._down(out)
            standing = {self.sides[n] for n in record["combatants"] if n not in down}
            if len(standing) < 2 or record["round"] > MAX_ROUNDS:
                winner = next(iter(standing)) if len(standing) == 1 else None
                return Outcome(winner, rounds_played(first, record["round"]), frozenset(down), self._resources(tx))
            actor = record["order"][record["turn"]]
            if actor in out:
                enc._advance(tx, False, None, _seed(rng), None)
                continue
            self._turn(tx, actor, down, roller)
            if len({self.sides[n] for n in record["combatants"]
                    if n not in self._down(self._reasons(tx.state))}) >= 2:
                enc._advance(tx, False, None, _seed(rng), None)

    def pending(self, state: Mapping[str, Any] | None = None) -> bool:
        """Whether resolutions of the ruleset stand open in ``state`` (default: the campaign's)."""
        state = self.state if state is None else state
        return any(rec.get("ruleset") == self.engine.key for rec in state.get("pending", {}).values())

    def closed(self, roller: Roller) -> dict[str, Any]:
        """The campaign's state once its open resolutions are taken as the tactics decide, with the dice
        of ``roller`` for what follows the decisions (``_close_pending``; the procedure path does the
        same before every fight); the campaign's state itself where none is open."""
        tx = Transaction(self.state)
        self.targeted = {}
        self._close_pending(tx, roller)
        return tx.state

    def closings(self, most: int) -> tuple[list[tuple[float, dict[str, Any]]], list[tuple[tuple[int, ...], float]]]:
        """The states ``closed`` gives, with their chances (states alike merged), by trying the ways the
        dice after the decisions can fall (``faces.explore``) in at most ``most`` runs; and the ways left
        untried (the faces chosen so far, their chance), none where every way was tried."""
        tried, left, _ = faces.explore(self.closed, most)
        found: dict[str, list] = {}
        for p, state in tried:
            key = self.key(state)
            if key in found:
                found[key][0] += p
            else:
                found[key] = [p, state]
        return [(p, state) for p, state in found.values()], left

    def key(self, state: Mapping[str, Any]) -> str:
        """What tells two states of this fight apart: the encounter and the characters."""
        return json.dumps([state["encounters"][self.name], state["characters"]], sort_keys=True, default=str)

    def opening(self, rng: np.random.Generator, state: dict[str, Any] | None = None) -> Opening | None:
        """The fight as its first turn finds it in ``state`` (default: the campaign's; with no
        resolution of the ruleset open: ``closed`` takes them), for a compact model (``rules.compact``),
        with the chance of every turn order its initiative can give (``orders``); None where the
        initiative dice fall in too many ways."""
        tx = Transaction(self.state if state is None else state)
        record = tx.state["encounters"][self.name]
        first = record["round"]
        names = list(record["combatants"])
        rolled = None
        if not first or self.engine.initiative.each_round:
            rolled = order_chances(tx.state, self.name, self.engine, kept=self.kept)
            if rolled is None:
                return None
        orders = self._orders(tx.state, rolled)
        if not first:
            Encounter(None, self.name)._begin(tx, list(orders[0][0]), None, None, None)  # type: ignore[arg-type]
            record = tx.state["encounters"][self.name]
        chances = {orders.index((o, at_once)): p for p, o, at_once in rolled or ()}
        starts = chances if not first and rolled else {0: 1.0}
        each_round = chances if self.engine.initiative.each_round and rolled else None
        figures = [view(model.seen_by_rules(tx.state, n, self.name, copied=False)) for n in names]
        return Opening(names, figures, [self.sides[n] for n in names],
                       [[names.index(n) for n in o] for o, _ in orders], [at_once for _, at_once in orders],
                       starts, each_round, 0 if not first else record["turn"], record["round"], first,
                       self._fight(tx.state, {}, Roller(rng=rng)))

    def compact(self) -> Compact | None:
        """The ruleset's compact model of the fight as the campaign's state shows it (its turn orders not
        worked out; a fight not yet begun before its start), or None where there is none for it."""
        fight = self._fight(self.state, {}, Roller(dice=[]))
        return self.tactics.compact(list(fight.combatants.values()), fight.data)

    def _orders(self, state: dict[str, Any], rolled: list[tuple[float, tuple[str, ...], tuple[bool, ...]]] | None
                ) -> list[tuple[tuple[str, ...], tuple[bool, ...]]]:
        """Every turn order the fight can take, each once: the running one first (in a started fight),
        then those ``rolled`` (with who acts at once with the one before)."""
        record = state["encounters"][self.name]
        orders: list[tuple[tuple[str, ...], tuple[bool, ...]]] = []
        if record["round"]:
            now = tuple(record["order"])
            everyone = {n: model.seen_by_rules(state, n, self.name) for n in record["combatants"]}
            orders.append((now, together(self.engine, everyone, record.get("initiative") or {}, now)))
        return orders + [(o, at_once) for _, o, at_once in rolled or () if (o, at_once) not in orders]

    def _reasons(self, state: dict[str, Any]) -> dict[str, str]:
        """Who is out of the fight in ``state`` and why (``fighting.reasons``), kept for the state last
        asked about: a transaction replaces its working state with each change, never alters it."""
        if self._asked is None or self._asked[0] is not state:
            self._asked = (state, fighting.reasons(state, self.name))
        return self._asked[1]

    def _down(self, out: Mapping[str, str]) -> dict[str, str]:
        """Those of ``out`` who do not come back by themselves (``Tactics.gets_up``): out for good."""
        return {n: why for n, why in out.items() if not self.tactics.gets_up(why)}

    def _fight(self, state: dict[str, Any], out: Mapping[str, str], roller: Roller) -> Fight:
        names = state["encounters"][self.name]["combatants"]
        combatants = {n: view(model.seen_by_rules(state, n, self.name, copied=False)) for n in names}
        return Fight(combatants, out, state["encounters"][self.name]["round"], model.data(state, self.name),
                     roller, self.zielwahl, self.targeted)

    def _turn(self, tx: Transaction, actor: str, out: Mapping[str, str], roller: Roller) -> None:
        fight = self._fight(tx.state, out, roller)
        me = fight.combatants[actor]
        foes = fight.standing(foes_of=me.side)
        if not foes:
            return
        try:   # the tactics read the rules (a threat from a preview): what the rules refuse stops the forecast
            target = self.tactics.target(me, foes, fight)
            self.targeted[target.name] = self.targeted.get(target.name, 0) + 1
            action = self.tactics.action(me, target, fight)
        except RpgError as err:
            raise ForecastError(t("forecast.tactics_failed", figure=actor, error=str(err))) from None
        if action is not None:
            self._settle(tx, self._run(tx, action, roller), out, roller)
            if self.tactics.moral:   # what the rules demand after the turn, as the GM would carry it out
                after = self._fight(tx.state, self._down(self._reasons(tx.state)), roller)
                self._settle(tx, self._run_all(tx, self.tactics.morale(fight, after), roller), after.out, roller)

    def _settle(self, tx: Transaction, results: list[Any], out: Mapping[str, str], roller: Roller) -> None:
        """Take the open choices of ``results`` as the tactics decide, until none is open."""
        for _ in range(MAX_CHOICE_ROUNDS):
            still = [r for r in results if r.open]
            if not still:
                return
            fight = self._fight(tx.state, out, roller)
            results = [x for r in still for x in self._run_all(tx, self.tactics.decide(r, fight), roller)]
        still = [r for r in results if r.open]
        if still:
            raise ForecastError(t("forecast.still_open", action=still[0].action))

    def open(self, state: dict[str, Any] | None = None) -> list[tuple[Resolution, dict[str, Any]]]:
        """The open resolutions of this ruleset in ``state`` (default: the campaign's) as the tactics read
        them (what their dice gave so far, their choices), each with the options of its line."""
        state = self.state if state is None else state
        stored = {k: rec for k, rec in state.get("pending", {}).items() if rec.get("ruleset") == self.engine.key}
        return [(Resolution(self.engine.key, rec["verb"], tuple(rec["actors"]), tuple(rec["targets"]),
                            outcome=self._outcome(state, k, rec), choices=[_choice(c) for c in rec["choices"]]),
                 dict(rec.get("options") or {})) for k, rec in stored.items()]

    def _close_pending(self, tx: Transaction, roller: Roller) -> None:
        """The campaign's open resolutions of this ruleset: taken as the tactics decide before the fight
        goes on (as the GM would take them first)."""
        results = [res for res, _ in self.open(tx.state)]
        if results:
            self._settle(tx, results, self._down(self._reasons(tx.state)), roller)

    def _outcome(self, state: dict[str, Any], key: str, record: Mapping[str, Any]) -> dict[str, Any]:
        """What an open resolution's dice gave (``Resolution.outcome``, which the tactics read to decide):
        its line carried out again with its dice on a scratch copy of ``state`` without it; nothing where
        decisions were taken on it already (the line alone would not reach them). Worked out once for
        the campaign's state (every closing starts from it)."""
        if record.get("decisions"):
            return {}
        if state is self.state:
            if key not in self._outcomes:
                self._outcomes[key] = self._carried_out(state, key, record)
            return dict(self._outcomes[key])
        return self._carried_out(state, key, record)

    def _carried_out(self, state: dict[str, Any], key: str, record: Mapping[str, Any]) -> dict[str, Any]:
        scratch = Transaction({**state, "pending": {k: r for k, r in state["pending"].items() if k != key}})
        try:
            done = carry_out(scratch, self.engine, record["source"], Roller(dice=list(record["faces"])))
        except RpgError:
            return {}
        return dict(done[-1].outcome) if done else {}

    def _run_all(self, tx: Transaction, actions: list[Action], roller: Roller) -> list[Any]:
        return self._run(tx, actions, roller) if actions else []

    def _run(self, tx: Transaction, actions: Action | list[Action], roller: Roller) -> list[Any]:
        actions = [actions] if isinstance(actions, Action) else actions
        source = "\n".join(line(self.verbs[a.verb], a.actors, a.targets, dict(a.options)) for a in actions)
        try:
            return carry_out(tx, self.engine, source, roller)
        except RpgError as err:
            raise ForecastError(t("forecast.action_failed", line=source, error=str(err))) from None

    def _resources(self, tx: Transaction) -> dict[str, dict[str, int]]:
        found = {}
        for n in tx.state["encounters"][self.name]["combatants"]:
            record = model.seen_by_rules(tx.state, n, self.name, copied=False)
            found[n] = {k: r["value"] for k, r in (record.get("resources") or {}).items()}
        return found



def _choice(record: Mapping[str, Any]) -> Choice:
    """A stored open choice (``Choice.to_dict``) as the kit's value."""
    return Choice(record["key"], record["label"], tuple(record.get("who", ())), tuple(record.get("options", ())),
                  tuple(record.get("also", ())), record.get("also_label", ""),
                  {k: tuple(v) for k, v in record.get("values", {}).items()})


def _seed(rng: np.random.Generator) -> int:
    """A seed for the encounter's own rolls (initiative), drawn from the fight's dice."""
    return int(rng.integers(2**62))
