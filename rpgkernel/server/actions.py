"""What a player's page may do once its token holds, always as the link's
figure: roll dice into the journal (``wurf``), take its own open choice
(``wahl``), or send the GM a suggestion (``vorschlag``).

Each message is JSON of at most ``MAX_MESSAGE`` characters, spent from the
link's limit (``quota``) first and checked field by field. The answer,
``{"result": text}`` or ``{"refused": text}``, goes to that page only, in its language, and is
made from nothing hidden.
"""

from __future__ import annotations

import json
import logging
from typing import Any, Callable, Mapping

from .. import rules
from ..dice import roll
from ..dice.estimate import draws
from ..dice.parser import parse
from ..errors import ResolveError, RpgError
from ..messages import t
from ..render.dice import roll_card
from ..resolve import resolve
from ..resolve.lines import answering, choice_fields, line, option_text
from ..resolve.run import not_open
from ..rules.resolution import Resolution, Verb
from ..state import Campaign, player_view
from ..state.tracker import hidden
from . import quota

MAX_MESSAGE = 8_000   # characters of one message
MAX_TEXT = 200        # characters of an expression, a choice's key, an option's value
MAX_DICE = 100        # given dice in one message
MAX_FACE = 10_000     # highest face a given die may show (dice.limits.MAX_SIDES)
MAX_ANSWER = 2_000    # characters of an answer (a roll of many dice is cut)
_OPTION_KINDS = ("int", "text", "flag")   # options a player may set ("name" ones could name anybody)
_log = logging.getLogger(__name__)


class Refused(RpgError):
    """What a page asked for and may not have (German, for that page only)."""


Spend = Callable[[int, int], None]   # (actions, work) from the link's limit, or quota.QuotaError


def act(campaign: Campaign, figure: str, message: object, token: str, spend: Spend) -> dict[str, Any]:
    """Carry out one message of the page of ``figure``, each part spent (``spend``) before it is done;
    the answer for that page (a roll's also with its card's parts, ``wurf``, where its text may be shown)."""
    try:
        spend(1, 0)
        data = _read(message)
        kind = data.get("type")
        card = None
        if kind == "wurf":
            text, card = _roll(campaign, figure, data, spend)
        elif kind == "wahl":
            spend(0, quota.CHOICE_WORK)
            text = _choose(campaign, figure, data)
        elif kind == "vorschlag":
            spend(0, quota.SUGGESTION_WORK)
            campaign.suggest(figure, _text(data, "text", t("page.suggestion_field"), campaign_limit=True))
            text = t("page.suggested")
        else:
            raise Refused(t("page.bad_message"))
        shown = _safe(text, token)
        return {"result": shown, **({"wurf": card} if card is not None and shown == text else {})}
    except RpgError as err:
        return {"refused": _safe(str(err), token)}
    except Exception as err:   # a bug: the page learns nothing of it, the log only its type
        _log.error("player action failed: %s", type(err).__name__)
        return {"refused": t("page.failed")}


def _read(message: object) -> dict[str, Any]:
    if not isinstance(message, str) or len(message) > MAX_MESSAGE:
        raise Refused(t("page.too_long", max=MAX_MESSAGE))
    try:
        data = json.loads(message)
    except ValueError:
        raise Refused(t("page.bad_message")) from None
    if not isinstance(data, dict):
        raise Refused(t("page.bad_message"))
    return data


def _text(data: Mapping[str, Any], key: str, label: str, campaign_limit: bool = False,
          missing: str | None = None) -> str:
    """The text field ``key`` (its German ``label`` in answers; ``missing``: what an empty one is told):
    a string without control characters, within ``MAX_TEXT`` (a suggestion: its own limit, checked by
    the campaign)."""
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        raise Refused(missing or t("page.missing", field=label))
    if campaign_limit:
        return value
    if len(value) > MAX_TEXT or any(ord(c) < 32 or c == "\x7f" for c in value):
        raise Refused(t("page.bad_text", field=label, max=MAX_TEXT))
    return value.strip()


def _dice(data: Mapping[str, Any]) -> list[int] | None:
    """The given dice (physical results): None or [] for none, else whole numbers 1..``MAX_FACE``."""
    value = data.get("wuerfel")
    if value is None or value == []:
        return None
    if not isinstance(value, list) or len(value) > MAX_DICE \
            or not all(type(v) is int and 1 <= v <= MAX_FACE for v in value):
        raise Refused(t("page.bad_dice", max=MAX_DICE, face=MAX_FACE))
    return value


