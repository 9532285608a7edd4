"""The GM's data ``prognose``: each combatant's attack in a forecast, where
the seed leaves an attack's numbers to the GM (Kampfwerte, the free mode).

An entry merges ``figuren`` over ``seiten`` over ``alle``, field by field
(English: ``figures``, ``sides``, ``all``; each ruleset names its fields' English aliases).
``EntryField`` names a field and its check (``dice`` or ``odds``);
``AttackData`` checks the table, and ``entry`` gives a combatant's fields
or a German error naming what to add. Nothing is filled in.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Mapping

from ..dice import Roller, dist
from ..errors import RpgError
from ..messages import ReadsTexts, Text, t
from .errors import RulesError
from .figure import Figure
from .aliases import renamed
from .settings import Settings

DATEN = "prognose"
ALLE, SEITEN, FIGUREN = "alle", "seiten", "figuren"
#: the English names of the parts, read as aliases (``rules.aliases``)
ENGLISH = {"all": ALLE, "sides": SEITEN, "figures": FIGUREN}
#: the largest die a probability is rolled on (four decimals: ``W10000<=3456``)
MAX_NENNER = 10_000


@dataclass(frozen=True)
class Dice:
    """A dice expression of the GM's data, and its mean counted as the procedures count damage
    (below 0 as 0)."""

    expression: str
    mean: float


@dataclass(frozen=True)
class Odds:
    """A yes or no of the GM's data: ``expression`` comes out 1 (Erfolg) with probability ``p``."""

    expression: str
    p: float

    def rolled(self, roller: Roller) -> bool:
        """Whether it came out Erfolg this time, rolled through ``roller`` (the fight's dice)."""
        return roller.roll(self.expression).total == 1


def dice(value: Any) -> Dice | None:
    """A dice expression or a whole number (``"2W6+2"``, ``3``); None where it does not fit."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        return None
    try:
        found = dist(str(value))
    except RpgError:
        return None
    return Dice(str(value).strip(), found.clip(lower=0).mean)


def odds(value: Any) -> Odds | None:
    """A dice expression whose every outcome is 0 or 1 (``"W10>=8"``, ``"W20+5>=15"``), or a
    probability from 0 to 1 with at most four decimals (rolled exactly: ``0.35`` as ``W20<=7``);
    None where it does not fit."""
    if isinstance(value, str):
        try:
            found = dist(value)
        except RpgError:
            return None
        return Odds(value.strip(), found.p_exactly(1)) if set(found.support) <= {0, 1} else None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        return None
    exact = Fraction(str(value))
    if exact.denominator > MAX_NENNER:
        return None
    return Odds(f"W{exact.denominator}<={exact.numerator}", float(exact))


@dataclass(frozen=True)
class EntryField(ReadsTexts):
    """One field of an entry: ``read`` gives its checked value (None where it does not fit),
    ``expected`` says in German what fits, ``example`` is a value that fits (for the messages)."""

    read: Callable[[Any], Any]
    expected: Text
    example: Any


def _shown(value: Any, limit: int | None = 60) -> str:
    """A value of the data as the GM wrote it (JSON reads as Python), shortened to ``limit``."""
    text = json.dumps(value, ensure_ascii=False)
    return text if limit is None or len(text) <= limit else text[:limit - 1] + "…"


class AttackData(ReadsTexts):
    """The data ``prognose`` as a ruleset reads it: its ``fields``, its ``example`` (a whole data
    entry, for the messages), ``why`` the forecast needs it (German, the ruleset's catalogue) and the
    fields' ``aliases`` (English)."""

    def __init__(self, fields: Mapping[str, EntryField], example: Mapping[str, Any], why: Text,
                 aliases: Mapping[str, str] | None = None) -> None:
        self.fields, self.example, self.why = dict(fields), dict(example), why
        self.aliases = dict(aliases or {})
        self.settings = Settings(DATEN, self._build, aliases=ENGLISH)

    def _build(self, kept: Any) -> dict[str, Any]:
        if not isinstance(kept, dict) or set(kept) - {ALLE, SEITEN, FIGUREN}:
            raise RulesError(t("prognose.bad_shape", value=_shown(kept), example=_shown(self.example, None)))
        built: dict[str, Any] = {ALLE: self._entry(kept.get(ALLE, {}), f"„{ALLE}“")}
        for part in (SEITEN, FIGUREN):
            named = kept.get(part, {})
            if not isinstance(named, dict):
                raise RulesError(t("prognose.bad_part", part=part, value=_shown(named)))
            built[part] = {name: self._entry(entry, f"„{part}“ → „{name}“") for name, entry in named.items()}
        return built

    def _entry(self, entry: Any, where: str) -> dict[str, Any]:
        if not isinstance(entry, dict):
            raise RulesError(t("prognose.bad_entry", where=where, value=_shown(entry),
                               example=_shown(self.example[ALLE], None)))
        out = {}
        for key, value in renamed(entry, self.aliases).items():
            if key not in self.fields:
                raise RulesError(t("prognose.unknown_field", where=where, field=key, known=", ".join(self.fields)))
            out[key] = self.fields[key].read(value)
            if out[key] is None:
                raise RulesError(t("prognose.bad_field", where=where, field=key, value=_shown(value),
                                   expected=self.fields[key].expected))
        return out

    def entry(self, figure: Figure, data: Mapping[str, Any]) -> dict[str, Any]:
        """The checked fields of ``figure``'s entry (its own over its side's over ``alle``); without
        any data ``prognose`` a German error saying what to add."""
        if not data.get(DATEN):
            line = f'kampagne.set_data("{DATEN}", {_shown(self.example, None)})'
            raise RulesError(t("prognose.missing", why=self.why, example=line))
        kept = self.settings.of(data)
        return {**kept[ALLE], **kept[SEITEN].get(figure.side, {}), **kept[FIGUREN].get(figure.name, {})}

    def missing(self, figure: Figure, key: str) -> RulesError:
        """The German error that ``figure``'s entry lacks ``key``, with where to add it."""
        example = {figure.name: {key: self.fields[key].example}}
        return RulesError(t("prognose.missing_field", figure=figure.name, side=figure.side, field=key,
                            expected=self.fields[key].expected, example=_shown(example, None)))

    def needed(self, figure: Figure, entry: Mapping[str, Any], key: str) -> Any:
        """The field ``key`` of ``figure``'s ``entry``, or the error that it lacks it."""
        if key not in entry:
            raise self.missing(figure, key)
        return entry[key]
