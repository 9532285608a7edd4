"""The forecast of a fight: time to a precise answer, fights per second on each path, an exact duel.

1. An exact duel (the notebook's Knight against its mercenary): the absorbing chain; goal: under 1 s,
   the first forecast of the process included.
2. Mythic Bastionland, four against six (two Knights and two squires of the example notebook against
   six mercenaries in gambesons, a group whose morale wavers): ``Encounter.forecast()`` until every
   side's chance of winning is known to ±1 % at 95 % (the compact path, morale and all); goal: at
   most 5 s. Its fights per second beside the procedure path's on the same fight (the reference, in
   the same run) and the ratio.
3. One small fight of each other ruleset and of the free mode through the procedure path: the
   encounter of its example notebook, with what a forecast needs and the notebook leaves out made
   up here and printed (``FOR_A_FORECAST``: the GM's data ``prognose`` of Kampfwerte and the free
   mode, which the seed leaves to the GM; the notebook's bystanders without fighting values taken
   out; an attacking manoeuvre for a figure that has only a reaction).
4. The first exact duel of each example notebook's ruleset (the first combatant of each of its first
   two sides, ``FOR_A_FORECAST`` as above; "midgard+gnade" the same Midgard duel with ``GNADE``
   points of divine grace for its first figure), each in a fresh process: the first forecast, the
   imports of the forecast and the ruleset's model not counted (they load before the clock starts).
   CPU and wall time against the goal of 0.3 s CPU, the path taken and the machine's load; with
   ``--reference CHECKOUT`` the same duel, the same way, with that checkout's package beside it
   (e.g. the main branch before a change). A duel still running after ``--timeout`` seconds (a
   sampled one, say) is cut off.

5. Forecasts with a decision open (``--only-open`` runs this section alone): the ford fight (Ritter
   and Knappe against three Söldner, ``ford_block``) with ``FORD_ATTACK`` open, a Midgard duel with grace
   points whose attack waits for the grace (``midgard_grace``), and every moment of the example
   notebooks where a decision stands open (``notebook_points``; the Midgard notebook's are its fight of
   five, Bilbo with points of grace: the Midgard fight with grace): the forecast to ±1 % (CPU and wall,
   against the goal of 2 s CPU, the path taken) beside the procedure path on the same state in the
   same run (its fights per second, and the CPU time it would take for the fights the precision asks
   for). A moment no compact model covers stops after its first batch and prints its notice.

Every forecast starts from a fresh campaign (nothing cached of the fight). Run:

    python benchmarks/forecast.py [--repeat 3] [--procedure-fights 30] [--only-duels] [--only-open]
                                  [--notebook adz] [--reference CHECKOUT] [--timeout 60]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))   # notebook_points beside this file
GOAL_PRECISE = 5.0      # seconds to ±1 % for four against six
GOAL_EXACT = 1.0        # seconds for an exact duel
GOAL_DUEL_CPU = 0.3     # CPU seconds for the first exact duel of each ruleset
DUELS = ("frei", "bastionland", "osr", "adz", "kampfwerte", "midgard", "midgard+gnade")
GNADE = 2               # points of divine grace of the first figure of "midgard+gnade" (Bilbo's in the notebook)

RITTER = {"vig": 14, "cla": 12, "spi": 13, "gd": 5, "ruestung": 2, "ruestung_aus": "Kettenhemd, Schild",
          "waffen": ["Streitkolben (W8, wuchtig)", "Schild (W4)"], "spielfigur": True}
KNAPPE = {"vig": 10, "cla": 9, "spi": 11, "gd": 3, "ruestung": 1, "ruestung_aus": "Gambeson",
          "waffen": ["Dolch (W6)", "Dolch (W6)"]}
SÖLDNER = {"vig": 12, "cla": 10, "spi": 9, "gd": 3, "ruestung": 2, "ruestung_aus": "Helm, Schild",
           "waffen": ["Speer (W8, wuchtig)", "Schild (W4)"]}
IM_GAMBESON = {**SÖLDNER, "vig": 10, "ruestung": 1, "ruestung_aus": "Gambeson"}
OTHERS = ("adz", "kampfwerte", "midgard", "osr", "frei")
#: what a forecast of a notebook's fight needs that the notebook leaves out: (data, removed, sheets)
FOR_A_FORECAST = {
    "kampfwerte": ({"prognose": {"alle": {"abwehr": "W10>=8", "schaden": "2W6+2"},
                                 "figuren": {"Kael": {"manöver": ["Finte 3", "Wuchtschlag 2"]},
                                             "Mira": {"manöver": "Schattenhieb 2", "schaden": "W6+3"},
                                             "Ork": {"manöver": "Wuchtschlag 2"}}}},
                   ("Goblin",), {"Ork": {"manoever": ["Riposte 2", "Wuchtschlag 2"]}}),
    "midgard": ({}, ("Bilbo", "Elanor"), {}),
    "frei": ({"prognose": {"alle": {"schaden": "W6+1", "treffer": "W20>=9"}}}, (), {}),
}


def campaign(ruleset: str | None):
    from rpgkernel import Campaign
    c = Campaign.open(Path(tempfile.mkdtemp()) / "k.sqlite")
    c.set_ruleset(ruleset)
    return c


def bastionland(players, foes):
    c = campaign("bastionland")
    enc = c.new_encounter("Furt")
    for name, sheet in players:
        enc.add(name, side="Spieler", sheet=sheet)
    for name, sheet in foes:
        enc.add(name, side="Söldner", sheet=sheet)
    return enc


def four_against_six():
    return bastionland([("Ritter", RITTER), ("Ritterin", RITTER), ("Knappe", KNAPPE), ("Knappin", KNAPPE)],
                       [(f"Söldner {i}", IM_GAMBESON) for i in range(1, 7)])


def duel():
    """The exact duel of part 1 (a fresh campaign each time)."""
    return bastionland([("Ritter", RITTER)], [("Söldner", SÖLDNER)])


def duel_line(f) -> str:
    """The duel's result as the output prints it (its times follow); tests/test_benchmark_docs.py
    checks the README's run against it."""
    return f"P(Spieler) = {f.win['Spieler'].p:.6f}"


