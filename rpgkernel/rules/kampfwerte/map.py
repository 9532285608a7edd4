"""The hex map (Bewegungskosten): axial coordinates (q, r) on a rectangle of ``breite`` × ``hoehe``
fields (odd rows shifted right), terrain with a cost factor per field, obstacles, and the exact
path costs and reachable fields of a movement by Dijkstra.

Costs are exact fractions (Reiten: ½ BP per field); entering an obstacle uses up all remaining BP.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Iterable, Mapping

from ...messages import t
from .settings import EINSTELLUNGEN, Bewegungsart, Einstellungen, KampfwerteError

Hex = tuple[int, int]
RICHTUNGEN: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
MAX_SEITE = 500


def nachbarn(h: Hex) -> list[Hex]:
    """The six adjacent fields."""
    return [(h[0] + dq, h[1] + dr) for dq, dr in RICHTUNGEN]


def abstand(a: Hex, b: Hex) -> int:
    """Distance in fields between two hexes (axial coordinates)."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def parse_hex(text: str) -> Hex:
    """``"q,r"`` or ``"(q,r)"`` as a hex (``nach=3,2``, ``nach=(3,2)``), or a clear error."""
    parts = str(text).replace(" ", "").strip("()").split(",")
    try:
        q, r = (int(p) for p in parts)
    except ValueError:
        raise KampfwerteError(t("kampfwerte.bad_hex", text=str(text)[:40])) from None
    return q, r


@dataclass
class Weg:
    """A path's fields (start first), its exact BP cost, whether it ends on an obstacle."""

    felder: list[Hex]
    kosten: Fraction
    hindernis: bool = False


