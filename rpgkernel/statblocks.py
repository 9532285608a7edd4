"""YAML stat blocks: characters and combatants written the way a GM reads them.

``load(campaign, yaml_text, encounter=None)`` reads a block (the cell of ``%%figuren``), checks
all of it, and creates everything in one transaction, or nothing. The keys are German;
docs/kampagne.md is the reference. Read with ``yaml.safe_load`` after a size check on the
composed document.
"""

from __future__ import annotations

import difflib
import re
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping

import yaml

from . import rules
from .display import Shown
from .errors import RpgError
from .messages import t
from .rules.aliases import canonical, renamed
from .rules.sheet import MAX_NUMBER
from .state.transaction import MAX_COUNT, MAX_ROUNDS, TICKS, CampaignError, check_name
from .state.views import Encounter
from .state.model import data as gm_data, figure, figure_path

if TYPE_CHECKING:
    from .state import Campaign

MAX_CHARS = 200_000     # characters of YAML text
MAX_NODES = 50_000      # values in the document, an alias counted each time it is used
MAX_DEPTH = 20          # nesting of the document
MAX_ENTRIES = 500       # entries (characters and combatants) in one block
MAX_FIGURES = 1_000     # figures created by one block (anzahl counted)

TOP_KEYS = ("figuren", "begegnung")
ENCOUNTER_KEYS = ("name", "teilnehmer")
CHARACTER_KEYS = ("name", "regelwerk", "werte", "ressourcen", "zustände")
COMBATANT_KEYS = ("name", "seite", "figur", "anzahl", "regelwerk", "werte", "ressourcen", "zustände")
CONDITION_KEYS = ("runden", "endet", "von")
#: other spellings of the keys: without umlauts, and English
ALIASES = {"zustaende": "zustände", "characters": "figuren", "encounter": "begegnung", "combatants": "teilnehmer",
           "participants": "teilnehmer", "side": "seite", "character": "figur", "count": "anzahl",
           "ruleset": "regelwerk", "sheet": "werte", "stats": "werte", "resources": "ressourcen",
           "conditions": "zustände", "rounds": "runden", "ends": "endet", "by": "von"}
#: fields a combatant linked to a character (``figur``) must not repeat
OWN_FIELDS = ("regelwerk", "werte", "ressourcen", "zustände", "anzahl")


class StatBlockError(RpgError, ValueError):
    """A stat block that cannot be read or does not fit; nothing was created."""


@dataclass(frozen=True)
class Entry:
    """One checked entry: a character, or combatants of an encounter."""

    label: str
    name: str
    ruleset: str | None = None
    sheet: Mapping[str, Any] | None = None
    resources: Mapping[str, int] | None = None
    conditions: Mapping[str, Any] | None = None
    side: str = ""
    character: str | None = None
    count: int = 1

    @property
    def names(self) -> list[str]:
        """The names of the figures this entry creates ("Goblin 1", "Goblin 2", … for anzahl > 1)."""
        return [self.name] if self.count == 1 else [f"{self.name} {i}" for i in range(1, self.count + 1)]


@dataclass(frozen=True)
class Plan:
    """What a block creates, checked against the campaign."""

    characters: tuple[Entry, ...]
    encounter: str | None
    new_encounter: bool
    combatants: tuple[Entry, ...]


# -- reading the YAML ------------------------------------------------------------
def parse(text: str) -> Any:
    """The block as plain Python values; German errors with line and column."""
    if not isinstance(text, str):
        raise StatBlockError(t("statblock.not_text", type=type(text).__name__))
    if len(text) > MAX_CHARS:
        raise StatBlockError(t("statblock.too_long", n=len(text), max=MAX_CHARS))
    try:
        _check_document(yaml.compose(text, Loader=yaml.SafeLoader), text)
        return yaml.safe_load(text)
    except yaml.MarkedYAMLError as err:
        raise StatBlockError(_yaml_message(err, text)) from None
    except yaml.YAMLError as err:
        raise StatBlockError(t("statblock.yaml_other", problem=str(err).splitlines()[0])) from None
    except RecursionError:
        raise StatBlockError(t("statblock.too_deep", max=MAX_DEPTH)) from None


