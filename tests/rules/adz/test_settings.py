"""AdZ's GM data kept in the campaign (adz.einrichten): per campaign and per encounter, checked once,
read by the verbs, the sheet, the resources and initiative; two campaigns in one kernel stay apart."""

import pytest

import rpgkernel
from rpgkernel import Campaign, sharing, statblocks
from rpgkernel.errors import ResolveError
from rpgkernel.rules import adz
from rpgkernel.rules.sheet import SheetError
from rpgkernel.widgets import CharacterSheet

BASE = {"KK": 2, "KO": 3, "GE": 3, "FF": 4, "KL": 6, "WK": 5, "IN": 4, "CH": 3, "GL": 2,
        "magiebereiche": ["Feuer 5"], "erschaffen": 4}
#: a GM's file: one technique more, a short damage track, a faster initiative, a weapon list
RULES = """
techniken: [beherrschen, erkennen, erschaffen, formen, modifizieren, verankern, versetzen, zerstören]
schadensleiste: {malus: [0, 1, 2, X]}
initiative: {faktor: 3}
waffen:
  Langschwert: {fertigkeit: Schwerter, attribut: KK, grundschaden: 4}
"""
SPELL = "zauber Ilsa bereich=Feuer technik=formen mw=1 kp=2"


@pytest.fixture
def rules_file(tmp_path):
    path = tmp_path / "meine_regeln.yaml"
    path.write_text(RULES, encoding="utf-8")
    return path


@pytest.fixture
def open_campaign(tmp_path):
    opened = []

    def open_(name):
        camp = Campaign.open(tmp_path / f"{name}.sqlite")
        camp.set_ruleset("adz")
        opened.append(camp)
        return camp
    yield open_
    for camp in opened:
        camp.close()


def test_two_campaigns_in_one_kernel_keep_their_own_data_sheet_and_tracks(rules_file, open_campaign):
    a, b = open_campaign("a"), open_campaign("b")
    adz.einrichten(rules_file, kampagne=a)
    a.add_character("Ilsa", {**BASE, "formen": 3, "waffen": ["Langschwert"]})
    with pytest.raises(SheetError, match="Unbekanntes Feld 'formen'"):
        b.add_character("Ilsa", {**BASE, "formen": 3})
    with pytest.raises(SheetError, match="keiner Waffenliste"):
        b.add_character("Ilsa", {**BASE, "waffen": ["Langschwert"]})
    b.add_character("Ilsa", BASE)
    assert a.figure("Ilsa").resources["körperlich"] == {"value": 4, "max": 4}
    assert b.figure("Ilsa").resources["körperlich"] == {"value": 12, "max": 12}
    # the verbs read each campaign's data
    preview = rpgkernel.resolve(SPELL, campaign=a, preview=True).preview     # Feuer 5 + formen 3 = 8 W6
    assert preview["p_gelingt"] == pytest.approx(1 - (2 / 3) ** 8, abs=1e-12)
    with pytest.raises(ResolveError, match="Unbekannte Technik 'formen'"):
        rpgkernel.resolve(SPELL, campaign=b, preview=True)
    # the front ends show the fields each campaign's data gives its sheets
    sheets = [CharacterSheet(c, "Ilsa") for c in (a, b)]
    assert ["formen" in [f["name"] for f in s.fields] for s in sheets] == [True, False]
    for s in sheets:
        s.close()
    assert sharing.snapshot(a, "Ilsa")["sheet"]["formen"] == 3
    with pytest.raises(statblocks.StatBlockError, match="formen"):
        statblocks.load(b, "- name: Schemen\n  werte: {KK: 1, KO: 1, GE: 1, FF: 1, KL: 1, WK: 1, IN: 1, CH: 1, GL: 1,"
                           " formen: 1}\n", encounter="Hohlweg")
    statblocks.load(a, "- name: Schemen\n  werte: {KK: 1, KO: 1, GE: 1, FF: 1, KL: 1, WK: 1, IN: 1, CH: 1, GL: 1,"
                       " formen: 1}\n", encounter="Hohlweg")
    assert a.figure("Schemen").resources["geistig"] == {"value": 4, "max": 4}


def test_the_kept_data_survives_a_restart_and_einrichten_without_files_restores_the_defaults(
        rules_file, tmp_path, open_campaign):
    camp = open_campaign("k")
    adz.einrichten(rules_file, kampagne=camp)
    camp.close()
    again = open_campaign("k")
    kept = adz.EINSTELLUNGEN.kept_in(again)
    assert "formen" in kept.techniken and kept.stufen == 4 and kept.initiative["faktor"] == 3
    assert kept.source == str(rules_file)
    bad = tmp_path / "kaputt.yaml"
    bad.write_text("schadensleiste: {malus: [0, 1]}\n", encoding="utf-8")
    with pytest.raises(adz.AdzError, match="letzter Eintrag X"):
        adz.einrichten(bad, kampagne=again)
    assert adz.EINSTELLUNGEN.kept_in(again) is kept                      # a bad file changes nothing
    with pytest.raises(adz.AdzError, match=r"Die AdZ-Daten .*fehlt.yaml lassen sich nicht lesen"):
        adz.einrichten(tmp_path / "fehlt.yaml", kampagne=again)
    adz.einrichten(kampagne=again)
    assert again.data("adz") is None and adz.EINSTELLUNGEN.kept_in(again) is adz.EINSTELLUNGEN.defaults()
    assert not hasattr(adz, "use_data") and not hasattr(adz, "load_data")


def test_an_encounters_data_holds_there_only_also_for_its_initiative(rules_file, open_campaign):
    camp = open_campaign("e")
    traum = camp.new_encounter("Traum")
    camp.new_encounter("Hohlweg")                       # the active one: the campaign's data, the defaults
    adz.einrichten(rules_file, kampagne=camp, begegnung="Traum")
    traum.add("Schemen", sheet={**BASE, "formen": 2, "fertigkeiten": ["Reflexe 2"]})
    with pytest.raises(SheetError, match="formen"):
        camp.encounter.add("Ork", sheet={**BASE, "formen": 2})
    assert camp.figure("Schemen", "Traum").resources["körperlich"]["max"] == 4
    assert adz.EINSTELLUNGEN.kept_in(camp, "Hohlweg").stufen == 12
    traum.start(dice=[1, 1])                            # (IN 4 + Reflexe 2) × 3 + 2
    assert camp.journal(kind="initiative")[-1].data["rolls"]["Schemen"]["total"] == 20
    camp.set_sheet("Schemen", {**BASE, "formen": 4}, "Traum")
    assert camp.figure("Schemen", "Traum").sheet["formen"] == 4


def test_kept_data_that_is_not_adzs_is_named(open_campaign):
    camp = open_campaign("f")
    camp.add_character("Ilsa", BASE)
    camp.set_data("adz", {"techniken": ["formen"]})
    with pytest.raises(ResolveError, match="Die Daten 'adz' der Kampagne sind keine AdZ-Daten"):
        rpgkernel.resolve("probe Ilsa attribut=KL mw=1", campaign=camp, dice=[5] * 6)
    camp.set_data("adz", {"dateien": [{"schadensleiste": {"malus": [1]}}], "quelle": "alt.yaml"})
    with pytest.raises(ResolveError, match=r"schadensleiste.*\(alt.yaml\)"):
        rpgkernel.resolve("probe Ilsa attribut=KL mw=1", campaign=camp, dice=[5] * 6)
