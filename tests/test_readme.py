"""The README's examples show what the code really prints."""

import doctest
import re
from pathlib import Path

from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def test_python_examples():
    blocks = re.findall(r"```python\n(.*?)```", README, re.S)
    examples = [b for b in blocks if ">>>" in b]
    assert examples
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    for i, block in enumerate(examples):
        runner.run(parser.get_doctest(block, {}, f"README[{i}]", "README.md", 0))
    assert runner.failures == 0 and runner.tries > 0


def test_magic_example():
    magic, shown = re.search(r"```\n(%load_ext rpgkernel\n.*?)```\n\n```\n(.*?)\n```", README, re.S).groups()
    shell = InteractiveShell.instance()
    lines = magic.strip().splitlines()
    with capture_output():
        for line in lines[:-1]:
            shell.run_cell(line)
    name, _, arg = lines[-1][1:].partition(" ")
    assert str(shell.run_line_magic(name, arg)) == shown


def test_binder_badge_and_launch_link_open_the_start_page():
    from rpgkernel.sharing import Binder

    root = Path(__file__).resolve().parent.parent
    repository = re.search(r'^Repository = "([^"]+)"', (root / "pyproject.toml").read_text(), re.M)[1]
    expected = Binder.parse(repository).link("example_notebooks/00_Start.ipynb")
    badge = re.search(r"\[!\[Binder\]\(https://mybinder\.org/badge_logo\.svg\)\]\(([^)]+)\)", README)
    assert badge and badge[1] == expected
    assert f"<{expected}>" in README  # the launch link spelled out
    assert (root / "example_notebooks" / "00_Start.ipynb").is_file()
