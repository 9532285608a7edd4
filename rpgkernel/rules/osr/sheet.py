"""The OSR character sheet, the resources it gives, and its weapons read from a figure view.

Seed sections: "Kampf", "Unbewaffneter Kampf", "Sturmangriff", "Zwei-Waffen-Kampf".
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...dice import dist
from ...errors import DiceSyntaxError, RpgError
from ...messages import Text, t
from rpgkernel.rules.kit import Field, Figure, Sheet, SheetError
from .settings import OsrError

WAFFENLOS = "W2"              # Unbewaffneter Kampf
_WAFFE = re.compile(r"^(?P<name>[^()]*?)\s*\((?P<inhalt>[^()]*)\)\s*$")
_LAENGE = re.compile(r"^länge\s+(\d+(?:[.,]\d+)?)$", re.IGNORECASE)
_TRENNER = re.compile(r"(?<!\d),|,(?!\d)")   # a comma between two digits is a decimal comma

#: English names of the fields (the OSR's own terms: HD, AC, HP, THAC0), read as aliases in any case
ENGLISH = {"level": "stufe", "hd": "tw", "hit_dice": "tw", "attack_level": "angriffsstufe", "level_mod": "stufe_mod",
           "class": "klasse", "save_as": "rettungsklasse", "save_level_mod": "rettungsstufe_mod", "thac0": "etw0",
           "ac": "rk", "armour_class": "rk", "armor_class": "rk", "shield": "schild", "total_ac": "ges_rk",
           "hp": "tp", "hit_points": "tp", "attack_bonus": "angriffsbonus", "damage_bonus": "schadensbonus",
           "missile_bonus": "fernkampfbonus", "weapons": "waffen", "mounted": "beritten", "warhorse": "schlachtross",
           "encumbered": "maximal_belastet", "mount_encumbered": "reittier_maximal_belastet"}

class OsrSheet(Sheet):
    """The fields below; hit points (TP) as the resource (``resources``)."""

    def resources(self, values: Mapping[str, Any], data: Mapping[str, Any]) -> dict[str, dict[str, int]]:
        return resources(values)


SHEET = OsrSheet({
    "stufe": Field("int", Text("osr.field_stufe"), 0, 40),
    "tw": Field("text", Text("osr.field_tw"), hint=Text("osr.field_tw_hint")),
    "angriffsstufe": Field("int", Text("osr.field_angriffsstufe"), 0, 40, hint=Text("osr.field_angriffsstufe_hint")),
    "stufe_mod": Field("int", Text("osr.field_stufe_mod"), -20, 20, hint=Text("osr.field_stufe_mod_hint")),
    "klasse": Field("text", Text("osr.field_klasse"), hint=Text("osr.field_klasse_hint")),
    "rettungsklasse": Field("text", Text("osr.field_rettungsklasse"), hint=Text("osr.field_rettungsklasse_hint")),
    "rettungsstufe_mod": Field("int", Text("osr.field_rettungsstufe_mod"), -20, 20,
                               hint=Text("osr.field_rettungsstufe_mod_hint")),
    "etw0": Field("int", Text("osr.field_etw0"), -20, 40, hint=Text("osr.field_etw0_hint")),
    "ab": Field("int", Text("osr.field_ab"), -20, 40),
    "rk": Field("int", Text("osr.field_rk"), -20, 30, required=True, hint=Text("osr.field_rk_hint")),
    "schild": Field("int", Text("osr.field_schild"), 0, 10, default=0),
    "ges_rk": Field("int", Text("osr.field_ges_rk"), -10, 10, default=0, hint=Text("osr.field_ges_rk_hint")),
    "tp": Field("int", Text("osr.field_tp"), 1, 10_000, required=True),
    "angriffsbonus": Field("int", Text("osr.field_angriffsbonus"), -10, 10, default=0),
    "schadensbonus": Field("int", Text("osr.field_schadensbonus"), -10, 20, default=0),
    "fernkampfbonus": Field("int", Text("osr.field_fernkampfbonus"), -10, 10, default=0,
                            hint=Text("osr.field_fernkampfbonus_hint")),
    "waffen": Field("list", Text("osr.field_waffen"), hint=Text("osr.field_waffen_hint")),
    "beritten": Field("bool", Text("osr.field_beritten")),
    "schlachtross": Field("bool", Text("osr.field_schlachtross")),
    "maximal_belastet": Field("bool", Text("osr.field_maximal_belastet")),
    "reittier_maximal_belastet": Field("bool", Text("osr.field_reittier_maximal_belastet")),
}, aliases=ENGLISH)


def resources(sheet: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    """Hit points (TP), full."""
    return {"TP": {"value": sheet["tp"], "max": sheet["tp"]}}


@dataclass(frozen=True)
class Waffe:
    """A weapon entry, e.g. 'Speer (W6, Länge 8, Sturm)', 'Langschwert (W8, Länge 3,5)' or
    'Kurzbogen (W6, Fernkampf)'.

    Qualities: ``Fernkampf`` (missile weapon), ``Sturm`` (can be set against a
    charge), ``Lanze``, ``Länge N`` (feet, for who strikes first in a charge).
    """

    name: str
    schaden: str
    fernkampf: bool = False
    sturm: bool = False
    lanze: bool = False
    laenge: float | None = None

    @property
    def nebenhand_tauglich(self) -> bool:
        """Zwei-Waffen-Kampf: the off-hand weapon must be a dagger or a hand axe."""
        low = self.name.lower()
        return "dolch" in low or "handax" in low


def waffe(entry: str) -> Waffe:
    m = _WAFFE.match(entry)
    if m is None:
        raise SheetError(t("osr.bad_weapon", entry=entry[:80]))
    teile = [p.strip() for p in _TRENNER.split(m.group("inhalt")) if p.strip()]
    if not teile:
        raise SheetError(t("osr.bad_weapon", entry=entry[:80]))
    try:
        dist(teile[0])
    except (DiceSyntaxError, RpgError):
        raise SheetError(t("osr.bad_weapon", entry=entry[:80])) from None
    kw: dict[str, Any] = {}
    for q in teile[1:]:
        low, laenge = q.lower(), _LAENGE.match(q)
        if laenge:
            kw["laenge"] = float(laenge.group(1).replace(",", "."))
        elif low.startswith("länge"):
            raise SheetError(t("osr.bad_length", entry=entry[:80], quality=q[:40]))
        elif low in ("fernkampf", "sturm", "lanze"):
            kw[low] = True
        else:
            raise SheetError(t("osr.bad_weapon_quality", entry=entry[:80], quality=q[:40]))
    return Waffe(m.group("name") or "Waffe", teile[0].upper().replace("D", "W"), **kw)


def waffen(figure: Figure) -> list[Waffe]:
    return [waffe(e) for e in figure.value("waffen", ())]


def waffe_von(figure: Figure, wahl: str | None = None) -> Waffe:
    """The weapon named ``wahl`` (``waffenlos``: fist, foot, pommel, 1W2), else the first listed
    (the one in hand); unarmed 1W2 without one (Unbewaffneter Kampf)."""
    alle = waffen(figure)
    if wahl and wahl.lower() == t("osr.unarmed").lower():
        return Waffe(t("osr.unarmed"), WAFFENLOS)
    if wahl:
        for w in alle:
            if w.name.lower() == wahl.lower():
                return w
        raise OsrError(t("osr.unknown_weapon", figure=figure.name, weapon=wahl[:40],
                         known=", ".join([*(w.name for w in alle), t("osr.unarmed")])))
    return alle[0] if alle else Waffe(t("osr.unarmed"), WAFFENLOS)


def in_der_hand(figure: Figure) -> Waffe | None:
    """The weapon in hand: the first listed."""
    alle = waffen(figure)
    return alle[0] if alle else None
