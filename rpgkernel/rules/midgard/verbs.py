"""The %%resolve verbs of Midgard: Request -> procedure (German names, English aliases)."""

from __future__ import annotations

from typing import Any

from ...messages import t
from ..resolution import Request, Verb
from .alter import altern
from .angeboren import CHOICE as WAHL
from .angeboren import angeboren
from .belastung import belastung
from .core import MidgardError
from .settings import Einstellungen
from .erschaffung import KAUF, ap_wurf, attributkauf, lp_wurf
from .gnade import CHOICE
from .initiative import abwarten, anfuehrer, eigene, initiative
from .kampf import angriff, volle_abwehr
from .lernen import fertigkeit_lernen
from .proben import ew, pw, ww
from .zauber import OPFER_WM, beschwoerung, beschwoerungslehre, zauber_lernen


def _cfg(req: Request) -> Einstellungen:
    """The GM's tables and choices kept in the campaign (``einrichten``), else the defaults."""
    return req.settings


def _opt(req: Request) -> dict[str, Any]:
    o = req.options
    return {"decisions": req.decisions, "ohne_gnade": bool(o.get("ohne_gnade")), "cfg": _cfg(req)}


def _ew(req: Request, preview: bool = False) -> Any:
    o = req.options
    res = ew(req.actors[0], None if preview else req.roller, fertigkeit=o.get("fertigkeit"), wert=o.get("wert"),
             wm=o.get("wm", 0), **_opt(req))
    return res.preview if preview else res


def _ww(req: Request, preview: bool = False) -> Any:
    o = req.options
    if "gegen" not in o:
        raise MidgardError(t("midgard.ww_needs_against"))
    res = ww(req.actors[0], None if preview else req.roller, gegen=o["gegen"], art=o.get("art", "abwehr"),
             wert=o.get("wert"), wm=o.get("wm", 0), **_opt(req))
    return res.preview if preview else res


def _pw(req: Request, preview: bool = False) -> Any:
    o = req.options
    res = pw(req.actors[0], None if preview else req.roller, eigenschaft=o.get("eigenschaft", "ko"),
             wm=o.get("wm", 0), **_opt(req))
    return res.preview if preview else res


def _angriff(req: Request, preview: bool = False) -> Any:
    o = req.options
    res = angriff(req.actors[0], req.targets[0], None if preview else req.roller, waffe_name=o.get("waffe"),
                  wm=o.get("wm", 0), abwehr_wm_extra=o.get("abwehr_wm", 0), schaden=o.get("schaden"),
                  abwehr_nr=o.get("abwehr_nr"), fernkampf=bool(o.get("fernkampf")),
                  eine_richtung=bool(o.get("eine_richtung")), **_opt(req))
    return res.preview if preview else res


def _names(text: Any) -> list[str]:
    return [n.strip() for n in str(text or "").split(",") if n.strip()]


def _initiative(req: Request, preview: bool = False) -> Any:
    res = initiative(req.actors, None if preview else req.roller, angriffsrang=bool(req.options.get("angriffsrang")))
    return res.preview if preview else res


def _attributkauf(req: Request, preview: bool = False) -> Any:
    o = req.options
    res = attributkauf(req.actors[0], None if preview else req.roller, punkte=o.get("punkte", 0),
                       wahl={k: o[k] for k in KAUF if k in o}, race=o.get("rasse"), cfg=_cfg(req))
    return res.preview if preview else res


def _lp(req: Request, preview: bool = False) -> Any:
    res = lp_wurf(req.actors[0], None if preview else req.roller, race=req.options.get("rasse"), cfg=_cfg(req))
    return res.preview if preview else res


def _ap(req: Request, preview: bool = False) -> Any:
    o = req.options
    res = ap_wurf(req.actors[0], None if preview else req.roller, grad=o.get("grad"), von=o.get("von", 0),
                  race=o.get("rasse"), cfg=_cfg(req))
    return res.preview if preview else res


GNADE = {"ohne_gnade": "flag"}
_ALTER = (0, 2000)   # years: an elf ages ten times slower than a human (the GM's age multiplier)

