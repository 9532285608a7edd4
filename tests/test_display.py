"""Values show themselves through forms the renderer registers (``rpgkernel.display``): no value
module imports the renderer, every shown type has its forms, and ``import rpgkernel`` alone gives
rich output, loading the renderer only when the first value is shown."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import rpgkernel
from rpgkernel import display

PACKAGE = Path(rpgkernel.__file__).parent
#: the layers whose values show themselves
VALUES = ("dice", "rules", "state", "resolve", "statblocks.py")


def _shown_types() -> list[type]:
    for info in pkgutil.walk_packages([str(PACKAGE)], "rpgkernel."):
        if not info.name.startswith(("rpgkernel.magics", "rpgkernel.widgets", "rpgkernel.server")):
            importlib.import_module(info.name)
    found, todo = [], [display.Shown]
    while todo:
        for sub in todo.pop().__subclasses__():
            found.append(sub)
            todo.append(sub)
    return found


def test_every_shown_type_has_its_forms():
    types = _shown_types()
    assert len(types) >= 9, types
    for cls in types:
        assert display.forms_for(cls) is not None, cls


def test_no_value_imports_the_renderer_to_show_itself():
    for part in VALUES:
        for path in ([PACKAGE / part] if part.endswith(".py") else (PACKAGE / part).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.FunctionDef) and node.name.startswith(("_repr_", "__repr__", "__str__")):
                    imports = [n for n in ast.walk(node) if isinstance(n, ast.ImportFrom)]
                    assert not imports, (path, node.name)


def test_import_rpgkernel_alone_shows_rich_output_and_loads_the_renderer_when_needed():
    code = ("import sys, rpgkernel\n"
            "before = 'rpgkernel.render' in sys.modules\n"
            "bundle = rpgkernel.roll('4W6kh3', dice=[5, 3, 6, 5])._repr_mimebundle_()\n"
            "print(before, 'rpgkernel.render' in sys.modules, bundle['text/plain'], 'rpgk-' in bundle['text/html'])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True", "4W6kh3", "=", "[5,", "(3),", "6,", "5]", "=", "16", "·", "P(≥",
                           "16)", "=", "13,04", "%", "True"], out


def test_a_type_without_forms_shows_as_any_object():
    class Plain(display.Shown):
        pass
    value = Plain()
    assert repr(value).startswith("<") and value._repr_mimebundle_() is None and value._repr_html_() is None
