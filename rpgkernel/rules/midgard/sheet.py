"""The Midgard character sheet: fields, checks of skill and weapon entries, resources.

Every field is optional, so that a figure may carry only what a procedure
needs; a procedure that needs a missing value says which one.
"""

from __future__ import annotations

from typing import Any, Mapping

from ...messages import t
from ..sheet import Field, Sheet
from .core import eintrag

FELDER = {
    "rasse": Field("text", t("midgard.field_rasse")),
    "klasse": Field("text", t("midgard.field_klasse")),
    "grad": Field("int", t("midgard.field_grad"), 1, 100),
    "beruf": Field("text", t("midgard.field_beruf")),
    "zauberer": Field("bool", t("midgard.field_zauberer")),
    "sprachen": Field("list", t("midgard.field_sprachen")),
    "alter": Field("int", t("midgard.field_alter"), 0, 10000),
    "groesse": Field("text", t("midgard.field_groesse"), choices=("klein", "mittel", "groß")),
    "gestalt": Field("text", t("midgard.field_gestalt"), choices=("schlank", "normal", "breit")),
    "st": Field("int", t("midgard.field_st"), -100, 100),
    "ge": Field("int", t("midgard.field_ge"), -100, 100),
    "gw": Field("int", t("midgard.field_gw"), -100, 100),
    "ko": Field("int", t("midgard.field_ko"), -100, 100),
    "in": Field("int", t("midgard.field_in"), -100, 100),
    "zt": Field("int", t("midgard.field_zt"), -100, 100),
    "lp": Field("int", t("midgard.field_lp"), 0, 1000),
    "ap": Field("int", t("midgard.field_ap"), 0, 10000),
    "gg": Field("int", t("midgard.field_gg"), 0, 100),
    "ap_bonus": Field("int", t("midgard.field_ap_bonus"), -100, 100),
    "rw": Field("int", t("midgard.field_rw"), 0, 200),
    "rw_ruestung": Field("int", t("midgard.field_rw_ruestung"), -200, 0),
    "kampftaktik": Field("int", t("midgard.field_kampftaktik"), 0, 20),
    "angriffsrang": Field("int", t("midgard.field_angriffsrang"), -20, 20),
    "abwehr": Field("int", t("midgard.field_abwehr"), -20, 60),
    "resistenz": Field("int", t("midgard.field_resistenz"), -20, 60),
    "abb": Field("int", t("midgard.field_abb"), -20, 20),
    "schb": Field("int", t("midgard.field_schb"), -20, 20),
    "rs": Field("int", t("midgard.field_rs"), 0, 20),
    "schild": Field("text", t("midgard.field_schild"), choices=("klein", "groß")),
    "schild_ap": Field("int", t("midgard.field_schild_ap"), 0, 20),
    "waffen": Field("list", t("midgard.field_waffen")),
    "fertigkeiten": Field("list", t("midgard.field_fertigkeiten")),
    "angeboren": Field("list", t("midgard.field_angeboren")),
    "zaubersprueche": Field("list", t("midgard.field_zaubersprueche")),
}


class MidgardBogen(Sheet):
    """The fields above; skill and weapon entries must read as such."""

    def validate(self, data: Mapping[str, Any]) -> dict[str, Any]:
        out = super().validate(data)
        for key in ("waffen", "fertigkeiten"):
            for text in out.get(key, ()):
                eintrag(text, waffe=key == "waffen")
        return out


SHEET = MidgardBogen(FELDER)


def ressourcen(sheet: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    """LP, AP (value and maximum) and GG, for the fields the sheet has."""
    out = {}
    for key, res in (("lp", "LP"), ("ap", "AP"), ("gg", "GG")):
        if key in sheet:
            out[res] = {"value": sheet[key], "max": sheet[key]}
    return out