def _check_document(root: yaml.Node | None, text: str) -> None:
    """Size, depth and duplicate keys of the composed document, before anything is built."""
    if root is None:
        return
    stack: list[tuple[yaml.Node, int]] = [(root, 1)]
    seen = 0
    while stack:
        node, depth = stack.pop()
        seen += 1
        if seen > MAX_NODES:
            raise StatBlockError(t("statblock.too_many_nodes", max=MAX_NODES))
        if depth > MAX_DEPTH:
            raise StatBlockError(_at(node.start_mark, text, t("statblock.too_deep", max=MAX_DEPTH)))
        if isinstance(node, yaml.MappingNode):
            keys: set[tuple[str, str]] = set()
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode):
                    if (key.tag, key.value) in keys and key.value != "<<":
                        raise StatBlockError(_at(key.start_mark, text,
                                                 t("statblock.duplicate_key", key=_short(key.value))))
                    keys.add((key.tag, key.value))
                stack += [(key, depth + 1), (value, depth + 1)]
        elif isinstance(node, yaml.SequenceNode):
            stack += [(item, depth + 1) for item in node.value]


# PyYAML's problem texts (English) -> catalogue keys
_PROBLEMS = (
    ("mapping values are not allowed", "statblock.yaml_colon"),
    ("found character '\\t'", "statblock.yaml_tab"),
    ("that cannot start any token", "statblock.yaml_char"),
    ("could not find expected ':'", "statblock.yaml_missing_colon"),
    ("expected <block end>", "statblock.yaml_indent"),
    ("expected <block mapping start>", "statblock.yaml_indent"),
    ("found undefined alias", "statblock.yaml_alias"),
    ("could not determine a constructor", "statblock.yaml_tag"),
    ("expected a single document", "statblock.yaml_documents"),
    ("found unexpected end of stream", "statblock.yaml_unclosed"),
    ("expected ',' or ']'", "statblock.yaml_flow"),
    ("expected ',' or '}'", "statblock.yaml_flow"),
    ("did not find expected", "statblock.yaml_expected"),
)


def _yaml_message(err: yaml.MarkedYAMLError, text: str) -> str:
    problem = err.problem or ""
    said = f"{err.context or ''} {problem}"
    key = next((k for fragment, k in _PROBLEMS if fragment in said), None)
    if key == "statblock.yaml_tag":
        tag = problem.rsplit(" ", 1)[-1].strip("'").replace("tag:yaml.org,2002:", "!!")
        detail = t(key, tag=_short(tag))
    elif key is not None:
        detail = t(key)
    else:
        detail = t("statblock.yaml_unknown", problem=problem)
    mark = err.problem_mark or err.context_mark
    return _at(mark, text, detail) if mark is not None else t("statblock.yaml_nowhere", detail=detail)


def _at(mark: yaml.Mark, text: str, detail: str) -> str:
    """``YAML-Fehler in Zeile 3, Spalte 8: …`` with the line and a caret under the column."""
    lines = text.splitlines()
    head = t("statblock.yaml_at", line=mark.line + 1, column=mark.column + 1, detail=detail)
    if mark.line < len(lines):
        source = lines[mark.line].replace("\t", " ")
        if len(source) <= 120:
            return f"{head}\n  {source}\n  {' ' * mark.column}^"
    return head


