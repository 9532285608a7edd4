"""The ruleset kit (rpgkernel.rules.kit): figure views, GM settings, the one error base and data reader."""

from __future__ import annotations

import functools
import importlib
from pathlib import Path

import pytest

from rpgkernel import Campaign, rules
from rpgkernel.dice import Roller
from rpgkernel.rules import adz, bastionland, kampfwerte, kit, midgard, osr
from rpgkernel.rules.figure import view

RECORD = {"name": "Ritter", "ruleset": "osr", "side": "Hof", "sheet": {"rk": 4, "tp": 8, "stufe": None},
          "resources": {"TP": {"value": 5, "max": 8}}, "conditions": {"liegend": {"remaining": 2}}}


def test_a_figure_view_reads_the_record_through_accessors_and_cannot_change_it():
    fig = view(RECORD)
    assert (fig.name, fig.ruleset, fig.side) == ("Ritter", "osr", "Hof")
    assert fig.value("rk") == 4 and fig.value("stufe", 1) == 1 and fig.value("fehlt") == 0
    assert fig.resource("TP") == kit.Resource(5, 8) and fig.current("TP") == 5 and fig.current("GD", -1) == -1
    assert fig.has("liegend") and not fig.has("tot")
    assert view(fig) is fig and fig.sheet["tp"] == 8
    with pytest.raises(TypeError):
        fig.sheet["rk"] = 9          # type: ignore[index]
    with pytest.raises(TypeError):
        fig["name"]                   # type: ignore[index]  # the record's layout is not the API
    charging = fig.with_condition("stürmt")
    assert charging.has("stürmt") and charging.has("liegend") and not fig.has("stürmt")
    assert view({"name": "Leer"}).resources == {} and not view({"name": "Leer"}).sheet


def test_a_request_hands_procedures_views_and_the_rulesets_settings():
    req = kit.Request([RECORD], [], {}, None, data={"osr": {"ueberrascht_bis": 5}}, kept=osr.EINSTELLUNGEN)
    assert isinstance(req.actors[0], kit.Figure) and req.actors[0].name == "Ritter"
    assert req.settings.ueberrascht_bis == 5 and req.settings is osr.EINSTELLUNGEN.of(req.data)
    with pytest.raises(TypeError):
        _ = kit.Request([], [], {}, None).settings


def _built(kept):
    if set(kept) - {"stufe"} or not isinstance(kept.get("stufe", 1), int):
        raise kit.RulesError(f"schlecht: {sorted(kept)}")
    return {"stufe": kept.get("stufe", 1), "built": object()}


def test_settings_are_checked_once_per_data_and_kept_only_when_all_of_it_fits(tmp_path):
    settings = kit.Settings("probe", _built)
    assert settings.defaults()["stufe"] == 1
    first = settings.of({"probe": {"stufe": 3}})
    assert first["stufe"] == 3 and settings.of({"probe": {"stufe": 3}}) is first   # built once
    camp = Campaign.open(tmp_path / "k.sqlite")
    try:
        camp.new_encounter("Höhle")
        camp.new_encounter("Gasse")
        settings.keep({"stufe": 2}, camp)
        settings.keep({"stufe": 4}, camp, "Höhle")
        with pytest.raises(kit.RulesError):
            settings.keep({"stufe": "hoch"}, camp)
        assert camp.data("probe", encounter="Gasse") == {"stufe": 2}       # nothing kept from the bad call
        assert settings.kept_in(camp, "Höhle")["stufe"] == 4               # the encounter's over the campaign's
        assert settings.kept_in(camp, "Gasse")["stufe"] == 2               # the campaign's
        settings.keep(None, camp)
        assert camp.data("probe", encounter="Gasse") is None
        assert settings.kept_in(camp, "Gasse")["stufe"] == 1               # back to the defaults
        assert settings.kept_in(camp, "Höhle")["stufe"] == 4
    finally:
        camp.close()


