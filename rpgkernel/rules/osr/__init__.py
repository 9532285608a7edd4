"""OSR combat (seed 001_d04b9d9955bffb89.txt).

Procedures read figures (``sheet``, ``resources``, ``conditions``, ``side``),
roll through a ``Roller`` and return a ``Resolution``; they change nothing
themselves; the GM's settings come from the campaign (``Request.settings``,
``EINSTELLUNGEN``). Modules: ``core`` (settings, weapons, hit dice, the roll needed),
``initiative`` (surprise, side initiative), ``angriff`` (attacks, modifiers,
fleeing, previews), ``aktionen`` (declared actions, spells, breaking free),
``rettung`` (saving throws); ``data/`` holds the seed's hit-dice table, the
example attack matrix and the example saving-throw tables.
"""

from __future__ import annotations

from . import texts  # noqa: F401 - registers the catalogue before the modules below use it

from collections.abc import Mapping
from typing import Any

from ...messages import t
from ..base import Ruleset
from ..figure import view
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
    EINSTELLUNGEN,
    SEGMENTE,
    Einstellungen,
    OsrError,
    Waffe,
    angriffsstufe,
    einrichten,
    matrix_laden,
    mindestwurf,
    p_treffer,
    rettung_laden,
    schaden_dist,
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
    "EINSTELLUNGEN",
    "VERBS",
    "Einstellungen",
    "Osr",
    "OsrError",
    "Waffe",
    "abwarten",
    "angriff",
    "angriffsstufe",
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
    title = t("osr.title")
    segments = SEGMENTE
    initiative_each_round = True
    settings = EINSTELLUNGEN
    sheet = Sheet({
        "stufe": Field("int", t("osr.field_stufe"), 0, 40),
        "tw": Field("text", t("osr.field_tw")),
        "angriffsstufe": Field("int", t("osr.field_angriffsstufe"), 0, 40),
        "stufe_mod": Field("int", t("osr.field_stufe_mod"), -20, 20),
        "klasse": Field("text", t("osr.field_klasse")),
        "rettungsklasse": Field("text", t("osr.field_rettungsklasse")),
        "rettungsstufe_mod": Field("int", t("osr.field_rettungsstufe_mod"),
                                   -20, 20),
        "etw0": Field("int", t("osr.field_etw0"), -20, 40),
        "ab": Field("int", t("osr.field_ab"), -20, 40),
        "rk": Field("int", t("osr.field_rk"), -20, 30, required=True),
        "schild": Field("int", t("osr.field_schild"), 0, 10, default=0),
        "ges_rk": Field("int", t("osr.field_ges_rk"), -10, 10, default=0),
        "tp": Field("int", t("osr.field_tp"), 1, 10_000, required=True),
        "angriffsbonus": Field("int", t("osr.field_angriffsbonus"), -10, 10, default=0),
        "schadensbonus": Field("int", t("osr.field_schadensbonus"), -10, 20, default=0),
        "fernkampfbonus": Field("int", t("osr.field_fernkampfbonus"), -10, 10,
                                default=0),
        "waffen": Field("list", t("osr.field_waffen")),
        "beritten": Field("bool", t("osr.field_beritten")),
        "schlachtross": Field("bool", t("osr.field_schlachtross")),
        "maximal_belastet": Field("bool", t("osr.field_maximal_belastet")),
        "reittier_maximal_belastet": Field("bool", t("osr.field_reittier_maximal_belastet")),
    })
    conditions: Mapping[str, str] = {
        "überrascht": t("osr.cond_ueberrascht"),
        "liegend": t("osr.cond_liegend"),
        "betäubt": t("osr.cond_betaeubt"),
        "unsichtbar": t("osr.cond_unsichtbar"),
        "schläft": t("osr.cond_schlaeft"),
        "festgehalten": t("osr.cond_festgehalten"),
        "zaubert": t("osr.cond_zaubert"),
        "stürmt": t("osr.cond_stuermt"),
        "hat gestürmt": t("osr.cond_hat_gestuermt"),
        "gegen Sturm gestemmt": t("osr.cond_gegen_sturm_gestemmt"),
        "rückt vor": t("osr.cond_rueckt_vor"),
        "kein Angriff": t("osr.cond_kein_angriff"),
        "zieht sich zurück": t("osr.cond_zieht_sich_zurueck"),
        "pariert": t("osr.cond_pariert"),
        "flieht": t("osr.cond_flieht"),
        "verhandelt": t("osr.cond_verhandelt"),
        "hat gehandelt": t("osr.cond_hat_gehandelt"),
        "wartet ab": t("osr.cond_wartet_ab"),
        "tot": t("osr.cond_tot"),
    }

    def resources(self, sheet: Mapping[str, Any]) -> dict[str, dict[str, int]]:
        return {"TP": {"value": sheet["tp"], "max": sheet["tp"]}}

    def initiative_rolls(self, combatants: Mapping[str, Mapping[str, Any]], roller: Any,
                         data: Mapping[str, Any] | None = None) -> tuple[dict[str, int], dict[str, Any]]:
        """1W6 per side (Kampf); each figure's value is its side's die (+ missile bonus); ties by
        the GM's settings in ``data``."""
        figures = [view({**c, "name": n}) for n, c in combatants.items()]
        res, rolls = wuerfeln(figures, roller, EINSTELLUNGEN.of(data or {}))
        return res.outcome["initiative"], {side: r.to_dict() for side, r in rolls.items()}

    def initiative_order(self, combatants: Mapping[str, Mapping[str, Any]],
                         rolls: Mapping[str, int], roller: Any = None) -> list[str]:
        """The higher value first; a tie keeps the sides together (no roll-off: simultaneous)."""
        figures = [view({**c, "name": n}) for n, c in combatants.items()]
        return reihenfolge(seiten(figures), rolls)


