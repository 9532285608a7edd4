"""Mythic Bastionland (seed 003_4352dfa8b10f7007.txt).

Procedures read figures (the campaign's records: ``sheet``, ``resources``,
``conditions``, ``side``), roll through a ``Roller`` and return a
``Resolution`` with steps, outcome and effects; they change nothing
themselves. Decisions after the roll (Deny, gambits, Focus) are given by
the caller; while undecided the resolution stays open and applies nothing.

Modules: ``core`` (saves, virtues, recovery, morale), ``attack`` (attacks,
feats, gambits, duels, previews), ``damage`` (damage, scars, warbands,
structures, ships), ``warfare`` (example warbands, wall formations);
``data/`` holds the GM-replaceable data.
"""

from __future__ import annotations

from . import texts  # noqa: F401 - registers the catalogue before the modules below use it

from typing import Any, Mapping

from ...messages import t
from ..base import Ruleset
from ...dice.limits import MAX_SIDES
from ..resolution import Request, Resolution, Verb
from ..sheet import Field, Sheet
from .attack import attack, attack_pool, attack_preview, damage_dist, duel, impaired
from .core import (GAMBIT_MIN, STRONG_GAMBIT_MIN, VIRTUE_MAX, VIRTUES, BastionlandError, Weapon, calm_moment,
                   change_virtue,
                   morale, probe, reaction, restore, save_chance, surprise, virtue, virtue_gain, virtue_loss,
                   weapon, weapon_dice)
from .damage import collide, damage, exposed, ignores, repair, scar, thrown_from_saddle
from .settings import EINSTELLUNGEN, Einstellungen, einrichten, load_gambits, scar_table
from .warfare import formation, warband_templates

__all__ = ["Bastionland", "BastionlandError", "EINSTELLUNGEN", "Einstellungen", "GAMBIT_MIN", "STRONG_GAMBIT_MIN",
           "VIRTUES", "Weapon", "attack", "attack_pool", "attack_preview", "calm_moment", "change_virtue", "collide",
           "damage", "damage_dist", "duel", "einrichten", "exposed", "formation", "ignores", "impaired",
           "load_gambits", "morale", "probe", "reaction", "repair", "restore", "save_chance", "scar", "scar_table",
           "surprise", "thrown_from_saddle", "virtue", "virtue_gain", "virtue_loss", "warband_templates", "weapon",
           "weapon_dice"]


class Bastionland(Ruleset):
    key = "bastionland"
    title = t("bastionland.title")
    settings = EINSTELLUNGEN
    sheet = Sheet({
        "vig": Field("int", t("bastionland.field_vig"), 0, 19, required=True),
        "cla": Field("int", t("bastionland.field_cla"), 0, 19, required=True),
        "spi": Field("int", t("bastionland.field_spi"), 0, 19, required=True),
        "gd": Field("int", t("bastionland.field_gd"), 0, 99, required=True),
        "ruestung": Field("int", t("bastionland.field_ruestung"), 0, 99, default=0),
        "ruestung_aus": Field("text", t("bastionland.field_ruestung_aus")),
        "waffen": Field("list", t("bastionland.field_waffen")),
        "natuerliche_waffen": Field("bool", t("bastionland.field_natuerliche_waffen")),
        "reittier": Field("text", t("bastionland.field_reittier")),
        "art": Field("text", t("bastionland.field_art"), choices=("Person", "Kriegsschar", "Schiff", "Bauwerk")),
        "material": Field("text", t("bastionland.field_material"), choices=("Holz", "Stein")),
        "spielfigur": Field("bool", t("bastionland.field_spielfigur")),
    })
    conditions = {
        "Fatigued": t("bastionland.cond_fatigued"),
        "schutzlos": t("bastionland.cond_schutzlos"),
        "verwundet": t("bastionland.cond_verwundet"),
        "Todeswunde": t("bastionland.cond_todeswunde"),
        "tot": t("bastionland.cond_tot"),
        "Narbe": t("bastionland.cond_narbe"),
        "entkräftet": t("bastionland.cond_entkraeftet"),
        "setzt aus": t("bastionland.cond_setzt_aus"),
        "flieht oder ergibt sich": t("bastionland.cond_flieht_oder_ergibt_sich"),
        "vertrieben": t("bastionland.cond_vertrieben"),
        "vernichtet": t("bastionland.cond_vernichtet"),
        "gebrochen": t("bastionland.cond_gebrochen"),
        "führt von vorn": t("bastionland.cond_fuehrt_von_vorn"),
        "zerstört": t("bastionland.cond_zerstoert"),
        "abgeworfen": t("bastionland.cond_abgeworfen"),
        "beeinträchtigt": t("bastionland.cond_beeintraechtigt"),
    }

    def resources(self, sheet: Mapping[str, Any]) -> dict[str, dict[str, int]]:
        values = {"GD": sheet["gd"], "VIG": sheet["vig"], "CLA": sheet["cla"], "SPI": sheet["spi"]}
        return {k: {"value": v, "max": v} for k, v in values.items()}

    def initiative_expression(self, combatant: Mapping[str, Any]) -> str | None:
        return None  # no initiative roll: the players' side acts first (Überraschung)

    def initiative_order(self, combatants: Mapping[str, Mapping[str, Any]],
                         rolls: Mapping[str, int], roller: Any = None) -> list[str]:
        """The players' side ("Spieler") first, then the others in the order they joined (Überraschung)."""
        return sorted(combatants, key=lambda n: combatants[n].get("side", "") != "Spieler")