def test_the_one_reader_of_data_files_names_the_file_and_the_reason(tmp_path):
    class ProbeError(kit.RulesError):
        pass

    good = tmp_path / "gut.yaml"
    good.write_text("a: [1, 2]\n", encoding="utf-8")
    assert kit.read_yaml(good) == {"a": [1, 2]}
    bad = tmp_path / "kaputt.yaml"
    bad.write_text("a: [1, 2\n", encoding="utf-8")
    with pytest.raises(ProbeError, match=r"kaputt.yaml lässt sich nicht lesen: .+"):
        kit.read_yaml(bad, ProbeError)
    with pytest.raises(kit.RulesError, match="fehlt.yaml lässt sich nicht lesen"):
        kit.read_yaml(tmp_path / "fehlt.yaml")
    with pytest.raises(osr.OsrError, match="Die Angriffsmatrix .*kaputt.yaml ist unvollständig"):
        kit.read_yaml(bad, osr.OsrError, "osr.bad_matrix")
    assert kit.as_json({1: [{2: "a"}], "b": None}) == {"1": [{"2": "a"}], "b": None}   # as a campaign keeps it


def test_the_rulesets_on_the_kit_share_its_error_base_and_settings():
    for engine, error in ((osr.Osr, osr.OsrError), (midgard.Midgard, midgard.MidgardError),
                          (bastionland.Bastionland, bastionland.BastionlandError), (adz.AdZ, adz.AdzError),
                          (kampfwerte.Kampfwerte, kampfwerte.KampfwerteError)):
        assert issubclass(error, kit.RulesError)
        assert isinstance(engine.settings, kit.Settings) and engine.settings.defaults() is engine.settings.of({})


class Gaben(kit.Ruleset):
    """A toy ruleset whose GM settings name extra sheet fields (gifts) and the LP per Stärke."""

    key = "gaben"
    settings = kit.Settings("gaben", lambda kept: (tuple(kept.get("gaben", ())), kept.get("lp_je", 1)))
    sheet = kit.Sheet({"stärke": kit.Field("int", "Stärke", 1, 20, required=True)})

    def sheet_for(self, data):
        gaben, _ = self.settings.of(data)
        return kit.Sheet({**self.sheet.fields, **{g: kit.Field("int", g, 0, 5) for g in gaben}})

    def resources_for(self, sheet, data):
        lp = sheet["stärke"] * self.settings.of(data)[1]
        return {"LP": {"value": lp, "max": lp}}


def test_a_sheet_and_its_resources_follow_the_gm_data_its_encounter_sees(tmp_path, add_ruleset):
    from rpgkernel import statblocks
    from rpgkernel.rules.sheet import SheetError

    add_ruleset(Gaben)
    camp = Campaign.open(tmp_path / "g.sqlite")
    try:
        camp.set_ruleset("gaben")
        camp.add_character("Ritter", {"stärke": 4})
        traum = camp.new_encounter("Traum", activate=False)
        Gaben.settings.keep({"gaben": ["Flug"], "lp_je": 3}, camp, "Traum")
        traum.add("Geist", sheet={"stärke": 2, "Flug": 3})                     # the encounter's data
        assert camp.figure("Geist", "Traum").resources["LP"] == {"value": 6, "max": 6}
        camp.set_sheet("Geist", {"stärke": 3, "Flug": 1}, "Traum")
        assert camp.figure("Geist", "Traum").resources["LP"] == {"value": 9, "max": 9}
        statblocks.load(camp, "- name: Schatten\n  werte: {stärke: 1, Flug: 5}\n", encounter="Traum")
        with pytest.raises(SheetError, match="Flug"):                        # the campaign's: no gifts
            camp.set_sheet("Ritter", {"stärke": 4, "Flug": 1})
        with pytest.raises(statblocks.StatBlockError, match="Flug"):
            statblocks.load(camp, "figuren:\n  - name: Knappe\n    werte: {stärke: 1, Flug: 1}\n")
    finally:
        camp.close()


