"""The encounter panel in headless Chromium: first render, turn changes and row clicks with 200 combatants.

The panel's front end (its ES module and CSS, exactly as the widget sends
them) runs in a page against a stand-in for the widget model that holds the
state the Python widget synced; a turn change applies the traits that
``EncounterPanel`` changes on "next turn", as one update, the way a comm
message arrives. Measured in the page with ``performance.now()``: script
plus style and layout (forced by reading the layout), and until the next
frame is painted (the first screenful of rows; the rest follow in later
frames, reported too). A row click picks a target: the row is marked and the
form says it at once, before Python answers. Side by side, the reference: the
static HTML table of the same encounter (``render.encounter_html``, what
``%rpg`` shows) put into the page. Goals: a turn change and a row click under
50 ms, the first render under 100 ms.

    python benchmarks/widgets.py [--combatants 200] [--repeat 15] [--chromium /usr/bin/chromium]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

TARGET_MS = {"render": 100.0, "turn": 50.0, "pick": 50.0}
PER_FRAME = 25   # PANEL_ROWS_PER_FRAME in widgets/encounter.js
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]

PAGE_JS = """
window.makeModel = (state) => {
  const handlers = {};
  const fire = (keys) => { for (const k of keys) for (const f of [...(handlers["change:" + k] || [])]) f(); };
  return {
    get: (k) => state[k],
    set: (k, v) => { state[k] = v; fire([k]); },
    save_changes() {}, send() {},
    on(ev, f) { (handlers[ev] ||= new Set()).add(f); },
    off(ev, f) { handlers[ev]?.delete(f); },
    update(delta) { Object.assign(state, delta); fire(Object.keys(delta)); },
  };
};
window.frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
window.timed = async (work) => {
  const t0 = performance.now();
  work();
  void document.body.offsetHeight;            // style and layout now
  const t1 = performance.now();
  await window.frame();
  return [t1 - t0, performance.now() - t0];
};
"""


def build(n: int, folder: Path):
    """A Bastionland campaign with ``n`` combatants in a started encounter, and its panel."""
    import rpgkernel
    from rpgkernel.widgets import EncounterPanel
    camp = rpgkernel.Campaign.open(folder / "bench.sqlite")
    camp.set_ruleset("bastionland")
    enc = camp.new_encounter("Schlacht am Fluss")
    sheet = {"vig": 12, "cla": 10, "spi": 10, "gd": 4, "waffen": ["Speer (W8)"]}
    half = n // 2
    enc.add("Ritter", side="Spieler", sheet=sheet, count=half)
    enc.add("Söldner", side="Feinde", sheet=sheet, count=n - half)
    enc.start()
    for i in range(1, n, 7):
        camp.add_condition(enc.order[i], "beeinträchtigt", rounds=2)
    return camp, EncounterPanel(camp)


def synced(panel) -> dict:
    """The widget's synced state, as the front end receives it (JSON)."""
    return json.loads(json.dumps({k: v for k, v in panel.get_state().items() if not k.startswith("_")}))


def turn_deltas(panel, count: int) -> list[dict]:
    """The traits that change on each of ``count`` successive turn changes."""
    out, before = [], synced(panel)
    for _ in range(count):
        panel._dispatch(panel, {"type": "next_turn"})
        after = synced(panel)
        out.append({k: v for k, v in after.items() if before.get(k) != v})
        before = after
    return out


def measure(args: argparse.Namespace) -> dict[str, list[float]]:
    from playwright.sync_api import sync_playwright

    from rpgkernel.render import encounter_html
    with tempfile.TemporaryDirectory() as tmp:
        camp, panel = build(args.combatants, Path(tmp))
        esm, css = panel._esm, panel._css
        state = synced(panel)
        static = encounter_html(camp.encounter.record, camp.folded)
        deltas = turn_deltas(panel, args.repeat)
        panel.close()
        camp.close()
    times: dict[str, list[float]] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, args=FLAGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.set_content(f"<html><head><style>{css}</style></head><body></body></html>")
        page.add_script_tag(content=PAGE_JS)
        page.evaluate("async (src) => { const url = URL.createObjectURL(new Blob([src], {type: 'text/javascript'}));"
                      " window.panelModule = (await import(url)).default; }", esm)
        for _ in range(args.repeat):
            times.setdefault("render", []).append(page.evaluate("""async (state) => {
                document.body.replaceChildren();
                const el = document.createElement("div"); document.body.append(el);
                const model = window.makeModel(structuredClone(state));
                let stop;
                const t0 = performance.now();
                const t = await window.timed(() => { stop = window.panelModule.render({ model, el }); });
                while (el.querySelectorAll("tbody tr").length < state.rows.length) await window.frame();
                const all = performance.now() - t0;
                if (typeof stop === "function") stop();
                return [...t, all]; }""", state))
            times.setdefault("static", []).append(page.evaluate("""async (html) => {
                document.body.replaceChildren();
                const el = document.createElement("div"); document.body.append(el);
                return await window.timed(() => { el.innerHTML = html; }); }""", static))
        page.evaluate("""(state) => {
            document.body.replaceChildren();
            const el = document.createElement("div"); document.body.append(el);
            window.model = window.makeModel(structuredClone(state));
            window.panelModule.render({ model: window.model, el }); }""", state)
        for delta in deltas:
            times.setdefault("turn", []).append(page.evaluate(
                "async (delta) => await window.timed(() => window.model.update(delta))", delta))
            current = page.evaluate("() => document.querySelector('[aria-current]')?.textContent || ''")
            expected = delta.get("panel", {}).get("current")
            if expected and expected not in current:
                raise SystemExit(f"turn change not shown: expected {expected!r}, row shows {current!r}")
        for i in range(args.repeat):   # a click on a row further down each time: it becomes the target
            at = (i * 13 + 5) % args.combatants
            times.setdefault("pick", []).append(page.evaluate("""async (at) => {
                const row = document.querySelectorAll("tbody tr")[at];
                const t = await window.timed(() => row.querySelector("td.rpgk-side").click());
                if (row.getAttribute("aria-selected") !== "true") throw new Error("the click picked nothing");
                return t; }""", at))
        browser.close()
    return times


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--combatants", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    args = ap.parse_args(argv)
    times = measure(args)
    print(f"encounter panel, {args.combatants} combatants, Chromium headless; median of {args.repeat} "
          f"(script+layout / until the next frame)")
    rows = [("first render", "render"), ("turn change", "turn"), ("row click (target)", "pick"),
            ("reference: static HTML table", "static")]
    for label, key in rows:
        layout = statistics.median(t[0] for t in times[key])
        painted = statistics.median(t[1] for t in times[key])
        goal = TARGET_MS.get(key)
        verdict = "" if goal is None else f"   goal < {goal:.0f} ms: {'yes' if painted < goal else 'NO'}"
        print(f"  {label:<30} {layout:7.1f} ms / {painted:7.1f} ms{verdict}")
    every = statistics.median(t[2] for t in times["render"])
    print(f"  {'first render, all rows built':<30} {every:7.1f} ms (rows below the first screenful follow"
          f" {PER_FRAME} per frame)")
    ref = statistics.median(t[1] for t in times["static"])
    for label, key in rows[:3]:
        print(f"  ratio {label} / static table: {statistics.median(t[1] for t in times[key]) / ref:5.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
