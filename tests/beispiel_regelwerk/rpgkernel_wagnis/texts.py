"""Wagnis's texts: the catalogue in locale/ (messages.pot), registered when the package is imported."""

from pathlib import Path

from rpgkernel.messages import register_catalogue

register_catalogue(Path(__file__).with_name("locale"))