VERBS = {
    "ew": Verb("ew", _ew, t("midgard.verb_ew"), ("check",),
               options={"fertigkeit": "text", "wert": "int", "wm": "int", **GNADE},
               example="ew Marvelus fertigkeit=Balancieren", actors="one",
               preview=lambda r: _ew(r, True)),
    "ww": Verb("ww", _ww, t("midgard.verb_ww"), ("resist",),
               options={"gegen": "int", "art": "text", "wert": "int", "wm": "int", **GNADE},
               example="ww Schattenelf gegen=23 art=abwehr", actors="one", preview=lambda r: _ww(r, True)),
    "pw": Verb("pw", _pw, t("midgard.verb_pw"), ("attribute",),
               options={"eigenschaft": "text", "wm": "int", **GNADE}, example="pw Marvelus eigenschaft=ko",
               actors="one", preview=lambda r: _pw(r, True)),
    "angriff": Verb("angriff", _angriff, t("midgard.verb_angriff"), ("attack",), "one",
                    {"waffe": "text", "wm": "int", "abwehr_wm": "int", "schaden": "dice", "abwehr_nr": "int",
                     "fernkampf": "flag", "eine_richtung": "flag", **GNADE},
                    example='angriff "Wolfgang Krentz" -> Schattenelf', actors="one",
                    preview=lambda r: _angriff(r, True)),
    "volle_abwehr": Verb("volle_abwehr", lambda r: volle_abwehr(r.actors[0]),
                         t("midgard.verb_volle_abwehr"),
                         ("full_defence",), example="volle_abwehr Schattenelf", actors="one"),
    "initiative": Verb("initiative", _initiative, t("midgard.verb_initiative"), ("init",),
                       options={"angriffsrang": "flag"}, example='initiative Wolfgang, Fritz, Schattenelf',
                       preview=lambda r: _initiative(r, True)),
    "anführer": Verb("anführer", lambda r: anfuehrer(r.actors[0], r.targets), t("midgard.verb_anfuehrer"),
                     ("leader",), "required", example="anführer Wolfgang -> Fritz, Franz", actors="one"),
    "eigene": Verb("eigene", lambda r: eigene(r.actors, bool(r.options.get("dauerhaft"))), t("midgard.verb_eigene"),
                   ("own_initiative",), options={"dauerhaft": "flag"}, example="eigene Fritz"),
    "abwarten": Verb("abwarten", lambda r: abwarten(r.actors), t("midgard.verb_abwarten"), ("hold",),
                     example="abwarten Fritz"),
    "attributkauf": Verb("attributkauf", _attributkauf, t("midgard.verb_attributkauf"), ("buy_attributes",),
                         options={"punkte": "int", "rasse": "text", **{k: "text" for k in KAUF}},
                         example="attributkauf Bilbo rasse=Halbling punkte=8 ge=100", actors="one",
                         preview=lambda r: _attributkauf(r, True)),
    "lp_wurf": Verb("lp_wurf", _lp, t("midgard.verb_lp_wurf"), ("roll_lp",),
                    options={"rasse": "text"}, example="lp_wurf Bilbo", actors="one",
                    preview=lambda r: _lp(r, True)),
    "ap_wurf": Verb("ap_wurf", _ap, t("midgard.verb_ap_wurf"), ("roll_ap",),
                    options={"grad": "int", "von": "int", "rasse": "text"},
                    example="ap_wurf Bilbo grad=12", actors="one", preview=lambda r: _ap(r, True)),
    "lernen": Verb("lernen", lambda r: fertigkeit_lernen(r.actors[0], r.options.get("fertigkeit", ""),
                                                         r.options.get("kategorie", "Standard"),
                                                         von_spielerfigur=bool(r.options.get("von_spielerfigur")),
                                                         cfg=_cfg(r)),
                   t("midgard.verb_lernen"), ("learn",),
                   options={"fertigkeit": "text", "kategorie": "text", "von_spielerfigur": "flag"},
                   example="lernen Marvelus fertigkeit=Balancieren kategorie=Standard", actors="one"),
    "angeboren": Verb("angeboren", lambda r: angeboren(r.actors[0], r.roller, decisions=r.decisions, cfg=_cfg(r)),
                      t("midgard.verb_angeboren"), ("innate",),
                      example="angeboren Bilbo", actors="one",
                      preview=lambda r: angeboren(r.actors[0], None, cfg=_cfg(r)).preview),
    "wahl": Verb("wahl", None, t("midgard.verb_wahl"), ("choose",), actors="one",
                 options={"fähigkeit": "text"}, choice=WAHL, example="wahl Bilbo fähigkeit=Nachtsicht"),
    "altern": Verb("altern", lambda r: altern(r.actors[0], r.roller, bis=r.options.get("bis", 0),
                                              von=r.options.get("von"), angezeigt=r.options.get("angezeigt", 1),
                                              cfg=_cfg(r)),
                   t("midgard.verb_altern"), ("age",),
                   options={"bis": "int", "von": "int", "angezeigt": "int"}, example="altern Marvelus bis=60",
                   actors="one", bounds={"bis": _ALTER, "von": _ALTER, "angezeigt": (1, 100)}),
    "zauber": Verb("zauber", lambda r: zauber_lernen(r.actors[0], _names(r.options.get("sprüche")),
                                                     erschaffung=bool(r.options.get("erschaffung")),
                                                     klasse=r.options.get("klasse"), cfg=_cfg(r)),
                   t("midgard.verb_zauber"),
                   ("spells",), options={"sprüche": "text", "klasse": "text", "erschaffung": "flag"},
                   example="zauber Hexe sprüche='Schmerzen, Zeichen der Macht' erschaffung", actors="one"),
    "beschwörungslehre": Verb("beschwörungslehre", lambda r: beschwoerungslehre(
                                  r.actors[0], r.options.get("ziel", ""), r.options.get("form", "Beschwörung"),
                                  wahl=r.options.get("wahl"), klasse=r.options.get("klasse"), cfg=_cfg(r)),
                              t("midgard.verb_beschwoerungslehre"), ("summoning_lore",),
                              options={"ziel": "text", "form": "text", "wahl": "text", "klasse": "text"},
                              example="beschwörungslehre Priester ziel=Feuer form=Bannzauber wahl=Wasser",
                              actors="one"),
    "beschwörung": Verb("beschwörung", lambda r: beschwoerung(
                            r.actors[0], r.roller, grad=r.options.get("grad", 1), opfer=r.options.get("opfer", 1),
                            fesselung=r.options.get("fesselung"), **_opt(r)),
                        t("midgard.verb_beschwoerung"),
                        ("summon",), options={"grad": "int", "opfer": "int", "fesselung": "int", **GNADE},
                        example="beschwörung Priester grad=4 opfer=2 fesselung=12", actors="one",
                        bounds={"opfer": (min(OPFER_WM), max(OPFER_WM))}),
    "belastung": Verb("belastung", lambda r: belastung(r.actors[0], r.options.get("gewicht", "0")),
                      t("midgard.verb_belastung"), ("load",),
                      options={"gewicht": "text"}, example="belastung Bilbo gewicht=12.5", actors="one"),
    "gnade": Verb("gnade", None, t("midgard.verb_gnade"),
                  ("grace",), actors="one", choice=CHOICE, example="gnade Marvelus"),
}