# -- checking ----------------------------------------------------------------------
def plan(campaign: Campaign, data: Any, encounter: str | None = None,
         templates: Templates | None = None) -> Plan:
    """Check a parsed block against the campaign; what ``create`` would do. ``templates`` finds the
    entries of a ``vorlage:`` (``library.Library``); without it, a ``vorlage:`` is refused."""
    state = campaign.state
    entries, block = _sections(data, encounter)
    ruleset = state["settings"]["ruleset"]
    characters = _entries(_from_templates(entries, "figure", templates, ruleset, set(state["characters"])),
                          "figure", state, ruleset, gm_data(state), set(state["characters"]))
    enc_name, new, combatants = None, False, ()
    if block is not None:
        enc_name, new = _which_encounter(block, encounter, state)
        enc = state["encounters"].get(enc_name)
        enc_ruleset = enc["ruleset"] if enc else ruleset
        known_characters = set(state["characters"]) | {e.name for e in characters}
        taken = set(enc["combatants"]) | set(enc.get("removed", ())) if enc else set()
        raw = _from_templates(block.get("teilnehmer") or [], "combatant", templates, enc_ruleset, taken)
        combatants = _entries(raw, "combatant", state, enc_ruleset, gm_data(state, enc_name), known_characters,
                              taken=set(enc["combatants"]) if enc else set())
    total = sum(e.count for e in characters + combatants)
    if len(characters) + len(combatants) > MAX_ENTRIES or total > MAX_FIGURES:
        raise StatBlockError(t("statblock.too_many", n=total, max=MAX_FIGURES, entries=MAX_ENTRIES))
    if not characters and not combatants and not new:
        raise StatBlockError(t("statblock.empty"))
    return Plan(characters, enc_name, new, combatants)


#: template name, ruleset key -> its entries (``%%figuren`` combatants)
Templates = Callable[[str, "str | None"], list[dict[str, Any]]]
TEMPLATE_KEYS = ("vorlage", "name", "anzahl", "seite")


def _from_templates(raw: Any, kind: str, templates: Templates | None, ruleset: str | None,
                    taken: set[str]) -> Any:
    """The entries with each ``vorlage:`` replaced by its template's entries (``anzahl``: that many copies,
    ``seite``: their side, ``name``: a one-figure template's name), each figure named: the template's
    name, numbered where it is taken or several come (``free_names``). A character (``figuren:``) takes
    a one-figure template once."""
    if not isinstance(raw, list) or not any(isinstance(e, dict) and "vorlage" in e for e in raw):
        return raw
    used = set(taken) | {n for e in raw if isinstance(e, dict) and "vorlage" not in e
                         for n in ([e.get("name")] if isinstance(e.get("name"), str) else [])}
    out: list[Any] = []
    what = t(f"statblock.{kind}")
    for index, item in enumerate(raw, 1):
        if not isinstance(item, dict) or "vorlage" not in item:
            out.append(item)
            continue
        fail = partial(_entry_error, t("statblock.entry", what=what, index=index,
                                       name=_short(item["vorlage"]).strip("'")))
        entries, count = _template_of(item, kind, templates, ruleset, fail)
        out += _copies(item, entries, count, used, fail)
    return out


def _entry_error(label: str, message: str, field: str | None = None) -> StatBlockError:
    """The error of the entry ``label`` (in its ``field``, where one is named)."""
    key = "statblock.in_entry" if field is None else "statblock.in_field"
    return StatBlockError(t(key, entry=label, field=field, message=message))


def _template_of(item: dict, kind: str, templates: Templates | None, ruleset: str | None,
                 fail: Callable[..., StatBlockError]) -> tuple[list[dict[str, Any]], int]:
    """The entries of the template ``item`` names and how many copies it asks for, every field checked."""
    for key in item:
        if key not in TEMPLATE_KEYS or (kind == "figure" and key in ("anzahl", "seite")):
            allowed = [k for k in TEMPLATE_KEYS if kind == "combatant" or k in ("vorlage", "name")]
            raise fail(t("statblock.template_field", field=_short(key).strip("'"), allowed=", ".join(allowed)))
    if templates is None:
        raise fail(t("statblock.no_library"), "vorlage")
    try:
        entries = templates(str(item["vorlage"]), ruleset)
    except RpgError as err:
        raise fail(str(err), "vorlage") from None
    count = item.get("anzahl", 1)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
        raise fail(t("statblock.bad_count", max=MAX_COUNT, value=_short(count)), "anzahl")
    if "name" in item and len(entries) > 1:
        raise fail(t("statblock.template_name"), "name")
    if kind == "figure" and (len(entries) > 1 or entries[0].get("anzahl", 1) > 1):
        raise fail(t("statblock.template_side"), "vorlage")
    return entries, count


