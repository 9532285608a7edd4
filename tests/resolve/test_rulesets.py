"""%%resolve against the five rulesets: previews checked like rolls, bounded options, bounded
previews, the ruleset of a cell, and the verbs' own example lines."""

from __future__ import annotations

import importlib
import re
import shutil

import pytest

import rpgkernel
from rpgkernel import Campaign, ResolveError, RpgError, rules, statblocks
from rpgkernel.rules.wording import preview_lines
from rpgkernel.resolve.language import parse, quote

from hang_guard import hang_guard
from resolve_campaigns import RULESETS, campaign, figure_names

# a bad value of every kind an option can have
BAD = {"int": ["101", "-101", "x", "1" * 400, "2.5"], "text": ["FOO", "<b>x</b>", "", "{0}"],
       "dice": ["W", "2000W6", "W6+"], "pool": ["{600W6,600W6}", "W6+1", "W0"], "name": ["Niemand"]}


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    """Each ruleset's fixture campaign as a closed file (copied for every run that may change it)."""
    root = tmp_path_factory.mktemp("rulesets")
    out = {}
    for key in RULESETS:
        c = campaign(key, root / f"{key}.sqlite")
        out[key] = (root / f"{key}.sqlite", figure_names(c))
        c.close()
    return out


class Runner:
    def __init__(self, pristine, ruleset: str, where) -> None:
        self.path, self.figures = pristine[ruleset]
        self.where = where
        self.count = 0

    def outcome(self, source: str, **kw) -> str:
        """"ok", or the first line of the German error without its place; anything else fails the test."""
        self.count += 1
        target = self.where / f"run{self.count}.sqlite"
        shutil.copy(self.path, target)
        camp = Campaign.open(target)
        try:
            repr(rpgkernel.resolve(source, campaign=camp, **kw))
            return "ok"
        except RpgError as err:
            return re.sub(r"^Zeile \d+, Spalte \d+: ", "", str(err).splitlines()[0])
        finally:
            camp.close()


def _base(run: Runner, verb) -> str | None:
    """A line of ``verb`` with the options of its example that previews and rolls in the fixture campaign."""
    [cmd] = parse(verb.example)
    options = [f"{k}={quote(w.text, value=True)}" for k, w in cmd.options.items()] + [f.text for f in cmd.flags]
    for actor in run.figures:
        targets = [None] if verb.targets == "none" else [f for f in run.figures if f != actor]
        for target in targets + ([None] if verb.targets == "optional" else []):
            line = " ".join([verb.name, quote(actor), *(["->", quote(target)] if target else []), *options])
            if run.outcome(line, preview=True) == "ok" and run.outcome(line, seed=1) == "ok":
                return line
    return None


@pytest.mark.parametrize("ruleset", RULESETS)
def test_previews_are_checked_exactly_like_rolls(pristine, tmp_path, ruleset):
    """Every verb, every option, every kind of bad value: --vorschau refuses what the roll refuses,
    with the same German message (before, Bastionland's probe raised KeyError on virtue=FOO and
    Kampfwerte's previews took any nach= and gegen=)."""
    run = Runner(pristine, ruleset, tmp_path)
    checked = 0
    for verb in rules.get(ruleset).verbs.values():
        if verb.choice is not None:
            continue
        base = _base(run, verb)
        if base is None:
            assert verb.preview is None, f"no line of {verb.name} runs in the fixture campaign"
            continue
        for key, kind in verb.options.items():
            for bad in BAD.get(kind, []):
                line = re.sub(rf"\s{re.escape(key)}=(\"[^\"]*\"|\S+)", "", base) + f" {key}={quote(bad, value=True)}"
                assert run.outcome(line, preview=True) == run.outcome(line, seed=1), line
                checked += 1
    assert checked > 20


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_verb_example_is_a_line_of_its_verb(ruleset):
    """The example the panel and the docs show reads back as the verb with its own options
    (OSR's wrote 'Goblin 1' unquoted: a target 'Goblin' and a flag '1')."""
    for verb in rules.get(ruleset).verbs.values():
        [cmd] = parse(verb.example)
        assert cmd.verb.text.lower() in (verb.name, *verb.aliases)
        assert set(cmd.options) | {f.text for f in cmd.flags} <= set(verb.options), verb.example


