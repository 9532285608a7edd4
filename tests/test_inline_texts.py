"""No user-facing German text bypasses the catalogues: the package's string literals, read by AST.

A *user-facing German text* is a string literal of the package (a plain string, or the
literal parts of an f-string) that

- reads as words: two or more words (runs of two or more letters) with whitespace between, and
- is German: it has an umlaut or ß, a German typographic mark (– „ “ −), or one of the
  German function words below;

and is none of these, which are no texts to translate:

1. a docstring (developer documentation, English);
2. a dict key: identifiers (condition names, table rows, option names);
3. a module-level constant with an upper-case name, bound to a string or a tuple of strings:
   the names the code compares, stores or cites (conditions, states, the seed's sections);
4. an argument bound to a parameter named ``rule``, ``condition`` or ``example`` (found through
   the signatures of the package's functions and dataclasses), or a value assigned to a
   variable of such a name: a seed section cited verbatim, a condition name the journal
   stores, a ``%%resolve`` line in the language's own words;
5. a value stored in a resolution's ``outcome`` (``res.outcome["treffer"] = "kein Treffer"``):
   states that exports and tests read as they are.

English strings (SQL, the texts of library errors the stores match, developer errors) are not
German and not counted. Not caught: German without umlauts and function words
(``"Starker Tritt"``) and single words (``"Rasse"``); the catalogues' own tests and review cover those.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "rpgkernel"

WORD = re.compile(r"[^\W\d_]{2,}")
MARKS = re.compile(r"[äöüßÄÖÜ–„“−]")
FUNCTION_WORDS = frozenset("""
    ab als am auch auf aus bei beim bis dem den der des die durch ein eine einem einen einer eines
    erst für gegen hat im ins ist je kann kein keine keinem keinen mit nach nicht noch nur ohne oder
    sich sind über und unter vom von vor wie wird zu zum zur""".split())
IDENTIFIER_PARAMETERS = frozenset({"rule", "condition", "example"})

def is_german_text(text: str) -> bool:
    words = WORD.findall(text)
    return (len(words) >= 2 and any(c.isspace() for c in text)
            and bool(MARKS.search(text) or any(w.lower() in FUNCTION_WORDS for w in words)))


def _parameters(trees: dict[str, ast.Module]) -> dict[str, list[list[str]]]:
    """Function and dataclass name -> the positional parameter names of each definition (no self)."""
    found: dict[str, list[list[str]]] = {}
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names = [a.arg for a in node.args.posonlyargs + node.args.args]
                found.setdefault(node.name, []).append(names[1:] if names[:1] in (["self"], ["cls"]) else names)
            elif isinstance(node, ast.ClassDef) and any("dataclass" in ast.unparse(d) for d in node.decorator_list):
                fields = [s.target.id for s in node.body if isinstance(s, ast.AnnAssign)
                          and isinstance(s.target, ast.Name) and "ClassVar" not in ast.unparse(s.annotation)]
                found.setdefault(node.name, []).append(fields)
    return found


def _exempt(tree: ast.Module, parameters: dict[str, list[list[str]]]) -> set[int]:
    """The ids of the nodes below which no literal counts (points 1 to 5 of the module docstring)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body \
                and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant):
            out.add(id(node.body[0].value))                                                    # 1
        elif isinstance(node, ast.Dict):
            out.update(id(k) for k in node.keys if k is not None)                              # 2
        elif isinstance(node, ast.Call):
            callee = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
            out.update(id(k.value) for k in node.keywords if k.arg in IDENTIFIER_PARAMETERS)   # 4
            for i, arg in enumerate(node.args):
                names = {sig[i] for sig in parameters.get(callee, []) if i < len(sig)}
                if names and names <= IDENTIFIER_PARAMETERS:
                    out.add(id(arg))
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name) and target.id in IDENTIFIER_PARAMETERS:
                    out.add(id(node.value))                                                    # 4
                elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Attribute) \
                        and target.value.attr == "outcome":
                    out.add(id(node.value))                                                    # 5
    for node in tree.body:                                                                     # 3
        if isinstance(node, ast.Assign) and all(isinstance(t, (ast.Name, ast.Tuple)) for t in node.targets):
            names = [n.id for t in node.targets for n in ([t] if isinstance(t, ast.Name) else t.elts)
                     if isinstance(n, ast.Name)]
            values = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
            if names and all(n.isupper() for n in names) and all(
                    isinstance(v, ast.Constant) and isinstance(v.value, str) or isinstance(v, ast.Tuple)
                    and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in v.elts) for v in values):
                out.add(id(node.value))
    return out


def inline_texts(package: Path = PACKAGE) -> list[tuple[str, int, str]]:
    """(file, line, text) of every user-facing German text in ``package`` outside the catalogues."""
    trees = {path.relative_to(package).as_posix(): ast.parse(path.read_text(encoding="utf-8"))
             for path in sorted(package.rglob("*.py"))}
    parameters = _parameters(trees)
    found = []
    for name, tree in trees.items():
        exempt = _exempt(tree, parameters)
        todo: list[ast.AST] = [tree]
        while todo:
            node = todo.pop()
            if id(node) in exempt:
                continue
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and is_german_text(node.value):
                found.append((name, node.lineno, node.value))
            todo += ast.iter_child_nodes(node)
    return sorted(found)


def test_no_user_facing_text_bypasses_the_catalogues():
    found = inline_texts()
    assert not found, "Texte außerhalb der Kataloge (in locale/messages.pot eintragen, im Code t(...)):\n" + \
        "\n".join(f"  rpgkernel/{f}:{line}: {text[:90]!r}" for f, line, text in found)


@pytest.mark.parametrize("text, german", [
    ("Der Würfelausdruck ist leer.", True), ("{figure} trifft und verliert", True),
    ("AdZ – Aera der Zauberey", True), ("hat gestürmt", True), ("Frage ohne Antwort", True),
    ("dice.empty", False), ("W20", False), ("3W6+2", False), ("rpgk-card rpgk-roll", False), ("Zauber", False),
    ("database is locked", False), ("SELECT seq FROM rpg_events WHERE campaign = ?", False),
    ("mapping values are not allowed", False), ("#,##0.00", False), ("messages.pot", False),
])
def test_what_counts_as_german_text(text, german):
    assert is_german_text(text) is german


def test_an_inline_text_is_found(tmp_path):
    """A text written straight into an engine is found; the same text through t() is not."""
    (tmp_path / "regel.py").write_text(
        'from .messages import t\n\n'
        'RULE = "Kampf mit zwei Waffen"\n\n\n'
        'def angriff(res, figur):\n'
        '    """The attack (Kampf mit zwei Waffen)."""\n'
        '    res.step(t("regel.treffer", figure=figur), RULE)\n'
        '    res.step(f"{figur} trifft mit beiden Waffen", rule="Kampf mit zwei Waffen")\n'
        '    res.outcome["treffer"] = "kein Treffer"\n'
        '    return {"dem Tod nahe": t("regel.tod_nahe")}\n', encoding="utf-8")
    assert inline_texts(tmp_path) == [("regel.py", 9, " trifft mit beiden Waffen")]
