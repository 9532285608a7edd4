"""Carrying out a ``%%resolve`` cell.

Every line is checked before any runs; then the procedures run with one dice stream, and all
closed resolutions are applied in one transaction (one undo). A cell with an error, or with
given dice left over or missing, applies nothing. Open resolutions wait in ``state["pending"]``
with their faces; a choice line goes to the one its ``auflösung=ID`` names, else the newest
offering the choice.
"""

from __future__ import annotations

import copy
import difflib
import json
import re
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from .. import display, rules
from ..dice import limits
from ..dice.dialects import hints
from ..dice.nodes import Pool
from ..dice.parser import parse as parse_dice
from ..dice.roll import Roll, Roller
from ..display import Shown
from ..errors import DiceSyntaxError, GivenDiceError, ResolveError, RpgError
from ..messages import t
from ..numerals import integer
from ..rules.advice import DECLINE
from ..rules.base import Ruleset
from ..rules.resolution import PASS, Request, Resolution, Verb
from ..rules.wording import head, journal_line, preview_lines
from ..state import dicecheck, effects, model, tracker
from ..state.effects import Effect
from ..state.events import Event
from ..state.resources import Landed
from ..state.transaction import CampaignError, Transaction, check_name
from .language import Command, Word, error, insert, parse, quote
from .lines import ANSWERS, written

if TYPE_CHECKING:
    from ..state import Campaign

KIND = "auflösung"      # journal kind of a resolution


class Resolutions(Shown, list):
    """The resolutions of a cell with several actions, shown as cards one below the other."""


display.register(f"{__name__}.Resolutions", lambda rs: "\n\n".join(map(repr, rs)),
                 lambda rs: "".join(r._repr_html_() or "" for r in rs))


def resolve(source: str, *, ruleset: str | Ruleset | None = None, campaign: Campaign | None = None,
            seed: int | None = None, dice: Sequence[int] | None = None, preview: bool = False,
            figures: Mapping[str, Mapping[str, Any]] | None = None,
            dice_by: str | None = None, player: str | None = None) -> Resolution | Resolutions:
    """Carry out the ``%%resolve`` lines of ``source``.

    ``ruleset`` defaults to the campaign's. ``dice``: given results in the order the procedures
    roll; ``seed``: a stream of its own; neither: the session's stream. ``preview``: roll and change
    nothing. Without a campaign, ``figures`` (name -> record) are the figures, and nothing is
    stored. ``dice_by``: whose player threw the given ``dice``; ``player``: whose page sent the cell.

    Returns the resolution of a one-action cell, else a list of them.
    """
    engine = _engine(ruleset, campaign)
    if dice_by is not None:
        dice_by = check_name(dice_by, "figure")
    if campaign is not None:
        _same_ruleset(engine, campaign.state)
    spellings = _spellings(engine)
    commands = _parse(source, lambda: campaign.state if campaign is not None else _scratch_state(figures, engine))
    if campaign is None or preview:
        state = campaign.state if campaign is not None else _scratch_state(figures, engine)
        return _cell(commands, engine, spellings, Transaction(state), campaign is not None, seed, dice, preview)
    with campaign.transaction() as tx:
        return _cell(commands, engine, spellings, tx, True, seed, dice, preview,
                     _Who(dice_by, player and check_name(player, "figure"), campaign.store.events))


# -- the ruleset and its verbs ----------------------------------------------------
def _engine(ruleset: str | Ruleset | None, campaign: Campaign | None) -> Ruleset:
    if isinstance(ruleset, Ruleset):
        engine = ruleset
    else:
        key = ruleset or (campaign.ruleset if campaign is not None else None)
        if not key and campaign is None:
            raise RpgError(t("resolve.no_ruleset"))
        engine = rules.get(key or None)   # a campaign without a ruleset: the free mode
    if not engine.verbs:
        raise RpgError(t("resolve.no_verbs", key=engine.key or ruleset))
    return engine


def _title(key: str) -> str:
    return f"{rules.title(key)} ({key})"


def _same_ruleset(engine: Ruleset, state: dict[str, Any]) -> None:
    """A cell plays by the ruleset of the active encounter (else of the campaign) or is refused."""
    enc = state["encounters"].get(state["active_encounter"] or "")
    if enc is not None and enc.get("ruleset"):
        key, where = enc["ruleset"], t("resolve.of_encounter", name=enc["name"])
    else:
        key, where = state["settings"]["ruleset"], t("resolve.of_campaign")
    if key and key != engine.key:
        raise RpgError(t("resolve.other_ruleset", cell=_title(engine.key), where=where, own=_title(key),
                         key=key, other=engine.key, other_title=engine.title or engine.key))