@pytest.fixture
def camp(pristine, tmp_path, request):
    path, _ = pristine[request.param]
    shutil.copy(path, tmp_path / "c.sqlite")
    c = Campaign.open(tmp_path / "c.sqlite")
    yield c
    c.close()


def _message(camp, source, **kw) -> str:
    with pytest.raises(ResolveError) as info:
        rpgkernel.resolve(source, campaign=camp, **kw)
    return str(info.value)


@pytest.mark.parametrize("camp", ["bastionland"], indirect=True)
def test_probe_preview_refuses_an_unknown_virtue(camp):
    text = _message(camp, "probe Ritter virtue=FOO", preview=True)
    assert "Unbekannte Virtue 'FOO'; möglich sind VIG, CLA, SPI." in text


# -- bounded integers ------------------------------------------------------------------
@pytest.mark.parametrize("camp, line, fragment", [
    ("adz", "zauber Magierin bereich=Feuer technik=erschaffen mw=2 kp=" + "9" * 311,
     "kp=999999999999999… (311 Stellen): erlaubt ist 0 bis 10.000."),
    ("adz", "erneuern Magierin kp=-1 name=Licht", "kp=-1: erlaubt ist 0 bis 10.000."),
    ("bastionland", "verlust Ritter virtue=SPI um=1000000000000000000",
     "um=100000000000000… (19 Stellen): erlaubt ist 0 bis 19."),
    ("bastionland", "verlust Ritter virtue=SPI um=20", "um=20: erlaubt ist 0 bis 19."),
    ("osr", 'losreißen "Goblin 2" chance=101', "chance=101: erlaubt ist 0 bis 100."),
    ("osr", 'zaubern Hauptmann spruch=Schlaf segment=11', "segment=11: erlaubt ist 1 bis 10."),
    ("kampfwerte", "probe Kael talent=HEIMLICHKEIT schwierigkeit=11", "schwierigkeit=11: erlaubt ist 1 bis 10."),
    ("kampfwerte", "manöver Kael -> Ork manöver=Finte stufe=6", "stufe=6: erlaubt ist 1 bis 5."),
    ("midgard", "altern Marvelus bis=2001", "bis=2001: erlaubt ist 0 bis 2.000."),
    ("midgard", "beschwörung Marvelus grad=4 opfer=5 fesselung=12", "opfer=5: erlaubt ist 1 bis 4."),
    ("midgard", 'ew Marvelus fertigkeit=Balancieren wm=101', "wm=101: erlaubt ist −100 bis 100."),
], indirect=["camp"])
def test_integer_options_are_bounded_before_anything_is_rolled(camp, line, fragment):
    seq = camp.state["seq"]
    for preview in (False, True):
        assert fragment in _message(camp, line, preview=preview, dice=[])
    assert camp.state["seq"] == seq


@pytest.mark.parametrize("camp", ["adz"], indirect=True)
def test_the_largest_kp_is_stored_and_shown(camp):
    """kp=<311 digits> was stored and then made the card raise OverflowError."""
    res = rpgkernel.resolve("erneuern Magierin kp=10000 name=Licht", campaign=camp, seed=1)
    assert "10000" in repr(res) and res._repr_mimebundle_()["text/html"]
    assert res.outcome["kp"] == 10_000


# -- bounded previews ------------------------------------------------------------------
@pytest.mark.parametrize("camp", ["bastionland"], indirect=True)
def test_a_huge_attack_pool_rolls_without_computing_a_preview_it_cannot_afford(camp):
    """bonus={1000W10000} took 10-85 s and 0.5 GB on every roll for the card's preview."""
    line = "angriff Ritter -> Söldner bonus={1000W10000}"
    with hang_guard(10):
        res = rpgkernel.resolve(line, campaign=camp, seed=1)
        text = repr(res)
        assert "Keine Vorschau des Schadens: 1.002 Angriffswürfel" in text and "höchstens 10.000" in text
        assert len(res.outcome["würfel"]) == 1002 and "schaden" not in (res.preview or {})
        assert "Keine Vorschau des Schadens" in _message(camp, line, preview=True)
    small = rpgkernel.resolve("angriff Ritter -> Söldner bonus={W8,W6}", campaign=camp, preview=True)
    assert small.preview["schaden"].isclose(rpgkernel.dist("max(0, {W8,W4,W8,W6}kh1-2)"))


