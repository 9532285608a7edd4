import pytest

from rpgkernel import DiceLimitError, DiceSyntaxError
from rpgkernel.dice import parse
from rpgkernel.dice.nodes import Chain, Const, Die, Group, Pool, Selector, notation


def test_german_and_english_notation_are_the_same_tree():
    assert parse("3W6+2") == parse("3d6+2") == parse("3w6 + 2") == parse("3D6+2")
    assert parse("W%") == parse("d%") == parse("1W100")
    assert parse("W20") == Pool((Group(1, Die(20)),))


def test_precedence_and_parentheses():
    tree = parse("2+3*4")
    assert tree == Chain(("+",), (Const(2), Chain(("*",), (Const(3), Const(4)))))
    assert parse("(2+3)*4").terms[0].inner == Chain(("+",), (Const(2), Const(3)))
    # a flat chain is one node, left to right
    assert parse("1-2+3*4*5-6") == Chain(("-", "+", "-"), (
        Const(1), Const(2), Chain(("*", "*"), (Const(3), Const(4), Const(5))), Const(6)))
    assert parse("3 − 1") == parse("3-1")
    assert parse("2×W6") == parse("2*W6")


def test_pool_modifiers():
    assert parse("4W6kh3").keep == ("h", 3)
    assert parse("2W20kl1").keep == ("l", 1)
    assert parse("4W6dl1").keep == ("h", 3)
    assert parse("4W6dh1").keep == ("l", 3)
    assert parse("7W6>=5").count == Selector(">=", 5)
    mixed = parse("{W8,W4,2W6}kh1")
    assert [(g.count, g.die.sides) for g in mixed.groups] == [(1, 8), (1, 4), (2, 6)]
    assert mixed.braces and mixed.keep == ("h", 1)


def test_die_modifiers():
    die = parse("3W6r1").groups[0].die
    assert die.reroll == Selector("=", 1) and die.reroll_once
    die = parse("W10rr<3").groups[0].die
    assert die.reroll == Selector("<", 3) and not die.reroll_once
    assert parse("W6!3").groups[0].die.explode == 3
    shared = parse("{W8,W6}r1")
    assert all(g.die.reroll == Selector("=", 1) for g in shared.groups)


@pytest.mark.parametrize("text", [
    "3W6+2", "4W6kh3", "2W20kl1", "{W8,W4,2W6}kh1", "7W6>=5", "3W6r1", "W6rr<3", "W6!3",
    "max(0, {W8,W4,W6,W6}kh1-2)", "W%", "-(W4+1)*2", "min(W20, W20, 5)", "5W10r<=2!2kh3>7",
])
def test_notation_round_trips(text):
    tree = parse(text)
    assert parse(notation(tree)) == tree


@pytest.mark.parametrize("text, position", [
    ("3W6+", 4), ("3W", 2), ("(3W6", 4), ("{W8,W4", 6), ("3W6)", 3), ("W6 W6", 3), ("", None),
])
def test_syntax_errors_point_at_the_fault(text, position):
    with pytest.raises(DiceSyntaxError) as info:
        parse(text)
    err = info.value
    assert err.position == position
    if position is not None:
        lines = str(err).splitlines()
        assert lines[1] == "  " + text
        assert lines[2] == "  " + " " * position + "^"


def test_messages_are_german_with_suggestions():
    with pytest.raises(DiceSyntaxError) as info:
        parse("3X6")
    assert "Unerwartetes 'X'" in info.value.message
    assert info.value.suggestion == "Meinten Sie '3W6'?"
    # a letter after a die's sides is no die of its own: no '6W6' for 1d6y6
    for text in ("1d6y6", "1d20q10"):
        with pytest.raises(DiceSyntaxError) as info:
            parse(text)
        assert info.value.suggestion is None


@pytest.mark.parametrize("text, fragment", [
    ("2W6kh3", "nur 2 Würfel"),
    ("2W6dl2", "nur 2 Würfel"),
    ("0W6", "Mindestens ein Würfel"),
    ("W0", "mindestens eine Seite"),
    ("W6rr<=6", "nie zur Ruhe"),
    ("4W6kh3kl1", "nur eine Auswahl"),
    ("W6r1r2", "zweimal"),
    ("{W6r1,W8}r2", "zweimal"),
    ("foo(3)", "Unbekannte Funktion"),
    ("max(3)", "mindestens zwei"),
])
def test_semantic_errors(text, fragment):
    with pytest.raises(DiceSyntaxError) as info:
        parse(text)
    assert fragment in info.value.message


@pytest.mark.parametrize("text", [
    "1000000000W6", "1001W6", "500W6+501W6", "W100000", "W6!21", "W1!", "W6!>=1", "W10!>1", "(" * 200 + "1" + ")" * 200,
    "9" * 20, "1+" * 1500 + "1",
])
def test_absurd_requests_are_refused_at_once(text):
    with pytest.raises(DiceLimitError):
        parse(text)


def test_variables():
    assert parse("W20+@bonus", {"bonus": 3}) == parse("W20+3")
    assert parse("@angriff+1", {"angriff": "2W6"}).terms[0].inner == parse("2W6")
    assert parse("W20+@malus", {"malus": -2}) == parse("W20+-2")
    with pytest.raises(DiceSyntaxError, match="Unbekannte Variable @nix"):
        parse("W20+@nix", {})
    with pytest.raises(DiceSyntaxError, match="ganze Zahl oder ein Würfelausdruck"):
        parse("W20+@x", {"x": 1.5})
    with pytest.raises(DiceSyntaxError, match="@x"):
        parse("W20+@x", {"x": "3X"})
    with pytest.raises(DiceLimitError):
        parse("@a+@a", {"a": "600W6"})
