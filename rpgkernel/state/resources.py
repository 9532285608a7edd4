"""A resource changes within its ruleset's limits: every change of a figure's resource goes here.

``Campaign.change`` and the effects of a resolution (``effects.apply``) ask the figure's ruleset
how a change lands (``Ruleset.sheet.within_limits``: clamped to its limits, a loss beyond the lower
bound carried over where the ruleset says so) and add what landed. The GM's own call is journalled
with what held it back ("Alrik: LP 5 → 5 (höchstens 5)").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..messages import t
from . import model
from .rulebook import rulebook
from .transaction import CampaignError, Transaction

MAX_CHANGE = 10**9   # a change or value the GM enters, either way
_EDIT = re.compile(r"^\s*([-+=])\s*([-+]?)\s*(\d{1,10})\s*$")
_MINUS = str.maketrans({"\u2212": "-", "\u2013": "-", "\uff0b": "+"})   # −, – and ＋ as typed or pasted


@dataclass(frozen=True)
class Landed:
    """How a change of one resource landed: from ``old`` by ``by`` of the ``asked``; ``note``
    (German) says what held it back or carried it on, ``rule`` the rule that did ("" for none)."""

    resource: str
    old: int
    by: int
    asked: int
    note: str = ""
    rule: str = ""

    @property
    def new(self) -> int:
        return self.old + self.by


@dataclass(frozen=True)
class Edit:
    """A change the GM types into a resource: ``-5``, ``+3`` (``by``) or ``=7`` (``to``)."""

    by: int | None = None
    to: int | None = None

    def amount(self, old: int) -> int:
        """By how much it changes a resource that stands at ``old``."""
        return self.to - old if self.to is not None else self.by  # type: ignore[return-value]

    def __str__(self) -> str:
        return f"={self.to}" if self.to is not None else f"{self.by:+d}"


def edit(text: object, resource: str = "") -> Edit:
    """The ``Edit`` of a typed ``-5``, ``+3``, ``=7`` (``=-2`` too; a typographic minus counts); a German
    error that shows the three forms for anything else."""
    found = _EDIT.match(text.translate(_MINUS)) if isinstance(text, str) else None
    if found is None or (found[1] != "=" and found[2]):
        shown = repr(text)[:40] if not isinstance(text, str) else repr(text.strip()[:40])
        raise CampaignError(t("campaign.bad_edit", resource=resource or "–", value=shown))
    sign, inner, digits = found.groups()
    n = int(digits)
    if n > MAX_CHANGE:
        raise CampaignError(t("campaign.bad_resource", name=resource or "–", value=digits[:40]))
    if sign == "=":
        return Edit(to=-n if inner == "-" else n)
    return Edit(by=-n if sign == "-" else n)


def change(tx: Transaction, path: list[str], resource: str, by: int) -> list[Landed]:
    """Change ``resource`` of the figure at ``path`` by ``by`` in ``tx`` within its ruleset's limits
    (as the GM's data of the active encounter sets them); what landed on which resource.

    A change held back to nothing is still recorded (as 0): it stays the GM's last undoable step."""
    fig = model.figure(tx.state, path)
    landed = rulebook(fig.get("ruleset")).sheet.within_limits(fig, resource, by, model.data(tx.state))
    for share in landed:
        tx.add(path + ["resources", share.resource, "value"], share.by)
    return landed


def text(who: str, landed: list[Landed]) -> str:
    """The journal's line: "Alrik: LP 12 → 7", with what held a change back in brackets."""
    first, *more = landed
    parts = [t("journal.resource", figure=who, resource=first.resource, old=first.old, new=first.new)]
    parts += [t("journal.resource_more", resource=s.resource, old=s.old, new=s.new) for s in more]
    return "; ".join(part + (f" ({s.note})" if s.note else "") for part, s in zip(parts, landed))