@pytest.mark.parametrize("camp", ["bastionland"], indirect=True)
def test_a_blast_computes_its_pools_order_statistics_once(camp, monkeypatch):
    """Each target of a Blast showed the same pool's preview, computed anew for every target."""
    module = importlib.import_module("rpgkernel.rules.bastionland.attack")
    calls = []
    real = module.nth_highest
    monkeypatch.setattr(module, "nth_highest", lambda dice, n: calls.append(n) or real(dice, n))
    module._highest_two.cache_clear()
    res = rpgkernel.resolve('angriff Ritter -> Knappe, Söldner, "Räuber 1", "Räuber 2" blast bonus={W20,W20}',
                            campaign=camp, seed=1)
    assert len(res.targets) == 4 and "p_gambit (Söldner)" in res.preview
    assert sorted(calls) == [1, 2]


@pytest.mark.parametrize("camp", ["midgard"], indirect=True)
def test_a_damage_roll_beyond_exact_distributions_still_rolls(camp):
    """schaden=10W10000 was refused: the card's preview (and the check whether damage can be
    negative) needed its exact distribution; W10000*W200 took two minutes for the preview's
    AP and LP loss and was then refused by the journal (24 MB of preview in one entry)."""
    line = 'angriff "Wolfgang Krentz" -> Schattenelf schaden='
    res = rpgkernel.resolve(line + "100W10000", campaign=camp, seed=1)   # 10W10000 is exact since sums by FFT
    assert res.preview is None and "Ohne Vorschau: Die exakte Verteilung wäre zu aufwendig" in repr(res)
    assert res.outcome["schaden"] >= 100
    assert "zu aufwendig" in _message(camp, line + "100W10000", preview=True)
    with hang_guard(20):
        res = rpgkernel.resolve(line + "W10000*W200", campaign=camp, seed=2)
    assert "Ohne Vorschau: Die exakte Verteilung wäre zu aufwendig" in repr(res)
    res = rpgkernel.resolve(line + "W100*W200", campaign=camp, seed=2)   # exact, but too wide for a card
    assert "Ohne Vorschau: Der Schaden hat 20.000 mögliche Werte" in repr(res)
    assert "zu viele für eine exakte Vorschau (höchstens 10.000)" in _message(camp, line + "W100*W200",
                                                                              preview=True)
    shown = rpgkernel.resolve(line + "W100*W100", campaign=camp, seed=3)
    assert shown.preview["lp"].max == max(0, 10_000 - 2)
    [entry] = camp.journal(kind="auflösung", last=1)  # the preview as the card shows it, not 10,000 values
    assert entry.data["preview"] == preview_lines(shown.preview) and len(entry.data["preview"]) == 6


@pytest.mark.parametrize("camp", ["midgard"], indirect=True)
def test_initiative_of_a_crowd_rolls_without_its_order_preview(camp):
    """The exact order preview grows with the cube of the figures: 120 took seconds on every roll."""
    statblocks.load(camp, "figuren:\n" + "".join(f"  - name: Wache {i}\n    werte: {{rw: {40 + i % 50}}}\n"
                                                  for i in range(120)))
    line = "initiative " + ", ".join(f'"Wache {i}"' for i in range(120))
    with hang_guard(5):
        res = rpgkernel.resolve(line, campaign=camp, seed=1)
    assert res.preview is None and len(res.outcome["reihenfolge"]) == 120
    assert "Ohne Vorschau: 120 Figuren sind zu viele für eine exakte Vorschau der Reihenfolge (höchstens 30)." \
        in repr(res)
    assert "120 Figuren sind zu viele" in _message(camp, line, preview=True)
    few = rpgkernel.resolve("initiative " + ", ".join(f'"Wache {i}"' for i in range(30)), campaign=camp,
                            preview=True)
    assert sum(few.preview[f"P(Wache {i} handelt zuerst)"] for i in range(30)) == pytest.approx(1)


