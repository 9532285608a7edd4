"""IPython magics: a thin layer that parses the line, calls the engine, shows the result.

``roll_line``, ``rpg_line``, ``begegnung_line``, ``figuren_cell``, ``figuren_line`` and ``resolve_cell`` are
plain functions, testable without a running kernel; ``extension`` binds them to a shell as ``%roll``, ``%rpg``,
``%begegnung`` (``%encounter``), ``%%figuren``, ``%figuren`` (the library's search) and ``%%resolve`` with
IPython's ``{var}``/``$var`` expansion switched off (braces belong to the dice language; notebook
variables are written ``@name``). Argument parsing is in ``magic_args`` (``%begegnung``'s
subcommands in ``magic_encounter``).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from typing import Any, Callable

from . import magic_args as args
from . import magic_encounter
from . import library, messages, rules, session, sharing, statblocks
from .dice import limits
from .dice.estimate import preview
from .dice.roll import roll, roll_many
from .errors import RpgError
from .magic_advice import card_later
from .messages import t
from .render import ErrorBox, Notice, status_html, status_text, suggestions_html, suggestions_text
from .state.journal import journal_kinds
from .resolve.run import resolve as run_resolve
from .state import address, suggestions
from .state.damage import listing

_ROLL_OPTIONS = {
    "--seed": "seed", "-n": "anzahl", "--anzahl": "anzahl", "--count": "anzahl",
    "--vorschau": "vorschau", "--preview": "vorschau",
    "--würfel": "würfel", "--wuerfel": "würfel", "--dice": "würfel",
}


def roll_line(line: str, user_ns: Mapping[str, object] | None = None):
    """Run one ``%roll`` line: a ``Roll``, ``Rolls`` (``-n``) or ``Dist``/``Estimate`` (``--vorschau``).

    Rolls (not previews) are written into the session's open campaign.
    """
    opts, words = args.options(args.split(line), _ROLL_OPTIONS, t("magic.usage_roll"), flags={"vorschau"})
    expr = " ".join(words)
    if not expr:
        raise RpgError(t("magic.no_expression"))
    variables = user_ns if user_ns is not None else {}
    if opts.get("vorschau"):
        return preview(expr, variables)
    seed = args.integer(opts, "seed", "--seed")
    count = args.integer(opts, "anzahl", "-n/--anzahl", t("magic.count_range", max=limits.MAX_ROLLS),
                         low=1, high=limits.MAX_ROLLS)
    given = args.given_dice(opts)
    if count is not None:
        result = roll_many(expr, count, seed=seed, dice=given, variables=variables)
    else:
        result = roll(expr, seed=seed, dice=given, variables=variables)
    session.current().log(result)
    return result




_RPG_OPTIONS = {
    "--seed": "seed", "--kampagne": "kampagne", "--campaign": "kampagne",
    "--sprache": "sprache", "--language": "sprache", "--wechseln": "wechseln", "--switch": "wechseln",
    "--nur-lesen": "nur_lesen", "--read-only": "nur_lesen", "--exportieren": "exportieren", "--export": "exportieren",
}
_JOURNAL_OPTIONS = {
    "--art": "art", "--kind": "art", "--figur": "figur", "--figure": "figur",
    "--begegnung": "begegnung", "--encounter": "begegnung",
}
_JOURNAL_DEFAULT, _JOURNAL_MAX = 20, 10_000
_SHARE = {"teilen", "share"}
_SHARE_OPTIONS = {"--ordner": "ordner", "--folder": "ordner"}
_BINDER_OPTIONS = {"--server": "server"}
_PLAYERS = {"spieler", "players"}
_PLAYERS_OPTIONS = {"--widerrufen": "widerrufen", "--revoke": "widerrufen", "--erneuern": "erneuern",
                    "--renew": "erneuern", "--freigeben": "freigeben", "--lift": "freigeben"}
_SUGGESTIONS = {"vorschläge", "vorschlaege", "suggestions"}
_SUGGESTIONS_OPTIONS = {"--annehmen": "annehmen", "--accept": "annehmen", "--ablehnen": "ablehnen",
                        "--decline": "ablehnen", "--alle": "alle", "--all": "alle"}
_FORECAST = {"prognose", "forecast"}
_DICECHECK = {"würfelcheck", "wuerfelcheck", "dicecheck"}
_DICECHECK_OPTIONS = {**_JOURNAL_OPTIONS, "--würfel": "würfel", "--wuerfel": "würfel", "--die": "würfel"}
_UNDO = {"rückgängig", "rueckgaengig", "undo"}
_REDO = {"wiederholen", "redo"}
_COMMANDS = ("rückgängig", "wiederholen", "journal", "binder", "teilen", "spieler", "vorschläge", "prognose",
             "würfelcheck")   # as the help names them
# every way to write one
_SPELLINGS = (*_COMMANDS, *sorted(_UNDO | _REDO | _SHARE | _PLAYERS | _SUGGESTIONS | _FORECAST | _DICECHECK))


class Status:
    """What ``%rpg`` shows: the session's settings and the rulesets."""

    def __init__(self, s: session.Session) -> None:
        where = s.campaign.store.where if s.campaign is not None else t("rpg.campaign_none")
        if s.campaign is not None and s.campaign.read_only:
            where += " " + t("campaign.repr_read_only")
        self.rows = [
            (t("rpg.ruleset"), s.ruleset or t("rpg.ruleset_none")),
            (t("rpg.seed"), t("rpg.seed_none") if s.seed is None else str(s.seed)),
            (t("rpg.campaign"), where),
            (t("rpg.language"), messages.language()),
        ]
        if s.campaign is not None and s.campaign.damage:
            self.rows.insert(3, (t("rpg.damage"), listing(s.campaign.damage)))
        # every installed ruleset is imported for its title: %rpg alone is rare, and a broken one shows why
        self.rulesets = [_ruleset_row(key) for key in rules.rulesets()]

    def __repr__(self) -> str:
        return status_text(self.rows, self.rulesets)

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, str]:
        return {"text/plain": repr(self), "text/html": status_html(self.rows, self.rulesets)}


