"""Shared checks of a ruleset's German doc page against its %%resolve verbs."""

import re

from rpgkernel.resolve.language import parse


def assert_verb_documented(verb, text: str, examples: list[str], spellings: dict[str, str]) -> None:
    """``verb`` has a section with its aliases, every option is named, and an example line uses it."""
    heading = re.search(rf"^### `{re.escape(verb.name)}`(.*)$", text, re.M)
    assert heading, f"kein Abschnitt für {verb.name}"
    for alias in verb.aliases:
        assert f"`{alias}`" in heading.group(1)
    for option in verb.options:
        assert f"`{option}" in text, f"Option {option} von {verb.name} fehlt"
    used = {spellings[parse(line)[0].verb.text.lower()] for line in examples}
    assert verb.name in used, f"keine Beispielzeile für {verb.name}"