class Zaeh(kit.Ruleset):
    """A toy ruleset that fills the table's slots: out of the fight at 0 LP, "angeschlagen" below half."""

    key = "zaeh"

    def out_of_fight(self, figure):
        return "kampfunfähig" if figure.current("LP", 1) <= 0 else None

    def player_state(self, figure):
        lp = figure.resource("LP")
        return None if lp is None else "angeschlagen" if 2 * lp.value < lp.max else "unversehrt"


def test_the_slots_the_table_reads_answer_per_figure_and_default_to_nothing():
    fallen, hurt = view({"name": "A", "resources": {"LP": {"value": 0, "max": 6}}}), \
        view({"name": "B", "resources": {"LP": {"value": 2, "max": 6}}})
    assert [Zaeh().out_of_fight(f) for f in (fallen, hurt)] == ["kampfunfähig", None]
    assert [Zaeh().player_state(f) for f in (fallen, hurt)] == ["angeschlagen", "angeschlagen"]
    assert kit.Ruleset().player_state(hurt) is None                     # the default: nothing
    for engine in (osr.Osr, midgard.Midgard, bastionland.Bastionland, adz.AdZ, kampfwerte.Kampfwerte):
        assert engine.out_of_fight is not kit.Ruleset.out_of_fight      # each fills both from its seed
        assert engine.player_state is not kit.Ruleset.player_state


def test_the_slots_of_the_order_default_to_a_roll_alone_and_allow_everything():
    engine = kit.Ruleset()
    a, b, c, d = (view({"name": n}) for n in "ABCD")
    value, rolled, note = engine.initiative.join("A", {"A": a, "B": b}, {"B": 12}, Roller(dice=[7]))
    assert (value, rolled["A"]["total"], note) == (7, 7, None)           # W20 alone
    assert engine.initiative.refusal("vor", a, [b], {"A": 3, "B": 12}) is None
    assert engine.initiative.delay_after(a, [b]) is None
    assert kit.higher_initiative(a, [b, c, d], {"A": 5, "B": 9, "C": 5}) == (["B"], ["C"])
    assert kit.higher_initiative(a, [b], {"B": 9}) == ([], [])              # no value: nothing to compare


class Spaeher(kit.Ruleset):
    """A toy ruleset whose order notes what each part of its initiative is handed."""

    key = "spaeher"
    handed: list[str] = []

    class Order(kit.Initiative):
        def _note(self, *figures):
            Spaeher.handed.extend(type(f).__name__ for f in figures)

        def expression(self, combatant):
            self._note(combatant)
            return "W6"

        def order(self, combatants, rolls, roller=None):
            self._note(*combatants.values())
            return super().order(combatants, rolls, roller)

        def refusal(self, change, figure, overtaken, rolls):
            self._note(figure, *overtaken)
            return None

        def delay_after(self, figure, still_to_act):
            self._note(figure, *still_to_act)
            return None

    initiative = Order()


def test_the_campaign_hands_the_order_views_not_its_records(tmp_path, add_ruleset):
    """Every part of ``Initiative`` reads the kit's views: the campaign turns its records into views once,
    so a ruleset passes them on to its rule as they come."""
    add_ruleset(Spaeher)
    camp = Campaign.open(tmp_path / "s.sqlite")
    try:
        camp.set_ruleset("spaeher")
        enc = camp.new_encounter("Hof")
        enc.add("A")
        enc.add("B")
        enc.add("C")
        enc.start(dice=[3, 2, 1])
        enc.add("D", initiative=2)          # joins: placed by the order of pairs
        enc.move("C", before="A")           # refused or not: the rule reads views
        enc.delay("B")
    finally:
        camp.close()
    assert Spaeher.handed and set(Spaeher.handed) == {"Figure"}


def test_the_rulesets_orders_pass_views_on_without_making_them():
    """No ruleset's ``Initiative`` makes views of its own (``view``): the kit hands them over."""
    import inspect
    for key in ("adz", "bastionland", "kampfwerte", "midgard", "osr"):
        source = inspect.getsource(type(rules.get(key).initiative))
        assert "view(" not in source, key


