"""Kampfwerte's GM settings (kampfwerte.einrichten): kept in the campaign or an encounter, checked before
anything is kept, in force for that campaign's procedures only."""

import subprocess
import sys

import pytest

import rpgkernel
from rpgkernel import Campaign
from rpgkernel.dice import Roller
from rpgkernel.errors import RpgError
from rpgkernel.rules.kampfwerte import (EINSTELLUNGEN, HexKarte, KampfwerteError, einrichten, karte_setzen, p_gelingt,
                                        wuerfeln)
from rpgkernel.rules.kampfwerte.probe import erfolge_dist

from .test_sheet import KAEL


def test_gm_rule_data_in_the_campaign_survives_reopen(tmp_path):
    """The GM's terrain table (not in the seed: "x BP pro Feld") and other rule sections are kept in
    the campaign and are in force for its procedures only."""
    path = tmp_path / "k.sqlite"
    lava = HexKarte(5, 1, {(1, 0): "Lava"})
    with Campaign.open(path) as c:
        c.set_ruleset("kampfwerte")
        enc = c.new_encounter("Gefecht")
        enc.add("Kael", sheet=KAEL, side="Spieler")
        with pytest.raises(KampfwerteError, match="Unbekanntes Gelände „Lava“"):
            karte_setzen(enc, lava)
        with pytest.raises(KampfwerteError, match="Kampfwerte-Daten"):  # checked before it is stored
            einrichten(regeln={"rundumschlag_kosten": "beides"}, kampagne=c)
        assert c.data("kampfwerte") is None
        einrichten(regeln={"gelaende": {"frei": 1, "Lava": 4}, "wuchtschlag_parade": {1: 7, 2: 7, 3: 8, 4: 8, 5: 9}},
                   kampagne=c)
        assert c.data("kampfwerte")["regeln"]["wuchtschlag_parade"]["1"] == 7  # JSON: text keys
        karte_setzen(enc, lava)
        rpgkernel.resolve("platziere Kael auf=0,0", campaign=c)
    assert "Lava" not in EINSTELLUNGEN.defaults().gelaende  # a direct call: the shipped defaults
    with Campaign.open(path) as again:
        res = rpgkernel.resolve("bewege Kael nach=2,0", campaign=again)
        assert res.outcome["kosten"] == "5"  # Lava x4 + 1
        again.set_data("kampfwerte", None)  # back to the defaults: the map's Lava is unknown now
        with pytest.raises(RpgError, match="Unbekanntes Gelände „Lava“"):
            rpgkernel.resolve("bewege Kael nach=1,0", campaign=again)


def _probe_regeln(schwierigkeit, mindest_erfolge):
    return {"probe": {"schwierigkeit": schwierigkeit, "mindest_erfolge": mindest_erfolge}}


def test_two_campaigns_in_one_process_keep_their_own_settings(tmp_path):
    """Each campaign's %%resolve lines (and previews) use the settings kept in that campaign, an
    encounter's over its campaign's, however the lines interleave; a direct call the defaults."""
    eins, zwei = Campaign.open(tmp_path / "eins.sqlite"), Campaign.open(tmp_path / "zwei.sqlite")
    try:
        for c in (eins, zwei):
            c.set_ruleset("kampfwerte")
            c.new_encounter("Gefecht").add("Kael", sheet=KAEL, side="Spieler")
        einrichten(regeln=_probe_regeln(5, 1), kampagne=eins)
        einrichten(regeln=_probe_regeln(9, 2), kampagne=zwei)
        line, dice = "probe Kael talent=HEIMLICHKEIT", [9, 5, 2, 2]   # 4 W10: 2 successes against 5, 1 against 9
        for c, sw, erfolge, gelungen in ((eins, 5, 2, True), (zwei, 9, 1, False), (eins, 5, 2, True)):
            res = rpgkernel.resolve(line, campaign=c, dice=dice)
            assert res.outcome == {"erfolge": erfolge, "gelungen": gelungen}
            assert f"4W10 gegen {sw}," in res.steps[0].text
            assert rpgkernel.resolve(line, campaign=c, preview=True).preview == erfolge_dist(4, sw)
            assert EINSTELLUNGEN.kept_in(c).schwierigkeit == sw
        einrichten(regeln=_probe_regeln(3, 1), kampagne=eins, begegnung="Gefecht")
        assert rpgkernel.resolve(line, campaign=eins, dice=[3, 2, 2, 2]).outcome["gelungen"]
        assert rpgkernel.resolve(line, campaign=zwei, dice=[3, 2, 2, 2]).outcome == {"erfolge": 0, "gelungen": False}
        einrichten(kampagne=eins, begegnung="Gefecht")            # the encounter's go: the campaign's hold again
        assert EINSTELLUNGEN.kept_in(eins, "Gefecht").schwierigkeit == 5
        assert EINSTELLUNGEN.kept_in(zwei, "Gefecht").schwierigkeit == 9
        assert wuerfeln(4, Roller(dice=dice)).schwierigkeit == 7   # a direct call: the shipped defaults
    finally:
        eins.close()
        zwei.close()


