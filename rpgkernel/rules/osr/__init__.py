"""OSR combat (seed 001_d04b9d9955bffb89.txt).

Procedures read figures (``sheet``, ``resources``, ``conditions``, ``side``),
roll through a ``Roller`` and return a ``Resolution``; they change nothing
themselves; the GM's settings come from the campaign (``Request.data``,
``core.aus_daten``). Modules: ``core`` (settings, weapons, hit dice, the roll needed),
``initiative`` (surprise, side initiative), ``angriff`` (attacks, modifiers,
fleeing, previews), ``aktionen`` (declared actions, spells, breaking free),
``rettung`` (saving throws); ``data/`` holds the seed's hit-dice table, the
example attack matrix and the example saving-throw tables.
"""

from __future__ import annotations

from . import texts  # noqa: F401 - registers the catalogue before the modules below use it

from collections.abc import Mapping
from typing import Any

from .. import register
from ..base import Ruleset
from ..resolution import Request, Resolution, Verb
from ..sheet import Field, Sheet
from .aktionen import (
    abwarten,
    losreissen,
    parieren,
    rueckzug,
    stemmen,
    verhandeln,
    vorruecken,
    zaubern,
)
from .angriff import angriff, erstschlag, fliehen, plan, vorschau
from .core import (
    SEGMENTE,
    Einstellungen,
    OsrError,
    Waffe,
    angriffsstufe,
    aus_daten,
    einrichten,
    matrix_laden,
    mindestwurf,
    p_treffer,
    rettung_laden,
    schaden_dist,
    standard,
    stufe_aus_tw,
    waffe,
    zauberstufe,
)
from .initiative import (
    initiative_vorschau,
    rang,
    reihenfolge,
    seiten,
    seiteninitiative,
    ueberraschung,
    wuerfeln,
)
from .rettung import rettungsstufe, rettungswurf, rettungsziel

__all__ = [
    "VERBS",
    "Einstellungen",
    "Osr",
    "OsrError",
    "Waffe",
    "abwarten",
    "angriff",
    "angriffsstufe",
    "aus_daten",
    "einrichten",
    "erstschlag",
    "fliehen",
    "initiative_vorschau",
    "losreissen",
    "matrix_laden",
    "mindestwurf",
    "p_treffer",
    "parieren",
    "plan",
    "rang",
    "reihenfolge",
    "rettung_laden",
    "rettungsstufe",
    "rettungswurf",
    "rettungsziel",
    "rueckzug",
    "schaden_dist",
    "seiteninitiative",
    "standard",
    "stemmen",
    "stufe_aus_tw",
    "ueberraschung",
    "verhandeln",
    "vorruecken",
    "vorschau",
    "waffe",
    "zaubern",
    "zauberstufe",
]


