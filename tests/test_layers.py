"""The package's layers point one way: an import graph read from the source (module-level and
function-level imports; ``if TYPE_CHECKING:`` blocks are not imports at run time)."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "rpgkernel"

#: floor of each top-level part; a module may import its own floor and those below.
#: Everything not named (session, magics, widgets, server, ...) sits above the render floor.
#: ``parts`` holds what the top (``wiring``, above every layer) hands down
FLOORS = {"errors": 0, "numerals": 0, "messages": 0, "display": 0, "assets": 0, "parts": 0,
          "dice": 1, "state": 2, "rules": 3, "resolve": 4, "render": 5}
TOP = 6
FRONT_ENDS = ("IPython", "ipywidgets", "anywidget", "traitlets")

#: cycles still to be taken apart (each a sorted tuple of modules); the list may only shrink
KNOWN_CYCLES: set[tuple[str, ...]] = set()


@cache
def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import outside ``if TYPE_CHECKING:`` blocks: statements, and ``import_module`` calls of a
    module named in the code (``import_module("rpgkernel.x")``, ``import_module(".x", __name__)``)."""
    found: list[ast.Import | ast.ImportFrom] = []
    todo = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            todo += node.orelse
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        elif (isinstance(node, ast.Call) and ast.unparse(node.func).split(".")[-1] == "import_module"
              and node.args and isinstance(node.args[0], ast.Constant)):
            name = node.args[0].value
            level = len(name) - len(name.lstrip("."))
            found.append(ast.ImportFrom(module=name[level:] or None, names=[ast.alias("*")], level=level) if level
                         else ast.Import(names=[ast.alias(name)]))
        todo += ast.iter_child_nodes(node)
    return found


@cache
def _tree(path: Path) -> ast.Module:
    """A module's syntax tree, read once for all the tests (they only read it)."""
    return ast.parse(path.read_text(encoding="utf-8"))


def _package(name: str, path: Path) -> list[str]:
    """The package a module's relative imports start from, as its parts."""
    return name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]


def _source(here: list[str], node: ast.ImportFrom) -> str:
    """The module an ``from ... import`` statement in package ``here`` reads from."""
    if not node.level:
        return node.module or ""
    return ".".join(here[:len(here) - node.level + 1] + ([node.module] if node.module else []))


@cache
def _graph() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """module -> package modules it imports; module -> other top-level packages it imports (built once: the
    tests only read it)."""
    modules = _modules()
    inside: dict[str, set[str]] = {m: set() for m in modules}
    outside: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        here = _package(name, path)
        for node in _imports(_tree(path)):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif node.level:
                base = _source(here, node)
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
            else:
                targets = [node.module or ""]
            for target in targets:
                if not target.startswith("rpgkernel"):
                    outside[name].add(target.split(".")[0])
                    continue
                while target not in modules:
                    target = target.rpartition(".")[0]
                if target != name:
                    inside[name].add(target)
    return inside, outside


def _floor(module: str) -> int:
    parts = module.split(".")
    return TOP + 1 if len(parts) == 1 else FLOORS.get(parts[1], TOP)


def _cycles(graph: dict[str, set[str]]) -> set[tuple[str, ...]]:
    """The strongly connected parts of more than one module (Tarjan, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = set()
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, todo = work[-1]
            nxt = next(todo, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    part.append(member)
                    if member == node:
                        break
                if len(part) > 1:
                    found.add(tuple(sorted(part)))
    return found


def test_no_module_imports_a_higher_floor():
    inside, _ = _graph()
    upward = sorted((a, b) for a, targets in inside.items() for b in targets if _floor(b) > _floor(a))
    assert upward == []


def test_the_import_cycles_are_only_those_still_to_be_taken_apart():
    inside, _ = _graph()
    assert _cycles(inside) == KNOWN_CYCLES


def test_the_graph_sees_what_it_must():
    """The reader is itself checked: a known arrow, a function-level import, a cycle it is shown."""
    inside, outside = _graph()
    assert "rpgkernel.state.opening" in inside["rpgkernel.state.campaign"]
    assert "rpgkernel.rules.wording" in inside["rpgkernel.render.resolution"]
    assert "rpgkernel.dice.roll" in inside["rpgkernel.state.views"]          # imported inside a function
    assert "rpgkernel.state.campaign" not in inside["rpgkernel.state.views"]  # only under TYPE_CHECKING
    assert "IPython" in outside["rpgkernel.magics"]
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == {("a", "b", "c")}
    assert _floor("rpgkernel.dice.roll") < _floor("rpgkernel.state.campaign") < _floor("rpgkernel.render.base")


def test_the_parts_are_composed_in_one_place_at_the_top():
    """The lower layers read what they use from above in ``parts``, which imports nothing of the package;
    ``wiring`` hands the parts down and is imported by the package's ``__init__`` alone."""
    inside, _ = _graph()
    assert inside["rpgkernel.parts"] == set()
    assert {m for m, targets in inside.items() if "rpgkernel.wiring" in targets} == {"rpgkernel"}
    assert _floor("rpgkernel.wiring") == TOP
    assert {"rpgkernel.session", "rpgkernel.rules.registry", "rpgkernel.forecast", "rpgkernel.render"} <= inside[
        "rpgkernel.wiring"]


