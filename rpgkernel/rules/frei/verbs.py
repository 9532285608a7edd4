"""The ``%%resolve`` verbs without a ruleset: damage and healing of the GM's resource, German names,
English aliases, Request -> Resolution; a preview (``_<verb>_vorschau``) rolls nothing."""

from __future__ import annotations

from typing import Any

from ...messages import Text, t
from rpgkernel.rules.kit import Request, Resolution, Verb
from .schaden import FreiError, heilung, schaden, vorschau


def _menge(req: Request) -> str:
    if "menge" not in req.options:
        raise FreiError(t("frei.needs_amount"))
    return str(req.options["menge"])


def _schaden(req: Request) -> Resolution:
    return schaden(req.actors, _menge(req), req.roller, req.data)


def _schaden_vorschau(req: Request) -> Any:
    return vorschau(req.actors, _menge(req), req.data)


def _heilung(req: Request) -> Resolution:
    return heilung(req.actors, _menge(req), req.roller, req.data)


def _heilung_vorschau(req: Request) -> Any:
    return vorschau(req.actors, _menge(req), req.data, heilen=True)


VERBS: dict[str, Verb] = {
    "schaden": Verb("schaden", _schaden, Text("frei.verb_schaden"), ("damage",), options={"menge": "dice"},
                    example="schaden Goblin menge=2W6", preview=_schaden_vorschau),
    "heilung": Verb("heilung", _heilung, Text("frei.verb_heilung"), ("heal",), options={"menge": "dice"},
                    example="heilung Alrik menge=W8+2", preview=_heilung_vorschau),
}
