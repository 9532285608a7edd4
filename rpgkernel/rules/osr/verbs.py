"""The ``%%resolve`` verbs of OSR combat: Request -> Resolution."""

from __future__ import annotations

from typing import Any

from ...messages import Text
from rpgkernel.rules.kit import Request, Resolution, Verb
from .aktionen import (abwarten, losreissen, losreissen_vorschau, parieren, rueckzug, stemmen, verhandeln,
                       vorruecken, zaubern)
from .angriff import angriff, flucht_vorschau, fliehen, vorschau
from .core import SEGMENTE
from .initiative import initiative_vorschau, seiten, seiteninitiative, ueberraschung, ueberraschung_vorschau
from .rettung import rettung_vorschau, rettungswurf


def _angriff(req: Request) -> Resolution:
    return angriff(req.actors[0], req.targets, req.roller, req.options, req.settings)


def _angriff_vorschau(req: Request) -> Any:
    return vorschau(req.actors[0], req.targets, req.options, req.settings)


def _ringen(req: Request) -> Resolution:
    return angriff(req.actors[0], req.targets, req.roller, {**req.options, "ringen": True}, req.settings)


def _ringen_vorschau(req: Request) -> Any:
    return vorschau(req.actors[0], req.targets, {**req.options, "ringen": True}, req.settings)


def _fliehen(req: Request) -> Resolution:
    return fliehen(req.actors[0], req.targets, req.roller, req.settings)


def _fliehen_vorschau(req: Request) -> Any:
    return flucht_vorschau(req.actors[0], req.targets, req.settings) if req.targets else None


def _ueberraschung(req: Request) -> Resolution:
    return ueberraschung(req.actors, req.roller, req.settings, req.options.get("bis"))


def _ueberraschung_vorschau(req: Request) -> Any:
    return ueberraschung_vorschau(req.actors, req.settings, req.options.get("bis"))


def _initiative(req: Request) -> Resolution:
    return seiteninitiative(req.actors, req.roller, req.settings)


def _initiative_vorschau(req: Request) -> Any:
    return initiative_vorschau(seiten(req.actors), req.settings)


def _vorruecken(req: Request) -> Resolution:
    return vorruecken(req.actors[0], req.targets)


def _rueckzug(req: Request) -> Resolution:
    return rueckzug(req.actors[0], req.figures.get(req.options.get("tausch", "")), bool(req.options.get("pariert")))


def _parieren(req: Request) -> Resolution:
    return parieren(req.actors[0])


def _verhandeln(req: Request) -> Resolution:
    return verhandeln(req.actors, req.targets)


def _abwarten(req: Request) -> Resolution:
    return abwarten(req.actors[0])


def _stemmen(req: Request) -> Resolution:
    return stemmen(req.actors[0])


def _zaubern(req: Request) -> Resolution:
    o = req.options
    return zaubern(req.actors[0], o.get("spruch") or "Zauber", o.get("zeit", 1), o.get("segment", 1))


def _rettungswurf(req: Request) -> Resolution:
    o = req.options
    return rettungswurf(req.actors[0], o.get("kategorie"), req.roller, req.settings, o.get("bonus", 0))


def _rettungswurf_vorschau(req: Request) -> Any:
    o = req.options
    return rettung_vorschau(req.actors[0], o.get("kategorie"), req.settings, o.get("bonus", 0))


def _losreissen(req: Request) -> Resolution:
    return losreissen(req.actors[0], req.options.get("chance", 0), req.roller)


def _losreissen_vorschau(req: Request) -> Any:
    return losreissen_vorschau(req.actors[0], req.options.get("chance", 0))


