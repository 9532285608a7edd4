"""``EncounterPanel``: the GM's screen during a fight, for any ruleset.

It shows the initiative order, each combatant's resources and conditions,
the open choices, the players' suggestions and the encounter's journal, and
runs actions as the ``%%resolve`` lines a GM would type, through
``rpgkernel.resolve`` on the same campaign. Its forecast runs in a thread of
its own (``background``).
"""

from __future__ import annotations

from collections import deque
from typing import Any

import traitlets

from .. import rules
from ..errors import RpgError
from ..forecast import forecast_state, weighing
from ..library import Library, saved_text
from ..messages import t
from ..resolve import pending, resolve
from ..resolve.run import KIND, not_open
from ..rules.base import Ruleset
from ..session import journal_summary
from ..state import Campaign, Encounter, resources, suggestions
from ..state.model import REDO, UNDO
from . import panel_data as data
from . import panel_lines as lines
from .background import Background
from .base import Widget

JOURNAL_TAIL = 12   # journal entries the panel shows
FIRST_VERB = "angriff"


class EncounterPanel(Widget):
    """The fight of ``encounter`` (an ``Encounter``, or a ``Campaign``: its active encounter)."""

    parts = ("chart.js", "encounter.js")
    styles = ("chart.css", "encounter.css", "forecast.css")
    label_prefixes = ("resolution.", "condition.")
    carried = ("form",)
    reads = frozenset({"poll", "library"})

    rules = traitlets.Dict().tag(sync=True)      # the ruleset: title, segments, conditions, action verbs
    panel = traitlets.Dict().tag(sync=True)      # name, round, segment, whose turn, undo/redo possible
    rows = traitlets.List().tag(sync=True)       # the combatants in turn order
    pending = traitlets.List().tag(sync=True)    # open resolutions and their choices
    journal = traitlets.List().tag(sync=True)    # the encounter's latest journal entries
    form = traitlets.Dict().tag(sync=True)       # what the GM selected and typed (written by the front end)
    lines = traitlets.Dict().tag(sync=True)      # the cells the form stands for
    preview = traitlets.Dict().tag(sync=True)    # the last preview
    result = traitlets.Dict().tag(sync=True)     # the last result (cards) or notice
    players = traitlets.Dict().tag(sync=True)    # live: a player link is valid; suggestions: the open ones
    forecast = traitlets.Dict().tag(sync=True)   # the forecast: running with its progress, or its result
    library = traitlets.Dict().tag(sync=True)    # the library's templates of the ruleset (read when asked)

    def __init__(self, encounter: Encounter | Campaign, shelf: Library | None = None, **kwargs: Any) -> None:
        if isinstance(encounter, Campaign):
            campaign, fixed = encounter, None
        elif isinstance(encounter, Encounter):
            campaign, fixed = encounter.campaign, encounter.name
        else:
            raise RpgError(t("widget.panel.bad_input", type=type(encounter).__name__))
        super().__init__(**kwargs)
        self.campaign = campaign
        self.shelf = shelf if shelf is not None else Library()   # the library of figures
        self._fixed = fixed
        self._shown: str | None = None              # the encounter the journal tail belongs to
        self._seen = 0                              # journal read up to this seq
        self._txs: set[str] = set()                 # transactions of the encounter (for undo entries)
        self._tail: deque[dict[str, Any]] = deque(maxlen=JOURNAL_TAIL)
        self._turn: tuple[Any, ...] = ()            # (encounter, round, whose turn) last shown
        self.background = Background("rpgkernel-prognose")   # the forecast's thread
        self.observe(self._show_lines, "form")
        self._follow(self.campaign)
        campaign.refresh()
        self._changed(campaign)

    # -- reading the campaign -------------------------------------------------------
    def _state(self) -> dict[str, Any]:
        return self.campaign.folded

    def _encounter(self) -> dict[str, Any] | None:
        state = self._state()
        name = self._fixed or state["active_encounter"]
        return state["encounters"].get(name) if name else None

    def _engine(self) -> Ruleset:
        enc = self._encounter()
        state = self._state()
        return rules.get((enc or {}).get("ruleset") or state["settings"]["ruleset"])

    def _changed(self, _campaign: Campaign | None = None) -> None:
        """Bring every trait up to the campaign's state (unchanged traits are not sent again)."""
        state, enc, engine = self._state(), self._encounter(), self._engine()
        out_of = data.out_of_fight(state, enc)
        with self.hold_sync():
            self.rules = data.rules_info(engine)
            self.panel = data.header(state, enc, engine, out_of)
            self.rows = data.rows(state, enc, engine, out_of)
            self.pending = data.pending_list(state, engine, self._weighed)
            self.players = {"live": data.players_live(state), "suggestions": data.open_suggestions(state)}
            self._read_journal(enc["name"] if enc else None, state["seq"])
            self._default_form()

    def _weighed(self, pid: str) -> weighing.Weighing | None:
        """The weighing of the open resolution ``pid``'s advice on the campaign's state (started where none
        is known); each option it weighs shows in the decision form; it stops once ``pid`` is decided."""
        return weighing.ask(self._state(), pid, heard=self._heard, current=self._state)

    def _heard(self, _w: weighing.Weighing) -> None:   # in the weighing's thread
        self.background.show(self._show_pending)

    def _show_pending(self) -> None:
        self.pending = data.pending_list(self._state(), self._engine(), self._weighed)

    def _default_form(self) -> None:
        """A verb of the ruleset is chosen; the actor follows the turn; then the lines are shown."""
        patch: dict[str, Any] = {}
        turn = (self.panel["name"], self.panel["round"], self.panel["current"])
        if turn != self._turn and self.form.get("actors"):
            patch["actors"] = []
        self._turn = turn
        names = [v["name"] for v in self.rules["verbs"]]
        if names and self.form.get("verb") not in names:   # a fight's first verb: the attack, where there is one
            patch.update(verb=FIRST_VERB if FIRST_VERB in names else names[0], targets=[], options={})
        if patch:
            self._set_form(**patch)  # the form observer shows the lines
        else:
            self._show_lines()

    def _read_journal(self, name: str | None, upto: int) -> None:
        """Keep the tail of the encounter's journal: read only what is new since the last time; what a
        player resolved on their page since then becomes the result."""
        if name != self._shown:
            self._shown, self._seen = name, 0
            self._txs.clear()
            self._tail.clear()
        first = self._seen == 0
        played: list[Any] = []
        if name is not None and upto > self._seen:
            for event in self.campaign.store.events(after=self._seen):
                if event.seq > upto:
                    break
                self._seen = event.seq
                if event.data.get("encounter") == name:
                    self._txs.add(event.tx)
                    if event.kind == KIND and event.data.get("player") and not first:
                        played.append(event)
                elif not (event.kind in (UNDO, REDO) and event.data.get("of") in self._txs):
                    continue
                self._tail.append(data.journal_entry(event))
        self.journal = list(self._tail)
        if played:
            who = str(played[-1].data["player"])
            self.result = {"player": who, "cards": [data.card(e.data) for e in played if e.data["player"] == who]}

    def _show_lines(self, _change: Any = None) -> None:
        """Show the cells the form stands for (the action line and the choices taken over)."""
        verbs = self._verbs()
        out: dict[str, str] = {}
        try:
            if self._encounter() is not None:
                out["action"] = lines.cell([self._action_line(verbs)], self.form.get("dice"))
        except RpgError:
            pass  # no verb chosen yet: nothing to show
        taken = lines.decision_lines(self.form, verbs)
        if any(taken):
            out["decision"] = lines.cell([x for x in taken if x], self.form.get("decision_dice"))
        self.lines = {**out, "taken": taken}

    def _verbs(self) -> dict[str, Any]:
        return {v.name: v for v in self._engine().verbs.values()}

    def _action_line(self, verbs: dict[str, Any]) -> str:
        return lines.action_line(self.form, verbs, data.current(self._encounter()))

    # -- actions ------------------------------------------------------------------
    def _need(self, active: bool = False) -> Encounter:
        """The panel's encounter; with ``active``, it must be the one ``%%resolve`` lines act in."""
        enc = self._encounter()
        if enc is None:
            raise RpgError(t("widget.panel.none"))
        active_name = self._state()["active_encounter"]
        if active and active_name != enc["name"]:
            raise RpgError(t("widget.panel.not_active", name=enc["name"], active=active_name or "–"))
        return Encounter(self.campaign, enc["name"])

    def _run(self, cell_lines: list[str], dice_text: Any) -> None:
        """Run lines as a ``%%resolve`` cell on the campaign; show the cell and its cards."""
        self._need(active=True)
        given = lines.dice(dice_text)
        out = resolve("\n".join(cell_lines), ruleset=self._engine().key, campaign=self.campaign, dice=given)
        results = out if isinstance(out, list) else [out]
        self.result = {"cell": lines.cell(cell_lines, dice_text), "cards": [data.card(r.to_dict()) for r in results]}
        self.preview = {}

    def _set_form(self, **values: Any) -> None:
        self.form = {**self.form, **values}

    def on_act(self, _content: dict[str, Any]) -> None:
        """Run the action form's line (given dice: the form's ``dice``)."""
        self._run([self._action_line(self._verbs())], self.form.get("dice"))
        self._set_form(dice="")

    def on_preview(self, _content: dict[str, Any]) -> None:
        """The probability preview of the action form's line, before any roll."""
        self._need(active=True)
        text = self._action_line(self._verbs())
        res = resolve(text, ruleset=self._engine().key, campaign=self.campaign, preview=True)
        self.preview = {"cell": lines.cell([text], preview=True), "items": data.preview_items(res.preview),
                        "steps": [s.text for s in res.steps]}

    def handle(self, handler: Any, content: dict[str, Any]) -> None:
        super().handle(handler, content)
        if content["type"] in ("act", "choose"):   # the front end's decision form waits for this
            self.send({"type": "done", "of": content["type"]})

    def on_choose(self, content: dict[str, Any]) -> None:
        """Take the choices in the form's ``decisions`` together, each to the open resolution it names;
        ``{"decline": true, "id": ID}``: take none of resolution ``ID`` (no id: the latest)."""
        if not self.pending:
            raise RpgError(t("widget.panel.no_pending"))
        if content.get("decline"):
            pid = lines.plain(content.get("id"))
            self.campaign.refresh()
            record = pending(self.campaign).get(pid) if pid else self.pending[-1]
            if record is None:
                raise RpgError(not_open(self.campaign.store.events(), pid))
            who = (record["actors"] or [c["who"][0] for c in record["choices"] if c["who"]] or [""])[0]
            chosen = [lines.decline_line(who, pid)]
        else:
            chosen = [x for x in lines.decision_lines(self.form, self._verbs()) if x]
            if not chosen:
                raise RpgError(t("widget.panel.no_decisions"))
        self._run(chosen, self.form.get("decision_dice"))
        self._set_form(decisions=[], decision_dice="")

    def on_start(self, _content: dict[str, Any]) -> None:
        """Begin round 1: with the initiative rolls entered in the form, else rolled by the ruleset."""
        enc = self._need()
        if enc.round:
            raise RpgError(t("widget.panel.running", round=enc.round))
        rolling = [r["name"] for r in self.rows if r.get("roll")]
        enc.start(rolls=lines.initiative(self.form.get("rolls"), rolling, [r["name"] for r in self.rows]))

    def on_next_turn(self, _content: dict[str, Any]) -> None:
        self._need().next_turn()

    def on_next_round(self, content: dict[str, Any]) -> None:
        """The next round; ``{"new_initiative": true}``: with the order determined anew."""
        self._need().next_round(new_initiative=content.get("new_initiative") is True)

    def on_skip_out(self, content: dict[str, Any]) -> None:
        """``{"skip": true}``: skip the turns of combatants out of the fight (``Encounter.set_skip_out``)."""
        self._need().set_skip_out(content.get("skip") is True)

    def on_activate(self, _content: dict[str, Any]) -> None:
        """Make the panel's encounter the active one, so that actions may run in it."""
        self._need().activate()

    def on_segment(self, content: dict[str, Any]) -> None:
        """Move to a segment of the round (rulesets that split rounds); ``None`` or "": none."""
        value = content.get("segment")
        if value in ("", None):
            value = None
        elif isinstance(value, str) and value.isdigit():
            value = int(value)
        self._need().set_segment(value)

    def on_forecast(self, content: dict[str, Any]) -> None:
        """Forecast the fight from where it stands (as ``Encounter.forecast``) in the background thread:
        ``{"zielwahl", "precision"}``, optionally ``"n"`` and ``"seed"``; the progress shows while the
        fights are played, then the result (or the forecast's German error)."""
        enc = self._need()
        if self.forecast.get("running"):
            raise RpgError(t("widget.panel.forecast_busy"))
        options: dict[str, Any] = {k: content[k] for k in ("n", "seed") if isinstance(content.get(k), int)}
        if isinstance(content.get("precision"), (int, float)):
            options["precision"] = content["precision"]
        zielwahl = lines.plain(content.get("zielwahl")) or "schwächste"
        state = self.campaign.state   # a copy, read here: the thread never touches the campaign's store
        job = self.background

        def progress(done: int, planned: int) -> None:
            job.show(lambda: self._forecasting(zielwahl, done, planned))

        def notice(text: str) -> None:
            job.show(lambda: setattr(self, "forecast", {**self.forecast, "notice": text}))

        def work() -> None:
            ended: dict[str, Any] = {}
            try:
                f = forecast_state(state, enc.name, zielwahl=zielwahl, progress=progress, stop=job.stopped,
                                   notice=notice, **options)
                ended = {"result": data.forecast_data(f)}
            except RpgError as err:
                ended = {"error": str(err)}
            finally:   # the panel stops showing a forecast that runs whatever happened
                job.show(lambda: self._forecast_ended(zielwahl, ended))

        self.forecast = {"running": True, "done": 0, "planned": 1, "zielwahl": zielwahl}
        job.start(work)

    def on_stop_forecast(self, _content: dict[str, Any]) -> None:
        """Stop the running forecast after its batch of fights: its result counts the fights played."""
        if self.forecast.get("running"):
            self.background.stop()
            self.forecast = {**self.forecast, "stopping": True}

    def _forecasting(self, zielwahl: str, done: int, planned: int) -> None:
        self.forecast = {"running": True, "done": done, "planned": planned, "zielwahl": zielwahl,
                         "stopping": self.background.stopped(),
                         **({"notice": self.forecast["notice"]} if "notice" in self.forecast else {})}

    def _forecast_ended(self, zielwahl: str, ended: dict[str, Any]) -> None:
        self.forecast = {"zielwahl": zielwahl, **({"result": ended["result"]} if "result" in ended else {})}
        if "error" in ended:
            self.error = ended["error"]

    def close(self) -> None:
        background = getattr(self, "background", None)   # none where __init__ refused its input
        if background is not None:
            background.stop()
        super().close()

    # -- the order, from a row ------------------------------------------------------------------
    def on_remove(self, content: dict[str, Any]) -> None:
        """Take the row's combatant out of the encounter (``Encounter.remove``)."""
        self._need().remove(_named(content))

    def on_restore(self, content: dict[str, Any]) -> None:
        """Bring a removed combatant back where it stood (``Encounter.restore``)."""
        self._need().restore(_named(content))

    def on_delay(self, content: dict[str, Any]) -> None:
        """The row's combatant acts later (``Encounter.delay``)."""
        self._need().delay(_named(content))

    def on_now(self, content: dict[str, Any]) -> None:
        """The row's combatant acts now (``Encounter.act_now``)."""
        self._need().act_now(_named(content))

    def on_move(self, content: dict[str, Any]) -> None:
        """``{"name", "direction": "up" | "down"}``: before the one above it, after the one below."""
        enc, name = self._need(), _named(content)
        order, up = enc.order, content.get("direction") == "up"
        if name not in order:
            raise RpgError(t("widget.panel.not_in_order", name=name))
        i = order.index(name)
        if not 0 <= i + (-1 if up else 1) < len(order):
            raise RpgError(t("widget.panel.first" if up else "widget.panel.last", name=name))
        if up:
            enc.move(name, before=order[i - 1])
        else:
            enc.move(name, after=order[i + 1])

    def on_reroll(self, content: dict[str, Any]) -> None:
        """Roll the row's combatant's initiative anew (``Encounter.reroll``)."""
        self._need().reroll(_named(content))

    def on_group(self, content: dict[str, Any]) -> None:
        """``{"names": [...]}``, the rows picked: one initiative roll for them (``Encounter.group``)."""
        self._need().group(_names(content))

    def on_ungroup(self, content: dict[str, Any]) -> None:
        self._need().ungroup(_names(content))

    def on_join(self, content: dict[str, Any]) -> None:
        """``{"figure"}`` (a character of the campaign) or ``{"like", "name"}`` (a new combatant like
        that one; no name: the next free number), ``"initiative"`` optional (``Encounter.add``)."""
        enc = self._need()
        given = lines.plain(content.get("initiative"))
        try:
            initiative = int(given) if given else None
        except ValueError:
            raise RpgError(t("widget.panel.bad_initiative", value=given)) from None
        figure, like = lines.plain(content.get("figure")), lines.plain(content.get("like"))
        if figure:
            enc.add(figure, character=figure, initiative=initiative)
        elif like:
            record = enc.record
            name = lines.plain(content.get("name")) or data.next_name(
                like, [*record["combatants"], *record.get("removed", ())])
            enc.add(name, like=like, initiative=initiative)
        else:
            raise RpgError(t("widget.panel.join_nobody"))

    def on_edit(self, content: dict[str, Any]) -> None:
        """``{"names", "resource", "change"}``: a value typed into a row's resource (``-5``, ``+3``, ``=7``),
        on that row or on every row picked with it (``Campaign.change``, one undo step); the result says
        what landed, with the ``%begegnung`` line that does the same."""
        enc = self._need()
        names, resource = _names(content), lines.plain(content.get("resource"))
        if not resource:
            raise RpgError(t("widget.panel.no_resource"))
        change = resources.edit(content.get("change"), resource)
        seq = self.campaign.store.last_seq()
        self.campaign.change(names, resource, change.by, to=change.to, encounter=enc.name)
        landed = [str(e.data.get("text", "")) for e in self.campaign.store.events(after=seq) if e.kind == "ressource"]
        self.result = {"notice": "; ".join(landed), "cell": lines.edit_line(names, resource, change, enc.name,
                                                                            self._state()["active_encounter"])}

    # -- the library of figures -----------------------------------------------------------------
    def on_library(self, _content: dict[str, Any]) -> None:
        """Read the ruleset's templates (the seed's and the GM's) into ``library``, for the join box."""
        listing = self.shelf.search("", self._engine().key or None)
        self.library = {"ruleset": listing.ruleset, "templates": [
            {k: v for k, v in x.to_dict().items() if k != "entries"} for x in listing.templates]}

    def on_add_template(self, content: dict[str, Any]) -> None:
        """``{"name", "count", "side"}``: the template ``count`` times into the fight, numbered names
        (``Library.add``, the ``%%figuren`` cell the result shows)."""
        enc = self._need()
        name, side = lines.plain(content.get("name")), lines.plain(content.get("side"))
        if not name:
            raise RpgError(t("widget.panel.no_template"))
        count = lines.count(content.get("count"))
        loaded = self.shelf.add(self.campaign, name, count, side or None, encounter=enc.name)
        self.result = {"notice": t("widget.panel.template_added", name=name, names=", ".join(loaded.combatants)),
                       "cell": lines.template_cell(name, count, side, enc.name, self._state()["active_encounter"])}

    def on_save_template(self, content: dict[str, Any]) -> None:
        """``{"template", "names"}`` or ``{"template", "side"}``: keep those rows, or the side, as a template
        of the library (``Library.save_figures``)."""
        enc = self._need()
        template, side = lines.plain(content.get("template")), lines.plain(content.get("side"))
        names = content.get("names") if isinstance(content.get("names"), list) else []
        kept = self.shelf.save_figures(template, self.campaign, [n for n in names if isinstance(n, str) and n],
                                       side or None, encounter=enc.name)
        self.result = {"notice": saved_text(kept, self.shelf)}
        self.on_library({})

    def on_hide(self, content: dict[str, Any]) -> None:
        """Hide the row's combatant from the players (``Encounter.hide``)."""
        self._need().hide(_named(content))

    def on_reveal(self, content: dict[str, Any]) -> None:
        self._need().reveal(_named(content))

    def on_undo(self, _content: dict[str, Any]) -> None:
        self.result = {"notice": t("widget.panel.undone", what=journal_summary(self.campaign.undo()))}

    def on_redo(self, _content: dict[str, Any]) -> None:
        self.result = {"notice": t("widget.panel.redone", what=journal_summary(self.campaign.redo()))}

    # -- the players' suggestions -------------------------------------------------------------
    def on_accept_suggestion(self, content: dict[str, Any]) -> None:
        """``{"id"}``: accept a player's open suggestion (``Campaign.accept_suggestion``)."""
        self._answer(content, True)

    def on_decline_suggestion(self, content: dict[str, Any]) -> None:
        """``{"id"}``: decline a player's open suggestion (``Campaign.decline_suggestion``)."""
        self._answer(content, False)

    def _answer(self, content: dict[str, Any], accepted: bool) -> None:
        sid = lines.plain(content.get("id"))
        if not sid:
            raise RpgError(t("widget.panel.no_suggestion"))
        done = (self.campaign.accept_suggestion if accepted else self.campaign.decline_suggestion)(sid)
        self.result = {"notice": suggestions.answered(done), "cell": lines.suggestion_line(sid, accepted)}

    def on_poll(self, _content: dict[str, Any]) -> None:
        """Fold in what other notebooks wrote (a cheap read when nothing is new)."""
        self.campaign.refresh()

    # -- plain text -----------------------------------------------------------------
    def text(self) -> str:
        enc = self._encounter()
        if enc is None:
            return t("widget.panel.text_none")
        who = data.current(enc)
        if who is None:
            return t("widget.panel.text_waiting", name=enc["name"], n=len(enc["combatants"]))
        out = t("encounter.turn", round=enc["round"], figure=who)
        if enc.get("segment") is not None:
            out += " – " + t("widget.panel.text_segment", segment=enc["segment"])
        return out


def _names(content: dict[str, Any]) -> list[str]:
    """The combatants picked in the table."""
    names = content.get("names")
    out = [n for n in names if isinstance(n, str) and n] if isinstance(names, list) else []
    if not out:
        raise RpgError(t("widget.panel.no_name"))
    return out


def _named(content: dict[str, Any]) -> str:
    """The combatant a row's button names."""
    name = content.get("name")
    if not isinstance(name, str) or not name:
        raise RpgError(t("widget.panel.no_name"))
    return name
