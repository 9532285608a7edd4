"""The table's operations on an encounter's combatants and turn order: remove and restore, join a
running fight, delay and act now, move before or after another, roll one anew, group initiative,
hide and reveal.

``Tracker`` is part of ``Encounter`` (views.py); each operation is one campaign transaction. The
rules of the order are the ruleset's (``state.rulebook``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence, cast

from ..messages import t
from . import dicecheck, model
from .rulebook import figure, rulebook
from .transaction import CampaignError, Transaction, retrying

if TYPE_CHECKING:
    from .campaign import Campaign
    from ..rules.figure import Figure
    from .rulebook import Rulebook

MAX_INITIATIVE = 10**9   # an initiative value the GM enters, either way


def groups(enc: Mapping[str, Any]) -> dict[str, list[str]]:
    """Who rolls initiative: each combatant on its own or heading its group (the group's first to
    join) -> the names that roll sets, in joining order."""
    out: dict[str, list[str]] = {}
    heads: dict[str, str] = {}
    for name, record in enc["combatants"].items():
        label = record.get("group")
        if label is None:
            out[name] = [name]
        elif label in heads:
            out[heads[label]].append(name)
        else:
            heads[label] = name
            out[name] = [name]
    return out


def expanded(order: Sequence[str], rolling: Mapping[str, list[str]]) -> list[str]:
    """An order of those who roll with each group's other members right behind its head."""
    return [member for name in order for member in rolling[name]]


def hidden(state: Mapping[str, Any]) -> set[str]:
    """The names of every encounter's hidden combatants."""
    return {name for enc in state["encounters"].values()
            for name, record in enc["combatants"].items() if record.get("hidden")}


def placed(after: str, note: str | None) -> str:
    """Where newcomers or a roll anew put a combatant, for the journal (with the ruleset's note)."""
    text = t("journal.place_after", after=after) if after else t("journal.place_first")
    return text + (f" ({note})" if note else "")


def removed_figure(name: str, encounter: str, active: bool) -> str:
    """That ``name`` was removed from ``encounter`` and how it comes back, as a magic and in Python."""
    magic = _word(name) + ("" if active else " --begegnung " + _word(encounter))
    python = "begegnung" if active else f"kampagne.encounters[{_quoted(encounter)}]"
    return t("campaign.removed_figure", name=name, encounter=encounter, magic=magic,
             python=f"{python}.restore({_quoted(name)})")


def _word(text: str) -> str:
    """A name as one word of a magic line (in quotes where it has spaces)."""
    return f'"{text}"' if any(c.isspace() for c in text) else text