@pytest.mark.parametrize("camp", ["midgard"], indirect=True)
def test_damage_without_a_minus_is_never_negative_without_a_distribution(camp, monkeypatch):
    """Whether damage needs the floor max(0, …) took the damage's whole exact distribution."""
    module = importlib.import_module("rpgkernel.rules.midgard.schaden")
    asked = []
    monkeypatch.setattr(module, "dist", lambda expr: asked.append(expr) or rpgkernel.dist(expr))
    line = 'angriff "Wolfgang Krentz" -> Schattenelf schaden='
    res = rpgkernel.resolve(line + "W6+W3*2", campaign=camp, dice=[15, 3, 4, 2])
    assert asked == [] and "Schaden von Wolfgang Krentz: W6+W3*2 = 8" in repr(res)
    res = rpgkernel.resolve(line + "W6-3", campaign=camp, dice=[15, 3, 2])
    assert asked == ["W6-3"] and "max(0, W6-3) = 0" in repr(res)


@pytest.mark.parametrize("camp", ["midgard"], indirect=True)
def test_aging_rolls_at_most_200_checks_in_one_line(camp):
    """A human aged to 2000 rolled 1928 checks (over a second); found by the fuzzing."""
    for preview in (False, True):
        text = _message(camp, "altern Marvelus bis=2000", preview=preview)
        assert "Marvelus von 40 bis 2000 Jahre: 1928 Alterungsproben sind zu viele für eine Zeile " \
               "(höchstens 200); in Schritten altern, zuerst bis=272." in text
    res = rpgkernel.resolve("altern Marvelus bis=272", campaign=camp, seed=1)
    assert "272" in res.steps[0].text


# -- the ruleset of a cell -------------------------------------------------------------
@pytest.mark.parametrize("camp", ["bastionland"], indirect=True)
def test_a_cell_of_another_ruleset_is_refused(camp):
    seq = camp.state["seq"]
    with pytest.raises(RpgError) as info:
        rpgkernel.resolve("ew Ritter fertigkeit=Balancieren", ruleset="midgard", campaign=camp)
    text = str(info.value)
    assert "Die Zelle spielt nach Midgard – Hausregeln (midgard), die aktive Begegnung 'Furt' nach " \
           "Mythic Bastionland (bastionland)" in text
    assert "%%resolve bastionland" in text and "%rpg midgard" in text and "%rpg --kampagne" in text
    assert camp.state["seq"] == seq


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_rolled_card_shows_its_dice_first_and_folds_its_preview(pristine, tmp_path, ruleset):
    """Every verb with a preview, rolled: the steps with their dice come first, the preview follows in one
    compact line (text) or folded in <details> (HTML) below them; a card that is only a preview keeps
    it on top, open."""
    run = Runner(pristine, ruleset, tmp_path)
    cards = 0
    for verb in rules.get(ruleset).verbs.values():
        if verb.choice is not None or verb.preview is None or (base := _base(run, verb)) is None:
            continue
        shutil.copy(run.path, tmp_path / "card.sqlite")
        with Campaign.open(tmp_path / "card.sqlite") as camp:
            only = rpgkernel.resolve(base, campaign=camp, preview=True)
            res = rpgkernel.resolve(base, campaign=camp, seed=1)
        for r in res if isinstance(res, list) else [res]:
            if not any(s.rolls for s in r.steps) or not preview_lines(r.preview):
                continue
            cards += 1
            lines = repr(r).splitlines()
            said = [i for i, line in enumerate(lines) if line.startswith("  Vorschau: ")]
            assert said == [len(lines) - 1], base          # once, last, all of it in one line
            assert lines[-1].count(" · ") == len(preview_lines(r.preview)) - 1
            page = r._repr_html_()
            assert "Vorschau:" not in page and page.index("</ol>") < page.index('<details class="rpgk-preview">')
        for r in only if isinstance(only, list) else [only]:
            assert repr(r).splitlines()[1].startswith("  Vorschau: ") or not preview_lines(r.preview), base
    assert cards >= 1