@pytest.mark.parametrize("key", ["adz", "bastionland", "kampfwerte", "midgard", "osr"])
def test_every_built_in_engine_is_built_in_the_kits_layout(key):
    """The class in __init__.py, the verbs (each procedure and preview a named function) in verbs.py,
    the GM settings in settings.py, the sheet in sheet.py, the catalogue registered in texts.py."""
    package = Path(rules.__file__).parent / key
    assert {"__init__.py", "verbs.py", "settings.py", "sheet.py", "texts.py"} <= {p.name for p in package.glob("*.py")}
    module, engine = importlib.import_module(f"rpgkernel.rules.{key}"), rules.get(key)
    assert type(engine).__module__ == module.__name__ and set(module.__all__) <= set(dir(module))
    assert engine.verbs is importlib.import_module(f"{module.__name__}.verbs").VERBS
    assert engine.settings is importlib.import_module(f"{module.__name__}.settings").EINSTELLUNGEN
    for verb in engine.verbs.values():
        for function in (verb.procedure, verb.preview):
            if function is not None:
                assert function.__module__ == f"{module.__name__}.verbs" and function.__name__ != "<lambda>", verb.name
        assert verb.preview is None or verb.preview.__name__.endswith("_vorschau"), verb.name
        assert (verb.procedure is None) == (verb.choice is not None), verb.name


#: the kit's own modules: a ruleset reaches each of them through ``rpgkernel.rules.kit`` alone
KIT_MODULES = {"advice", "base", "compact", "errors", "figure", "forecast_data", "limits", "player_words",
               "registry", "resolution", "settings", "sheet", "tactics", "wording"}


def _kit_imports_past_the_kit(package: Path) -> list[str]:
    """Each import of ``package``'s modules that names a kit module other than ``rpgkernel.rules.kit``."""
    import ast
    found = []
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                parts = (node.module or "").split(".")
                module = parts[0] if node.level == 2 else parts[2] if parts[:2] == ["rpgkernel", "rules"] and \
                    len(parts) > 2 else None
                if module in KIT_MODULES:
                    found.append(f"{path.name}:{node.lineno} {module}")
    return found


def test_the_built_in_rulesets_import_the_kit_as_an_outside_package_does():
    """Every built-in engine reaches the kit through ``rpgkernel.rules.kit`` (the compact model too), as the
    worked example does; the reader itself sees an import past it."""
    rules_dir = Path(rules.__file__).parent
    for key in ("adz", "bastionland", "frei", "kampfwerte", "midgard", "osr"):
        assert _kit_imports_past_the_kit(rules_dir / key) == [], key
    example = Path(__file__).resolve().parents[1] / "beispiel_regelwerk"
    assert _kit_imports_past_the_kit(example) == []
    assert kit.Compact is importlib.import_module("rpgkernel.rules.compact").Compact
    assert kit.ruleset("osr") is rules.get("osr")


def test_the_kit_reader_sees_an_import_past_the_kit(tmp_path):
    (tmp_path / "a.py").write_text("from ..figure import view\nfrom rpgkernel.rules.kit import Figure\n"
                                   "from rpgkernel.rules.sheet import Sheet\n", encoding="utf-8")
    assert _kit_imports_past_the_kit(tmp_path) == ["a.py:1 figure", "a.py:3 sheet"]


def test_the_order_of_a_fight_is_one_slot_of_the_ruleset():
    """Initiative is one object (``Ruleset.initiative``): rolled or not, each round, segments, the
    order, joining, refusing and delaying; the ruleset itself keeps no initiative slot of its own."""
    assert not [name for name in vars(kit.Ruleset) if "initiative" in name and name != "initiative"]
    assert not hasattr(kit.Ruleset, "segments") and not hasattr(kit.Ruleset, "order_refusal")
    found = {key: rules.get(key).initiative for key in ("adz", "bastionland", "kampfwerte", "midgard", "osr")}
    assert all(isinstance(i, kit.Initiative) for i in found.values())
    assert {k for k, i in found.items() if i.each_round} == {"midgard", "osr"}
    assert {k for k, i in found.items() if not i.rolled} == {"bastionland"}
    assert {k: i.segments for k, i in found.items() if i.segments} == {"osr": 10}
    assert found["bastionland"].expression(view({"name": "Ritter"})) is None


