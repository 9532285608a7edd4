"""Limits of the dice language: no input reaches Python's recursion limit, every number is bounded."""

import re
import sys

import pytest

import rpgkernel
from rpgkernel import DiceLimitError
from rpgkernel.dice import limits, parse, roll_many
from rpgkernel.dice.nodes import notation, walk
from rpgkernel.render import (dist_html, dist_text, roll_html, roll_markdown, roll_text, rolls_html,
                              rolls_text)
from rpgkernel.widgets.tray import roll_data

DEPTH = limits.MAX_DEPTH


def show_everything(expr: str, variables=None) -> None:
    """Parse, roll, roll several times, compute and render ``expr`` in every form."""
    node = parse(expr, variables)
    assert parse(notation(node)) == node
    assert list(walk(node))[0] is node
    r = rpgkernel.roll(expr, seed=1, variables=variables)
    rs = roll_many(expr, 3, seed=1, variables=variables)
    for text in (roll_text(r), roll_markdown(r), roll_html(r), rolls_text(rs), rolls_html(rs)):
        assert text
    assert roll_data(r)["parts"]
    try:
        d = rpgkernel.dist(expr, variables)
    except DiceLimitError:
        return
    assert dist_text(d) and dist_html(d)


@pytest.mark.parametrize("expr", [
    "+".join(["1"] * 1000),
    "-".join(["1"] * 1000),
    "*".join(["1"] * 1000),
    "+".join(["1*1"] * 500)[:1999],
    "-".join(["W6"] * 600),
    "+".join(["-1"] * 666),
], ids=["plus", "minus", "times", "sum of products", "dice", "signed terms"])
def test_long_flat_chains_are_flat_trees(expr):
    assert len(expr) <= limits.MAX_LENGTH
    show_everything(expr)
    node = parse(expr)
    assert len(node.terms) >= 500  # one node for the whole chain


@pytest.mark.parametrize("expr", [
    "(" * DEPTH + "W6" + ")" * DEPTH,
    "(" * (DEPTH - 1) + "+".join(["W6"] * 200) + ")" * (DEPTH - 1),
    "-" * DEPTH + "W6",
    "max(" * DEPTH + "W6" + ",1)" * DEPTH,
    "(1+" * DEPTH + "W6" + ")*1" * DEPTH,
    "{W6,W8}kh1+" * 3 + "-(" * (DEPTH // 2) + "W4*W4" + ")" * (DEPTH // 2),
], ids=["parentheses", "parenthesised chain", "minus signs", "max", "mixed", "pools and signs"])
def test_the_deepest_nesting_allowed_works_everywhere(expr):
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(_frames()) + 600)  # far below the default, still plenty
    try:
        show_everything(expr)
    finally:
        sys.setrecursionlimit(limit)


def _frames() -> list:
    frames, f = [], sys._getframe()
    while f is not None:
        frames.append(f)
        f = f.f_back
    return frames


def test_one_level_deeper_is_refused():
    for expr in ("(" * (DEPTH + 1) + "1" + ")" * (DEPTH + 1), "-" * (DEPTH + 1) + "1",
                 "max(" * (DEPTH + 1) + "1" + ",1)" * (DEPTH + 1)):
        with pytest.raises(DiceLimitError, match="zu tief verschachtelt"):
            parse(expr)


def test_a_variable_holding_an_expression_counts_its_nesting():
    inner = "(" * (DEPTH - 1) + "W6" + ")" * (DEPTH - 1)
    show_everything("@x+1", {"x": inner})  # the variable is one level, its text the rest
    with pytest.raises(DiceLimitError, match="zu tief verschachtelt"):
        parse("(@x)", {"x": inner})
    with pytest.raises(DiceLimitError, match="zu tief verschachtelt"):
        parse("(" * DEPTH + "@x" + ")" * DEPTH, {"x": "1"})


# -- numbers in messages ---------------------------------------------------------

