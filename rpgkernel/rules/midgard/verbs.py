"""The %%resolve verbs of Midgard: Request -> procedure (German names, English aliases).

Each verb with a preview has its ``_<verb>_vorschau`` beside its procedure: both read the line's
options the same way and the rule module computes the preview the procedure records. The GM's
tables and choices are ``Request.settings`` (kept in the campaign with ``einrichten``, else the
defaults).
"""

from __future__ import annotations

from typing import Any

from ...messages import Text, t
from rpgkernel.rules.kit import Request, Resolution, Verb
from .alter import altern
from .angeboren import CHOICE as WAHL
from .angeboren import angeboren, angeboren_vorschau
from .belastung import belastung
from .core import MidgardError
from .erschaffung import KAUF, ap_wurf, ap_wurf_vorschau, attributkauf, attributkauf_vorschau, lp_wurf, lp_wurf_vorschau
from .gnade import CHOICE
from .initiative import abwarten, anfuehrer, eigene, initiative, initiative_vorschau
from .kampf import angriff, angriffslage, volle_abwehr
from .lernen import fertigkeit_lernen
from .proben import ew, ew_vorschau, pw, pw_vorschau, ww, ww_vorschau
from .zauber import OPFER_WM, beschwoerung, beschwoerungslehre, zauber_lernen


def _opt(req: Request) -> dict[str, Any]:
    """What a procedure with rolls open to divine grace takes besides its options."""
    return {"decisions": req.decisions, "ohne_gnade": bool(req.options.get("ohne_gnade")), "cfg": req.settings}


# -- EW, WW, PW ------------------------------------------------------------------------
def _ew_optionen(req: Request) -> dict[str, Any]:
    o = req.options
    return {"fertigkeit": o.get("fertigkeit"), "wert": o.get("wert"), "wm": o.get("wm", 0)}


def _ew(req: Request) -> Resolution:
    return ew(req.actors[0], req.roller, **_ew_optionen(req), **_opt(req))


def _ew_vorschau(req: Request) -> Any:
    return ew_vorschau(req.actors[0], **_ew_optionen(req), cfg=req.settings)


def _ww_optionen(req: Request) -> dict[str, Any]:
    o = req.options
    if "gegen" not in o:
        raise MidgardError(t("midgard.ww_needs_against"))
    return {"gegen": o["gegen"], "art": o.get("art", "abwehr"), "wert": o.get("wert"), "wm": o.get("wm", 0)}


def _ww(req: Request) -> Resolution:
    return ww(req.actors[0], req.roller, **_ww_optionen(req), **_opt(req))


def _ww_vorschau(req: Request) -> Any:
    return ww_vorschau(req.actors[0], **_ww_optionen(req), cfg=req.settings)


def _pw_optionen(req: Request) -> dict[str, Any]:
    return {"eigenschaft": req.options.get("eigenschaft", "ko"), "wm": req.options.get("wm", 0)}


def _pw(req: Request) -> Resolution:
    return pw(req.actors[0], req.roller, **_pw_optionen(req), **_opt(req))


def _pw_vorschau(req: Request) -> Any:
    return pw_vorschau(req.actors[0], **_pw_optionen(req))


# -- the fight -------------------------------------------------------------------------
def _angriff_optionen(req: Request) -> dict[str, Any]:
    o = req.options
    return {"waffe_name": o.get("waffe"), "wm": o.get("wm", 0), "abwehr_wm_extra": o.get("abwehr_wm", 0),
            "schaden": o.get("schaden"), "abwehr_nr": o.get("abwehr_nr"), "fernkampf": bool(o.get("fernkampf")),
            "eine_richtung": bool(o.get("eine_richtung"))}


def _angriff(req: Request) -> Resolution:
    return angriff(req.actors[0], req.targets[0], req.roller, **_angriff_optionen(req), **_opt(req))


def _angriff_vorschau(req: Request) -> Any:
    return angriffslage(req.actors[0], req.targets[0], **_angriff_optionen(req), cfg=req.settings).vorschau()


def _volle_abwehr(r: Request) -> Resolution:
    return volle_abwehr(r.actors[0])


def _anfuehrer(r: Request) -> Resolution:
    return anfuehrer(r.actors[0], r.targets)


def _abwarten(r: Request) -> Resolution:
    return abwarten(r.actors)


def _initiative(req: Request) -> Resolution:
    return initiative(req.actors, req.roller, angriffsrang=bool(req.options.get("angriffsrang")))


def _initiative_vorschau(req: Request) -> Any:
    return initiative_vorschau(req.actors, angriffsrang=bool(req.options.get("angriffsrang")))


