"""Grammar-aware fuzzing of %%resolve in every ruleset: real verbs, aliases and figures, mutated
options, values of every kind (huge numbers, hostile text, dice near the limits) and choice lines.

Only the project's own errors (``RpgError``) may come out of running a cell, of its preview and of
rendering the results; every example finishes within a generous hang guard.
"""

from __future__ import annotations

import json
import shutil
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rpgkernel
from rpgkernel import Campaign, RpgError, rules
from rpgkernel.resolve.language import parse, quote
from rpgkernel.resolve.run import PASS
from rpgkernel.rules.resolution import INT_RANGE

from hang_guard import hang_guard
from resolve_campaigns import RULESETS, campaign, figure_names

EXAMPLES = 100   # per ruleset and test
GUARD = 30      # CPU seconds per cell: far above any budget of one cell, far below "it hangs"

# option values a GM of each ruleset writes (from the ruleset's docs), besides the generated ones
WORDS = {
    "bastionland": ["VIG", "CLA", "SPI", "vig", "W12", "Blast", "Bolster", "Repel", "Impair", "keine_probe",
                    "handlung", "jahreszeit", "feuer", "kein Sold seit dem Herbst", "5", "Söldner"],
    "adz": ["KK", "GE", "CH", "KL", "IN", "Klettern", "Reiten", "Verteidigung", "Felswände", "Feuer",
            "Pflanze+Luft", "Licht", "Flammen", "erschaffen", "beherrschen", "erschaffen+beherrschen", "parade",
            "ausweichen", "Langschwert", "Kurzbogen", "nah", "klein", "geistig", "körperlich", "schwierig",
            "Lichtkugel", "Akrobatik", "entzug", "widerstand", "angriff", "zauber"],
    "midgard": ["Balancieren", "Sehen", "abwehr", "resistenz", "ko", "st", "Langschwert", "Kurzschwert", "Elf",
                "Halbling", "Standard", "Bannzauber", "Feuer", "Wasser", "Nachtsicht", "+1", "100", "-1", "12.5",
                "3,5", "Schmerzen, Zeichen der Macht", "Elementarbeschwörer"],
    "osr": ["Gift", "Odem", "Dolch", "waffenlos", "Langschwert", "Schlaf", "Feuerball", "Hauptmann", "25", "50"],
    "kampfwerte": ["Finte", "Riposte", "Konterparade", "Finte:2", "Riposte:1", "HEIMLICHKEIT", "GEWANDTHEIT",
                   "Gehen", "Schleichen", "Laufen", "3,2", "(1,0)", "0,0", "4,2", "3,x", "99,99", "-1,-1"],
}
HOSTILE = ["", " ", "<b>x</b>", "</div><script>alert(1)</script>", "{0}", "{x!r}", "%s", "%%", "\\", '"', "'",
           "a\"b'c", "Ünïcödé ✓ 🐉", "\u202e", "x" * 3000, "NaN", "inf", "-0", "1e9", "0x10", "None", "True",
           "{W8", "(", "->", "#", ",", "=", "W6=", "a=b=c"]
INTS = [0, 1, -1, 2, 3, 5, 12, 20, 100, INT_RANGE[0], INT_RANGE[1], INT_RANGE[0] - 1, INT_RANGE[1] + 1,
        10**9, 10**18, -10**18, 10**310]
INT_TEXT = ["+2", "−2", "007", "1.5", "2,0", "zwei", "", "٣", "1_000"]
HUGE = [str(10**18), str(10**310), "-" + "9" * 400]
DICE = ["W6", "2W6+1", "W20", "W%", "W8-2", "3W6kh2", "{W8,W4,2W6}kh1", "max(0, W8-2)", "7W6>=5", "W6!3",
        "1000W6", "W10000", "999W6+W6", "{500W6,500W8}kh1", "W6!20", "2W6r1", "+".join(["1"] * 200),
        "1000W6>=6", "10W10000", "W10000*W10000", "W10000*W200", "W100*W100", "{W10000,W10000}kh1",
        "min(W6, 3)", "-W6", "W6-W6",
        "1001W6", "W10001", "W6!21", "3W6+", "", "W0", "0W6", "@x", "1" * 12, "W6" + ")" * 3]
