"""Mythic Bastionland's texts: the catalogue in locale/ (messages.pot), registered when the ruleset is imported."""

from pathlib import Path

from ...messages import register_catalogue

register_catalogue(Path(__file__).with_name("locale"))