def _copies(item: dict, entries: list[dict[str, Any]], count: int, used: set[str],
            fail: Callable[..., StatBlockError]) -> list[dict[str, Any]]:
    """``count`` copies of the template's ``entries``, each figure named (``free_names``) beside ``used``."""
    out = []
    for entry in entries:
        base = item["name"] if "name" in item else entry["name"]
        if not isinstance(base, str):
            raise fail(t("statblock.missing_name"), "name")
        n = entry.get("anzahl", 1) * count
        if n > MAX_FIGURES:
            raise StatBlockError(t("statblock.too_many", n=n, max=MAX_FIGURES, entries=MAX_ENTRIES))
        one = {k: v for k, v in entry.items() if k not in ("name", "anzahl")}
        if "seite" in item:
            one["seite"] = item["seite"]
        for name in free_names(base.strip(), n, used):
            used.add(name)
            out.append({**one, "name": name})
    return out


def base_name(name: str) -> str:
    """A name without its trailing number ("Söldner 3" -> "Söldner")."""
    return re.sub(r"\s+\d+$", "", name) or name


def free_names(base: str, count: int, taken: Iterable[str]) -> list[str]:
    """``count`` names after ``base`` not in ``taken``: the base itself for one where it and no numbered
    one is taken, else numbered on from the first free number ("Söldner 1", …; "Söldner 2" on where
    "Söldner" stands already)."""
    taken = set(taken)
    if count == 1 and base not in taken and not any(re.fullmatch(re.escape(base) + r" \d+", n) for n in taken):
        return [base]
    out, k = [], 2 if base in taken else 1
    while len(out) < count:
        if f"{base} {k}" not in taken:
            out.append(f"{base} {k}")
        k += 1
    return out


def check_entries(raw: list[Any], ruleset: str | None) -> None:
    """Check ``%%figuren`` combatant entries of ``ruleset`` without a campaign (a template's): the GM's
    default data, no figure linked (``figur:``)."""
    _entries(raw, "combatant", {"characters": {}}, ruleset, {}, set())


def _sections(data: Any, encounter: str | None) -> tuple[list, dict | None]:
    """The list of characters and the encounter section (or None)."""
    if isinstance(data, list):
        return ([], {"teilnehmer": data}) if encounter is not None else (data, None)
    if data is None or data == {}:
        raise StatBlockError(t("statblock.empty"))
    if not isinstance(data, dict):
        raise StatBlockError(t("statblock.top_type", value=_short(data)))
    for key in data:
        german = canonical(key, ALIASES) if isinstance(key, str) else key
        if german not in TOP_KEYS:
            raise StatBlockError(_unknown_key(key, TOP_KEYS, _top_hint(german, data)))
    data = _canonical(data)
    entries = data.get("figuren")
    if entries is None:
        entries = []
    if not isinstance(entries, list):
        raise StatBlockError(t("statblock.section_list", section="figuren", value=_short(entries)))
    block = data.get("begegnung")
    if block is None:
        if "begegnung" in data or encounter is not None:
            block = {}
    elif not isinstance(block, dict):
        raise StatBlockError(t("statblock.encounter_type", value=_short(block)))
    if block is not None:
        block = _canonical(block)
        for key in block:
            if key not in ENCOUNTER_KEYS:
                raise StatBlockError(t("statblock.in_section", section="begegnung",
                                       message=_unknown_key(key, ENCOUNTER_KEYS)))
        if block.get("teilnehmer") is not None and not isinstance(block["teilnehmer"], list):
            raise StatBlockError(t("statblock.section_list", section="begegnung: teilnehmer",
                                   value=_short(block["teilnehmer"])))
    return entries, block


def _which_encounter(block: Mapping[str, Any], option: str | None, state: Mapping[str, Any]) -> tuple[str, bool]:
    """The encounter's name and whether the block creates it."""
    named = block.get("name")
    if named is not None:
        try:
            named = check_name(named, "encounter")
        except CampaignError as err:
            raise StatBlockError(t("statblock.in_section", section="begegnung", message=str(err))) from None
    if option is not None:
        option = check_name(option, "encounter")
        if named is not None and named != option:
            raise StatBlockError(t("statblock.encounter_conflict", block=named, option=option))
    name = named or option or state["active_encounter"]
    if name is None:
        raise StatBlockError(t("statblock.no_encounter"))
    return name, name not in state["encounters"]