# -- %%resolve verbs: Request -> Resolution ------------------------------------

def _names(value: Any, req: Request) -> list[str]:
    if value is True:
        return [a["name"] for a in req.actors]
    return [value] if isinstance(value, str) else list(value or ())


def _decisions(d: Mapping[str, Any]) -> dict[str, Any]:
    """%%resolve choice lines (deny, gambit, focus) as the arguments of ``attack``.

    A Blast attack offers its choices per target ("deny:Knappe"); they go to
    ``per_target``.
    """
    out: dict[str, Any] = {"deny": [], "gambits": [], "focus": [], "per_target": {}}
    for key, taken in d.items():
        kind, _, target = key.partition(":")
        slot = out if not target else out["per_target"].setdefault(target, {"deny": [], "gambits": [],
                                                                            "focus": []})
        for x in taken:
            who = x["figures"][0]
            if kind == "deny":
                slot["deny"].append({"by": who, "würfel": x.get("würfel")})
            elif kind == "gambit":
                face = x.get("würfel", x.get("bolster"))
                if face is None:
                    raise BastionlandError(t("bastionland.gambit_needs_die", figure=who))
                slot["gambits"].append({"würfel": face, "gambit": x.get("gambit", "Bolster"), "by": who,
                                        **({"stark": x["stark"]} if x.get("stark") else {})})
            elif kind == "focus":
                if not x.get("gambit"):
                    raise BastionlandError(t("bastionland.focus_needs_gambit", figure=who))
                slot["focus"].append({"by": who, "gambit": x["gambit"]})
    return out


def _angriff(req: Request) -> Resolution:
    o = req.options
    taken = _decisions(req.decisions)
    smite = {"by": req.actors[0]["name"], "art": o["smite"]} if o.get("smite") else None
    return attack(req.actors, req.targets if len(req.targets) > 1 else req.targets[0], req.roller,
                  bonus=o.get("bonus", ()), deny=taken["deny"], gambits=taken["gambits"], focus=taken["focus"],
                  per_target=taken["per_target"] or None,
                  decided=bool(req.decisions) or bool(o.get("entschieden")), cover=bool(o.get("deckung")),
                  ranged=bool(o.get("fernkampf")), shield_wall=bool(o.get("schildwall")),
                  spear_wall=bool(o.get("speerwall")), charge=_names(o.get("sturmangriff"), req),
                  started_in_melee=_names(o.get("gebunden"), req), moved=_names(o.get("bewegt"), req),
                  impaired_by=_names(o.get("beeinträchtigt"), req), smite=smite, blast=bool(o.get("blast")),
                  large_scale=bool(o.get("groß")), cause=o.get("ursache"), bloodless=bool(o.get("unblutig")),
                  figures=req.figures, scar_table=req.settings.narben, gambit_table=req.settings.gambits)


def _angriff_vorschau(req: Request) -> Any:
    o, target = req.options, req.targets[0]
    pool = attack_pool(req.actors, target, bonus=o.get("bonus", ()))
    if str(o.get("smite", "")).upper() == "W12":
        pool = [*pool, "W12"]  # Smite: +W12 to a melee attack
    armour = target.get("sheet", {}).get("ruestung", 0) + (1 if o.get("deckung") else 0)
    return attack_preview(pool, armour, melee=not o.get("fernkampf"))


def _probe_vorschau(req: Request) -> float:
    return min(virtue(req.actors[0], str(req.options.get("virtue", "VIG")).upper()), 20) / 20


