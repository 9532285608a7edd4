"""A sheet field's short label and its hint (an example, the format) apart, in every ruleset and in the
example ruleset package (tests/beispiel_regelwerk): the label alone on the GM's sheet and the player's
card, the hint under the editor and in the error messages about the field."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Iterator

import pytest
from babel.messages.pofile import read_po

from rpgkernel import messages, rules
from rpgkernel.rules.sheet import Field, Sheet, SheetError

PACKAGE = Path(rules.__file__).parent
EXAMPLE = Path(__file__).resolve().parents[1] / "beispiel_regelwerk"
CATALOGUES = {**{key: PACKAGE / key / "locale" for key in rules.rulesets()},
              "wagnis": EXAMPLE / "rpgkernel_wagnis" / "locale"}


def _fields(key: str) -> dict[str, str]:
    """The catalogue's field texts: key -> German, labels (``<ruleset>.field_x``) and hints (``…_hint``)."""
    with open(CATALOGUES[key] / "messages.pot", "rb") as f:
        return {m.context: m.id for m in read_po(f, locale="de")
                if m.id and (".field_" in m.context or ".feld_" in m.context)}


@pytest.fixture(scope="module")
def wagnis() -> Iterator[Sheet]:
    """The example package's sheet; its catalogue and modules gone again afterwards."""
    saved = dict(messages._catalogues)
    sys.path.insert(0, str(EXAMPLE))
    try:
        yield importlib.import_module("rpgkernel_wagnis.sheet").BOGEN
    finally:
        sys.path.remove(str(EXAMPLE))
        for name in [m for m in sys.modules if m.split(".")[0] == "rpgkernel_wagnis"]:
            del sys.modules[name]
        messages._catalogues.clear()
        messages._catalogues.update(saved)
        messages.set_language("de")


def _sheet(key: str, wagnis: Sheet) -> Sheet:
    return wagnis if key == "wagnis" else rules.get(key).sheet


@pytest.mark.parametrize("key", sorted(CATALOGUES))
def test_no_label_carries_an_example_and_every_hint_is_on_its_field(key, wagnis):
    sheet, texts = _sheet(key, wagnis), _fields(key)
    hints = {k: v for k, v in texts.items() if k.endswith("_hint")}
    assert hints, key                                                  # every ruleset has some
    for name, spec in sheet.fields.items():
        assert "z. B." not in spec.label and "z. B." not in sheet.label(name), (key, name)
        assert not spec.label.endswith((",", " ")) and spec.label == spec.label.strip(), (key, name)
    # each hint of the catalogue is shown by the field whose label it belongs to, and no field has another
    shown = {(spec.label, spec.hint) for spec in sheet.fields.values() if spec.hint}
    expected = {(texts[k.removesuffix("_hint")], v) for k, v in hints.items()}
    assert shown == expected


def test_the_examples_that_were_in_the_labels_are_hints_now(wagnis):
    """A sample per ruleset: the label as a card shows it, the example kept beside it."""
    def field(key: str, name: str) -> tuple[str, str]:
        spec = _sheet(key, wagnis).fields[name]
        return spec.label, spec.hint

    assert field("bastionland", "waffen") == ("Waffen und Schild", "z. B. 'Streitkolben (W8, wuchtig)'")
    assert field("bastionland", "spielfigur") == ("Spielfigur", "kein wankender Kampfeswille")
    assert field("midgard", "rasse") == ("Rasse", "aus der Rassenliste, z. B. Halbling; Mensch")
    assert field("osr", "angriffsstufe") == ("Besondere Angriffsstufe", "z. B. Blutmücken: 5")
    assert field("kampfwerte", "manoever") == ("Manöver", "mit Stufe, z. B. 'Finte 3'")
    assert field("adz", "fertigkeiten") == ("Fertigkeiten", "z. B. 'Schwerter 6', 'Verteidigung 5' (bis 10)")
    assert field("wagnis", "mut") == ("Mut", "wird zu jedem Wurf addiert")
    assert field("bastionland", "vig") == ("Vigour", "")                # a label needing no hint has none


def test_an_error_about_a_field_quotes_its_hint():
    sheet = rules.get("bastionland").sheet
    with pytest.raises(SheetError) as err:
        sheet.validate({"vig": 10, "cla": 10, "spi": 10, "gd": 3, "waffen": "Streitkolben"})
    assert "Feld 'waffen' (Waffen und Schild; z. B. 'Streitkolben (W8, wuchtig)'): erlaubt ist" in str(err.value)
    with pytest.raises(SheetError, match=r"^Das Feld 'tp' \(Trefferpunkte \(Maximum\)\) fehlt"):
        rules.get("osr").sheet.validate({"rk": 4})
    with pytest.raises(SheetError, match=r"^Das Feld 'rk' \(Rüstungsklasse; absteigend: 10 ungerüstet\) fehlt"):
        rules.get("osr").sheet.validate({"tp": 4})
    assert Field("int", "Stärke").described() == "Stärke"
    assert Field("int", "Stärke", hint="z. B. 12").described() == "Stärke; z. B. 12"