@pytest.mark.parametrize("expr, numbers", [
    ("1001W6", ["1.001", "1.000"]),
    ("W100000", ["10.000"]),
    ("W6+" + "1" * 11, ["1.000.000.000"]),
    ("1+" * 1001, ["2.002", "2.000"]),
])
def test_limit_messages_write_numbers_the_german_way(expr, numbers):
    with pytest.raises(DiceLimitError) as info:
        parse(expr)
    message = info.value.message
    for n in numbers:
        assert n in message
    assert not re.search(r"\d,\d{3}", message), message
    if expr == "W100000":
        assert "W100000" in message  # a die as it is typed


# -- bounded integers --------------------------------------------------------------

@pytest.mark.parametrize("value", [10**5000, -10**5000, limits.MAX_NUMBER + 1],
                         ids=["10^5000", "-10^5000", "MAX_NUMBER+1"])
def test_an_integer_variable_is_bounded(value):
    for compute in (parse, lambda e, v: rpgkernel.roll(e, seed=1, variables=v), rpgkernel.dist):
        with pytest.raises(DiceLimitError, match="@big ist zu groß") as info:
            compute("W20+@big", {"big": value})
        assert "1.000.000.000" in info.value.message and info.value.position == 4


def test_integer_variables_of_any_integer_type_within_the_bound_are_read():
    import numpy as np
    r = rpgkernel.roll("W20+@b-@c", dice=[7], variables={"b": np.int64(3), "c": -limits.MAX_NUMBER})
    assert r.total == 7 + 3 + limits.MAX_NUMBER


@pytest.mark.parametrize("expr", [
    "999999999*999999999",
    "*".join(["999999999"] * 40),           # 10^360: beyond a float
    "W10000!20*W10000!20*W10000!20",       # dice at their largest: 9.261 * 10^15
    "1000000000*1000000000*0",             # the product on the way is too big
    "(1000000000*1000000+1)",
    "-(W6*1000000000)*(-1000000)",
    "@x*@x", "max(1, 999999999*1000002)",
])
def test_values_beyond_the_bound_are_refused(expr):
    variables = {"x": "1000000000*100000"}
    for compute in (lambda e: parse(e, variables), lambda e: rpgkernel.roll(e, seed=1, variables=variables),
                    lambda e: rpgkernel.dist(e, variables)):
        with pytest.raises(DiceLimitError, match="zu große Werte") as info:
            compute(expr)
        assert "1.000.000.000.000.000" in info.value.message


def test_values_up_to_the_bound_roll_and_show():
    expr = "1000000000*1000000"
    r = rpgkernel.roll(expr, seed=1)
    assert r.total == limits.MAX_VALUE
    show_everything(expr)
    show_everything("-1000000000*1000000+W6")


def test_the_docs_state_the_real_limits():
    """Each row of the limits table in docs/wuerfelsprache.md gives the number the code uses."""
    from doc_blocks import page

    from rpgkernel.render import integer
    docs = page("wuerfelsprache.md").text
    [table] = [block for block in docs.split("## Grenzen", 1)[1].split("\n\n") if block.startswith("| Grenze")]
    rows = {}
    for line in table.splitlines()[2:]:
        what, value = line.strip("|").rsplit("|", 1)
        rows[what.strip()] = value.strip()
    expected = {
        "Länge": limits.MAX_LENGTH, "Verschachtelung": limits.MAX_DEPTH, "Würfel pro Ausdruck": limits.MAX_DICE,
        "Seiten": limits.MAX_SIDES, "Zusatzwürfe eines": limits.MAX_EXPLODE, "eine Zahl im Ausdruck": limits.MAX_NUMBER,
        "jeder Wert": limits.MAX_VALUE, "Würfe auf einmal (": limits.MAX_ROLLS,
        "Würfe auf einmal, zusammen": limits.MAX_SHOWN, "Rechenschritte": limits.MAX_WORK,
        "geschätzten": limits.MAX_DRAWS,
    }
    assert len(rows) == len(expected)
    for fragment, value in expected.items():
        [row] = [v for k, v in rows.items() if fragment in k]
        assert row.split()[0] == integer(value), (fragment, row)
    with pytest.raises(DiceLimitError) as info:
        rpgkernel.dist("4W10000kh3")
    assert f"höchstens {integer(limits.MAX_WORK)} sind erlaubt" in info.value.message
    assert f"höchstens {limits.MAX_REROLLS} Neuwürfe" in docs
