"""The ``%%resolve`` verbs of AdZ: German names, English aliases, Request -> Resolution.

Every procedure gets the GM's data the line's encounter sees (``Request.settings``) as ``daten``.
A preview (``_<verb>_vorschau``) sets the procedure up without rolling and returns its preview.
The luck pool is the open choice ``glück``: offered on the first run (``res.choices``), its
decisions read on the re-run (``Request.decisions``); so is an attack's ``verteidigen`` (whether the
target defends), asked after the attack roll where the line does not decide it.
"""

from __future__ import annotations

from typing import Any, Mapping

from ...messages import Text, t
from rpgkernel.rules.kit import Request, Resolution, Verb
from .combat import angriff, initiative, kampfplan
from .core import Seite, auffuellen, probe, probe_plan, vergleich, vergleich_plan
from .damage import heilung, schaden_nehmen
from .magic import beenden, erneuern, zauberplan, zaubern
from .settings import AdzError, Daten


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
            "v_bonus": "int", "v_malus": "int", "v_beidhändig": "flag", "verteidigt": "flag",
            "keine_verteidigung": "flag", "w_bonus": "int", "distanz": "int", "entfernung": "text", "größe": "text", "entschieden": "flag"}
_FLAGS = {"beidhändig": "beidhaendig", "v_beidhändig": "v_beidhaendig", "keine_verteidigung": "keine_verteidigung"}
_RENAMED = {"größe": "groesse"}


def angriff_args(options: Mapping[str, Any], daten: Daten) -> dict[str, Any]:
    """The keyword arguments of ``combat.kampfplan`` an ``angriff`` line's ``options`` give, with the GM's
    ``daten``."""
    out: dict[str, Any] = {"daten": daten}
    for key, value in options.items():
        if key in _FLAGS:
            out[_FLAGS[key]] = True
        elif key not in ("entschieden", "verteidigt"):
            out[_RENAMED.get(key, key)] = value
    return out


def _defends(req: Request) -> tuple[bool | None, dict[str, Any]]:
    """Whether the target defends, and how: taken with ``verteidigen`` (its ``verteidigung=``) or
    declined; decided on the line by ``verteidigt``, ``verteidigung=`` or ``entschieden``; else None (it
    is asked)."""
    if "verteidigen" in req.decisions:
        taken = req.decisions["verteidigen"]
        art = next((x["verteidigung"] for x in taken if x.get("verteidigung")), None)
        return bool(taken), {"verteidigung": art} if art else {}
    o = req.options
    return (True if o.get("verteidigt") or "verteidigung" in o or o.get("entschieden") else None), {}


_ZAUBER = {"bereich": "text", "technik": "text", "fokus": "text", "effekt": "text", "mw": "int",
           "schwierigkeit": "text", "kp": "int", "stufe": "int", "unterstützung": "text", "bonus": "int",
           "malus": "int", "zulassen": "flag", "rw_attribut": "text", "rw_bonus": "int", "kampf": "flag",
           "würfeln": "flag", "name": "text", "zauberdauer": "text", "parameter": "text", "aufrecht": "flag",
           "entschieden": "flag"}


def _zauber_args(req: Request) -> dict[str, Any]:
    o = dict(req.options)
    out: dict[str, Any] = {k: o[k] for k in ("bereich", "technik", "fokus", "effekt", "mw", "schwierigkeit", "kp",
                                             "stufe", "bonus", "malus", "rw_attribut", "rw_bonus", "name",
                                             "zauberdauer", "parameter") if k in o}
    out.update(unterstuetzung=_names(o.get("unterstützung")), zulassen=bool(o.get("zulassen")),
               kampf=bool(o.get("kampf")), wuerfeln_=bool(o.get("würfeln")),
               ziel=req.targets[0] if req.targets else None, daten=req.settings)
    return out


_KP = {"kp": (0, 10_000)}   # Krafteinsatz: the standard scale reaches 5.000 KP and goes on


# -- the glue: Request -> procedure, Request -> preview --------------------------------
def _probe(req: Request) -> Resolution:
    return probe(req.actors[0], req.roller, glueck=_luck(req), **_probe_args(req))


def _probe_vorschau(req: Request) -> Any:
    return probe_plan(req.actors[0], **_probe_args(req)).res.preview


def _vergleich(req: Request) -> Resolution:
    return vergleich(req.actors[0], req.targets[0], req.roller, *_seiten(req),
                     gleichwertig=bool(req.options.get("gleichwertig")), glueck=_luck(req), daten=req.settings)


def _vergleich_vorschau(req: Request) -> Any:
    plan, _ = vergleich_plan(req.actors[0], req.targets[0], *_seiten(req), bool(req.options.get("gleichwertig")),
                             req.settings)
    return plan.res.preview


def _initiative(req: Request) -> Resolution:
    return initiative(req.actors, req.roller, req.options.get("modifikator", 0), req.settings)


