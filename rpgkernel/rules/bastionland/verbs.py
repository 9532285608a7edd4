"""The ``%%resolve`` verbs of Mythic Bastionland: Request -> Resolution.

Deny, gambits and Focus are the attack's open choices: ``attack`` lists them
on the first run, the choice verbs take them, and ``_angriff`` runs again with
``Request.decisions``.
"""

from __future__ import annotations

from typing import Any, Mapping

from ...messages import Text, t
from rpgkernel.rules.kit import MAX_SIDES, Request, Resolution, Verb
from .attack import attack, attack_pool, attack_preview
from .core import calm_moment, morale, probe, reaction, restore, save_chance, surprise, virtue_loss
from .damage import collide, repair
from .settings import BastionlandError
from .sheet import VIRTUE_MAX, virtue


def _names(value: Any, req: Request) -> list[str]:
    if value is True:
        return [a.name for a in req.actors]
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
    smite = {"by": req.actors[0].name, "art": o["smite"]} if o.get("smite") else None
    return attack(req.actors, req.targets if len(req.targets) > 1 else req.targets[0], req.roller,
                  bonus=o.get("bonus", ()), deny=taken["deny"], gambits=taken["gambits"], focus=taken["focus"],
                  per_target=taken["per_target"] or None,
                  decided=bool(req.decisions) or bool(o.get("entschieden")), cover=bool(o.get("deckung")),
                  ranged=bool(o.get("fernkampf")), shield_wall=bool(o.get("schildwall")),
                  spear_wall=bool(o.get("speerwall")), charge=_names(o.get("sturmangriff"), req),
                  started_in_melee=_names(o.get("gebunden"), req), moved=_names(o.get("bewegt"), req),
                  impaired_by=_names(o.get("beeinträchtigt"), req), smite=smite, blast=bool(o.get("blast")),
                  large_scale=bool(o.get("groß")), cause=o.get("ursache"), bloodless=bool(o.get("unblutig")),
                  figures=req.figures, scar_table=req.settings.narben, gambit_table=req.settings.gambits,
                  combatants=list(req.combatants.values()))


def _angriff_vorschau(req: Request) -> Any:
    o, target = req.options, req.targets[0]
    pool = attack_pool(req.actors, target, bonus=o.get("bonus", ()))
    if str(o.get("smite", "")).upper() == "W12":
        pool = [*pool, "W12"]  # Smite: +W12 to a melee attack
    armour = target.value("ruestung", 0) + (1 if o.get("deckung") else 0)
    return attack_preview(pool, armour, melee=not o.get("fernkampf"))


def _probe(req: Request) -> Resolution:
    return probe(req.actors[0], req.options.get("virtue", "VIG"), req.roller)


def _probe_vorschau(req: Request) -> float:
    return save_chance(virtue(req.actors[0], str(req.options.get("virtue", "VIG")).upper()))


def _reaktion(req: Request) -> Resolution:
    return reaction(req.actors[0], req.roller)


def _ueberraschung(req: Request) -> Resolution:
    return surprise(req.actors, req.roller)


def _moral(req: Request) -> Resolution:
    o = req.options
    return morale(req.actors, req.roller, group=bool(o.get("gruppe")), organised=not o.get("unorganisiert"),
                  leader=req.figures.get(o.get("anführer", "")), lost=o.get("verloren", 0), size=o.get("größe", 0))


def _ruhe(req: Request) -> Resolution:
    return calm_moment(req.actors)


def _erholung(req: Request) -> Resolution:
    return restore(req.actors, req.options.get("virtue"), req.options.get("mittel", ""))


def _verlust(req: Request) -> Resolution:
    o = req.options
    return virtue_loss(req.actors[0], o.get("virtue", ""), o.get("um", 1), o.get("grund", ""))


def _zusammenstoss(req: Request) -> Resolution:
    return collide(req.actors[0], req.targets[0], req.roller, req.options.get("größer"))


def _reparatur(req: Request) -> Resolution:
    return repair(req.actors[0])


_COUNT = (0, 1000)           # members of a group
_FACE = (1, MAX_SIDES)       # a face of one of the attack dice

VERBS = {
    "probe": Verb("probe", _probe, Text("bastionland.verb_probe"), ("save",), options={"virtue": "text"},
                  example="probe Ritter virtue=CLA", actors="one", preview=_probe_vorschau),
    "reaktion": Verb("reaktion", _reaktion, Text("bastionland.verb_reaktion"), ("reaction",), example="reaktion Wirt",
                     actors="one"),
    "überraschung": Verb("überraschung", _ueberraschung, Text("bastionland.verb_ueberraschung"), ("surprise",),
                         example="überraschung Söldner, Plänkler"),
    "angriff": Verb("angriff", _angriff, Text("bastionland.verb_angriff"), ("attack",), "required",
                    {"bonus": "pool", "smite": "text", "fernkampf": "flag", "deckung": "flag", "schildwall": "flag",
                     "speerwall": "flag", "sturmangriff": "flag", "gebunden": "flag", "bewegt": "flag",
                     "beeinträchtigt": "flag", "blast": "flag", "groß": "flag", "ursache": "text",
                     "unblutig": "flag", "entschieden": "flag"},
                    example="angriff Ritter, Knappe -> Söldner bonus=W8", preview=_angriff_vorschau),
    "moral": Verb("moral", _moral, Text("bastionland.verb_moral"), ("morale",),
                  options={"gruppe": "flag", "unorganisiert": "flag", "anführer": "name", "verloren": "int",
                           "größe": "int"}, example="moral Söldner", bounds={"verloren": _COUNT, "größe": _COUNT}),
    "ruhe": Verb("ruhe", _ruhe, Text("bastionland.verb_ruhe"), ("rest",), example="ruhe Ritter, Knappe"),
    "erholung": Verb("erholung", _erholung, Text("bastionland.verb_erholung"), ("recover",),
                     options={"virtue": "text", "mittel": "text"},
                     example="erholung Ritter virtue=VIG mittel=handlung"),
    "verlust": Verb("verlust", _verlust, Text("bastionland.verb_verlust"), ("loss",),
                    options={"virtue": "text", "um": "int", "grund": "text"}, example="verlust Ritter virtue=SPI um=2",
                    actors="one", bounds={"um": (0, VIRTUE_MAX)}),
    "zusammenstoß": Verb("zusammenstoß", _zusammenstoss, Text("bastionland.verb_zusammenstoss"), ("collide",),
                         "required", {"größer": "name"}, example="zusammenstoß Kogge -> Galeere größer=Galeere",
                         actors="one"),
    "reparatur": Verb("reparatur", _reparatur, Text("bastionland.verb_reparatur"), ("repair",),
                      example="reparatur Kogge", actors="one"),
    "deny": Verb("deny", None, Text("bastionland.verb_deny"), actors="one",
                 targets="optional", options={"würfel": "int"}, choice="deny", example="deny Söldner",
                 bounds={"würfel": _FACE}),
    "gambit": Verb("gambit", None, Text("bastionland.verb_gambit"), actors="one", targets="optional",
                   options={"würfel": "int", "gambit": "text", "stark": "text", "bolster": "int"},
                   choice="gambit", example="gambit Ritter bolster=5", bounds={"würfel": _FACE, "bolster": _FACE}),
    "focus": Verb("focus", None, Text("bastionland.verb_focus"), actors="one",
                  targets="optional", options={"gambit": "text"}, choice="focus", example="focus Ritter gambit=Repel"),
}