def _quoted(text: str) -> str:
    """A string as Python writes it in double quotes (``"Goblin 2"``)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def given_initiative(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > MAX_INITIATIVE:
        raise CampaignError(t("campaign.bad_initiative", value=repr(value)[:40]))
    return value


class Tracker:
    """The order operations of ``Encounter`` (see the module docstring)."""

    # Encounter's: its campaign and name, a copy of its record, the end of a turn (``_advance(tx)``)
    campaign: Campaign
    name: str
    _advance: Callable[..., str]

    if TYPE_CHECKING:
        @property
        def record(self) -> dict[str, Any]: ...

    # -- reading -----------------------------------------------------------------------
    @property
    def initiative(self) -> dict[str, int]:
        """Each combatant's initiative value this round (none for an order given by hand)."""
        return cast("dict[str, int]", self.record.get("initiative", {}))

    @property
    def held(self) -> list[str]:
        """Who delays and waits out of the order until it acts now (``act_now``)."""
        return cast("list[str]", self.record.get("held", []))

    @property
    def removed(self) -> list[str]:
        """The combatants taken out of the encounter, which ``restore`` brings back."""
        return list(self.record.get("removed", {}))

    @property
    def hidden(self) -> list[str]:
        """The hidden combatants: they act for the GM and are kept from the players."""
        return [n for n, r in self.record["combatants"].items() if r.get("hidden")]

    # -- helpers on a transaction's working state -------------------------------------------
    def _path(self, *keys: str) -> list[str]:
        return ["encounters", self.name, *keys]

    def _enc(self, tx: Transaction) -> dict[str, Any]:
        return cast("dict[str, Any]", tx.state["encounters"][self.name])

    def _engine(self, tx: Transaction) -> Rulebook:
        return rulebook(self._enc(tx)["ruleset"])

    def _figure(self, tx: Transaction, name: str) -> Figure:
        """The combatant ``name`` as the ruleset's initiative reads it (the kit's view)."""
        record = model.seen_by_rules(tx.state, name, self.name)
        assert record is not None, name
        return figure(record)

    def _combatant(self, tx: Transaction, name: str) -> str:
        """``name`` if it is a combatant of this encounter, else a German error with the closest name."""
        if name not in self._enc(tx)["combatants"]:
            raise CampaignError(self.campaign._unknown(name, self.name, tx.state))
        return name

    def _running(self, tx: Transaction) -> dict[str, Any]:
        enc = self._enc(tx)
        if not enc["round"]:
            raise CampaignError(t("campaign.not_started", name=self.name))
        return enc

    def _in_order(self, tx: Transaction, name: str) -> int:
        """Where ``name`` stands in the running order; a German error for one that waits."""
        enc = self._running(tx)
        self._combatant(tx, name)
        if name in enc.get("held", []):
            raise CampaignError(t("campaign.held_not_in_order", name=name))
        return cast("int", enc["order"].index(name))

    def _refuse(self, tx: Transaction, change: str, name: str, overtaken: Sequence[str]) -> None:
        """Raise the ruleset's German refusal of ``change``, if it has one."""
        refusal = self._engine(tx).initiative.refusal(change, self._figure(tx, name),
                                                 [self._figure(tx, n) for n in overtaken],
                                                 self._enc(tx).get("initiative", {}))
        if refusal:
            raise CampaignError(refusal)

    def _set_order(self, tx: Transaction, order: list[str]) -> None:
        """A new running order in which whose turn it is keeps the turn."""
        enc = self._enc(tx)
        current = enc["order"][enc["turn"]]
        tx.set(self._path("order"), order)
        if order.index(current) != enc["turn"]:
            tx.set(self._path("turn"), order.index(current))

    def _set_values(self, tx: Transaction, values: Mapping[str, int]) -> None:
        tx.set(self._path("initiative"), {**self._enc(tx).get("initiative", {}), **values})

    def _set_held(self, tx: Transaction, held: list[str]) -> None:
        if held:
            tx.set(self._path("held"), held)
        elif "held" in self._enc(tx):
            tx.delete(self._path("held"))

    def _turn_event(self, tx: Transaction, whose: str) -> None:
        tx.event("zug", t("journal.turn", round=self._enc(tx)["round"], figure=whose), [whose], self.name)

    def _leave_order(self, tx: Transaction, name: str) -> str | None:
        """Take ``name`` out of the running order. Its own turn ends first and the next one's
        begins (after the last of a round, the next round's); that one's name, else None."""
        passed = None
        for _ in range(2):   # a new round's initiative may put it first again
            enc = self._enc(tx)
            if name not in enc["order"] or enc["order"][enc["turn"]] != name:
                break
            passed = self._advance(tx)
        enc = self._enc(tx)
        if name in enc["order"]:
            i = enc["order"].index(name)
            tx.set(self._path("order"), [n for n in enc["order"] if n != name])
            if i < enc["turn"]:
                tx.set(self._path("turn"), enc["turn"] - 1)
        return passed

    def _place(self, tx: Transaction, order: Sequence[str], name: str, roller: Any) -> int:
        """Where the ruleset's order puts ``name`` among ``order``: before the first it acts before
        (``Initiative.order`` of the two, so ties follow the ruleset's rule); at the end when the order
        was given by hand, without values."""
        values = self._enc(tx).get("initiative", {})
        if name not in values or any(n not in values for n in order):
            return len(order)
        engine, mine = self._engine(tx), self._figure(tx, name)
        for k, other in enumerate(order):
            pair = {other: self._figure(tx, other), name: mine}
            if engine.initiative.order(pair, {other: values[other], name: values[name]}, roller)[0] == name:
                return k
        return len(order)

    def _insert(self, tx: Transaction, members: list[str], roller: Any) -> str:
        """Put ``members`` (a group, or one) into the running order where the ruleset puts the first;
        the name they now act after ("" for first)."""
        enc = self._enc(tx)
        base = [n for n in enc["order"] if n not in members]
        k = self._place(tx, base, members[0], roller)
        self._set_order(tx, base[:k] + members + base[k:])
        return base[k - 1] if k else ""

    def _roll_for(self, tx: Transaction, head: str, others: Sequence[str], initiative: int | None,
                  roller: Any) -> tuple[int, dict[str, Any], str | None]:
        """The initiative of ``head`` alone (given, or through the ruleset's ``Initiative.join``), with the
        values of everyone but ``others`` (its group) before it."""
        if initiative is not None:
            return given_initiative(initiative), {}, None
        enc = self._enc(tx)
        figures = {n: self._figure(tx, n) for n in enc["combatants"]}
        values = {n: v for n, v in enc.get("initiative", {}).items() if n not in others and n != head}
        return self._engine(tx).initiative.join(head, figures, values, roller, model.data(tx.state, self.name))

    def _group_of(self, tx: Transaction, name: str) -> list[str]:
        label = self._enc(tx)["combatants"][name].get("group")
        if label is None:
            return [name]
        return [n for n, r in self._enc(tx)["combatants"].items() if r.get("group") == label]

    # -- joining ----------------------------------------------------------------------
    def _join(self, tx: Transaction, names: list[str], initiative: int | None, together: bool, roller: Any) -> None:
        """Newcomers to a running fight: initiative rolled (or given) and each, or the group, placed
        where the ruleset's order puts it; journalled with the values and places."""
        batches = [names] if together else [[n] for n in names]
        for members in batches:
            before = len(roller.thrown)
            value, rolled, note = self._roll_for(tx, members[0], members, initiative, roller)
            self._set_values(tx, {m: value for m in members})
            text = t("journal.joined", names=", ".join(members), value=value)
            text += ", " + placed(self._insert(tx, members, roller), note)
            tx.event("initiative", text, members, self.name, rolls=rolled,
                     **dicecheck.journalled(roller.given, roller.thrown[before:]))

    # -- remove and restore ---------------------------------------------------------------
    @retrying
    def remove(self, name: str) -> None:
        """Take ``name`` out of the encounter (fled, defeated, gone); ``restore`` brings it back where it
        stood. Whose turn it was: its turn ends and the next one's begins."""
        with self.campaign.transaction() as tx:
            enc = self._enc(tx)
            self._combatant(tx, name)
            order, held = enc["order"], enc.get("held", [])
            if enc["round"] and order == [name]:
                raise CampaignError(t("campaign.last_in_order", name=name, encounter=self.name))
            joined = list(enc["combatants"])
            k = joined.index(name)
            spot: dict[str, Any] = {"record": enc["combatants"][name], "joined": k,
                                    "joined_next": joined[k + 1] if k + 1 < len(joined) else None}
            if enc["round"] and name in order:
                i = order.index(name)
                spot.update(at=i, next=order[i + 1] if i + 1 < len(order) else None)
            if name in held:
                spot["held"] = True
                self._set_held(tx, [n for n in held if n != name])
            if name in enc.get("initiative", {}):
                spot["initiative"] = enc["initiative"][name]
                tx.delete(self._path("initiative", name))
            if "removed" in enc:
                tx.set(self._path("removed", name), spot)
            else:   # the key comes and goes with its first entry: an undo leaves the record as it was
                tx.set(self._path("removed"), {name: spot})
            tx.delete(self._path("combatants", name))
            passed = self._leave_order(tx, name) if enc["round"] and name in order else None
            tx.event("kampfteilnehmer", t("journal.removed", name=name, encounter=self.name), [name], self.name)
            if passed:
                self._turn_event(tx, passed)

    @retrying
    def restore(self, name: str, *, seed: int | None = None, dice: Sequence[int] | None = None) -> None:
        """Bring a removed combatant back where it stood (before the one that followed it, in its
        place among those who joined). Removed before the fight began, it joins it now (``seed``,
        ``dice``: its initiative roll, as for ``start``)."""
        from ..dice.roll import Roller
        with self.campaign.transaction() as tx:
            enc = self._enc(tx)
            spot = enc.get("removed", {}).get(name)
            if spot is None:
                raise CampaignError(t("campaign.not_removed", name=name,
                                      known=", ".join(enc.get("removed", {})) or "–"))
            if name in enc["combatants"]:
                raise CampaignError(t("campaign.duplicate", name=name))
            names = list(enc["combatants"])
            k = names.index(spot["joined_next"]) if spot["joined_next"] in names else min(spot["joined"], len(names))
            if k < len(names):   # among those who joined after it: the encounter's record in its order
                items = list(enc["combatants"].items())
                tx.set(self._path("combatants"), dict(items[:k] + [(name, spot["record"])] + items[k:]))
            else:
                tx.set(self._path("combatants", name), spot["record"])
            tx.delete(self._path("removed") if len(enc["removed"]) == 1 else self._path("removed", name))
            roller = Roller(seed, dice)
            if enc["round"]:
                if "initiative" in spot:
                    self._set_values(tx, {name: spot["initiative"]})
                if spot.get("held"):
                    self._set_held(tx, [*self._enc(tx).get("held", []), name])
                elif "at" in spot:
                    self._put_back(tx, name, spot)
            tx.event("kampfteilnehmer", t("journal.restored", name=name, encounter=self.name), [name], self.name)
            if enc["round"] and not spot.get("held") and "at" not in spot:
                self._join(tx, [name], None, False, roller)
            roller.finish()

    def _put_back(self, tx: Transaction, name: str, spot: Mapping[str, Any]) -> None:
        enc = self._enc(tx)
        order, turn = enc["order"], enc["turn"]
        k = order.index(spot["next"]) if spot["next"] in order else min(spot["at"], len(order))
        tx.set(self._path("order"), order[:k] + [name] + order[k:])
        if k <= turn:
            tx.set(self._path("turn"), turn + 1)

    # -- delay and act now ------------------------------------------------------------------
    @retrying
    def delay(self, name: str) -> None:
        """``name`` acts later this round: after the one the ruleset says it waits for (OSR: the other
        side's last), or it holds out of the order until the GM has it act (``act_now``); the last of a
        round who delays does not act in it. Whose turn it was: the next one's begins."""
        with self.campaign.transaction() as tx:
            i = self._in_order(tx, name)
            enc = self._enc(tx)
            order, turn, rnd = enc["order"], enc["turn"], enc["round"]
            if i < turn:
                raise CampaignError(t("campaign.has_acted", name=name, round=rnd))
            still = [n for n in order[turn:] if n != name]
            after = self._engine(tx).initiative.delay_after(self._figure(tx, name), [self._figure(tx, n) for n in still])
            passed = None
            if after is not None:
                if order.index(after) < i:
                    raise CampaignError(t("campaign.already_after", name=name, after=after))
                if i == turn:
                    passed = self._advance(tx)
                base = [n for n in self._enc(tx)["order"] if n != name]
                self._set_order(tx, base[:base.index(after) + 1] + [name] + base[base.index(after) + 1:])
                text = t("journal.delay_after", name=name, after=after)
            elif i == turn and turn == len(order) - 1:
                passed = self._advance(tx)
                text = t("journal.delay_round", name=name, round=rnd)
            else:
                passed = self._leave_order(tx, name)
                self._set_held(tx, [*self._enc(tx).get("held", []), name])
                text = t("journal.delay", name=name)
            tx.event("initiative", text, [name], self.name)
            if passed:
                self._turn_event(tx, passed)

    @retrying
    def act_now(self, name: str) -> None:
        """``name`` acts now, out of turn, where the ruleset allows it: the current turn ends and its
        turn begins; it keeps that place in the order. A figure that waits (``delay``) comes back so."""
        with self.campaign.transaction() as tx:
            enc = self._running(tx)
            self._combatant(tx, name)
            order, turn, held = enc["order"], enc["turn"], enc.get("held", [])
            if name == order[turn]:
                raise CampaignError(t("campaign.already_acting", name=name))
            if name in held:
                overtaken = order[turn + 1:]
            else:
                i = order.index(name)
                if i < turn:
                    raise CampaignError(t("campaign.has_acted", name=name, round=enc["round"]))
                overtaken = order[turn + 1:i]
            self._refuse(tx, "jetzt", name, overtaken)
            base = [n for n in order if n != name]
            tx.set(self._path("order"), base[:turn + 1] + [name] + base[turn + 1:])
            self._set_held(tx, [n for n in held if n != name])
            tx.event("initiative", t("journal.now", name=name), [name], self.name)
            self._turn_event(tx, self._advance(tx))

    # -- moving -------------------------------------------------------------------------------
    @retrying
    def move(self, name: str, *, before: str | None = None, after: str | None = None) -> list[str]:
        """Put ``name`` right before or right after another combatant (a tie broken by hand, a changed
        plan), where the ruleset allows it; whose turn it is keeps the turn. The new order."""
        if (before is None) == (after is None):
            raise CampaignError(t("campaign.move_where"))
        target = before if before is not None else after
        assert target is not None
        with self.campaign.transaction() as tx:
            old = list(self._enc(tx)["order"])
            i = self._in_order(tx, name)
            self._in_order(tx, target)
            if name == target:
                raise CampaignError(t("campaign.move_self", name=name))
            base = [n for n in old if n != name]
            k = base.index(target) + (1 if after is not None else 0)
            new = base[:k] + [name] + base[k:]
            if new == old:
                return old
            overtaken = [n for n in old[:i] if new.index(n) > k]
            if overtaken:
                self._refuse(tx, "vor", name, overtaken)
            self._set_order(tx, new)
            values = self._enc(tx).get("initiative", {})
            tie = name in values and values.get(target) == values[name]
            key = ("journal.tie_" if tie else "journal.moved_") + ("before" if before is not None else "after")
            tx.event("initiative", t(key, name=name, target=target, value=values.get(name)), [name, target],
                     self.name)
        return new

    # -- rolling one anew, group initiative -------------------------------------------------------
    @retrying
    def reroll(self, name: str, initiative: int | None = None, *, seed: int | None = None,
               dice: Sequence[int] | None = None) -> int:
        """Roll ``name``'s initiative anew alone (or take the given ``initiative``) and place it (its
        group with it) where the ruleset's order puts that value; ``seed``/``dice`` as for ``start``."""
        from ..dice.roll import Roller
        with self.campaign.transaction() as tx:
            self._in_order(tx, name)
            self._refuse(tx, "neu", name, ())
            members = self._group_of(tx, name)
            roller = Roller(seed, dice)
            old = self._enc(tx).get("initiative", {}).get(name)
            value, rolled, note = self._roll_for(tx, members[0], members, initiative, roller)
            self._set_values(tx, {m: value for m in members})
            text = t("journal.reroll", names=", ".join(members), old="–" if old is None else old, new=value)
            text += ", " + placed(self._insert(tx, members, roller), note)
            roller.finish()
            tx.event("initiative", text, members, self.name, rolls=rolled,
                     **dicecheck.journalled(roller.given, roller.thrown))
        return value

    @retrying
    def group(self, names: Sequence[str], initiative: int | None = None, *, seed: int | None = None,
              dice: Sequence[int] | None = None) -> list[str]:
        """One initiative roll for a group of like opponents (``"Söldner"`` stands for Söldner 1, 2, …),
        where the ruleset has group initiative: from the next roll on, or now in a running fight (rolled,
        or the given ``initiative``), the group acts together where the ruleset puts its first. Its
        members."""
        from ..dice.roll import Roller
        with self.campaign.transaction() as tx:
            members, label = self._members(tx, names)
            self._refuse(tx, "gruppe", members[0], members[1:])
            for m in members:
                tx.set(self._path("combatants", m, "group"), label)
            text = t("journal.group", label=label, names=", ".join(members))
            enc, rolled = self._enc(tx), dict[str, Any]()
            roller = Roller(seed, dice)
            if enc["round"]:
                self._set_held(tx, [n for n in enc.get("held", []) if n not in members])
                value, rolled, note = self._roll_for(tx, members[0], members, initiative, roller)
                self._set_values(tx, {m: value for m in members})
                text += ": " + t("journal.group_value", value=value)
                text += ", " + placed(self._insert(tx, members, roller), note)
            elif initiative is not None:
                raise CampaignError(t("campaign.not_started", name=self.name))
            roller.finish()
            tx.event("initiative", text, members, self.name, rolls=rolled,
                     **dicecheck.journalled(roller.given, roller.thrown))
        return members

    @retrying
    def ungroup(self, names: Sequence[str]) -> list[str]:
        """The members of these groups roll for themselves again from the next initiative roll on."""
        with self.campaign.transaction() as tx:
            members, _ = self._members(tx, names, grouped=True)
            for m in members:
                tx.delete(self._path("combatants", m, "group"))
            tx.event("initiative", t("journal.ungroup", names=", ".join(members)), members, self.name)
        return members

    def _members(self, tx: Transaction, names: Sequence[str], grouped: bool = False) -> tuple[list[str], str]:
        """The combatants ``names`` stand for (a name of numbered ones: all of them), and the group's
        label (that name, else the first member's)."""
        combatants = self._enc(tx)["combatants"]
        if isinstance(names, str):
            names = [names]
        found: list[str] = []
        for given in names:
            numbered = [n for n in combatants if n.startswith(given + " ") and n[len(given) + 1:].isdigit()]
            if given in combatants:
                found += self._group_of(tx, given) if grouped else [given]
            elif numbered:
                found += numbered
            else:
                self._combatant(tx, given)
        members = list(dict.fromkeys(found))
        if grouped:
            members = [m for m in members if combatants[m].get("group") is not None]
            if not members:
                raise CampaignError(t("campaign.no_group", names=", ".join(names)))
        elif len(members) < 2:
            raise CampaignError(t("campaign.group_small", names=", ".join(names)))
        label = names[0] if len(names) == 1 and names[0] not in combatants else members[0]
        return members, label

    # -- hide and reveal ----------------------------------------------------------------------------
    @retrying
    def hide(self, name: str) -> None:
        """Hide ``name`` from the players (an ambush, reinforcements): it acts for the GM as before,
        and nothing a player is shown names it (``%rpg teilen``)."""
        self._visibility(name, True)

    @retrying
    def reveal(self, name: str) -> None:
        """Show a hidden combatant to the players again."""
        self._visibility(name, False)

    def _visibility(self, name: str, hide: bool) -> None:
        with self.campaign.transaction() as tx:
            self._combatant(tx, name)
            if bool(self._enc(tx)["combatants"][name].get("hidden")) == hide:
                raise CampaignError(t("campaign.already_hidden" if hide else "campaign.not_hidden", name=name))
            if hide:
                tx.set(self._path("combatants", name, "hidden"), True)
            else:
                tx.delete(self._path("combatants", name, "hidden"))
            tx.event("kampfteilnehmer", t("journal.hidden" if hide else "journal.revealed", name=name), [name],
                     self.name)