def test_the_state_without_the_extension_gets_its_parts(tmp_path):
    """A script that opens a campaign gets the composition by importing the package (no extension)."""
    loaded = _loaded_after("from rpgkernel.state import Campaign\n"
                           f"with Campaign.open({str(tmp_path / 'k.sqlite')!r}) as c:\n"
                           "    print('tp-' + str(c.add_character('Ritter', resources={'TP': 3}).resources['TP']['value']))")
    assert {"rpgkernel.rules.frei", "tp-3"} <= loaded


def test_the_registry_imports_no_engine_until_asked():
    """The free mode too is loaded by its target when ``get(None)`` first asks for it."""
    loaded = _loaded_after("import rpgkernel.rules")
    assert not {m for m in loaded if m.startswith(("rpgkernel.rules.frei", "rpgkernel.rules.osr"))}
    assert "rpgkernel.rules.frei" in _loaded_after("import rpgkernel.rules; rpgkernel.rules.get(None)")


def test_no_part_imports_a_private_name_of_another():
    """A part uses another through its public names (``forecast.fight`` the verbs of ``resolve.run``)."""
    found = []
    for name, path in _modules().items():
        for node in _imports(_tree(path)):
            if not isinstance(node, ast.ImportFrom):
                continue
            source = _source(_package(name, path), node)
            private = [a.name for a in node.names if a.name.startswith("_") and not a.name.startswith("__")]
            if private and source.startswith("rpgkernel.") and source.split(".")[:2] != name.split(".")[:2]:
                found.append((name, source, private))
    assert found == []


def test_a_ruleset_is_reached_through_the_registry_alone():
    """Outside ``rules`` no module imports an engine (a ruleset's package); it asks ``rules.get(key)``."""
    inside, _ = _graph()
    engines = {m for m in inside if m.count(".") == 2 and m.startswith("rpgkernel.rules.")
               and _modules()[m].name == "__init__.py"}
    assert {"rpgkernel.rules.kampfwerte", "rpgkernel.rules.frei"} <= engines
    reached = sorted((m, t) for m, targets in inside.items() if not m.startswith("rpgkernel.rules")
                     for t in targets if t.rpartition(".")[0] in engines or t in engines)
    assert reached == []


def test_display_imports_no_part_of_the_package():
    """``wiring`` hands ``display`` its renderer, so no import circle runs from the values through it."""
    inside, _ = _graph()
    assert inside["rpgkernel.display"] == set()
    assert "rpgkernel.display" in inside["rpgkernel.wiring"]


def test_engines_and_values_import_no_front_end():
    _, outside = _graph()
    for module, packages in outside.items():
        if _floor(module) < TOP:
            assert not packages & set(FRONT_ENDS), (module, packages)


def _loaded_after(code: str) -> set[str]:
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-c", f"{code}\nimport sys; print(' '.join(sys.modules))"],
                         capture_output=True, text=True, check=True)
    return set(out.stdout.split())


def test_the_package_and_the_extension_load_no_engine():
    """``import rpgkernel`` and ``%load_ext rpgkernel`` load the engines when first used, not before."""
    loaded = _loaded_after("import rpgkernel")
    assert not {"numpy", "sqlite3", "rpgkernel.dice", "rpgkernel.state", "rpgkernel.rules"} & loaded
    loaded = _loaded_after("from IPython.core.interactiveshell import InteractiveShell\n"
                           "InteractiveShell.instance().run_line_magic('load_ext', 'rpgkernel')")
    assert "rpgkernel.extension" in loaded
    assert not {"rpgkernel.magics", "rpgkernel.dice", "rpgkernel.state", "rpgkernel.render"} & loaded   # IPython itself loads sqlite3


def test_the_dice_import_nothing_of_the_store():
    loaded = _loaded_after("import rpgkernel.dice; rpgkernel.dice.roll('3W6')")
    assert "rpgkernel.dice.roll" in loaded and "rpgkernel.session" in loaded   # the default stream
    assert not {"sqlite3", "rpgkernel.state", "rpgkernel.rules", "rpgkernel.render"} & loaded


def test_a_subpackage_is_reached_as_an_attribute_when_first_used():
    """``rpgkernel.session.current()`` in a notebook, with nothing imported before."""
    loaded = _loaded_after("import rpgkernel; rpgkernel.session.current(); rpgkernel.rules.get('osr')\n"
                           "try:\n    rpgkernel.nichts\nexcept AttributeError:\n    print('rpgkernel.nichts-fehlt')")
    assert {"rpgkernel.session", "rpgkernel.rules.osr", "rpgkernel.nichts-fehlt"} <= loaded