class Osr(Ruleset):
    key = "osr"
    title = "OSR – Kampf"
    segments = SEGMENTE
    initiative_each_round = True
    sheet = Sheet({
        "stufe": Field("int", "Stufe (Charaktere)", 0, 40),
        "tw": Field("text", "Trefferwürfel (Monster), z. B. '1+1', '4', '1-1'"),
        "angriffsstufe": Field("int", "Besondere Angriffsstufe (z. B. Blutmücken: 5)", 0, 40),
        "stufe_mod": Field("int", "Anpassung der Angriffsstufe durch die Spielleitung (z. B. +1 erhöhte Position)", -20, 20),
        "klasse": Field("text", "Angriffsmatrix (Standard: Kämpfer; mehrere mit '/': die günstigste)"),
        "rettungsklasse": Field("text", "Rettungswurftabelle (Standard: wie klasse, sonst Kämpfer; mehrere mit '/')"),
        "rettungsstufe_mod": Field("int", "Anpassung der Stufe für Rettungswürfe (z. B. −2 riesig, unintelligent)",
                                   -20, 20),
        "etw0": Field("int", "ETW0 (THAC0): statt der Matrix W20 ≥ ETW0 − RK", -20, 40),
        "ab": Field("int", "Angriffsbonus bei aufsteigender RK", -20, 40),
        "rk": Field("int", "Rüstungsklasse (absteigend: 10 ungerüstet)", -20, 30, required=True),
        "schild": Field("int", "RK-Punkte durch den Schild", 0, 10, default=0),
        "ges_rk": Field("int", "RK-Bonus durch Geschicklichkeit (Punkte; negativ: Abzug)", -10, 10, default=0),
        "tp": Field("int", "Trefferpunkte (Maximum)", 1, 10_000, required=True),
        "angriffsbonus": Field("int", "Stärke- oder Spezialisierungsbonus zum Treffen", -10, 10, default=0),
        "schadensbonus": Field("int", "Stärkebonus auf Schaden", -10, 20, default=0),
        "fernkampfbonus": Field("int", "Geschicklichkeitsbonus für Fernkampf (auch Initiative)", -10, 10,
                                default=0),
        "waffen": Field("list", "Waffen, die erste in der Hand, z. B. 'Speer (W6, Länge 8, Sturm)'"),
        "beritten": Field("bool", "Beritten"),
        "schlachtross": Field("bool", "Kampftrainiertes Reittier (Schlachtross)"),
        "maximal_belastet": Field("bool", "Maximal belastet"),
        "reittier_maximal_belastet": Field("bool", "Reittier maximal belastet"),
    })
    conditions: Mapping[str, str] = {
        "überrascht": "von der Überraschung getroffen (1W6 der Seite)",
        "liegend": "Angriffe +4, kein Schild- und Geschicklichkeitsbonus",
        "betäubt": "Angriffe +4, kein Schild- und Geschicklichkeitsbonus",
        "unsichtbar": "nur mit bekannter Position angreifbar, −4, nicht von hinten oder der Flanke",
        "schläft": "natürlicher Schlaf: Tötungschance wie ein Meuchelmörder (Tabelle der Spielleitung)",
        "festgehalten": "kann nicht kämpfen (Ringen)",
        "zaubert": "kein Geschicklichkeitsbonus; Schaden lässt den Zauber verfallen",
        "stürmt": "kein Geschicklichkeitsbonus (ohne: RK 1 schlechter)",
        "hat gestürmt": "nur ein Sturmangriff alle 10 Runden",
        "gegen Sturm gestemmt": "greift nur einen Stürmenden an, doppelter Schaden",
        "rückt vor": "vorsichtiges Vorrücken: kein Angriff in dieser Runde",
        "kein Angriff": "der Gegner rückt vorsichtig vor: erst nächste Runde angreifen",
        "zieht sich zurück": "kämpfender Rückzug: parieren ja, angreifen nein",
        "pariert": "kein Angriff; Gegner würfeln um den eigenen Angriffsbonus schlechter",
        "flieht": "flieht aus dem Kampf",
        "verhandelt": "verhandelt, um den Kampf abzuwenden oder hinauszuzögern (Ausgang: Spielleitung)",
        "hat gehandelt": "hat in dieser Runde angegriffen: kein Erstschlag gegen einen Sturmangriff mehr",
        "wartet ab": "handelt, nachdem die andere Seite gehandelt hat",
        "tot": "getötet",
    }

    def resources(self, sheet: Mapping[str, Any]) -> dict[str, dict[str, int]]:
        return {"TP": {"value": sheet["tp"], "max": sheet["tp"]}}

    def initiative_rolls(self, combatants: Mapping[str, Mapping[str, Any]], roller: Any,
                         data: Mapping[str, Any] | None = None) -> tuple[dict[str, int], dict[str, Any]]:
        """1W6 per side (Kampf); each figure's value is its side's die (+ missile bonus); ties by
        the GM's settings in ``data``."""
        figures = [{**c, "name": n} for n, c in combatants.items()]
        res, rolls = wuerfeln(figures, roller, aus_daten(data or {}))
        return res.outcome["initiative"], {side: r.to_dict() for side, r in rolls.items()}

    def initiative_order(self, combatants: Mapping[str, Mapping[str, Any]],
                         rolls: Mapping[str, int], roller: Any = None) -> list[str]:
        """The higher value first; a tie keeps the sides together (no roll-off: simultaneous)."""
        figures = [{**c, "name": n} for n, c in combatants.items()]
        return reihenfolge(seiten(figures), rolls)


# -- %%resolve verbs: Request -> Resolution ------------------------------------

def _angriff(req: Request) -> Resolution:
    return angriff(req.actors[0], req.targets, req.roller, req.options, aus_daten(req.data))


def _angriff_vorschau(req: Request) -> Any:
    return vorschau(req.actors[0], req.targets, req.options, aus_daten(req.data))


def _ringen(req: Request) -> Resolution:
    return angriff(req.actors[0], req.targets, req.roller, {**req.options, "ringen": True}, aus_daten(req.data))


def _ringen_vorschau(req: Request) -> Any:
    return vorschau(req.actors[0], req.targets, {**req.options, "ringen": True}, aus_daten(req.data))


def _fliehen(req: Request) -> Resolution:
    return fliehen(req.actors[0], req.targets, req.roller, aus_daten(req.data))


_PROZENT = (0, 100)   # W%: Deckung, Tarnung, Tötungschance, Losreißen
_ANGRIFF_GRENZEN = {"deckung": _PROZENT, "tarnung": _PROZENT, "toetung": _PROZENT}
_ANGRIFF_OPTIONEN = {"waffe": "text", "deckung": "int", "tarnung": "int", "flanke": "flag", "hinten": "flag",
                     "sturmangriff": "flag", "zwei_waffen": "flag", "routine": "flag", "bonus": "int",
                     "position_bekannt": "flag", "sieht_unsichtbar": "flag", "toetung": "int"}

