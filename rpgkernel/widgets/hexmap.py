"""``HexMap``: the Kampfwerte hex map of the campaign's active encounter.

It shows the map (terrain, obstacles), every combatant on its field, whose
turn it is and the fields that combatant reaches with its BP left for the
chosen movement type, with their exact cost. A click on such a field runs the
``%%resolve`` line ``bewege FIGUR nach=(q,r) art=ART`` on the campaign (shown
in the widget), so the move lands in the journal. Changes from ``%%resolve``
cells and the encounter panel show at once (``Campaign.watch``).
"""

from __future__ import annotations

from typing import Any

import traitlets

from ..errors import RpgError
from ..messages import t
from ..resolve import resolve
from ..resolve.language import quote
from ..rules import kampfwerte as kw
from ..state import Campaign, model
from . import panel_data
from . import panel_lines as lines
from .base import Widget

RULESET = "kampfwerte"


class HexMap(Widget):
    """The hex map of ``campaign``'s active encounter; ``karte`` (a ``HexKarte``) becomes the fight's map."""

    parts = ("hexmap.js",)
    styles = ("encounter.css", "hexmap.css")  # encounter.css: the shown %%resolve line

    karte = traitlets.Dict().tag(sync=True)      # breite, hoehe, fields [[q, r, terrain, obstacle]]
    legend = traitlets.List().tag(sync=True)     # [[terrain, factor]] of the terrain on the map
    figures = traitlets.List().tag(sync=True)    # [{name, side, q, r, active}] of the placed combatants
    turn = traitlets.Dict().tag(sync=True)       # whose turn: figure, bp, q, r (None: not placed); {}: nobody
    arten = traitlets.List().tag(sync=True)      # [[movement type, BP per field]]
    art = traitlets.Unicode("Gehen").tag(sync=True)  # the chosen movement type (written by the front end)
    reachable = traitlets.List().tag(sync=True)  # [[q, r, cost]] the active combatant may move to
    result = traitlets.Dict().tag(sync=True)     # the last move: its cell and card

    def __init__(self, campaign: Campaign, karte: kw.HexKarte | None = None, **kwargs: Any) -> None:
        if not isinstance(campaign, Campaign):
            raise RpgError(t("widget.hexmap.bad_input", type=type(campaign).__name__))
        if karte is not None:
            kw.use_karte(karte)
        super().__init__(**kwargs)
        self.campaign = campaign
        self.arten = [[a.name, str(a.kosten)] for a in kw.data().bewegungsarten.values()]
        self.observe(self._on_art, "art")
        self._stop = campaign.watch(self._changed)
        campaign.refresh()
        self._changed(campaign)

    # -- reading the campaign -------------------------------------------------------
    def _encounter(self) -> dict[str, Any] | None:
        state = self.campaign._state  # read only: the folded state
        name = state["active_encounter"]
        return state["encounters"].get(name) if name else None

    def _record(self, name: str) -> dict[str, Any]:
        return model.seen_by_rules(self.campaign._state, name) or {"name": name}

    def _changed(self, _campaign: Campaign | None = None) -> None:
        """Bring every trait up to the campaign's state and the fight's map."""
        k = kw.karte()
        enc = self._encounter()
        current = panel_data.current(enc)
        figures, turn = [], {}
        for name in panel_data.order(enc) if enc else []:
            rec = self._record(name)
            pos = kw.position(rec)
            if name == current:
                bp = rec.get("resources", {}).get("BP", {}).get("value", 0)
                turn = {"figure": name, "bp": bp, "q": pos[0] if pos else None, "r": pos[1] if pos else None}
            if pos is not None:
                figures.append({"name": name, "side": enc["combatants"][name].get("side", ""),
                                "q": pos[0], "r": pos[1], "active": name == current})
        used = {k.gelaende.get(h, "frei") for h in k.felder()}
        with self.hold_sync():
            self.karte = {"breite": k.breite, "hoehe": k.hoehe,
                          "fields": [[q, r, k.gelaende.get((q, r), "frei"), (q, r) in k.hindernisse]
                                     for q, r in k.felder()]}
            self.legend = [[g, f] for g, f in kw.data().gelaende.items() if g in used]
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
            self.reachable, self.error = [], str(err)
            return False
        return True

    def _reach(self) -> None:
        """The fields the active combatant reaches with the chosen movement type (not those others hold)."""
        name = self.turn.get("figure")
        if not name or self.turn.get("q") is None:
            self.reachable = []
            return
        held = {(f["q"], f["r"]) for f in self.figures if f["name"] != name}
        start = (self.turn["q"], self.turn["r"])
        costs = kw.erreichbar(self._record(name), kw.karte(), self.art)
        self.reachable = [[q, r, str(c)] for (q, r), c in sorted(costs.items())
                          if (q, r) != start and (q, r) not in held]

    # -- actions ------------------------------------------------------------------
    def move_line(self, q: int, r: int) -> str:
        """The ``%%resolve`` line that moves the active combatant to (q, r)."""
        return f"bewege {quote(self.turn['figure'])} nach=({q},{r}) art={quote(self.art, value=True)}"

    def on_move(self, content: dict[str, Any]) -> None:
        """Move the active combatant to ``{q, r}`` (with the movement type in ``art``)."""
        if self._encounter() is None:
            raise RpgError(t("widget.hexmap.none"))
        if not self.turn:
            raise RpgError(t("widget.hexmap.nobody"))
        q, r = content.get("q"), content.get("r")
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in (q, r)):
            raise RpgError(t("widget.hexmap.bad_field"))
        if isinstance(content.get("art"), str):
            self.art = content["art"]
        for f in self.figures:
            if (f["q"], f["r"]) == (q, r) and f["name"] != self.turn["figure"]:
                raise RpgError(t("widget.hexmap.occupied", q=q, r=r, figure=f["name"]))
        text = self.move_line(q, r)
        res = resolve(text, ruleset=RULESET, campaign=self.campaign)
        self.result = {"cell": lines.cell([text]), "card": panel_data.card(res)}

    def on_poll(self, _content: dict[str, Any]) -> None:
        """Fold in what other notebooks wrote (a cheap read when nothing is new)."""
        self.campaign.refresh()

    # -- plain text, closing ----------------------------------------------------------
    def text(self) -> str:
        size = {"breite": self.karte["breite"], "hoehe": self.karte["hoehe"]}
        if not self.turn:
            return t("widget.hexmap.text_nobody", **size)
        if self.turn["q"] is None:
            return t("widget.hexmap.text_unplaced", figure=self.turn["figure"], **size)
        return t("widget.hexmap.text", figure=self.turn["figure"], q=self.turn["q"], r=self.turn["r"],
                 bp=self.turn["bp"], **size)

    def close(self) -> None:
        stop = getattr(self, "_stop", None)
        if stop is not None:
            stop()
        super().close()