POOLS = ["W8", "2W6", "{W8,W4,2W6}", "{W12}", "W4", "{1000W6}", "{500W6,500W6}", "{501W6,500W6}",
         "{1000W6,1000W6}", "W10000", "{1000W10000}", "{10W10000}", "{999W6,W10000}", "{W10000,W10000}",
         "{W5000}", "{100W100}", "{W8,3W6+2}", "{W8,}",
         "{}", "W6kh1", "7W6>=5", "{W8,W4", "0W6", "W6!3"]


def _spellings(verb) -> list[str]:
    return [verb.name, *verb.aliases, verb.name.upper()]


def _mostly(common, rare, one_in: int = 5):
    """Mostly ``common``, about one draw in ``one_in`` from ``rare`` (both strategies; a residue
    of a wide integer, since hypothesis favours the smallest and largest values of a range)."""
    return st.integers(0, 10_000).flatmap(lambda n: rare if n % one_in == one_in // 2 else common)


def _pick(items):
    """One of ``items``, about evenly (``sampled_from`` favours the first in derandomised runs)."""
    items = list(items)
    return st.integers(0, 10_000).map(lambda n: items[n % len(items)])


def _one_in(k: int):
    return st.integers(0, 10_000).map(lambda n: n % k == k // 2)


_TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"),
                max_size=12)


def _value(ruleset: str, kind: str, figures: list[str], bounds: tuple[int, int] = INT_RANGE):
    if kind == "int":  # small numbers, the option's own range and just beyond, huge numbers, not numbers
        low, high = bounds
        edges = [str(i) for i in (low, high, low - 1, high + 1, (low + high) // 2)]
        return _mostly(st.integers(-5, 30).map(str) | _pick(edges),
                       _pick([str(i) for i in INTS] + INT_TEXT) | _pick(HUGE), 2)
    if kind == "dice":
        return _mostly(_pick(DICE[:10]), _pick(DICE[10:] + HOSTILE[:6]), 2)
    if kind == "pool":
        return _mostly(_pick(POOLS[:5]), _pick(POOLS[5:] + HOSTILE[:4]), 2)
    if kind == "name":
        return _mostly(_pick(figures), _pick(["Niemand", figures[0].lower()]))
    return _mostly(_pick(WORDS[ruleset]), _pick(HOSTILE) | _TEXT, 3)


@st.composite
def _option(draw, ruleset: str, verb, figures: list[str]) -> str:
    """``key=value`` or a flag of the verb, sometimes mutated (a typo, a value of another kind, a
    key of another verb)."""
    names = sorted(verb.options)
    if not names or draw(_one_in(20)):
        key = draw(_pick(["bonus", "x", "wm", "virtue", "mw", "ä"] + names))
        kind = draw(_pick(["int", "text", "flag", "dice"]))
    else:
        key = draw(_pick(names))
        kind = verb.options[key]
        if draw(_one_in(20)):
            key = key[:-1] if len(key) > 1 else key + "x"
        elif draw(_one_in(20)):
            kind = draw(_pick(["int", "text", "flag"]))
    if kind == "flag":
        return key
    return f"{key}={quote(draw(_value(ruleset, kind, figures, verb.range(key))), value=True)}"


def _example(verb) -> tuple[list[str], list[str], dict[str, str]]:
    """The verb's own example line: its figures, its targets and its options and flags
    (key -> the line's text for it)."""
    [cmd] = parse(verb.example)
    return ([w.text for w in cmd.actors], [w.text for w in cmd.targets],
            {**{k: f"{k}={quote(w.text, value=True)}" for k, w in cmd.options.items()},
             **{f.text: f.text for f in cmd.flags}})


@st.composite
def _line(draw, ruleset: str, verbs: list, figures: list[str]) -> str:
    """A line of one of ``verbs``: the figures of its example where the campaign has them, else
    real figures; the options of its example with one of them replaced (mostly), perhaps an
    option more; rarely a character replaced anywhere."""
    verb = draw(_pick(verbs))
    names = _mostly(_pick(figures), st.just("Niemand"), 25)
    own, aimed, options = _example(verb)
    if set(own + aimed) <= set(figures) and not draw(_one_in(4)):
        actors, targets = own, aimed
    else:
        actors = draw(st.lists(names, min_size=1, max_size=3 if verb.actors == "many" else 1, unique=True))
        most = 1 if verb.targets == "one" else 2
        targets = (draw(st.lists(names, min_size=1, max_size=most, unique=True))
                   if verb.targets in ("one", "required") or verb.targets == "optional" and draw(st.booleans())
                   else [])
    line = draw(_pick(_spellings(verb))) + " " + ", ".join(quote(a) for a in actors)
    if targets:
        line += " -> " + ", ".join(quote(x) for x in targets)
    valued = [k for k in options if verb.options.get(k, "flag") != "flag"]
    if valued and draw(st.booleans()):  # one of the example's own values replaced
        key = draw(_pick(valued))
        options[key] = f"{key}={quote(draw(_value(ruleset, verb.options[key], figures, verb.range(key))), value=True)}"
    elif not draw(_one_in(4)):
        new = draw(_option(ruleset, verb, figures))
        options[new.partition("=")[0]] = new
    line += "".join(" " + o for o in options.values())
    if draw(_one_in(25)):
        at = draw(st.integers(0, len(line)))
        line = line[:at] + draw(_pick(list(",->=\"'{}()#→ ;<"))) + line[at + 1:]
    return line


@st.composite
def cells(draw, ruleset: str, figures: list[str]) -> str:
    """A cell: mostly one action line, sometimes two, each perhaps followed by a choice line (or
    ``verzicht``)."""
    verbs = list(rules.get(ruleset).verbs.values())
    actions = [v for v in verbs if v.choice is None]
    choices = [v for v in verbs if v.choice is not None]
    lines = []
    for _ in range(2 if draw(_one_in(4)) else 1):
        lines.append(draw(_line(ruleset, actions, figures)))
        if choices and draw(_one_in(3)):
            if not draw(_one_in(4)):
                lines.append(draw(_line(ruleset, choices, figures)))
            else:
                lines.append(draw(_pick([PASS, "pass"])) + " " + quote(draw(_pick(figures))))
    return "\n".join(lines)


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    """Each ruleset's fixture campaign as a closed file, copied afresh for every example."""
    root = tmp_path_factory.mktemp("fuzz")
    out = {}
    for key in RULESETS:
        path = root / f"{key}.sqlite"
        c = campaign(key, path)
        out[key] = (path, figure_names(c))
        c.close()
    return out


@contextmanager
def fresh(pristine, ruleset: str, where: Path):
    path, _ = pristine[ruleset]
    target = where / f"{ruleset}-{fresh.count}.sqlite"
    fresh.count += 1
    shutil.copy(path, target)
    c = Campaign.open(target)
    try:
        yield c
    finally:
        c.close()


fresh.count = 0


def shown(result) -> None:
    """Render a result as a notebook and the journal would: text, HTML, JSON."""
    for res in result if isinstance(result, list) else [result]:
        repr(res)
        bundle = res._repr_mimebundle_()
        assert set(bundle) == {"text/plain", "text/html"}
        json.dumps(res.to_dict())
    repr(result)
    if isinstance(result, list):
        result._repr_mimebundle_()


def run_cell(camp: Campaign, source: str, **kw) -> None:
    """Run ``source``; only RpgError may come out, and the result must render."""
    try:
        result = rpgkernel.resolve(source, campaign=camp, **kw)
    except RpgError as err:
        str(err)
        return
    shown(result)


def fuzz(ruleset: str):
    @settings(max_examples=EXAMPLES, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                           HealthCheck.too_slow])
    @given(data=st.data())
    def check(pristine, tmp_path, data):
        _, figures = pristine[ruleset]
        source = data.draw(cells(ruleset, figures), label="cell")
        seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
        dice = data.draw(_mostly(st.none(), st.lists(st.integers(1, 20), max_size=12)), label="dice")
        with fresh(pristine, ruleset, tmp_path) as camp, hang_guard(GUARD):
            run_cell(camp, source, preview=True)
            run_cell(camp, source, seed=seed, dice=dice)
    return check


test_fuzz_adz = fuzz("adz")
test_fuzz_bastionland = fuzz("bastionland")
test_fuzz_kampfwerte = fuzz("kampfwerte")
test_fuzz_midgard = fuzz("midgard")
test_fuzz_osr = fuzz("osr")


@settings(max_examples=EXAMPLES)
@given(st.sampled_from(RULESETS), st.text(alphabet=st.characters(codec="utf-8"), max_size=200))
def test_any_text_is_refused_in_german_or_runs(ruleset, text):
    """Text that is not built from the grammar: only the project's errors, without a campaign too."""
    with hang_guard(GUARD):
        try:
            shown(rpgkernel.resolve(text, ruleset=ruleset, figures={}))
        except RpgError:
            pass