_COUNT = (0, 1000)           # members of a group
_FACE = (1, MAX_SIDES)       # a face of one of the attack dice

VERBS = {
    "probe": Verb("probe", lambda r: probe(r.actors[0], r.options.get("virtue", "VIG"), r.roller),
                  t("bastionland.verb_probe"), ("save",), options={"virtue": "text"},
                  example="probe Ritter virtue=CLA", actors="one", preview=_probe_vorschau),
    "reaktion": Verb("reaktion", lambda r: reaction(r.actors[0], r.roller),
                     t("bastionland.verb_reaktion"), ("reaction",), example="reaktion Wirt",
                     actors="one"),
    "überraschung": Verb("überraschung", lambda r: surprise(r.actors, r.roller),
                         t("bastionland.verb_ueberraschung"), ("surprise",),
                         example="überraschung Söldner, Plänkler"),
    "angriff": Verb("angriff", _angriff, t("bastionland.verb_angriff"), ("attack",), "required",
                    {"bonus": "pool", "smite": "text", "fernkampf": "flag", "deckung": "flag", "schildwall": "flag",
                     "speerwall": "flag", "sturmangriff": "flag", "gebunden": "flag", "bewegt": "flag",
                     "beeinträchtigt": "flag", "blast": "flag", "groß": "flag", "ursache": "text",
                     "unblutig": "flag", "entschieden": "flag"},
                    example="angriff Ritter, Knappe -> Söldner bonus=W8", preview=_angriff_vorschau),
    "moral": Verb("moral", lambda r: morale(r.actors, r.roller, group=bool(r.options.get("gruppe")),
                                            organised=not r.options.get("unorganisiert"),
                                            leader=r.figures.get(r.options.get("anführer", "")),
                                            lost=r.options.get("verloren", 0), size=r.options.get("größe", 0)),
                  t("bastionland.verb_moral"), ("morale",),
                  options={"gruppe": "flag", "unorganisiert": "flag", "anführer": "name", "verloren": "int",
                           "größe": "int"}, example="moral Söldner", bounds={"verloren": _COUNT, "größe": _COUNT}),
    "ruhe": Verb("ruhe", lambda r: calm_moment(r.actors), t("bastionland.verb_ruhe"),
                 ("rest",), example="ruhe Ritter, Knappe"),
    "erholung": Verb("erholung", lambda r: restore(r.actors, r.options.get("virtue"), r.options.get("mittel", "")),
                     t("bastionland.verb_erholung"), ("recover",),
                     options={"virtue": "text", "mittel": "text"}, example="erholung Ritter virtue=VIG mittel=handlung"),
    "verlust": Verb("verlust", lambda r: virtue_loss(r.actors[0], r.options.get("virtue", ""), r.options.get("um", 1),
                                                     r.options.get("grund", "")),
                    t("bastionland.verb_verlust"), ("loss",),
                    options={"virtue": "text", "um": "int", "grund": "text"}, example="verlust Ritter virtue=SPI um=2",
                    actors="one", bounds={"um": (0, VIRTUE_MAX)}),
    "zusammenstoß": Verb("zusammenstoß", lambda r: collide(r.actors[0], r.targets[0], r.roller,
                                                          r.options.get("größer")),
                         t("bastionland.verb_zusammenstoss"), ("collide",), "required",
                         {"größer": "name"}, example="zusammenstoß Kogge -> Galeere größer=Galeere", actors="one"),
    "reparatur": Verb("reparatur", lambda r: repair(r.actors[0]), t("bastionland.verb_reparatur"), ("repair",),
                      example="reparatur Kogge", actors="one"),
    "deny": Verb("deny", None, t("bastionland.verb_deny"), actors="one",
                 targets="optional", options={"würfel": "int"}, choice="deny", example="deny Söldner",
                 bounds={"würfel": _FACE}),
    "gambit": Verb("gambit", None, t("bastionland.verb_gambit"), actors="one", targets="optional",
                   options={"würfel": "int", "gambit": "text", "stark": "text", "bolster": "int"},
                   choice="gambit", example="gambit Ritter bolster=5", bounds={"würfel": _FACE, "bolster": _FACE}),
    "focus": Verb("focus", None, t("bastionland.verb_focus"), actors="one",
                  targets="optional", options={"gambit": "text"}, choice="focus", example="focus Ritter gambit=Repel"),
}
Bastionland.verbs = VERBS
