"""Effects: the changes a ruleset's procedure asks of the campaign, and how the campaign applies them.

Procedures never change a campaign; they return effects. The campaign applies
those of a closed resolution in one transaction: sheets first (their derived
resources follow), then resources (within their ruleset's limits, ``resources.py``)
and conditions.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from ..messages import t
from . import model, resources
from .campaign import write_sheet
from .resources import Landed
from .transaction import CampaignError, Transaction, condition_record


@dataclass(frozen=True)
class Effect:
    """A change to one figure: a resource by an amount (landing within its ruleset's limits), a
    condition on or off, or sheet fields.

    ``sheet``: fields written onto the figure's sheet (the others stay),
    validated by its ruleset like ``Campaign.set_sheet``; the resources the
    ruleset derives from the sheet follow.
    """

    figure: str
    resource: str | None = None
    by: int = 0
    condition: str | None = None
    on: bool = True
    rounds: int | None = None
    ends: str = "rundenende"
    text: str = ""
    sheet: Mapping[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def apply(tx: Transaction, effects: Iterable[Effect]) -> list[tuple[Effect, list[Landed]]]:
    """Apply ``effects`` in ``tx``: sheets first, as ``Campaign.set_sheet`` does, then resources and
    conditions; an unknown figure or resource refuses the whole transaction. Returns each resource
    effect with how it landed within the limits (``resources.change``), in the order applied."""
    landed = []
    for e in sorted(effects, key=lambda e: e.sheet is None):
        path = model.figure_path(tx.state, e.figure)
        if path is None:
            raise CampaignError(t("campaign.unknown_figure", name=e.figure))
        fig = model.figure(tx.state, path)
        if e.sheet is not None:
            write_sheet(tx, path, {**fig.get("sheet", {}), **e.sheet}, e.figure)
        elif e.resource is not None:
            if e.resource not in fig.get("resources", {}):
                raise CampaignError(t("campaign.unknown_resource", name=e.resource, figure=e.figure,
                                      known=", ".join(fig.get("resources", {})) or "–"))
            landed.append((e, resources.change(tx, path, e.resource, e.by)))
        elif e.condition is not None and e.on:
            tx.set(path + ["conditions", e.condition], condition_record({"runden": e.rounds, "endet": e.ends},
                                                                       fig["name"]))
        elif e.condition is not None and e.condition in fig.get("conditions", {}):
            tx.delete(path + ["conditions", e.condition])
    return landed