def _ruleset_row(key: str) -> tuple[str, str, str]:
    """A ruleset's key, title and the package it comes from; the reason instead if it cannot be loaded."""
    try:
        title = rules.get(key).title or key
    except RpgError as err:
        return key, t("rpg.ruleset_unavailable"), str(err)
    return key, title, t("rpg.ruleset_source", source=rules.source(key))


def _too_many(words: list[str], usage: str) -> RpgError:
    return RpgError(t("rpg.words", words=" ".join(words)) + "\n" + t("magic.usage", usage=usage))


def _suggestion(word: str, candidates) -> str:
    """A line ``Meinten Sie 'x'?`` for the candidate closest to ``word`` (case and umlauts aside), or nothing."""
    spelled: dict[str, str] = {}
    for c in candidates:
        spelled.setdefault(_folded(c), c)
    close = difflib.get_close_matches(_folded(word), list(spelled), n=1)
    return "\n" + t("suggest.die", suggestion=spelled[close[0]]) if close else ""


def _folded(word: str) -> str:
    return word.lower().replace("ä", "ae").replace("ö", "oe").replace("ü", "ue").replace("ß", "ss")


_PLACE = re.compile(r"://|@|\.(sqlite3?|db)$|^(/|\./|\.\./|~|[A-Za-z]:\\)", re.IGNORECASE)  # a file or address


def _unknown_word(word: str) -> RpgError:
    """A first word that is neither a ruleset nor a subcommand, with the closest of both."""
    msg = t("rpg.unknown_word", word=word, rulesets=", ".join(rules.rulesets()), commands=", ".join(_COMMANDS))
    return RpgError(msg + _suggestion(word, [*rules.rulesets(), *_SPELLINGS]))


def rpg_line(line: str) -> object:
    """Settings (ruleset, seed, language, campaign), or undo, redo, journal."""
    words = args.split(line, quotes=True)
    s = session.current()
    command = words[0].lower() if words else ""
    subcommand = _subcommands().get(command)
    if subcommand is not None:
        return subcommand(s, words[1:])
    if command and not command.startswith("-") and command not in rules.rulesets():
        _campaign_without_option(words[:2] if command in ("kampagne", "campaign") else words[:1])
        raise _unknown_word(words[0])
    opts, key, lang, seed = _settings(words)
    if "kampagne" in opts:
        s.open_campaign(str(opts["kampagne"]), read_only=bool(opts.get("nur_lesen")))
    elif opts.get("nur_lesen"):
        raise RpgError(t("rpg.read_only_alone"))
    if key is not None:
        s.set_ruleset(key, switch=bool(opts.get("wechseln")))
    if "sprache" in opts:
        s.set_language(lang)
    if "seed" in opts:
        s.reseed(seed)
    if "exportieren" in opts:
        return Notice(str(s.need_campaign().export(str(opts["exportieren"]))))
    return Status(s)