def _entries(raw: list, kind: str, state: Mapping[str, Any], ruleset: str | None, data: Mapping[str, Any],
             known_characters: set[str], taken: set[str] | None = None) -> tuple[Entry, ...]:
    """The entries of a section, checked; ``data``: the GM's data their encounter sees (their sheets follow it)."""
    out: list[Entry] = []
    used = set(state["characters"]) if kind == "figure" else set(taken or ())
    for index, item in enumerate(raw, 1):
        entry = _entry(item, index, kind, ruleset, data, known_characters)
        for name in entry.names:
            if name in used:
                raise StatBlockError(t("statblock.in_entry", entry=entry.label,
                                       message=t("campaign.duplicate", name=name)))
            used.add(name)
        out.append(entry)
    return tuple(out)


def _entry(raw: Any, index: int, kind: str, ruleset: str | None, data: Mapping[str, Any],
           known_characters: set[str]) -> Entry:
    label = _entry_label(raw, index, kind)

    def fail(message: str, field: str | None = None) -> StatBlockError:
        return _entry_error(label, message, field)

    if not isinstance(raw, dict):
        raise StatBlockError(t("statblock.entry_type", entry=label, value=_short(raw)))
    fields = _entry_fields(raw, kind, fail)
    linked = _linked(fields, known_characters, fail)
    name, count = _name_and_count(fields, linked, fail)
    side = fields.get("seite")
    try:
        side = "" if side is None else check_name(side, "side")
    except CampaignError as err:
        raise fail(str(err), "seite") from None
    if linked is not None:
        return Entry(label, name, side=side, character=linked)
    return Entry(label, name, *_own_fields(fields, ruleset, data, fail), side=side, count=count)


def _entry_label(raw: Any, index: int, kind: str) -> str:
    """How messages name an entry: its kind and number, and its name where it has one."""
    what = t(f"statblock.{kind}")
    shown = raw.get("name", raw.get("figur")) if isinstance(raw, dict) else None
    if not (isinstance(shown, str) and shown.strip()):
        return f"{what} {index}"
    shown = shown.strip()
    return t("statblock.entry", what=what, index=index, name=shown if len(shown) <= 40 else shown[:39] + "…")


def _entry_fields(raw: Mapping[Any, Any], kind: str, fail) -> dict[str, Any]:  # noqa: ANN001
    """The entry's fields under their German keys; a key the kind does not take, or one given twice, is refused."""
    allowed = CHARACTER_KEYS if kind == "figure" else COMBATANT_KEYS
    fields: dict[str, Any] = {}
    for key, value in raw.items():
        german = canonical(key, ALIASES) if isinstance(key, str) else key
        if german not in allowed:
            if german in COMBATANT_KEYS:
                raise fail(t("statblock.combatant_only", field=german))
            raise fail(_unknown_key(key, allowed))
        if german in fields:
            raise fail(t("statblock.duplicate_key", key=_short(key)))
        fields[german] = value
    return fields


def _linked(fields: Mapping[str, Any], known_characters: set[str], fail) -> str | None:  # noqa: ANN001
    """``figur``: the campaign's character the entry stands for, which then brings its own sheet."""
    linked = fields.get("figur")
    if linked is None:
        return None
    if not isinstance(linked, str) or linked.strip() not in known_characters:
        raise fail(t("statblock.unknown_character", name=_short(linked)) + _hint(linked, sorted(known_characters)),
                   "figur")
    for field in OWN_FIELDS:
        if field in fields:
            raise fail(t("statblock.linked_field", field=field))
    return linked.strip()


def _name_and_count(fields: Mapping[str, Any], linked: str | None, fail) -> tuple[str, int]:  # noqa: ANN001
    """``name`` (the linked character's by default) and ``anzahl``, checked together: the last copy's name too."""
    name = fields.get("name", linked)
    if name is None:
        raise fail(t("statblock.missing_name"))
    try:
        name = check_name(name, "figure")
    except CampaignError as err:
        raise fail(str(err), "name") from None
    count = fields.get("anzahl", 1)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
        raise fail(t("statblock.bad_count", max=MAX_COUNT, value=_short(count)), "anzahl")
    try:
        check_name(name if count == 1 else f"{name} {count}", "figure")
    except CampaignError as err:
        raise fail(str(err), "name") from None
    return name, count