def verbs(engine: Ruleset) -> dict[str, Verb]:
    """The verbs a ``%%resolve`` line of ``engine`` may name, by name: its own, and ``verzicht`` where
    one of them offers a choice."""
    table = dict(engine.verbs)
    if any(v.choice for v in table.values()) and PASS not in table:
        table[PASS] = Verb(PASS, None, t("resolve.pass_help"), aliases=("pass",), choice=DECLINE,
                           example="verzicht Söldner")
    return {v.name: v for v in table.values()}


def _spellings(engine: Ruleset) -> dict[str, Verb]:
    """Every spelling (German name, aliases; lower case) -> its verb."""
    return {n.lower(): v for v in verbs(engine).values() for n in (v.name, *v.aliases)}


# -- checking ---------------------------------------------------------------------
@dataclass
class _Line:
    cmd: Command
    verb: Verb
    options: dict[str, Any]
    answers: Word | None = None   # a choice line's ``auflösung=ID``

    @property
    def actors(self) -> list[str]:
        return [w.text for w in self.cmd.actors]

    @property
    def targets(self) -> list[str]:
        return [w.text for w in self.cmd.targets]

    def names(self) -> list[str]:
        named = [v for k, v in self.options.items() if self.verb.options.get(k) == "name"]
        return list(dict.fromkeys(self.actors + self.targets + named))


def _close_match(word: str, known: list[str]) -> str | None:
    close = difflib.get_close_matches(word, known, n=1, cutoff=0.6)
    return close[0] if close else None


def _unknown(key: str, word: Word, source: str, known: list[str], also: str | None, **fields: Any) -> ResolveError:
    close = _close_match(word.text, known) or _close_match(word.text.lower(), [k.lower() for k in known])
    message = t(key, **fields) + (t("resolve.close", suggestion=close) if close else ".")
    return error(message, source, word, also)


def _check(cmd: Command, verbs: dict[str, Verb], state: dict[str, Any], campaign: bool, key: str) -> _Line:
    verb = _verb_of(cmd, verbs)
    _check_arity(cmd, verb, state)
    for word in cmd.actors + cmd.targets:
        _check_figure(word, cmd.source, state, campaign, key)
    answers = cmd.options.get(ANSWERS) if verb.choice is not None else None
    options = _valued_options(cmd, verb, answers, state, campaign, key)
    options.update(_flags(cmd, verb, state))
    return _Line(cmd, verb, options, answers)


def _verb_of(cmd: Command, verbs: dict[str, Verb]) -> Verb:
    verb = verbs.get(cmd.verb.text.lower())
    if verb is None:
        names = sorted({v.name for v in verbs.values()})
        raise _unknown("resolve.unknown_verb", cmd.verb, cmd.source, sorted(verbs),
                       t("resolve.known_verbs", verbs=", ".join(names)), verb=cmd.verb.text)
    return verb


def _check_arity(cmd: Command, verb: Verb, state: dict[str, Any]) -> None:
    """As many actors and targets as the verb takes."""
    src = cmd.source
    if verb.actors == "one" and len(cmd.actors) > 1:
        raise error(t("resolve.one_actor", verb=verb.name), src, cmd.actors[1])
    if verb.targets == "none" and cmd.targets:
        raise error(t("resolve.no_targets", verb=verb.name), src, cmd.targets[0])
    if verb.targets in ("one", "required") and not cmd.targets:
        named = _figure_at(cmd, cmd.flags[0], state) if cmd.flags else None
        hint = (t("resolve.missing_join", join="->", line=_joined(cmd, cmd.flags[0], named)) if named
                else _arrow_hint(cmd, state))
        raise error(t("resolve.needs_target", verb=verb.name), src, None, hint, line=cmd.line,
                    col=len(src.rstrip()) + 2)
    if verb.targets == "one" and len(cmd.targets) > 1:
        raise error(t("resolve.one_target", verb=verb.name), src, cmd.targets[1])


def _known_options(verb: Verb) -> tuple[list[str], str]:
    """The verb's options (and the answers' key where it asks), and the sentence that lists them."""
    known = sorted(verb.options) + ([ANSWERS] if verb.choice is not None else [])
    also = (t("resolve.known_options", verb=verb.name, options=", ".join(known)) if known
            else t("resolve.no_options", verb=verb.name))
    return known, also