def test_einrichten_checks_everything_first_and_none_goes_back_to_the_defaults(tmp_path):
    regeln = tmp_path / "regeln.yaml"
    regeln.write_text("gelaende: {frei: 1, Lava: 4}\nwuchtschlag_parade: {1: 7, 2: 7, 3: 8, 4: 8, 5: 9}\n",
                      encoding="utf-8")
    assert einrichten(regeln).gelaende == {"frei": 1, "Lava": 4}      # without a campaign: only checked
    with Campaign.open(tmp_path / "k.sqlite") as c:
        c.set_ruleset("kampfwerte")
        c.new_encounter("Gefecht").add("Kael", sheet=KAEL, side="Spieler")
        kept = einrichten(regeln, kampagne=c)                          # a YAML file, kept as JSON
        assert kept.wuchtschlag_parade[1] == 7 and c.data("kampfwerte")["regeln"]["wuchtschlag_parade"]["1"] == 7
        for bad, detail in (({"gelande": {"Lava": 4}}, "gelande"),    # a section regeln.yaml does not have
                            ({"probe": {"schwierigkeit": 0, "mindest_erfolge": 2}}, "probe"),
                            ({"bewegungsarten": {"Fliegen": {"kosten": "0"}}}, "bewegungsarten"),
                            ({"gelaende": {"Lava": (4,)}}, "gelaende")):
            with pytest.raises(KampfwerteError, match=rf"passen nicht \({detail}\)"):
                einrichten(bad, kampagne=c)
        with pytest.raises(KampfwerteError, match=r"\(manoever\)"):
            einrichten(manoever={"Finte": {"ziele": "eins"}}, kampagne=c)   # an entry without its cost
        with pytest.raises(KampfwerteError, match="lässt sich nicht lesen"):
            einrichten(tmp_path / "fehlt.yaml", kampagne=c)
        assert EINSTELLUNGEN.kept_in(c).gelaende == {"frei": 1, "Lava": 4}   # nothing kept from a bad call
        c.set_data("kampfwerte", {"regel": {}})                             # set by hand, misspelt
        with pytest.raises(RpgError, match=r"passen nicht \(regel\)"):
            rpgkernel.resolve("probe Kael talent=INSTINKT", campaign=c)
        einrichten(kampagne=c)
        assert c.data("kampfwerte") is None and EINSTELLUNGEN.kept_in(c) is EINSTELLUNGEN.defaults()


def test_a_rolled_test_answers_by_the_settings_it_was_rolled_with():
    """``Wurf.gelungen`` keeps the needed successes of the rule data it was rolled with."""
    einer = einrichten(regeln=_probe_regeln(7, 1))
    w = wuerfeln(2, Roller(dice=[7, 2]), daten=einer)        # 1 success
    assert (w.erfolge, w.mindest_erfolge, w.gelungen) == (1, 1, True)
    assert not wuerfeln(2, Roller(dice=[7, 2])).gelungen     # the defaults need 2
    assert p_gelingt(1, daten=einer) == pytest.approx(0.4, abs=1e-12) and p_gelingt(1) == pytest.approx(0.1)


def test_the_rule_data_is_checked_under_python_optimisations(tmp_path):
    """The checks are no ``assert``s, which ``python -O`` drops."""
    code = ("from rpgkernel.rules.kampfwerte import einrichten, KampfwerteError\n"
            "try:\n    einrichten({'probe': {'schwierigkeit': 0, 'mindest_erfolge': 2}})\n"
            "except KampfwerteError as err:\n    print(err)\n")
    out = subprocess.run([sys.executable, "-O", "-c", code], capture_output=True, text=True, timeout=120)
    assert "passen nicht (probe)" in out.stdout, out.stderr
