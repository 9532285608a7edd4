"""The session: one seedable random generator, the chosen ruleset and the open campaign.

Each notebook kernel has one current session (the magics use it); code that
wants its own stream creates a ``Session`` or passes ``seed=``/``rng=``.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import numpy as np

from .dice.roll import RandomDice
from .errors import RpgError
from . import messages
from .messages import t

if TYPE_CHECKING:
    from .state import Campaign, Journal


class Session:
    """Settings of one GM session: seed, generator, ruleset, campaign, language (``language="en"``:
    every text and number from now on in English, as ``%rpg --sprache en``)."""

    def __init__(self, seed: int | None = None, language: str | None = None) -> None:
        self.ruleset: str | None = None
        self.campaign: Campaign | None = None
        self.reseed(seed)
        if language is not None:
            self.set_language(language)

    def set_language(self, lang: str) -> None:
        """Switch texts and numbers to ``lang`` without a restart; an open campaign records it (its
        player pages follow it). An unknown language: a German error naming the known ones."""
        known = messages.languages()
        if lang not in known:
            raise RpgError(t("rpg.unknown_language", lang=lang, known=", ".join(known)))
        messages.set_language(lang)
        camp = self.campaign
        if camp is not None and not camp.read_only and camp.language != lang:
            camp.set_language(lang)

    def reseed(self, seed: int | None) -> None:
        """Restart the random stream; the same seed gives the same rolls everywhere."""
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self.dice = RandomDice(self.rng)

    # -- the campaign ------------------------------------------------------
    def open_campaign(self, where: str | os.PathLike[str], read_only: bool = False) -> Campaign:
        """Open (or create) the campaign at ``where`` and make it the session's.

        The session takes over the campaign's ruleset when it has one. A
        campaign opened ``read_only`` (also a damaged one: its intact part)
        records neither rolls nor a ruleset.
        """
        from .state import Campaign
        campaign = Campaign.open(where, read_only=read_only)
        self.close_campaign()
        self.campaign = campaign
        if campaign.ruleset:
            self.ruleset = campaign.ruleset
        if campaign.language in messages.languages():
            messages.set_language(campaign.language)
        return campaign

    def close_campaign(self) -> None:
        if self.campaign is not None:
            self.campaign.close()
            self.campaign = None

    def need_campaign(self) -> Campaign:
        """The open campaign, or a German error that says how to open one."""
        if self.campaign is None:
            raise RpgError(t("rpg.no_campaign"))
        return self.campaign

    def set_ruleset(self, key: str, switch: bool = False) -> None:
        """Choose the ruleset; an open campaign records it (once, not on every repeat).

        A campaign that already plays another ruleset changes only with
        ``switch``; otherwise a German error names its ruleset, its figures
        and how to switch. A campaign without a ruleset takes ``key``.
        """
        camp = self.campaign
        if camp is not None and camp.ruleset not in (None, key) and not switch:
            raise RpgError(_ruleset_kept(camp, key))
        self.ruleset = key
        if camp is not None and not camp.read_only and camp.ruleset != key:
            camp.set_ruleset(key)

    def log(self, rolled: Any) -> None:
        """Write a roll (or the rolls of ``%roll -n``, as one transaction) into the open campaign."""
        camp = self.campaign
        if camp is None or camp.read_only:
            return
        camp.log_rolls([rolled] if hasattr(rolled, "to_dict") else rolled)

    def undo(self) -> str:
        """Undo the campaign's last change; what it was, in the journal's words."""
        return journal_summary(self.need_campaign().undo())

    def redo(self) -> str:
        """Redo the last undone change; what it was, in the journal's words."""
        return journal_summary(self.need_campaign().redo())

    def journal(self, last: int | None = None, kind: str | None = None, figure: str | None = None,
                encounter: str | None = None) -> Journal:
        return self.need_campaign().journal(kind=kind, figure=figure, encounter=encounter, last=last)


_SHOWN = 3  # journal texts named in an undo/redo confirmation
_FIGURES_SHOWN = 6  # figures named when a ruleset switch is refused


def figure_names(camp: Campaign) -> list[str]:
    """The campaign's characters, then the combatants of each encounter, each name once."""
    names = list(camp.characters)
    for enc in camp.encounters.values():
        names += enc.combatants
    return list(dict.fromkeys(names))


def _ruleset_kept(camp: Campaign, key: str) -> str:
    """Why ``camp`` keeps its ruleset instead of ``key``: its ruleset, its figures, the explicit switch."""
    from . import rules
    names = figure_names(camp)
    more = len(names) - _FIGURES_SHOWN
    figures = (t("rpg.campaign_figures", names=", ".join(names[:_FIGURES_SHOWN])
                 + (" " + t("rpg.and_more", n=more) if more > 0 else ""))
               if names else t("rpg.campaign_no_figures"))
    current = camp.ruleset
    return t("rpg.ruleset_kept", where=camp.store.where, current=current, title=rules.title(current),
             figures=figures, key=key)


def journal_summary(texts: list[str]) -> str:
    """The first journal texts of a transaction, and how many more there are."""
    more = len(texts) - _SHOWN
    return "; ".join(texts[:_SHOWN]) + (" " + t("rpg.and_more", n=more) if more > 0 else "")


_current: Session | None = None


def current() -> Session:
    """The kernel's session, created on first use with an unseeded generator."""
    global _current
    if _current is None:
        _current = Session()
    return _current