@dataclass
class HexKarte:
    """A rectangular hex map with terrain (field -> terrain name) and obstacles."""

    breite: int
    hoehe: int
    gelaende: dict[Hex, str] = field(default_factory=dict)
    hindernisse: set[Hex] = field(default_factory=set)

    def __post_init__(self) -> None:
        if not (1 <= self.breite <= MAX_SEITE and 1 <= self.hoehe <= MAX_SEITE):
            raise KampfwerteError(t("kampfwerte.bad_map_size", max=MAX_SEITE))
        self.gelaende = {tuple(h): g for h, g in self.gelaende.items()}  # type: ignore[misc]
        self.hindernisse = {tuple(h) for h in self.hindernisse}  # type: ignore[misc]
        for h in (*self.gelaende, *self.hindernisse):
            self.pruefe(h)

    def pruefe_gelaende(self, daten: Einstellungen | None = None) -> HexKarte:
        """Every terrain on the map is one the GM's rule data knows (with its cost factor)."""
        known = (daten or EINSTELLUNGEN.defaults()).gelaende
        for g in set(self.gelaende.values()) - set(known):
            raise KampfwerteError(t("kampfwerte.unknown_terrain", name=str(g)[:40], known=", ".join(known)))
        return self

    def enthaelt(self, h: Hex) -> bool:
        q, r = h
        col = q + (r - (r & 1)) // 2
        return 0 <= r < self.hoehe and 0 <= col < self.breite

    def pruefe(self, h: Hex) -> Hex:
        if not self.enthaelt(h):
            raise KampfwerteError(t("kampfwerte.off_map", q=h[0], r=h[1], breite=self.breite, hoehe=self.hoehe))
        return h

    def felder(self) -> list[Hex]:
        """Every field, row by row."""
        return [(col - (r - (r & 1)) // 2, r) for r in range(self.hoehe) for col in range(self.breite)]

    def _suche(self, start: Hex, art: Bewegungsart, bp: Fraction, besetzt: Iterable[Hex],
               daten: Einstellungen) -> tuple[dict[Hex, Fraction], dict[Hex, Hex]]:
        """Dijkstra from ``start`` within ``bp``: exact cost and predecessor of every reachable field."""
        self.pruefe(start)
        self.pruefe_gelaende(daten)
        faktor = daten.gelaende
        unit = art.kosten.denominator
        step = art.kosten.numerator            # cost of a factor-1 field, in 1/unit BP
        budget = math.floor(bp * unit)
        blocked = set(besetzt) - {start}
        cost: dict[Hex, int] = {start: 0}
        prev: dict[Hex, Hex] = {}
        heap = [(0, start)]
        while heap:
            c, h = heapq.heappop(heap)
            if c > cost[h] or (h in self.hindernisse and h != start):
                continue
            for n in nachbarn(h):
                if n in blocked or not self.enthaelt(n):
                    continue
                if n in self.hindernisse:
                    nc = budget if budget - c >= step else None  # all remaining BP
                else:
                    nc = c + step * faktor.get(self.gelaende.get(n, "frei"), 1)
                if nc is not None and nc <= budget and nc < cost.get(n, budget + 1):
                    cost[n], prev[n] = nc, h
                    heapq.heappush(heap, (nc, n))
        return {h: Fraction(c, unit) for h, c in cost.items()}, prev

    def erreichbar(self, start: Hex, art: Bewegungsart, bp: Fraction | int, besetzt: Iterable[Hex] = (), *,
                   daten: Einstellungen | None = None) -> dict[Hex, Fraction]:
        """Every field reachable with ``bp`` BP, with its exact cost (the start costs 0); terrain costs
        from ``daten``."""
        return self._suche(start, art, Fraction(bp), besetzt, daten or EINSTELLUNGEN.defaults())[0]

    def weg(self, start: Hex, ziel: Hex, art: Bewegungsart, bp: Fraction | int, besetzt: Iterable[Hex] = (), *,
            daten: Einstellungen | None = None) -> Weg | None:
        """The cheapest path to ``ziel`` within ``bp``, or None when it is out of reach."""
        self.pruefe(ziel)
        cost, prev = self._suche(start, art, Fraction(bp), besetzt, daten or EINSTELLUNGEN.defaults())
        if ziel not in cost:
            return None
        felder = [ziel]
        while felder[-1] != start:
            felder.append(prev[felder[-1]])
        return Weg(felder[::-1], cost[ziel], ziel in self.hindernisse)

    def to_dict(self) -> dict[str, object]:
        return {"breite": self.breite, "hoehe": self.hoehe,
                "gelaende": [[q, r, g] for (q, r), g in sorted(self.gelaende.items())],
                "hindernisse": sorted([q, r] for q, r in self.hindernisse)}

    @classmethod
    def from_dict(cls, d: Mapping[str, object]) -> HexKarte:
        """A map from plain data (YAML/JSON): breite, hoehe, gelaende [[q, r, name]], hindernisse [[q, r]]."""
        try:
            return cls(int(d["breite"]), int(d["hoehe"]),  # type: ignore[arg-type]
                       {(int(q), int(r)): str(g) for q, r, g in d.get("gelaende", ())},  # type: ignore[attr-defined]
                       {(int(q), int(r)) for q, r in d.get("hindernisse", ())})  # type: ignore[attr-defined]
        except KampfwerteError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError):
            raise KampfwerteError(t("kampfwerte.bad_map")) from None


#: the name of the fight's map among the GM's data (``Campaign.set_data``; per encounter or campaign-wide)
KARTE = "karte"


def karte_aus(gm: Mapping[str, object]) -> HexKarte:
    """The fight's map from the GM's data a procedure sees (``request.data``), checked against the
    terrain of the rule data there; a German error when the campaign holds none."""
    roh = gm.get(KARTE)
    if roh is None:
        raise KampfwerteError(t("kampfwerte.no_map"))
    return HexKarte.from_dict(roh).pruefe_gelaende(EINSTELLUNGEN.of(gm))  # type: ignore[arg-type]


def karte_setzen(ziel: Any, k: HexKarte | Mapping[str, object]) -> HexKarte:
    """Keep ``k`` (a ``HexKarte`` or its plain data) as the map of ``ziel``: an encounter (its own
    map) or a campaign (the map of every encounter without one). Checked before it is stored;
    journalled and undoable, and read again after a restart or in another notebook."""
    if isinstance(k, Mapping):
        k = HexKarte.from_dict(k)
    if not isinstance(k, HexKarte):
        raise KampfwerteError(t("kampfwerte.bad_map"))
    k.pruefe_gelaende(EINSTELLUNGEN.kept_in(ziel))  # the terrain the target's rule data knows
    ziel.set_data(KARTE, k.to_dict())
    return k
