"""Writing ``%%resolve`` lines from chosen parts (a verb, figures, options), with the language's
quoting rules: the encounter panel's form, the player pages and the advice on open choices
(``rules.advice``) run and show exactly the text a GM would type."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Mapping

from ..messages import known, t
from ..rules.advice import DECLINE, Advice
from ..rules.resolution import PASS, Verb
from .language import quote

FREE = "frei"      # the catalogue's name for the free mode (its ruleset key is "")
ANSWERS = "auflösung"   # the option of a choice line naming the open resolution (its id) it answers


def option_text(ruleset: str, verb: str, name: str) -> tuple[str, str]:
    """The German label and help of a verb's option: the verb's own (``option.<ruleset>.<verb>.<name>``),
    else the ruleset's (``option.<ruleset>.<name>``); a ruleset without them shows the name."""
    ruleset = ruleset or FREE
    for key in (f"option.{ruleset}.{verb}.{name}", f"option.{ruleset}.{name}"):
        if known(key) and known(key + ".help"):
            return t(key), t(key + ".help")
    return name, ""


def value_label(ruleset: str, verb: str, name: str, value: str) -> str:
    """What a value of an option's closed set reads as (``option.<ruleset>[.<verb>].<name>.<value>``),
    else the value itself (a die, a name)."""
    ruleset = ruleset or FREE
    for key in (f"option.{ruleset}.{verb}.{name}.{value}", f"option.{ruleset}.{name}.{value}"):
        if known(key):
            return t(key)
    return value


def option_field(ruleset: str, verb: str, name: str, kind: str) -> dict[str, Any]:
    """An option as a form field: its name in the line, its kind, its German label and help."""
    label, help_text = option_text(ruleset, verb, name)
    return {"name": name, "kind": kind, "label": label, "help": help_text}


def choice_fields(ruleset: str, verb: Any, offered: Any, values: Any = None) -> list[dict[str, Any]]:
    """A choice verb's options as form fields, each closed set a list (``values``, with what each
    reads as in ``labels``): the sets of ``values`` (``Choice.values``, option -> values) where the
    choice gives them (an empty set: no field, the option is not open now), else its ``offered``
    values on the first option of their kind (numbers: an int option, else a text option)."""
    own = {str(k): [str(x) for x in v] for k, v in (values or {}).items() if isinstance(v, (list, tuple))}
    offered = [str(x) for x in offered]
    numeric = bool(offered) and all(x.lstrip("-").isdigit() for x in offered)
    wanted = ("int",) if numeric else ("text", "name")
    fields, placed = [], bool(own)
    for name, kind in verb.options.items():
        field = option_field(ruleset, verb.name, name, kind)
        if name in own and not own[name]:
            continue
        if name in own:
            field["values"] = own[name]
        elif offered and not placed and kind in wanted:
            field["values"], placed = offered, True
        if "values" in field:
            field["labels"] = [value_label(ruleset, verb.name, name, v) for v in field["values"]]
        fields.append(field)
    return fields


def plain(value: Any) -> str:
    """A form value as stripped text ('' for anything that is not text or a number)."""
    if isinstance(value, bool) or value is None:
        return ""
    return str(value).strip() if isinstance(value, (str, int, float)) else ""


def line(verb: Verb, actors: Sequence[str], targets: Sequence[str] = (), options: Any = None) -> str:
    """``verb A, B -> C key=value flag``: the options known to the verb, by their kind."""
    text = verb.name + (" " + ", ".join(quote(a) for a in actors) if actors else "")
    if targets:
        text += " -> " + ", ".join(quote(x) for x in targets)
    given = options if isinstance(options, Mapping) else {}
    for key, kind in verb.options.items():
        value = given.get(key)
        if kind == "flag":
            if value is True:
                text += " " + key
        elif plain(value):
            text += f" {key}={quote(plain(value), value=True)}"
    return text


def choice_line(verbs: Iterable[Verb], key: str, who: str, options: Any = None) -> str:
    """The line that takes the open choice ``key`` as ``who`` with ``options`` (``gambit Ritter
    würfel=7``; a choice of one target of several, ``deny:Wache``, names it: ``deny Wache -> Wache``);
    ``DECLINE``: the line declining every open choice (``verzicht Ritter``); "" for a key no verb
    takes or nobody."""
    if not who:
        return ""
    if key == DECLINE:
        return f"{PASS} {quote(who)}"
    base, _, target = key.partition(":")
    verb = next((v for v in verbs if v.choice == base), None)
    return "" if verb is None else line(verb, [who], [target] if target else [], options)


def answering(text: str, pid: Any) -> str:
    """The choice line ``text`` naming the open resolution ``pid`` it answers (``deny Söldner
    auflösung=ID``); ``text`` alone for an empty ``pid``, or an empty line."""
    pid = plain(pid)
    return f"{text} {ANSWERS}={quote(pid, value=True)}" if text and pid else text


def written(advice: Sequence[Advice], verbs: Iterable[Verb]) -> list[Advice]:
    """The advice with each option's lines written as ``%%resolve`` lines (``choice_line``)."""
    verbs = list(verbs)
    return [a.written(lambda x: choice_line(verbs, x.key, x.who, x.options)) for a in advice]
