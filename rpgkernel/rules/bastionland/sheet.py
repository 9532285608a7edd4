"""The Mythic Bastionland character sheet, the resources it gives, the example warbands, and its
accessors over a figure view.

Seed sections: "Virtues", "Guard", "Waffen", "Berittener Kampf", "Kriegsscharen", "Beispielhafte
Kriegsscharen", "Holz und Stein".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from ...messages import Text, t
from rpgkernel.rules.kit import Field, Figure, Limits, Resource, Sheet, SheetError, read_yaml
from .settings import DATA, BastionlandError

VIRTUES = ("VIG", "CLA", "SPI")
VIRTUE_MIN, VIRTUE_MAX = 0, 19   # Virtues: never above 19 or below 0
VIRTUE_LIMITS = Limits(VIRTUE_MIN, VIRTUE_MAX, "Virtues", "Virtues")
BEINGS = ("Person", "Kriegsschar")
_WEAPON = re.compile(r"^(?P<name>.*?)\s*\((?P<die>[Ww]\d+)(?:\s*,\s*(?P<qualities>[^)]*))?\)\s*$")
_MOUNT = re.compile(r"\((?:[^)]*?)(?P<die>[Ww]\d+)")

#: the English names of the fields (Mythic Bastionland's own terms), read as aliases in any case
ENGLISH = {"vigour": "vig", "clarity": "cla", "spirit": "spi", "guard": "gd", "armour": "ruestung",
           "armor": "ruestung", "armour_off": "ruestung_aus", "weapons": "waffen",
           "natural_weapons": "natuerliche_waffen", "mount": "reittier", "kind": "art",
           "player_character": "spielfigur"}

class BastionlandSheet(Sheet):
    """The fields below; Guard and the virtues as resources (``resources``, ``grenzen``), the seed's
    example warbands as templates (``warband_templates``)."""

    def resources(self, values: Mapping[str, Any], data: Mapping[str, Any]) -> dict[str, dict[str, int]]:
        return resources(values)

    def limits(self, figure: Figure, resource: str, data: Mapping[str, Any]) -> Limits:
        return grenzen(figure, resource) or super().limits(figure, resource, data)

    def templates(self) -> dict[str, dict[str, Any]]:
        return warband_templates()


SHEET = BastionlandSheet({
    "vig": Field("int", Text("bastionland.field_vig"), VIRTUE_MIN, VIRTUE_MAX, required=True),
    "cla": Field("int", Text("bastionland.field_cla"), VIRTUE_MIN, VIRTUE_MAX, required=True),
    "spi": Field("int", Text("bastionland.field_spi"), VIRTUE_MIN, VIRTUE_MAX, required=True),
    "gd": Field("int", Text("bastionland.field_gd"), 0, 99, required=True),
    "ruestung": Field("int", Text("bastionland.field_ruestung"), 0, 99, default=0),
    "ruestung_aus": Field("text", Text("bastionland.field_ruestung_aus"), hint=Text("bastionland.field_ruestung_aus_hint")),
    "waffen": Field("list", Text("bastionland.field_waffen"), hint=Text("bastionland.field_waffen_hint")),
    "natuerliche_waffen": Field("bool", Text("bastionland.field_natuerliche_waffen"),
                                hint=Text("bastionland.field_natuerliche_waffen_hint")),
    "reittier": Field("text", Text("bastionland.field_reittier"), hint=Text("bastionland.field_reittier_hint")),
    "art": Field("text", Text("bastionland.field_art"), choices=(*BEINGS, "Schiff", "Bauwerk")),
    "material": Field("text", Text("bastionland.field_material"), choices=("Holz", "Stein"),
                      hint=Text("bastionland.field_material_hint")),
    "spielfigur": Field("bool", Text("bastionland.field_spielfigur"), hint=Text("bastionland.field_spielfigur_hint")),
}, aliases=ENGLISH)


def resources(sheet: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    """Guard and the three virtues, each full."""
    values = {"GD": sheet["gd"], "VIG": sheet["vig"], "CLA": sheet["cla"], "SPI": sheet["spi"]}
    return {k: {"value": v, "max": v} for k, v in values.items()}


def grenzen(figure: Figure, resource: str) -> Limits | None:
    """The limits of the virtues and Guard; None for other resources (the kit's default).

    Virtues rise and fall in many ways, but never above 19 or below 0 (Virtues): a virtue may rise
    above the value it is restored to. Guard stays between 0 and its maximum, to which a calm moment
    restores it (Schaden: damage beyond it goes to VIG only within an attack, ``damage``; Erholung).
    """
    if resource in VIRTUES:
        return VIRTUE_LIMITS
    found = figure.resource(resource) if resource == "GD" else None
    return None if found is None else Limits(0, found.max, "Schaden")


def warband_templates(path: str | Path | None = None) -> dict[str, dict[str, Any]]:
    """The example warbands, exactly as the seed lists them (data/kriegsscharen.yaml): name -> sheet."""
    data = read_yaml(Path(path or DATA / "kriegsscharen.yaml"), BastionlandError)
    return {str(k): dict(v) for k, v in data.items()}


@dataclass(frozen=True)
class Weapon:
    """A weapon or shield entry, e.g. 'Speer (W8, wuchtig)'.

    Qualities (lang, wuchtig, …) are kept as written: the seed names them in
    its example warbands but gives no mechanics for them, so none are applied.
    """

    name: str
    die: str
    qualities: tuple[str, ...] = ()

    @property
    def is_shield(self) -> bool:
        return self.name.lower().startswith("schild")

    @property
    def is_buckler(self) -> bool:
        return "buckler" in self.name.lower()


@lru_cache(maxsize=256)
def weapon(entry: str) -> Weapon:
    m = _WEAPON.match(entry)
    if m is None:
        raise SheetError(t("bastionland.bad_weapon", entry=entry))
    quals = tuple(q.strip() for q in (m.group("qualities") or "").split(",") if q.strip())
    return Weapon(m.group("name"), "W" + m.group("die")[1:], quals)


def weapons(figure: Figure) -> list[Weapon]:
    return [weapon(e) for e in figure.value("waffen", ())]


def weapon_dice(figure: Figure) -> list[str]:
    """The attack dice of a figure's weapons and shield ("Streitkolben (W8, wuchtig)" -> "W8")."""
    return [w.die for w in weapons(figure)]


def mount_die(figure: Figure) -> str | None:
    """The mount's trample die from 'Schlachtross (W8 Trampelschaden)'; None if none is written."""
    m = _MOUNT.search(figure.value("reittier", None) or "")
    return "W" + m.group("die")[1:] if m else None


def mounted(figure: Figure) -> bool:
    return bool(figure.value("reittier", None)) and not figure.has("abgeworfen")


def kind(figure: Figure) -> str:
    """Person, Kriegsschar, Schiff or Bauwerk (sheet field ``art``)."""
    return figure.value("art", None) or "Person"


def is_player(figure: Figure) -> bool:
    return figure.side == "Spieler" or bool(figure.value("spielfigur", False))


def virtue(figure: Figure, name: str) -> int:
    """What a virtue (or Guard, ``GD``) stands at."""
    return _resource(figure, name).value


def virtue_max(figure: Figure, name: str) -> int:
    return _resource(figure, name).max


def _resource(figure: Figure, name: str) -> Resource:
    found = figure.resource(name)
    if found is None:
        raise KeyError(name)
    return found
