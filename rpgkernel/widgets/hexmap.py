"""``HexMap``: the Kampfwerte hex map of the campaign's active encounter.

It shows the map, every combatant on its field and the fields the current one reaches with its BP
left, with their cost and the test's chance. A click runs ``bewege FIGUR nach=q,r art=ART`` on
the campaign (typed dice go along as ``--würfel``). The map is GM data in the campaign.
"""

from __future__ import annotations

import copy
from typing import Any

import traitlets

from ..errors import RpgError
from ..messages import t
from ..render.base import percent
from ..resolve import resolve
from ..resolve.language import quote
from ..rules import get
from ..rules.figure import Figure, view
from ..state import Campaign, model
from . import panel_data
from . import panel_lines as lines
from .base import Widget

RULESET = "kampfwerte"


class HexMap(Widget):
    """The hex map of ``campaign``'s active encounter; a given ``karte`` (a ``HexKarte``) is kept in the
    campaign as the active encounter's map (without an active encounter: the campaign's)."""

    parts = ("hexmap.js",)
    styles = ("encounter.css", "hexmap.css")  # encounter.css: the shown %%resolve line

    karte = traitlets.Dict().tag(sync=True)      # breite, hoehe, fields [[q, r, terrain, obstacle]]; {}: no map
    legend = traitlets.List().tag(sync=True)     # [[terrain, factor]] of the terrain on the map
    figures = traitlets.List().tag(sync=True)    # [{name, side, q, r, active}] of the placed combatants
    turn = traitlets.Dict().tag(sync=True)       # whose turn: figure, bp, q, r (None: not placed); {}: nobody
    arten = traitlets.List().tag(sync=True)      # [[movement type, BP per field]]
    art = traitlets.Unicode("Gehen").tag(sync=True)  # the chosen movement type (written by the front end)
    reachable = traitlets.List().tag(sync=True)  # [[q, r, cost]] the active combatant may move to
    probe = traitlets.Unicode("").tag(sync=True)  # the test the chosen type needs, with its exact chance
    dice = traitlets.Unicode("").tag(sync=True)  # physical dice for the move's test (written by the front end)
    result = traitlets.Dict().tag(sync=True)     # the last move: its cell and card

    def __init__(self, campaign: Campaign, karte: Any = None, **kwargs: Any) -> None:
        if not isinstance(campaign, Campaign):
            raise RpgError(t("widget.hexmap.bad_input", type=type(campaign).__name__))
        self.spielfeld = get(RULESET).spielfeld   # the map's rules, as the engine gives them
        if karte is not None:
            enc = campaign.encounter
            self.spielfeld.setzen(campaign if enc is None else enc, karte)
        super().__init__(**kwargs)
        self.campaign = campaign
        self._roh: Any = None
        self._karte: Any = None   # the fight's HexKarte
        self.observe(self._on_art, "art")
        self._follow(self.campaign)
        campaign.refresh()
        self._changed(campaign)

    # -- reading the campaign -------------------------------------------------------
    def _encounter(self) -> dict[str, Any] | None:
        state = self.campaign.folded
        name = state["active_encounter"]
        return state["encounters"].get(name) if name else None

    def _record(self, name: str) -> Figure:
        return view(model.seen_by_rules(self.campaign.folded, name) or {"name": name})

    def _daten(self) -> Any:
        """The Kampfwerte settings the active encounter sees."""
        return self.spielfeld.daten(model.data(self.campaign.folded))

    def _map(self) -> Any:
        """The fight's map in the campaign (the active encounter's, else the campaign's); None without one.
        Read again only when its data changed."""
        gm = model.data(self.campaign.folded)
        roh = self.spielfeld.roh(gm)
        if roh != self._roh:
            self._roh, self._karte = copy.deepcopy(roh), None
            if roh is not None:
                self._karte = self.spielfeld.karte(gm)
        return self._karte

    def _changed(self, _campaign: Campaign | None = None) -> None:
        """Bring every trait up to the campaign's state, its rule data and the fight's map."""
        try:
            self._update(self._daten())
        except RpgError as err:  # rule data set by hand that does not fit
            self.error = str(err)

    def _update(self, daten: Any) -> None:
        try:
            k = self._map()
        except RpgError as err:  # data set by hand that is no map
            k, self.error = None, str(err)
        enc = self._encounter()
        current = panel_data.current(enc)
        figures, turn = [], {}
        for name in panel_data.order(enc) if enc else []:
            rec = self._record(name)
            pos = self.spielfeld.position(rec)
            if name == current:
                bp = rec.current("BP")
                turn = {"figure": name, "bp": bp, "q": pos[0] if pos else None, "r": pos[1] if pos else None}
            if pos is not None:
                figures.append({"name": name, "side": enc["combatants"][name].get("side", ""),
                                "q": pos[0], "r": pos[1], "active": name == current})
        with self.hold_sync():
            self.arten = [[a.name, str(a.kosten)] for a in daten.bewegungsarten.values()]
            if k is None:
                self.karte, self.legend = {}, []
            else:
                used = {k.gelaende.get(h, "frei") for h in k.felder()}
                self.karte = {"breite": k.breite, "hoehe": k.hoehe,
                              "fields": [[q, r, k.gelaende.get((q, r), "frei"), (q, r) in k.hindernisse]
                                         for q, r in k.felder()]}
                self.legend = [[g, f] for g, f in daten.gelaende.items() if g in used]
            self.figures = figures
            self.turn = turn
            self._safe_reach()

    def _on_art(self, _change: Any) -> None:
        with self.hold_sync():
            if self._safe_reach():
                self.error = ""

    def _safe_reach(self) -> bool:
        """``_reach``; its German error (an unknown movement type) lands in ``error``."""
        try:
            self._reach()
        except RpgError as err:
            self.reachable, self.probe, self.error = [], "", str(err)
            return False
        return True

    def _reach(self) -> None:
        """The fields the active combatant reaches with the chosen movement type (not those others hold),
        and the test that type needs (Bewegungskosten: Würfelprobe) with its exact chance."""
        daten = self._daten()
        a = self.spielfeld.art(self.art, daten)
        name = self.turn.get("figure")
        self.probe = ""
        if name and a.probe:
            n, p = self.spielfeld.probe(self._record(name), a, daten)
            self.probe = t("widget.hexmap.probe", talent=a.probe, n=n, sw=daten.schwierigkeit, p=percent(p))
        elif name:
            self.probe = t("widget.hexmap.no_probe", art=a.name)
        if not name or self.turn.get("q") is None or self._karte is None:
            self.reachable = []
            return
        held = {(f["q"], f["r"]) for f in self.figures if f["name"] != name}
        start = (self.turn["q"], self.turn["r"])
        costs = self.spielfeld.erreichbar(self._record(name), self._karte, self.art, daten)
        self.reachable = [[q, r, str(c)] for (q, r), c in sorted(costs.items())
                          if (q, r) != start and (q, r) not in held]

    # -- actions ------------------------------------------------------------------
    def move_line(self, q: int, r: int) -> str:
        """The ``%%resolve`` line that moves the active combatant to (q, r)."""
        return f"bewege {quote(self.turn['figure'])} nach={q},{r} art={quote(self.art, value=True)}"

    def on_move(self, content: dict[str, Any]) -> None:
        """Move the active combatant to ``{q, r}`` (with the movement type in ``art`` and the physical
        dice of its test in ``dice``, e.g. ``"8,3,10,1,7"``; empty: rolled). Nothing is written and the
        dice stay when the move is refused."""
        if self._encounter() is None:
            raise RpgError(t("widget.hexmap.none"))
        if self._karte is None:
            raise RpgError(t("kampfwerte.no_map"))
        if not self.turn:
            raise RpgError(t("widget.hexmap.nobody"))
        q, r = content.get("q"), content.get("r")
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in (q, r)):
            raise RpgError(t("widget.hexmap.bad_field"))
        if isinstance(content.get("art"), str):
            self.art = content["art"]
        if isinstance(content.get("dice"), str):
            self.dice = content["dice"]
        for f in self.figures:
            if (f["q"], f["r"]) == (q, r) and f["name"] != self.turn["figure"]:
                raise RpgError(t("widget.hexmap.occupied", q=q, r=r, figure=f["name"]))
        text = self.move_line(q, r)
        res = resolve(text, ruleset=RULESET, campaign=self.campaign, dice=lines.dice(self.dice))
        self.result = {"cell": lines.cell([text], self.dice), "card": panel_data.card(res.to_dict())}
        self.dice = ""

    def on_poll(self, _content: dict[str, Any]) -> None:
        """Fold in what other notebooks wrote (a cheap read when nothing is new)."""
        self.campaign.refresh()

    # -- plain text -----------------------------------------------------------------
    def text(self) -> str:
        if not self.karte:
            return t("widget.hexmap.text_no_map")
        size = {"breite": self.karte["breite"], "hoehe": self.karte["hoehe"]}
        if not self.turn:
            return t("widget.hexmap.text_nobody", **size)
        if self.turn["q"] is None:
            return t("widget.hexmap.text_unplaced", figure=self.turn["figure"], **size)
        return t("widget.hexmap.text", figure=self.turn["figure"], q=self.turn["q"], r=self.turn["r"],
                 bp=self.turn["bp"], **size)
