"""A ruleset's German doc page against its %%resolve verbs: the one helper of the rulesets' doc tests."""

from __future__ import annotations

import re

from doc_blocks import Page, page

from rpgkernel.resolve.language import parse
from rpgkernel.resolve.run import PASS


class VerbDoc:
    """docs/``name`` for the verbs ``verbs`` (name -> Verb): the page's text, its example lines (the
    lines of its ``text`` blocks, ``#`` lines too unless ``comments`` is False) and every spelling
    %%resolve accepts (``verzicht``/``pass`` too where the ruleset ``declines``)."""

    def __init__(self, name: str, verbs: dict, *, declines: bool = False, comments: bool = True) -> None:
        self.name = name
        self.page: Page = page(name)
        self.text = self.page.text
        self.blocks = self.page.take("text")
        self.examples = self.page.examples(comments=comments)
        self.verbs = verbs
        self.spellings = {n.lower(): v.name for v in verbs.values() for n in (v.name, *v.aliases)}
        if declines:
            self.spellings |= {PASS: PASS, "pass": PASS}

    def example(self, line: str) -> str:
        """``line`` as it stands in the doc (so the doc cannot drift from what is tested)."""
        assert line in self.examples, f"{line!r} steht nicht als Beispielzeile in docs/{self.name}"
        return line

    def assert_documented(self, name: str) -> None:
        """The verb ``name`` has a section with its aliases, every option is named, an example line uses it."""
        verb = self.verbs[name]
        heading = re.search(rf"^### `{re.escape(verb.name)}`(.*)$", self.text, re.M)
        assert heading, f"kein Abschnitt für {verb.name}"
        for alias in verb.aliases:
            assert f"`{alias}`" in heading.group(1), f"Alias {alias} fehlt in der Überschrift von {verb.name}"
        for option in verb.options:
            assert f"`{option}" in self.text, f"Option {option} von {verb.name} fehlt"
        used = {self.spellings[parse(line)[0].verb.text.lower()] for line in self.examples}
        assert verb.name in used, f"keine Beispielzeile für {verb.name}"

    def assert_valid(self, line: str) -> None:
        """The example ``line`` is one command of a known verb, with options and flags that verb knows
        (a value where one is needed)."""
        commands = parse(line)
        assert len(commands) == 1, line
        [cmd] = commands
        spelling = cmd.verb.text.lower()
        assert spelling in self.spellings, f"unbekanntes Verb in {line!r}"
        verb = self.verbs.get(self.spellings[spelling])
        if verb is not None:   # not the built-in verzicht
            for key in cmd.options:
                assert verb.options.get(key) not in (None, "flag"), f"{key} in {line!r}"
            for flag in cmd.flags:
                assert verb.options.get(flag.text) == "flag", f"{flag.text} in {line!r}"
