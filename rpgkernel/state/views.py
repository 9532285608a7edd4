"""Views of figures and encounters, with the operations that run an encounter."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, Mapping, NamedTuple, Sequence, cast

from .rulebook import figure, rulebook
from ..display import Shown
from ..messages import t
from .. import parts
from . import dicecheck, fighting, marks, model, player_view, tracker
from .transaction import MAX_COUNT, CampaignError, Transaction, check_name, retrying

if TYPE_CHECKING:
    from .campaign import Campaign


class Figure(Shown):
    """A read-only view of a character or combatant."""

    def __init__(self, campaign: Campaign, path: list[str]) -> None:
        self.campaign = campaign
        self.path = path

    @property
    def record(self) -> dict[str, Any]:
        """A copy of the figure's campaign record (name, ruleset, sheet, resources, conditions, …)."""
        self.campaign.refresh()
        return copy.deepcopy(model.figure(self.campaign._state, self.path))

    @property
    def name(self) -> str:
        return cast("str", self.record["name"])

    @property
    def sheet(self) -> dict[str, Any]:
        return cast("dict[str, Any]", self.record.get("sheet", {}))

    @property
    def ruleset(self) -> str | None:
        """The key of the figure's ruleset (a character's copy: the character's)."""
        return self.record.get("ruleset")

    @property
    def resources(self) -> dict[str, dict[str, int]]:
        return cast("dict[str, dict[str, int]]", self.record.get("resources", {}))

    @property
    def conditions(self) -> dict[str, dict[str, Any]]:
        return cast("dict[str, dict[str, Any]]", self.record.get("conditions", {}))



class Joining(NamedTuple):
    """How newcomers join the initiative (``Encounter.add``): in a running fight it is rolled (``seed``,
    ``dice`` as for ``start``) or ``initiative`` given, and they stand where the ruleset's order puts
    them; ``group``: they take one roll (``Tracker.group``)."""

    initiative: int | None = None
    group: bool = False
    seed: int | None = None
    dice: Sequence[int] | None = None


