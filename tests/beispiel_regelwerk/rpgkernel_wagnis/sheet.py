"""The sheet: Mut (added to every roll) and Glück (points to roll again)."""

from __future__ import annotations

from typing import Any, Mapping

from rpgkernel.messages import Text
from rpgkernel.rules.kit import Field, Sheet


class WagnisBogen(Sheet):
    def resources(self, values: Mapping[str, Any], data: Mapping[str, Any]) -> dict[str, dict[str, int]]:
        """Glück: as many points as the sheet gives."""
        return {"Glück": {"value": values["glueck"], "max": values["glueck"]}}


BOGEN = WagnisBogen({
    "mut": Field("int", Text("wagnis.feld_mut"), 0, 3, required=True, hint=Text("wagnis.feld_mut_hint")),
    "glueck": Field("int", Text("wagnis.feld_glueck"), 0, 3, default=1, hint=Text("wagnis.feld_glueck_hint")),
})
