"""The ``%%resolve`` lines (and the magic lines) the encounter panel's form and rows stand for.

A click in the panel runs exactly the text a GM would type, so the panel
builds that text from what was selected (verb, figures, options) with the
language's quoting rules. The form comes from the browser: every value is
checked for its type and anything unexpected is left out.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from typing import Any

import yaml

from ..errors import RpgError
from ..magic_args import given_dice
from ..messages import t
from ..resolve.lines import answering, choice_line, line, plain
from ..rules.advice import DECLINE
from ..rules.resolution import Verb
from ..state.transaction import MAX_COUNT


def _names(value: Any) -> list[str]:
    items = value if isinstance(value, list) else [value]
    return [n for n in (plain(x) for x in items) if n]


def action_line(form: Mapping[str, Any], verbs: Mapping[str, Verb], current: str | None) -> str:
    """The line of the action form; no actor chosen: whose turn it is."""
    name = plain(form.get("verb"))
    if not name:
        raise RpgError(t("widget.panel.no_verb"))
    verb = verbs.get(name)
    if verb is None or verb.choice is not None:
        raise RpgError(t("widget.panel.unknown_verb", verb=name))
    actors = _names(form.get("actors")) or ([current] if current else [])
    targets = _names(form.get("targets")) if verb.targets != "none" else []
    return line(verb, actors, targets, form.get("options"))


def decision_lines(form: Mapping[str, Any], verbs: Mapping[str, Verb]) -> list[str]:
    """A line per choice taken over into the form, naming the open resolution it was taken from
    (``gambit Ritter würfel=7 auflösung=ID``, ``deny Wache -> Wache``); "" for an entry that names no
    known choice or nobody."""
    out = []
    taken = form.get("decisions")
    for item in taken if isinstance(taken, list) else []:
        item = item if isinstance(item, Mapping) else {}
        key, who = plain(item.get("key")), _names(item.get("who"))
        text = choice_line(verbs.values(), key, who[0], item.get("options")) if key != DECLINE and who else ""
        out.append(answering(text, item.get("id")))
    return out


def decline_line(who: str, pid: Any = None) -> str:
    """``verzicht Ritter auflösung=ID``: close the open resolution ``pid`` (none: the latest), taking nothing."""
    return answering(choice_line((), DECLINE, who), pid)


SUGGESTIONS = "%rpg vorschläge"   # the magic line that lists the players' suggestions
ANSWER_OPTIONS = {True: "--annehmen", False: "--ablehnen"}


def suggestion_line(sid: str, accepted: bool) -> str:
    """``%rpg vorschläge --annehmen 1a2b3c4d``: the line that answered the player's suggestion ``sid``
    (an id the campaign knows: eight hex digits)."""
    return f"{SUGGESTIONS} {ANSWER_OPTIONS[accepted]} {sid}"


def edit_line(names: list[str], resource: str, change: Any, encounter: str, active: str | None) -> str:
    """``%begegnung wert "Söldner 1" "Söldner 2" VIG -3``: the line that changes a resource as a row's
    edit did (``--begegnung`` where the panel's encounter is not the active one)."""
    words = [_word(n) for n in [*names, resource]]
    where = "" if encounter == active else " --begegnung " + _word(encounter)
    return f"%begegnung wert {' '.join(words)} {change}{where}"


def _word(text: str) -> str:
    """A name as one word of a magic line (in quotes where it has spaces or quotes)."""
    if text and not any(c.isspace() or c in "\"'" for c in text):
        return text
    return f'"{text}"' if '"' not in text else shlex.quote(text)


def template_cell(name: str, count: int, side: str, encounter: str, active: str | None) -> str:
    """The ``%%figuren`` cell that brings a template of the library into the fight as the panel did."""
    entry: dict[str, Any] = {"vorlage": name, "anzahl": count}
    if side:
        entry["seite"] = side
    head = "%%figuren" + ("" if encounter == active else " --begegnung " + _word(encounter))
    return head + "\n" + yaml.safe_dump([entry], allow_unicode=True, sort_keys=False).rstrip()


def count(text: Any) -> int:
    """How many copies (×N) the GM typed: 1 when empty."""
    value = plain(text) if not isinstance(text, int) or isinstance(text, bool) else str(text)
    if not value:
        return 1
    if not value.isdigit() or not 1 <= int(value) <= MAX_COUNT:
        raise RpgError(t("widget.panel.bad_count", value=value[:20], max=MAX_COUNT))
    return int(value)


def dice(text: Any) -> list[int] | None:
    """Given dice typed as ``7,3,1,5``; None when empty (the dice are rolled)."""
    value = plain(text)
    return given_dice({"würfel": value}) if value else None


def cell(lines: list[str], dice_text: Any = "", preview: bool = False) -> str:
    """The whole cell as the GM would type it: ``%%resolve --würfel 7,3`` and the lines."""
    head = "%%resolve" + (" --vorschau" if preview else "")
    given = "".join(plain(dice_text).split())
    if given and not preview:
        head += f" --würfel {given}"
    return "\n".join([head, *lines])


def initiative(entered: Any, rolling: list[str], everyone: list[str]) -> dict[str, int] | None:
    """Initiative rolls entered for the combatants the ruleset rolls for (all or none).

    None when nothing is entered (the ruleset rolls); the others get 0, as
    when the ruleset rolls.
    """
    entered = entered if isinstance(entered, Mapping) else {}
    given: dict[str, int] = {}
    for name in rolling:
        text = plain(entered.get(name))
        if text:
            try:
                given[name] = int(text)
            except ValueError:
                raise RpgError(t("widget.panel.bad_roll", name=name, value=text)) from None
    if not given:
        return None
    missing = [n for n in rolling if n not in given]
    if missing:
        raise RpgError(t("widget.panel.rolls_missing", names=", ".join(missing)))
    return {n: given.get(n, 0) for n in everyone}