def _valued_options(cmd: Command, verb: Verb, answers: Any, state: dict[str, Any], campaign: bool,
                    key: str) -> dict[str, Any]:
    """The line's ``name=value`` options, each checked against the verb."""
    options: dict[str, Any] = {}
    for name, value in cmd.options.items():
        if value is answers:
            continue
        at = Word(name, value.line, value.col - len(name) - 1)
        kind = verb.options.get(name)
        if kind is None:
            raise _unknown("resolve.unknown_option", at, cmd.source, *_known_options(verb), option=name,
                           verb=verb.name)
        if kind == "flag":
            raise error(t("resolve.flag_value", option=name), cmd.source, at)
        options[name] = _value(verb, kind, name, value, cmd.source, state, campaign, key)
    return options


def _flags(cmd: Command, verb: Verb, state: dict[str, Any]) -> dict[str, bool]:
    """The line's bare words after its figures: the verb's flags (a figure there lacks its ``->`` or comma)."""
    src = cmd.source
    options: dict[str, bool] = {}
    for flag in cmd.flags:
        kind = verb.options.get(flag.text)
        if kind is None:
            named = _figure_at(cmd, flag, state) if verb.targets != "none" else None
            if named is not None:
                raise error(t("resolve.misplaced", found=named[0]), src, flag,
                            t("resolve.missing_join", join="," if cmd.targets else "->",
                              line=_joined(cmd, flag, named)))
            raise _unknown("resolve.unknown_flag", flag, src, *_known_options(verb), flag=flag.text,
                           verb=verb.name)
        if kind != "flag":
            raise error(t("resolve.needs_value", option=flag.text), src, flag)
        options[flag.text] = True
    return options


def _figure_at(cmd: Command, flag: Word, state: dict[str, Any]) -> tuple[str, int] | None:
    """The figure named by the words from ``flag`` on when they follow the line's figures
    (a forgotten ``->`` or comma): its name and the column where its words end; else None."""
    if flag is not cmd.flags[0] or any(w.col < flag.col for w in cmd.options.values()):
        return None
    return _name_at(cmd.source, flag.col - 1, _figure_names(state), 1)


def _name_at(source: str, start: int, known: list[str], least: int) -> tuple[str, int] | None:
    """The longest of ``known`` that the words of ``source`` from ``start`` on spell (of at least ``least``
    words, case aside, up to an option, a quote, a comma or ``->``): its name and the column where its
    words end; else None."""
    words = []
    for m in re.finditer(r"[^\s,]+", source[start:].partition("#")[0]):
        if m.group() == "->" or set(m.group()) & set("=\"'"):
            break
        words.append(m)
    by_lower = {n.lower(): n for n in known}
    for n in range(len(words), least - 1, -1):
        name = by_lower.get(" ".join(w.group() for w in words[:n]).lower())
        if name is not None:
            return name, start + words[n - 1].end()
    return None


def _joined(cmd: Command, flag: Word, named: tuple[str, int]) -> str:
    """The line with ``->`` (after the targets: a comma) before the figure at ``flag``, quoted as needed."""
    name, end = named
    src = cmd.source
    fixed = src[:flag.col - 1] + quote(name) + src[end:]
    return insert(fixed, flag.col, "," if cmd.targets else " ->")


def _arrow_hint(cmd: Command, state: dict[str, Any]) -> str | None:
    """For a verb without its target: the line with the last of several figures after ``->``."""
    if len(cmd.actors) < 2 or model.figure_path(state, cmd.actors[-1].text) is None:
        return None
    src = cmd.source
    comma = src.rindex(",", 0, cmd.actors[-1].col - 1)
    fixed = src[:comma].rstrip() + " -> " + src[comma + 1:].lstrip()
    return t("resolve.missing_join", join="->", line=fixed.strip())


def _check_figure(word: Word, source: str, state: dict[str, Any], campaign: bool, key: str) -> None:
    path = model.figure_path(state, word.text)
    if path is not None:
        own = model.figure(state, path).get("ruleset")
        if own and own != key:
            raise error(t("resolve.figure_ruleset", name=word.text, own=_title(own), cell=_title(key)),
                        source, word)
        return
    known = _figure_names(state)
    if not known and not campaign:
        raise error(t("resolve.no_campaign", name=word.text), source, word)
    active = state["active_encounter"]
    if active and word.text in state["encounters"][active].get("removed", ()):
        raise error(tracker.removed_figure(word.text, active, True), source, word)
    spaced = _name_at(source, word.col - 1, known, 2)   # "Räuber" and "2": "Räuber 2", unquoted
    if spaced is not None:
        name, end = spaced
        fixed = source[:word.col - 1] + quote(name) + source[end:]
        raise error(t("resolve.unquoted_name", name=word.text, found=name), source, word,
                    t("resolve.quoted_line", line=fixed.strip()))
    raise _unknown("resolve.unknown_figure", word, source, known,
                   t("resolve.known_figures", names=", ".join(known) or "–"), name=word.text)


