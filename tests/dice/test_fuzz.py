"""Grammar-aware fuzzing of the dice language (strategies: tests/dice_grammar.py).

Whatever is typed, only the project's own errors (``RpgError``) come out of
parsing, rolling, computing and showing it, and every accepted expression
rolls, computes and shows within a hang guard. The one-second goal itself is
measured in ``benchmarks/dice_limits.py``.
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, example, given, seed, settings
from hypothesis import strategies as st

import rpgkernel
from rpgkernel import DiceLimitError, RpgError
from rpgkernel.dice import parse, preview, roll_many
from rpgkernel.dice.parser import value_range
from rpgkernel.messages import labels
from rpgkernel.widgets.tray import roll_data

from dice_grammar import NAMES, fuzzed, nested, texts, variables
from hang_guard import hang_guard

FUZZ = settings(max_examples=200, suppress_health_check=list(HealthCheck))
#: the slow run: ten times FUZZ's examples, in parts of FUZZ's size with seeds of their own (the parts run
#: side by side where several workers run the suite, and one part fails and runs again alone)
DEEP_PARTS = 10


def refused(call, *args, **kwargs):
    """``call(*args, **kwargs)``, or the project's error it raised; any other error fails the test."""
    try:
        return call(*args, **kwargs)
    except RpgError as err:
        return err


def show_all(text: str, names: dict) -> None:
    """Every way to parse, roll, compute and show ``text``; asserts what must hold of an accepted one."""
    node = refused(parse, text, names)
    if isinstance(node, RpgError):
        for call in (lambda: rpgkernel.roll(text, seed=1, variables=names),
                     lambda: rpgkernel.dist(text, names), lambda: roll_many(text, 2, seed=1, variables=names)):
            assert isinstance(refused(call), RpgError), text  # refused the same way everywhere
        return
    lo, hi = value_range(node)
    r = rpgkernel.roll(text, seed=1, variables=names)
    assert lo <= r.total <= hi, (text, r.total, lo, hi)
    for shown in (str(r), r._repr_markdown_(), r._repr_mimebundle_()["text/html"], json.dumps(r.to_dict()),
                  json.dumps(roll_data(r))):
        assert shown
    again = rpgkernel.roll(text, dice=[f for d in r.dice for f in d.faces], variables=names)
    assert again.total == r.total and [d.faces for d in again.dice] == [d.faces for d in r.dice], text
    rolls = refused(roll_many, text, 3, seed=2, variables=names)
    if not isinstance(rolls, RpgError):
        assert str(rolls) and rolls._repr_mimebundle_()["text/html"]
    d = refused(rpgkernel.dist, text, names)
    if not isinstance(d, RpgError):
        assert r.total in d.support, text
        assert repr(d) and d._repr_mimebundle_()["text/html"]
    else:
        assert isinstance(d, DiceLimitError)
    shown = refused(preview, text, names)
    if not isinstance(shown, RpgError):
        assert repr(shown) and shown._repr_mimebundle_()["text/html"]


@pytest.mark.slow
@FUZZ
@given(fuzzed(), variables())
@example("+".join(["1"] * 1000), {})
@example("4W10000dh1", {})
@example("50W20!20kh25", {})
@example("W20+@big", {"big": 10**5000})
@example("*".join(["999999999"] * 40), {})
@example("@a*@a*@a", {"a": "999W10000!20"})
def test_only_the_projects_errors_come_out_and_everything_finishes(text, names):
    with hang_guard():
        show_all(text, names)


@pytest.mark.slow
@pytest.mark.parametrize("part", range(DEEP_PARTS))
def test_ten_times_as_many_texts_of_every_kind(part):
    @seed(part)
    @FUZZ
    @given(fuzzed(), variables())
    def check(text, names):
        with hang_guard():
            show_all(text, names)
    check()


@settings(max_examples=40, suppress_health_check=list(HealthCheck))
@given(nested(), variables())
def test_the_deepest_nesting_finishes_everywhere(text, names):
    with hang_guard():
        show_all(text, names)


# -- the grammar of the docs and the parser --------------------------------------------

def _patterns(*keys: str) -> re.Pattern:
    """The catalogue messages ``keys``, any text in their fields."""
    table = labels("")
    return re.compile("|".join(re.sub(r"\\\{[^}]*\\\}", ".*", re.escape(table[k])) for k in keys))


# what a text the grammar allows can still be refused for: its meaning, not its form
_SYNTAX = _patterns("dice.unexpected", "dice.unexpected_end", "dice.expected", "dice.trailing")


@pytest.mark.slow
@settings(max_examples=200, suppress_health_check=list(HealthCheck))
@given(texts(depth=10, repeat=2), st.fixed_dictionaries({n: st.integers(-5, 5) for n in NAMES if n != "nix"}))
def test_every_text_of_the_grammar_in_the_docs_is_read_by_the_parser(text, names):
    """Refusals of grammatical texts are about meaning (ranges, limits, unknown names), never about form."""
    with hang_guard():
        node = refused(parse, text, names)
    if isinstance(node, RpgError):
        assert not _SYNTAX.fullmatch(node.message), (text, node.message)


def test_the_syntax_patterns_recognise_syntax_errors():
    for text in ("3W6+", "W6 W6", "(1", "3X6"):
        with pytest.raises(RpgError) as info:
            parse(text)
        assert _SYNTAX.fullmatch(info.value.message), info.value.message
    with pytest.raises(RpgError) as info:
        parse("2W6kh3")
    assert not _SYNTAX.fullmatch(info.value.message)