def _hint(value: Any, known: Iterable[str]) -> str:
    """" Meintest du …?" with the closest known word, or nothing."""
    close = difflib.get_close_matches(str(value), list(known), n=1)
    return " " + t("suggest.die", suggestion=close[0]) if close else ""


def _own_fields(fields: Mapping[str, Any], ruleset: str | None, data: Mapping[str, Any], fail) -> tuple:  # noqa: ANN001
    """regelwerk, werte, ressourcen, zustände of an entry, checked."""
    key = fields.get("regelwerk")
    if key is not None:
        key = key.strip().lower() if isinstance(key, str) else key
        try:
            rules.get(key if isinstance(key, str) else repr(key))
        except rules.RulesetError:
            raise fail(t("rpg.unknown_ruleset", key=str(key)[:40], known=", ".join(rules.rulesets()))
                       + _hint(key, rules.rulesets()),
                       "regelwerk") from None
        except RpgError as err:  # installed, but it does not load or two packages claim it
            raise fail(str(err), "regelwerk") from None
    engine_key = key or ruleset

    sheet = {} if fields.get("werte") is None else fields["werte"]
    if not isinstance(sheet, dict):
        raise fail(t("statblock.field_mapping", example="st: 12", value=_short(sheet)), "werte")
    try:
        sheet = rules.get(engine_key).sheet.for_data(data).validate(sheet)
    except RpgError as err:
        raise fail(str(err), "werte") from None

    resources = {} if fields.get("ressourcen") is None else fields["ressourcen"]
    if not isinstance(resources, dict):
        raise fail(t("statblock.field_mapping", example="LP: 12", value=_short(resources)), "ressourcen")
    for res, value in resources.items():
        try:
            check_name(res, "resource")
        except CampaignError as err:
            raise fail(str(err), "ressourcen") from None
        if isinstance(value, bool) or not isinstance(value, int) or abs(value) > MAX_NUMBER:
            allowed_values = t("sheet.allowed_int", low=-MAX_NUMBER, high=MAX_NUMBER)
            raise fail(t("statblock.bad_resource", name=_short(res), allowed=allowed_values,
                         value=_short(value)), "ressourcen")

    return engine_key, sheet, dict(resources), _conditions(fields.get("zustände"), fail)


def _conditions(raw: Any, fail) -> dict[str, Any]:  # noqa: ANN001
    """``zustände``: a mapping name -> {runden, endet, von} (or empty), or a list of names."""
    if raw is None:
        return {}
    if isinstance(raw, list):
        raw = {name: None for name in raw} if all(isinstance(n, str) for n in raw) else raw
    if not isinstance(raw, dict):
        raise fail(t("statblock.conditions_type", value=_short(raw)), "zustände")
    out: dict[str, Any] = {}
    for name, spec in raw.items():
        try:
            name = check_name(name, "condition")
        except CampaignError as err:
            raise fail(str(err), "zustände") from None
        out[name] = _condition(spec, f"zustände: {name}", fail)
    return out


def _condition(spec: Any, where: str, fail) -> dict[str, Any]:  # noqa: ANN001
    """One condition's {runden, endet, von} (``None`` for none of them), checked."""
    spec = {} if spec is None else spec
    if not isinstance(spec, dict):
        raise fail(t("statblock.condition_type", value=_short(spec)), where)
    spec = _canonical(spec)
    for key in spec:
        if key not in CONDITION_KEYS:
            raise fail(_unknown_key(key, CONDITION_KEYS), where)
    rounds = spec.get("runden")
    if rounds is not None and (isinstance(rounds, bool) or not isinstance(rounds, int)
                               or not 1 <= rounds <= MAX_ROUNDS):
        raise fail(t("statblock.bad_rounds", max=MAX_ROUNDS, value=_short(rounds)), where + ", runden")
    ends = spec.get("endet", "rundenende")
    if ends not in TICKS:
        raise fail(t("statblock.bad_ends", known=", ".join(TICKS), value=_short(ends)) + _hint(ends, TICKS),
                   where + ", endet")
    of = spec.get("von")
    if of is not None:
        try:
            check_name(of, "figure")
        except CampaignError as err:
            raise fail(str(err), where + ", von") from None
    return dict(spec)