def _parse(source: str, state: Callable[[], dict[str, Any]]) -> list[Command]:
    """The commands of ``source``; a line the language refuses that names a figure with a space unquoted
    ("angriff Räuber 2 -> Elfe") gets the quoted line as its suggestion."""
    try:
        return parse(source)
    except ResolveError as err:
        if err.suggestion is not None:
            raise
        fixed = err.source
        for name in sorted((n for n in _figure_names(state()) if " " in n.strip()), key=len, reverse=True):
            fixed = re.sub(rf"(?<![\w\"']){re.escape(name)}(?![\w\"'])", lambda _: quote(name), fixed, flags=re.I)
        if fixed == err.source:
            raise
        raise ResolveError(err.message, err.source, err.line, err.column,
                           t("resolve.quoted_line", line=fixed.strip())) from None


def _figure_names(state: dict[str, Any]) -> list[str]:
    enc = state["encounters"].get(state["active_encounter"] or "")
    return list(dict.fromkeys(list(enc["combatants"] if enc else []) + list(state["characters"])))


def _value(verb: Verb, kind: str, key: str, word: Word, source: str, state: dict[str, Any], campaign: bool,
           ruleset: str) -> Any:
    text = word.text
    if kind == "int":
        return _int(verb, key, word, source)
    if kind == "dice":
        try:
            parse_dice(text)
        except DiceSyntaxError as err:
            raise ResolveError(t("resolve.bad_dice", option=key, value=_short(text), message=err.message), source,
                               word.line, word.col + (err.position or 0), err.suggestion) from None
        return text
    if kind == "pool":
        return _pool(key, word, source)
    if kind == "name":
        _check_figure(word, source, state, campaign, ruleset)
    return text


_INT = re.compile(r"[+-]?\d+")


def _short(text: str, size: int = 40) -> str:
    """``text`` cut to ``size`` characters for a message."""
    return text if len(text) <= size else text[:size - 1] + "…"


def _int(verb: Verb, key: str, word: Word, source: str) -> int:
    """An integer option, within the verb's range for it (``Verb.bounds``)."""
    low, high = verb.range(key)
    text = word.text.replace("−", "-")
    if not _INT.fullmatch(text):
        raise error(t("resolve.bad_int", option=key, value=_short(word.text)), source, word)
    digits = text.lstrip("+-").lstrip("0")
    value = int(text) if len(digits) <= 20 else None  # longer: far outside any range
    if value is None or not low <= value <= high:
        shown = _short(text, 16) + (t("resolve.digits", n=len(digits)) if len(digits) > 15 else "")
        raise error(t("resolve.int_range", option=key, value=shown, low=integer(low), high=integer(high)),
                    source, word)
    return value


def _pool(key: str, word: Word, source: str) -> list[str]:
    """``W8``, ``2W6`` or ``{W8,W4,2W6}`` -> ["W8"], ["W6", "W6"], ["W8", "W4", "W6", "W6"]."""
    text = word.text
    inner, offset = (text[1:-1], 1) if text.startswith("{") and text.endswith("}") else (text, 0)
    out: list[str] = []
    for item in inner.split(","):
        col = word.col + offset
        offset += len(item) + 1
        try:
            node = parse_dice(item)
        except DiceSyntaxError as err:
            raise ResolveError(t("resolve.bad_dice", option=key, value=_short(text), message=err.message), source,
                               word.line, col + (err.position or 0), err.suggestion) from None
        groups = node.groups if isinstance(node, Pool) and node.keep is None and node.count is None else ()
        if len(groups) != 1 or not groups[0].die.plain:
            raise ResolveError(t("resolve.bad_pool", option=key, value=_short(text)), source, word.line, col)
        out += [f"W{groups[0].die.sides}"] * groups[0].count
        if len(out) > limits.MAX_DICE:  # the limit of one dice expression holds for the whole pool
            raise ResolveError(t("resolve.pool_dice", option=key, max=integer(limits.MAX_DICE)), source, word.line,
                               col)
    return out


