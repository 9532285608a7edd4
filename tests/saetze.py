"""Shared checks of a card's sentence (``Resolution.summary``) for the rulesets' verb tests."""

import html
from dataclasses import replace

from rpgkernel.render import resolution_html, resolution_text
from rpgkernel.rules.wording import outcome_text


def each(out):
    """The resolutions a ``%%resolve`` cell returned."""
    return list(out) if isinstance(out, list) else [out]


def assert_said(res) -> str:
    """``res`` says its outcome as one German sentence naming who acted (and on whom), not as data;
    the card (text and HTML) shows it above the steps. Returns the sentence."""
    said = res.summary
    assert said, f"{res.action}: die Karte sagt ihr Ergebnis nicht als Satz"
    assert said[0].isupper() and said.endswith("."), said
    assert "_" not in said and "·" not in said, said
    for name in res.actors:
        assert name in said, f"{name} fehlt in {said!r}"
    if res.targets:
        assert any(name in said for name in res.targets), f"kein Ziel in {said!r}"
    for key, value in res.outcome.items():
        dumped = outcome_text(replace(res, outcome={key: value}))
        assert dumped not in said, f"{dumped!r} in {said!r}"
    assert resolution_text(res).splitlines()[1] == "  " + said
    assert f'<div class="rpgk-total">{html.escape(said)}</div>' in resolution_html(res)
    return said