def _angriff(req: Request) -> Resolution:
    defends, how = _defends(req)
    return angriff(req.actors[0], req.targets[0], req.roller, verteidigen=defends, glueck=_luck(req),
                   **{**angriff_args(req.options, req.settings), **how})


def _angriff_vorschau(req: Request) -> Any:
    return kampfplan(req.actors[0], req.targets[0], **angriff_args(req.options, req.settings)).res.preview


def _zauber(req: Request) -> Resolution:
    return zaubern(req.actors[0], req.roller, glueck=_luck(req), aufrecht=bool(req.options.get("aufrecht")),
                   **_zauber_args(req))


def _zauber_vorschau(req: Request) -> Any:
    return zauberplan(req.actors[0], **_zauber_args(req)).test.res.preview


def _erneuern(req: Request) -> Resolution:
    o = req.options
    return erneuern(req.actors[0], req.roller, o.get("kp"), o.get("stufe"), o.get("name"), _luck(req), req.settings)


def _beenden(req: Request) -> Resolution:
    return beenden(req.actors[0], _needs(req, "name"))


def _auffuellen(req: Request) -> Resolution:
    return auffuellen(req.actors, req.options.get("auf"))


def _schaden(req: Request) -> Resolution:
    return schaden_nehmen(req.actors[0], _needs(req, "menge"), req.options.get("leiste", "körperlich"))


def _heilung(req: Request) -> Resolution:
    o = req.options
    return heilung(req.actors[0], _needs(req, "stufen"), o.get("leiste", "körperlich"), o.get("phasen"),
                   bool(o.get("magisch")), req.settings)


def _verbs(*verbs: Verb) -> dict[str, Verb]:
    return {v.name: v for v in verbs}


VERBS: dict[str, Verb] = _verbs(
    Verb("probe", _probe, Text("adz.verb_probe"), ("test",),
         options={**_TEST_OPTIONS, "unterstützung": "text", "schwierigkeit": "text", "verwandt": "int",
                  "zulassen": "flag", "reaktion": "flag", "handlung": "text", "entschieden": "flag"},
         example="probe Alrik attribut=GE fertigkeit=Klettern mw=2", actors="one", preview=_probe_vorschau),
    Verb("vergleich", _vergleich, Text("adz.verb_vergleich"), ("opposed",), "one",
         {**_TEST_OPTIONS, **{f"ziel_{k}": v for k, v in _TEST_OPTIONS.items()}, "gleichwertig": "flag",
          "entschieden": "flag"},
         example="vergleich Alrik -> Ork attribut=KK ziel_attribut=KK gleichwertig", actors="one",
         preview=_vergleich_vorschau),
    Verb("initiative", _initiative, Text("adz.verb_initiative"), ("init",),
         options={"modifikator": "int"}, example="initiative Alrik, Ork, Wolf"),
    Verb("angriff", _angriff, Text("adz.verb_angriff"), ("attack",), "one", _ANGRIFF,
         example="angriff Alrik -> Ork verteidigung=parade", actors="one", bounds={"distanz": (0, 10_000)},
         preview=_angriff_vorschau),
    Verb("zauber", _zauber, Text("adz.verb_zauber"), ("cast",), "optional",
         _ZAUBER, example="zauber Magierin bereich=Feuer technik=erschaffen mw=2 kp=4", actors="one", bounds=_KP,
         preview=_zauber_vorschau),
    Verb("erneuern", _erneuern, Text("adz.verb_erneuern"), ("renew",),
         options={"kp": "int", "stufe": "int", "name": "text", "entschieden": "flag"},
         example="erneuern Magierin kp=2 name=Lichtkugel", actors="one", bounds=_KP),
    Verb("beenden", _beenden, Text("adz.verb_beenden"), ("dismiss",), options={"name": "text"},
         example="beenden Magierin name=Lichtkugel", actors="one"),
    Verb("verteidigen", None, Text("adz.verb_verteidigen"), ("defend",), actors="one",
         options={"verteidigung": "text"}, choice="verteidigen", example="verteidigen Ork verteidigung=parade"),
    Verb("glück", None, Text("adz.verb_glueck"),
         ("luck",), actors="one", options={"wurf": "text"}, choice="glück", example="glück Alrik"),
    Verb("auffüllen", _auffuellen, Text("adz.verb_auffuellen"), ("refill",), options={"auf": "int"},
         example="auffüllen Alrik, Betty"),
    Verb("schaden", _schaden, Text("adz.verb_schaden"), ("damage",),
         options={"menge": "int", "leiste": "text"}, example="schaden Alrik menge=2 leiste=geistig", actors="one"),
    Verb("heilung", _heilung, Text("adz.verb_heilung"), ("heal",),
         options={"stufen": "int", "leiste": "text", "phasen": "int", "magisch": "flag"},
         example="heilung Alrik stufen=1 phasen=2", actors="one"),
)