def _imported_past_the_surface(root: Path, key: str, surface: set[str], modules: set[str]) -> list[str]:
    """``from rpgkernel.rules.<key> import name`` with a name outside ``surface`` (a module is fine), in the
    Python files under ``root``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for module, names in _imports_from(path, path.stat().st_mtime_ns):
            if module == f"rpgkernel.rules.{key}":
                found += [f"{path.name}:{name}" for name in names if name not in surface | modules]
    return found


@functools.lru_cache(maxsize=None)
def _imports_from(path: Path, mtime_ns: int) -> tuple[tuple[str | None, tuple[str, ...]], ...]:
    """Every ``from module import names`` of a Python file, parsed once for all rulesets (by its time of change)."""
    import ast
    return tuple((node.module, tuple(a.name for a in node.names))
                 for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if isinstance(node, ast.ImportFrom))


def test_each_ruleset_shows_a_small_documented_surface(tmp_path):
    """A ruleset package's ``__all__`` is its class and what an outside user calls, each named in its
    docstring; tests and benchmarks import anything else from the module that defines it."""
    root = Path(__file__).resolve().parents[2]
    for key in ("adz", "bastionland", "frei", "kampfwerte", "midgard", "osr"):
        package = importlib.import_module(f"rpgkernel.rules.{key}")
        surface = set(package.__all__)
        assert type(rules.get(None if key == "frei" else key)).__name__ in surface and len(surface) <= 12, key
        assert all(f"``{name}``" in package.__doc__ for name in surface), key
        modules = {p.stem for p in Path(package.__file__).parent.glob("*.py")}
        for part in ("tests", "benchmarks", "rpgkernel"):
            assert _imported_past_the_surface(root / part, key, surface, modules) == [], (key, part)
    (tmp_path / "t.py").write_text("from rpgkernel.rules.osr import Osr, angriff, verbs\n", encoding="utf-8")
    assert _imported_past_the_surface(tmp_path, "osr", {"Osr"}, {"verbs"}) == ["t.py:angriff"]


def test_einrichten_is_one_slot_with_one_signature(tmp_path):
    """Every ruleset sets up the GM's settings through the kit's one ``Ruleset.einrichten``: the data as the
    campaign keeps them, checked by the ruleset's settings, kept only when all of it fits."""
    import inspect
    from rpgkernel.errors import RpgError
    from rpgkernel.rules import frei
    engines = [rules.get(key) for key in (None, "adz", "bastionland", "kampfwerte", "midgard", "osr")]
    assert all(type(e).einrichten is kit.Ruleset.einrichten for e in engines)
    assert list(inspect.signature(kit.Ruleset.einrichten).parameters) == ["self", "daten", "kampagne", "begegnung"]
    camp = Campaign.open(tmp_path / "e.sqlite")
    try:
        kept = rules.get(None).einrichten({"ressource": "LP"}, kampagne=camp)
        assert kept == frei.einrichten("LP") and camp.data("frei") == {"ressource": "LP"}
        osr = rules.get("osr")
        with pytest.raises(RpgError):
            osr.einrichten({"ueberrascht_bis": "viele"}, kampagne=camp)
        assert camp.data("osr") is None                                   # nothing kept of bad data
        osr.einrichten({"ueberrascht_bis": 3}, kampagne=camp, begegnung=None)
        assert osr.settings.kept_in(camp).ueberrascht_bis == 3
        assert osr.einrichten(None, kampagne=camp) == osr.settings.defaults() and camp.data("osr") is None
    finally:
        camp.close()
    assert Zaeh().einrichten(None) is None                                  # no settings: nothing to set up
    with pytest.raises(kit.RulesError, match="keine Einstellungen"):
        Zaeh().einrichten({"x": 1})