VERBS = {
    "angriff": Verb("angriff", _angriff, "Nah- oder Fernkampfangriff; mehrere Ziele: eines zufällig",
                    ("attack",), "required", _ANGRIFF_OPTIONEN, 'angriff Hauptmann -> "Goblin 1" sturmangriff',
                    "one", preview=_angriff_vorschau, bounds=_ANGRIFF_GRENZEN),
    "ringen": Verb("ringen", _ringen, "Ringen (1W2−1, festgehalten); mit sturmangriff: Überwältigen",
                   ("wrestle",), "required", {k: v for k, v in _ANGRIFF_OPTIONEN.items()
                                              if k not in ("waffe", "zwei_waffen", "routine", "toetung")},
                   'ringen Hauptmann -> "Goblin 2" sturmangriff', "one", preview=_ringen_vorschau,
                   bounds=_ANGRIFF_GRENZEN),
    "fliehen": Verb("fliehen", _fliehen, "Aus dem Kampf fliehen: jeder Gegner greift sofort mit +4 an",
                    ("flee",), "optional", example="fliehen Ork -> Hauptmann", actors="one",
                    preview=lambda r: fliehen(r.actors[0], r.targets, None, aus_daten(r.data)).preview
                    if r.targets else None),
    "überraschung": Verb("überraschung", lambda r: ueberraschung(r.actors, r.roller, aus_daten(r.data),
                                                                r.options.get("bis")),
                         "Überraschung: 1W6 je Seite, überrascht bei 1–2", ("surprise",), options={"bis": "int"},
                         example='überraschung Hauptmann, "Goblin 1"', bounds={"bis": (0, 6)},
                         preview=lambda r: ueberraschung(r.actors, None, aus_daten(r.data),
                                                         r.options.get("bis")).preview),
    "initiative": Verb("initiative", lambda r: seiteninitiative(r.actors, r.roller, aus_daten(r.data)),
                       "Initiative: 1W6 je Seite, Segment nach dem Wurf der anderen Seite", ("init",),
                       example='initiative Hauptmann, "Goblin 1"',
                       preview=lambda r: seiteninitiative(r.actors, None, aus_daten(r.data)).preview),
    "vorrücken": Verb("vorrücken", lambda r: vorruecken(r.actors[0], r.targets),
                      "Vorsichtig vorrücken: kein Angriff, der Gegner auch nicht", ("advance",), "optional",
                      example='vorrücken Hauptmann -> "Goblin 1"', actors="one"),
    "rückzug": Verb("rückzug", lambda r: rueckzug(r.actors[0], r.figures.get(r.options.get("tausch", "")),
                                                  bool(r.options.get("pariert"))),
                    "Kämpfender Rückzug: parieren ja, angreifen nein", ("withdraw",),
                    options={"tausch": "name", "pariert": "flag"}, example="rückzug Hauptmann tausch=Wachmann",
                    actors="one"),
    "parieren": Verb("parieren", lambda r: parieren(r.actors[0]), "Parieren: Gegner um den Angriffsbonus schlechter",
                     ("parry",), example="parieren Hauptmann", actors="one"),
    "verhandeln": Verb("verhandeln", lambda r: verhandeln(r.actors, r.targets),
                       "Verhandeln: den Kampf mit Worten abwenden oder hinauszögern (Ausgang: Spielleitung)", ("parley",),
                       "optional", example="verhandeln Hauptmann -> Ork"),
    "abwarten": Verb("abwarten", lambda r: abwarten(r.actors[0]), "Initiative verzögern", ("delay",),
                     example="abwarten Magier", actors="one"),
    "stemmen": Verb("stemmen", lambda r: stemmen(r.actors[0]), "Waffe gegen einen Sturmangriff positionieren",
                    ("set",), example="stemmen Wachmann", actors="one"),
    "zaubern": Verb("zaubern", lambda r: zaubern(r.actors[0], r.options.get("spruch") or "Zauber",
                                                 r.options.get("zeit", 1), r.options.get("segment", 1)),
                    "Zauber beginnen (im eigenen Segment, Zauberzeit in Segmenten)", ("cast",),
                    options={"spruch": "text", "zeit": "int", "segment": "int"},
                    example="zaubern Magier spruch=Schlaf zeit=1 segment=3", actors="one",
                    bounds={"segment": (1, SEGMENTE), "zeit": (0, 1000)}),
    "rettungswurf": Verb("rettungswurf", lambda r: rettungswurf(r.actors[0], r.options.get("kategorie"), r.roller,
                                                                aus_daten(r.data), r.options.get("bonus", 0)),
                         "Rettungswurf nach der Tabelle der Spielleitung (W20 ≥ Wert der Kategorie)", ("save",),
                         options={"kategorie": "text", "bonus": "int"},
                         example="rettungswurf Ork kategorie=Gift", actors="one",
                         preview=lambda r: rettungswurf(r.actors[0], r.options.get("kategorie"), None,
                                                        aus_daten(r.data), r.options.get("bonus", 0)).preview),
    "losreißen": Verb("losreißen", lambda r: losreissen(r.actors[0], r.options.get("chance", 0), r.roller),
                      "Sich aus dem Griff befreien (Chance nach relativer Stärke, W%)", ("break",),
                      options={"chance": "int"}, example='losreißen "Goblin 2" chance=30', actors="one",
                      bounds={"chance": _PROZENT},
                      preview=lambda r: losreissen(r.actors[0], r.options.get("chance", 0), None).preview),
}
Osr.verbs = VERBS

register(Osr())
