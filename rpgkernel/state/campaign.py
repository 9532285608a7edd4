"""``Campaign``: the GM binder's memory, folded from an append-only journal.

Every change goes through a ``Transaction``, appended to the store as one atomic write; reading
first catches up with other notebooks' events. A damaged campaign raises ``CampaignDamaged``;
with ``read_only=True`` it shows its intact part. ``export`` copies it into a new campaign or
JSON Lines (``rescue.py``).
"""

from __future__ import annotations

import copy
import json
import os
import weakref
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence, cast

from .rulebook import rulebook
from ..errors import StoreError
from ..messages import t
from . import changes as ch
from . import address, dicecheck, model, players, registry, resources, suggestions
from .damage import EVENTS, SNAPSHOTS, CampaignDamaged, Damage
from .events import Event
from .journal import Journal, kind_label
from .opening import open_store
from .store import Store
from .tracker import removed_figure
from .transaction import CampaignError, Transaction, check_name, condition_record, retrying
from .views import Encounter, Figure

SNAPSHOT_EVERY = 1000   # events between snapshots
MAX_DATA = 4_000_000    # bytes of JSON per data entry (a 400x400 hex map fits)

class Campaign:
    """Characters, encounters, settings and the journal of one campaign.

    Open one with ``Campaign.open("kampagne.sqlite")`` (or a
    ``postgresql://`` URL). All state is derived from the journal.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self._tx: Transaction | None = None
        self._watchers: list[Callable[[], Any]] = []
        self._since_snapshot = 0
        self._halt: Damage | None = None  # read-only: the fold stopped before this
        self._address: str | None = None   # as opened (the server's registry needs it in full)
        found = [d for d in store.check() if d.fatal]
        if found and not store.read_only:
            raise CampaignDamaged(store.where, found)
        self._state, stale = self._from_snapshot()
        self.refresh()
        if stale and not store.read_only and self._state["seq"]:
            store.save_snapshot(self._state["seq"], self._state)  # replaces the unreadable one

    @classmethod
    def open(cls, path_or_url: str | os.PathLike[str], campaign: str | None = None, *,
             read_only: bool = False) -> Campaign:
        """Open or create the campaign stored at ``path_or_url``.

        ``read_only=True`` creates, migrates and writes nothing and opens a
        damaged campaign too: ``damage`` lists what is damaged, ``state`` is
        its intact part, ``export`` rescues it.
        """
        store = open_store(path_or_url, campaign, read_only=read_only)
        try:
            opened = cls(store)
            opened._address = os.fspath(path_or_url)
            return opened
        except BaseException:
            store.close()
            raise

    def close(self) -> None:
        """Close the store; its watchers are called once more and find ``store.closed``."""
        if not self.store.closed:
            self.store.close()
            self._notify()

    def __enter__(self) -> Campaign:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def read_only(self) -> bool:
        return self.store.read_only

    @property
    def damage(self) -> tuple[Damage, ...]:
        """What has been found damaged (empty for a sound campaign); see ``docs/kampagne.md``."""
        return self.store.damage

    def export(self, target: str | os.PathLike[str]) -> Any:
        """Copy this campaign to ``target``: a new campaign (a SQLite path or a PostgreSQL URL),
        or every stored row as JSON Lines (a path ending in ``.jsonl``). See ``rescue.export``."""
        from .rescue import export
        return export(self, target)

    def _from_snapshot(self, before: int | None = None) -> tuple[dict[str, Any], bool]:
        """The state of the newest usable snapshot (below seq ``before``), or the initial one;
        and whether a newer snapshot was unusable. Snapshots of another format are skipped."""
        stale = False
        last = None
        for item in self.store.snapshots():
            if isinstance(item, Damage):
                stale = True
                continue
            seq, state = item
            if (before is not None and seq >= before) or state.get("format") != model.FORMAT:
                continue
            problem = model.snapshot_problem(state, seq)
            if problem is not None:
                self.store.note(Damage(SNAPSHOTS, seq, problem))
                stale = True
                continue
            last = self.store.last_seq() if last is None else last
            if seq > last:  # the journal ends before the snapshot (a file without head row): events lost
                lost = Damage(EVENTS, last + 1, t("store.damage_end", head=seq), last=seq)
                self.store.note(lost)
                if not self.store.read_only:
                    raise CampaignDamaged(self.store.where, [lost])
            return state, stale
        return model.initial(), stale

    # -- reading -------------------------------------------------------
    def refresh(self) -> None:
        """Fold in whatever has been appended since (also by other notebooks).

        Damage raises ``CampaignDamaged``; a read-only campaign stops folding there.
        """
        if self._halt is not None:
            return
        new: list[Event] = []
        halt = None
        for item in self.store.scan(after=self._state["seq"]):
            if isinstance(item, Damage):
                halt = item
                break
            new.append(item)
        if new:
            try:
                model.fold(self._state, new)
            except model.FoldError as err:
                halt = Damage(EVENTS, err.seq, err.reason)
                self.store.note(halt)
                self._state = self._rebuilt(err.seq)
            self._since_snapshot += len(new)
            if self._since_snapshot >= SNAPSHOT_EVERY and halt is None and not self.store.read_only:
                self.store.save_snapshot(self._state["seq"], self._state)
                self._since_snapshot = 0
        if halt is not None:
            if not self.store.read_only:
                raise CampaignDamaged(self.store.where, [halt])
            self._halt = halt
        if new:
            self._notify()

    def _rebuilt(self, seq: int) -> dict[str, Any]:
        """The state after the events before ``seq`` (when ``seq`` failed half way through its fold)."""
        state, _ = self._from_snapshot(before=seq)
        events = []
        for item in self.store.scan(after=state["seq"]):
            if isinstance(item, Damage) or cast(int, item.seq) >= seq:
                break
            events.append(item)
        return model.fold(state, events)

    def watch(self, callback: Callable[[Campaign], None]) -> Callable[[], None]:
        """Call ``callback(campaign)`` whenever new events have been folded in.

        That is after each write through this object and when reading finds
        events other notebooks wrote, and once when it is closed (then
        ``campaign.store.closed``). A bound method is held weakly (a widget
        that is gone stops being called). Returns a function that stops it.
        """
        ref = weakref.WeakMethod(callback) if hasattr(callback, "__self__") else (lambda: callback)
        self._watchers.append(ref)
        return lambda: self._watchers.remove(ref) if ref in self._watchers else None

    def _notify(self) -> None:
        for ref in list(self._watchers):
            callback = ref()
            if callback is None:
                self._watchers.remove(ref)
            else:
                callback(self)

    @property
    def state(self) -> dict[str, Any]:
        """A copy of the current state document."""
        self.refresh()
        return copy.deepcopy(self._state)

    @property
    def folded(self) -> Mapping[str, Any]:
        """The state document as of the last ``refresh`` (which tells the watchers), without a copy:
        for readers that redraw on every change (the panel, the hex map). Read only: everything
        changes through the campaign's methods."""
        return self._state

    @property
    def ruleset(self) -> str | None:
        self.refresh()
        return cast("str | None", self._state["settings"]["ruleset"])

    @property
    def language(self) -> str | None:
        """The language the GM plays in (``%rpg --sprache``), which the player pages follow; None: not set."""
        self.refresh()
        return cast("str | None", self._state["settings"].get("language"))

    @property
    def characters(self) -> dict[str, Figure]:
        self.refresh()
        return {name: Figure(self, ["characters", name]) for name in self._state["characters"]}

    @property
    def encounters(self) -> dict[str, Encounter]:
        self.refresh()
        return {name: Encounter(self, name) for name in self._state["encounters"]}

    @property
    def encounter(self) -> Encounter | None:
        """The active encounter."""
        self.refresh()
        name = self._state["active_encounter"]
        return None if name is None else Encounter(self, name)

    def figure(self, name: str, encounter: str | None = None) -> Figure:
        """A character, or a combatant of the (active) encounter, by name."""
        self.refresh()
        path = model.figure_path(self._state, name, encounter)
        if path is None:
            raise CampaignError(self._unknown(name, encounter))
        return Figure(self, path)

    def _unknown(self, name: str, encounter: str | None, state: dict[str, Any] | None = None) -> str:
        """Why ``name`` is no figure here, in German: removed from the encounter (and how it comes back),
        else unknown, with the closest name."""
        import difflib
        state = self._state if state is None else state
        enc = state["encounters"].get(encounter or state["active_encounter"] or "")
        if enc and name in enc.get("removed", {}):
            return removed_figure(name, enc["name"], enc["name"] == state["active_encounter"])
        known = list(state["characters"]) + (list(enc["combatants"]) if enc else [])
        close = difflib.get_close_matches(name, known, n=1)
        hint = " " + t("suggest.die", suggestion=close[0]) if close else ""
        return t("campaign.unknown_figure", name=name) + hint

    def journal(self, kind: str | None = None, figure: str | None = None,
                encounter: str | None = None, last: int | None = None) -> Journal:
        """Journal entries, optionally of one kind, figure or encounter; the ``last`` n."""
        return Journal.read(self.store, kind=kind, figure=figure, encounter=encounter, last=last)

    def dice_check(self, figure: str | None = None, encounter: str | None = None,
                   sides: int | None = None) -> dicecheck.DiceCheck:
        """The test of the echte Würfel in the journal against fair dice, per figure and die size
        (``state.dicecheck``); only those ``figure`` threw (``"Spielleitung"``: the GM's), in
        ``encounter``, of ``sides`` faces, where given. An unknown figure or encounter is an error."""
        self.refresh()
        sides = dicecheck.check_sides(sides)
        if figure is not None:
            names = [*self._state["characters"], *(n for e in self._state["encounters"].values()
                                                   for n in e["combatants"])]
            names += dicecheck.throwers(self.store.events(kinds=dicecheck.KINDS)) + [dicecheck.gm()]
            dicecheck.known(figure, list(dict.fromkeys(names)), "campaign.unknown_figure")
        dicecheck.known(encounter, list(self._state["encounters"]), "campaign.unknown_encounter")
        return dicecheck.check(self.store.events(kinds=dicecheck.KINDS), figure, encounter, sides)

    # -- writing -------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator[Transaction]:
        """Collect changes; on success they are appended atomically and folded in.

        Nested use joins the outer transaction: everything lands in one
        append (and one undo step), or nothing does.
        """
        if self._tx is not None:
            yield self._tx
            return
        if self.store.read_only:
            raise StoreError(t("store.read_only", where=self.store.where))
        self.refresh()
        seen = self._state["seq"]
        tx = self._tx = Transaction(self._state)
        try:
            yield tx
        finally:
            self._tx = None
        if tx._pending:
            raise RuntimeError("changes without an event")
        if tx.events:
            try:
                self.store.append(tx.events, after=seen)
            finally:
                self.refresh()

    @retrying
    def set_ruleset(self, key: str | None) -> None:
        rulebook(key)
        with self.transaction() as tx:
            tx.set(["settings", "ruleset"], key)
            tx.event("einstellung", t("journal.ruleset", key=key or "–"))

    @retrying
    def set_language(self, lang: str) -> None:
        with self.transaction() as tx:
            tx.set(["settings", "language"], lang)
            tx.event("einstellung", t("journal.language", lang=lang))

    def log_roll(self, roll: Any, figure: str | None = None) -> None:
        """Write a roll into the journal (it changes nothing, so there is nothing to undo)."""
        self.log_rolls([roll], figure)

    @retrying
    def log_rolls(self, rolls: Iterable[Any], figure: str | None = None) -> None:
        """Write several rolls in one transaction; echte Würfel as thrown by ``figure`` (None: the
        Spielleitung), for the dice check."""
        with self.transaction() as tx:
            for roll in rolls:
                tx.event("wurf", str(roll), [figure] if figure else [],
                         tx.state["active_encounter"], roll=roll.to_dict(),
                         **dicecheck.journalled(roll.given, roll.thrown, figure))

    @retrying
    def add_character(self, name: str, sheet: Mapping[str, Any] | None = None,
                      ruleset: str | None = None, resources: Mapping[str, int] | None = None,
                      conditions: Mapping[str, Any] | None = None) -> Figure:
        """Create a character; the sheet is validated by the ruleset."""
        name = check_name(name, "figure")
        with self.transaction() as tx:
            if name in tx.state["characters"]:
                raise CampaignError(t("campaign.duplicate", name=name))
            record = self._new_figure(name, sheet, ruleset or tx.state["settings"]["ruleset"],
                                      resources, conditions, model.data(tx.state))
            tx.set(["characters", name], record)
            tx.event("figur", t("journal.character", name=name), [name])
        return Figure(self, ["characters", name])

    def _new_figure(self, name: str, sheet: Mapping[str, Any] | None, ruleset: str | None,
                    resources: Mapping[str, int] | None, conditions: Mapping[str, Any] | None,
                    data: Mapping[str, Any]) -> dict[str, Any]:
        """A new figure's record, its sheet checked as the GM's ``data`` its encounter sees shapes it."""
        engine = rulebook(ruleset)
        checked = engine.sheet.for_data(data).validate(sheet or {})
        res = engine.sheet.resources(checked, data)
        for key, value in (resources or {}).items():
            key = check_name(key, "resource")
            if isinstance(value, bool) or not isinstance(value, int) or abs(value) > 10**9:
                raise CampaignError(t("campaign.bad_resource", name=key, value=repr(value)[:40]))
            res[key] = {"value": value, "max": max(value, res.get(key, {}).get("max", value))}
        record: dict[str, Any] = {"name": name, "ruleset": ruleset, "sheet": checked, "resources": res,
                                  "conditions": {}}
        for cname, spec in (conditions or {}).items():
            record["conditions"][check_name(cname, "condition")] = condition_record(spec or {}, name)
        return record

    @retrying
    def new_encounter(self, name: str, activate: bool = True) -> Encounter:
        name = check_name(name, "encounter")
        with self.transaction() as tx:
            if name in tx.state["encounters"]:
                raise CampaignError(t("campaign.duplicate", name=name))
            tx.set(["encounters", name], {"name": name, "ruleset": tx.state["settings"]["ruleset"],
                                          "round": 0, "turn": 0, "segment": None, "order": [],
                                          "combatants": {}})
            if activate:
                tx.set(["active_encounter"], name)
            tx.event("begegnung", t("journal.encounter", name=name), encounter=name)
        return Encounter(self, name)

    def _figure_in(self, state: dict[str, Any], who: str) -> tuple[list[str], dict[str, Any]]:
        """Where ``who`` lives in ``state`` (a transaction's working state) and its record."""
        path = model.figure_path(state, who)
        if path is None:
            raise CampaignError(self._unknown(who, None, state))
        return path, model.figure(state, path)

    @retrying
    def change(self, who: str | Sequence[str], resource: str, by: int | None = None, reason: str | None = None, *,
               to: int | None = None, encounter: str | None = None) -> Figure | list[Figure]:
        """Change a resource of a figure by ``by`` (negative: damage, loss) or to the value ``to``, within
        the limits of the figure's ruleset (``Sheet.limits``); the journal says where they held the
        change back. ``who`` a list of names: each of them, in one step that one undo takes back (a list
        of their figures is returned). ``encounter``: whose combatants the names are (default: the active one)."""
        names = [who] if isinstance(who, str) else list(dict.fromkeys(who)) if isinstance(who, (list, tuple)) else []
        if not names or not all(isinstance(n, str) for n in names):
            raise CampaignError(t("campaign.change_whom", value=repr(who)[:40]))
        if (by is None) == (to is None):
            raise CampaignError(t("campaign.change_how", name=resource))
        for value in (by, to):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or abs(value) > resources.MAX_CHANGE):
                raise CampaignError(t("campaign.bad_resource", name=resource, value=repr(value)[:40]))
        figures = []
        with self.transaction() as tx:
            for name in names:
                path = model.figure_path(tx.state, name, encounter)
                if path is None:
                    raise CampaignError(self._unknown(name, encounter, tx.state))
                fig = model.figure(tx.state, path)
                if resource not in fig.get("resources", {}):
                    raise CampaignError(t("campaign.unknown_resource", name=resource, figure=name,
                                          known=", ".join(fig.get("resources", {})) or "–"))
                amount = cast(int, by) if to is None else to - fig["resources"][resource]["value"]
                landed = resources.change(tx, path, resource, amount)
                tx.event("ressource", resources.text(name, landed) + (f" ({reason})" if reason else ""),
                         [name], encounter or tx.state["active_encounter"])
                figures.append(Figure(self, path))
        return figures[0] if isinstance(who, str) else figures

    @retrying
    def add_condition(self, who: str, condition: str, rounds: int | None = None,
                      ends: str = "rundenende", of: str | None = None) -> Figure:
        """Give a figure a condition; with ``rounds`` it ends after that many ``ends`` moments.

        ``ends`` is one of rundenbeginn, rundenende, zugbeginn, zugende; for the
        turn moments, ``of`` names whose turn counts (default: the figure's own).
        """
        condition = check_name(condition, "condition")
        spec = condition_record({"runden": rounds, "endet": ends, "von": of}, who)
        with self.transaction() as tx:
            path, _ = self._figure_in(tx.state, who)
            tx.set(path + ["conditions", condition], spec)
            tx.event("zustand", t("journal.condition_on", figure=who, condition=condition),
                     [who], tx.state["active_encounter"])
        return Figure(self, path)

    @retrying
    def remove_condition(self, who: str, condition: str) -> Figure:
        with self.transaction() as tx:
            path, fig = self._figure_in(tx.state, who)
            if condition not in fig.get("conditions", {}):
                raise CampaignError(t("campaign.unknown_condition", name=condition, figure=who))
            tx.delete(path + ["conditions", condition])
            tx.event("zustand", t("journal.condition_off", figure=who, condition=condition),
                     [who], tx.state["active_encounter"])
        return Figure(self, path)

    @retrying
    def set_sheet(self, who: str, sheet: Mapping[str, Any], encounter: str | None = None) -> Figure:
        """Replace the sheet of a figure, validated by the figure's ruleset.

        ``who`` is a character or a combatant of the (active) encounter (one standing for a character
        edits the character). Where a derived maximum changes, the resource's current value moves by the
        same difference, within the ruleset's limits; a missing derived resource is added. An unchanged
        sheet writes nothing.
        """
        who = check_name(who, "figure")
        with self.transaction() as tx:
            path = model.figure_path(tx.state, who, encounter)
            if path is None:
                raise CampaignError(self._unknown(who, encounter, tx.state))
            write_sheet(tx, path, sheet, who, encounter)
        return Figure(self, path)

    # -- the GM's data ----------------------------------------------------
    def data(self, name: str, encounter: str | None = None, default: Any = None) -> Any:
        """The GM's data ``name`` (a table, a map, settings) as an encounter sees it.

        Data set for the encounter (default: the active one) comes first, then
        the campaign's; ``default`` when neither has it. A copy: change it
        through ``set_data``.
        """
        self.refresh()
        return copy.deepcopy(model.data(self._state, encounter).get(name, default))

    @retrying
    def set_data(self, name: str, value: Any, encounter: str | None = None) -> None:
        """Keep the GM's data ``name`` in the campaign (``encounter``: for that encounter only).

        ``value`` is JSON (numbers, text, lists, dicts with text keys); None
        removes it. Journalled and undoable like every other change.
        """
        name = check_name(name, "data")
        if value is not None:
            try:
                text = json.dumps(value, allow_nan=False)
            except (TypeError, ValueError):
                text = None
            if text is None or json.loads(text) != value:  # e.g. number keys, tuples
                raise CampaignError(t("campaign.bad_data", name=name, value=type(value).__name__))
            size = len(text)
            if size > MAX_DATA:
                raise CampaignError(t("campaign.data_too_big", name=name, size=size, max=MAX_DATA))
        with self.transaction() as tx:
            path = ["data", name]
            if encounter is not None:
                if encounter not in tx.state["encounters"]:
                    raise CampaignError(t("campaign.unknown_encounter", name=encounter))
                path = ["encounters", encounter, "data", name]
            found, old = ch.lookup(tx.state, path)
            if value is None:
                if not found:
                    return
                tx.delete(path)
                tx.event("daten", t("journal.data_removed", name=name), encounter=encounter)
            elif not found or old != value:
                tx.set(path, value)
                tx.event("daten", t("journal.data", name=name), encounter=encounter)

    # -- player links (players.py) -------------------------------------
    def player_links(self) -> list[dict[str, Any]]:
        """Every player link: ``{id, figure, created, revoked, limit}`` (revoked: when, or None; limit:
        ``{hits, last}``, the actions the server refused beyond the link's limit since it was last
        lifted, or None)."""
        self.refresh()
        return players.listing(self._state)

    @retrying
    def new_player_link(self, figure: str) -> players.PlayerLink:
        """A new link to the live page of ``figure``; its token is only in the returned object."""
        with self.transaction() as tx:
            link = players.create(tx, figure)
        self._register(link.key)
        return link

    @retrying
    def revoke_player_link(self, link_id: str) -> None:
        """Revoke a link: its open pages stop at once, the link stays listed as revoked."""
        with self.transaction() as tx:
            players.revoke(tx, link_id)

    @retrying
    def renew_player_link(self, link_id: str) -> players.PlayerLink:
        """Revoke a link (if it is not revoked yet) and make a new one for the same figure."""
        with self.transaction() as tx:
            link = players.create(tx, players.revoke(tx, link_id, renewing=True))
        self._register(link.key)
        return link

    @retrying
    def lift_player_limit(self, link_id: str) -> str:
        """Lift a link's limit: its page may act again at once, as much as a fresh link; its figure."""
        with self.transaction() as tx:
            return players.lift(tx, link_id)

    @retrying
    def note_player_limit(self, link_id: str, hits: int) -> None:
        """Journal that the server refused ``hits`` actions of a link beyond its limit (the server calls it)."""
        with self.transaction() as tx:
            players.limited(tx, link_id, hits)

    # -- players' suggestions (suggestions.py) ----------------------------
    def player_suggestions(self, open_only: bool = True) -> list[dict[str, Any]]:
        """The players' suggestions: ``{id, figure, text, created, answer}`` (answer: None while
        open, else ``angenommen`` or ``abgelehnt``), oldest first; all of them with ``open_only=False``."""
        self.refresh()
        return [s for s in suggestions.listing(self._state) if not open_only or s["answer"] is None]

    @retrying
    def suggest(self, figure: str, text: str) -> str:
        """A suggestion from the player of ``figure`` to the GM (the player pages send them); its id."""
        with self.transaction() as tx:
            return suggestions.create(tx, figure, text)

    @retrying
    def accept_suggestion(self, suggestion_id: str) -> dict[str, Any]:
        """Accept an open suggestion (journalled; what it says is then the GM's to do)."""
        with self.transaction() as tx:
            return suggestions.answer(tx, suggestion_id, True)

    @retrying
    def decline_suggestion(self, suggestion_id: str) -> dict[str, Any]:
        """Decline an open suggestion (journalled)."""
        with self.transaction() as tx:
            return suggestions.answer(tx, suggestion_id, False)

    def _register(self, key: str) -> None:
        target = self._address or os.fspath(getattr(self.store, "path", ""))
        if not target:
            raise CampaignError(t("players.no_address"))
        if not address.is_url(target):
            target = os.path.abspath(target)
        registry.register(key, target, self.store.campaign)

    # -- undo and redo ---------------------------------------------------
    def undo(self) -> list[str]:
        """Undo the last change (a resolution, a turn, …) by appending its inverse.

        Returns the journal texts of what was undone.
        """
        return cast("list[str]", self._replay("done", model.UNDO, ch.invert))

    def redo(self) -> list[str]:
        """Redo the last undone change by appending it again; returns its journal texts."""
        return cast("list[str]", self._replay("undone", model.REDO, list))

    @retrying
    def _replay(self, stack: str, kind: str, transform: Any) -> list[str]:
        self.refresh()
        entries = self._state["history"][stack]
        if not entries:
            raise CampaignError(t("campaign.nothing_to_undo" if kind == model.UNDO
                                  else "campaign.nothing_to_redo"))
        entry = entries[-1]
        first, last = entry["first"], entry["last"]
        events = [e for e in self.store.events(after=first - 1, limit=last - first + 1) if e.tx == entry["tx"]]
        with self.transaction() as tx:
            tx.extend(transform([c for e in events for c in e.data.get("changes", ())]))
            tx.event(kind, *_replayed(kind, entry["kind"], events), of=entry["tx"])
        return [str(e.data.get("text", "")) for e in events]

    def __repr__(self) -> str:
        self.refresh()
        text = t("campaign.repr", where=self.store.where, characters=len(self._state["characters"]),
                 encounters=len(self._state["encounters"]), events=self._state["seq"])
        if self.read_only:
            text += " " + t("campaign.repr_read_only")
        if any(d.fatal for d in self.damage):
            text += " " + t("campaign.repr_damage")
        return text