# -- running ----------------------------------------------------------------------
def _scratch_state(figures: Mapping[str, Mapping[str, Any]] | None, engine: Ruleset) -> dict[str, Any]:
    """A state holding ``figures`` as a campaign would: each sheet checked by the ruleset, with the
    resources it gives, those the record names taking their place."""
    state = model.initial()
    for name, record in (figures or {}).items():
        fig = {"sheet": {}, "conditions": {}, "ruleset": engine.key, **copy.deepcopy(dict(record)), "name": name}
        data = model.data(state)   # none: a scratch state keeps no GM data
        fig["sheet"] = engine.sheet.for_data(data).validate(fig["sheet"])
        fig["resources"] = {**engine.sheet.resources(fig["sheet"], data), **fig.get("resources", {})}
        state["characters"][name] = fig
    return state


@dataclass
class _Pending:
    """An open resolution: stored in the campaign (``stored``) or opened in this cell."""

    id: str
    record: dict[str, Any]
    stored: bool
    result: Resolution | None = None
    index: int | None = None       # its place among this cell's results
    changed: bool = False
    closed: bool = False
    decisions: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    lines: list[_Line] = field(default_factory=list)
    thrown: list[tuple[int, int]] = field(default_factory=list)   # echte Würfel not journalled yet

    def offers(self, key: str, targets: Sequence[str] = ()) -> str | None:
        return offers(self.record, key, targets)


def _lapses(record: Mapping[str, Any]) -> bool:
    """Whether every open choice of the stored resolution ``record`` lapses with the next roll."""
    return bool(record["choices"]) and all(c.get("lapses") for c in record["choices"])


def offers(record: Mapping[str, Any], key: str, targets: Sequence[str] = ()) -> str | None:
    """The open choice of the stored resolution ``record`` a ``key`` line takes: ``key`` itself,
    or ``key:target`` (one per target)."""
    keys = [c["key"] for c in record["choices"]]
    if key == DECLINE:
        return key
    for name in targets:
        if f"{key}:{name}" in keys:
            return f"{key}:{name}"
    return next((k for k in keys if k == key or k.startswith(key + ":")), None)


def _dice_rolled(res: Resolution) -> list[list[int]]:
    """Every die ``res`` rolled, in order, as ``[sides, face]`` (a rerolled die: each face)."""
    return [[d.sides, f] for s in res.steps for r in s.rolls for d in r.dice for f in d.faces]


def not_open(journal: Iterable[Event], pid: str, closed: bool = False) -> str:
    """Why the resolution ``pid`` is not open, as the journal tells (or ``closed``: in this very cell):
    closed, undone, or unknown."""
    entries: list[tuple[str, bool]] = []
    undone: set[str] = set()
    for event in journal:
        if event.kind in (model.UNDO, model.REDO):
            (undone.add if event.kind == model.UNDO else undone.discard)(str(event.data.get("of")))
        elif event.kind == KIND and event.data.get("pending") == pid:
            entries.append((event.tx, bool(event.data.get("open"))))
    if closed or any(not is_open for tx, is_open in entries if tx not in undone):
        return t("resolve.answer_closed", id=pid)
    return t("resolve.answer_undone" if entries else "resolve.answer_unknown", id=pid)


@dataclass(frozen=True)
class _Who:
    """Who sent a cell: ``dice_by`` threw its given dice, ``player``'s page sent it (None: the
    Spielleitung); ``journal`` reads the campaign's entries (why a named resolution is not open)."""

    dice_by: str | None = None
    player: str | None = None
    journal: Callable[[], Iterable[Event]] | None = None


def _cell(commands: list[Command], engine: Ruleset, verbs: dict[str, Verb], work: Any, campaign: bool,
          seed: int | None, dice: Sequence[int] | None, preview: bool,
          who: _Who = _Who()) -> Resolution | Resolutions:
    lines = [_check(cmd, verbs, work.state, campaign, engine.key) for cmd in commands]
    if preview:
        return _result([_preview(line, engine, work.state) for line in lines])
    return _result(_carried_out(lines, engine, verbs, work, Roller(seed=seed, dice=dice), who, advised=True))


def _carried_out(lines: list[_Line], engine: Ruleset, verbs: dict[str, Verb], work: Any,
                 roller: Roller, who: _Who = _Who(), advised: bool = False) -> list[Resolution]:
    """Run ``lines`` as one cell; ``advised``: a cell the GM or a player sees, whose open resolutions
    get the ruleset's advice and whose resolutions are journalled (a forecast's fights get neither:
    their transactions are never written)."""
    cell = _Cell(engine, verbs, work, roller, who, advised)
    for line in lines:
        cell.run(line)
    cell.flush()
    cell.roller.finish()
    cell.store_open()
    return cell.results