def _eigene(req: Request) -> Resolution:
    return eigene(req.actors, bool(req.options.get("dauerhaft")))


# -- creation and advancement ----------------------------------------------------------
def _attributkauf_optionen(req: Request) -> dict[str, Any]:
    o = req.options
    return {"punkte": o.get("punkte", 0), "wahl": {k: o[k] for k in KAUF if k in o}, "race": o.get("rasse"),
            "cfg": req.settings}


def _attributkauf(req: Request) -> Resolution:
    return attributkauf(req.actors[0], req.roller, **_attributkauf_optionen(req))


def _attributkauf_vorschau(req: Request) -> Any:
    return attributkauf_vorschau(req.actors[0], **_attributkauf_optionen(req))


def _lp_wurf(req: Request) -> Resolution:
    return lp_wurf(req.actors[0], req.roller, race=req.options.get("rasse"), cfg=req.settings)


def _lp_wurf_vorschau(req: Request) -> Any:
    return lp_wurf_vorschau(req.actors[0], race=req.options.get("rasse"), cfg=req.settings)


def _ap_wurf_optionen(req: Request) -> dict[str, Any]:
    o = req.options
    return {"grad": o.get("grad"), "von": o.get("von", 0), "race": o.get("rasse"), "cfg": req.settings}


def _ap_wurf(req: Request) -> Resolution:
    return ap_wurf(req.actors[0], req.roller, **_ap_wurf_optionen(req))


def _ap_wurf_vorschau(req: Request) -> Any:
    return ap_wurf_vorschau(req.actors[0], **_ap_wurf_optionen(req))


def _lernen(req: Request) -> Resolution:
    o = req.options
    return fertigkeit_lernen(req.actors[0], o.get("fertigkeit", ""), o.get("kategorie", "Standard"),
                             von_spielerfigur=bool(o.get("von_spielerfigur")), cfg=req.settings)


def _angeboren(req: Request) -> Resolution:
    return angeboren(req.actors[0], req.roller, decisions=req.decisions, cfg=req.settings)


def _angeboren_vorschau(req: Request) -> Any:
    return angeboren_vorschau(req.settings)


def _altern(req: Request) -> Resolution:
    o = req.options
    return altern(req.actors[0], req.roller, bis=o.get("bis", 0), von=o.get("von"), angezeigt=o.get("angezeigt", 1),
                  cfg=req.settings)


# -- spells, summonings, load ----------------------------------------------------------
def _names(text: Any) -> list[str]:
    return [n.strip() for n in str(text or "").split(",") if n.strip()]


def _zauber(req: Request) -> Resolution:
    o = req.options
    return zauber_lernen(req.actors[0], _names(o.get("sprüche")), erschaffung=bool(o.get("erschaffung")),
                         klasse=o.get("klasse"), cfg=req.settings)


def _beschwoerungslehre(req: Request) -> Resolution:
    o = req.options
    return beschwoerungslehre(req.actors[0], o.get("ziel", ""), o.get("form", "Beschwörung"), wahl=o.get("wahl"),
                              klasse=o.get("klasse"), cfg=req.settings)


def _beschwoerung(req: Request) -> Resolution:
    o = req.options
    return beschwoerung(req.actors[0], req.roller, grad=o.get("grad", 1), opfer=o.get("opfer", 1),
                        fesselung=o.get("fesselung"), **_opt(req))


def _belastung(req: Request) -> Resolution:
    return belastung(req.actors[0], req.options.get("gewicht", "0"))


GNADE = {"ohne_gnade": "flag"}
_ALTER = (0, 2000)   # years: an elf ages ten times slower than a human (the GM's age multiplier)