def _replayed(kind: str, undone: str, events: list[Any]) -> tuple[str, list[str], str | None]:
    """The journal line of an undo or redo of ``events`` (of the kind ``undone``): what it names (the
    first entry's text, and how many there were), its figures, and its encounter where they share one."""
    texts = [str(e.data["text"]) for e in events if e.data.get("text")] or [kind_label(undone)]
    key = "journal.undo" if kind == model.UNDO else "journal.redo"
    text = t(key, what=texts[0]) if len(events) < 2 else t(key + "_many", what=texts[0], n=len(events))
    figures = list(dict.fromkeys(f for e in events for f in e.data.get("figures") or ()))
    encounters = {e.data.get("encounter") for e in events} - {None}
    return text, figures, encounters.pop() if len(encounters) == 1 else None


def write_sheet(tx: Transaction, path: list[str], sheet: Mapping[str, Any], who: str,
                encounter: str | None = None) -> None:
    """Replace the sheet of the figure at ``path`` in ``tx`` (see ``Campaign.set_sheet``):
    validated by its ruleset as the GM's data of ``encounter`` (default: the active one) shapes it,
    derived resources following, journalled as ``bogen``."""
    fig = model.figure(tx.state, path)
    engine, data = rulebook(fig.get("ruleset")), model.data(tx.state, encounter)
    form = engine.sheet.for_data(data)
    new, old = form.validate(sheet), fig.get("sheet", {})
    gone = object()
    changed = [k for k in dict.fromkeys([*old, *new]) if old.get(k, gone) != new.get(k, gone)]
    if not changed:
        return
    tx.set(path + ["sheet"], new)
    before = engine.sheet.resources(old, data)
    for key, derived in engine.sheet.resources(new, data).items():
        current = fig.get("resources", {}).get(key)
        if current is None:
            tx.set(path + ["resources", key], dict(derived))
        elif derived["max"] != before.get(key, {}).get("max") and derived["max"] != current["max"]:
            tx.set(path + ["resources", key, "max"], derived["max"])
            resources.change(tx, path, key, derived["max"] - current["max"])

    def shown(key: str, values: Mapping[str, Any]) -> str:
        value = values.get(key, "")
        text = (t("journal.yes" if value else "journal.no") if isinstance(value, bool)
                else ", ".join(value) if isinstance(value, list) else str(value)) or "–"
        return text if len(text) <= 40 else text[:39] + "…"

    tx.event("bogen", t("journal.sheet", figure=fig["name"], changes="; ".join(
        t("journal.sheet_change", field=form.label(k), old=shown(k, old), new=shown(k, new)) for k in changed)),
        list(dict.fromkeys([who, fig["name"]])), tx.state["active_encounter"])