def carry_out(work: Transaction, engine: Ruleset, source: str, roller: Roller) -> list[Resolution]:
    """Carry out the ``%%resolve`` lines ``source`` in ``work`` (a transaction on a state of its own,
    as a forecast plays a fight), rolling through ``roller``: as a cell of a campaign does, without
    a campaign to write to."""
    spellings = _spellings(engine)
    lines = [_check(cmd, spellings, work.state, True, engine.key) for cmd in _parse(source, lambda: work.state)]
    return _carried_out(lines, engine, spellings, work, roller)


def _result(results: list[Resolution]) -> Resolution | Resolutions:
    return results[0] if len(results) == 1 else Resolutions(results)


def _records(state: dict[str, Any], names: list[str]) -> dict[str, dict[str, Any]]:
    out = {}
    for name in names:
        record = model.seen_by_rules(state, name, copied=False)   # a procedure reads it through a view
        if record is None:
            raise CampaignError(t("campaign.unknown_figure", name=name))
        out[name] = record
    return out


def _request(engine: Ruleset, state: dict[str, Any], verb: Verb, actors: list[str], targets: list[str],
             options: dict[str, Any], roller: Roller | None,
             decisions: dict[str, list[dict[str, Any]]] | None = None) -> Request:
    named = [v for k, v in options.items() if verb.options.get(k) == "name"]
    deciders = [n for taken in (decisions or {}).values() for x in taken
                for n in (*x.get("figures", ()), *x.get("targets", ()))]
    figures = _records(state, list(dict.fromkeys(actors + targets + named + deciders)))
    return Request([figures[n] for n in actors], [figures[n] for n in targets], dict(options), roller,
                   decisions or {}, figures, model.data(state), engine.settings, _combatants(state))