def _settings(words: list[str]) -> tuple[dict, str | None, str, int | None]:
    """A settings line's options, ruleset, language and seed, each checked before anything changes."""
    opts, words = args.options(words, _RPG_OPTIONS, t("magic.usage_rpg"), flags={"wechseln", "nur_lesen"})
    _campaign_without_option(words)
    key = words[0].lower() if words else None
    if key is not None and key not in rules.rulesets():
        raise _unknown_word(words[0])
    if len(words) > 1:
        raise _too_many(words[1:], t("magic.usage_rpg"))
    if opts.get("wechseln") and key is None:
        raise RpgError(t("rpg.switch_needs_ruleset"))
    lang = str(opts.get("sprache", "")).lower()
    if "sprache" in opts and lang not in messages.languages():
        raise RpgError(t("rpg.unknown_language", lang=opts["sprache"], known=", ".join(messages.languages()))
                       + _suggestion(lang, messages.languages()))
    return opts, key, lang, args.integer(opts, "seed", "--seed")


def _subcommands() -> dict[str, Callable[[session.Session, list[str]], object]]:
    """Every spelling of a subcommand of ``%rpg`` -> what runs it with the session and the words after it."""
    return {**dict.fromkeys(_UNDO, _undo), **dict.fromkeys(_REDO, _redo), "journal": _journal, "binder": _binder,
            **dict.fromkeys(_SHARE, _share), **dict.fromkeys(_PLAYERS, _players),
            **dict.fromkeys(_SUGGESTIONS, _suggestions), **dict.fromkeys(_FORECAST, _forecast),
            **dict.fromkeys(_DICECHECK, _dice_check)}


def _undo(s: session.Session, words: list[str]) -> object:
    if words:
        raise _too_many(words, t("magic.usage_rpg"))
    return Notice(t("rpg.undone", what=s.undo()))


def _redo(s: session.Session, words: list[str]) -> object:
    if words:
        raise _too_many(words, t("magic.usage_rpg"))
    return Notice(t("rpg.redone", what=s.redo()))


def _forecast(s: session.Session, words: list[str]) -> object:
    from .magic_forecast import prognose   # the forecast is imported at its first use
    return prognose(words, t("magic.usage_rpg"))


def _campaign_without_option(words: list[str]) -> None:
    """A campaign named without ``--kampagne`` (``%rpg kampagne URL``): a German hint, no password."""
    for i, word in enumerate(words):
        named = word.lower().lstrip("-") in ("kampagne", "campaign")
        if named or address.is_url(word) or address.looks_like_conninfo(word) or _PLACE.search(word):
            target = (words[i + 1] if i + 1 < len(words) else "DATEI_ODER_URL") if named else word
            raise RpgError(t("rpg.campaign_option", where=address.shown(target)))


def _share(s: session.Session, words: list[str]) -> object:
    opts, rest = args.options(words, _SHARE_OPTIONS, t("magic.usage_rpg"))
    if not rest:
        raise RpgError(t("magic.usage", usage=t("magic.usage_rpg")))
    if len(rest) > 1:
        raise _too_many(rest[1:], t("magic.usage_rpg"))
    return sharing.share(s.need_campaign(), rest[0], str(opts.get("ordner", "spieler")))


def _players(s: session.Session, words: list[str]) -> object:
    """List the player links, make one for a figure, revoke or renew one, or lift one's limit (the
    widget shows them)."""
    from .widgets.players import PlayerLinks
    opts, rest = args.options(words, _PLAYERS_OPTIONS, t("magic.usage_rpg"))
    if len(rest) > 1 or (rest and opts) or len(opts) > 1:
        raise _too_many(words, t("magic.usage_rpg"))
    campaign = s.need_campaign()
    fresh = None
    if rest:
        fresh = campaign.new_player_link(rest[0])
    elif "erneuern" in opts:
        fresh = campaign.renew_player_link(str(opts["erneuern"]))
    elif "widerrufen" in opts:
        campaign.revoke_player_link(str(opts["widerrufen"]))
    elif "freigeben" in opts:
        campaign.lift_player_limit(str(opts["freigeben"]))
    return PlayerLinks(campaign, fresh)


class Suggestions:
    """What ``%rpg vorschläge`` lists: the players' suggestions (the open ones, or all)."""

    def __init__(self, entries: list[dict[str, object]]) -> None:
        self.entries = entries

    def __repr__(self) -> str:
        return suggestions_text(self.entries)

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, str]:
        return {"text/plain": repr(self), "text/html": suggestions_html(self.entries)}