_PROZENT = (0, 100)   # W%: Deckung, Tarnung, Tötungschance, Losreißen
_ANGRIFF_GRENZEN = {"deckung": _PROZENT, "tarnung": _PROZENT, "toetung": _PROZENT}
_ANGRIFF_OPTIONEN = {"waffe": "text", "deckung": "int", "tarnung": "int", "flanke": "flag", "hinten": "flag",
                     "sturmangriff": "flag", "zwei_waffen": "flag", "routine": "flag", "bonus": "int",
                     "position_bekannt": "flag", "sieht_unsichtbar": "flag", "toetung": "int"}

VERBS = {
    "angriff": Verb("angriff", _angriff, Text("osr.verb_angriff"),
                    ("attack",), "required", _ANGRIFF_OPTIONEN, 'angriff Hauptmann -> "Goblin 1" sturmangriff',
                    "one", preview=_angriff_vorschau, bounds=_ANGRIFF_GRENZEN),
    "ringen": Verb("ringen", _ringen, Text("osr.verb_ringen"),
                   ("wrestle",), "required", {k: v for k, v in _ANGRIFF_OPTIONEN.items()
                                              if k not in ("waffe", "zwei_waffen", "routine", "toetung")},
                   'ringen Hauptmann -> "Goblin 2" sturmangriff', "one", preview=_ringen_vorschau,
                   bounds=_ANGRIFF_GRENZEN),
    "fliehen": Verb("fliehen", _fliehen, Text("osr.verb_fliehen"),
                    ("flee",), "optional", example="fliehen Ork -> Hauptmann", actors="one",
                    preview=_fliehen_vorschau),
    "überraschung": Verb("überraschung", _ueberraschung, Text("osr.verb_ueberraschung"), ("surprise",),
                         options={"bis": "int"}, example='überraschung Hauptmann, "Goblin 1"', bounds={"bis": (0, 6)},
                         preview=_ueberraschung_vorschau),
    "initiative": Verb("initiative", _initiative, Text("osr.verb_initiative"), ("init",),
                       example='initiative Hauptmann, "Goblin 1"', preview=_initiative_vorschau),
    "vorrücken": Verb("vorrücken", _vorruecken, Text("osr.verb_vorruecken"), ("advance",), "optional",
                      example='vorrücken Hauptmann -> "Goblin 1"', actors="one"),
    "rückzug": Verb("rückzug", _rueckzug, Text("osr.verb_rueckzug"), ("withdraw",),
                    options={"tausch": "name", "pariert": "flag"}, example="rückzug Hauptmann tausch=Wachmann",
                    actors="one"),
    "parieren": Verb("parieren", _parieren, Text("osr.verb_parieren"), ("parry",), example="parieren Hauptmann",
                     actors="one"),
    "verhandeln": Verb("verhandeln", _verhandeln, Text("osr.verb_verhandeln"), ("parley",), "optional",
                       example="verhandeln Hauptmann -> Ork"),
    "abwarten": Verb("abwarten", _abwarten, Text("osr.verb_abwarten"), ("delay",), example="abwarten Magier",
                     actors="one"),
    "stemmen": Verb("stemmen", _stemmen, Text("osr.verb_stemmen"), ("set",), example="stemmen Wachmann",
                    actors="one"),
    "zaubern": Verb("zaubern", _zaubern, Text("osr.verb_zaubern"), ("cast",),
                    options={"spruch": "text", "zeit": "int", "segment": "int"},
                    example="zaubern Magier spruch=Schlaf zeit=1 segment=3", actors="one",
                    bounds={"segment": (1, SEGMENTE), "zeit": (0, 1000)}),
    "rettungswurf": Verb("rettungswurf", _rettungswurf, Text("osr.verb_rettungswurf"), ("save",),
                         options={"kategorie": "text", "bonus": "int"},
                         example="rettungswurf Ork kategorie=Gift", actors="one", preview=_rettungswurf_vorschau),
    "losreißen": Verb("losreißen", _losreissen, Text("osr.verb_losreissen"), ("break",),
                      options={"chance": "int"}, example='losreißen "Goblin 2" chance=30', actors="one",
                      bounds={"chance": _PROZENT}, preview=_losreissen_vorschau),
}