def _canonical(block: Mapping[Any, Any]) -> dict[Any, Any]:
    """``block`` with each key of another spelling (``ALIASES``) read as its German key; a key given twice
    is refused."""
    return renamed(block, ALIASES, StatBlockError, "statblock.duplicate_key")


def _top_hint(german: Any, data: Mapping[Any, Any]) -> str | None:
    """Why a key does not stand at the top of a block: a single figure, or a field of the encounter."""
    if "name" in data:
        return t("statblock.single_figure")
    return t("statblock.under_encounter") if german == "teilnehmer" else None


def _unknown_key(key: Any, allowed: tuple[str, ...], hint: str | None = None) -> str:
    if not isinstance(key, str):
        return t("statblock.key_type", key=_short(key), known=", ".join(allowed))
    close = difflib.get_close_matches(key, list(allowed) + [a for a, k in ALIASES.items() if k in allowed], n=1)
    if close:
        return t("statblock.unknown_key_close", key=_short(key), suggestion=ALIASES.get(close[0], close[0]))
    return t("statblock.unknown_key", key=_short(key), known=", ".join(allowed)) + (" " + hint if hint else "")


def _short(value: Any, n: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= n else text[:n - 1] + "…"


# -- creating --------------------------------------------------------------------
def create(campaign: Campaign, checked: Plan) -> Loaded:
    """Carry out a checked plan in one transaction (all of it or nothing).

    The campaign checks names once more inside the transaction: another
    notebook may have written to the campaign since ``plan``.
    """
    with campaign.transaction() as tx:
        for entry in checked.characters:
            with _labelled(entry):
                campaign.add_character(entry.name, entry.sheet, entry.ruleset, entry.resources,
                                       entry.conditions)
        name = checked.encounter
        if checked.new_encounter:
            campaign.new_encounter(name)
        elif checked.combatants and name not in tx.state["encounters"]:
            raise StatBlockError(t("statblock.gone_encounter", name=name))
        for entry in checked.combatants:
            with _labelled(entry):
                Encounter(campaign, name).add(entry.name, entry.side, entry.character, entry.sheet,
                                              entry.resources, entry.conditions, entry.count, entry.ruleset)
    return Loaded.of(campaign, checked)


@contextmanager
def _labelled(entry: Entry) -> Iterator[None]:
    """Name the entry in any error the campaign raises for it."""
    try:
        yield
    except StatBlockError:
        raise
    except RpgError as err:
        raise StatBlockError(t("statblock.in_entry", entry=entry.label, message=str(err))) from None


def load(campaign: Campaign, yaml_text: str, encounter: str | None = None) -> Loaded:
    """Create the characters and combatants of a YAML stat block.

    ``encounter`` names the encounter for the combatants (created when it
    does not exist); without it, ``begegnung: name:`` or the active
    encounter. Raises ``StatBlockError`` (or another ``RpgError``) with a
    German message; then nothing was created.
    """
    return create(campaign, plan(campaign, parse(yaml_text), encounter))


@dataclass(frozen=True, repr=False)
class Loaded(Shown):
    """What a block created: the figures as they stand right after it."""

    characters: tuple[str, ...]
    encounter: str | None
    new_encounter: bool
    combatants: tuple[str, ...]
    #: (name, side, figure record) of each created figure, in block order
    rows: tuple[tuple[str, str, dict], ...] = ()

    @classmethod
    def of(cls, campaign: Campaign, checked: Plan) -> Loaded:
        state = campaign.state
        rows = [(n, "", state["characters"][n]) for e in checked.characters for n in e.names]
        combatants = [n for e in checked.combatants for n in e.names]
        for n in combatants:
            record = state["encounters"][checked.encounter]["combatants"][n]
            rows.append((n, record.get("side", ""), figure(state, figure_path(state, n, checked.encounter))))
        return cls(tuple(n for e in checked.characters for n in e.names), checked.encounter,
                   checked.new_encounter, tuple(combatants), tuple(rows))

