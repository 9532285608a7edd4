"""The ``%%resolve`` verbs of AdZ: German names, English aliases, Request -> Resolution.

Every procedure gets the GM's data the line's encounter sees (``Request.settings``) as ``daten``.
"""

from __future__ import annotations

from typing import Any

from ...messages import t
from ..resolution import Request, Verb
from .combat import angriff, initiative, kampfplan
from .core import Seite, auffuellen, probe, probe_plan, vergleich, vergleich_plan
from .damage import heilung, schaden_nehmen
from .magic import beenden, erneuern, zauberplan, zaubern
from .data import AdzError


def _luck(req: Request) -> list[dict[str, Any]] | None:
    """The luck decisions: None on a first run (the luck pool may be offered), else the list taken."""
    if "glück" in req.decisions:
        return list(req.decisions["glück"])
    return [] if req.options.get("entschieden") else None


def _names(value: Any) -> list[str]:
    """``Reiten+Klettern`` -> ["Reiten", "Klettern"]."""
    return [x.strip() for x in str(value).split("+") if x.strip()] if value else []


def _needs(req: Request, key: str) -> Any:
    if key not in req.options:
        raise AdzError(t("adz.needs_option", option=key))
    return req.options[key]


_PROBE = ("attribut", "fertigkeit", "spezialisierung", "bonus", "malus", "mw", "schwierigkeit", "verwandt",
          "handlung")


def _probe_args(req: Request) -> dict[str, Any]:
    o = req.options
    args = {k: o[k] for k in _PROBE if k in o}
    return {**args, "unterstuetzung": _names(o.get("unterstützung")), "zulassen": bool(o.get("zulassen")),
            "reaktion_": bool(o.get("reaktion")), "daten": req.settings}


def _seiten(req: Request) -> tuple[Seite, Seite]:
    o = req.options
    keys = ("attribut", "fertigkeit", "spezialisierung", "bonus", "malus", "mw")
    return (Seite(**{k: o[k] for k in keys if k in o}),
            Seite(**{k: o[f"ziel_{k}"] for k in keys if f"ziel_{k}" in o}))


_TEST_OPTIONS = {"attribut": "text", "fertigkeit": "text", "spezialisierung": "text", "bonus": "int", "malus": "int",
                 "mw": "int"}


_ANGRIFF = {"waffe": "text", "spezialisierung": "text", "mw": "int", "bonus": "int", "malus": "int",
            "beidhändig": "flag", "zweitwaffe": "text", "verteidigung": "text", "v_waffe": "text",
            "v_bonus": "int", "v_malus": "int", "v_beidhändig": "flag", "keine_verteidigung": "flag",
            "w_bonus": "int", "distanz": "int", "entfernung": "text", "größe": "text", "entschieden": "flag"}
_FLAGS = {"beidhändig": "beidhaendig", "v_beidhändig": "v_beidhaendig", "keine_verteidigung": "keine_verteidigung"}
_RENAMED = {"größe": "groesse"}


def _angriff_args(req: Request) -> dict[str, Any]:
    out: dict[str, Any] = {"daten": req.settings}
    for key, value in req.options.items():
        if key in _FLAGS:
            out[_FLAGS[key]] = True
        elif key != "entschieden":
            out[_RENAMED.get(key, key)] = value
    return out


_ZAUBER = {"bereich": "text", "technik": "text", "fokus": "text", "effekt": "text", "mw": "int",
           "schwierigkeit": "text", "kp": "int", "stufe": "int", "unterstützung": "text", "bonus": "int",
           "malus": "int", "zulassen": "flag", "rw_attribut": "text", "rw_bonus": "int", "kampf": "flag",
           "würfeln": "flag", "name": "text", "zauberdauer": "text", "aufrecht": "flag", "entschieden": "flag"}


def _zauber_args(req: Request) -> dict[str, Any]:
    o = dict(req.options)
    out: dict[str, Any] = {k: o[k] for k in ("bereich", "technik", "fokus", "effekt", "mw", "schwierigkeit", "kp",
                                             "stufe", "bonus", "malus", "rw_attribut", "rw_bonus", "name",
                                             "zauberdauer") if k in o}
    out.update(unterstuetzung=_names(o.get("unterstützung")), zulassen=bool(o.get("zulassen")),
               kampf=bool(o.get("kampf")), wuerfeln_=bool(o.get("würfeln")),
               ziel=req.targets[0] if req.targets else None, daten=req.settings)
    return out


_KP = {"kp": (0, 10_000)}   # Krafteinsatz: the standard scale reaches 5.000 KP and goes on