def _suggestions(s: session.Session, words: list[str]) -> object:
    """List the players' suggestions (``--alle``: the answered ones too), or accept or decline one."""
    opts, rest = args.options(words, _SUGGESTIONS_OPTIONS, t("magic.usage_rpg"), flags={"alle"})
    if rest or len(opts) > 1:
        raise _too_many(words, t("magic.usage_rpg"))
    campaign = s.need_campaign()
    for option, accepted in (("annehmen", True), ("ablehnen", False)):
        if option in opts:
            sid = str(opts[option])
            done = campaign.accept_suggestion(sid) if accepted else campaign.decline_suggestion(sid)
            return Notice(suggestions.answered(done))
    return Suggestions(campaign.player_suggestions(open_only=not opts.get("alle")))


def _dice_check(s: session.Session, words: list[str]) -> object:
    """The test of the echte Würfel in the journal (``Campaign.dice_check``), filtered by figure,
    encounter and die size."""
    opts, rest = args.options(words, _DICECHECK_OPTIONS, t("magic.usage_rpg"))
    if rest:
        raise _too_many(rest, t("magic.usage_rpg"))
    figure, encounter = (None if k not in opts else str(opts[k]) for k in ("figur", "begegnung"))
    return s.need_campaign().dice_check(figure, encounter, args.die_size(opts, "würfel", "--würfel"))


def _binder(s: session.Session, words: list[str]) -> object:
    opts, rest = args.options(words, _BINDER_OPTIONS, t("magic.usage_rpg"))
    if len(rest) > 2:
        raise _too_many(rest[2:], t("magic.usage_rpg"))
    campaign = s.need_campaign()
    if rest:
        binder = sharing.configure(campaign, rest[0], rest[1] if len(rest) > 1 else None,
                                   str(opts["server"]) if "server" in opts else None)
    else:
        binder = sharing.configured(campaign)
        if binder is None:
            return Notice(t("share.not_configured"))
    return Notice(t("share.configured", spec=binder.spec, ref=binder.ref, server=binder.server))


def _journal(s: session.Session, words: list[str]) -> object:
    opts, rest = args.options(words, _JOURNAL_OPTIONS, t("magic.usage_rpg"))
    if len(rest) > 1:
        raise _too_many(rest[1:], t("magic.usage_rpg"))
    last = _JOURNAL_DEFAULT
    if rest:
        last = args.integer({"n": rest[0]}, "n", "journal N", t("rpg.journal_count", max=_JOURNAL_MAX),
                            low=1, high=_JOURNAL_MAX)
    camp = s.need_campaign()
    kind = None if "art" not in opts else _journal_kind(str(opts["art"]))
    figure, encounter = (None if opts.get(k) is None else str(opts[k]) for k in ("figur", "begegnung"))
    entries = s.journal(last, kind=kind, figure=figure, encounter=encounter)
    if not entries and figure is not None:
        _known_name(figure, session.figure_names(camp), "campaign.unknown_figure")
    if not entries and encounter is not None:
        _known_name(encounter, list(camp.encounters), "campaign.unknown_encounter")
    filters = [f"{option} {opts[key]}" for key, option in
               (("art", "--art"), ("figur", "--figur"), ("begegnung", "--begegnung")) if key in opts]
    if not entries and filters:
        return Notice(t("rpg.journal_none", filters=", ".join(filters)))
    return entries


def _journal_kind(word: str) -> str:
    """The journal kind ``--art`` names: its stored key or its German word, case and umlauts aside."""
    kinds = journal_kinds()
    spelled = {_folded(name): key for key, label in kinds.items() for name in (key, label)}
    if _folded(word) in spelled:
        return spelled[_folded(word)]
    raise RpgError(t("rpg.unknown_kind", kind=word, known=", ".join(kinds.values()))
                   + _suggestion(word, [name.lower() for key, label in kinds.items() for name in (key, label)]))


def _known_name(name: str, known: list[str], key: str) -> None:
    """A name no entry matched must at least exist: otherwise an error with the closest name."""
    if name not in known:
        raise RpgError(t(key, name=name) + _suggestion(name, known))




def begegnung_line(line: str) -> object:
    """Run the session's encounter: one subcommand (``magic_encounter``), or the encounter shown."""
    return magic_encounter.run(line)