class Encounter(tracker.Tracker, Shown):
    """A view of an encounter with the operations that run it (the order's: ``state.tracker``)."""

    def __init__(self, campaign: Campaign, name: str) -> None:
        self.campaign = campaign
        self.name = name

    @property
    def record(self) -> dict[str, Any]:
        """A copy of the encounter's record (combatants, order, round, turn, segment, ruleset; the
        order's parts in ``state.tracker``)."""
        self.campaign.refresh()
        return copy.deepcopy(self.campaign._state["encounters"][self.name])

    @property
    def round(self) -> int:
        return cast("int", self.record["round"])

    @property
    def order(self) -> list[str]:
        return cast("list[str]", self.record["order"])

    @property
    def current(self) -> str | None:
        data = self.record
        return data["order"][data["turn"]] if data["round"] and data["order"] else None

    @property
    def segment(self) -> int | None:
        return cast("int | None", self.record["segment"])

    def data(self, name: str, default: Any = None) -> Any:
        """The GM's data ``name`` as this encounter sees it (see ``Campaign.data``)."""
        return self.campaign.data(name, self.name, default)

    def set_data(self, name: str, value: Any) -> None:
        """Keep the GM's data ``name`` for this encounter only (see ``Campaign.set_data``)."""
        self.campaign.set_data(name, value, self.name)

    @retrying
    def set_segment(self, segment: int | None) -> None:
        """Move to a segment of the round, for rulesets that split rounds (e.g. ten per round)."""
        parts = rulebook(self.record["ruleset"]).initiative.segments
        if parts is None:
            raise CampaignError(t("campaign.no_segments"))
        if segment is not None and (isinstance(segment, bool) or not isinstance(segment, int)
                                    or not 1 <= segment <= parts):
            raise CampaignError(t("campaign.bad_segment", value=repr(segment)[:40], max=parts))
        with self.campaign.transaction() as tx:
            tx.set(["encounters", self.name, "segment"], segment)
            tx.event("zug", t("journal.segment", segment=segment if segment is not None else "–"),
                     encounter=self.name)

    # -- out of the fight ----------------------------------------------------------
    def out_of_fight(self) -> dict[str, str]:
        """Each combatant that can no longer act -> why (German, its ruleset's words: "tot",
        "bewusstlos", …), as the state stands now; a healed one is no longer listed."""
        self.campaign.refresh()
        return fighting.reasons(self.campaign._state, self.name)

    @property
    def skip_out(self) -> bool:
        """Whether the turns of combatants out of the fight are skipped (the default: yes)."""
        return fighting.skips(self.record)

    @retrying
    def set_skip_out(self, skip: bool) -> None:
        """Skip the turns of combatants out of the fight (``True``, the default) or give them their
        turns all the same (``False``); kept in the encounter, journalled, undoable."""
        if not isinstance(skip, bool):
            raise CampaignError(t("campaign.bad_skip_out", value=repr(skip)[:40]))
        with self.campaign.transaction() as tx:
            if fighting.skips(tx.state["encounters"][self.name]) == skip:
                return
            tx.set(["encounters", self.name, fighting.SKIP], skip)
            tx.event("einstellung", t("journal.skip_out", name=self.name,
                                      value=t("journal.yes" if skip else "journal.no")), encounter=self.name)

    def forecast(self, n: int | None = None, seed: int | None = None, **options: Any) -> Any:
        """Who wins this fight from where it stands, in how many rounds, who falls, what is left: a
        ``Forecast`` (``rpgkernel.forecast.forecast``: ``n`` fights or until precise, ``zielwahl``,
        ``precision``, ``progress``); nothing is written to the campaign."""
        return parts.forecast(self.campaign, self.name, n=n, seed=seed, **options)

    # -- what players see (``state.player_view``) ------------------------------------
    @property
    def player_sight(self) -> dict[str, str]:
        """Each side the GM set -> how players see it (``genau``, ``beschreibung``, ``nichts``); a side
        not set: ``genau`` for the player's own side, ``beschreibung`` for the others."""
        return dict(self.record.get(player_view.SIGHT, {}))

    @retrying
    def set_player_sight(self, side: str, sight: str) -> None:
        """Let players see ``side``'s combatants with their exact values (``genau``), as their
        ruleset's description (``beschreibung``) or not at all (``nichts``); journalled, undoable."""
        side = check_name(side, "side")
        if sight not in player_view.SIGHTS:
            raise CampaignError(t("campaign.bad_sight", value=repr(sight)[:40], known=", ".join(player_view.SIGHTS)))
        with self.campaign.transaction() as tx:
            if tx.state["encounters"][self.name].get(player_view.SIGHT, {}).get(side) == sight:
                return
            if player_view.SIGHT not in tx.state["encounters"][self.name]:
                tx.set(["encounters", self.name, player_view.SIGHT], {})
            tx.set(["encounters", self.name, player_view.SIGHT, side], sight)
            tx.event("einstellung", t("journal.player_sight", name=self.name, side=side, sight=sight),
                     encounter=self.name)

    @retrying
    def activate(self) -> None:
        """Make this the campaign's active encounter, the one ``%%resolve`` lines act in."""
        with self.campaign.transaction() as tx:
            if tx.state["active_encounter"] == self.name:
                return
            tx.set(["active_encounter"], self.name)
            tx.event("begegnung", t("journal.activate", name=self.name), encounter=self.name)

    @property
    def combatants(self) -> dict[str, Figure]:
        return {name: self.campaign.figure(name, self.name) for name in self.record["combatants"]}

    @retrying
    def add(self, name: str, side: str = "", character: str | None = None,
            sheet: Mapping[str, Any] | None = None, resources: Mapping[str, int] | None = None,
            conditions: Mapping[str, Any] | None = None, count: int = 1,
            ruleset: str | None = None, *, like: str | None = None, **joining: Any) -> list[str]:
        """Add a combatant: a character (``character=``), a monster/group from a stat block, or one
        like a combatant of this encounter (``like=``: its sheet and ruleset, its resources at their
        maximum, its side unless ``side`` is given). ``count`` > 1 adds numbered individuals ("Goblin 1",
        "Goblin 2", …); how they join the initiative: ``Joining``'s fields as keywords.
        """
        from ..dice.roll import Roller
        initiative, group, seed, dice = Joining(**joining)
        camp = self.campaign
        names = _numbered(check_name(name, "figure"), count)
        side = check_name(side, "side") if side else ""
        if initiative is not None:
            tracker.given_initiative(initiative)
        with camp.transaction() as tx:
            enc = tx.state["encounters"][self.name]
            self._check_newcomers(tx, names, character, initiative)
            if like is not None:
                sheet, ruleset, resources, side = self._like(tx, like, side)
            for n in names:
                if character is not None:
                    record: dict[str, Any] = {"name": n, "character": character}
                else:
                    record = camp._new_figure(n, sheet, ruleset or enc["ruleset"], resources, conditions,
                                              model.data(tx.state, self.name))
                    record["character"] = None
                record["side"] = side
                if group and len(names) > 1:
                    record["group"] = name
                tx.set(["encounters", self.name, "combatants", n], record)
            key = "journal.combatants" if len(names) > 1 else "journal.combatant"
            tx.event("kampfteilnehmer", t(key, names=", ".join(names), encounter=self.name), names, self.name)
            roller = Roller(seed, dice)
            if enc["round"]:
                self._join(tx, names, initiative, group, roller)
            roller.finish()
        return names

    def _check_newcomers(self, tx: Transaction, names: list[str], character: str | None,
                         initiative: int | None) -> None:
        """Refuse a name taken or removed here, a given initiative before the start, an unknown character."""
        camp = self.campaign
        enc = tx.state["encounters"][self.name]
        for n in names:
            if n in enc["combatants"]:
                raise CampaignError(t("campaign.duplicate", name=n))
            if n in enc.get("removed", {}):   # it comes back as it was, with restore
                raise CampaignError(camp._unknown(n, self.name, tx.state))
        if initiative is not None and not enc["round"]:   # before the start, the start rolls
            raise CampaignError(t("campaign.not_started", name=self.name))
        if character is not None and character not in tx.state["characters"]:
            raise CampaignError(camp._unknown(character, None))

    def _like(self, tx: Transaction, like: str, side: str) -> tuple[dict[str, Any], str | None, dict[str, int] | None, str]:
        """What a combatant like ``like`` starts with: sheet, ruleset, resources (free mode: their
        maximum; a ruleset computes its own), side (``side``, else the pattern's)."""
        path = model.figure_path(tx.state, like, self.name)
        if path is None:
            raise CampaignError(self.campaign._unknown(like, self.name, tx.state))
        pattern = model.figure(tx.state, path)
        combatant = tx.state["encounters"][self.name]["combatants"].get(like, {})
        resources = ({k: r["max"] for k, r in pattern.get("resources", {}).items()}
                     if pattern.get("ruleset") is None else None)
        return dict(pattern.get("sheet", {})), pattern.get("ruleset"), resources, side or combatant.get("side", "")

    @retrying
    def start(self, order: list[str] | None = None, rolls: Mapping[str, int] | None = None, *,
              seed: int | None = None, dice: Sequence[int] | None = None) -> list[str]:
        """Begin round 1: with a given ``order``, given initiative ``rolls``, or rolled by the ruleset;
        ``seed`` and ``dice`` (real results, in turn) as for ``rpgkernel.resolve``."""
        with self.campaign.transaction() as tx:
            order = self._begin(tx, order, rolls, seed, dice)
        return order

    def _begin(self, tx: Transaction, order: list[str] | None, rolls: Mapping[str, int] | None,
               seed: int | None, dice: Sequence[int] | None) -> list[str]:
        """Begin round 1 in ``tx`` (``start``); the turn order."""
        if not tx.state["encounters"][self.name]["combatants"]:
            raise CampaignError(t("campaign.empty_encounter", name=self.name))
        order, rolled, real = self._initiative(tx, order, rolls, seed, dice)
        tx.set(["encounters", self.name, "round"], 1)
        tx.set(["encounters", self.name, "turn"], 0)
        tx.extend(model.tick(tx.state, self.name, "round_start", None))
        tx.extend(model.tick(tx.state, self.name, "turn_start", order[0]))
        self._skip_out(tx, order[0], None, None, None)   # within round 1: no initiative rolled again
        self._initiative_event(tx, order, rolled, real)
        return list(order)

    def _initiative(self, tx: Transaction, order: list[str] | None, rolls: Mapping[str, int] | None,
                    seed: int | None, dice: Sequence[int] | None
                    ) -> tuple[list[str], dict[str, Any], dict[str, Any]]:
        """Set the turn order: given, from given rolls, or rolled by the ruleset; the rolls, and the
        echte Würfel thrown for them (``dicecheck.journalled``).

        A group rolls once, through its first member (``tracker.groups``); whoever waited (``held``)
        is back in the order."""
        from ..dice.roll import Roller
        state = tx.state
        enc = state["encounters"][self.name]
        names = list(enc["combatants"])
        combatants = {n: model.seen_by_rules(state, n, self.name, copied=False) for n in names}   # read as views
        engine = rulebook(enc["ruleset"])
        rolled: dict[str, Any] = {}
        values: dict[str, int] = {}
        real: dict[str, Any] = {}
        if order is None:
            roller = Roller(seed, dice)   # the rolls, then any roll-off of ties
            rolling = tracker.groups(enc)
            heads = {n: figure(cast("dict[str, Any]", combatants[n])) for n in rolling}
            if rolls is None:
                rolls, rolled = engine.initiative.rolls(heads, roller, model.data(state, self.name))
            unknown = [n for n in rolls if n not in combatants]
            if unknown:
                raise CampaignError(self.campaign._unknown(unknown[0], self.name, state))
            missing = [n for n in heads if n not in rolls]
            if missing:
                raise CampaignError(t("campaign.missing_rolls", names=", ".join(missing)))
            values = {m: rolls[n] for n, members in rolling.items() for m in members}
            order = tracker.expanded(engine.initiative.order(heads, {n: rolls[n] for n in heads}, roller), rolling)
            roller.finish()
            real = dicecheck.journalled(roller.given, roller.thrown)
        if sorted(order) != sorted(combatants):
            raise CampaignError(t("campaign.bad_order", known=", ".join(combatants)))
        tx.set(["encounters", self.name, "order"], list(order))
        tx.set(["encounters", self.name, "initiative"], values)
        if "held" in enc:
            tx.delete(["encounters", self.name, "held"])
        return list(order), rolled or dict(rolls or {}), real

    def _initiative_event(self, tx: Transaction, order: list[str], rolled: dict[str, Any],
                          real: dict[str, Any]) -> None:
        shown = ", ".join(marks.marked(tx.state, self.name, order))
        engine = rulebook(tx.state["encounters"][self.name]["ruleset"])
        key = "journal.initiative" if engine.initiative.rolled else "journal.order"
        tx.event("initiative", t(key, order=shown), list(order), self.name, rolls=rolled, **real)

    @retrying
    def next_turn(self, rolls: Mapping[str, int] | None = None, *, seed: int | None = None,
                  dice: Sequence[int] | None = None) -> str:
        """End the current turn (and the round after the last) and start the next; conditions count down.

        Where a new round begins and the ruleset determines initiative every round,
        it is rolled (or taken from ``rolls``/``dice``) before the round starts.
        """
        with self.campaign.transaction() as tx:
            nxt = self._advance(tx, False, rolls, seed, dice)
            rnd = tx.state["encounters"][self.name]["round"]
            tx.event("zug", t("journal.turn", round=rnd, figure=nxt), [nxt], self.name)
        return nxt

    @retrying
    def next_round(self, new_initiative: bool = False, rolls: Mapping[str, int] | None = None, *,
                   seed: int | None = None, dice: Sequence[int] | None = None) -> int:
        """Pass the remaining turns of this round (their moments count) and start the next round.

        ``new_initiative``: determine the order anew for it (e.g. after a major change),
        also where the ruleset keeps one order for the whole fight.
        """
        with self.campaign.transaction() as tx:
            start = tx.state["encounters"][self.name]["round"]
            while True:
                nxt = self._advance(tx, new_initiative, rolls, seed, dice)
                rnd = tx.state["encounters"][self.name]["round"]
                if rnd != start:
                    break
            tx.event("zug", t("journal.turn", round=rnd, figure=nxt), [nxt], self.name)
        return cast("int", rnd)

    def _advance(self, tx: Transaction, new_initiative: bool = False,
                 rolls: Mapping[str, int] | None = None, seed: int | None = None,
                 dice: Sequence[int] | None = None) -> str:
        """End the current turn and start the next one that a combatant in the fight takes."""
        return self._skip_out(tx, self._pass(tx, new_initiative, rolls, seed, dice), rolls, seed, dice)

    def _skip_out(self, tx: Transaction, nxt: str, rolls: Mapping[str, int] | None,
                  seed: int | None, dice: Sequence[int] | None) -> str:
        """From ``nxt``'s turn on, pass the turns of combatants out of the fight (their moments count,
        so what ends at them ends) while the encounter skips them; who then has the turn."""
        enc = tx.state["encounters"][self.name]
        if not fighting.skips(enc) or fighting.reason(tx.state, nxt, self.name) is None:
            return nxt
        out = fighting.reasons(tx.state, self.name)
        if len(out) == len(enc["combatants"]):
            raise CampaignError(t("campaign.all_out", name=self.name,
                                  who="; ".join(f"{n} – {why}" for n, why in out.items())))
        for _ in range(2 * len(enc["combatants"])):   # the rest of this round and, after a new one, all of it
            if fighting.reason(tx.state, nxt, self.name) is None:
                return nxt
            nxt = self._pass(tx, False, rolls, seed, dice)
        return nxt

    def _pass(self, tx: Transaction, new_initiative: bool = False,
              rolls: Mapping[str, int] | None = None, seed: int | None = None,
              dice: Sequence[int] | None = None) -> str:
        """End the current turn (and the round after the last) and start the next."""
        data = tx.state["encounters"][self.name]
        if not data["round"]:
            raise CampaignError(t("campaign.not_started", name=self.name))
        order, turn = data["order"], data["turn"]
        tx.extend(model.tick(tx.state, self.name, "turn_end", order[turn]))
        if turn + 1 < len(order):
            tx.set(["encounters", self.name, "turn"], turn + 1)
            nxt = order[turn + 1]
        else:
            tx.extend(model.tick(tx.state, self.name, "round_end", None))
            tx.add(["encounters", self.name, "round"], 1)
            tx.set(["encounters", self.name, "turn"], 0)
            if new_initiative or rulebook(data["ruleset"]).initiative.each_round:
                order, rolled, real = self._initiative(tx, None, rolls, seed, dice)
                self._initiative_event(tx, order, rolled, real)
            tx.extend(model.tick(tx.state, self.name, "round_start", None))
            nxt = order[0]
        tx.extend(model.tick(tx.state, self.name, "turn_start", nxt))
        return cast("str", nxt)


def _numbered(name: str, count: int) -> list[str]:
    """``name``, or ``count`` numbered individuals of it ("Goblin 1", "Goblin 2", …)."""
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
        raise CampaignError(t("campaign.bad_count", value=repr(count)[:40]))
    return [name] if count == 1 else [f"{name} {i}" for i in range(1, count + 1)]