def _verbs(*verbs: Verb) -> dict[str, Verb]:
    return {v.name: v for v in verbs}


VERBS: dict[str, Verb] = _verbs(
    Verb("probe", lambda r: probe(r.actors[0], r.roller, glueck=_luck(r), **_probe_args(r)),
         t("adz.verb_probe"), ("test",),
         options={**_TEST_OPTIONS, "unterstützung": "text", "schwierigkeit": "text", "verwandt": "int",
                  "zulassen": "flag", "reaktion": "flag", "handlung": "text", "entschieden": "flag"},
         example="probe Alrik attribut=GE fertigkeit=Klettern mw=2", actors="one",
         preview=lambda r: probe_plan(r.actors[0], **_probe_args(r)).res.preview),
    Verb("vergleich", lambda r: vergleich(r.actors[0], r.targets[0], r.roller, *_seiten(r),
                                          gleichwertig=bool(r.options.get("gleichwertig")), glueck=_luck(r),
                                          daten=r.settings),
         t("adz.verb_vergleich"), ("opposed",), "one",
         {**_TEST_OPTIONS, **{f"ziel_{k}": v for k, v in _TEST_OPTIONS.items()}, "gleichwertig": "flag",
          "entschieden": "flag"},
         example="vergleich Alrik -> Ork attribut=KK ziel_attribut=KK gleichwertig", actors="one",
         preview=lambda r: vergleich_plan(r.actors[0], r.targets[0], *_seiten(r),
                                          bool(r.options.get("gleichwertig")), r.settings)[0].res.preview),
    Verb("initiative", lambda r: initiative(r.actors, r.roller, r.options.get("modifikator", 0), r.settings),
         t("adz.verb_initiative"), ("init",),
         options={"modifikator": "int"}, example="initiative Alrik, Ork, Wolf"),
    Verb("angriff", lambda r: angriff(r.actors[0], r.targets[0], r.roller, glueck=_luck(r), **_angriff_args(r)),
         t("adz.verb_angriff"), ("attack",), "one", _ANGRIFF,
         example="angriff Alrik -> Ork verteidigung=parade", actors="one", bounds={"distanz": (0, 10_000)},
         preview=lambda r: kampfplan(r.actors[0], r.targets[0], **_angriff_args(r)).res.preview),
    Verb("zauber", lambda r: zaubern(r.actors[0], r.roller, glueck=_luck(r), aufrecht=bool(r.options.get("aufrecht")),
                                     **_zauber_args(r)),
         t("adz.verb_zauber"), ("cast",), "optional",
         _ZAUBER, example="zauber Magierin bereich=Feuer technik=erschaffen mw=2 kp=4", actors="one", bounds=_KP,
         preview=lambda r: zauberplan(r.actors[0], **_zauber_args(r)).test.res.preview),
    Verb("erneuern", lambda r: erneuern(r.actors[0], r.roller, r.options.get("kp"), r.options.get("stufe"),
                                        r.options.get("name"), _luck(r), r.settings),
         t("adz.verb_erneuern"), ("renew",),
         options={"kp": "int", "stufe": "int", "name": "text", "entschieden": "flag"},
         example="erneuern Magierin kp=2 name=Lichtkugel", actors="one", bounds=_KP),
    Verb("beenden", lambda r: beenden(r.actors[0], _needs(r, "name")),
         t("adz.verb_beenden"), ("dismiss",), options={"name": "text"},
         example="beenden Magierin name=Lichtkugel", actors="one"),
    Verb("glück", None, t("adz.verb_glueck"),
         ("luck",), actors="one", options={"wurf": "text"}, choice="glück", example="glück Alrik"),
    Verb("auffüllen", lambda r: auffuellen(r.actors, r.options.get("auf")),
         t("adz.verb_auffuellen"), ("refill",), options={"auf": "int"},
         example="auffüllen Alrik, Betty"),
    Verb("schaden", lambda r: schaden_nehmen(r.actors[0], _needs(r, "menge"), r.options.get("leiste", "körperlich")),
         t("adz.verb_schaden"), ("damage",),
         options={"menge": "int", "leiste": "text"}, example="schaden Alrik menge=2 leiste=geistig", actors="one"),
    Verb("heilung", lambda r: heilung(r.actors[0], _needs(r, "stufen"), r.options.get("leiste", "körperlich"),
                                      r.options.get("phasen"), bool(r.options.get("magisch")), r.settings),
         t("adz.verb_heilung"), ("heal",),
         options={"stufen": "int", "leiste": "text", "phasen": "int", "magisch": "flag"},
         example="heilung Alrik stufen=1 phasen=2", actors="one"),
)