VERBS = {
    "ew": Verb("ew", _ew, Text("midgard.verb_ew"), ("check",),
               options={"fertigkeit": "text", "wert": "int", "wm": "int", **GNADE},
               example="ew Marvelus fertigkeit=Balancieren", actors="one", preview=_ew_vorschau),
    "ww": Verb("ww", _ww, Text("midgard.verb_ww"), ("resist",),
               options={"gegen": "int", "art": "text", "wert": "int", "wm": "int", **GNADE},
               example="ww Schattenelf gegen=23 art=abwehr", actors="one", preview=_ww_vorschau),
    "pw": Verb("pw", _pw, Text("midgard.verb_pw"), ("attribute",),
               options={"eigenschaft": "text", "wm": "int", **GNADE}, example="pw Marvelus eigenschaft=ko",
               actors="one", preview=_pw_vorschau),
    "angriff": Verb("angriff", _angriff, Text("midgard.verb_angriff"), ("attack",), "one",
                    {"waffe": "text", "wm": "int", "abwehr_wm": "int", "schaden": "dice", "abwehr_nr": "int",
                     "fernkampf": "flag", "eine_richtung": "flag", **GNADE},
                    example='angriff "Wolfgang Krentz" -> Schattenelf', actors="one", preview=_angriff_vorschau),
    "volle_abwehr": Verb("volle_abwehr", _volle_abwehr, Text("midgard.verb_volle_abwehr"),
                         ("full_defence",), example="volle_abwehr Schattenelf", actors="one"),
    "initiative": Verb("initiative", _initiative, Text("midgard.verb_initiative"), ("init",),
                       options={"angriffsrang": "flag"}, example='initiative Wolfgang, Fritz, Schattenelf',
                       preview=_initiative_vorschau),
    "anführer": Verb("anführer", _anfuehrer, Text("midgard.verb_anfuehrer"),
                     ("leader",), "required", example="anführer Wolfgang -> Fritz, Franz", actors="one"),
    "eigene": Verb("eigene", _eigene, Text("midgard.verb_eigene"), ("own_initiative",), options={"dauerhaft": "flag"},
                   example="eigene Fritz"),
    "abwarten": Verb("abwarten", _abwarten, Text("midgard.verb_abwarten"), ("hold",),
                     example="abwarten Fritz"),
    "attributkauf": Verb("attributkauf", _attributkauf, Text("midgard.verb_attributkauf"), ("buy_attributes",),
                         options={"punkte": "int", "rasse": "text", **{k: "text" for k in KAUF}},
                         example="attributkauf Bilbo rasse=Halbling punkte=8 ge=100", actors="one",
                         preview=_attributkauf_vorschau),
    "lp_wurf": Verb("lp_wurf", _lp_wurf, Text("midgard.verb_lp_wurf"), ("roll_lp",),
                    options={"rasse": "text"}, example="lp_wurf Bilbo", actors="one", preview=_lp_wurf_vorschau),
    "ap_wurf": Verb("ap_wurf", _ap_wurf, Text("midgard.verb_ap_wurf"), ("roll_ap",),
                    options={"grad": "int", "von": "int", "rasse": "text"},
                    example="ap_wurf Bilbo grad=12", actors="one", preview=_ap_wurf_vorschau),
    "lernen": Verb("lernen", _lernen, Text("midgard.verb_lernen"), ("learn",),
                   options={"fertigkeit": "text", "kategorie": "text", "von_spielerfigur": "flag"},
                   example="lernen Marvelus fertigkeit=Balancieren kategorie=Standard", actors="one"),
    "angeboren": Verb("angeboren", _angeboren, Text("midgard.verb_angeboren"), ("innate",),
                      example="angeboren Bilbo", actors="one", preview=_angeboren_vorschau),
    "wahl": Verb("wahl", None, Text("midgard.verb_wahl"), ("choose",), actors="one",
                 options={"fähigkeit": "text"}, choice=WAHL, example="wahl Bilbo fähigkeit=Nachtsicht"),
    "altern": Verb("altern", _altern, Text("midgard.verb_altern"), ("age",),
                   options={"bis": "int", "von": "int", "angezeigt": "int"}, example="altern Marvelus bis=60",
                   actors="one", bounds={"bis": _ALTER, "von": _ALTER, "angezeigt": (1, 100)}),
    "zauber": Verb("zauber", _zauber, Text("midgard.verb_zauber"), ("spells",),
                   options={"sprüche": "text", "klasse": "text", "erschaffung": "flag"},
                   example="zauber Hexe sprüche='Schmerzen, Zeichen der Macht' erschaffung", actors="one"),
    "beschwörungslehre": Verb("beschwörungslehre", _beschwoerungslehre, Text("midgard.verb_beschwoerungslehre"),
                              ("summoning_lore",),
                              options={"ziel": "text", "form": "text", "wahl": "text", "klasse": "text"},
                              example="beschwörungslehre Priester ziel=Feuer form=Bannzauber wahl=Wasser",
                              actors="one"),
    "beschwörung": Verb("beschwörung", _beschwoerung, Text("midgard.verb_beschwoerung"), ("summon",),
                        options={"grad": "int", "opfer": "int", "fesselung": "int", **GNADE},
                        example="beschwörung Priester grad=4 opfer=2 fesselung=12", actors="one",
                        bounds={"opfer": (min(OPFER_WM), max(OPFER_WM))}),
    "belastung": Verb("belastung", _belastung, Text("midgard.verb_belastung"), ("load",),
                      options={"gewicht": "text"}, example="belastung Bilbo gewicht=12.5", actors="one"),
    "gnade": Verb("gnade", None, Text("midgard.verb_gnade"), ("grace",), actors="one", choice=CHOICE,
                  example="gnade Marvelus"),
}