def _roll(campaign: Campaign, figure: str, data: Mapping[str, Any], spend: Spend) -> tuple[str, dict[str, Any]]:
    """A roll of the figure into the journal, as ``%roll`` writes one (given dice checked as there), its
    work (the dice engine's estimate) spent first: its text and its card's parts."""
    label = t("page.expression")
    expression = _text(data, "ausdruck", label,
                       missing=t("page.missing_roll", field=label, example=t("page.expression_hint")))
    dice = _dice(data)
    spend(0, draws(parse(expression, {})))
    rolled = roll(expression, dice=dice, variables={})
    campaign.log_roll(rolled, figure)
    return t("page.rolled", figure=figure, roll=str(rolled)), {"figur": figure, **roll_card(rolled)}


def _choose(campaign: Campaign, figure: str, data: Mapping[str, Any]) -> str:
    """The figure's open choice ``key`` (its own or an ally's) of the open resolution ``aufloesung`` (its
    id) taken with the choice verb's line naming it (``deny Knappe auflösung=ID``); refused with the
    reason where that resolution is not open (one naming a hidden combatant: as one never known)."""
    key, pid = _text(data, "key", t("page.choice_field")), _text(data, "aufloesung", t("page.resolution_field"))
    campaign.refresh()
    state = campaign.state
    record = state.get("pending", {}).get(pid)
    secret = hidden(state) - {figure}
    if record is None:
        raise Refused(not_open(campaign.store.events(), pid))
    if not player_view.names_none(secret, record["actors"], record["targets"]):
        raise Refused(not_open((), pid))
    choice = next((c for c in record["choices"] if c["key"] == key), None)
    label = player_view.offered(choice, figure) if choice is not None else None
    if label is None:
        raise Refused(t("page.not_yours"))
    engine = rules.get(record.get("ruleset") or None)
    base, _, target = key.partition(":")
    verb = next((v for v in engine.verbs.values() if v.choice == base), None)
    if verb is None:
        raise Refused(t("page.not_open"))
    targets = [target] if target else []
    text = answering(line(verb, [figure], targets, _options(engine.key, verb, data.get("optionen"))), pid)
    try:
        result = resolve(text, ruleset=engine.key, campaign=campaign, dice=_dice(data), dice_by=figure,
                         player=figure)
    except ResolveError as err:   # the line as the page wrote it is no news to the player: the reason only
        raise Refused(err.message) from None
    summary = result.summary if isinstance(result, Resolution) else ""
    return t("page.chosen", choice=label) + (f" {summary}" if summary else "")


def _options(ruleset: str, verb: Verb, given: object) -> dict[str, Any]:
    """The choice line's options: only those the verb knows and a player may set, checked for type."""
    if given is None:
        return {}
    if not isinstance(given, dict) or len(given) > len(verb.options):
        raise Refused(t("page.bad_options", verb=verb.name))
    out: dict[str, Any] = {}
    for name, value in given.items():
        kind = verb.options.get(name)
        if kind not in _OPTION_KINDS:
            known = ", ".join(k for k, v in verb.options.items() if v in _OPTION_KINDS) or "–"
            raise Refused(t("page.unknown_option", option=str(name)[:40], verb=verb.name, known=known))
        if kind == "flag":
            if not isinstance(value, bool):
                raise Refused(t("page.bad_option", option=name))
            out[name] = value
        elif isinstance(value, bool) or not isinstance(value, (str, int)):
            raise Refused(t("page.bad_option", option=name))
        elif str(value).strip():
            out[name] = _text({name: str(value)}, name, option_text(ruleset, verb.name, name)[0])
    return out


def _safe(text: str, token: str) -> str:
    """``text`` for the page: none that carries the token, cut to ``MAX_ANSWER``. (Nothing hidden is
    looked for: a test for hidden names would answer whether the text named one.)"""
    if token and token in text:
        return t("page.failed")
    return text if len(text) <= MAX_ANSWER else text[:MAX_ANSWER - 1] + "…"


def with_fields(state: Mapping[str, Any], ruleset: str | None, choices: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The view's open choices, each with the fields of its choice verb a player may fill (``felder``:
    name, kind, German label and what it does, the offered values and what each reads as), as the GM's panel shows them."""
    enc = state["encounters"].get(state["active_encounter"] or "")
    engine = rules.get((enc or {}).get("ruleset") or ruleset or None)
    by_choice = {v.choice: v for v in engine.verbs.values() if v.choice}
    out = []
    for c in choices:
        verb = by_choice.get(c["key"].partition(":")[0])
        fields = choice_fields(engine.key, verb, c["options"], c.get("values")) if verb is not None else []
        out.append({**c, "felder": [{k: f[k] for k in ("name", "kind", "label", "help", "values", "labels") if k in f}
                                    for f in fields if f["kind"] in _OPTION_KINDS]})
    return out
