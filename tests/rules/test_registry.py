"""The ruleset registry: every ruleset is an entry point of the group rpgkernel.rulesets, loaded at
its first use; another package's ruleset plays like a built-in one, a broken or doubled one is
refused in German without harming the others."""

import importlib.metadata
import os
import subprocess
import sys

import pytest
from distributions import write_distribution

import rpgkernel
from rpgkernel import Campaign, RpgError, rules
from rpgkernel.rules.frei import Frei

# A package's module with a toy ruleset: one verb that rolls a die (no game content).
TOY = '''
from rpgkernel.rules import Ruleset
from rpgkernel.rules.kit import Settings, read_yaml
from rpgkernel.rules.resolution import Resolution, Verb


def wurf(req):
    [fig] = req.actors
    r = req.roller.roll("W6")
    res = Resolution("spielzeug", "wurf", (fig.name,))
    res.step(f"{fig.name}: W6 = {r.total}", "Wurf", r, value=r.total)
    res.outcome = {"augen": r.total}
    return res


class Spielzeug(Ruleset):
    key = "spielzeug"
    title = "Spielzeug"
    verbs = {"wurf": Verb("wurf", wurf, "Wurf", actors="one")}


class Anders(Spielzeug):
    key = "anders"


class Kaputt(Spielzeug):
    key = "kaputt"
    settings = Settings("kaputt", lambda kept: read_yaml("fehlt.yaml"))


class Alt(Spielzeug):
    key = "kaputt"

    def resources(self, sheet):
        return {}

    def out_of_fight(self, figure, data=None):
        return None


def keine_klasse():
    return Spielzeug
'''


@pytest.fixture
def install(tmp_path, monkeypatch):
    """install(name, rulesets, modules): a distribution in a folder of its own, put on
    sys.path for this test; the modules it brings are forgotten afterwards."""
    modules = []

    def install(name, rulesets, modules_=None):
        folder = tmp_path / name
        folder.mkdir()
        write_distribution(folder, name, rulesets, modules_)
        modules.extend(modules_ or ())
        monkeypatch.syspath_prepend(str(folder))
        return folder
    yield install
    for module in modules:
        sys.modules.pop(module, None)


def test_the_five_built_in_rulesets_are_rpgkernels_entry_points():
    dist = importlib.metadata.distribution("rpgkernel")
    declared = {p.name: p.value for p in dist.entry_points.select(group=rules.GROUP)}
    assert sorted(declared) == rpgkernel.rulesets() == ["adz", "bastionland", "kampfwerte", "midgard", "osr"]
    for key, target in declared.items():
        engine = rules.get(key)
        assert f"{type(engine).__module__}:{type(engine).__name__}" == target
        assert engine.key == key and engine.title and engine.verbs
        assert rules.source(key) == "rpgkernel"
        assert rules.get(key) is engine  # loaded once