def sampled_line(f) -> str:
    """A sampled forecast's result as the output prints it (its time follows), likewise checked."""
    c = f.win["Spieler"]
    return f"{f.weg:<10} {f.fights:>6} fights  P(Spieler) = {c.p:.3f} ± {c.margin:.4f}"


def timed(call):
    start = time.perf_counter()
    result = call()
    return result, time.perf_counter() - start


def notebook_fight(key: str):
    """The encounter of ``example_notebooks/<key>.ipynb`` (the free mode: the start page's): its
    ``%%figuren`` cells in order, up to the first with an encounter, with ``FOR_A_FORECAST``."""
    from rpgkernel import statblocks
    name = "00_Start" if key == "frei" else key
    cells = json.loads((ROOT / "example_notebooks" / f"{name}.ipynb").read_text(encoding="utf-8"))["cells"]
    c = campaign(None if key == "frei" else key)
    data, removed, sheets = FOR_A_FORECAST.get(key, ({}, (), {}))
    for cell in cells:
        text = "".join(cell["source"])
        if cell["cell_type"] == "code" and text.startswith("%%figuren"):
            statblocks.load(c, text.partition("\n")[2])
            if "begegnung:" in text:
                for field, value in data.items():
                    c.set_data(field, value)
                for who in removed:
                    c.encounter.remove(who)
                for who, sheet in sheets.items():
                    c.set_sheet(who, {**c.figure(who).sheet, **sheet}, encounter=c.encounter.name)
                return c.encounter
    raise LookupError(f"no %%figuren cell with an encounter in {key}.ipynb")