# -- %%resolve verbs: Request -> Resolution ------------------------------------

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


_PROZENT = (0, 100)   # W%: Deckung, Tarnung, Tötungschance, Losreißen
_ANGRIFF_GRENZEN = {"deckung": _PROZENT, "tarnung": _PROZENT, "toetung": _PROZENT}
_ANGRIFF_OPTIONEN = {"waffe": "text", "deckung": "int", "tarnung": "int", "flanke": "flag", "hinten": "flag",
                     "sturmangriff": "flag", "zwei_waffen": "flag", "routine": "flag", "bonus": "int",
                     "position_bekannt": "flag", "sieht_unsichtbar": "flag", "toetung": "int"}

VERBS = {
    "angriff": Verb("angriff", _angriff, t("osr.verb_angriff"),
                    ("attack",), "required", _ANGRIFF_OPTIONEN, 'angriff Hauptmann -> "Goblin 1" sturmangriff',
                    "one", preview=_angriff_vorschau, bounds=_ANGRIFF_GRENZEN),
    "ringen": Verb("ringen", _ringen, t("osr.verb_ringen"),
                   ("wrestle",), "required", {k: v for k, v in _ANGRIFF_OPTIONEN.items()
                                              if k not in ("waffe", "zwei_waffen", "routine", "toetung")},
                   'ringen Hauptmann -> "Goblin 2" sturmangriff', "one", preview=_ringen_vorschau,
                   bounds=_ANGRIFF_GRENZEN),
    "fliehen": Verb("fliehen", _fliehen, t("osr.verb_fliehen"),
                    ("flee",), "optional", example="fliehen Ork -> Hauptmann", actors="one",
                    preview=lambda r: fliehen(r.actors[0], r.targets, None, r.settings).preview
                    if r.targets else None),
    "überraschung": Verb("überraschung", lambda r: ueberraschung(r.actors, r.roller, r.settings,
                                                                r.options.get("bis")),
                         t("osr.verb_ueberraschung"), ("surprise",), options={"bis": "int"},
                         example='überraschung Hauptmann, "Goblin 1"', bounds={"bis": (0, 6)},
                         preview=lambda r: ueberraschung(r.actors, None, r.settings,
                                                         r.options.get("bis")).preview),
    "initiative": Verb("initiative", lambda r: seiteninitiative(r.actors, r.roller, r.settings),
                       t("osr.verb_initiative"), ("init",),
                       example='initiative Hauptmann, "Goblin 1"',
                       preview=lambda r: seiteninitiative(r.actors, None, r.settings).preview),
    "vorrücken": Verb("vorrücken", lambda r: vorruecken(r.actors[0], r.targets),
                      t("osr.verb_vorruecken"), ("advance",), "optional",
                      example='vorrücken Hauptmann -> "Goblin 1"', actors="one"),
    "rückzug": Verb("rückzug", lambda r: rueckzug(r.actors[0], r.figures.get(r.options.get("tausch", "")),
                                                  bool(r.options.get("pariert"))),
                    t("osr.verb_rueckzug"), ("withdraw",),
                    options={"tausch": "name", "pariert": "flag"}, example="rückzug Hauptmann tausch=Wachmann",
                    actors="one"),
    "parieren": Verb("parieren", lambda r: parieren(r.actors[0]), t("osr.verb_parieren"),
                     ("parry",), example="parieren Hauptmann", actors="one"),
    "verhandeln": Verb("verhandeln", lambda r: verhandeln(r.actors, r.targets),
                       t("osr.verb_verhandeln"), ("parley",),
                       "optional", example="verhandeln Hauptmann -> Ork"),
    "abwarten": Verb("abwarten", lambda r: abwarten(r.actors[0]), t("osr.verb_abwarten"), ("delay",),
                     example="abwarten Magier", actors="one"),
    "stemmen": Verb("stemmen", lambda r: stemmen(r.actors[0]), t("osr.verb_stemmen"),
                    ("set",), example="stemmen Wachmann", actors="one"),
    "zaubern": Verb("zaubern", lambda r: zaubern(r.actors[0], r.options.get("spruch") or "Zauber",
                                                 r.options.get("zeit", 1), r.options.get("segment", 1)),
                    t("osr.verb_zaubern"), ("cast",),
                    options={"spruch": "text", "zeit": "int", "segment": "int"},
                    example="zaubern Magier spruch=Schlaf zeit=1 segment=3", actors="one",
                    bounds={"segment": (1, SEGMENTE), "zeit": (0, 1000)}),
    "rettungswurf": Verb("rettungswurf", lambda r: rettungswurf(r.actors[0], r.options.get("kategorie"), r.roller,
                                                                r.settings, r.options.get("bonus", 0)),
                         t("osr.verb_rettungswurf"), ("save",),
                         options={"kategorie": "text", "bonus": "int"},
                         example="rettungswurf Ork kategorie=Gift", actors="one",
                         preview=lambda r: rettungswurf(r.actors[0], r.options.get("kategorie"), None,
                                                        r.settings, r.options.get("bonus", 0)).preview),
    "losreißen": Verb("losreißen", lambda r: losreissen(r.actors[0], r.options.get("chance", 0), r.roller),
                      t("osr.verb_losreissen"), ("break",),
                      options={"chance": "int"}, example='losreißen "Goblin 2" chance=30', actors="one",
                      bounds={"chance": _PROZENT},
                      preview=lambda r: losreissen(r.actors[0], r.options.get("chance", 0), None).preview),
}
Osr.verbs = VERBS
