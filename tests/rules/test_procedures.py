"""The rule procedures read like the seeds' lists of steps: one short function per step over a small
typed context, instead of one long function with a block per step and a parameter per option."""

import ast
from pathlib import Path

import pytest

import rpgkernel.rules

RULES = Path(rpgkernel.rules.__file__).parent
MAX_LINES = 80
MAX_PARAMETERS = 10
#: signatures still to be cut (file relative to rpgkernel/rules, function): this list only shrinks
STILL_WIDE = {("adz/compact.py", "_enden")}


def _functions():
    for path in sorted(RULES.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield path.relative_to(RULES).as_posix(), node


def _parameters(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """Every parameter but ``self``/``cls``; ``*args`` and ``**kwargs`` count one each."""
    a = node.args
    names = [*a.posonlyargs, *a.args, *a.kwonlyargs, *([a.vararg] if a.vararg else []),
             *([a.kwarg] if a.kwarg else [])]
    return len([n for n in names if n.arg not in ("self", "cls")])


def test_the_procedures_are_found():
    found = {(f, n.name) for f, n in _functions()}
    assert {("bastionland/attack.py", "attack"), ("bastionland/attack.py", "deny"),
            ("kampfwerte/manoever.py", "ausfuehren"), ("adz/magic.py", "zauberplan")} <= found


def test_no_function_under_rules_runs_over_80_lines():
    long = [(f, n.name, n.end_lineno - n.lineno + 1) for f, n in _functions()
            if n.end_lineno - n.lineno + 1 > MAX_LINES]
    assert not long


def test_no_signature_under_rules_takes_over_10_parameters():
    wide = {(f, n.name) for f, n in _functions() if _parameters(n) > MAX_PARAMETERS}
    assert wide == STILL_WIDE


@pytest.mark.parametrize("source, expected", [
    ("def f(self, a, b=1, *c, d, **e): pass", 5),
    ("def f(a, /, b): pass", 2),
])
def test_what_counts_as_a_parameter(source, expected):
    assert _parameters(ast.parse(source).body[0]) == expected