def _combatants(state: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The active encounter's combatants as rulesets read them, in turn order (those not in it yet after)."""
    enc = state["encounters"].get(state["active_encounter"] or "")
    if enc is None:
        return {}
    found = (model.seen_by_rules(state, n, copied=False) for n in dict.fromkeys([*enc["order"], *enc["combatants"]]))
    return {r["name"]: r for r in found if r is not None}


def _call(func: Callable[[Request], Any], request: Request, cmd: Command) -> Any:
    """Run a procedure or preview; its user errors name the line."""
    try:
        return func(request)
    except (ResolveError, CampaignError):
        raise
    except GivenDiceError as err:
        raise GivenDiceError(t("resolve.in_line", line=cmd.line) + " " + str(err)) from None
    except RpgError as err:
        raise ResolveError(str(err), cmd.source, cmd.line, cmd.verb.col) from None


class _FirstDie(BaseException):
    """Where a procedure run only for its checks would roll its first die (not an error)."""


class _Unrolled:
    """The dice of a run that only checks a line: the procedure stops at its first roll, after
    the roll's expression is read (and refused where a roll would refuse it)."""

    given = False

    def roll(self, expr: str, variables: Mapping[str, object] | None = None) -> Roll:
        parse_dice(expr, variables)
        raise _FirstDie


def _preview(line: _Line, engine: Ruleset, state: dict[str, Any]) -> Resolution:
    """The preview of a line, after the same checks as its roll: the procedure runs up to its
    first die (nothing is rolled; what it returns is dropped)."""
    verb = line.verb
    res = Resolution(engine.key, verb.name, tuple(line.actors), tuple(line.targets))
    if verb.choice is not None:
        res.step(t("resolve.choice_preview"))
        return res
    assert verb.procedure is not None
    try:
        unrolled = _request(engine, state, verb, line.actors, line.targets, line.options, _Unrolled())
        _call(verb.procedure, unrolled, line.cmd)
    except _FirstDie:
        pass
    for key, text in line.options.items():  # the dice typed into the line, as the card of a roll shows them
        if verb.options.get(key) == "dice":
            for hint in hints(text, parse_dice(text)):
                res.step(f"{key}: {hint}")
    if verb.preview is None:
        res.step(t("resolve.no_preview", verb=verb.name))
    else:
        request = _request(engine, state, verb, line.actors, line.targets, line.options, None)
        res.preview = _call(verb.preview, request, line.cmd)
        res.step(t("resolve.preview_only"))
    return res


def _plain(data: Any) -> Any:
    """A JSON-clean copy (tuples become lists)."""
    return json.loads(json.dumps(data))


class _Cell:
    def __init__(self, engine: Ruleset, verbs: dict[str, Verb], work: Any, roller: Roller,
                 who: _Who = _Who(), advised: bool = False) -> None:
        self.engine, self.work, self.roller, self.who, self.advised = engine, work, roller, who, advised
        self.by_name = {v.name: v for v in verbs.values()}
        self.results: list[Resolution] = []
        stored = work.state.get("pending", {})
        # a shallow copy: ``flush`` only replaces a record's fields, never changes them in place
        self.pending = [_Pending(pid, dict(rec), True) for pid, rec in
                        sorted(stored.items(), key=lambda kv: (kv[1].get("order", []), kv[0]))
                        if rec.get("ruleset") == engine.key]
        self.block: _Pending | None = None
        self.counter = 0

    def run(self, line: _Line) -> None:
        if line.verb.choice is not None:
            self.choose(line)
            return
        self.flush()
        self.lapse(line)
        request = _request(self.engine, self.work.state, line.verb, line.actors, line.targets, line.options,
                           self.roller)
        mark, before = self.roller.mark(), len(self.roller.thrown)
        res = _call(line.verb.procedure, request, line.cmd)
        faces = self.roller.since(mark)
        thrown = list(self.roller.thrown[before:])
        if res.open:
            self.counter += 1
            self.advise(request, res, line.cmd)
            res.id = uuid.uuid4().hex[:12]
            record = {"ruleset": self.engine.key, "verb": line.verb.name, "source": line.cmd.source.strip(),
                      "actors": line.actors, "targets": line.targets, "options": line.options,
                      "faces": faces, "decisions": {}, "choices": [c.to_dict() for c in res.choices],
                      "advice": [a.to_dict() for a in res.advice], "head": head(res), "dice": _dice_rolled(res),
                      "order": [self.work.state.get("seq", 0), self.counter]}
            self.pending.append(_Pending(res.id, _plain(record), False, res,
                                         len(self.results), changed=True, thrown=thrown))
        else:
            self.close(res, thrown=thrown)
        self.results.append(res)

    def lapse(self, line: _Line) -> None:
        """Before ``line`` rolls (tried on dice of its own first): each open resolution whose offers
        lapse with the next roll (``Choice.lapses``) declines them, as often as its procedure opens one
        again, and closes, journalled, with a step saying why; its further rolls come first."""
        lapsing = [p for p in self.pending if not p.closed and _lapses(p.record)]
        if not lapsing:
            return
        trial = Roller(seed=0)
        _call(line.verb.procedure, _request(self.engine, self.work.state, line.verb, line.actors, line.targets,
                                            line.options, trial), line.cmd)
        if not trial.mark():
            return
        note = t("resolve.lapsed", line=line.cmd.source.strip())
        for p in lapsing:
            while not p.closed and _lapses(p.record):
                self.block = p
                p.lines.append(line)
                self.flush(note)

    def choose(self, line: _Line) -> None:
        key = line.verb.choice
        if line.answers is not None:
            found = self.answered(line, key)
        else:
            found = next((p for p in reversed(self.pending) if not p.closed and p.offers(key, line.targets)), None)
        if found is None:
            message = t("resolve.no_pending_any") if key == DECLINE else t("resolve.no_pending", choice=key)
            raise error(message, line.cmd.source, line.cmd.verb)
        if found is not self.block:
            self.flush()
            self.block = found
        found.lines.append(line)
        if key != DECLINE:
            found.decisions.setdefault(found.offers(key, line.targets), []).append(
                {"figures": line.actors, "targets": line.targets, **line.options})

    def answered(self, line: _Line, key: str) -> _Pending:
        """The open resolution the line's ``auflösung=ID`` names, offering its choice; else refused
        with the reason (closed, undone, unknown, not offered)."""
        at = line.answers
        assert at is not None
        found = next((p for p in self.pending if p.id == at.text), None)
        if found is None or found.closed:
            journal = self.who.journal() if self.who.journal is not None and found is None else ()
            raise error(not_open(journal, at.text, closed=found is not None), line.cmd.source, at)
        if found.offers(key, line.targets) is None:
            raise error(t("resolve.answer_not_offered", id=at.text, choice=key, action=found.record["source"]),
                        line.cmd.source, line.cmd.verb)
        return found

    def flush(self, note: str | None = None) -> None:
        """Re-run the open resolution of the current block of choice lines with its dice and the decisions
        (``note``: a step its card adds)."""
        p, self.block = self.block, None
        if p is None:
            return
        rec = p.record
        verb = self.by_name[rec["verb"]]
        decisions = {k: list(v) for k, v in rec["decisions"].items()}
        for choice in rec["choices"]:
            decisions[choice["key"]] = decisions.get(choice["key"], []) + p.decisions.get(choice["key"], [])
        request = _request(self.engine, self.work.state, verb, rec["actors"], rec["targets"], rec["options"],
                           self.roller, _plain(decisions))
        self.roller.replay(rec["faces"])
        mark, before = self.roller.mark(), len(self.roller.thrown)
        try:
            res = _call(verb.procedure, request, p.lines[-1].cmd)
        finally:
            self.roller.end_replay()
        if note:
            res.step(note)
        rec["faces"] = self.roller.since(mark)
        p.thrown += self.roller.thrown[before:]
        rec["decisions"] = _plain(decisions)
        rec["choices"] = [c.to_dict() for c in res.choices]
        if res.open:
            self.advise(request, res, p.lines[-1].cmd)
        rec["advice"] = _plain([a.to_dict() for a in res.advice])
        rec["dice"] = _dice_rolled(res)
        res.id = p.id
        p.result, p.decisions, p.lines, p.changed = res, {}, [], True
        if not res.open:
            p.closed = True
            if p.stored:
                self.work.delete(["pending", p.id])
            self.close(res, p.id, p.thrown)
        if p.index is None:
            p.index = len(self.results)
            self.results.append(res)
        else:
            self.results[p.index] = res

    def advise(self, request: Request, res: Resolution, cmd: Command) -> None:
        """The ruleset's advice on the open choices of ``res`` (``rules.advice``), its lines written; none
        in a cell nobody sees (a forecast's fights)."""
        if not self.advised:
            return
        res.advice = written(_call(lambda req: self.engine.tactics.advice(req, res), request, cmd), self.by_name.values())

    def close(self, res: Resolution, pending: str | None = None, thrown: Sequence[tuple[int, int]] = ()) -> None:
        """Apply a closed resolution's effects (sheets first) and journal it."""
        _limited(res, effects.apply(self.work, res.effects))
        self._event(res, pending, thrown)

    def _event(self, res: Resolution, pending: str | None, thrown: Sequence[tuple[int, int]]) -> None:
        """Journal a resolution, with the echte Würfel thrown for it since it was last journalled; nothing
        in a cell nobody sees (a forecast's fights: their transaction is never written)."""
        if not self.advised:
            return
        figures = list(dict.fromkeys(res.actors + res.targets))
        extra: dict[str, Any] = {"pending": pending} if pending else {}
        if self.who.player:
            extra["player"] = self.who.player
        extra.update(dicecheck.journalled(self.roller.given, thrown, self.who.dice_by))
        # the preview as the card shows it: a distribution's every value would make the entry huge
        # the advice stays with the open resolution (``state["pending"]``): the journal keeps what happened
        data = {k: v for k, v in _plain(replace(res, preview=None, advice=[]).to_dict()).items()
                if k not in ("advice", "id")}
        data["preview"] = preview_lines(res.preview)
        self.work.event(KIND, journal_line(res), figures, self.work.state["active_encounter"],
                        **data, **extra)

    def store_open(self) -> None:
        """Keep the resolutions still open in the campaign state (after the dice are known to fit), with
        their advice; its chances of winning are weighed later, when it is shown (``forecast.weighing``)."""
        for p in self.pending:
            if p.changed and not p.closed:
                self.work.set(["pending", p.id], p.record)
                self._event(p.result, p.id, p.thrown)


def _limited(res: Resolution, landed: list[tuple[Effect, list[Landed]]]) -> None:
    """Where the limits held a resource effect back (or carried it on), a step says so and the
    effects say what landed (``state.resources``)."""
    shares = {id(e): found for e, found in landed}
    if all(len(found) == 1 and found[0].by == e.by for e, found in landed):
        return
    for e, found in landed:
        for s in found:
            if s.note:
                res.step(t("limits.step", resource=s.resource, figure=e.figure, old=s.old, new=s.new, note=s.note),
                         s.rule)
    res.effects = [x for e in res.effects
                   for x in ([replace(e, resource=s.resource, by=s.by) for s in shares[id(e)] if s.by]
                             if id(e) in shares else [e])]


def pending(campaign: Campaign, ruleset: str | None = None) -> dict[str, dict[str, Any]]:
    """The open resolutions stored in ``campaign`` (of ``ruleset``): id -> record."""
    return {k: v for k, v in campaign.state.get("pending", {}).items()
            if ruleset is None or v.get("ruleset") == ruleset}