def notebook_duel(key: str):
    """``notebook_fight(key)`` with the first combatant of each of its first two sides alone; for
    "midgard+gnade" the Midgard duel, its first figure with ``GNADE`` points of divine grace."""
    ruleset, _, grace = key.partition("+")
    enc = notebook_fight(ruleset)
    record = enc.campaign.state["encounters"][enc.name]["combatants"]
    sides: dict[str, str] = {}
    for name, entry in record.items():
        sides.setdefault(entry["side"], name)
    keep = list(sides.values())[:2]
    for name in list(record):
        if name not in keep:
            enc.remove(name)
    if grace:
        c = enc.campaign
        c.set_sheet(keep[0], {**c.figure(keep[0]).sheet, "gg": GNADE}, encounter=enc.name)
    return enc, keep


def one_duel(key: str) -> None:
    """Print one line of JSON: the first forecast of ``notebook_duel(key)`` in this process, the
    forecast's modules and the ruleset's model imported before the clock starts."""
    from importlib import import_module, util
    enc, keep = notebook_duel(key)
    ruleset = key.partition("+")[0]
    for module in ("rpgkernel.forecast", f"rpgkernel.rules.{ruleset}.compact", f"rpgkernel.rules.{ruleset}.tactics"):
        if util.find_spec(module) is not None:
            import_module(module)
    cpu, wall = time.process_time(), time.perf_counter()
    f = enc.forecast()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    side, chance = next(iter(f.win.items()))
    print(json.dumps({"duel": keep, "weg": f.weg, "cpu": cpu, "wall": wall, "note": f.notes[0], "side": side,
                      "p": chance.p}, ensure_ascii=False))


