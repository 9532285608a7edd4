"""What a ruleset procedure returns: the steps it took, the outcome, the
effects on the campaign, the preview computed before the dice fell, and the
choices still open.

A procedure reads figures, rolls through the ``Roller`` and returns effects instead of changing
anything; only a closed resolution's effects are applied.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from ..dice import Dist, Roll
from ..dice.roll import Roller
from ..display import Shown
from ..messages import ReadsTexts, Text, t
from ..state.effects import Effect
from .advice import Advice
from .figure import Figure, view
from .settings import Settings


@dataclass(frozen=True)
class Step:
    """One step: German text, the rule (section of the seed) it applies, its dice and value."""

    text: str
    rule: str = ""
    rolls: tuple[Roll, ...] = ()
    value: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "rule": self.rule, "value": self.value,
                "rolls": [r.to_dict() for r in self.rolls]}


@dataclass(frozen=True)
class Choice:
    """A decision after the roll that the engine never takes silently (Deny, gambit, luck, grace).

    ``who`` may take it; ``also`` may take it too where the table says so (``also_label`` tells
    them). ``options``: the values offered; ``values``: per option of the choice verb, the closed set
    it takes. ``lapses``: the offer ends by itself, declined, with the next roll.
    """

    key: str
    label: str
    who: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    also: tuple[str, ...] = ()
    also_label: str = ""
    values: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    lapses: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "label": self.label, "who": list(self.who), "options": list(self.options),
                **({"also": list(self.also), "also_label": self.also_label} if self.also else {}),
                **({"values": {k: list(v) for k, v in self.values.items()}} if self.values else {}),
                **({"lapses": True} if self.lapses else {})}


@dataclass(repr=False)
class Resolution(Shown):
    """The result of a procedure; ``open`` while ``choices`` remain.

    ``summary`` says the outcome as one German sentence a GM reads at a glance
    ("Söldner 1 verliert 12 VIG und ist tot"); the numbers behind it stay in
    ``steps`` and ``outcome``. ``advice``: the options of the open choices with their
    consequences (``rules.advice``), as the ruleset's ``advice`` slot gives them. ``id``: the stable
    id of an open resolution kept in a campaign, which a choice line names (``auflösung=ID``).
    """

    ruleset: str
    action: str
    actors: tuple[str, ...] = ()
    targets: tuple[str, ...] = ()
    steps: list[Step] = field(default_factory=list)
    outcome: dict[str, Any] = field(default_factory=dict)
    effects: list[Effect] = field(default_factory=list)
    preview: Dist | float | dict[str, Any] | None = None
    choices: list[Choice] = field(default_factory=list)
    summary: str = ""
    advice: list[Advice] = field(default_factory=list)
    id: str = ""

    @property
    def open(self) -> bool:
        return bool(self.choices)

    def step(self, text: str, rule: str = "", *rolls: Roll, value: int | None = None) -> Step:
        s = Step(text, rule, tuple(rolls), value)
        self.steps.append(s)
        return s

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable form (a Dist in the preview as its pmf)."""
        return {"ruleset": self.ruleset, "action": self.action, "actors": list(self.actors),
                "targets": list(self.targets), "steps": [s.to_dict() for s in self.steps],
                "outcome": self.outcome, "effects": [e.to_dict() for e in self.effects],
                "preview": _plain(self.preview), "choices": [c.to_dict() for c in self.choices], "open": self.open,
                "summary": self.summary, "advice": [a.to_dict() for a in self.advice],
                **({"id": self.id} if self.id else {})}



def listing(items: Sequence[str]) -> str:
    """Names (or clauses) as German prose: "A", "A und B", "A, B und C"."""
    items = list(items)
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} {t('resolution.and')} {items[-1]}"


def sentence(key: str, subjects: Sequence[str], /, **fields: Any) -> str:
    """The catalogue text ``key`` about ``subjects`` (its ``{wer}``), in the plural (``key`` + "_viele")
    for several."""
    return t(key + ("_viele" if len(subjects) > 1 else ""), wer=listing(subjects), **fields)


def counted(key: str, n: int, /, **fields: Any) -> str:
    """The catalogue text ``key`` for one (its ``{n}``), ``key`` + "_viele" for any other number."""
    return t(key + ("" if n == 1 else "_viele"), n=n, **fields)


def clauses(parts: Sequence[str]) -> str:
    """Clauses as one sentence of a summary: "A; B."."""
    return "; ".join(p for p in parts if p) + "."


def _plain(value: Any) -> Any:
    if isinstance(value, Dist):
        return {"pmf": {str(k): v for k, v in value.pmf().items()}}
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


@dataclass
class Request:
    """What a ``%%resolve`` line (or a widget click) asks of a procedure.

    ``actors``, ``targets``, ``figures``: read-only figure views; ``options``:
    the line's options, checked against the verb; ``roller``: the dice (None
    for a preview); ``data`` and ``settings``: the GM's data and the ruleset's
    settings, read-only. ``decisions`` is empty on the first run; on a re-run
    with the same dice it holds the decisions taken on the offered choices
    (each a dict with ``figures``, ``targets`` and the options), or [] when
    declined.
    """

    actors: list[Figure]
    targets: list[Figure]
    options: dict[str, Any]
    roller: Roller | None
    decisions: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    figures: dict[str, Figure] = field(default_factory=dict)
    data: Mapping[str, Any] = field(default_factory=dict)
    kept: Settings[Any] | None = None
    combatants: dict[str, Figure] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.actors = [view(f) for f in self.actors]
        self.targets = [view(f) for f in self.targets]
        self.figures = {k: view(f) for k, f in self.figures.items()}
        self.combatants = {k: view(f) for k, f in self.combatants.items()}

    @property
    def settings(self) -> Any:
        """The ruleset's GM settings in ``data`` (its defaults where the GM kept none)."""
        if self.kept is None:
            raise TypeError("this ruleset has no settings")
        return self.kept.of(self.data)


@dataclass(frozen=True)
class Verb(ReadsTexts):
    """A ``%%resolve`` verb: German name, aliases, the procedure, what it takes.

    ``procedure(request) -> Resolution`` carries the line out; ``preview(request)`` (no roller)
    returns what ``--vorschau`` shows. ``actors``: "one" or "many"; ``targets``: "none", "one",
    "optional" or "required"; ``options``: name -> kind ("dice", "pool", "int", "text", "name",
    "flag"); an "int" lies within ``bounds[name]``, else ``INT_RANGE``. A verb with ``choice``
    takes that choice on the latest open resolution offering it.
    """

    name: str
    procedure: Callable[[Request], Resolution] | None
    help: Text
    aliases: tuple[str, ...] = ()
    targets: str = "none"
    options: dict[str, str] = field(default_factory=dict)
    example: str = ""
    actors: str = "many"
    choice: str | None = None
    preview: Callable[[Request], Any] | None = None
    bounds: Mapping[str, tuple[int, int]] = field(default_factory=dict)

    def range(self, option: str) -> tuple[int, int]:
        """The lowest and highest value of the "int" option ``option``."""
        return self.bounds.get(option, INT_RANGE)


#: the choice verb every ruleset with choices has (``%%resolve`` adds it): decline what is still open
PASS = "verzicht"

#: the values an "int" option may take where its verb names no range of its own: modifiers,
#: bonus dice and counts at a table stay far inside it, and so the work they cause stays small
INT_RANGE = (-100, 100)
