"""The ``%%resolve`` verbs of Kampfwerte: German names, English aliases, Request -> Resolution.

Every procedure gets the GM's settings the line's encounter sees (``Request.settings``) as ``daten``,
and the fight's map from the GM's data (``Request.data``). A preview (``_<verb>_vorschau``) computes
exactly what the roll would decide, without rolling.
"""

from __future__ import annotations

from typing import Any

from ...messages import Text, t
from rpgkernel.rules.kit import INT_RANGE, Request, Resolution, Verb
from .bewegung import art, bewegen, neue_runde, platzieren, position, probe_wuerfel
from .initiative import p_vor, vor
from .manoever import Einsatz, ausfuehren, vorschau
from .map import KARTE, karte_aus, parse_hex
from .probe import erfolge_dist, p_gelingt, talent, talentprobe
from .settings import KampfwerteError


def _besetzt(req: Request, selbst: str) -> set:
    """Fields held by the other figures the line names (``besetzt=`` names more)."""
    return {p for n, fig in req.figures.items() if n != selbst and (p := position(fig)) is not None}


def _gegen(text: Any) -> tuple[str, int] | None:
    """``gegen=Finte:2``: the manoeuvre a reaction answers and its level."""
    if not text:
        return None
    name, _, level = str(text).rpartition(":")
    if not level.isdigit():
        raise KampfwerteError(t("kampfwerte.reaction_needs", name="Reaktion", to=str(text)[:40]))
    return name, int(level)


# -- the glue: Request -> procedure, Request -> preview --------------------------------
def _manoever(req: Request) -> Resolution:
    o = req.options
    einsatz = Einsatz(str(o.get("manöver", "")), o.get("stufe", 1), schaden=o.get("schaden"),
                      abgewehrt=bool(o.get("abgewehrt")), nach=parse_hex(o["nach"]) if o.get("nach") else None,
                      gegen=_gegen(o.get("gegen")), wuerfel=o.get("würfel"))
    return ausfuehren(req.actors[0], req.targets, einsatz, req.roller,
                      karte=karte_aus(req.data) if KARTE in req.data else None, daten=req.settings)


def _manoever_vorschau(req: Request) -> Any:
    o = req.options
    return vorschau(req.actors[0], req.targets, str(o.get("manöver", "")), o.get("stufe", 1), o.get("würfel"),
                    daten=req.settings)


def _bewege(req: Request) -> Resolution:
    o, fig = req.options, req.actors[0]
    return bewegen(fig, karte_aus(req.data), parse_hex(o.get("nach", "")), o.get("art", "Gehen"), req.roller,
                   _besetzt(req, fig.name), o.get("schwierigkeit"), daten=req.settings)


def _bewege_vorschau(req: Request) -> Any:
    o, fig, daten = req.options, req.actors[0], req.settings
    a = art(o.get("art", "Gehen"), daten=daten)
    return p_gelingt(probe_wuerfel(fig, a), o.get("schwierigkeit"), daten=daten) if a.probe else 1.0


def _platziere(req: Request) -> Resolution:
    return platzieren(req.actors[0], karte_aus(req.data), parse_hex(req.options.get("auf", "")))


def _probe(req: Request) -> Resolution:
    o = req.options
    return talentprobe(req.actors[0], o.get("talent", ""), req.roller, o.get("mod", 0), o.get("schwierigkeit"),
                       daten=req.settings)


def _probe_vorschau(req: Request) -> Any:
    _, n = talent(req.actors[0], req.options.get("talent", ""), req.options.get("mod", 0))
    return erfolge_dist(n, req.options.get("schwierigkeit") or req.settings.schwierigkeit)


def _vor(req: Request) -> Resolution:
    return vor(req.actors[0], req.targets[0])


def _vor_vorschau(req: Request) -> Any:
    return p_vor(req.actors[0], req.targets[0])


def _bp(req: Request) -> Resolution:
    return neue_runde(req.actors)


_STUFE = (1, 5)    # Manöver: "Stufe 1-2 … Stufe 5"
_W10 = (1, 10)     # a Schwierigkeit is a face of the W10

VERBS = {
    "manöver": Verb("manöver", _manoever, Text("kampfwerte.verb_manoever"),
                    ("manoever", "manoeuvre"), "optional",
                    {"manöver": "text", "stufe": "int", "schaden": "dice", "abgewehrt": "flag", "nach": "text",
                     "gegen": "text", "würfel": "int"},
                    example='manöver Kael -> Ork manöver=Finte stufe=2', actors="one", preview=_manoever_vorschau,
                    bounds={"stufe": _STUFE, "würfel": (0, INT_RANGE[1])}),
    "bewege": Verb("bewege", _bewege, Text("kampfwerte.verb_bewege"), ("move",), "optional",
                   options={"nach": "text", "art": "text", "schwierigkeit": "int"},
                   example="bewege Kael nach=3,2 art=Schleichen", actors="one", preview=_bewege_vorschau,
                   bounds={"schwierigkeit": _W10}),
    "platziere": Verb("platziere", _platziere, Text("kampfwerte.verb_platziere"), ("place",), options={"auf": "text"},
                      example="platziere Kael auf=0,0", actors="one"),
    "probe": Verb("probe", _probe, Text("kampfwerte.verb_probe"), ("test",),
                  options={"talent": "text", "mod": "int", "schwierigkeit": "int"},
                  example="probe Kael talent=HEIMLICHKEIT mod=1", actors="one", preview=_probe_vorschau,
                  bounds={"schwierigkeit": _W10}),
    "vor": Verb("vor", _vor, Text("kampfwerte.verb_vor"), ("before",), "one",
                example="vor Kael -> Ork", actors="one", preview=_vor_vorschau),
    "bp": Verb("bp", _bp, Text("kampfwerte.verb_bp"), ("runde",),
               example="bp Kael, Ork"),
}