_FIGUREN_OPTIONS = {"--begegnung": "begegnung", "--encounter": "begegnung", "--als-vorlage": "als_vorlage",
                    "--as-template": "als_vorlage", "--ersetzen": "ersetzen", "--replace": "ersetzen",
                    "--regelwerk": "regelwerk", "--ruleset": "regelwerk"}


def figuren_cell(line: str, cell: str) -> object:
    """Create the characters and combatants of the YAML stat block in ``cell`` (``vorlage:`` entries from
    the library of figures); ``--als-vorlage NAME``: keep the block's combatants there as a template."""
    opts, rest = args.options(args.split(line, quotes=True), _FIGUREN_OPTIONS, t("magic.usage_figuren"), flags={"ersetzen"})
    if rest:
        raise _too_many(rest, t("magic.usage_figuren"))
    s = session.current()
    shelf = library.Library()
    if "als_vorlage" in opts:
        if "begegnung" in opts:
            raise RpgError(t("magic.usage", usage=t("magic.usage_figuren")))
        kept = shelf.save(str(opts["als_vorlage"]), _template_entries(cell), _ruleset_of(s, opts),
                          replace=bool(opts.get("ersetzen")))
        return Notice(library.saved_text(kept, shelf))
    if {"ersetzen", "regelwerk"} & set(opts):
        raise RpgError(t("magic.usage", usage=t("magic.usage_figuren")))
    encounter = opts.get("begegnung")
    return shelf.load(s.need_campaign(), cell, encounter=None if encounter is None else str(encounter))




def figuren_line(line: str) -> object:
    """Search the library of figures: the templates of the ruleset whose name holds the words given."""
    opts, rest = args.options(args.split(line, quotes=True), {"--regelwerk": "regelwerk", "--ruleset": "regelwerk"},
                              t("magic.usage_search"))
    return library.Library().search(" ".join(rest), _ruleset_of(session.current(), opts))


def _ruleset_of(s: session.Session, opts: Mapping[str, object]) -> str | None:
    """The ruleset a template is for: ``--regelwerk``, else the campaign's, else the session's."""
    given = opts.get("regelwerk")
    if given is not None:
        return str(given)
    return s.campaign.ruleset if s.campaign is not None else s.ruleset


def _template_entries(cell: str) -> Any:
    """The combatants of a block kept as a template: a list, or ``begegnung: teilnehmer:``."""
    data = statblocks.parse(cell)
    if isinstance(data, dict) and set(data) <= {"begegnung"} and isinstance(data.get("begegnung"), dict):
        return data["begegnung"].get("teilnehmer")
    return data


_RESOLVE_OPTIONS = {
    "--seed": "seed", "--vorschau": "vorschau", "--preview": "vorschau",
    "--würfel": "würfel", "--wuerfel": "würfel", "--dice": "würfel",
}


def resolve_cell(line: str, cell: str) -> object:
    """Carry out the ``%%resolve`` lines of ``cell`` with the session's ruleset and campaign."""
    opts, words = args.options(args.split(line), _RESOLVE_OPTIONS, t("magic.usage_resolve"), flags={"vorschau"})
    if len(words) > 1:
        raise _too_many(words[1:], t("magic.usage_resolve"))
    s = session.current()
    key = words[0].lower() if words else s.ruleset or (s.campaign.ruleset if s.campaign is not None else None)
    seed = args.integer(opts, "seed", "--seed")
    # a leading line for %%resolve itself: errors count lines as the notebook shows them
    result = run_resolve("\n" + cell, ruleset=key, campaign=s.campaign, seed=seed, dice=args.given_dice(opts),
                         preview=bool(opts.get("vorschau")))
    if isinstance(result, list) and not result:
        example = next((v.example for v in rules.get(key).verbs.values() if v.example), "")
        return Notice(t("resolve.empty") + (" " + t("resolve.empty_example", example=example) if example else ""))
    if s.campaign is not None and not opts.get("vorschau"):   # the advice's chances follow the card
        return card_later(result, s.campaign)
    return result


def guarded(shell, function: str, *arguments: str) -> object:  # noqa: ANN001 - IPython's shell
    """Run the magic ``function`` of this module for ``shell``: user errors become a German box, not a
    traceback (``extension`` binds the magics)."""
    try:
        if function == "roll_line":
            return roll_line(*arguments, shell.user_ns)
        return globals()[function](*arguments)
    except RpgError as err:
        from IPython.display import display
        display(ErrorBox(err))
        return None