def _run_duel(key: str, checkout: Path | None, timeout: float | None) -> dict | str:
    """``one_duel(key)`` in a fresh process (this checkout's package, or ``checkout``'s): its JSON,
    or why there is none."""
    env = dict(os.environ)
    if checkout is not None:
        env["PYTHONPATH"] = str(checkout)
    try:
        run = subprocess.run([sys.executable, __file__, "--duel", key], capture_output=True, text=True,
                             check=False, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        return f"> {timeout:g} s wall (cut off)"
    if run.returncode:
        return f"failed: {(run.stderr.strip().splitlines() or ['?'])[-1]}"
    return json.loads(run.stdout.strip().splitlines()[-1])


def first_duels(reference: Path | None = None, timeout: float = 60.0) -> bool:
    ok = True
    print(f"4. The first exact duel of each ruleset's example notebook, each in a fresh process, imports "
          f"not counted (load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
          + (f"; reference: {reference}" if reference else "") + ")")
    for key in DUELS:
        r = _run_duel(key, None, timeout)
        if isinstance(r, str):
            print(f"   {key:<14} {r}")
            ok = False
        else:
            met = r["weg"] == "exakt" and r["cpu"] <= GOAL_DUEL_CPU
            ok &= met
            print(f"   {key:<14} {' – '.join(r['duel']):<30} {r['weg']:<10} CPU {r['cpu']:6.3f} s, "
                  f"wall {r['wall']:6.3f} s, P({r['side']}) = {r['p']:.6f} (goal: exact, <= {GOAL_DUEL_CPU:g} s CPU): "
                  f"{'yes' if met else 'NO'}")
        if reference is not None:
            was = _run_duel(key, reference, timeout)
            print(f"   {'':<14} {'reference':<30} " + (was if isinstance(was, str) else
                  f"{was['weg']:<10} CPU {was['cpu']:6.3f} s, wall {was['wall']:6.3f} s, P({was['side']}) = {was['p']:.6f}"))
    print(f"   load after: {os.getloadavg()[0]:.1f}")
    return ok


GOAL_OPEN_CPU = 2.0    # CPU seconds to ±1 % with a decision open


def ford_block() -> str:
    """The ford fight of the forecast with an open attack: the panel tests' players
    (``tests/panel_driving.py``) and three mercenaries."""
    sys.path.insert(0, str(ROOT / "tests"))
    from panel_driving import PLAYERS
    return PLAYERS + "".join(f"""    - name: Söldner {i}
      seite: Feinde
      werte: {{vig: 13, cla: 10, spi: 10, gd: 4, ruestung: 1, waffen: ["Speer (W8)", "Schild (W4)"]}}
""" for i in (1, 2, 3))


FORD_ATTACK, FORD_DICE = 'angriff Ritter, Knappe -> "Söldner 1" bonus=W8', [7, 3, 6, 5, 2]


def ford_open():
    """The ford fight begun (the players first), the players' attack open: its campaign's state."""
    import rpgkernel
    from rpgkernel.statblocks import load
    c = campaign("bastionland")
    load(c, ford_block())
    c.encounter.start(rolls={n: 10 - i for i, n in enumerate(c.state["encounters"]["Furt"]["combatants"])})
    rpgkernel.resolve(FORD_ATTACK, campaign=c, dice=FORD_DICE)
    return c.state, "Furt"


def midgard_grace():
    """The Midgard notebook's duel (``notebook_duel``), Wolfgang Krentz with two points of divine grace,
    his attack failed and waiting for the grace: its campaign's state."""
    import rpgkernel
    enc, keep = notebook_duel("midgard")
    c = enc.campaign
    c.set_sheet(keep[0], {**c.figure(keep[0]).sheet, "gg": 2}, encounter=enc.name)
    enc.start(dice=[4, 2])
    rpgkernel.resolve(f'angriff "{keep[0]}" -> {keep[1]}', campaign=c, dice=[2])
    return c.state, enc.name


def open_row(label: str, state: dict, encounter: str, fights: int) -> bool:
    """One moment with a decision open: the forecast to ±1 %, then the procedure path beside it."""
    import copy

    from rpgkernel.forecast import forecast_state
    said: list[str] = []
    cpu, wall = time.process_time(), time.perf_counter()
    f = forecast_state(copy.deepcopy(state), encounter, seed=1, notice=said.append, stop=lambda: bool(said))
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    c = f.win[next(iter(f.win))]
    met = f.weg != "prozeduren" and cpu <= GOAL_OPEN_CPU and f.precision <= 0.01
    print(f"   {label}")
    if said:
        print(f"      no model: {said[0]}")
        return False
    ref_cpu = time.process_time()
    ref = forecast_state(copy.deepcopy(state), encounter, seed=2, n=fights, weg="prozeduren")
    ref_cpu = time.process_time() - ref_cpu
    rate = ref.fights / ref_cpu
    first = next(iter(ref.win))
    print(f"      {f.weg:<8} {f.fights:>6} fights  P({first}) = {c.p:.3f} ± {c.margin:.4f}  CPU {cpu:6.2f} s, "
          f"wall {wall:6.2f} s (goal <= {GOAL_OPEN_CPU:g} s CPU): {'yes' if met else 'NO'}")
    print(f"      procedure path: {ref.fights} fights, P({first}) = {ref.win[first].p:.3f} "
          f"[{ref.win[first].low:.3f}, {ref.win[first].high:.3f}], {rate:.1f} fights/s CPU; "
          f"{max(f.fights, 1):,} fights would take {max(f.fights, 1) / rate:,.0f} s CPU")
    return met


def open_decisions(fights: int, notebook: str | None = None) -> bool:
    """Section 5: every moment, or the moments of ``notebook`` alone."""
    import notebook_points
    print(f"5. Forecasts with a decision open, to ±1 % (load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    ok = True
    if notebook is None:
        ok &= open_row(f"the ford, {FORD_ATTACK} open", *ford_open(), fights)
        ok &= open_row("Midgard, Wolfgang Krentz (GG 2) against the Schattenelf, his grace open", *midgard_grace(),
                       fights)
    for name in notebook_points.NOTEBOOKS if notebook is None else (notebook,):
        for point in notebook_points.open_points(name):
            ok &= open_row(f"{point.label} open", point.state, point.encounter, fights)
    return ok


def main() -> int:
    import notebook_points
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--duel", choices=DUELS, help=argparse.SUPPRESS)   # one duel (section 4's child)
    parser.add_argument("--only-duels", action="store_true", help="section 4 alone")
    parser.add_argument("--only-open", action="store_true", help="section 5 alone")
    parser.add_argument("--notebook", choices=notebook_points.NOTEBOOKS, help="section 5: the moments of this notebook alone")
    parser.add_argument("--reference", type=Path, help="section 4: a checkout whose package is timed beside this one")
    parser.add_argument("--timeout", type=float, default=60.0, help="section 4: seconds a duel may take")
    parser.add_argument("--repeat", type=int, default=3, help="forecasts per measure (median)")
    parser.add_argument("--procedure-fights", type=int, default=30, help="fights through the procedures")
    opts = parser.parse_args()
    if opts.duel:
        one_duel(opts.duel)
        return 0
    if opts.only_duels:
        return 0 if first_duels(opts.reference, opts.timeout) else 1
    if opts.only_open or opts.notebook:
        return 0 if open_decisions(opts.procedure_fights, opts.notebook) else 1
    ok = True

    print("1. An exact duel (the example notebook's Ritter against its Söldner)")
    duels = [timed(lambda: duel().forecast()) for _ in range(opts.repeat)]
    f = duels[0][0]
    first, median = duels[0][1], statistics.median(s for _, s in duels)
    met = f.method == "exakt" and max(first, median) < GOAL_EXACT
    ok &= met
    print(f"   {f.notes[0]}")
    print(f"   {duel_line(f)}; first forecast {first:.3f} s, median {median:.3f} s "
          f"(goal < {GOAL_EXACT:g} s): {'yes' if met else 'NO'}")

    print("2. Mythic Bastionland, four against six: the players' chance of winning to ±1 % (95 %)")
    runs = [timed(lambda s=seed: four_against_six().forecast(seed=s))
            for seed in range(1, opts.repeat + 1)]
    for f, seconds in runs:
        print(f"   {sampled_line(f)}  {seconds:6.2f} s")
    median = statistics.median(s for _, s in runs)
    precise = all(f.precision <= 0.01 for f, _ in runs)
    fast = statistics.median(f.fights / s for f, s in runs)
    played, seconds = timed(lambda: four_against_six().forecast(n=opts.procedure_fights, seed=1, weg="prozeduren"))
    slow = played.fights / seconds
    met = precise and median <= GOAL_PRECISE
    ok &= met
    print(f"   median {median:.2f} s (goal <= {GOAL_PRECISE:g} s): {'yes' if met else 'NO'}")
    print(f"   fights/s: compact path {fast:,.0f}, procedure path {slow:,.1f} ({played.fights} "
          f"fights), ratio {fast / slow:,.0f}")

    print("3. A small fight of each other ruleset through the procedure path")
    for key in OTHERS:
        if key in FOR_A_FORECAST:
            print(f"   {key:<11} for a forecast: {json.dumps(FOR_A_FORECAST[key], ensure_ascii=False)}")
        try:
            enc = notebook_fight(key)
            f, seconds = timed(lambda e=enc: e.forecast(n=opts.procedure_fights, seed=1, weg="prozeduren"))
        except Exception as err:   # a ruleset's fight that does not play is reported, the rest goes on
            print(f"   {key:<11} not played: {str(err).splitlines()[0]}")
            continue
        print(f"   {key:<11} {len(enc.combatants)} combatants, {f.fights} fights in {seconds:.2f} s: "
              f"{f.fights / seconds:,.1f} fights/s")
    ok &= first_duels(opts.reference, opts.timeout)
    ok &= open_decisions(opts.procedure_fights)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