def test_import_rpgkernel_imports_no_engine_and_get_imports_one():
    code = ("import sys, rpgkernel\n"
            "engines = lambda: sorted(m for m in sys.modules if m.count('.') == 2 and m.startswith('rpgkernel.rules.')"
            " and m.rsplit('.', 1)[1] in {'adz', 'bastionland', 'kampfwerte', 'midgard', 'osr'})\n"
            "print(engines(), rpgkernel.rulesets() and engines())\n"
            "rpgkernel.rules.get('osr')\n"
            "print(engines())\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["[] []", "['rpgkernel.rules.osr']"]


def test_get_none_and_an_unknown_key():
    free = rules.get(None)
    assert type(free) is Frei and free.sheet.open and set(free.verbs) == {"schaden", "heilung"}
    with pytest.raises(rules.RulesetError) as info:
        rules.get("midgrad")
    assert isinstance(info.value, KeyError)
    assert str(info.value) == "Unbekanntes Regelwerk 'midgrad'. Bekannt sind: adz, bastionland, kampfwerte, midgard, osr."


def test_a_ruleset_of_another_package_is_listed_and_plays(install, tmp_path):
    install("rpg-spielzeug", {"spielzeug": "spielzeug_regeln:Spielzeug"}, {"spielzeug_regeln": TOY})
    assert "spielzeug_regeln" not in sys.modules  # listed without importing it
    assert rpgkernel.rulesets() == ["adz", "bastionland", "kampfwerte", "midgard", "osr", "spielzeug"]
    assert "spielzeug_regeln" not in sys.modules
    assert rules.get("spielzeug").title == "Spielzeug" and rules.source("spielzeug") == "rpg-spielzeug"
    with Campaign.open(tmp_path / "k.sqlite") as camp:
        camp.set_ruleset("spielzeug")
        camp.add_character("Alrik")
        res = rpgkernel.resolve("wurf Alrik", campaign=camp, dice=[4])
        assert res.outcome == {"augen": 4} and res.ruleset == "spielzeug"
        assert [e.data["action"] for e in camp.journal(kind="auflösung")] == ["wurf"]


def test_rulesets_leave_with_their_folder(tmp_path, monkeypatch):
    folder = write_distribution(tmp_path, "rpg-zeitweilig", {"spielzeug": "spielzeug_regeln:Spielzeug"},
                                {"spielzeug_regeln": TOY})
    with monkeypatch.context() as m:
        m.syspath_prepend(str(folder))
        assert rules.get("spielzeug").key == "spielzeug"
    sys.modules.pop("spielzeug_regeln")
    with pytest.raises(rules.RulesetError):
        rules.get("spielzeug")
    assert "spielzeug" not in rpgkernel.rulesets()


def test_a_package_installed_into_a_folder_on_the_path_is_found(install):
    folder = install("rpg-erst", {"spielzeug": "spielzeug_regeln:Spielzeug"}, {"spielzeug_regeln": TOY})
    assert "anders" not in rpgkernel.rulesets()
    before = os.stat(folder).st_mtime_ns
    write_distribution(folder, "rpg-danach", {"anders": "spielzeug_regeln:Anders"})
    # an installation changes the folder's time; two writes within one clock tick may not show it
    os.utime(folder, ns=(before + 10**9, before + 10**9))
    assert rules.get("anders").key == "anders"  # a key not found: the modified folder is read again
    assert "anders" in rpgkernel.rulesets()


@pytest.mark.parametrize("target, reason", [
    ("fehlt_ganz:Spielzeug", "der Import scheitert mit ModuleNotFoundError: No module named 'fehlt_ganz'"),
    ("spielzeug_regeln:Fehlt", "der Import scheitert mit AttributeError: module 'spielzeug_regeln' has no attribute 'Fehlt'"),
    ("spielzeug_regeln:keine_klasse", "spielzeug_regeln:keine_klasse ist keine Unterklasse von rpgkernel.rules.Ruleset"),
    ("spielzeug_regeln:Anders", "die Klasse trägt den Schlüssel 'anders', nicht den Namen ihres Einstiegspunkts"),
    ("spielzeug_regeln:Alt", "die Klasse füllt noch Slots, die jetzt zu sheet, status oder tactics gehören: "
                             "resources -> sheet, out_of_fight -> status"),
    ("spielzeug_regeln:Kaputt", "der Import scheitert mit RulesError: Die Datei fehlt.yaml lässt sich nicht lesen: "
                                "No such file or directory"),   # its shipped settings, read as it loads
])
def test_a_broken_entry_point_is_named_in_german_and_spares_the_others(install, tmp_path, target, reason):
    install("rpg-kaputt", {"kaputt": target}, {"spielzeug_regeln": TOY})
    install("rpg-spielzeug", {"spielzeug": "spielzeug_regeln:Spielzeug"})
    assert "kaputt" in rpgkernel.rulesets()
    with pytest.raises(RpgError) as info:
        rules.get("kaputt")
    assert not isinstance(info.value, rules.RulesetError)
    assert str(info.value) == (f"Das Regelwerk 'kaputt' aus dem Paket rpg-kaputt lässt sich nicht laden ({target}): "
                               f"{reason}. Die anderen Regelwerke sind nicht betroffen.")
    assert rules.title("kaputt") == "kaputt"
    assert rules.get("midgard").key == "midgard"
    assert rpgkernel.resolve("wurf Alrik", ruleset="spielzeug", figures={"Alrik": {}}, dice=[6]).outcome == {"augen": 6}


def test_two_packages_claiming_one_key_are_refused(install):
    install("rpg-eins", {"spielzeug": "spielzeug_regeln:Spielzeug"}, {"spielzeug_regeln": TOY})
    install("rpg-zwei", {"spielzeug": "spielzeug_regeln:Spielzeug"})
    with pytest.raises(RpgError) as info:
        rules.get("spielzeug")
    assert "'spielzeug' bieten mehrere Pakete an: rpg-zwei und rpg-eins. Keines wird stillschweigend gewählt" \
        in str(info.value)
    assert rules.source("spielzeug") == "rpg-zwei und rpg-eins"
    assert rules.get("osr").key == "osr"


def test_one_package_seen_twice_on_the_path_counts_once(install):
    install("rpg-spielzeug", {"spielzeug": "spielzeug_regeln:Spielzeug"}, {"spielzeug_regeln": TOY})
    shadowed = install("rpg_Spielzeug", {"spielzeug": "spielzeug_regeln:Spielzeug"})
    assert sys.path[0] == str(shadowed)
    assert rules.get("spielzeug").key == "spielzeug" and rules.source("spielzeug") == "rpg_Spielzeug"


def test_a_campaign_of_a_ruleset_not_installed_here_is_named_by_its_key(tmp_path, monkeypatch):
    """A campaign made where a package was installed: the message is about its ruleset, not 'unbekannt'."""
    with monkeypatch.context() as m:
        m.syspath_prepend(str(write_distribution(tmp_path, "rpg-spielzeug",
                                                  {"spielzeug": "spielzeug_regeln:Spielzeug"},
                                                  {"spielzeug_regeln": TOY})))
        with Campaign.open(tmp_path / "k.sqlite") as camp:
            camp.set_ruleset("spielzeug")
            camp.add_character("Alrik")
    sys.modules.pop("spielzeug_regeln", None)
    assert "spielzeug" not in rpgkernel.rulesets() and rules.title("spielzeug") == "spielzeug"
    s = rpgkernel.Session()
    try:
        s.open_campaign(tmp_path / "k.sqlite")
        with pytest.raises(RpgError, match=r"spielt nach spielzeug \(spielzeug\) und hält die Figuren Alrik\. "
                                           r"Das Regelwerk bleibt spielzeug: %rpg midgard wechselt es nicht"):
            s.set_ruleset("midgard")
    finally:
        s.close_campaign()
