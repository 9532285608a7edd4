"""The ``%%resolve`` verbs of Kampfwerte: Request -> Resolution."""

from __future__ import annotations

from typing import Any

from ...messages import t
from ...numerals import percent
from ..resolution import INT_RANGE, Effect, Request, Resolution, Verb, sentence
from .bewegung import art, bewegen, platzieren, position, probe_wuerfel
from .initiative import ini, p_vor
from .manoever import ausfuehren, vorschau
from .map import KARTE, karte_aus, parse_hex
from .probe import erfolge_dist, p_gelingt, wuerfeln
from .settings import KampfwerteError
from .sheet import TALENTE


def _besetzt(req: Request, selbst: str) -> set:
    """Fields held by the other figures the line names (``besetzt=`` names more)."""
    return {p for n, fig in req.figures.items() if n != selbst and (p := position(fig)) is not None}


def _bewege(req: Request) -> Resolution:
    o, fig = req.options, req.actors[0]
    return bewegen(fig, karte_aus(req.data), parse_hex(o.get("nach", "")), o.get("art", "Gehen"), req.roller,
                   _besetzt(req, fig.name), o.get("schwierigkeit"), daten=req.settings)


def _bewege_vorschau(req: Request) -> Any:
    o, fig, daten = req.options, req.actors[0], req.settings
    a = art(o.get("art", "Gehen"), daten=daten)
    return p_gelingt(probe_wuerfel(fig, a), o.get("schwierigkeit"), daten=daten) if a.probe else 1.0


def _talent(req: Request) -> tuple[str, int]:
    name = str(req.options.get("talent", "")).upper()
    if name not in TALENTE:
        raise KampfwerteError(t("kampfwerte.unknown_talent", name=name[:40], known=", ".join(TALENTE)))
    return name, max(0, req.actors[0].value(name) + req.options.get("mod", 0))


def _probe(req: Request) -> Resolution:
    name, n = _talent(req)
    w = wuerfeln(n, req.roller, req.options.get("schwierigkeit"), daten=req.settings)
    who = req.actors[0].name
    res = Resolution("kampfwerte", "probe", (who,), preview=erfolge_dist(n, w.schwierigkeit))
    res.step(t("kampfwerte.step_test", talent=name, n=n, sw=w.schwierigkeit, erfolge=w.erfolge,
               result=t("kampfwerte.ok" if w.gelungen else "kampfwerte.failed")), "Probe (Spielleitung)",
             *(() if w.roll is None else (w.roll,)), value=w.erfolge)
    res.outcome = {"erfolge": w.erfolge, "gelungen": w.gelungen}
    res.summary = t("kampfwerte.satz.probe_gelungen" if w.gelungen else "kampfwerte.satz.probe_misslungen",
                    wer=who, talent=name)
    return res


def _probe_vorschau(req: Request) -> Any:
    name, n = _talent(req)
    return erfolge_dist(n, req.options.get("schwierigkeit") or req.settings.schwierigkeit)


def _neue_runde(req: Request) -> Resolution:
    """BP refilled per round (Bewegungspunkte: "pro Runde")."""
    res = Resolution("kampfwerte", "neue Runde", tuple(a.name for a in req.actors))
    for a in req.actors:
        bp = a.resources["BP"]
        if bp.max > bp.value:
            res.effects.append(Effect(a.name, resource="BP", by=bp.max - bp.value))
        res.step(t("kampfwerte.step_bp", figure=a.name, bp=bp.max), "Bewegungspunkte")
    res.summary = sentence("kampfwerte.satz.bp", res.actors)
    return res


def _vor(req: Request) -> Resolution:
    """Exact chance to act before the opponent with INI + 1W10 and the tie rules (Initiative)."""
    a, b = req.actors[0], req.targets[0]
    p = p_vor(a, b)
    res = Resolution("kampfwerte", "vor", (a.name,), (b.name,), preview=p)
    res.step(t("kampfwerte.step_before", figure=a.name, ini=ini(a), target=b.name, ini_target=ini(b),
               p=percent(p)), "Initiative")
    res.outcome = {"p_vor": p}
    res.summary = t("kampfwerte.satz.vor", wer=a.name, ziel=b.name, p=percent(p))
    return res


def _gegen(text: Any) -> tuple[str, int] | None:
    """``gegen=Finte:2``: the manoeuvre a reaction answers and its level."""
    if not text:
        return None
    name, _, level = str(text).rpartition(":")
    if not level.isdigit():
        raise KampfwerteError(t("kampfwerte.reaction_needs", name="Reaktion", to=str(text)[:40]))
    return name, int(level)


def _manoever(req: Request) -> Resolution:
    o = req.options
    return ausfuehren(req.actors[0], req.targets, str(o.get("manöver", "")), o.get("stufe", 1), req.roller,
                      schaden=o.get("schaden"), abgewehrt=bool(o.get("abgewehrt")),
                      nach=parse_hex(o["nach"]) if o.get("nach") else None, gegen=_gegen(o.get("gegen")),
                      wuerfel=o.get("würfel"), karte=karte_aus(req.data) if KARTE in req.data else None,
                      daten=req.settings)


def _manoever_vorschau(req: Request) -> Any:
    o = req.options
    return vorschau(req.actors[0], req.targets, str(o.get("manöver", "")), o.get("stufe", 1), o.get("würfel"),
                    daten=req.settings)


_STUFE = (1, 5)    # Manöver: "Stufe 1-2 … Stufe 5"
_W10 = (1, 10)     # a Schwierigkeit is a face of the W10

VERBS = {
    "manöver": Verb("manöver", _manoever, t("kampfwerte.verb_manoever"),
                    ("manoever", "manoeuvre"), "optional",
                    {"manöver": "text", "stufe": "int", "schaden": "dice", "abgewehrt": "flag", "nach": "text",
                     "gegen": "text", "würfel": "int"},
                    example='manöver Kael -> Ork manöver=Finte stufe=2', actors="one", preview=_manoever_vorschau,
                    bounds={"stufe": _STUFE, "würfel": (0, INT_RANGE[1])}),
    "bewege": Verb("bewege", _bewege, t("kampfwerte.verb_bewege"), ("move",), "optional",
                   options={"nach": "text", "art": "text", "schwierigkeit": "int"},
                   example="bewege Kael nach=3,2 art=Schleichen", actors="one", preview=_bewege_vorschau,
                   bounds={"schwierigkeit": _W10}),
    "platziere": Verb("platziere", lambda r: platzieren(r.actors[0], karte_aus(r.data), parse_hex(r.options.get("auf", ""))),
                      t("kampfwerte.verb_platziere"), ("place",), options={"auf": "text"},
                      example="platziere Kael auf=0,0", actors="one"),
    "probe": Verb("probe", _probe, t("kampfwerte.verb_probe"), ("test",),
                  options={"talent": "text", "mod": "int", "schwierigkeit": "int"},
                  example="probe Kael talent=HEIMLICHKEIT mod=1", actors="one", preview=_probe_vorschau,
                  bounds={"schwierigkeit": _W10}),
    "vor": Verb("vor", _vor, t("kampfwerte.verb_vor"), ("before",), "one",
                example="vor Kael -> Ork", actors="one", preview=lambda r: p_vor(r.actors[0], r.targets[0])),
    "bp": Verb("bp", _neue_runde, t("kampfwerte.verb_bp"), ("runde",),
               example="bp Kael, Ork"),
}

