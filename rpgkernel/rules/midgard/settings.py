"""What the Midgard procedures read besides the figures: the basic rolls, the seed's race list and
the GM's tables.

``einrichten`` checks the files and keeps them in the campaign (data ``midgard``); the verbs read
them as ``Request.settings`` (``EINSTELLUNGEN``). Without any, ``EINSTELLUNGEN.defaults()``
holds: no GM tables (a procedure that needs one says which). The data takes English keys too
(``ENGLISH``, ``rules.aliases``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from ...messages import t
from rpgkernel.rules.kit import Settings, as_json, read_yaml
from .core import DATA, Grundregeln, MidgardError, grundregeln_pruefen
from .tabellen import Tabellen, pruefen, rassen_pruefen

DATEN = "midgard"       # the name of the GM's data in the campaign
TEILE = ("tabellen", "grundregeln", "rassen")
#: the English keys of the data, read as aliases
ENGLISH = {"tables": "tabellen", "basic_rules": "grundregeln", "races": "rassen", "source": "quelle"}


@dataclass(frozen=True)
class Einstellungen:
    regeln: Grundregeln = field(default_factory=Grundregeln)
    tabellen: Tabellen = field(default_factory=Tabellen)
    rassen: dict[str, dict[str, Any]] = field(default_factory=dict)


def _bauen(kept: Any) -> Einstellungen:
    """The settings of the GM's kept data (``{}``: the defaults), checked."""
    if not isinstance(kept, dict) or set(kept) - {*TEILE, "quelle"}:
        raise MidgardError(t("midgard.bad_kept_data", name=DATEN))
    where = t("midgard.kept_source", source=kept.get("quelle") or "–")
    regeln = grundregeln_pruefen(kept.get("grundregeln", _yaml("grundregeln.yaml")), where)
    tabellen = pruefen(kept["tabellen"], kept.get("quelle", "")) if "tabellen" in kept else Tabellen()
    rassen = rassen_pruefen(kept.get("rassen", _yaml("rassen.yaml")), where)
    return Einstellungen(regeln, tabellen, rassen)


EINSTELLUNGEN = Settings(DATEN, _bauen, sort_keys=False, aliases=ENGLISH)     # key order matters (the aging rows)


@lru_cache(maxsize=None)
def _yaml(name: str) -> Any:
    return read_yaml(DATA / name, MidgardError) or {}


def einrichten(tabellen: str | Path | None = None, grundregeln: str | Path | None = None,
               rassenliste: str | Path | None = None, *, kampagne: Any = None,
               begegnung: str | None = None) -> Einstellungen:
    """Read and check the GM's tables (and other basic rolls or race list; None: the default) and keep
    them in ``kampagne`` (for ``begegnung`` only, if given), replacing what it kept before.

    Everything is checked first: a bad file changes nothing. Without ``kampagne`` only checked and
    returned (for calling the procedures directly with ``cfg=``).
    """
    kept: dict[str, Any] = {}
    for key, path in (("tabellen", tabellen), ("grundregeln", grundregeln), ("rassen", rassenliste)):
        if path is not None:
            kept[key] = as_json(read_yaml(path, MidgardError) or {})  # the checks read number keys as text
    if tabellen is not None:
        kept["quelle"] = Path(tabellen).name
    # check each file under its own name, then the whole as the verbs will read it
    if tabellen is not None:
        pruefen(kept["tabellen"], str(tabellen))
    if grundregeln is not None:
        grundregeln_pruefen(kept["grundregeln"], str(grundregeln))
    if rassenliste is not None:
        rassen_pruefen(kept["rassen"], str(rassenliste))
    return EINSTELLUNGEN.keep(kept, kampagne, begegnung)
