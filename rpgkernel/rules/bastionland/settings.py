"""What the GM sets for Mythic Bastionland: the scar table and the gambit effects.

Without the GM's scar table a scar is rolled and noted; the gambit effects beyond Bolster and
Move default to ``data/gambits.yaml``. ``einrichten`` keeps both in the campaign (data
``bastionland``); the verbs read them as ``Request.settings``. The data and the files take English keys
too (``ENGLISH``, ``rules.aliases``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from ...messages import known, t
from rpgkernel.rules.kit import RulesError, Settings, read_yaml, renamed_in

DATA = Path(__file__).with_name("data")
DATEN = "bastionland"        # the name of the GM's settings among the campaign's data
TEILE = ("narben", "gambits")
#: the English keys of the data and of a gambit's effect, read as aliases
ENGLISH = {"scars": "narben"}
ENGLISH_GAMBIT = {"condition": "zustand", "bigger": "groesser", "unhorse": "abwurf"}


class BastionlandError(RulesError):
    """An action the seed does not allow (a feat while Fatigued, a refused attack, …) or GM data that does not fit."""


def narben_pruefen(data: Any, where: str) -> dict[int, str]:
    """A scar table (``roll: text``, optionally under ``narben:``), checked."""
    data = renamed_in(data, ENGLISH)
    table = data.get("narben", data) if isinstance(data, dict) else None
    if not isinstance(table, dict) or not all(_roll(k) is not None for k in table):
        raise BastionlandError(t("bastionland.bad_scar_table", path=where))
    return {_roll(k): str(v) for k, v in table.items()}


def _roll(key: Any) -> int | None:
    """A table row's roll: a number, or its digits as kept in JSON."""
    if isinstance(key, bool):
        return None
    if isinstance(key, int):
        return key
    return int(key) if isinstance(key, str) and key.strip().isdigit() else None


def gambits_pruefen(data: Any, where: str) -> dict[str, dict[str, Any]]:
    """The gambit effects (``gambits:`` with at least Bolster), checked."""
    table = renamed_in(data, ENGLISH).get("gambits") if isinstance(data, dict) else None
    if not isinstance(table, dict) or "Bolster" not in table or not all(isinstance(v, (dict, type(None)))
                                                                        for v in table.values()):
        raise BastionlandError(t("bastionland.bad_gambit_table", path=where))
    return {str(k): renamed_in(dict(v or {}), ENGLISH_GAMBIT) for k, v in table.items()}


def gambit_text(name: str, spec: Mapping[str, Any], field: str = "text") -> str:
    """A gambit's ``text`` or ``groesser``: the GM's own; else, for a gambit of the published rules, the
    catalogue's in the language of the moment; else ""."""
    own = spec.get(field)
    if own:
        return str(own)
    key = f"bastionland.gambit_{field}_{name.casefold()}"
    return t(key) if known(key) else ""


def scar_table(path: str | Path) -> dict[int, str]:
    """The GM's scar table from YAML."""
    return narben_pruefen(read_yaml(path, BastionlandError) or {}, str(path))


def load_gambits(path: str | Path | None = None) -> dict[str, dict[str, Any]]:
    """The gambit effects: the default data (data/gambits.yaml) or the GM's file."""
    source = Path(path) if path else DATA / "gambits.yaml"
    return gambits_pruefen(read_yaml(source, BastionlandError), str(source))


@dataclass(frozen=True)
class Einstellungen:
    narben: dict[int, str] | None = None                                   # None: the GM has none
    gambits: dict[str, dict[str, Any]] = field(default_factory=load_gambits)


def _bauen(kept: Any) -> Einstellungen:
    """The settings of the GM's kept data (``{}``: the defaults), checked."""
    if not isinstance(kept, dict) or set(kept) - set(TEILE):
        raise BastionlandError(t("bastionland.bad_kept_data", name=DATEN, known=", ".join(TEILE)))
    where = t("bastionland.kept_source", name=DATEN)
    narben = narben_pruefen(kept["narben"], where) if "narben" in kept else None
    gambits = gambits_pruefen({"gambits": kept["gambits"]}, where) if "gambits" in kept else load_gambits()
    return Einstellungen(narben, gambits)


EINSTELLUNGEN = Settings(DATEN, _bauen, aliases=ENGLISH)


def einrichten(narben: str | Path | None = None, gambits: str | Path | None = None, *,
               kampagne: Any = None, begegnung: str | None = None) -> Einstellungen:
    """Read and check the GM's scar table and gambit effects (None: none, and the default gambits) and
    keep them in ``kampagne`` (for ``begegnung`` only, if given), replacing what it kept before.

    Everything is checked first: a bad file changes nothing. Without ``kampagne`` only checked and
    returned (for calling the procedures directly).
    """
    kept: dict[str, Any] = {}
    if narben is not None:
        kept["narben"] = {str(k): v for k, v in scar_table(narben).items()}
    if gambits is not None:
        kept["gambits"] = load_gambits(gambits)
    return EINSTELLUNGEN.keep(kept, kampagne, begegnung)
